"""The load figures' locust run (tools/locustfile.py through tools/load.py), a few seconds of it
on a live stack with a tiny night: every user class plays, locust reports no failure, and the
results it was answered for are what the stack stored. On PostgreSQL and on the SQLite default
(conftest.py). ``make load`` plays the full nights (BENCHMARKS.md, Load).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.conftest import query
from tools.load import run_locust
from tools.night import set_up_night
from tools.stack import Stack

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def stored_results(stack: Stack, slug: str) -> dict[tuple[int, int], int]:
    """(game, table) → how many results the stack holds for it."""
    rows = query(
        stack,
        "SELECT g.number, t.number, COUNT(*) FROM scoring_result r "
        "JOIN drives_game g ON g.id = r.game_id JOIN drives_seat s ON s.id = r.seat_id "
        "JOIN drives_table t ON t.id = s.table_id JOIN drives_drive d ON d.id = g.drive_id "
        "WHERE d.slug = %s GROUP BY g.number, t.number",
        slug,
    )
    return {(game, table): count for game, table, count in rows}


def test_a_hall_night_played_by_locust_is_stored_whole(stack: Stack, tmp_path: Path) -> None:
    tables, games = 6, 2
    setup = set_up_night(stack, tables=tables, games=games, name="Locust hall")
    report = run_locust(
        stack,
        setup,
        "hall",
        tmp_path,
        "hall",
        # Longer than a page's poll period (5-6 s; on its stream, it asks when told): every
        # page asks for its fragment at least once.
        "--spread",
        "8",
        "--pages",
        "--couple-phones",
        "4",
        "--retry",
        "0.3",
        "--conflict",
        "0.3",
        "--night-timeout",
        "120",
    )

    assert report["failures"] == 0, report["errors"]
    assert report["anomalies"] == [] and report["night_over"]
    assert report["locust_exit"] == 0
    polled = {name for name, f in report["by_name"].items() if f["requests"]}
    assert {
        "table page fragment",
        "couple page fragment",
        "desk fragment",
        "projector fragment",
        "result-first",
        "game",
        "advance",
    } <= polled
    assert report["by_name"]["result-first"]["requests"] == tables * games
    assert report["acknowledged"] == tables * games
    # Exactly one result a table and game, as acknowledged.
    assert stored_results(stack, setup.slug) == {
        (game, table): 1 for game in range(1, games + 1) for table in range(1, tables + 1)
    }
    assert "the night holds together" in stack.manage("drive", "check", setup.slug).stdout
    # locust's own files are there too.
    assert (tmp_path / "hall_stats.csv").exists() and (tmp_path / "hall-stats.json").exists()


def test_the_steady_phases_measure_results_and_livez(stack: Stack, tmp_path: Path) -> None:
    setup = set_up_night(stack, tables=8, games=60, name="Locust steady")
    report = run_locust(
        stack,
        setup,
        "steady",
        tmp_path,
        "steady",
        "--clients",
        "4",
        "--seconds",
        "2",
        "--warmup",
        "2",
    )

    assert report["failures"] == 0, report["errors"]
    assert report["livez"]["requests"] > 0 and report["livez"]["per_second"] > 0
    assert report["results"]["requests"] > 0 and report["results"]["per_second"] > 0
    # The organizer advanced whenever the 8 tables had answered.
    assert report["games_advanced"] >= 1
    # Every result answered 201 is stored, once; the run may end with a few in flight.
    stored = stored_results(stack, setup.slug)
    answered = report["statuses"]["result 201"]
    assert answered <= sum(stored.values()) <= answered + 4
    assert set(stored.values()) == {1}
