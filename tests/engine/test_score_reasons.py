"""Why a final score is refused or needs confirming (docs/rules.md §5): the words a scorer
reads when a result is entered, for each kind of score, under the presets and switches that
change them."""

import pytest

from engine.rules import Ruleset, get_ruleset, make_ruleset
from engine.scores import WORDS, check_final_score, check_final_scores, legal_final_scores

CB = get_ruleset("cape-breton-45")
IRISH = get_ruleset("irish-45-joker")  # a jink (all five tricks) wins the game
AUCTION = get_ruleset("auction-120")


@pytest.mark.parametrize(
    ("w", "loser", "rules", "code", "message"),
    [
        (40, 10, CB, "winner_below_target", "40–10: the winner needs at least 45 points."),
        (
            20,
            0,
            IRISH,
            "winner_below_target",
            "20–0: the winner needs at least 45 points, or all five tricks of the last hand.",
        ),
        (
            75,
            0,
            CB,
            "too_many_points",
            "75–0: more points than the hands could give; a winner ends with at most 70.",
        ),
        (
            60,
            60,
            CB,
            "too_many_points",
            "60–60: more points than the hands could give; a loser ends with at most 55.",
        ),
        # 55 is as far as a loser gets (55–55, four trumpless hands), but not behind 60: the
        # losers would have passed 45 first.
        (
            60,
            55,
            CB,
            "game_already_won",
            "60–55: this needs a hand played after the game was already won "
            "(the game ends as soon as a couple has 45).",
        ),
        (
            70,
            5,
            IRISH,
            "game_already_won",
            "70–5: this needs a hand played after the game was already won "
            "(the game ends as soon as a couple has 45 or takes all five tricks).",
        ),
        (
            55,
            40,
            CB,
            "not_whole_hands",
            "55–40: 95 points in all is not a number of whole hands "
            "(a hand gives 30, or 25 without a trump).",
        ),
        (
            45,
            20,
            CB,
            "not_whole_hands",
            "45–20: 65 points in all is not a number of whole hands "
            "(a hand gives 30, or 25 without a trump).",
        ),
    ],
)
def test_a_refused_score_says_why(
    w: int, loser: int, rules: Ruleset, code: str, message: str
) -> None:
    verdict = check_final_score(w, loser, rules)
    assert (verdict.status, verdict.code, verdict.message) == ("impossible", code, message)
    assert not verdict.accepted


@pytest.mark.parametrize(
    ("w", "loser", "hands", "words"),
    [
        (45, 40, 1, "1 hand"),  # 30 + 30 + 25
        (60, 45, 3, "3 hands"),  # 105 = 30 + 3 × 25
        (60, 40, 4, "4 hands"),  # 100 = 4 × 25
    ],
)
def test_an_unusual_score_counts_its_trumpless_hands(
    w: int, loser: int, hands: int, words: str
) -> None:
    verdict = check_final_score(w, loser, CB)
    assert (verdict.status, verdict.code, verdict.trumpless_hands) == (
        "unusual",
        "trumpless_hands",
        hands,
    )
    assert verdict.message == (
        f"{w}–{loser} can only happen with {words} in which no trump was played. "
        "Check it with the table, then confirm it."
    )
    assert verdict.accepted
    # Without the best-trump bonus a 25-point hand is common: the same score is regular.
    common = check_final_score(w, loser, make_ruleset(bonus="top-four"))
    assert (common.status, common.message) == ("ok", f"{w}–{loser} is a regular final score.")


def test_the_score_picker_lists_the_highest_winner_first() -> None:
    assert legal_final_scores(CB) == [
        (70, 20),
        (65, 25),
        (60, 0),
        (60, 30),
        (55, 5),
        (55, 35),
        (50, 10),
        (50, 40),
        (45, 15),
        (45, 45),
    ]
    with_unusual = legal_final_scores(CB, include_unusual=True)
    assert set(legal_final_scores(CB)) < set(with_unusual)
    assert (45, 40) in with_unusual and (60, 45) in with_unusual
    assert with_unusual == sorted(with_unusual, key=lambda s: (-s[0], s[1]))
    for w, loser in with_unusual:
        assert check_final_score(w, loser, CB).status in ("ok", "unusual")


def test_auction_has_no_list_of_final_scores() -> None:
    with pytest.raises(ValueError, match="Auction final scores are unbounded"):
        legal_final_scores(AUCTION)


@pytest.mark.parametrize("rules", [CB, IRISH, AUCTION])
def test_a_whole_nights_scores_get_the_same_verdicts_as_one_by_one(rules: Ruleset) -> None:
    night = [(45, 15), (120, 50), (45, 40), (40, 10), (45.0, 15), (45, "15"), (75, 0), (130, 90)]
    assert list(check_final_scores(night, rules)) == [
        check_final_score(w, loser, rules) for w, loser in night
    ]
    verdicts = list(check_final_scores(night, rules))
    assert verdicts[4].code == verdicts[5].code == "not_a_number"


def test_tied_games_played_on_have_no_highest_score() -> None:
    """``equal_totals: play-on``: a tie at 45 or more is played on, so a winner has no most
    points; a long game is judged like the shorter one it extends by 15–15 hands."""
    play_on = make_ruleset(equal_totals="play-on")
    for w, loser in ((135, 105), (165, 135)):
        verdict = check_final_score(w, loser, play_on)
        assert (verdict.status, verdict.message) == ("ok", f"{w}–{loser} is a regular final score.")
    long_unusual = check_final_score(200, 170, play_on)
    assert (long_unusual.status, long_unusual.trumpless_hands, long_unusual.message) == (
        "unusual",
        4,
        "200–170 can only happen with 4 hands in which no trump was played. "
        "Check it with the table, then confirm it.",
    )
    refused = check_final_score(130, 90, play_on)
    assert (refused.code, refused.message) == (
        "game_already_won",
        "130–90: this needs a hand played after the game was already won "
        "(the game ends as soon as a couple has 45).",
    )


@pytest.mark.parametrize(
    ("w", "loser", "rules", "code", "wording", "params"),
    [
        (45, 15, CB, "ok", "regular", {"score": "45–15"}),
        (45, 40, CB, "trumpless_hands", "one", {"score": "45–40", "hands": 1}),
        (60, 40, CB, "trumpless_hands", "many", {"score": "60–40", "hands": 4}),
        (40, 10, CB, "winner_below_target", "", {"score": "40–10", "target": 45}),
        (20, 0, IRISH, "winner_below_target", "five_tricks", {"score": "20–0", "target": 45}),
        (75, 0, CB, "too_many_points", "winner", {"score": "75–0", "most": 70}),
        (60, 60, CB, "too_many_points", "loser", {"score": "60–60", "most": 55}),
        (60, 55, CB, "game_already_won", "", {"score": "60–55", "target": 45}),
        (
            55,
            40,
            CB,
            "not_whole_hands",
            "",
            {"score": "55–40", "total": 95, "full": 30, "trumpless": 25},
        ),
        (47, 10, CB, "not_multiple_of_five", "", {"value": 47}),
        (45, -5, CB, "negative_points", "", {"value": -5}),
        (45.0, 15, CB, "not_a_number", "", {"value": "45.0"}),
        (120, 50, AUCTION, "ok", "possible", {"score": "120–50"}),
    ],
)
def test_a_verdict_carries_the_numbers_its_words_name(
    w: int, loser: int, rules: Ruleset, code: str, wording: str, params: dict[str, object]
) -> None:
    """What an app needs to say the verdict in another language: the code, which of its
    wordings, and the score, target, hands… the English message is made of."""
    verdict = check_final_score(w, loser, rules)
    assert (verdict.code, verdict.wording, dict(verdict.params)) == (code, wording, params)
    assert verdict.message == WORDS[code, wording] % params
