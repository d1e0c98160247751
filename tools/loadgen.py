"""The burst and crash tests' client: phones at every table of a night submitting their results
to a live server through the JSON API, with asyncio and one aiohttp session.

Game after game, C clients (one per table, or C clients sharing the tables) submit their
tables' results with the table's token (``PUT /api/v1/drives/{slug}/games/{n}/tables/{t}/result``,
a legal final score picked by the engine). A fraction of the submissions is sent again with the
same key (a phone that did not see the answer: 200 replay), a fraction is followed by a
different winner under another key (the other couple's phone: 409, the table in conflict).
When every table of the game has answered, the organizer reads the game (the conflicts must
be listed there), resolves each conflict and advances once. Connection errors (a server that
is down) are retried with the same key until it answers again, so a crash in the middle loses
nothing that was acknowledged; every request, answer and acknowledgement is kept for the
tests to check against what the server stored.

tests/integration/test_burst.py and test_crash.py drive it: :func:`tools.night.set_up_night`,
then ``asyncio.run(NightRun(setup, NightOptions(...)).run())``. The load figures of
BENCHMARKS.md are locust's (tools/locustfile.py, ``make load``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass
from typing import Any

import aiohttp

from engine.rules import PRESETS
from engine.scores import legal_final_scores
from tools.night import API, LoadError, NightSetup

# What a client counts as "the server is not there": retried, with the same key.
CONNECTION = "connection"
TIMEOUT = "timeout"
RETRIED_STATUSES = {502, 503, 504}


@dataclass
class Sample:
    kind: str
    status: int | str
    started: float
    latency: float


class Recorder:
    """Every request's kind, status, start and latency."""

    def __init__(self) -> None:
        self.samples: list[Sample] = []

    def add(self, kind: str, status: int | str, started: float, latency: float) -> None:
        self.samples.append(Sample(kind, status, started, latency))


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


@dataclass
class Progress:
    """Where the night is, readable from another thread (the crash tests poll it)."""

    game: int = 0
    acknowledged: int = 0
    advancing: int | None = None
    advanced: int = 0
    done: bool = False


class NightRun:
    """Play a started night game after game (see the module's docstring)."""

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
        for row in rows:
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
            status, data = await self.http.call(f"result-{kind}", "PUT", path, token, body)  # type: ignore[union-attr]  # opened in run()
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
