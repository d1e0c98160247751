"""A live stack (tools/stack.py: gunicorn with the production settings) on a database of its
own, for the tests that load it, crash it and read what it stored (test_stack, test_burst,
test_crash).

``live_stack`` is one stack per test module and backend:

* ``postgres`` (marker ``postgres``; CI's second pass): a new database beside DATABASE_URL's,
  ``<name>_stack_<pid>``, dropped at the end; the broker is CELERY_BROKER_URL's Redis server
  on the next database number, or none without it. No Celery worker: results need none.
* ``sqlite``: a file in a temporary folder, no broker (tasks would run in the web process), as
  on an organizer's laptop. Skipped when DATABASE_URL is PostgreSQL: the first CI pass runs it.

The ``stack`` fixture hands it to one test with the web server running and its environment as
it started (a test that killed it, or changed its settings, leaves it so only until the next).
``verify_night`` checks a night the burst client (tools/loadgen.py) played against what the
stack stored.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from psycopg import IsolationLevel

from tests.scoring.nights import expected_next
from tools.loadgen import NightRun
from tools.night import DEFAULT_POSTGRES_SERVER, own_stack
from tools.stack import Stack, postgres_connect


def postgres_url() -> str | None:
    url = os.environ.get("DATABASE_URL", "")
    return url if url.startswith(("postgres://", "postgresql://")) else None


def stack_broker() -> str | None:
    """CELERY_BROKER_URL's Redis server, on the next database number (not the one the test
    run itself uses)."""
    url = os.environ.get("CELERY_BROKER_URL", "")
    if not url.startswith(("redis://", "rediss://")):
        return None
    head, _, tail = url.rpartition("/")
    if "://" in head and tail.isdigit():
        return f"{head}/{(int(tail) + 1) % 16}"
    return f"{url.rstrip('/')}/1"


@pytest.fixture(
    scope="module",
    params=[
        pytest.param("postgres", marks=pytest.mark.postgres, id="postgres"),
        pytest.param("sqlite", id="sqlite"),
    ],
)
def live_stack(request: pytest.FixtureRequest) -> Iterator[Stack]:
    kind = request.param
    server = postgres_url()
    if kind == "sqlite" and server:
        pytest.skip("DATABASE_URL is PostgreSQL: the SQLite stack runs in the SQLite pass")
    if kind == "postgres" and not server:
        pytest.skip("set DATABASE_URL=postgres://… to run")  # tests/conftest.py fails it in CI
    database_name = None
    if kind == "postgres":
        assert server is not None
        database_name = f"{server.rsplit('/', 1)[1]}_stack_{os.getpid()}"
    with own_stack(
        kind,
        postgres_server=server or DEFAULT_POSTGRES_SERVER,
        broker_url=stack_broker() if kind == "postgres" else None,
        database_name=database_name,
    ) as stack:
        yield stack


@pytest.fixture
def stack(live_stack: Stack) -> Iterator[Stack]:
    """The module's stack, serving, with the environment it started with."""
    live_stack.config.extra_env.clear()
    if live_stack.web is None or live_stack.web.poll() is not None:
        live_stack.kill_web()
        live_stack.start_web()
    live_stack.wait_healthy()
    yield live_stack
    if live_stack.config.extra_env:
        # The test changed its settings: serve with the usual ones again.
        live_stack.config.extra_env.clear()
        live_stack.kill_web()


# --- reading what the stack stored ----------------------------------------------------------------


def postgres(url: str) -> Any:
    """A psycopg connection to the database of a postgres:// URL."""
    return postgres_connect(url)


def queries(stack: Stack, *statements: tuple[str, tuple[Any, ...]]) -> list[list[tuple[Any, ...]]]:
    """The rows of each ``(sql, params)`` (``%s`` placeholders), read in one snapshot of the
    stack's database, directly (not through Django or the server): what is really stored, even
    with the server down or a commit landing meanwhile."""
    url = stack.config.database_url
    if url.startswith("sqlite:///"):
        connection = sqlite3.connect(url.removeprefix("sqlite:///"), timeout=30)
        try:
            connection.execute("BEGIN")  # one read transaction: one snapshot of the WAL
            return [
                connection.execute(sql.replace("%s", "?"), params).fetchall()
                for sql, params in statements
            ]
        finally:
            connection.close()
    with postgres(url) as connection:
        connection.isolation_level = IsolationLevel.REPEATABLE_READ
        return [connection.execute(sql, params).fetchall() for sql, params in statements]


def query(stack: Stack, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    return queries(stack, (sql, params))[0]


def execute(stack: Stack, sql: str, *params: Any) -> None:
    """Change the stack's database behind its back (to show that a check notices)."""
    url = stack.config.database_url
    if url.startswith("sqlite:///"):
        connection = sqlite3.connect(url.removeprefix("sqlite:///"), timeout=30)
        try:
            with connection:  # commits
                connection.execute(sql.replace("%s", "?"), params)
        finally:
            connection.close()
        return
    with postgres(url) as connection:
        connection.execute(sql, params)


DRIVE = "(SELECT id FROM drives_drive WHERE slug = %s)"


def drive_state(stack: Stack, slug: str) -> dict[str, Any]:
    """The drive's game in play, the games stored with their seat counts, and the results,
    in one snapshot."""
    current, seats, results = queries(
        stack,
        ("SELECT current_game FROM drives_drive WHERE slug = %s", (slug,)),
        (
            "SELECT g.number, COUNT(s.id) FROM drives_game g "
            f"LEFT JOIN drives_seat s ON s.game_id = g.id WHERE g.drive_id = {DRIVE} "
            "GROUP BY g.number ORDER BY g.number",
            (slug,),
        ),
        (
            "SELECT r.seat_id, COUNT(*) FROM scoring_result r JOIN drives_game g "
            f"ON g.id = r.game_id WHERE g.drive_id = {DRIVE} GROUP BY r.seat_id",
            (slug,),
        ),
    )
    return {
        "current_game": current[0][0],
        "games": [number for number, _ in seats],
        "seats": dict(seats),
        "results": sum(n for _, n in results),
        "seats_with_two_results": [seat for seat, n in results if n > 1],
    }


def export(stack: Stack, slug: str) -> dict[str, Any]:
    return dict(json.loads(stack.manage("drive", "export", slug).stdout))


def verify_night(stack: Stack, run: NightRun, *, games: int) -> dict[str, Any]:
    """What the burst client was told against what is stored, and docs/rules.md §7.

    Exactly one result per table and game; every result acknowledged with a 2xx there with the
    acknowledged winner (and its key, once); every second result answered 409 kept as a
    conflicting entry, listed at the desk and resolved; each game started once; the movement
    and the invariants of §7, by ``manage.py drive check`` and by the restatement of the
    movement in tests/scoring/nights.py.
    """
    setup = run.setup
    tables = setup.tables
    state = drive_state(stack, setup.slug)
    assert state["current_game"] == games
    assert state["games"] == list(range(1, games + 1)), "one game row per number"
    assert state["seats"] == {n: tables for n in range(1, games + 1)}
    assert state["seats_with_two_results"] == []
    assert state["results"] == games * tables, "one result per table and game"

    data = export(stack, setup.slug)
    stored = {(g["number"], t["table"]): t for g in data["games"] for t in g["tables"]}
    assert len(stored) == games * tables
    for (game, table), row in stored.items():
        assert row["state"] == "accepted", (game, table, row)
        entered = [v for v in row["versions"] if v["kind"] == "entered"]
        assert len(entered) == 1, (game, table, row["versions"])
    acknowledged = run.acknowledged
    assert set(acknowledged) == set(stored), "every table's result was acknowledged"
    for where, sent in acknowledged.items():
        row = stored[where]
        assert row["winner"] == sent.winner, (where, row, sent)
        (entered,) = [v for v in row["versions"] if v["kind"] == "entered"]
        assert (entered["key"], entered["winner"], entered["channel"]) == (
            sent.key,
            sent.winner,
            "table",
        ), (where, entered, sent)
        if sent.points is not None:
            assert sorted(row["points"], reverse=True) == sorted(sent.points, reverse=True)

    conflicts = [s for s in run.submissions if s.kind == "conflict"]
    for sent in conflicts:
        assert sent.status == 409 or (sent.status == 200 and sent.answer_state == "conflict")
        row = stored[(sent.game, sent.table)]
        kept = [v for v in row["versions"] if v["kind"] == "conflicting"]
        assert [(v["key"], v["winner"]) for v in kept] == [(sent.key, sent.winner)], row
        assert [v["kind"] for v in row["versions"]][-1] == "resolved"
    for game in range(1, games + 1):
        told = sorted({s.table for s in conflicts if s.game == game})
        assert run.listed_conflicts[game] == told, (game, run.listed_conflicts[game], told)
    retries = [s for s in run.submissions if s.kind == "retry"]
    assert all(s.status == 200 for s in retries), Counter(s.status for s in retries)

    advances = Counter(a["subject"] for a in data["audit"] if a["action"] == "game.advance")
    assert advances == Counter(f"game {n}" for n in range(2, games + 1)), advances

    check = stack.manage("drive", "check", setup.slug).stdout
    assert "the night holds together" in check, check
    seated = {
        g["number"]: {t["table"]: (t["stays"], t["arrives"]) for t in g["tables"]}
        for g in data["games"]
    }
    for game in range(1, games):
        winners = {t: stored[(game, t)]["winner"] for t in seated[game]}
        following = expected_next(seated[game], winners, movement=data["drive"]["movement"])
        assert seated[game + 1] == following.tables, f"game {game + 1} seated off the movement"
    for game, room in seated.items():
        couples = [c for pair in room.values() for c in pair]
        assert sorted(couples) == list(range(1, 2 * tables + 1)), f"game {game}"
    for couple in data["couples"]:
        assert couple["played"] == games and 0 <= couple["wins"] <= couple["played"], couple
    assert sum(c["wins"] for c in data["couples"]) == games * tables
    return data
