"""A burst on a live server: 250 phones, one per table of a 250-table night, submitting their
results through the JSON API game after game (tools/loadgen.py), one in ten sent twice with
the same key and one in twenty followed by a different winner from the other couple. The
organizer resolves the conflicts at the desk and advances, once a game.

Afterwards, from the stack's database: exactly one result per table and game; every result
acknowledged with a 2xx there, with the winner and key acknowledged; every second result
answered 409, kept as a conflicting entry and listed at the desk before it was resolved; each
game started once; docs/rules.md §7 (``manage.py drive check`` and the restatement of the movement
in tests/scoring/nights.py). On PostgreSQL and on the SQLite default (conftest.py).

Four games of the night here; ``python -m tools.load night`` (locust) plays all 25 (BENCHMARKS.md).
"""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from tests.integration.conftest import execute, query, verify_night
from tools.loadgen import NightOptions, NightRun
from tools.night import set_up_night
from tools.stack import Stack

pytestmark = [pytest.mark.integration, pytest.mark.slow]

TABLES = 250
GAMES = 4
CLIENTS = 250


def test_250_phones_submit_game_after_game(stack: Stack) -> None:
    setup = set_up_night(stack, tables=TABLES, games=GAMES, name="Burst night")
    options = NightOptions(clients=CLIENTS, retry=0.10, conflict=0.05, seed=45)
    run = asyncio.run(NightRun(setup, options).run())

    assert run.anomalies == []
    kinds = Counter(s.kind for s in run.submissions)
    # The fractions asked for were sent (seeded: the same night every time).
    assert kinds["first"] == GAMES * TABLES
    assert 0.07 * GAMES * TABLES < kinds["retry"] < 0.13 * GAMES * TABLES
    assert 0.03 * GAMES * TABLES < kinds["conflict"] < 0.07 * GAMES * TABLES
    # Every request had an answer, and every answer was the one the API promises.
    statuses = Counter((s.kind, s.status) for s in run.recorder.samples)
    assert statuses == Counter(
        {
            ("result-first", 201): kinds["first"],
            ("result-retry", 200): kinds["retry"],
            ("result-conflict", 409): kinds["conflict"],
            ("game", 200): GAMES,
            ("resolve", 200): kinds["conflict"],
            ("advance", 201): GAMES - 1,
        }
    )
    assert run.advances == {game: [201] for game in range(1, GAMES)}
    verify_night(stack, run, games=GAMES)


def test_the_checks_notice_a_result_changed_behind_the_phones_back(stack: Stack) -> None:
    setup = set_up_night(stack, tables=12, games=2, name="Tampered night")
    run = asyncio.run(NightRun(setup, NightOptions(clients=12, retry=0.2, conflict=0.2)).run())
    verify_night(stack, run, games=2)
    # Game 2, table 3: the other couple made the winner, directly in the database.
    ((result, seat_winner, stays, arrives),) = query(
        stack,
        "SELECT r.id, r.winner_id, s.stays_id, s.arrives_id FROM scoring_result r "
        "JOIN drives_seat s ON s.id = r.seat_id JOIN drives_table t ON t.id = s.table_id "
        "JOIN drives_game g ON g.id = r.game_id JOIN drives_drive d ON d.id = g.drive_id "
        "WHERE d.slug = %s AND g.number = 2 AND t.number = 3",
        setup.slug,
    )
    other = arrives if seat_winner == stays else stays
    execute(stack, "UPDATE scoring_result SET winner_id = %s WHERE id = %s", other, result)
    with pytest.raises(AssertionError, match=r"\(2, 3\)"):
        verify_night(stack, run, games=2)
