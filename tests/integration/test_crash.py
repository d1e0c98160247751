"""The web server killed with SIGKILL (gunicorn's master and every worker at once, as a power
cut or the kernel's OOM killer would) in the middle of a night, and started again.

* In the middle of a burst (tools/loadgen.py: 250 phones, retries and conflicts): the phones
  whose answer was lost send again with the same key once the server is back. Every result
  that was acknowledged with a 2xx is there, nothing is stored twice, and the night goes on to
  its last game (the same checks as test_burst.py).
* During an advance: the game is either advanced completely (the next game's seats all
  there) or not at all, never half; the organizer presses again and the night goes on. Once
  inside the advance for certain (the test-only pause ``RACE_WINDOW_SECONDS`` of
  drives/race.py, between the check and the writes, holds it open), then at random moments
  without the pause.

On PostgreSQL and on the SQLite default (conftest.py). The moments are random; the seed is
printed, to replay one (``CRASH_SEED=…``).
"""

from __future__ import annotations

import asyncio
import os
import random
import threading
import time
import urllib.error
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.integration.conftest import drive_state, query, verify_night
from tools.loadgen import NightOptions, NightRun
from tools.night import http_json, set_up_night
from tools.stack import BASE_DIR, Stack

pytestmark = [pytest.mark.integration, pytest.mark.slow]

TABLES = 250
WINDOW = 3.0  # seconds the advance holds still between its check and its writes


@pytest.fixture
def rng() -> random.Random:
    seed = int(os.environ.get("CRASH_SEED") or random.randrange(1_000_000))
    print(f"CRASH_SEED={seed}")
    return random.Random(seed)


def wait_until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.005)


def winners(stack: Stack, slug: str) -> dict[tuple[int, int], int]:
    """(game, table) → the winning couple, as stored."""
    rows = query(
        stack,
        "SELECT g.number, t.number, c.number FROM scoring_result r "
        "JOIN drives_game g ON g.id = r.game_id JOIN drives_seat s ON s.id = r.seat_id "
        "JOIN drives_table t ON t.id = s.table_id JOIN drives_couple c ON c.id = r.winner_id "
        "JOIN drives_drive d ON d.id = g.drive_id WHERE d.slug = %s",
        slug,
    )
    return {(game, table): winner for game, table, winner in rows}


def restart(stack: Stack) -> None:
    stack.start_web()
    stack.wait_healthy()


def test_a_crash_in_the_middle_of_a_burst_loses_nothing_acknowledged(
    stack: Stack, rng: random.Random
) -> None:
    games = 3
    setup = set_up_night(stack, tables=TABLES, games=games, name="Crash night")
    options = NightOptions(clients=TABLES, retry=0.10, conflict=0.05, seed=9, outage_limit=45)
    run = NightRun(setup, options)
    errors: list[BaseException] = []

    def play() -> None:
        try:
            asyncio.run(run.run())
        except BaseException as error:
            errors.append(error)

    player = threading.Thread(target=play, daemon=True)
    player.start()
    try:
        # Somewhere in game 2, after a random number of its tables were acknowledged.
        threshold = TABLES + rng.randrange(10, TABLES - 10)
        wait_until(
            lambda: run.progress.acknowledged >= threshold or run.progress.done,
            120,
            "game 2 to be under way",
        )
        stack.kill_web()
        acknowledged_before = dict(run.acknowledged)
        assert not run.progress.done, "the night ended before the crash"
        # With the server down: nothing acknowledged is missing, nothing is half-advanced.
        state = drive_state(stack, setup.slug)
        assert state["current_game"] == 2 and state["seats"] == {1: TABLES, 2: TABLES}
        assert state["seats_with_two_results"] == []
        stored = winners(stack, setup.slug)
        for where, sent in acknowledged_before.items():
            assert stored.get(where) == sent.winner, (where, sent)
        time.sleep(rng.uniform(0.1, 1.0))
        restart(stack)
        player.join(180)
    finally:
        if player.is_alive():
            stack.kill_web()  # the phones give up on a dead server after their outage limit
            player.join(90)
    assert not errors, errors
    assert run.progress.done
    assert run.anomalies == []
    for where, sent in acknowledged_before.items():
        assert run.acknowledged[where] is sent
    statuses = Counter(str(s.status) for s in run.recorder.samples)
    assert statuses["connection"] > 0, "no request felt the crash"
    assert set(statuses) <= {"200", "201", "409", "connection", "timeout"}, statuses
    verify_night(stack, run, games=games)


def window_settings(folder: Path) -> dict[str, str]:
    """The production settings with the advance held open WINDOW seconds after its check."""
    (folder / "crash_window_settings.py").write_text(
        "from config.settings.prod import *\n\n"
        f"RACE_WINDOW_SECONDS = {{'advance.checked': {WINDOW}}}\n"
    )
    path = os.pathsep.join(
        p for p in (str(folder), str(BASE_DIR), os.environ.get("PYTHONPATH")) if p
    )
    return {"DJANGO_SETTINGS_MODULE": "crash_window_settings", "PYTHONPATH": path}


def press_advance(stack: Stack, run: NightRun, game: int) -> tuple[threading.Thread, list[object]]:
    """The organizer presses "advance" in another thread: the thread, and what it got back
    (a status, or the error of a request without an answer) once it is done."""
    outcome: list[object] = []

    def press() -> None:
        url = f"{stack.url}/api/v1/drives/{run.setup.slug}/games/{game}/advance"
        try:
            outcome.append(http_json("POST", url, run.setup.organizer_token)[0])
        except (urllib.error.URLError, ConnectionError, OSError) as error:
            outcome.append(error)

    thread = threading.Thread(target=press, daemon=True)
    thread.start()
    return thread, outcome


def test_a_crash_during_an_advance_leaves_it_whole_or_undone(
    stack: Stack, rng: random.Random, tmp_path: Path
) -> None:
    games = 3
    setup = set_up_night(stack, tables=TABLES, games=games, name="Advance crash night")
    run = NightRun(setup, NightOptions(clients=TABLES, retry=0.05, conflict=0.02, seed=11))
    asyncio.run(run.run(games=1))  # game 1 played and settled, not advanced

    # Inside the advance for certain: killed while it holds still after its check.
    stack.kill_web()
    stack.config.extra_env.update(window_settings(tmp_path))
    restart(stack)
    thread, pressed = press_advance(stack, run, 1)
    time.sleep(WINDOW / 3)
    stack.kill_web()
    thread.join(30)
    assert pressed and isinstance(pressed[0], OSError), f"the advance answered {pressed}"
    state = drive_state(stack, setup.slug)
    assert (state["current_game"], state["seats"]) == (1, {1: TABLES}), "nothing of game 2"
    stack.config.extra_env.clear()
    restart(stack)

    # At random moments, without the pause: whole or not at all, each time. The moment is
    # drawn up to twice the time an advance took here (the first: half a second).
    outcomes = []
    for game in (1, 2):
        asyncio.run(run.run(games=game))  # advances to `game` if needed; plays it
        took = sorted(s.latency for s in run.recorder.samples if s.kind == "advance")
        thread, pressed = press_advance(stack, run, game)
        time.sleep(rng.uniform(0.0, 2 * took[len(took) // 2] if took else 0.5))
        stack.kill_web()
        thread.join(30)
        state = drive_state(stack, setup.slug)
        advanced = state["current_game"] == game + 1
        expected = {n: TABLES for n in range(1, game + (2 if advanced else 1))}
        assert state["seats"] == expected, (game, state)
        assert state["current_game"] in (game, game + 1)
        outcomes.append((game, "advanced" if advanced else "not advanced", pressed))
        restart(stack)
    print(outcomes)
    asyncio.run(run.run())  # presses again where needed (201, or 200 when it was done)
    assert run.anomalies == []
    assert all(statuses[-1] in (200, 201) for statuses in run.advances.values())
    verify_night(stack, run, games=games)
