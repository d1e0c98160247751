"""The people of a hall night, for locust: the load figures of BENCHMARKS.md ("Load").

The night is set up beforehand (tools/night.py; ``--night FILE`` is its JSON) and started; the
users then play it against the server:

``TablePhone``
    A table's phone (the QR code of the table card). It opens its table page, keeps the page's
    live fragment fresh as the page's script does (static/js/poll.js, below), and reports its
    table's result of each game through the API with the table's token
    (``PUT …/games/{n}/tables/{t}/result``, a legal final score from the engine, a key). A
    fraction is sent again with the same key (a phone that missed the answer: 200), a
    fraction is followed by the other couple's winner under another key (409: the table in
    conflict).
``CouplePhone``
    A couple's punch card page, kept fresh the same way.
``Desk``, ``Projector``
    The scorers' desk grid and the hall's screen: the organizer's login, then their live
    fragments kept fresh the same way (polled every 3 s today).

How a page keeps its fragment fresh, as poll.js does (tools/pagestream.py keeps its timer):
a page whose live region names an event stream (``data-events-url``, where the server tells
pages of changes: config/events.py) holds the stream open (its own connection, read line by
line) and asks for its fragment only when told ``changed`` (a phone's page, on a change of the
whole night, after a moment drawn up to 2 s), when the stream opens again after a break, and
once a minute to be safe; while the stream is broken it polls. A page without one, or every
page with ``--no-push`` (the figures side by side), polls its ``data-poll-url`` every
``data-poll-every`` seconds. Each fragment is asked with the ETag of the last answer. In
locust's figures: ``<page> fragment`` (each fetch), ``<page> stream`` (each opening of a
stream, its time to the answer's headers) and ``<page> stream broken`` (a stream that broke
while the night went on: a failure).
``Organizer``
    Waits until every table of the game in play answered, reads the game (the conflicts listed
    there must be those the phones were told of), resolves each conflict for the winner entered
    first, and advances; after the last game the run ends.

``--phase`` says which night is played:

``night``
    Every table's phone reports the moment its game starts (the worst case), nothing polls.
``hall``
    Every phone reports at a random moment within ``--spread`` seconds of its game's start, as
    a hall's tables finish within the same minute; with ``--pages`` every page is open
    meanwhile (each table's, ``--couple-phones`` couples', ``--desks`` desks,
    ``--projectors``), on its event stream or polling (``--no-push``: polling).
``steady``
    The closed-loop figures (a :class:`NightShape`): C ``Livez`` users on ``GET /livez`` (the
    minimal JSON view, the yardstick), then C ``SteadyPhone`` users submitting new results
    without pause (the organizer advancing whenever a game is complete), each phase measured
    after a warm-up.

Whatever breaks a rule (an unexpected status, a conflict not listed, a night that does not end)
is a locust failure. ``--summary FILE`` writes the figures tools/load.py reads. Run it through
``python -m tools.load`` (``make load``), or by hand against a night set up there:

    locust -f tools/locustfile.py --headless --host http://127.0.0.1:8001 \\
        --night night.json --phase hall --spread 60 --pages --couple-phones 250 --summary hall.json
"""

from __future__ import annotations

import html
import json
import random
import re
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

import gevent
from gevent.event import Event
from geventhttpclient import HTTPClient
from locust import FastHttpUser, LoadTestShape, constant, events, task
from locust.env import Environment
from locust.exception import StopUser
from locust.stats import RequestStats, StatsEntry

from engine.rules import PRESETS
from engine.scores import legal_final_scores
from tools.pagestream import STREAM_SILENT, EventReader, Region

API = "/api/v1"
# As static/js/poll.js asks (with the ETag of the last answer), through a browser's gzip.
FRAGMENT = {"X-Requested-With": "fetch", "Accept": "text/html", "Accept-Encoding": "gzip"}
POLL_URL = re.compile(r'data-poll-url="([^"]+)"')
POLL_EVERY = re.compile(r'data-poll-every="([0-9.]+)"')
EVENTS_URL = re.compile(r'data-events-url="([^"]+)"')
# As EventSource asks for a stream.
STREAM = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
# A region that takes patches (the desk grid): its version, and the version a patch is for.
PATCHED = re.compile(r'data-version="([0-9a-f]+)" data-poll-patch(?: data-patch-of="([0-9a-f]+)")?')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
RESULTS = ("result-first", "result-retry", "result-conflict", "result")


@events.init_command_line_parser.add_listener
def add_options(parser: Any) -> None:
    night = parser.add_argument_group("the night (tools/locustfile.py)")
    night.add_argument("--night", help="the night set up by tools/night.py, as JSON")
    night.add_argument("--phase", choices=["night", "hall", "steady"], default="hall")
    night.add_argument("--spread", type=float, default=60.0, help="hall: seconds (60)")
    night.add_argument(
        "--play",
        type=float,
        default=0.0,
        help="hall: seconds a game is played before its results start coming in (0)",
    )
    night.add_argument("--retry", type=float, default=0.10, help="same-key retries (0.10)")
    night.add_argument("--conflict", type=float, default=0.05, help="second results (0.05)")
    night.add_argument(
        "--pages", action="store_true", help="hall: every page polls (else the phones report only)"
    )
    night.add_argument("--couple-phones", type=int, default=0, help="--pages: couples polling")
    night.add_argument("--desks", type=int, default=1, help="--pages: desk grids (1)")
    night.add_argument("--projectors", type=int, default=1, help="--pages: projectors (1)")
    night.add_argument(
        "--no-push",
        dest="push",
        action="store_false",
        help="--pages: every page polls, event stream or not (as before the streams)",
    )
    night.add_argument("--clients", type=int, default=50, help="steady: clients (50)")
    night.add_argument("--seconds", type=float, default=15.0, help="steady: a phase (15)")
    night.add_argument("--warmup", type=float, default=4.0, help="steady: warm-up (4)")
    night.add_argument("--night-timeout", type=float, default=1800.0, help="seconds (1800)")
    night.add_argument("--seed", type=int, default=1945)
    night.add_argument("--summary", help="write the figures here, as JSON")


class Night:
    """What the users share: the night's tokens, the game in play and its seats, what was
    acknowledged, and the moments the organizer waits for."""

    def __init__(self, setup: dict[str, Any], options: Any) -> None:
        self.setup = setup
        self.options = options
        self.slug: str = setup["slug"]
        self.games: int = setup["games"]
        self.table_tokens = {int(t): token for t, token in setup["table_tokens"].items()}
        self.couple_tokens = {int(c): token for c, token in setup["couple_tokens"].items()}
        self.scores = legal_final_scores(PRESETS[setup["ruleset"]])
        self.seats: dict[int, dict[int, dict[str, Any]]] = {}
        self.started: dict[int, float] = {}
        self.begun = {n: Event() for n in range(1, self.games + 2)}
        self.complete = {n: Event() for n in range(1, self.games + 2)}
        self.answered: Counter[int] = Counter()
        self.told_conflict: dict[int, set[int]] = {}
        self.acknowledged: dict[tuple[int, int], int] = {}
        self.anomalies: list[str] = []
        self.statuses: Counter[str] = Counter()
        self.claimed = {"table": 0, "couple": 0}
        self.game = 0
        self.first_result = self.finished = 0.0
        self.over = Event()
        # steady: the tables of the game in play not submitted yet
        self.todo: list[dict[str, Any]] = []
        self.outstanding = 0
        self.ready = Event()
        self.first_game = setup["first_game"]
        self.born = time.monotonic()
        self.bytes_by_minute: Counter[int] = Counter()
        self.requests_by_minute: Counter[int] = Counter()
        # The pages' event streams: how many pages followed one, what they were told, how
        # often one broke, and why each fragment was asked for (tools/pagestream.py).
        self.streams = 0
        self.stream_events: Counter[str] = Counter()
        self.stream_breaks = 0
        self.fetches: Counter[str] = Counter()

    def minute(self) -> int:
        """The minute of the run, from 0."""
        return int((time.monotonic() - self.born) // 60)

    def path(self, game: int, tail: str = "") -> str:
        return f"{API}/drives/{self.slug}/games/{game}{tail}"

    def claim(self, kind: str) -> int | None:
        """The next table (or couple) number without a phone, None when all have one."""
        tokens = self.table_tokens if kind == "table" else self.couple_tokens
        self.claimed[kind] += 1
        return self.claimed[kind] if self.claimed[kind] in tokens else None

    def begin(self, game: int, tables: list[dict[str, Any]]) -> None:
        """``game`` is in play with these seats: the phones may report."""
        playing = {
            row["table"]: row
            for row in tables
            if not row["sit_out"] and row["stays"] is not None and row["arrives"] is not None
        }
        self.seats[game] = playing
        self.game = game
        self.started[game] = time.monotonic()
        self.told_conflict[game] = set()
        self.todo = [playing[t] for t in sorted(playing, reverse=True)]
        self.outstanding = 0
        if not playing:
            self.complete[game].set()
        self.begun[game].set()
        self.ready.set()

    def due(self, game: int, table: int) -> float | None:
        """When the phone of ``table`` reports ``game``: None before the game started."""
        if game not in self.started:
            return None
        hall = self.options.phase == "hall"
        spread = self.options.spread if hall else 0.0
        moment = random.Random(f"{self.options.seed}-spread-{game}-{table}").uniform(0, spread)
        return self.started[game] + (self.options.play if hall else 0.0) + moment

    def answer(self, game: int) -> None:
        self.answered[game] += 1
        if self.answered[game] >= len(self.seats[game]):
            self.complete[game].set()

    def anomaly(self, text: str, response: Any = None) -> None:
        self.anomalies.append(text)
        if response is not None:
            response.failure(text)

    def finish(self) -> None:
        self.finished = time.monotonic()
        self.over.set()


NIGHT: Night | None = None


def night() -> Night:
    assert NIGHT is not None, "no night: give --night FILE"
    return NIGHT


def poll_target(page: str) -> tuple[str | None, float]:
    """The live region's address and period, as the page tells its script."""
    url, every = POLL_URL.search(page), POLL_EVERY.search(page)
    return (html.unescape(url.group(1)) if url else None, float(every.group(1)) if every else 5.0)


def events_target(page: str) -> str | None:
    """The live region's event stream, where the server tells the page of changes."""
    found = EVENTS_URL.search(page)
    return html.unescape(found.group(1)) if found else None


class PollingUser(FastHttpUser):
    """A page left open: loaded once, then its live fragment kept fresh as poll.js does (see
    the module's docstring). The user waits in its tasks (:meth:`wait_until`), woken early by
    what its stream says."""

    abstract = True
    page_name = "page"
    poll_url: str | None = None
    poll_every = 5.0
    etag = ""
    # The version of the region shown, for one that takes patches (X-Poll-Have, as poll.js).
    version = ""
    takes_patch = False
    region: Region | None = None
    stream: gevent.Greenlet[Any, None] | None = None

    def __init__(self, environment: Environment) -> None:
        super().__init__(environment)
        self.wake = Event()

    def wait_time(self) -> float:
        return 0.0  # the tasks wait themselves (wait_until)

    def open_page(self, path: str) -> None:
        with self.client.get(path, name=self.page_name, catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"{path} answered {response.status_code}")
                raise StopUser()
            page = response.text or ""
        self.poll_url, self.poll_every = poll_target(page)
        found = PATCHED.search(page)
        self.version = found.group(1) if found else ""
        self.takes_patch = found is not None
        if self.poll_url is None:
            return
        self.region = Region(self.poll_every, spread="data-poll-spread" in page)
        self.region.start(time.monotonic())
        events_url = events_target(page)
        if events_url and night().options.push:
            night().streams += 1
            self.stream = gevent.spawn(self.follow, events_url)

    def on_stop(self) -> None:
        if self.stream is not None:
            self.stream.kill(block=False)

    def wait_until(self, until: float) -> None:
        """Wait until ``until``, or until the page's stream says something that matters."""
        self.wake.clear()
        delay = until - time.monotonic()
        if delay > 0:
            self.wake.wait(delay)

    def keep_fresh(self) -> None:
        """Ask for the fragment when it is due, else wait for that."""
        if self.region is None:
            night().over.wait(self.poll_every)
        elif time.monotonic() >= self.region.due:
            self.poll()
        else:
            self.wait_until(self.region.due)

    def poll(self) -> None:
        """Ask for the live fragment (with the ETag of the last answer)."""
        region = self.region
        assert region is not None and self.poll_url is not None
        night().fetches[region.asked(time.monotonic())] += 1
        name = f"{self.page_name} fragment"
        headers = {**FRAGMENT, "If-None-Match": self.etag} if self.etag else dict(FRAGMENT)
        if self.version:
            headers["X-Poll-Have"] = self.version
        try:
            with self.client.get(
                self.poll_url, name=name, headers=headers, catch_response=True
            ) as response:
                if response.status_code == 200:
                    self.etag = response.headers.get("ETag") or ""
                    if self.takes_patch:
                        found = PATCHED.search(response.text or "")
                        if found is None or found.group(2) not in (None, self.version or None):
                            response.failure(f"{name}: a patch for another version")
                            self.etag = self.version = ""  # the whole region next time
                        else:
                            self.version = found.group(1)
                elif response.status_code != 304 or not self.etag:
                    response.failure(f"{name} answered {response.status_code}")
        finally:
            region.answered(time.monotonic())

    def follow(self, url: str) -> None:
        """The page's event stream, as the browser's EventSource keeps it: opened on a
        connection of its own and read line by line; opened again ``retry`` seconds after it
        breaks (or after ``STREAM_SILENT`` seconds without a word); refused (an answer other
        than 200), given up: the page polls."""
        the, region = night(), self.region
        assert region is not None and self.host is not None
        name = f"{self.page_name} stream"
        reader = EventReader()
        # The production stack's streams are at the events process's own address.
        parts = urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}" if parts.netloc else self.host
        if parts.netloc:
            url = parts.path + (f"?{parts.query}" if parts.query else "")
        while True:
            client = HTTPClient.from_url(
                origin, connection_timeout=60.0, network_timeout=STREAM_SILENT
            )
            started = time.perf_counter()
            opened = 0.0
            response: Any = None
            try:
                response = client.get(url, headers=STREAM)
                status = response.status_code
                self.environment.events.request.fire(
                    request_type="GET",
                    name=name,
                    response_time=(time.perf_counter() - started) * 1000,
                    response_length=0,
                    response=SimpleNamespace(status_code=status, headers={}),
                    context={},
                    exception=None if status == 200 else RuntimeError(f"{name} answered {status}"),
                )
                if status != 200:
                    region.broken(time.monotonic())
                    self.wake.set()
                    return
                opened = time.perf_counter()
                while True:
                    line = response.readline(b"\n")
                    if not line:
                        raise ConnectionError("the server ended the stream")
                    the.bytes_by_minute[the.minute()] += len(line)
                    event = reader.feed(line.decode("utf-8", "replace"))
                    if event is None:
                        continue
                    the.stream_events[event.kind] += 1
                    if event.kind == "ready":
                        region.ready(time.monotonic())
                    elif event.kind == "changed":
                        region.changed(event.data, time.monotonic())
                    else:
                        continue
                    self.wake.set()
            except Exception as error:  # refused, broken, silent too long
                if not opened:  # not opened at all
                    self.environment.events.request.fire(
                        request_type="GET",
                        name=name,
                        response_time=(time.perf_counter() - started) * 1000,
                        response_length=0,
                        response=None,
                        context={},
                        exception=error,
                    )
                elif not the.over.is_set():
                    the.stream_breaks += 1
                    self.environment.events.request.fire(
                        request_type="SSE",
                        name=f"{name} broken",
                        response_time=(time.perf_counter() - opened) * 1000,
                        response_length=0,
                        response=None,
                        context={},
                        exception=error,
                    )
                region.broken(time.monotonic())
                self.wake.set()
            finally:
                if response is not None:
                    response.release()
                client.close()
            gevent.sleep(reader.retry)


class TablePhone(PollingUser):
    page_name = "table page"

    def on_start(self) -> None:
        table = night().claim("table")
        if table is None:
            raise StopUser()
        self.table, self.token = table, night().table_tokens[table]
        self.reported = 0
        self.auth = {"Authorization": f"Bearer {self.token}"}
        if night().options.pages:
            self.open_page(f"/t/{self.token}/")

    @task
    def turn(self) -> None:
        """Report the game's result when it is due; meanwhile keep the page fresh."""
        the = night()
        game = self.reported + 1
        due = the.due(game, self.table) if game <= the.games else None
        now = time.monotonic()
        if due is not None and now >= due:
            self.reported = game
            self.report(game)
            return
        region = self.region
        if region is not None and now >= region.due:
            self.poll()
            return
        if region is None:
            if game > the.games:
                the.over.wait()
                raise StopUser()
            if due is None:
                the.begun[game].wait(1.0)
                return
        # The next of: the result due, the page's next fetch; a game not begun, looked at
        # again in a second.
        moments = [m for m in (due, region.due if region else None) if m is not None]
        if due is None and game <= the.games:
            moments.append(now + 1.0)
        self.wait_until(min(moments))

    def report(self, game: int) -> None:
        the = night()
        row = the.seats[game].get(self.table)
        if row is None:
            return  # nobody plays here this game
        the.first_result = the.first_result or time.monotonic()
        rng = random.Random(f"{the.options.seed}-{the.slug}-{game}-{self.table}")
        winner = rng.choice([row["stays"], row["arrives"]])
        other = row["arrives"] if winner == row["stays"] else row["stays"]
        points = list(rng.choice(the.scores))
        if rng.random() < 0.5:
            points.reverse()  # entered loser first: the winner is named, the order is free
        key = f"g{game}-t{self.table}-{rng.getrandbits(48):012x}"
        try:
            if not self.send(game, "first", {"winner": winner, "points": points, "key": key}):
                return
            the.acknowledged[(game, self.table)] = winner
            if rng.random() < the.options.retry:
                self.send(game, "retry", {"winner": winner, "points": points, "key": key})
            if rng.random() < the.options.conflict:
                clash = {"winner": other, "points": points, "key": f"{key}-other"}
                if self.send(game, "conflict", clash):
                    the.told_conflict[game].add(self.table)
        finally:
            the.answer(game)

    def send(self, game: int, kind: str, body: dict[str, Any]) -> bool:
        """PUT the result; True if the answer is the API's promise for this kind: 201 with
        the winner for the first, a 200 replay for the same key, 409 for the other winner."""
        the = night()
        path = the.path(game, f"/tables/{self.table}/result")
        with self.client.put(
            path, json=body, headers=self.auth, name=f"result-{kind}", catch_response=True
        ) as response:
            status: int = response.status_code
            if kind == "conflict":
                ok = status == 409
            else:
                answer = response.json() if status in (200, 201) else {}
                ok = status == (201 if kind == "first" else 200)
                ok = ok and answer.get("winner") == body["winner"]
            if ok:
                response.success()
            else:
                the.anomaly(f"game {game} table {self.table}: {kind} answered {status}", response)
            return ok


class CouplePhone(PollingUser):
    page_name = "couple page"

    def on_start(self) -> None:
        couple = night().claim("couple")
        if couple is None:
            raise StopUser()
        self.open_page(f"/c/{night().couple_tokens[couple]}/")

    @task
    def look(self) -> None:
        self.keep_fresh()


class LoggedIn(PollingUser):
    """A page behind the organizer's login."""

    abstract = True
    page = ""

    def on_start(self) -> None:
        the = night()
        with self.client.get("/accounts/login/", name="login page") as response:
            found = CSRF.search(response.text or "")
        form = {
            "username": the.setup["username"],
            "password": the.setup["password"],
            "csrfmiddlewaretoken": found.group(1) if found else "",
        }
        with self.client.post(
            "/accounts/login/",
            data=form,
            name="login",
            catch_response=True,
            headers={"Referer": f"{self.host}/accounts/login/"},
        ) as response:
            if response.status_code != 200 or 'name="password"' in (response.text or ""):
                response.failure(f"the organizer's login answered {response.status_code}")
                raise StopUser()
        self.open_page(self.page.format(slug=the.slug))

    @task
    def look(self) -> None:
        self.keep_fresh()


class Desk(LoggedIn):
    page_name = "desk"
    page = "/drives/{slug}/desk/"


class Projector(LoggedIn):
    page_name = "projector"
    page = "/drives/{slug}/projector/"


class Organizer(FastHttpUser):
    """Settles each game once every table answered, and advances."""

    fixed_count = 1
    wait_time = constant(0)

    def on_start(self) -> None:
        self.auth = {"Authorization": f"Bearer {night().setup['organizer_token']}"}

    @task
    def run_the_game(self) -> None:
        the = night()
        game = the.game
        if not game:  # the hall is still filling up
            gevent.sleep(0.2)
            return
        if not the.complete[game].wait(1.0):
            return
        if the.options.phase != "steady":
            self.settle(game)
        if game >= the.games:
            the.finish()  # the shape ends the run at its next tick
            raise StopUser()
        with self.client.post(
            the.path(game, "/advance"), headers=self.auth, name="advance", catch_response=True
        ) as response:
            if response.status_code not in (200, 201):
                the.anomaly(f"advancing game {game} answered {response.status_code}", response)
                raise StopUser()
            the.begin(game + 1, response.json()["tables"])

    def settle(self, game: int) -> None:
        the = night()
        with self.client.get(
            the.path(game), headers=self.auth, name="game", catch_response=True
        ) as response:
            view = response.json() if response.status_code == 200 else {}
            listed = sorted(view.get("conflicts", []))
            told = sorted(the.told_conflict[game])
            if listed != told:
                the.anomaly(f"game {game}: conflicts listed at {listed}, told at {told}", response)
            if view.get("missing"):
                the.anomaly(f"game {game}: tables {view['missing']} missing", response)
        for table in listed:
            body = {
                "winner": the.acknowledged[(game, table)],
                "reason": "both couples checked the score sheet",
            }
            with self.client.post(
                the.path(game, f"/tables/{table}/resolve"),
                json=body,
                headers=self.auth,
                name="resolve",
                catch_response=True,
            ) as response:
                if response.status_code != 200:
                    the.anomaly(
                        f"game {game} table {table}: resolve answered {response.status_code}",
                        response,
                    )


class SteadyPhone(FastHttpUser):
    """steady: a phone that never waits, submitting whichever table of the game in play has
    no result yet; while the organizer advances it waits, as the hall does."""

    wait_time = constant(0)

    @task
    def submit(self) -> None:
        the = night()
        if not the.todo:
            the.ready.clear()
            the.ready.wait(1.0)
            return
        row = the.todo.pop()
        game, table = the.game, row["table"]
        the.outstanding += 1
        try:
            body = {
                "winner": random.choice([row["stays"], row["arrives"]]),
                "points": list(random.choice(the.scores)),
                "key": f"steady-{game}-{table}",
            }
            with self.client.put(
                the.path(game, f"/tables/{table}/result"),
                json=body,
                name="result",
                headers={"Authorization": f"Bearer {the.table_tokens[table]}"},
                catch_response=True,
            ) as response:
                if response.status_code != 201:
                    response.failure(f"game {game} table {table}: {response.status_code}")
        finally:
            the.outstanding -= 1
            if not the.todo and the.outstanding == 0 and the.game == game:
                the.complete[game].set()


class Livez(FastHttpUser):
    """The yardstick: the minimal JSON view of the same server, without pause."""

    wait_time = constant(0)

    @task
    def livez(self) -> None:
        self.client.get("/livez", name="livez")


def figures(entry: StatsEntry, seconds: float | None = None) -> dict[str, Any]:
    """One request name's figures: locust's percentiles (milliseconds) and counts."""
    out: dict[str, Any] = {
        "requests": entry.num_requests,
        "failures": entry.num_failures,
        "p50_ms": entry.get_response_time_percentile(0.50),
        "p95_ms": entry.get_response_time_percentile(0.95),
        "p99_ms": entry.get_response_time_percentile(0.99),
        "max_ms": round(entry.max_response_time or 0, 1),
        "total_ms": round(entry.total_response_time, 1),
    }
    if seconds:
        out["seconds"] = round(seconds, 2)
        out["per_second"] = round(entry.num_requests / seconds, 1)
    return out


def merged(stats: RequestStats, names: tuple[str, ...], label: str) -> StatsEntry:
    total = StatsEntry(stats, label, "")
    for (name, _method), entry in stats.entries.items():
        if name in names:
            total.extend(entry)
    return total


class NightShape(LoadTestShape):
    """Who is in the hall, and when: the steady phases one after the other, or the whole
    night's people at once until the organizer ends it (or ``--night-timeout``)."""

    def __init__(self) -> None:
        super().__init__()
        self.phase: str | None = None
        self.phase_started = 0.0
        self.measured: dict[str, dict[str, Any]] = {}

    def tick(self) -> tuple[int, float, list[type[Any]]] | None:
        the = night()
        options = the.options
        now = self.get_run_time()
        if options.phase != "steady":
            if the.over.is_set() or now > options.night_timeout:
                return None
            people: list[tuple[type[Any], int]] = [(TablePhone, len(the.table_tokens))]
            if options.phase == "hall" and options.pages:
                people += [
                    (CouplePhone, min(options.couple_phones, len(the.couple_tokens))),
                    (Desk, options.desks),
                    (Projector, options.projectors),
                ]
            people.append((Organizer, 1))
            for user, count in people:
                user.fixed_count = count
            total = sum(count for _user, count in people)
            # The night's phones at once; the hall's people come in over some seconds.
            rate = float(total) if options.phase == "night" else 50.0
            return total, rate, [user for user, count in people if count]
        clients, seconds, half = options.clients, options.seconds, options.warmup / 2
        # A shape's user classes only add users: the livez clients leave before the phones
        # come (a second with nobody).
        plan = [
            ("livez warm-up", half, Livez),
            ("livez", seconds, Livez),
            ("changing", 1.0, None),
            ("results warm-up", half, SteadyPhone),
            ("results", seconds, SteadyPhone),
        ]
        ends = 0.0
        for name, length, who in plan:
            ends += length
            if now < ends:
                self.enter(name)
                if who is SteadyPhone:
                    return clients + 1, float(clients), [SteadyPhone, Organizer]
                if who is None:
                    return 0, float(clients), [Livez]
                return clients, float(clients), [Livez]
        self.enter(None)
        return None

    def enter(self, phase: str | None) -> None:
        if phase == self.phase:
            return
        assert self.runner is not None  # a shape is asked only by its runner
        stats = self.runner.stats
        now = time.monotonic()
        if self.phase in ("livez", "results"):
            names = ("livez",) if self.phase == "livez" else ("result",)
            self.measured[self.phase] = figures(
                merged(stats, names, self.phase), now - self.phase_started
            )
            if self.phase == "results":
                self.measured["advance"] = figures(stats.get("advance", "POST"))
        if phase in ("livez", "results"):
            stats.reset_all()
        self.phase, self.phase_started = phase, now


@events.init.add_listener
def on_init(environment: Environment, **_kwargs: Any) -> None:
    global NIGHT
    options = environment.parsed_options
    if options is None or not options.night:
        return
    NIGHT = Night(json.loads(Path(options.night).read_text(encoding="utf-8")), options)


POLLS = ("table page fragment", "couple page fragment", "desk fragment", "projector fragment")


@events.request.add_listener
def on_request(
    name: str, response: Any, exception: Any, response_length: int = 0, **_kwargs: Any
) -> None:
    if NIGHT is not None:
        status = getattr(response, "status_code", None) or type(exception).__name__
        NIGHT.statuses[f"{name} {status}"] += 1
        # The body's bytes as sent (gzipped where the server gzipped it), by minute of the run.
        headers = getattr(response, "headers", None) or {}
        sent = headers.get("Content-Length")
        minute = NIGHT.minute()
        NIGHT.bytes_by_minute[minute] += int(sent) if sent and sent.isdigit() else response_length
        NIGHT.requests_by_minute[minute] += 1


@events.spawning_complete.add_listener
def on_spawned(user_count: int, **_kwargs: Any) -> None:
    """Game 1 starts when the hall is full (its phones report from then on)."""
    if NIGHT is not None and not NIGHT.seats:
        NIGHT.begin(NIGHT.first_game["number"], NIGHT.first_game["tables"])


@events.quitting.add_listener
def on_quitting(environment: Environment, **_kwargs: Any) -> None:
    the, options = NIGHT, environment.parsed_options
    if the is None or options is None or not options.summary:
        return
    stats = environment.stats
    summary: dict[str, Any] = {
        "phase": options.phase,
        "drive": the.slug,
        "tables": len(the.table_tokens),
        "failures": stats.total.num_failures,
        "errors": [
            {"name": e.name, "error": str(e.error), "occurrences": e.occurrences}
            for e in stats.errors.values()
        ][:20],
        "statuses": dict(sorted(the.statuses.items())),
        "anomalies": the.anomalies[:50],
    }
    if options.phase == "steady":
        shape = environment.shape_class
        summary["clients"] = options.clients
        summary.update(shape.measured if isinstance(shape, NightShape) else {})
        summary["games_advanced"] = the.game - the.first_game["number"]
    else:
        wall = (the.finished or time.monotonic()) - the.first_result
        put = merged(stats, RESULTS, "all results")
        summary.update(
            {
                "games": the.games,
                "night_over": the.over.is_set(),
                "seconds": round(wall, 2),
                "results_per_second": round(put.num_requests / max(wall, 1e-9), 1),
                "acknowledged": len(the.acknowledged),
                "conflicts": sum(len(t) for t in the.told_conflict.values()),
                "spread_seconds": options.spread if options.phase == "hall" else 0,
                "pages": bool(options.pages),
                # The pages on an event stream (none with --no-push, or where the server
                # tells no page of changes), what the streams said, why the fragments were
                # asked for.
                "push": bool(options.push),
                "pages_on_streams": the.streams,
                "stream_events": dict(sorted(the.stream_events.items())),
                "stream_breaks": the.stream_breaks,
                "fetches_by_reason": dict(sorted(the.fetches.items())),
                "play_seconds": options.play if options.phase == "hall" else 0,
                "all_results": figures(put),
                "all_polls": figures(merged(stats, POLLS, "all polls")),
                "bytes_by_minute": [
                    the.bytes_by_minute[m] for m in range(max(the.bytes_by_minute, default=-1) + 1)
                ],
                "requests_by_minute": [
                    the.requests_by_minute[m]
                    for m in range(max(the.requests_by_minute, default=-1) + 1)
                ],
                "by_name": {
                    name: figures(entry) for (name, _method), entry in sorted(stats.entries.items())
                },
            }
        )
        if not the.over.is_set():
            summary["anomalies"].append("the night did not end within --night-timeout")
    Path(options.summary).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
