"""Query counts are part of the contract (STYLE.md): reading a game, the standings, the
"couple → table" list, recording a result and the advance take the same, fixed number of
queries for a 4-table night and a 60-table night.

Both nights are played to game 3 (so there is history to read) with a withdrawal and a late
arrival on the way; each measurement is taken on both and must equal the number written
here. The numbers are the same on SQLite and PostgreSQL (a savepoint counts as a query).

One limit outside these sizes: Django splits a bulk insert on SQLite into batches of 999
variables, so from 250 tables on the advance's insert of seats (four columns) takes one more
query per 249 tables there; PostgreSQL inserts them in one.
"""

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from drives.errors import Conflict
from drives.models import Drive
from scoring.selectors import current_tables, game_view, standings_for_drive
from scoring.services import game_advance, result_record
from tests.scoring.nights import (
    DESK,
    advance,
    new_drive,
    play_game,
    register,
    seeded,
    start,
    stored_tables,
    withdraw,
)

pytestmark = pytest.mark.django_db

SMALL, LARGE = 8, 120  # couples: 4 and 60 tables


def night_at_game_3(couples: int) -> Drive:
    drive = new_drive(couples)
    start(drive)
    pick = seeded(random.Random(couples))
    play_game(drive, 1, pick)
    withdraw(drive, 3)
    advance(drive, 1)
    play_game(drive, 2, pick)
    register(drive, 1)
    advance(drive, 2)
    return drive


@pytest.fixture
def nights() -> tuple[Drive, Drive]:
    small, large = night_at_game_3(SMALL), night_at_game_3(LARGE)
    assert len(stored_tables(small, 3)) == 4 and len(stored_tables(large, 3)) == 60
    return small, large


def count(action: Callable[[], Any]) -> int:
    with CaptureQueriesContext(connection) as queries:
        action()
    return len(queries)


def both(nights: tuple[Drive, Drive], action: Callable[[Drive], Any]) -> tuple[int, int]:
    small, large = nights
    return count(lambda: action(small)), count(lambda: action(large))


def full_tables(drive: Drive, game: int) -> list[tuple[int, int, int]]:
    return [
        (table, stays, arrives)
        for table, (stays, arrives) in stored_tables(drive, game).items()
        if stays is not None and arrives is not None
    ]


def test_game_view(nights: tuple[Drive, Drive]) -> None:
    # The seats with their game, table and couples; the results with their winners.
    assert both(nights, lambda d: game_view(d, 3)) == (2, 2)
    assert both(nights, lambda d: game_view(d, 1)) == (2, 2)


def test_standings(nights: tuple[Drive, Drive]) -> None:
    # Couples, accepted results, seats of every game.
    assert both(nights, standings_for_drive) == (3, 3)


def test_current_tables(nights: tuple[Drive, Drive]) -> None:
    assert both(nights, current_tables) == (1, 1)


def test_result_record(nights: tuple[Drive, Drive]) -> None:
    seats = {drive.pk: full_tables(drive, 3) for drive in nights}

    def record(table_index: int, **submission: Any) -> Callable[[Drive], Any]:
        def action(drive: Drive) -> Any:
            table, stays, _arrives = seats[drive.pk][table_index]
            return result_record(
                drive=drive, game=3, table=table, winner=stays, actor=DESK, **submission
            )

        return action

    # Stored: savepoint, drive lock, the seat with its game and couples (locked), the
    # existing result, result, version, audit, the drive's version (the live pages' ETag),
    # release.
    assert both(nights, record(0, key="k1")) == (9, 9)
    # The same key again, or the same winner with another key: a replay, nothing written.
    assert both(nights, record(0, key="k1")) == (6, 6)
    assert both(nights, record(0, key="k2")) == (6, 6)
    assert both(nights, record(0)) == (5, 5)
    # With final points judged by the engine (no query of its own).
    assert both(nights, record(1, points=[50, 40])) == (9, 9)


def test_result_conflict(nights: tuple[Drive, Drive]) -> None:
    seats = {drive.pk: full_tables(drive, 3)[0] for drive in nights}
    for drive in nights:
        table, stays, _arrives = seats[drive.pk]
        result_record(drive=drive, game=3, table=table, winner=stays, actor=DESK)

    def conflicting(drive: Drive) -> None:
        table, _stays, arrives = seats[drive.pk]
        with pytest.raises(Conflict):
            result_record(drive=drive, game=3, table=table, winner=arrives, actor=DESK)

    # The conflicting version, the table's state, the audit and the drive's version are
    # written, then the 409.
    assert both(nights, conflicting) == (9, 9)
    # Entered again while in conflict: kept as another version.
    assert both(nights, conflicting) == (8, 8)


def test_game_advance(nights: tuple[Drive, Drive]) -> None:
    for drive in nights:
        play_game(drive, 3, seeded(random.Random(3)))
        withdraw(drive, 5)
        register(drive, 2)
    # Savepoint, drive lock, game, seats, results, closed tables, arrivals and withdrawals,
    # the game finished; then game_open: tables, the new table and the tables again,
    # couples, the game, its seats, the drive; the audit, the drive's version, release.
    assert both(nights, lambda d: game_advance(drive=d, game=3, actor=DESK)) == (18, 18)
    # Pressed again: the game already started is returned.
    assert both(nights, lambda d: game_advance(drive=d, game=3, actor=DESK)) == (4, 4)
    # A plain advance (no table to open) takes two fewer.
    for drive in nights:
        drive.refresh_from_db()
        play_game(drive, 4, seeded(random.Random(4)))
    assert both(nights, lambda d: game_advance(drive=d, game=4, actor=DESK)) == (16, 16)
