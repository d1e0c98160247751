"""Two writers at the same instant, each on its own database connection (threads released
together by a barrier): the advance is computed once, and two different winners for one table
give one stored result, one conflict and both versions.

These tests commit for real (``transaction=True``) and run once per backend: the
``postgres`` variant (marker ``postgres``: skipped without DATABASE_URL=postgres://…, failing
under CI=true) where the drive row lock (SELECT … FOR UPDATE) serialises the writers, and the
``sqlite`` variant, where the IMMEDIATE transaction and busy_timeout of config/settings/env.py
do. The SQLite variant needs a file: pytest-django's default SQLite test database
(config/settings/test.py sets no TEST NAME) is in memory with a shared cache, where a second
connection's write fails at once with "database table is locked" instead of waiting, so it
skips there and says why.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import close_old_connections, connection

from drives.errors import Conflict
from drives.models import Drive, Game, Seat
from scoring.models import Result, ResultVersion
from scoring.services import game_advance, result_record
from tests.scoring.nights import DESK, lower_number, new_drive, play_game, start

THREADS = 2
TIMEOUT = 30


def in_memory_sqlite() -> bool:
    return connection.vendor == "sqlite" and connection.is_in_memory_db()


@pytest.fixture(
    params=[
        pytest.param("postgresql", marks=pytest.mark.postgres, id="postgres"),
        pytest.param("sqlite", id="sqlite"),
    ]
)
def real_transactions(request: pytest.FixtureRequest, transactional_db: None) -> None:
    """Committed data on this run's database; each test runs once per backend, the variant
    of the other backend skipping."""
    if connection.vendor != request.param:
        pytest.skip(f"this run's database is {connection.vendor}, not {request.param}")
    if in_memory_sqlite():
        pytest.skip(
            "the SQLite test database is in memory (shared cache), where a second "
            "connection's write fails at once with 'database table is locked' instead of "
            "waiting; set DATABASE_URL=postgres://…, or give the SQLite test database a file "
            "(DATABASES['default']['TEST']['NAME'])"
        )


def at_once(action: Callable[[int], Any]) -> list[tuple[str, Any]]:
    """Run ``action(i)`` in two threads released together; each outcome is ("ok", value)
    or ("error", exception). Each thread closes its connection when done."""
    barrier = threading.Barrier(THREADS, timeout=TIMEOUT)
    outcomes: list[tuple[str, Any]] = [("missing", None)] * THREADS

    def run(i: int) -> None:
        try:
            close_old_connections()
            barrier.wait()
            outcomes[i] = ("ok", action(i))
        except Exception as error:  # the outcome is what the test checks
            outcomes[i] = ("error", error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "a writer is stuck"
    return outcomes


def a_started_night(couples: int) -> Drive:
    drive = new_drive(couples)
    start(drive)
    return drive


@pytest.mark.usefixtures("real_transactions")
def test_two_advances_at_the_same_instant_start_one_game() -> None:
    drive = a_started_night(20)
    play_game(drive, 1, lower_number)
    outcomes = at_once(lambda _i: game_advance(drive=drive, game=1, actor=DESK))
    assert all(kind == "ok" for kind, _ in outcomes), outcomes
    statuses = sorted(status for _, (status, _game) in outcomes)
    assert statuses == [200, 201]
    games = {game.pk for _, (_status, game) in outcomes}
    assert len(games) == 1
    assert Game.objects.filter(drive=drive, number=2).count() == 1
    assert Seat.objects.filter(game__drive=drive, game__number=2).count() == 10
    assert Game.objects.get(pk=games.pop()).number == 2
    drive.refresh_from_db()
    assert drive.current_game == 2


@pytest.mark.usefixtures("real_transactions")
def test_two_different_winners_at_the_same_instant() -> None:
    drive = a_started_night(20)
    table, stays, arrives = 3, 5, 6
    outcomes = at_once(
        lambda i: result_record(
            drive=drive, game=1, table=table, winner=(stays, arrives)[i], actor=DESK
        )
    )
    stored = [value for kind, value in outcomes if kind == "ok"]
    refused = [value for kind, value in outcomes if kind == "error"]
    assert len(stored) == 1 and stored[0].status == 201, outcomes
    assert len(refused) == 1 and isinstance(refused[0], Conflict), outcomes
    assert refused[0].code == "result_conflict"
    results = Result.objects.filter(game__drive=drive, seat__table__number=table)
    assert results.count() == 1
    result = results.get()
    assert result.state == Result.State.CONFLICT
    assert result.winner_id == stored[0].result.winner_id
    versions = ResultVersion.objects.filter(result=result).order_by("id")
    assert [v.kind for v in versions] == ["entered", "conflicting"]
    assert {v.winner.number for v in versions} == {stays, arrives}


@pytest.mark.usefixtures("real_transactions")
def test_the_same_winner_twice_at_the_same_instant() -> None:
    drive = a_started_night(8)
    outcomes = at_once(
        lambda _i: result_record(drive=drive, game=1, table=2, winner=3, key="phone", actor=DESK)
    )
    assert all(kind == "ok" for kind, _ in outcomes), outcomes
    assert sorted(value.status for _, value in outcomes) == [200, 201]
    result = Result.objects.get(game__drive=drive, seat__table__number=2)
    assert result.state == Result.State.ACCEPTED
    assert result.versions.count() == 1


@pytest.mark.usefixtures("real_transactions")
def test_results_of_different_tables_at_once_count_both_in_the_drives_version() -> None:
    """The live pages' version (drives.DriveVersion) is bumped in each result's transaction:
    two tables' results at the same instant (sharing the drive row's lock on PostgreSQL) are
    both stored, without a deadlock, and the version counts both."""
    from drives.models import DriveVersion

    drive = a_started_night(8)
    before = DriveVersion.objects.get(drive=drive).version
    seats = list(Seat.objects.filter(game__drive=drive, game__number=1).order_by("table__number"))

    def record(i: int) -> Any:
        seat = seats[i]
        return result_record(
            drive=drive, game=1, table=seat.table.number, winner=seat.stays.number, actor=DESK
        )

    outcomes = at_once(record)
    assert [kind for kind, _ in outcomes] == ["ok", "ok"], outcomes
    assert DriveVersion.objects.get(drive=drive).version == before + THREADS
