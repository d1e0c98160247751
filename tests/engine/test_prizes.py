"""Prizes and ties (docs/rules.md §8–§10): places, the choice rule, cuts, play-offs, money split to
the cent, the booby prize, the cookie jar and the jackpot."""

import itertools
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import Card, parse_cards
from engine.prizes import (
    Bracket,
    PrizeError,
    booby_couples,
    cookie_jar_winners,
    cut_rank,
    decide_tie,
    draw_cookie_jar_games,
    draw_cut,
    jackpot_winners,
    judge_cut,
    place_groups,
    split_money,
)

HALL = {1: 18, 2: 18, 3: 16, 4: 15, 5: 15, 6: 9}


def test_the_halls_example_dense() -> None:
    groups = place_groups(HALL, prize_places=3)
    assert [(g.place, g.couples, g.prizes, g.is_tie) for g in groups] == [
        (1, (1, 2), (1,), True),
        (2, (3,), (2,), False),  # second without any tie procedure
        (3, (4, 5), (3,), True),
    ]


def test_competition_ranking_covers_the_combined_places() -> None:
    groups = place_groups(HALL, prize_places=3, ranking="competition")
    assert [(g.place, g.couples, g.prizes) for g in groups] == [
        (1, (1, 2), (1, 2)),
        (3, (3,), (3,)),
    ]
    groups = place_groups({1: 9, 2: 8, 3: 8, 4: 8}, prize_places=3, ranking="competition")
    assert [(g.couples, g.prizes) for g in groups] == [((1,), (1,)), ((2, 3, 4), (2, 3))]


def test_withdrawn_couples_take_no_place() -> None:
    groups = place_groups(HALL, prize_places=3, withdrawn=[3])
    assert [(g.couples, g.prizes) for g in groups] == [((1, 2), (1,)), ((4, 5), (2,)), ((6,), (3,))]


@pytest.mark.parametrize(
    ("choices", "method", "couples", "forfeits"),
    [
        ({1: "split", 2: "split"}, "split", (1, 2), ()),
        ({1: "split", 2: "cut"}, "cut", (1, 2), ()),
        ({1: "cut", 2: "cut", 3: "split"}, "cut", (1, 2, 3), ()),
        ({1: "play-off", 2: "play-off"}, "play-off", (1, 2), ()),
        ({1: "play-off", 2: "forfeit", 3: "play-off"}, "play-off", (1, 3), (2,)),
        ({1: "play-off", 2: "forfeit"}, "award", (1,), (2,)),
        ({1: "split", 2: "split", 3: "forfeit"}, "split", (1, 2), (3,)),
        ({1: "split", 2: "forfeit"}, "award", (1,), (2,)),
        ({1: "forfeit", 2: "forfeit"}, "empty", (), (1, 2)),
    ],
)
def test_every_branch_of_the_choice_rule(
    choices: dict[int, str], method: str, couples: tuple[int, ...], forfeits: tuple[int, ...]
) -> None:
    decision = decide_tie(choices)
    assert (decision.method, decision.couples, decision.forfeits) == (method, couples, forfeits)


def test_a_play_off_asks_the_others_to_play_or_forfeit() -> None:
    with pytest.raises(PrizeError) as info:
        decide_tie({1: "play-off", 2: "split", 3: "cut"})
    assert info.value.code == "answer_needed" and info.value.couples == (2, 3)
    with pytest.raises(PrizeError) as info:
        decide_tie({1: "toss"})
    assert info.value.code in ("not_a_tie", "bad_choice")
    with pytest.raises(PrizeError):
        decide_tie({1: "split", 2: "coin"})


@pytest.mark.parametrize(
    ("cards", "ace_high", "lowest"),
    [
        ("AS 2H KD", False, (1,)),
        ("AS 2H KD", True, (2,)),
        ("5S 5H 9D", False, (1, 2)),  # suits do not rank: cut again
        ("KS QH JD", False, (3,)),
        ("10C 10D 10H", False, (1, 2, 3)),
    ],
)
def test_the_lowest_card_wins_a_cut(cards: str, ace_high: bool, lowest: tuple[int, ...]) -> None:
    drawn = dict(zip((1, 2, 3), parse_cards(cards), strict=True))
    assert judge_cut(drawn, ace_high=ace_high).lowest == lowest


@pytest.mark.parametrize(
    ("cards", "ace_high", "best"),
    [
        ("AS 2H KD", True, (1,)),  # the way many halls cut: highest wins, aces high
        ("AS 2H KD", False, (3,)),
        ("9S 9H 3D", True, (1, 2)),  # equal highest cut again
    ],
)
def test_the_highest_card_wins_a_high_cut(cards: str, ace_high: bool, best: tuple) -> None:
    drawn = dict(zip((1, 2, 3), parse_cards(cards), strict=True))
    assert judge_cut(drawn, ace_high=ace_high, highest=True).lowest == best
    rounds = draw_cut([1, 2, 3], seed=7, ace_high=True, highest=True)
    last = dict(rounds[-1].cards)
    assert max(cut_rank(c, ace_high=True) for c in last.values()) == cut_rank(
        last[rounds[-1].lowest[0]], ace_high=True
    )


def test_cut_ranks() -> None:
    assert cut_rank(Card.parse("AH")) == 1 and cut_rank(Card.parse("AH"), ace_high=True) == 14
    with pytest.raises(PrizeError):
        cut_rank(Card.parse("JK"))


def test_a_system_cut_reproduces_from_its_seed_and_recuts_equal_lowest() -> None:
    rounds = draw_cut([4, 9, 12], seed=2026)
    assert rounds == draw_cut([12, 4, 9], seed=2026)
    assert rounds[-1].decided and all(not r.decided for r in rounds[:-1])
    # Find a seed whose first round has equal lowest cards, and check the recut is among them.
    for seed in range(2000):
        rounds = draw_cut(list(range(1, 9)), seed=seed)
        if len(rounds) > 1:
            assert set(c for c, _ in rounds[1].cards) == set(rounds[0].lowest)
            break
    else:
        pytest.fail("no repeated equal lowest card in 2,000 seeded cuts of 8 couples")


def test_a_three_couple_play_off_has_a_bye() -> None:
    bracket = Bracket((9, 3, 5))
    assert bracket.current == [(3, 5), (9, None)]
    assert bracket.games == 2 and bracket.champion is None
    bracket.record((3, 5), 5)
    assert bracket.current == [(5, 9)]
    bracket.record((5, 9), 9)
    assert bracket.champion == 9


def test_a_five_couple_play_off() -> None:
    bracket = Bracket((1, 2, 3, 4, 5))
    assert bracket.current == [(1, 2), (3, 4), (5, None)]
    bracket.record((1, 2), 2)
    with pytest.raises(PrizeError) as info:
        bracket.record((3, 4), 1)
    assert info.value.code == "wrong_couple"
    bracket.record((3, 4), 3)
    assert bracket.current == [(2, 3), (5, None)]
    bracket.record((2, 3), 2)
    assert bracket.current == [(2, 5)]
    bracket.record((2, 5), 5)
    assert bracket.champion == 5 and bracket.games == 4


@pytest.mark.parametrize(
    ("amount", "couples", "shares"),
    [
        ("100.00", [1, 2], ["50.00", "50.00"]),
        ("100.00", [7, 3, 5], ["33.34", "33.33", "33.33"]),  # to couples 3, 5, 7
        ("0.05", [1, 2, 3], ["0.02", "0.02", "0.01"]),
        ("10", [2, 1, 4, 3], ["2.50", "2.50", "2.50", "2.50"]),
    ],
)
def test_split_remainders_go_to_the_lower_numbers(
    amount: str, couples: list[int], shares: list[str]
) -> None:
    split = split_money(Decimal(amount), couples)
    assert [str(split[c]) for c in sorted(couples)] == shares
    assert sum(split.values()) == Decimal(amount)


def test_a_split_needs_money_to_the_cent() -> None:
    with pytest.raises(PrizeError):
        split_money(Decimal("1.005"), [1, 2])


def test_booby_prize_fewest_wins_among_those_who_played_every_game() -> None:
    wins = {1: 18, 2: 3, 3: 3, 4: 1, 5: 5}
    played = {1: 25, 2: 25, 3: 25, 4: 12, 5: 25}
    assert booby_couples(wins, played, games=25) == (2, 3)  # a tie; couple 4 left early
    assert booby_couples(wins, played, games=25, withdrawn=[2]) == (3,)
    assert booby_couples({1: 2, 2: 2}, {1: 25, 2: 25}, games=25, exclude=[1]) == (2,)


def test_cookie_jar_zero_one_or_several_winners() -> None:
    drawn = draw_cookie_jar_games(25, 8, seed=77)
    assert drawn == draw_cookie_jar_games(25, 8, seed=77) and len(set(drawn)) == 8
    assert all(1 <= g <= 25 for g in drawn)
    everything = set(range(1, 26))
    won = {1: everything, 2: everything - {drawn[0]}, 3: everything, 4: set(drawn)}
    assert cookie_jar_winners([1, 2], won, drawn) == (1,)
    assert cookie_jar_winners([1, 3, 4], won, drawn) == (1, 3, 4)
    assert cookie_jar_winners([2], won, drawn) == ()
    with pytest.raises(PrizeError):
        draw_cookie_jar_games(25, 26, seed=1)


def test_jackpot_shared_by_all_over_the_threshold() -> None:
    assert jackpot_winners({1: 14, 2: 15, 3: 13, 4: 20}, 14, withdrawn=[4]) == (1, 2)


@given(
    st.dictionaries(st.integers(1, 200), st.integers(0, 25), min_size=1, max_size=60),
    st.integers(0, 6),
    st.sampled_from(["dense", "competition"]),
    st.sets(st.integers(1, 200), max_size=5),
)
def test_no_couple_takes_two_places_and_no_prize_is_given_twice(
    wins: dict[int, int], prize_places: int, ranking: str, withdrawn: set[int]
) -> None:
    groups = place_groups(wins, prize_places=prize_places, ranking=ranking, withdrawn=withdrawn)
    couples = [c for g in groups for c in g.couples]
    assert len(couples) == len(set(couples)) and not set(couples) & withdrawn
    prizes = [p for g in groups for p in g.prizes]
    assert len(prizes) == len(set(prizes)) and all(1 <= p <= prize_places for p in prizes)
    eligible = len([c for c in wins if c not in withdrawn])
    if ranking == "competition":
        assert len(prizes) == min(prize_places, eligible)
    for earlier, later in itertools.pairwise(groups):
        assert earlier.wins > later.wins


@given(st.integers(0, 10**6), st.lists(st.integers(1, 500), min_size=1, max_size=30, unique=True))
def test_split_shares_add_up_and_differ_by_at_most_a_cent(cents: int, couples: list[int]) -> None:
    amount = Decimal(cents) / 100
    split = split_money(amount, couples)
    assert sum(split.values()) == amount
    assert max(split.values()) - min(split.values()) <= Decimal("0.01")
