"""The engine's verdicts on a final score, in the reader's language: the engine speaks English
only, drives.guards.verdict_words says the same in the language active (the table's phone
of a French hall, the desk of a French scorer), by the verdict's code and wording, with the
verdict's own numbers."""

from __future__ import annotations

import pytest
from django.utils import translation

from drives.guards import VERDICT_WORDS, verdict_words
from engine.rules import PRESETS, make_ruleset
from engine.scores import WORDS, check_final_score

SCORES = [(w, loser) for w in range(-20, 200, 5) for loser in range(-40, 200, 5)] + [
    (47, 10),
    (45, 12),
]


def verdicts():
    for rules in PRESETS.values():
        for w, loser in SCORES:
            verdict = check_final_score(w, loser, rules)
            if verdict.status != "ok":
                yield verdict


def test_in_english_the_words_are_the_engines() -> None:
    """Every verdict the presets give, said again by code: word for word the engine's, so the
    French templates say what the engine says."""
    codes = set()
    with translation.override("en"):
        for verdict in verdicts():
            assert verdict_words(verdict) == verdict.message
            codes.add(verdict.code)
    assert {
        "trumpless_hands",
        "winner_below_target",
        "loser_ahead",
        "too_many_points",
        "game_already_won",
        "not_whole_hands",
        "not_multiple_of_five",
        "negative_points",
    } <= codes


@pytest.mark.parametrize("code", ["trumpless_hands", "winner_below_target", "not_whole_hands"])
def test_in_french_no_english_is_left(code: str) -> None:
    seen = 0
    with translation.override("fr"):
        for verdict in verdicts():
            if verdict.code != code:
                continue
            words = verdict_words(verdict)
            assert words != verdict.message
            assert " the " not in words and "can only" not in words and "needs" not in words
            seen += 1
    assert seen


def test_an_unusual_score_at_a_french_table_is_explained_in_french() -> None:
    rules = PRESETS["cape-breton-45"]
    verdict = check_final_score(45, 10, rules)
    assert verdict.code == "trumpless_hands"
    with translation.override("fr"):
        words = verdict_words(verdict)
    assert words.startswith("45–10 n'est possible qu'avec ")
    assert "où aucun atout n'a été joué" in words


def test_a_tie_played_on_is_said_in_french_with_its_score_and_target() -> None:
    play_on = make_ruleset(equal_totals="play-on")
    verdict = check_final_score(50, 50, play_on)
    with translation.override("en"):
        assert verdict_words(verdict) == verdict.message
    with translation.override("fr"):
        words = verdict_words(verdict)
    assert words.startswith("50–50") and "45" in words and "égalité" in words


def test_the_words_looked_up_are_the_engines_sentences() -> None:
    """Each code and wording translated here is one the engine gives, in the engine's own
    English: a sentence changed in the engine cannot leave a stale translation behind."""
    for key, words in VERDICT_WORDS.items():
        assert WORDS[key] == words, key


def test_an_auction_floor_is_said_in_french_with_its_numbers() -> None:
    """Auction with a floor: a winner below the target, the losers above the floor."""
    rules = make_ruleset("auction-120", floor=-120)
    verdict = check_final_score(100, -50, rules)
    assert (verdict.code, verdict.wording) == ("winner_below_target", "floor")
    with translation.override("en"):
        assert verdict_words(verdict) == verdict.message
    with translation.override("fr"):
        words = verdict_words(verdict)
    assert words.startswith("100–−50 : ") and "120 points" in words and "-120" in words
    assert "perdants" in words


def test_every_refused_or_unusual_score_of_the_presets_is_said_in_french() -> None:
    """No code and wording a scorer can meet falls back to the engine's English."""
    with translation.override("fr"):
        left = {(v.code, v.wording) for v in verdicts() if verdict_words(v) == v.message}
    assert left == set()
