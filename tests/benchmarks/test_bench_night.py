"""Benchmarks of the night core on a 250-table night (500 couples): the advance of one game,
the standings, the desk's view of a game and the "couple → table" list (pytest-benchmark;
``make bench`` measures, the normal run plays each once). Nothing here asserts a time:
BENCHMARKS.md holds the figures and their targets.

The night is built quickly (tests/scoring/nights.py ``build_night``: results stored in bulk,
seatings computed by the engine and stored by ``game_open``); what is measured goes through
the services and selectors as the desk and the API call them. ``scripts/bench_night.py``
plays a whole night through the services.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from django.db import transaction

from drives.models import Drive
from scoring.selectors import current_tables, game_view, standings_for_drive
from scoring.services import game_advance
from tests.scoring.nights import DESK, build_night, fill_results, new_drive, seeded, start

if TYPE_CHECKING:
    from pytest_benchmark.fixture import BenchmarkFixture

pytest.importorskip("pytest_benchmark")
pytestmark = pytest.mark.django_db

COUPLES = 500  # 250 tables
GAMES = 25


def a_big_night(until_game: int) -> Drive:
    drive = new_drive(COUPLES, games=GAMES)
    start(drive)
    build_night(drive, until_game, seeded(random.Random(45)))
    return drive


def test_bench_advance_250_tables(benchmark: BenchmarkFixture) -> None:
    """One advance per round, from game 12 on: each round's setup stores the results of the
    game in play (not timed)."""
    drive = a_big_night(12)
    pick = seeded(random.Random(12))

    def complete_the_game() -> tuple[tuple[Any, ...], dict[str, Any]]:
        drive.refresh_from_db()
        fill_results(drive, drive.current_game, pick)
        return (drive.current_game,), {}

    def advance(game: int) -> int:
        status, following = game_advance(drive=drive, game=game, actor=DESK)
        assert status == 201
        return following.number

    benchmark.group = "night: 250 tables"
    number = benchmark.pedantic(advance, setup=complete_the_game, rounds=10, iterations=1)
    assert number >= 13
    drive.refresh_from_db()
    assert len(game_view(drive, drive.current_game)["tables"]) == 250


@pytest.fixture(scope="module")
def full_night(django_db_setup: None, django_db_blocker: Any) -> Iterator[Drive]:
    """A 250-table night at its last game, built once for the read benchmarks of this module
    inside a transaction rolled back at the end (each test's own transaction nests in it)."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield a_big_night(GAMES)
        transaction.set_rollback(True)


def test_bench_standings_500_couples(benchmark: BenchmarkFixture, full_night: Drive) -> None:
    """The standings after 24 complete games and the 25th in play (6,250 seats)."""
    drive = full_night
    benchmark.group = "night: 250 tables"
    rows = benchmark(standings_for_drive, drive)
    assert len(rows) == COUPLES
    assert sum(r["played"] for r in rows) == COUPLES * GAMES


def test_bench_game_view_250_tables(benchmark: BenchmarkFixture, full_night: Drive) -> None:
    drive = full_night
    benchmark.group = "night: 250 tables"
    view = benchmark(game_view, drive, GAMES - 1)
    assert view is not None and view["reported"] == 250


def test_bench_current_tables_500_couples(benchmark: BenchmarkFixture, full_night: Drive) -> None:
    drive = full_night
    benchmark.group = "night: 250 tables"
    rows = benchmark(current_tables, drive)
    assert len(rows) == COUPLES
