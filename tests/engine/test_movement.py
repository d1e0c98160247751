"""The movement of docs/rules.md §7: first seating, winners move, sit-outs, late arrivals,
withdrawals, merged sit-outs and closed tables, and the invariants over random nights."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (2, [(1, 1, 2)]),
        (3, [(1, 1, 2), (2, 3, None)]),
        (8, [(1, 1, 2), (2, 3, 4), (3, 5, 6), (4, 7, 8)]),
        (9, [(1, 1, 2), (2, 3, 4), (3, 5, 6), (4, 7, 8), (5, 9, None)]),
    ],
)
def test_first_seating_by_number(n: int, expected: list[tuple[int, int, int | None]]) -> None:
    seating = first_seating(range(1, n + 1))
    assert rows(seating) == expected
    assert seating.tables[0].dealer == 2  # the arriving couple deals first
    assert (seating.sit_out is not None) == (n % 2 == 1)


def test_shuffled_first_seating_reproduces_from_its_seed() -> None:
    a = first_seating(range(1, 42), shuffle_seed=2026)
    assert a == first_seating(range(1, 42), shuffle_seed=2026)
    assert a != first_seating(range(1, 42), shuffle_seed=2027)
    assert sorted(a.table_of()) == list(range(1, 42)) and len(a.tables) == 21


def test_winners_move_to_the_next_table_and_losers_stay() -> None:
    game1 = first_seating(range(1, 7))  # (1,2) (3,4) (5,6)
    game2 = next_seating(game1, {1: 2, 2: 3, 3: 6})
    assert rows(game2) == [(1, 1, 6), (2, 4, 2), (3, 5, 3)]
    assert game2.by_number()[1].dealer == 6


def test_losers_move_option() -> None:
    game2 = next_seating(first_seating(range(1, 7)), {1: 2, 2: 3, 3: 6}, movement="losers-move")
    assert rows(game2) == [(1, 2, 5), (2, 3, 1), (3, 6, 4)]


def test_a_lone_couple_moves_on_as_a_winner_would() -> None:
    game1 = first_seating(range(1, 6))  # (1,2) (3,4) (5,-)
    game2 = next_seating(game1, {1: 1, 2: 4})
    assert rows(game2) == [(1, 2, 5), (2, 3, 1), (3, None, 4)]
    game2_losers = next_seating(game1, {1: 1, 2: 4}, movement="losers-move")
    assert rows(game2_losers) == [(1, 1, 5), (2, 4, 2), (3, None, 3)]


def test_two_couples_at_one_table_stay_there() -> None:
    assert rows(next_seating(first_seating([1, 2]), {1: 2})) == [(1, 1, 2)]


def test_sit_out_credit_follows_the_drive_setting() -> None:
    game1 = first_seating(range(1, 6))
    assert credited_wins(game1, {1: 1, 2: 4}) == {1: 1, 4: 1, 5: 1}
    assert credited_wins(game1, {1: 1, 2: 4}, sit_out_counts_as_win=False) == {1: 1, 4: 1}


def test_a_late_arrival_fills_the_sit_out_seat() -> None:
    game1 = first_seating(range(1, 6))
    game2 = next_seating(game1, {1: 1, 2: 4}, late=[6])
    assert rows(game2) == [(1, 2, 5), (2, 3, 1), (3, 6, 4)]


def test_a_late_arrival_without_a_sit_out_opens_a_table_after_the_last() -> None:
    game1 = first_seating(range(1, 5))
    game2 = next_seating(game1, {1: 1, 2: 4}, late=[5, 6, 7])
    assert rows(game2) == [(1, 2, 4), (2, 3, 1), (3, 5, 6), (4, 7, None)]


def test_a_withdrawal_empties_a_seat_from_the_next_game() -> None:
    game1 = first_seating(range(1, 7))
    game2 = next_seating(game1, {1: 2, 2: 3, 3: 6}, withdrawn=[4])
    assert rows(game2) == [(1, 1, 6), (2, None, 2), (3, 5, 3)]
    assert check_invariants(game2, {1, 2, 3, 5, 6}) == []


def test_two_withdrawals_merge_the_sit_out_tables_and_close_one() -> None:
    game1 = first_seating(range(1, 9))  # (1,2) (3,4) (5,6) (7,8)
    game2 = next_seating(game1, {1: 2, 2: 4, 3: 6, 4: 8}, withdrawn=[3, 7])
    # Before merging: (1,8) (-,2) (5,4) (-,6): table 4's lone couple moves to table 2.
    assert rows(game2) == [(1, 1, 8), (2, 2, 6), (3, 5, 4)]
    assert game2.closed == {4}
    # The closed table is skipped: the winner at table 3 now goes to table 1.
    game3 = next_seating(game2, {1: 8, 2: 6, 3: 4})
    assert rows(game3) == [(1, 1, 4), (2, 2, 8), (3, 5, 6)]
    # A late couple opens table 5, not the closed table 4: numbers never change.
    game4 = next_seating(game3, {1: 1, 2: 2, 3: 5}, late=[9])
    assert [t.table for t in game4.tables] == [1, 2, 3, 5] and game4.closed == {4}


def test_a_table_whose_couples_both_withdraw_closes() -> None:
    game2 = next_seating(first_seating(range(1, 7)), {1: 2, 2: 3, 3: 6}, withdrawn=[1, 6])
    assert rows(game2) == [(2, 4, 2), (3, 5, 3)] and game2.closed == {1}


def test_sit_out_last_a_withdrawal_in_the_middle_moves_the_last_table_into_the_hole() -> None:
    """16 couples; 5 withdraws, so the loser staying at table 4 (8) is left alone. The last
    table's couples (16 staying, 13 arriving) take table 4 as they were; 8 sits out after the
    last table. Without the rule 8 sits out at "table 4", a hole among the tables played."""
    first = first_seating(range(1, 17))
    winners = {t.table: t.stays for t in first.tables}  # 1, 3, 5, ... win and move up
    plain = next_seating(first, winners, withdrawn=[5])
    assert (4, 8, None) in rows(plain)
    seating = next_seating(first, winners, withdrawn=[5], sit_out_last=True)
    assert rows(seating) == [
        (1, 2, 15),
        (2, 4, 1),
        (3, 6, 3),
        (4, 16, 13),
        (5, 10, 7),
        (6, 12, 9),
        (7, 14, 11),
        (8, 8, None),
    ]
    assert seating.closed == frozenset()
    # Next game: the lone couple moves on to table 1 as a winner would.
    after = next_seating(
        seating, {t.table: t.couples[0] for t in seating.tables[:-1]}, sit_out_last=True
    )
    assert after.by_number()[1].arrives == 8


def test_sit_out_last_a_table_emptied_is_filled_and_late_couples_come_after_the_last() -> None:
    first = first_seating(range(1, 11))  # 5 tables
    winners = {t.table: t.stays for t in first.tables}
    # 4 stays at table 2 and 1 arrives there: both withdraw, table 2 empties.
    seating = next_seating(first, winners, withdrawn=[4, 1], sit_out_last=True)
    assert [t.table for t in seating.tables] == [1, 2, 3, 4]
    assert seating.closed == frozenset() and seating.sit_out is None
    late = next_seating(
        seating, {t.table: t.couples[0] for t in seating.tables}, late=[11], sit_out_last=True
    )
    assert rows(late)[-1] == (5, 11, None)
    filled = next_seating(
        late, {t.table: t.couples[0] for t in late.tables[:-1]}, late=[12], sit_out_last=True
    )
    assert [t.table for t in filled.tables] == [1, 2, 3, 4, 5] and filled.sit_out is None


@pytest.mark.parametrize(
    ("winners", "kwargs", "code"),
    [
        ({1: 2}, {}, "missing_result"),
        ({1: 2, 2: 1}, {}, "winner_not_at_table"),
        ({1: 2, 2: 3}, {"withdrawn": [9]}, "not_seated"),
        ({1: 2, 2: 3}, {"late": [4]}, "already_seated"),
        ({1: 2, 2: 3}, {"movement": "everybody-moves"}, "bad_movement"),
    ],
)
def test_bad_movement_input_is_refused(
    winners: dict[int, int], kwargs: dict[str, object], code: str
) -> None:
    with pytest.raises(MovementError) as info:
        next_seating(first_seating(range(1, 5)), winners, **kwargs)
    assert info.value.code == code


def test_the_invariant_checker_finds_broken_seatings() -> None:
    broken = Seating((TableSeat(1, 1, 2), TableSeat(2, 2, None), TableSeat(3, 4, None)))
    problems = check_invariants(broken, {1, 2, 3, 4}, wins={1: 3}, games_played={1: 2})
    assert any("tables 1 and 2" in p for p in problems)
    assert any("without a table: [3]" in p for p in problems)
    assert any("more than one sit-out" in p for p in problems)
    assert any("3 wins in 2 games" in p for p in problems)


@st.composite
def nights(draw: st.DrawFn) -> tuple[int, list[tuple[list[int], list[int], list[int]]], str]:
    n = draw(st.integers(1, 41))
    movement = draw(st.sampled_from(["winners-move", "losers-move"]))
    games = []
    for _ in range(24):
        choices = draw(st.lists(st.integers(0, 1), min_size=40, max_size=40))
        withdraw_picks = draw(st.lists(st.integers(0, 100), max_size=2))
        late = draw(st.integers(0, 2))
        games.append((choices, withdraw_picks, [late]))
    return n, games, movement


@settings(max_examples=150, deadline=None)
@given(nights(), st.booleans(), st.booleans())
def test_random_nights_keep_the_invariants(night, sit_out_counts, sit_out_last) -> None:
    n, games, movement = night
    active = set(range(1, n + 1))
    next_number = n + 1
    seating = first_seating(active, shuffle_seed=n)
    wins = dict.fromkeys(active, 0)
    played = dict.fromkeys(active, 0)
    for choices, withdraw_picks, (late_count,) in games:
        assert check_invariants(seating, active, wins=wins, games_played=played) == []
        winners = {
            t.table: t.couples[choices[i % 40]]
            for i, t in enumerate(seating.tables)
            if len(t.couples) == 2
        }
        credit = credited_wins(seating, winners, sit_out_counts_as_win=sit_out_counts)
        full_tables = sum(1 for t in seating.tables if len(t.couples) == 2)
        assert sum(credit.values()) == full_tables + (
            1 if seating.sit_out and sit_out_counts else 0
        )
        for couple in active:
            played[couple] += 1
            wins[couple] += credit.get(couple, 0)
        ordered = sorted(active)
        gone = {ordered[p % len(ordered)] for p in withdraw_picks} if len(ordered) > 2 else set()
        late = list(range(next_number, next_number + late_count))
        next_number += late_count
        before = seating
        seating = next_seating(
            seating,
            winners,
            movement=movement,
            withdrawn=gone,
            late=late,
            sit_out_last=sit_out_last,
        )
        if sit_out_last:
            # No hole: the tables played are 1..F, the lone couple (if any) F+1; nobody plays
            # anyone else than the movement without the rule gives; no table closes.
            playing = [t.table for t in seating.tables if not t.is_sit_out]
            assert playing == list(range(1, len(playing) + 1))
            assert [t.table for t in seating.tables if t.is_sit_out] in ([], [len(playing) + 1])
            assert seating.closed == before.closed
            plain = next_seating(before, winners, movement=movement, withdrawn=gone, late=late)
            assert {frozenset(t.couples) for t in seating.tables} == {
                frozenset(t.couples) for t in plain.tables
            }
        active = (active - gone) | set(late)
        for couple in late:
            wins[couple] = played[couple] = 0
        assert not set(seating.closed) & {t.table for t in seating.tables}
    assert check_invariants(seating, active, wins=wins, games_played=played) == []
