"""Whole nights through the services, checked against docs/rules.md §7 after every game.

Each night is played game by game with winners drawn from a seeded generator; after every
game the stored seating, results and standings are checked (tests/scoring/nights.py: every
active couple at exactly one table, at most one sit-out, the credited wins, no couple with
more wins than games played) and the next game's stored seating is compared with the
movement restated from the rules. The hand-written seatings below pin the rules' wording:
late arrivals, withdrawals, merged sit-out tables and closed tables.
"""

import random

import pytest

from drives.models import Couple, Drive
from drives.services import couple_update
from scoring.selectors import couple_records, current_tables, standings_for_drive
from tests.scoring.nights import (
    DESK,
    advance,
    check_game,
    check_movement,
    closed_tables,
    lower_number,
    new_drive,
    play_and_check,
    play_game,
    register,
    seeded,
    start,
    stored_tables,
    stored_winners,
    withdraw,
)

pytestmark = pytest.mark.django_db

GAMES = 25


def stored_before_the_sit_out_rule(drive: Drive) -> Drive:
    """A drive stored before the sit-out became no table (``Drive.sit_out_last`` False, as
    the migration leaves them): its movement is §7 as first written, which these seatings
    pin: emptied tables close and a sit-out stays where a withdrawal leaves it."""
    Drive.objects.filter(pk=drive.pk).update(sit_out_last=False)
    drive.refresh_from_db()
    return drive


def without_holes(tables: dict[int, tuple[int | None, int | None]]) -> bool:
    """The tables played are 1..F and the sit-out, if any, is F+1 (no table in the hall)."""
    playing = sorted(t for t, pair in tables.items() if None not in pair)
    alone = [t for t, pair in tables.items() if None in pair]
    return playing == list(range(1, len(playing) + 1)) and alone in ([], [len(playing) + 1])


@pytest.mark.parametrize(
    "couples",
    [2, 3, 8, 9, 41, pytest.param(500, marks=pytest.mark.slow)],
)
def test_a_whole_night_winners_move(couples: int) -> None:
    drive = new_drive(couples)
    start(drive)
    tables = stored_tables(drive, 1)
    assert len(tables) == (couples + 1) // 2
    for table, (stays, arrives) in tables.items():
        assert stays == 2 * table - 1
        assert arrives == (2 * table if 2 * table <= couples else None)
    play_and_check(drive, GAMES, seeded(random.Random(couples)))
    drive.refresh_from_db()
    assert drive.current_game == GAMES
    rows = standings_for_drive(drive)
    assert len(rows) == couples
    assert sum(r["played"] for r in rows) == couples * GAMES
    # Each game credits one win per full table, plus the sit-out of an odd night.
    assert sum(r["wins"] for r in rows) == GAMES * ((couples + 1) // 2)


@pytest.mark.parametrize("couples", [2, 3, 9, 41])
def test_a_whole_night_losers_move(couples: int) -> None:
    drive = new_drive(couples, movement="losers-move")
    start(drive)
    play_and_check(drive, GAMES, seeded(random.Random(1000 + couples)))


def test_losers_move_keeps_the_winner_at_the_table() -> None:
    drive = new_drive(5, movement="losers-move")
    start(drive)
    play_game(drive, 1, lower_number)  # 1 beats 2, 3 beats 4; 5 sits out
    advance(drive, 1)
    # Losers 2 and 4 move up, the lone 5 moves on to table 1; winners 1 and 3 stay.
    assert stored_tables(drive, 2) == {1: (1, 5), 2: (3, 2), 3: (None, 4)}


def test_a_sit_out_moves_on_as_a_winner_would_and_is_credited() -> None:
    drive = new_drive(5)
    start(drive)
    play_game(drive, 1, lower_number)
    advance(drive, 1)
    assert stored_tables(drive, 2) == {1: (2, 5), 2: (4, 1), 3: (None, 3)}
    grid = {r.couple.number: r.grid for r in couple_records(drive)}
    assert grid[5][1] == "S" and grid[3][2] == "S"


def test_sit_out_counts_as_win_false() -> None:
    drive = new_drive(9, sit_out_counts_as_win=False)
    start(drive)
    play_and_check(drive, GAMES, seeded(random.Random(9)))
    rows = standings_for_drive(drive)
    # Only full tables credit a win: four per game.
    assert sum(r["wins"] for r in rows) == GAMES * 4
    grid = {r.couple.number: r.grid for r in couple_records(drive)}
    assert grid[9][1] == "-"
    assert all(mark != "S" for marks in grid.values() for mark in marks.values())


def test_shuffle_from_a_seed_is_reproducible() -> None:
    first = new_drive(41, first_seating="shuffle", seed=4545)
    second = new_drive(41, first_seating="shuffle", seed=4545)
    other = new_drive(41, first_seating="shuffle", seed=4546)
    for drive in (first, second, other):
        start(drive)
    assert first.seed == 4545 and first.first_seating == "shuffle"
    assert stored_tables(first, 1) == stored_tables(second, 1)
    assert stored_tables(first, 1) != stored_tables(other, 1)
    by_number = {t: (2 * t - 1, 2 * t if t < 21 else None) for t in range(1, 22)}
    assert stored_tables(first, 1) != by_number
    check_game(first, 1, results=False)
    play_and_check(first, GAMES, seeded(random.Random(7)))
    play_and_check(second, GAMES, seeded(random.Random(7)))
    for game in range(1, GAMES + 1):
        assert stored_tables(first, game) == stored_tables(second, game)


def test_shuffle_without_a_seed_records_the_seed_drawn() -> None:
    drive = new_drive(12)
    start(drive, seating="shuffle")
    assert drive.seed is not None and drive.first_seating == "shuffle"
    replay = new_drive(12)
    start(replay, seating="shuffle", seed=drive.seed)
    assert stored_tables(drive, 1) == stored_tables(replay, 1)


# --- late arrivals and withdrawals -------------------------------------------------------------


def test_late_arrival_fills_the_sit_out_seat() -> None:
    drive = new_drive(9)
    start(drive)
    play_game(drive, 1, lower_number)
    assert register(drive, 1) == [10]
    advance(drive, 1)
    check_movement(drive, 1)
    # Winners 1, 3, 5, 7 move up; the lone 9 moves to table 1; 10 takes table 5's empty seat.
    assert stored_tables(drive, 2) == {
        1: (2, 9),
        2: (4, 1),
        3: (6, 3),
        4: (8, 5),
        5: (10, 7),
    }
    check_game(drive, 2, results=False)


def test_late_arrivals_open_a_new_table_then_fill_it() -> None:
    drive = new_drive(8)
    start(drive)
    play_game(drive, 1, lower_number)
    register(drive, 1)  # 9, before game 2: no sit-out, so table 5 opens
    advance(drive, 1)
    assert stored_tables(drive, 2)[5] == (9, None)
    play_game(drive, 2, lower_number)
    register(drive, 2)  # 10 and 11, before game 3: 10 fills the sit-out seat, 11 opens 6
    advance(drive, 2)
    check_movement(drive, 2)
    tables = stored_tables(drive, 3)
    assert tables[5] == (10, tables[5][1]) and tables[5][1] is not None
    assert tables[6] == (11, None)
    check_game(drive, 3, results=False)


def test_two_withdrawals_merge_two_sit_out_tables() -> None:
    drive = stored_before_the_sit_out_rule(new_drive(8))
    start(drive)
    play_game(drive, 1, lower_number)  # winners 1, 3, 5, 7 move up
    withdraw(drive, 3, 5)  # both winners: their next seats (tables 3 and 4) are left empty
    advance(drive, 1)
    check_movement(drive, 1)
    # Without them: 3 (6, ·) and 4 (8, ·) sit out; 8 moves down to table 3 as the arriving
    # couple and table 4 closes, keeping its number.
    assert stored_tables(drive, 2) == {1: (2, 7), 2: (4, 1), 3: (6, 8)}
    assert closed_tables(drive, 2) == {4}
    check_game(drive, 2, results=False)
    play_game(drive, 2, lower_number)  # winners 2, 1, 6
    check_game(drive, 2)
    # A withdrawn couple keeps its wins but takes no place.
    rows = {r["number"]: r for r in standings_for_drive(drive)}
    for number in (3, 5):
        assert rows[number]["wins"] == 1 and rows[number]["played"] == 1
        assert rows[number]["place"] is None and rows[number]["withdrawn"]
    assert register(drive, 1) == [9]
    advance(drive, 2)
    check_movement(drive, 2)
    # Table 4 is closed, so table 3's winner (6) moves round to table 1; the late arrival
    # opens table 5, after the last table counting the closed one.
    assert stored_tables(drive, 3) == {1: (7, 6), 2: (4, 2), 3: (8, 1), 5: (9, None)}
    play_game(drive, 3, lower_number)  # winners 6, 2, 1; 9 sits out
    advance(drive, 3)
    check_movement(drive, 3)
    # Table 3's winner skips closed table 4 to table 5; table 5's lone couple goes to 1.
    assert stored_tables(drive, 4) == {1: (7, 9), 2: (4, 6), 3: (8, 2), 5: (None, 1)}
    assert closed_tables(drive, 4) == {4}
    assert {r["number"]: r["table"] for r in current_tables(drive)} == {
        1: 5,
        2: 3,
        4: 2,
        6: 2,
        7: 1,
        8: 3,
        9: 1,
    }
    play_and_check(drive, GAMES, seeded(random.Random(88)))
    assert 4 not in stored_tables(drive, GAMES)


def test_a_withdrawn_sit_out_couple_closes_its_table() -> None:
    drive = stored_before_the_sit_out_rule(new_drive(9))
    start(drive)
    play_game(drive, 1, lower_number)
    withdraw(drive, 7)  # 7 wins table 4 and would sit out at table 5
    advance(drive, 1)
    check_movement(drive, 1)
    assert stored_tables(drive, 2) == {1: (2, 9), 2: (4, 1), 3: (6, 3), 4: (8, 5)}
    assert closed_tables(drive, 2) == {5}
    check_game(drive, 2, results=False)


@pytest.mark.parametrize("sit_out_last", [False, True])
def test_late_arrivals_and_withdrawals_at_several_points(sit_out_last: bool) -> None:
    """Before game 2, in the middle of the night and before the last game, on an odd night."""
    drive = new_drive(9)
    if not sit_out_last:
        stored_before_the_sit_out_rule(drive)
    start(drive)
    rng = random.Random(2026)

    def events(game: int) -> None:
        if game == 1:
            register(drive, 2)  # 10 fills the sit-out seat, 11 opens table 6
        elif game == 12:
            # The losers of the first and last full tables stay, so withdrawing them leaves
            # two (or, with the night's sit-out, three) sit-out tables to merge.
            tables = stored_tables(drive, 12)
            winners = stored_winners(drive, 12)
            full = [t for t in sorted(tables) if None not in tables[t]]
            losers = [next(c for c in tables[t] if c != winners[t]) for t in (full[0], full[-1])]
            withdraw(drive, *losers)
            register(drive, 1)
        elif game == 13:
            withdraw(drive, 1)
        elif game == GAMES - 1:
            withdraw(drive, 2)
            register(drive, 1)

    play_and_check(drive, GAMES, seeded(rng), between=events)
    numbers = set(Couple.objects.filter(drive=drive).values_list("number", flat=True))
    assert numbers == set(range(1, 14))
    last = stored_tables(drive, GAMES)
    seated = {c for couples in last.values() for c in couples if c is not None}
    assert 2 not in seated and 1 not in seated and 13 in seated
    if sit_out_last:
        assert not closed_tables(drive, GAMES)
        for game in range(1, GAMES + 1):
            assert without_holes(stored_tables(drive, game)), game
    else:
        assert len(closed_tables(drive, GAMES)) >= 1


def test_withdrawal_before_the_last_game() -> None:
    drive = new_drive(6)
    start(drive)

    def events(game: int) -> None:
        if game == GAMES - 1:
            withdraw(drive, 6)

    play_and_check(drive, GAMES, seeded(random.Random(6)), between=events)
    rows = {r["number"]: r for r in standings_for_drive(drive)}
    assert rows[6]["played"] == GAMES - 1 and rows[6]["place"] is None
    assert sum(1 for couples in stored_tables(drive, GAMES).values() if None in couples) == 1


def test_a_late_couple_that_withdraws_before_playing() -> None:
    """Registered late and withdrawn in the same break: it never sits, and the advance does
    not trip over it."""
    drive = new_drive(4)
    start(drive)
    play_game(drive, 1, lower_number)
    (late,) = register(drive, 1)
    withdraw(drive, late)
    advance(drive, 1)
    check_movement(drive, 1)
    check_game(drive, 2, results=False)
    assert late not in {c for t in stored_tables(drive, 2).values() for c in t}
    row = next(r for r in standings_for_drive(drive) if r["number"] == late)
    assert row["played"] == 0 and row["place"] is None


def test_a_withdrawal_taken_back_before_it_applies() -> None:
    drive = new_drive(4)
    start(drive)
    play_game(drive, 1, lower_number)
    withdraw(drive, 2)
    couple_update(couple=Couple.objects.get(drive=drive, number=2), withdrawn=False, actor=DESK)
    advance(drive, 1)
    check_movement(drive, 1)
    assert stored_tables(drive, 2) == {1: (2, 3), 2: (4, 1)}


# --- the sit-out is no table (Drive.sit_out_last, every drive created now) ---------------------


@pytest.mark.parametrize("couples", [3, 9, 15])
def test_an_odd_night_sits_out_after_the_last_table_every_game(couples: int) -> None:
    drive = new_drive(couples)
    assert drive.sit_out_last
    start(drive)
    play_and_check(drive, 8, seeded(random.Random(couples)))
    for game in range(1, 9):
        tables = stored_tables(drive, game)
        assert without_holes(tables), (game, tables)
        assert None in tables[max(tables)]  # the lone couple, after the last table


def test_a_withdrawal_in_the_middle_leaves_no_hole() -> None:
    """16 couples, 8 tables: 5 (who wins table 3 and would arrive at table 4) withdraws. The
    loser staying at table 4 (8) used to sit out at "table 4", a hole among the tables.
    Now the couples of table 8 play at table 4, against each other as the movement gave
    them, and 8 sits out after the last table."""
    drive = new_drive(16)
    start(drive)
    play_game(drive, 1, lower_number)  # 1, 3, 5, ... win and move up
    withdraw(drive, 5)
    advance(drive, 1)
    check_movement(drive, 1)
    assert stored_tables(drive, 2) == {
        1: (2, 15),
        2: (4, 1),
        3: (6, 3),
        4: (16, 13),
        5: (10, 7),
        6: (12, 9),
        7: (14, 11),
        8: (8, None),
    }
    assert not closed_tables(drive, 2)
    rows = {r["number"]: r for r in current_tables(drive)}
    assert rows[8]["sit_out"] and rows[16]["table"] == 4 and rows[16]["opponents"] == 13
    check_game(drive, 2, results=False)
    play_and_check(drive, GAMES, seeded(random.Random(16)))


def test_withdrawals_to_an_odd_count_and_late_arrivals_back_leave_no_hole() -> None:
    """Both couples of table 2 withdraw (a whole table empties), then one more: the count
    goes odd; then late couples come: they fill the sit-out, then open the place after the
    last table. The tables played stay 1..F every game."""
    drive = new_drive(10)
    start(drive)
    play_game(drive, 1, lower_number)
    withdraw(drive, 4, 1)  # 4 stays at table 2, 1 arrives there: table 2 empties
    advance(drive, 1)
    check_movement(drive, 1)
    assert without_holes(stored_tables(drive, 2)) and len(stored_tables(drive, 2)) == 4
    play_game(drive, 2, lower_number)
    withdraw(drive, 9)
    advance(drive, 2)
    check_movement(drive, 2)
    after = stored_tables(drive, 3)
    assert without_holes(after) and sum(1 for pair in after.values() if None in pair) == 1
    play_game(drive, 3, lower_number)
    register(drive, 2)  # 11 fills the sit-out; 12 sits out after the last table
    advance(drive, 3)
    check_movement(drive, 3)
    fourth = stored_tables(drive, 4)
    assert without_holes(fourth) and len(fourth) == 5 and None in fourth[5]
    play_and_check(drive, 8, seeded(random.Random(10)))
