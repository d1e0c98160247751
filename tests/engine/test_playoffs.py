"""Settling a tie as the hall sees it (docs/rules.md §8–§10): the play-off bracket round by
round, each couple's choice, the prize places and the cookie jar, with the exact code and
words of every refusal (the prize pages and the API show them: scoring/prizes/services.py).
Mutation testing found these unchecked (docs/quality.md, "Mutation testing")."""

from __future__ import annotations

from decimal import Decimal

import pytest

from engine.cards import Card, parse_cards
from engine.prizes import (
    Bracket,
    CutRound,
    PrizeError,
    booby_couples,
    cookie_jar_winners,
    cut_rank,
    decide_tie,
    draw_cookie_jar_games,
    draw_cut,
    judge_cut,
    place_groups,
    split_money,
)


def refusal(info: pytest.ExceptionInfo[PrizeError]) -> tuple[str, str, tuple[int, ...]]:
    return info.value.code, info.value.message, info.value.couples


# --- the play-off bracket -------------------------------------------------------------------------


def test_a_two_couple_play_off_is_one_game() -> None:
    bracket = Bracket((7, 4))
    assert bracket.couples == (4, 7) and bracket.current == [(4, 7)]
    assert bracket.pending() == [(4, 7)] and bracket.champion is None and bracket.games == 1
    bracket.record((4, 7), 7)
    assert bracket.champion == 7 and bracket.pending() == [] and len(bracket.rounds) == 1


def test_the_next_round_is_drawn_only_when_every_match_is_played() -> None:
    bracket = Bracket((1, 2, 3, 4))
    assert bracket.current == [(1, 2), (3, 4)] and bracket.games == 3
    bracket.record((3, 4), 4)
    assert bracket.current == [(1, 2), (3, 4)] and bracket.pending() == [(1, 2)]
    assert bracket.champion is None
    bracket.record((1, 2), 1)
    assert bracket.rounds == [[(1, 2), (3, 4)], [(1, 4)]]
    assert bracket.pending() == [(1, 4)] and bracket.champion is None
    bracket.record((1, 4), 1)
    assert bracket.champion == 1 and len(bracket.rounds) == 2


def test_six_couples_the_odd_winner_out_waits_with_a_bye() -> None:
    bracket = Bracket((6, 5, 4, 3, 2, 1))
    assert bracket.current == [(1, 2), (3, 4), (5, 6)] and bracket.games == 5
    for match, winner in (((1, 2), 2), ((3, 4), 3), ((5, 6), 6)):
        bracket.record(match, winner)
    assert bracket.current == [(2, 3), (6, None)]
    assert bracket.pending() == [(2, 3)]  # a bye is no game to play
    bracket.record((2, 3), 3)
    assert bracket.current == [(3, 6)]
    bracket.record((3, 6), 6)
    assert bracket.champion == 6


def test_a_play_off_needs_two_different_couples() -> None:
    for couples in ((3,), (3, 3), ()):
        with pytest.raises(PrizeError) as info:
            Bracket(couples)
        assert refusal(info) == ("not_a_tie", "A play-off needs two or more couples.", ())


def test_a_result_for_a_match_not_in_the_current_round_is_refused() -> None:
    bracket = Bracket((3, 5, 9))
    for match in ((3, 9), (5, 3), (9, None)):  # not drawn, the wrong way round, the bye
        with pytest.raises(PrizeError) as info:
            bracket.record(match, 3 if 3 in match else 9)  # type: ignore[arg-type]  # a bye is not a match
        assert refusal(info) == (
            "no_such_match",
            f"{match} is not a match of the current round.",
            (),
        )
    bracket.record((3, 5), 5)
    with pytest.raises(PrizeError) as info:
        bracket.record((3, 5), 5)  # that round is over
    assert refusal(info)[0] == "no_such_match"


def test_a_winner_must_be_one_of_the_two_couples() -> None:
    bracket = Bracket((3, 5, 9))
    with pytest.raises(PrizeError) as info:
        bracket.record((3, 5), 9)
    assert refusal(info) == ("wrong_couple", "Couple 9 is not in the match (3, 5).", ())
    assert bracket.pending() == [(3, 5)]


def test_a_match_keeps_its_winner_and_the_same_result_twice_is_harmless() -> None:
    bracket = Bracket((1, 2, 3, 4))
    bracket.record((1, 2), 2)
    bracket.record((1, 2), 2)  # the same result sent again (a phone retrying)
    assert bracket.winners == {(1, 2): 2} and bracket.pending() == [(3, 4)]
    with pytest.raises(PrizeError) as info:
        bracket.record((1, 2), 1)
    assert refusal(info) == ("already_played", "The match (1, 2) already has a winner.", ())
    assert bracket.winners == {(1, 2): 2}


# --- each couple's choice -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("choices", "method", "couples", "forfeits"),
    [
        ({1: "cut", 2: "forfeit", 3: "forfeit"}, "award", (1,), (2, 3)),
        ({4: "split", 2: "cut", 9: "forfeit"}, "cut", (2, 4), (9,)),
        ({5: "split", 3: "split", 8: "split"}, "split", (3, 5, 8), ()),
        ({2: "play-off", 1: "forfeit", 3: "forfeit"}, "award", (2,), (1, 3)),
    ],
)
def test_who_stays_in_a_tie_and_how_it_is_settled(
    choices: dict[int, str], method: str, couples: tuple[int, ...], forfeits: tuple[int, ...]
) -> None:
    decision = decide_tie(choices)
    assert (decision.method, decision.couples, decision.forfeits) == (method, couples, forfeits)


def test_a_tie_of_one_couple_is_refused() -> None:
    for choices in ({1: "split"}, {}):
        with pytest.raises(PrizeError) as info:
            decide_tie(choices)
        assert refusal(info) == ("not_a_tie", "A tie needs two or more couples.", ())


def test_an_unknown_choice_names_the_first_couple_and_lists_them_all() -> None:
    with pytest.raises(PrizeError) as info:
        decide_tie({6: "coin", 2: "split", 4: "toss"})
    assert refusal(info) == (
        "bad_choice",
        "Couple 4: choose split, cut, play-off or forfeit.",
        (4, 6),
    )


def test_a_play_off_asked_for_names_every_couple_still_to_answer() -> None:
    with pytest.raises(PrizeError) as info:
        decide_tie({1: "play-off", 3: "cut", 2: "split", 4: "forfeit"})
    assert refusal(info) == (
        "answer_needed",
        "A play-off was asked for: couple(s) 2, 3 must now choose to play or to forfeit.",
        (2, 3),
    )


# --- prize places, booby prize --------------------------------------------------------------------


def test_the_prize_sheet_shows_each_places_wins() -> None:
    groups = place_groups({1: 18, 2: 18, 3: 16, 4: 15, 5: 15, 6: 9}, prize_places=3)
    assert [(g.place, g.wins, g.is_tie) for g in groups] == [
        (1, 18, True),
        (2, 16, False),
        (3, 15, True),
    ]
    groups = place_groups({8: 12, 3: 12, 5: 10}, prize_places=2, ranking="competition")
    assert [(g.place, g.wins, g.couples, g.prizes) for g in groups] == [(1, 12, (3, 8), (1, 2))]


def test_no_prize_places_gives_no_prize_and_a_negative_number_is_refused() -> None:
    assert place_groups({1: 5, 2: 4}, prize_places=0) == []
    assert place_groups({1: 5, 2: 4}, prize_places=0, ranking="competition") == []
    with pytest.raises(PrizeError) as info:
        place_groups({1: 5}, prize_places=-1)
    assert refusal(info) == ("bad_places", "The number of prize places cannot be negative.", ())


def test_a_tie_below_the_prize_places_is_no_tie_for_a_prize() -> None:
    groups = place_groups({1: 9, 2: 5, 3: 5}, prize_places=1)
    assert [(g.couples, g.is_tie) for g in groups] == [((1,), False)]
    assert place_groups({1: 9, 2: 9}, prize_places=1)[0].is_tie


def test_the_booby_prize_of_a_one_game_night_needs_that_game_played() -> None:
    # Couple 1 was entered but no game of theirs was counted: they cannot take the booby.
    assert booby_couples({1: 0, 2: 0, 3: 1}, {2: 1, 3: 1}, games=1) == (2,)
    assert booby_couples({1: 0}, {}, games=1) == ()


# --- cuts -----------------------------------------------------------------------------------------


def test_cut_values_and_the_joker() -> None:
    values = [cut_rank(c) for c in parse_cards("AS 2H 10D JC QS KH")]
    assert values == [1, 2, 10, 11, 12, 13]
    assert [cut_rank(c, ace_high=True) for c in parse_cards("AS KH 2C")] == [14, 13, 2]
    with pytest.raises(PrizeError) as info:
        cut_rank(Card.parse("JK"))
    assert refusal(info) == ("joker_in_cut", "The joker is taken out of the pack for a cut.", ())


def test_a_cut_of_one_couple_is_refused() -> None:
    with pytest.raises(PrizeError) as info:
        judge_cut({1: Card.parse("5S")})
    assert refusal(info) == ("not_a_tie", "A cut needs two or more couples.", ())
    with pytest.raises(PrizeError) as info:
        draw_cut([4, 4], seed=1)
    assert refusal(info) == ("not_a_tie", "A cut needs two or more couples.", ())


def test_a_cut_counts_aces_low_unless_the_club_says_otherwise() -> None:
    drawn = dict(zip((1, 2), parse_cards("AS 2H"), strict=True))
    assert judge_cut(drawn).lowest == (1,)
    assert judge_cut(drawn, highest=True).lowest == (2,)


def test_a_cut_round_is_decided_when_one_couple_drew_the_winning_card() -> None:
    five, nine = Card.parse("5S"), Card.parse("9H")
    assert judge_cut({1: five, 2: nine}).decided
    assert not judge_cut({1: five, 2: Card.parse("5H"), 3: nine}).decided
    assert CutRound(((1, five), (2, nine)), (1,)).decided


# --- the cookie jar -------------------------------------------------------------------------------


def test_the_cookie_jar_draws_between_one_and_every_game() -> None:
    assert sorted(draw_cookie_jar_games(6, 6, seed=3)) == [1, 2, 3, 4, 5, 6]
    assert len(draw_cookie_jar_games(6, 1, seed=3)) == 1
    assert draw_cookie_jar_games(1, 1, seed=99) == (1,)
    for games, k in ((25, 0), (25, 26), (6, -1)):
        with pytest.raises(PrizeError) as info:
            draw_cookie_jar_games(games, k, seed=1)
        assert refusal(info) == ("bad_draw", f"Draw between 1 and {games} games, not {k}.", ())


def test_every_game_of_the_night_can_come_out_of_the_jar_and_no_other() -> None:
    drawn = {game for seed in range(200) for game in draw_cookie_jar_games(4, 1, seed=seed)}
    assert drawn == {1, 2, 3, 4}


def test_the_cookie_jar_needs_its_games_drawn_and_an_entrant_without_a_win_takes_nothing() -> None:
    with pytest.raises(PrizeError) as info:
        cookie_jar_winners([1, 2], {1: {1, 2}}, ())
    assert refusal(info) == ("no_games_drawn", "Draw the games first.", ())
    assert cookie_jar_winners([1, 2], {1: {3, 5, 7}}, (5, 3)) == (1,)


def test_a_split_of_cents_among_more_couples_than_cents() -> None:
    assert split_money(Decimal("0.02"), [9, 1, 5]) == {
        1: Decimal("0.01"),
        5: Decimal("0.01"),
        9: Decimal("0.00"),
    }
