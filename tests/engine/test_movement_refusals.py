"""The movement as the hall sees it (docs/rules.md §7): the exact code and words of each
refusal (the desk and the API show them), who deals and who sits out at a table, late
couples taking a withdrawn couple's seat, and the words of the night's integrity check.
Mutation testing found these unchecked (docs/quality.md, "Mutation testing")."""

from __future__ import annotations

from typing import Any

import pytest

from engine.movement import (
    MovementError,
    Seating,
    TableSeat,
    check_invariants,
    credited_wins,
    first_seating,
    next_seating,
)


def rows(seating: Seating) -> list[tuple[int, int | None, int | None]]:
    return [(t.table, t.stays, t.arrives) for t in seating.tables]


FOUR = first_seating(range(1, 5))  # (1, 1, 2) (2, 3, 4)


@pytest.mark.parametrize(
    ("winners", "kwargs", "code", "message"),
    [
        ({1: 2}, {}, "missing_result", "Table 2 has no result."),
        ({1: 2, 2: 1}, {}, "winner_not_at_table", "Couple 1 did not play at table 2."),
        (
            {1: 2, 2: 3},
            {"withdrawn": [12, 9, 3]},
            "not_seated",
            "Couple 9 is not playing, so cannot withdraw.",
        ),
        ({1: 2, 2: 3}, {"late": [4]}, "already_seated", "A late couple is already seated."),
        ({1: 2, 2: 3}, {"late": [5, 6, 5]}, "already_seated", "A late couple is already seated."),
        (
            {1: 2, 2: 3},
            {"movement": "everybody-moves"},
            "bad_movement",
            "Movement must be one of winners-move, losers-move.",
        ),
    ],
)
def test_each_refusal_of_the_next_game_has_its_words(
    winners: dict[int, int], kwargs: dict[str, Any], code: str, message: str
) -> None:
    with pytest.raises(MovementError) as info:
        next_seating(FOUR, winners, **kwargs)
    assert (info.value.code, info.value.message, str(info.value)) == (code, message, message)


def test_a_night_without_tables_or_couples_is_refused() -> None:
    with pytest.raises(MovementError) as info:
        next_seating(Seating(()), {})
    assert (info.value.code, info.value.message) == ("no_tables", "There is no open table.")
    with pytest.raises(MovementError) as info:
        first_seating([])
    assert (info.value.code, info.value.message) == (
        "no_couples",
        "A drive needs at least one couple to start.",
    )


@pytest.mark.parametrize(
    "tables",
    [
        (TableSeat(2, 3, 4), TableSeat(1, 1, 2)),
        (TableSeat(1, 1, 2), TableSeat(1, 3, 4)),
    ],
)
def test_a_seating_lists_each_table_once_in_order(tables: tuple[TableSeat, ...]) -> None:
    with pytest.raises(MovementError) as info:
        Seating(tables)
    assert (info.value.code, info.value.message) == (
        "bad_tables",
        "Tables must be listed once each, in order.",
    )


def test_a_couple_not_at_a_table_has_no_opponent_there() -> None:
    seat = TableSeat(3, 5, 6)
    assert (seat.other(5), seat.other(6)) == (6, 5)
    with pytest.raises(MovementError) as info:
        seat.other(7)
    assert (info.value.code, info.value.message) == ("not_at_table", "Couple 7 is not at table 3.")


def test_a_lone_couple_at_a_table_deals_and_sits_out() -> None:
    staying_alone = TableSeat(4, 7, None)
    arrived_alone = TableSeat(4, None, 8)
    assert (staying_alone.lone, staying_alone.dealer, staying_alone.couples) == (7, 7, (7,))
    assert (arrived_alone.lone, arrived_alone.dealer, arrived_alone.couples) == (8, 8, (8,))
    assert staying_alone.is_sit_out and arrived_alone.is_sit_out
    full = TableSeat(4, 7, 8)
    assert (full.lone, full.dealer, full.is_sit_out) == (None, 8, False)
    empty = TableSeat(4, None, None)
    assert (empty.lone, empty.dealer, empty.is_sit_out, empty.couples) == (None, None, False, ())


def test_the_seating_as_the_api_and_the_table_cards_show_it() -> None:
    seating = first_seating([5, 3, 1, 3])  # a couple listed twice is seated once
    assert seating.to_list() == [
        {"table": 1, "stays": 1, "arrives": 3},
        {"table": 2, "stays": 5, "arrives": None},
    ]
    assert seating.table_of() == {1: 1, 3: 1, 5: 2}
    assert seating.sit_out == TableSeat(2, 5, None) and seating.last_table == 2
    assert Seating((), frozenset({4})).last_table == 4 and Seating(()).last_table == 0
    assert Seating((TableSeat(1, 1, 2),)).sit_out is None


def test_seed_zero_is_a_shuffle_like_any_other() -> None:
    shuffled = first_seating(range(1, 21), shuffle_seed=0)
    assert shuffled == first_seating(range(1, 21), shuffle_seed=0)
    assert rows(shuffled) != rows(first_seating(range(1, 21)))


def test_a_late_couple_takes_a_withdrawn_couples_seat_and_the_arriving_couple_still_deals() -> None:
    game1 = first_seating(range(1, 7))  # (1,2) (3,4) (5,6)
    # 4 lost at table 2 and would stay; it withdraws and 7 arrives late in its place.
    game2 = next_seating(game1, {1: 2, 2: 3, 3: 6}, withdrawn=[4], late=[7])
    assert rows(game2) == [(1, 1, 6), (2, 7, 2), (3, 5, 3)]
    assert game2.by_number()[2].dealer == 2 and game2.sit_out is None


def test_a_table_without_a_result_yet_punches_no_hole() -> None:
    game1 = first_seating(range(1, 6))  # (1,2) (3,4) (5,-)
    assert credited_wins(game1, {1: 2}) == {2: 1, 5: 1}
    assert credited_wins(game1, {1: 2}, sit_out_counts_as_win=False) == {2: 1}


def test_the_integrity_check_says_what_is_wrong_in_words() -> None:
    broken = Seating(
        (TableSeat(1, 1, 2), TableSeat(2, 2, None), TableSeat(3, 3, 3), TableSeat(4, 6, None)),
        frozenset({3}),
    )
    problems = check_invariants(
        broken, {1, 2, 3, 4}, wins={1: 3, 2: 2, 6: 1}, games_played={1: 2, 2: 2}
    )
    assert problems == [
        "couple 2 sits at tables 1 and 2",
        "closed table 3 seats couples",
        "couple 3 sits at tables 3 and 3",  # both seats of table 3
        "couple 3 plays itself at table 3",
        "active couples without a table: [4]",
        "couples seated but not active: [6]",
        "more than one sit-out table: [2, 4]",
        "couple 1 has 3 wins in 2 games",
        "couple 6 has 1 wins in 0 games",
    ]
    # Wins are only compared with games when both are given.
    assert check_invariants(first_seating([1, 2]), {1, 2}, wins={1: 9}) == []
    assert check_invariants(first_seating([1, 2]), {1, 2}, games_played={1: 0}) == []
