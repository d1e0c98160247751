"""Load generator: phones at every table submitting results to a live server, through the API.

A night is set up on the server's own database (``manage.py drive create``, an organizer with
an API token, the table tokens from ``manage.py drive tokens --json``) and started through the
API; then the clients play it, with asyncio and one aiohttp session:

``night``
    The realistic burst. Game after game, C clients (one per table, or C clients sharing the
    tables) submit their tables' results with the table's token
    (``PUT /api/v1/drives/{slug}/games/{n}/tables/{t}/result``, a legal final score picked by
    the engine). A fraction of the submissions is sent again with the same key (a phone that
    did not see the answer: 200 replay), a fraction is followed by a different winner under
    another key (the other couple's phone: 409, the table in conflict). When every table of
    the game has answered, the organizer reads the game (the conflicts must be listed there),
    resolves each conflict and advances once. Connection errors (a server that is down) are
    retried with the same key until it answers again, so a crash in the middle loses nothing
    that was acknowledged.
``steady``
    The figures: a closed loop of C clients for a number of seconds submitting new results
    (the organizer advancing whenever a game is complete), then the same clients for as long
    on ``GET /livez``, the minimal JSON view of the same server: requests per second,
    latency percentiles, errors and the ratio of the two throughputs.
``figures``
    ``steady`` at each concurrency asked for (default 50 and 250), a whole ``night`` of 250
    tables and 25 games with every phone at once, and a "hall" run of a few games with every
    phone reporting at a random moment within the same minute (``--spread``), as in a hall:
    the load figures of BENCHMARKS.md in one command.

The target is either a running server (``--url``, with ``--database-url`` so that manage.py
can set the night up in its database) or a stack started here (``--stack postgres`` or
``--stack sqlite``: gunicorn with the production settings on a new database, dropped at the
end; tools/stack.py). The summary is printed as a table and, with ``--json FILE``, written as
JSON (every acknowledged result included).

    python -m tools.loadgen figures --stack postgres --json load-postgres.json
    python -m tools.loadgen night --stack sqlite --tables 250 --games 25 --clients 250

The integration tests (tests/integration/test_burst.py, test_crash.py) drive it from Python:
:func:`set_up_night` then ``asyncio.run(NightRun(setup, NightOptions(...)).run())``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import resource
import shutil
import socket
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import aiohttp

from engine.rules import PRESETS
from engine.scores import legal_final_scores
from tools.stack import (
    DEFAULT_BROKER_URL,
    Stack,
    StackConfig,
    StackError,
    default_web_workers,
    postgres_connect,
)

API = "/api/v1"
DEFAULT_POSTGRES_SERVER = "postgres://postgres@127.0.0.1:5432/postgres"
# What a client counts as "the server is not there": retried, with the same key.
CONNECTION = "connection"
TIMEOUT = "timeout"
RETRIED_STATUSES = {502, 503, 504}


class LoadError(RuntimeError):
    """The night could not be set up or went somewhere it never should."""


# --- measuring -----------------------------------------------------------------------------------


@dataclass
class Sample:
    kind: str
    status: int | str
    started: float
    latency: float


def percentile(sorted_values: list[float], fraction: float) -> float:
    """The nearest-rank percentile of values already sorted (0 for none)."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


class Recorder:
    """Every request's kind, status, start and latency."""

    def __init__(self) -> None:
        self.samples: list[Sample] = []

    def add(self, kind: str, status: int | str, started: float, latency: float) -> None:
        self.samples.append(Sample(kind, status, started, latency))

    def summary(
        self, kinds: set[str] | None = None, since: float = 0.0, until: float = math.inf
    ) -> dict[str, Any]:
        chosen = [
            s
            for s in self.samples
            if (kinds is None or s.kind in kinds) and since <= s.started < until
        ]
        latencies = sorted(s.latency for s in chosen)
        statuses = Counter(str(s.status) for s in chosen)
        errors = {
            status: n
            for status, n in statuses.items()
            if not (status.isdigit() and 200 <= int(status) < 300) and status != "409"
        }
        return {
            "requests": len(chosen),
            "p50_ms": round(percentile(latencies, 0.50) * 1000, 1),
            "p95_ms": round(percentile(latencies, 0.95) * 1000, 1),
            "p99_ms": round(percentile(latencies, 0.99) * 1000, 1),
            "max_ms": round((latencies[-1] if latencies else 0.0) * 1000, 1),
            "statuses": dict(sorted(statuses.items())),
            "errors": sum(errors.values()),
        }


class CpuMeter:
    """CPU time used between two readings: this process, the web server's process group, the
    database's server processes for one database (PostgreSQL), and the whole machine; each
    as a percentage of one core over the wall time. A process that ended in between is left
    out (its share is undercounted, never negative)."""

    def __init__(self, web_group: int | None = None, database: str | None = None) -> None:
        self.web_group = web_group
        self.database = database
        self.ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

    def read(self) -> dict[str, Any]:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        reading: dict[str, Any] = {
            "wall": time.monotonic(),
            "loadgen": usage.ru_utime + usage.ru_stime,
        }
        if self.web_group is not None:
            reading["web"] = {}
        if self.database:
            reading["database"] = {}
        for stat, cmdline in _processes():
            used = (stat[11] + stat[12]) / self.ticks
            if self.web_group is not None and stat[2] == self.web_group:
                reading["web"][stat[0]] = used
            elif self.database and cmdline.startswith("postgres:") and self.database in cmdline:
                reading["database"][stat[0]] = used
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
            values = [int(v) for v in fields]
            idle = values[3] + (values[4] if len(values) > 4 else 0)
            reading["machine_busy"] = (sum(values) - idle) / self.ticks
        return reading

    @staticmethod
    def between(before: dict[str, Any], after: dict[str, Any]) -> dict[str, float]:
        wall = max(after["wall"] - before["wall"], 1e-9)
        used: dict[str, float] = {}
        for name in ("loadgen", "web", "database", "machine_busy"):
            if name not in before or name not in after:
                continue
            if isinstance(after[name], dict):
                seconds = sum(t - before[name].get(pid, 0.0) for pid, t in after[name].items())
            else:
                seconds = after[name] - before[name]
            used[name] = round(100 * seconds / wall, 1)
        return used


def _processes() -> Iterator[tuple[list[int], str]]:
    """(pid, ppid, pgid, …, utime, stime as in /proc/PID/stat, fields 1-15) and the command
    line of every process we may read."""
    proc = Path("/proc")
    if not proc.is_dir():
        return
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            raw = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        # The command name is in parentheses and may contain spaces.
        rest = raw[raw.rindex(")") + 2 :].split()
        try:
            numbers = [int(entry.name), int(rest[1]), int(rest[2])] + [int(x) for x in rest[3:13]]
        except (ValueError, IndexError):
            continue
        # numbers: 0 pid, 1 ppid, 2 pgid, 3 session, …, 11 utime, 12 stime
        yield numbers, cmdline


def load_average() -> float | None:
    with contextlib.suppress(OSError):
        return round(os.getloadavg()[0], 2)
    return None


# --- setting a night up --------------------------------------------------------------------------


@dataclass
class NightSetup:
    """A started night on a server: what the clients need to play it."""

    url: str
    slug: str
    organizer_token: str
    table_tokens: dict[int, str]
    games: int
    tables: int
    ruleset: str
    first_game: dict[str, Any]


ORGANIZER_CODE = """
from django.contrib.auth import get_user_model
from drives.models import Drive, Membership
from drives.services import api_token_create, member_add
drive = Drive.objects.get(slug={slug!r})
user, _ = get_user_model().objects.get_or_create(username={username!r})
member_add(club=drive.club, user=user, role=Membership.Role.ORGANIZER)
print(api_token_create(user=user))
"""


def http_json(
    method: str, url: str, token: str, body: Any = None, timeout: float = 60.0
) -> tuple[int, Any]:
    """One blocking JSON request (for the set-up; the load itself is asynchronous)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def set_up_night(
    stack: Stack,
    *,
    tables: int = 250,
    games: int = 25,
    name: str = "Load night",
    ruleset: str = "cape-breton-45",
) -> NightSetup:
    """Create a drive of ``2 × tables`` couples and ``games`` games on the stack's database,
    an organizer of its club with an API token, start it through the API (game 1 seated by
    number) and read its table tokens."""
    folder = Path(tempfile.mkdtemp(prefix="fortyfives-load-"))
    try:
        couples = folder / "couples.csv"
        couples.write_text(
            "player1,player2\n"
            + "".join(f"North {i},South {i}\n" for i in range(1, 2 * tables + 1)),
            encoding="utf-8",
        )
        slug = stack.manage(
            "drive", "create", "--club", "Load Test Club", "--name", name,
            "--date", date.today().isoformat(), "--couples", str(couples),
            "--games", str(games), "--ruleset", ruleset,
        ).stdout.strip()  # fmt: skip
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    code = ORGANIZER_CODE.format(slug=slug, username="load-organizer")
    token = stack.manage("shell", "-c", code).stdout.strip().splitlines()[-1]
    status, first_game = http_json(
        "POST", f"{stack.url}{API}/drives/{slug}/start", token, {"seating": "by-number"}
    )
    if status != 201:
        raise LoadError(f"starting {slug} answered {status}: {first_game}")
    listing = json.loads(
        stack.manage("drive", "tokens", slug, "--json", "--base-url", stack.url).stdout
    )
    return NightSetup(
        url=stack.url,
        slug=slug,
        organizer_token=token,
        table_tokens={t["number"]: t["token"] for t in listing["tables"]},
        games=games,
        tables=tables,
        ruleset=ruleset,
        first_game=first_game,
    )


# --- the clients ---------------------------------------------------------------------------------


class Http:
    """One aiohttp session for every client; each request recorded. ``call`` retries a
    request the server did not answer (connection refused or cut, time-out, 502-504) until
    ``outage_limit`` seconds have passed without an answer: safe for results (the key makes
    a second submission a replay) and for the advance (a second press answers 200)."""

    def __init__(
        self, base: str, concurrency: int, recorder: Recorder, *, outage_limit: float = 90.0
    ) -> None:
        self.base = base.rstrip("/")
        self.concurrency = concurrency
        self.recorder = recorder
        self.outage_limit = outage_limit
        self.session: aiohttp.ClientSession | None = None
        self.retried = 0

    async def __aenter__(self) -> Http:
        connector = aiohttp.TCPConnector(limit=self.concurrency + 2, ttl_dns_cache=None)
        self.session = aiohttp.ClientSession(
            connector=connector,
            timeout=aiohttp.ClientTimeout(total=60),
            json_serialize=json.dumps,
        )
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.session is not None:
            await self.session.close()

    async def once(
        self, kind: str, method: str, path: str, token: str | None, body: Any = None
    ) -> tuple[int | str, Any]:
        assert self.session is not None
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        started = time.monotonic()
        status: int | str
        data: Any = None
        try:
            async with self.session.request(
                method, self.base + path, json=body, headers=headers
            ) as response:
                raw = await response.read()
                status = response.status
            with contextlib.suppress(ValueError):
                data = json.loads(raw) if raw else None
        except (aiohttp.ClientConnectionError, aiohttp.ClientPayloadError):
            status = CONNECTION
        except TimeoutError:
            status = TIMEOUT
        self.recorder.add(kind, status, started, time.monotonic() - started)
        return status, data

    async def call(
        self, kind: str, method: str, path: str, token: str | None, body: Any = None
    ) -> tuple[int, Any]:
        first_failure: float | None = None
        delay = 0.05
        while True:
            status, data = await self.once(kind, method, path, token, body)
            if isinstance(status, int) and status not in RETRIED_STATUSES:
                return status, data
            now = time.monotonic()
            first_failure = first_failure or now
            if now - first_failure > self.outage_limit:
                raise LoadError(
                    f"{method} {path}: no answer for {self.outage_limit:.0f} s (last: {status})"
                )
            self.retried += 1
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)


@dataclass
class Submission:
    """One result sent for a table of a game, and what the server said."""

    game: int
    table: int
    winner: int
    points: list[int] | None
    key: str
    status: int
    kind: str  # "first", "retry" (the same key again) or "conflict" (the other winner)
    answer_winner: int | None = None
    answer_state: str | None = None


@dataclass
class NightOptions:
    clients: int = 250
    retry: float = 0.10
    conflict: float = 0.05
    seed: int = 1945
    points: bool = True
    outage_limit: float = 90.0
    # 0: every client submits the moment its game starts (the worst case). Otherwise each
    # client waits a random moment within this many seconds first, as a hall's phones report
    # when their tables finish, all within a minute or so.
    spread: float = 0.0


@dataclass
class Progress:
    """Where the night is, readable from another thread (the crash tests poll it)."""

    game: int = 0
    acknowledged: int = 0
    advancing: int | None = None
    advanced: int = 0
    done: bool = False


class NightRun:
    """Play a started night game after game (see the module's docstring, ``night``)."""

    def __init__(
        self,
        setup: NightSetup,
        options: NightOptions | None = None,
        recorder: Recorder | None = None,
    ) -> None:
        self.setup = setup
        self.options = options or NightOptions()
        self.recorder = recorder or Recorder()
        self.progress = Progress()
        self.submissions: list[Submission] = []
        self.acknowledged: dict[tuple[int, int], Submission] = {}
        self.listed_conflicts: dict[int, list[int]] = {}
        self.resolved: dict[tuple[int, int], int] = {}
        self.advances: dict[int, list[int]] = {}
        self.anomalies: list[str] = []
        self.scores = (
            legal_final_scores(PRESETS[setup.ruleset]) if not PRESETS[setup.ruleset].auction else []
        )
        self.seatings: dict[int, list[dict[str, Any]]] = {1: setup.first_game["tables"]}
        self.started = self.finished = 0.0
        self.retried = 0
        self.http: Http | None = None

    def path(self, game: int, tail: str = "") -> str:
        return f"{API}/drives/{self.setup.slug}/games/{game}{tail}"

    async def run(self, games: int | None = None) -> NightRun:
        """Play from the game in play up to game ``games`` (default: the whole night). Called
        again, it carries on: the game where it stopped is advanced first."""
        last = min(games or self.setup.games, self.setup.games)
        options = self.options
        self.started = self.started or time.monotonic()
        self.progress.done = False
        async with Http(
            self.setup.url, options.clients, self.recorder, outage_limit=options.outage_limit
        ) as http:
            self.http = http
            game = max(self.seatings)
            while True:
                if game not in self.listed_conflicts:  # not played and settled yet
                    self.progress.game = game
                    await self.play(game)
                    await self.settle(game)
                if game >= last:
                    break
                await self.advance(game)
                game += 1
            self.retried += http.retried
            self.http = None
        self.finished = time.monotonic()
        self.progress.done = True
        return self

    async def play(self, game: int) -> None:
        """Every client submits the results of its tables of ``game``."""
        seats = [
            row
            for row in self.seatings[game]
            if not row["sit_out"] and row["stays"] is not None and row["arrives"] is not None
        ]
        clients = max(1, self.options.clients)
        shares: list[list[dict[str, Any]]] = [seats[i::clients] for i in range(clients)]
        await asyncio.gather(*(self.client(game, share) for share in shares if share))

    async def client(self, game: int, rows: list[dict[str, Any]]) -> None:
        spread = self.options.spread
        for row in rows:
            if spread > 0:
                rng = random.Random(f"{self.options.seed}-spread-{game}-{row['table']}")
                await asyncio.sleep(rng.uniform(0, spread))
            await self.submit_table(game, row)

    async def submit_table(self, game: int, row: dict[str, Any]) -> None:
        assert self.http is not None
        options = self.options
        table = row["table"]
        rng = random.Random(f"{options.seed}-{self.setup.slug}-{game}-{table}")
        winner = rng.choice([row["stays"], row["arrives"]])
        other = row["arrives"] if winner == row["stays"] else row["stays"]
        points = list(rng.choice(self.scores)) if options.points and self.scores else None
        if points is not None and rng.random() < 0.5:
            points.reverse()  # entered loser first: the winner is named, the order is free
        key = f"g{game}-t{table}-{rng.getrandbits(48):012x}"
        token = self.setup.table_tokens[table]
        path = self.path(game, f"/tables/{table}/result")

        async def send(kind: str, who: int, its_key: str) -> Submission:
            body: dict[str, Any] = {"winner": who, "key": its_key}
            if points is not None:
                body["points"] = points
            status, data = await self.http.call(f"result-{kind}", "PUT", path, token, body)  # type: ignore[union-attr]
            sent = Submission(game, table, who, points, its_key, status, kind)
            if isinstance(data, dict):
                sent.answer_winner = data.get("winner")
                sent.answer_state = data.get("state")
            self.submissions.append(sent)
            return sent

        first = await send("first", winner, key)
        if first.status in (200, 201) and first.answer_winner == winner:
            self.acknowledged[(game, table)] = first
            self.progress.acknowledged += 1
        else:
            self.anomalies.append(
                f"game {game} table {table}: the first submission answered {first.status} "
                f"(winner {first.answer_winner}, sent {winner})"
            )
            return
        if rng.random() < options.retry:
            again = await send("retry", winner, key)
            if again.status != 200 or again.answer_winner != winner:
                self.anomalies.append(
                    f"game {game} table {table}: the same key again answered {again.status} "
                    f"(winner {again.answer_winner}), not a 200 replay of {winner}"
                )
        if rng.random() < options.conflict:
            clash = await send("conflict", other, f"{key}-other")
            if clash.status != 409 and not (
                clash.status == 200 and clash.answer_state == "conflict"
            ):
                self.anomalies.append(
                    f"game {game} table {table}: a different winner answered {clash.status}, "
                    "not 409"
                )

    def conflicted_tables(self, game: int) -> list[int]:
        return sorted(
            {s.table for s in self.submissions if s.game == game and s.kind == "conflict"}
        )

    async def settle(self, game: int) -> None:
        """The organizer reads the game, checks the conflicts listed are those the phones
        were told of, and resolves each one for the winner entered first."""
        assert self.http is not None
        token = self.setup.organizer_token
        status, view = await self.http.call("game", "GET", self.path(game), token)
        if status != 200:
            raise LoadError(f"reading game {game} answered {status}: {view}")
        listed = sorted(view["conflicts"])
        self.listed_conflicts[game] = listed
        expected = self.conflicted_tables(game)
        if listed != expected:
            self.anomalies.append(
                f"game {game}: the desk lists conflicts at {listed}, the phones were told "
                f"409 at {expected}"
            )
        if view["missing"]:
            self.anomalies.append(f"game {game}: tables {view['missing']} missing at the desk")
        for table in listed:
            winner = self.acknowledged[(game, table)].winner
            status, _ = await self.http.call(
                "resolve",
                "POST",
                self.path(game, f"/tables/{table}/resolve"),
                token,
                {"winner": winner, "reason": "both couples checked the score sheet"},
            )
            if status != 200:
                self.anomalies.append(f"game {game} table {table}: resolve answered {status}")
            self.resolved[(game, table)] = winner

    async def advance(self, game: int) -> None:
        assert self.http is not None
        self.progress.advancing = game
        status, view = await self.http.call(
            "advance", "POST", self.path(game, "/advance"), self.setup.organizer_token
        )
        self.progress.advancing = None
        self.advances.setdefault(game, []).append(status)
        if status not in (200, 201) or not isinstance(view, dict) or view["number"] != game + 1:
            raise LoadError(f"advancing game {game} answered {status}: {view}")
        self.seatings[game + 1] = view["tables"]
        self.progress.advanced = game

    def report(self) -> dict[str, Any]:
        results = {"result-first", "result-retry", "result-conflict"}
        wall = max(self.finished - self.started, 1e-9)
        put = self.recorder.summary(results)
        return {
            "mode": "night",
            "drive": self.setup.slug,
            "tables": self.setup.tables,
            "games": max(self.seatings),
            "clients": self.options.clients,
            "retry_fraction": self.options.retry,
            "conflict_fraction": self.options.conflict,
            "spread_seconds": self.options.spread,
            "seconds": round(wall, 2),
            "results_per_second": round(put["requests"] / wall, 1),
            "submissions": put,
            "by_kind": {
                kind: self.recorder.summary({kind})
                for kind in sorted({s.kind for s in self.recorder.samples})
            },
            "acknowledged": len(self.acknowledged),
            "conflicts": sum(len(v) for v in self.listed_conflicts.values()),
            "advances": {str(k): v for k, v in sorted(self.advances.items())},
            "retried_after_no_answer": self.retried,
            "anomalies": self.anomalies,
        }

    def acknowledged_list(self) -> list[dict[str, Any]]:
        return [
            {"game": s.game, "table": s.table, "winner": s.winner, "key": s.key, "status": s.status}
            for s in sorted(self.acknowledged.values(), key=lambda s: (s.game, s.table))
        ]


# --- steady: closed loop -----------------------------------------------------------------------


class SteadyResults:
    """C clients submitting new results without pause; the organizer advances whenever the
    game in play is complete (the clients wait for it meanwhile, as in a hall)."""

    def __init__(self, setup: NightSetup, http: Http, seed: int) -> None:
        self.setup = setup
        self.http = http
        self.rng = random.Random(seed)
        self.scores = legal_final_scores(PRESETS[setup.ruleset])
        self.game = 1
        self.todo: list[dict[str, Any]] = []
        self.outstanding = 0
        self.ready = asyncio.Event()
        self.advance_seconds = 0.0
        self.advances = 0
        self.over = False
        self.errors: list[str] = []
        self.load(1, setup.first_game["tables"])

    def load(self, game: int, tables: list[dict[str, Any]]) -> None:
        self.game = game
        self.todo = [
            row
            for row in reversed(tables)
            if not row["sit_out"] and row.get("state") in (None, "missing")
        ]
        self.ready.set()

    async def worker(self, until: float) -> int:
        done = 0
        while time.monotonic() < until and not self.over:
            if not self.todo:
                self.ready.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.ready.wait(), max(0.01, until - time.monotonic()))
                continue
            row = self.todo.pop()
            game, table = self.game, row["table"]
            self.outstanding += 1
            winner = self.rng.choice([row["stays"], row["arrives"]])
            body = {
                "winner": winner,
                "points": list(self.rng.choice(self.scores)),
                "key": f"steady-{game}-{table}",
            }
            status, data = await self.http.call(
                "result",
                "PUT",
                f"{API}/drives/{self.setup.slug}/games/{game}/tables/{table}/result",
                self.setup.table_tokens[table],
                body,
            )
            self.outstanding -= 1
            done += 1
            if status != 201:
                self.errors.append(f"game {game} table {table}: {status} {data}")
            if not self.todo and self.outstanding == 0 and self.game == game:
                await self.advance(game)
        return done

    async def advance(self, game: int) -> None:
        if game >= self.setup.games:
            self.over = True
            self.ready.set()
            return
        started = time.monotonic()
        status, view = await self.http.call(
            "advance",
            "POST",
            f"{API}/drives/{self.setup.slug}/games/{game}/advance",
            self.setup.organizer_token,
        )
        self.advance_seconds += time.monotonic() - started
        self.advances += 1
        if status not in (200, 201):
            raise LoadError(f"advancing game {game} answered {status}: {view}")
        self.load(game + 1, view["tables"])


def cpu_per_request(
    percent: dict[str, float], wall: float, summary: dict[str, Any]
) -> dict[str, float]:
    """CPU milliseconds a request cost the web server and the database (steadier than the
    throughput on a machine shared with other work)."""
    count = max(summary["requests"], 1)
    return {
        name: round(percent[name] / 100 * wall * 1000 / count, 2)
        for name in ("web", "database", "loadgen")
        if name in percent
    }


async def closed_loop_livez(http: Http, clients: int, until: float) -> None:
    async def one() -> None:
        while time.monotonic() < until:
            await http.once("livez", "GET", "/livez", None)

    await asyncio.gather(*(one() for _ in range(clients)))


async def steady(
    setup: NightSetup,
    *,
    clients: int,
    seconds: float,
    warmup: float = 2.0,
    seed: int = 7,
    meter: CpuMeter | None = None,
) -> dict[str, Any]:
    """Results for ``seconds`` then /livez for ``seconds``, both at ``clients`` in flight."""
    meter = meter or CpuMeter()
    recorder = Recorder()
    async with Http(setup.url, clients, recorder) as http:
        results = SteadyResults(setup, http, seed)
        if warmup:
            until = time.monotonic() + warmup / 2
            await closed_loop_livez(http, clients, until)
            until = time.monotonic() + warmup / 2
            await asyncio.gather(*(results.worker(until) for _ in range(clients)))
        results.advance_seconds, results.advances = 0.0, 0

        phases: dict[str, dict[str, Any]] = {}
        before, start = meter.read(), time.monotonic()
        until = start + seconds
        await asyncio.gather(*(results.worker(until) for _ in range(clients)))
        end, after = time.monotonic(), meter.read()
        summary = recorder.summary({"result"}, since=start)
        wall = end - start
        phases["results"] = {
            **summary,
            "seconds": round(wall, 2),
            "per_second": round(summary["requests"] / wall, 1),
            "per_second_between_advances": round(
                summary["requests"] / max(wall - results.advance_seconds, 1e-9), 1
            ),
            "advances": results.advances,
            "advance_seconds": round(results.advance_seconds, 2),
            "advance": recorder.summary({"advance"}, since=start),
            "cpu_percent": meter.between(before, after),
            "cpu_ms_per_request": cpu_per_request(meter.between(before, after), wall, summary),
            "night_over": results.over,
        }
        before, start = meter.read(), time.monotonic()
        await closed_loop_livez(http, clients, start + seconds)
        end, after = time.monotonic(), meter.read()
        summary = recorder.summary({"livez"}, since=start)
        phases["livez"] = {
            **summary,
            "seconds": round(end - start, 2),
            "per_second": round(summary["requests"] / (end - start), 1),
            "cpu_percent": meter.between(before, after),
            "cpu_ms_per_request": cpu_per_request(
                meter.between(before, after), end - start, summary
            ),
        }
    ratio = phases["results"]["per_second"] / max(phases["livez"]["per_second"], 1e-9)
    ratio_between = phases["results"]["per_second_between_advances"] / max(
        phases["livez"]["per_second"], 1e-9
    )
    return {
        "mode": "steady",
        "clients": clients,
        "tables": setup.tables,
        "load_average": load_average(),
        "phases": phases,
        "ratio_results_to_livez": round(ratio, 3),
        "ratio_between_advances": round(ratio_between, 3),
        "errors": results.errors[:20],
    }


# --- a stack of our own -------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def with_database(url: str, name: str) -> str:
    """The same server's URL with another database name."""
    head, _, _ = url.rpartition("/")
    return f"{head}/{name}"


def drop_postgres_database(url: str) -> None:
    import dj_database_url
    from psycopg import sql

    with postgres_connect(url, server=True) as connection:
        connection.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(dj_database_url.parse(url)["NAME"])
            )
        )


@contextlib.contextmanager
def own_stack(
    kind: str,
    *,
    postgres_server: str = DEFAULT_POSTGRES_SERVER,
    broker_url: str | None = None,
    workers: int | None = None,
    database_name: str | None = None,
) -> Iterator[Stack]:
    """gunicorn (no Celery worker: results need none) on a new database (on PostgreSQL
    ``database_name``, by default ``fortyfives_load_<pid>``), stopped and the database
    dropped at the end. The integration tests start theirs with it too."""
    state = Path(tempfile.mkdtemp(prefix="fortyfives-load-stack-"))
    if kind == "postgres":
        name = database_name or f"fortyfives_load_{os.getpid()}"
        database = with_database(postgres_server, name)
    elif kind == "sqlite":
        database = f"sqlite:///{state / 'db.sqlite3'}"
    else:
        raise LoadError(f"--stack is postgres or sqlite, not {kind!r}")
    stack = Stack(
        StackConfig(
            database_url=database,
            broker_url=broker_url,
            port=free_port(),
            web_workers=workers or default_web_workers(database),
            worker=False,
            state_dir=state,
        )
    )
    try:
        stack.start()
        yield stack
    finally:
        stack.stop()
        if kind == "postgres":
            drop_postgres_database(database)
        shutil.rmtree(state, ignore_errors=True)


@contextlib.contextmanager
def target(args: argparse.Namespace) -> Iterator[tuple[Stack, str]]:
    """The stack to load: started here (``--stack``) or already running (``--url``)."""
    if args.stack:
        broker = args.broker_url or (DEFAULT_BROKER_URL if args.stack == "postgres" else None)
        if broker and broker.lower() == "none":
            broker = None
        with own_stack(
            args.stack, postgres_server=args.postgres, broker_url=broker, workers=args.workers
        ) as stack:
            yield stack, args.stack
        return
    if not (args.url and args.database_url):
        raise LoadError("give --stack postgres|sqlite, or --url with --database-url")
    address = urllib.parse.urlsplit(args.url)
    if not address.hostname or not address.port:
        raise LoadError(f"--url {args.url}: give the host and the port, e.g. http://127.0.0.1:8001")
    # Only for running manage.py on that database: nothing is started.
    state = Path(tempfile.mkdtemp(prefix="fortyfives-load-"))
    try:
        stack = Stack(
            StackConfig(
                database_url=args.database_url,
                broker_url=None,
                host=address.hostname,
                port=address.port,
                state_dir=state,
            )
        )
        yield stack, "postgres" if args.database_url.startswith("postgres") else "sqlite"
    finally:
        shutil.rmtree(state, ignore_errors=True)


def meter_for(stack: Stack) -> CpuMeter:
    database = None
    if stack.config.database_url.startswith(("postgres://", "postgresql://")):
        database = stack.config.database_url.rsplit("/", 1)[1]
    group = stack.web.pid if stack.web is not None else None
    return CpuMeter(web_group=group, database=database)


# --- printing ----------------------------------------------------------------------------------


def _row(name: str, s: dict[str, Any], per_second: Any) -> str:
    return (
        f"{name:<34} {s['requests']:>7} {per_second:>9} {s['p50_ms']:>8} {s['p95_ms']:>8} "
        f"{s['p99_ms']:>8} {s['max_ms']:>8} {s['errors']:>6}"
    )


HEADER = (
    f"{'':<34} {'reqs':>7} {'req/s':>9} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} "
    f"{'max ms':>8} {'errors':>6}"
)


def print_steady(report: dict[str, Any], backend: str) -> None:
    results, livez = report["phases"]["results"], report["phases"]["livez"]
    print(f"\n{backend}, {report['clients']} clients, {report['tables']} tables "
          f"(load average {report['load_average']})")  # fmt: skip
    print(HEADER)
    print(_row("result PUT (advances included)", results, results["per_second"]))
    print(_row("  between advances", results, results["per_second_between_advances"]))
    print(_row("GET /livez", livez, livez["per_second"]))
    print(
        f"ratio results/livez {report['ratio_results_to_livez']:.2f} "
        f"({report['ratio_between_advances']:.2f} between advances); "
        f"{results['advances']} advances, {results['advance_seconds']} s, advance p50 "
        f"{results['advance']['p50_ms']} ms; statuses {results['statuses']}"
    )
    print(f"CPU % of a core, results: {results['cpu_percent']}; livez: {livez['cpu_percent']}")
    print(
        f"CPU ms a request, results: {results['cpu_ms_per_request']}; "
        f"livez: {livez['cpu_ms_per_request']}"
    )


def print_night(report: dict[str, Any], backend: str) -> None:
    spread = report.get("spread_seconds") or 0
    arrivals = f", each game's results within {spread:g} s" if spread else ", all at once"
    print(
        f"\n{backend}, whole night: {report['tables']} tables, {report['games']} games, "
        f"{report['clients']} clients{arrivals}, {report['retry_fraction']:.0%} retries, "
        f"{report['conflict_fraction']:.0%} conflicts: {report['seconds']} s end to end"
    )
    print(HEADER)
    print(_row("all result PUTs", report["submissions"], report["results_per_second"]))
    for kind, s in report["by_kind"].items():
        print(_row(f"  {kind}", s, ""))
    print(
        f"acknowledged {report['acknowledged']}, conflicts resolved {report['conflicts']}, "
        f"advances {len(report['advances'])}, anomalies {len(report['anomalies'])}"
    )
    for line in report["anomalies"][:10]:
        print(f"  ! {line}")


# --- the command ---------------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    main = argparse.ArgumentParser(
        prog="python -m tools.loadgen",
        description="Phones submitting results to a live server through the JSON API.",
    )
    modes = main.add_subparsers(dest="mode", required=True, metavar="MODE")
    night = modes.add_parser("night", help="the burst: game after game, with advances")
    steady_mode = modes.add_parser("steady", help="closed loop: results, then GET /livez")
    figures = modes.add_parser("figures", help="steady at each concurrency, then a whole night")
    for sub in (night, steady_mode, figures):
        where = sub.add_argument_group("target")
        where.add_argument("--stack", choices=["postgres", "sqlite"], help="start a stack here")
        where.add_argument(
            "--postgres",
            default=DEFAULT_POSTGRES_SERVER,
            help="the PostgreSQL server for --stack postgres (a new database is made there)",
        )
        where.add_argument(
            "--broker-url",
            help="broker and cache of a stack started here: with --stack postgres by default "
            f'{DEFAULT_BROKER_URL} (as in production), with sqlite "none"',
        )
        where.add_argument(
            "--workers", type=int, help="gunicorn workers (default 2 × cores, 1 × on SQLite)"
        )
        where.add_argument("--url", help="a running server, e.g. http://127.0.0.1:8001")
        where.add_argument("--database-url", help="its database (for manage.py)")
        sub.add_argument("--tables", type=int, default=250, help="tables (default 250)")
        sub.add_argument("--seed", type=int, default=1945)
        sub.add_argument("--json", metavar="FILE", help="write the summary as JSON here")
    night.add_argument("--games", type=int, default=25, help="games (default 25)")
    night.add_argument("--clients", type=int, default=250, help="clients (default 250)")
    for sub in (night, figures):
        sub.add_argument("--retry", type=float, default=0.10, help="same-key retries (0.10)")
        sub.add_argument("--conflict", type=float, default=0.05, help="second results (0.05)")
    night.add_argument("--no-points", action="store_true", help="send the winner only")
    night.add_argument(
        "--spread",
        type=float,
        default=0.0,
        help="each client submits at a random moment within this many seconds of its game's "
        "start (default 0: all at once)",
    )
    steady_mode.add_argument("--clients", type=int, default=50, help="clients (default 50)")
    figures.add_argument(
        "--clients", default="50,250", help="concurrencies, comma-separated (default 50,250)"
    )
    for sub in (steady_mode, figures):
        sub.add_argument("--seconds", type=float, default=15.0, help="per phase (default 15)")
        sub.add_argument("--warmup", type=float, default=2.0, help="seconds (default 2)")
    figures.add_argument("--night-games", type=int, default=25, help="games of the whole night")
    figures.add_argument(
        "--hall-games",
        type=int,
        default=4,
        help="games of the hall run, every table's phone reporting within --hall-spread "
        "seconds (default 4; 0 skips it)",
    )
    figures.add_argument(
        "--hall-spread", type=float, default=60.0, help="seconds (default 60: the same minute)"
    )
    return main


def run_night(
    stack: Stack, backend: str, args: argparse.Namespace, games: int, spread: float = 0.0
) -> dict[str, Any]:
    name = "Hall night" if spread else "Load night"
    setup = set_up_night(stack, tables=args.tables, games=games, name=name)
    options = NightOptions(
        clients=args.clients if isinstance(args.clients, int) else 250,
        retry=args.retry,
        conflict=args.conflict,
        seed=args.seed,
        points=not getattr(args, "no_points", False),
        spread=spread,
    )
    meter = meter_for(stack)
    before = meter.read()
    run = asyncio.run(NightRun(setup, options).run())
    report = run.report()
    report["cpu_percent"] = meter.between(before, meter.read())
    report["load_average"] = load_average()
    check = stack.manage("drive", "check", setup.slug)
    report["drive_check"] = check.stdout.strip()
    print_night(report, backend)
    print(report["drive_check"])
    report["acknowledged_results"] = run.acknowledged_list()
    return report


def run_steady(
    stack: Stack, backend: str, args: argparse.Namespace, clients: int
) -> dict[str, Any]:
    setup = set_up_night(stack, tables=args.tables, games=60, name=f"Steady {clients}")
    report = asyncio.run(
        steady(
            setup,
            clients=clients,
            seconds=args.seconds,
            warmup=args.warmup,
            seed=args.seed,
            meter=meter_for(stack),
        )
    )
    print_steady(report, backend)
    return report


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    summary: dict[str, Any] = {"mode": args.mode, "machine_cores": os.cpu_count()}
    try:
        with target(args) as (stack, backend):
            summary["backend"] = backend
            summary["web_workers"] = stack.config.web_workers
            summary["broker"] = stack.config.broker_url
            if stack.web is not None:
                print(f"{backend} at {stack.url}, {stack.config.web_workers} gunicorn workers")
            else:
                print(
                    f"{backend} at {stack.url} (a server running already: its CPU is not measured)"
                )
                summary["web_workers"] = None
            if args.mode == "night":
                summary["night"] = run_night(stack, backend, args, args.games, args.spread)
            elif args.mode == "steady":
                summary["steady"] = [run_steady(stack, backend, args, args.clients)]
            else:
                concurrencies = [int(c) for c in str(args.clients).split(",") if c.strip()]
                summary["steady"] = [run_steady(stack, backend, args, c) for c in concurrencies]
                args.clients = 250
                summary["night"] = run_night(stack, backend, args, args.night_games)
                if args.hall_games > 0:
                    summary["hall"] = run_night(
                        stack, backend, args, args.hall_games, args.hall_spread
                    )
    except (StackError, LoadError) as error:
        print(f"loadgen: {error}", file=sys.stderr)
        return 1
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
        print(f"summary written to {args.json}")
    nights = [summary.get("night"), summary.get("hall")]
    return 1 if any(night and night["anomalies"] for night in nights) else 0


if __name__ == "__main__":
    sys.exit(main())
