"""The live pages told of a change by the hall's real server (``fortyfives hall``: granian,
config/asgi.py), walked as their users walk them: a table's phone, a couple's phone, the desk
(an organizer) and the projector hold their event stream (config/events.py) and ask for their
fragment only when told of a change (static/js/poll.js).

- A result a table's phone sends reaches that table's page, its couple's page, the desk's grid
  and the projector by push: before it, no page asked for its fragment (only the stream was
  open), and each asked once told; another table's phone heard nothing and asked nothing.
- The next game, started by another process (``fortyfives manage drive simulate``: the data
  folder's signal file) and by the organizer's button on the desk, reaches every open page.
- The server stopped with the pages open (it stops at once: their streams end), a change
  written meanwhile, the server started again on the same port: every page said it was
  offline, then shows the change by itself, without a reload.
- The desk's scorer typing an entry when another table's result arrives: the grid waits while
  the keys go, the line typed and its focus stay, and the grid catches up once the typing
  stops (the entry line is above the grid, not in it: its focus alone does not hold the grid).

Django's live server (the other browser tests) serves WSGI with the streams off: push is
tested only here, against the hall's own server on a data folder of its own. How each page
learned of a change is read from the page itself: a script put in before the page's own
records each event of its stream and each fetch, with its time.
"""

from __future__ import annotations

import json
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Request, expect

from tests.browser.conftest import ContextFactory, contexts_on
from tests.browser.helpers import login, screenshot
from tests.fortyfives.conftest import command_environ, fortyfives

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.any_database]

ORGANIZER, PASSWORD = "mary", "hall-night-45s"
GAMES = 5
COUPLES = "player1,player2\n" + "".join(f"Player {2 * n},Player {2 * n + 1}\n" for n in range(8))
CREATE = (
    "drive", "create", "--club", "St. Mary's Parish Hall", "--name", "Friday 45s",
    "--date", "2026-12-04", "--couples", "couples.csv", "--games", str(GAMES),
)  # fmt: skip
SEED = "1945"
# How long a page may take to show what it was told (a wait, not a measure: the machine is
# shared; how long it took is printed with -s).
SHOWN_MS = 15_000
OFFLINE = "No connection — retrying…"

# Put in each page before its own scripts: every event of its stream and every fetch, with
# its time (milliseconds since 1970, as now_ms()), in window.__live. poll.js's listeners come
# after these.
RECORDER = """
(() => {
  const log = window.__live = [];
  const now = () => performance.timeOrigin + performance.now();
  const Source = window.EventSource;
  if (Source) {
    window.EventSource = class extends Source {
      constructor(url, init) {
        super(url, init);
        for (const what of ["open", "ready", "changed", "error"]) {
          this.addEventListener(what, (event) => log.push(
            { what, data: String(event.data || ""), at: now(), state: this.readyState }));
        }
      }
    };
  }
  const fetched = window.fetch;
  window.fetch = function (input) {
    log.push({ what: "fetch", url: String(input), at: now() });
    return fetched.apply(this, arguments);
  };
})();
"""


def free_port() -> int:
    """A free port of 8400-8999, drawn at random (other servers share the machine)."""
    for _ in range(200):
        port = random.randint(8400, 8999)
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise AssertionError("no free port in 8400-8999")


@dataclass
class Hall:
    """The hall's server on a data folder of its own, with a drive of 8 couples (4 tables)."""

    data_dir: Path
    work: Path
    slug: str
    tables: dict[int, str]
    couples: dict[int, str]
    port: int = 0
    server: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def manage(self, *args: str, **env: str) -> str:
        """``fortyfives manage`` on the hall's folder, from another process."""
        done = fortyfives("manage", "--data-dir", str(self.data_dir), *args, cwd=self.work, env=env)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    def start(self) -> float:
        """``fortyfives hall`` (on the same port when started again), once ``/livez`` answers;
        how long that took, in seconds."""
        self.port = self.port or free_port()
        begun = time.monotonic()
        output = (self.work / "hall.log").open("ab")
        self.server = subprocess.Popen(
            [
                *(sys.executable, "-m", "fortyfives", "hall", "--data-dir", str(self.data_dir)),
                *("--address", "127.0.0.1", "--port", str(self.port), "--no-browser"),
            ],
            cwd=self.work,
            env=command_environ(),
            stdout=output,
            stderr=subprocess.STDOUT,
        )
        output.close()
        deadline = begun + 120
        while True:
            if self.server.poll() is not None:
                raise AssertionError((self.work / "hall.log").read_text())
            try:
                with urllib.request.urlopen(f"{self.base}/livez", timeout=2):
                    return time.monotonic() - begun
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise AssertionError("the hall's server did not answer") from None
                time.sleep(0.2)

    def stop(self) -> float:
        """SIGTERM, and wait for the server to end; how long it took, in seconds."""
        server, self.server = self.server, None
        if server is None or server.poll() is not None:
            return 0.0
        begun = time.monotonic()
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
            raise AssertionError("the hall's server did not stop on SIGTERM") from None
        return time.monotonic() - begun

    def api(self, method: str, path: str, token: str, body: dict[str, Any]) -> Any:
        request = urllib.request.Request(
            f"{self.base}/api/v1/drives/{self.slug}/{path}",
            data=json.dumps(body).encode(),
            method=method,
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=20) as answer:
            return json.load(answer)

    def enter(self, game: int, table: int, winner: int) -> None:
        """The table's phone sends who won (the API, with the table's token)."""
        answer = self.api(
            "PUT",
            f"games/{game}/tables/{table}/result",
            self.tables[table],
            {"winner": winner, "key": str(uuid.uuid4())},
        )
        assert answer["winner"] == winner and answer["state"] == "accepted", answer

    def seating(self, game: int) -> dict[int, list[int]]:
        """The couples at each table of ``game`` (read as a table reads it)."""
        request = urllib.request.Request(
            f"{self.base}/api/v1/drives/{self.slug}/games/{game}",
            headers={"Authorization": f"Bearer {self.tables[1]}"},
        )
        with urllib.request.urlopen(request, timeout=20) as answer:
            rows = json.load(answer)["tables"]
        return {row["table"]: [row["stays"], row["arrives"]] for row in rows}


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Hall:
    """A data folder made by the commands as the organizer makes it: the drive, its first game
    played (game 2 in play, no result yet), an organizer's account, the cards' tokens."""
    root = tmp_path_factory.mktemp("page-events")
    work = root / "work"
    work.mkdir()
    (work / "couples.csv").write_text(COUPLES)
    hall = Hall(root / "hall", work, "", {}, {})
    hall.slug = hall.manage(*CREATE)
    hall.manage("drive", "simulate", hall.slug, "--seed", SEED, "--until-game", "1")
    hall.manage(
        "createsuperuser", "--noinput", "--username", ORGANIZER, "--email", "m@example.org",
        DJANGO_SUPERUSER_PASSWORD=PASSWORD,
    )  # fmt: skip
    cards = json.loads(hall.manage("drive", "tokens", hall.slug, "--json"))
    hall.tables = {t["number"]: t["token"] for t in cards["tables"]}
    hall.couples = {c["number"]: c["token"] for c in cards["couples"]}
    # The static files collected once (the longest of a first start), for every copy.
    prepared = fortyfives(
        *("hall", "--data-dir", hall.data_dir, "--prepare-only", "--no-browser"),
        *("--address", "127.0.0.1"),
        cwd=work,
    )
    assert prepared.returncode == 0, prepared.stderr
    return hall


@pytest.fixture
def hall(night: Hall, tmp_path: Path) -> Iterator[Hall]:
    """The night's hall on a copy of its folder, serving; stopped after the test."""
    data_dir = tmp_path / "hall"
    shutil.copytree(night.data_dir, data_dir, ignore=shutil.ignore_patterns("server.*"))
    work = tmp_path / "work"
    work.mkdir()
    hall = Hall(data_dir, work, night.slug, night.tables, night.couples)
    print(f"the hall's server started in {hall.start():.2f} s")
    try:
        yield hall
    finally:
        hall.stop()


@pytest.fixture
def contexts(browser: Browser, hall: Hall) -> Iterator[ContextFactory]:
    """Browser contexts on the hall's server, each page recording its stream and fetches."""
    with contexts_on(browser, hall.base) as make:

        def recorded(**options: Any) -> Any:
            context = make(**options)
            context.add_init_script(RECORDER)
            return context

        yield recorded


@dataclass
class Live:
    """One open page and its live region."""

    name: str
    page: Page
    region: str
    requests: list[tuple[float, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.page.on("request", self.heard)

    def heard(self, request: Request) -> None:
        self.requests.append((time.monotonic(), request.url))

    @property
    def poll_url(self) -> str:
        return str(self.page.get_attribute(self.region, "data-poll-url"))

    def records(self) -> list[dict[str, Any]]:
        return list(self.page.evaluate("window.__live"))

    def fetches(self, since: float = 0.0) -> list[float]:
        """When the page asked for its fragment, from ``since`` (now_ms())."""
        url = self.poll_url
        fetched = (r for r in self.records() if r["what"] == "fetch" and r["url"] == url)
        return [r["at"] for r in fetched if r["at"] >= since]

    def told(self, since: float = 0.0) -> list[dict[str, Any]]:
        """The changes its stream told it of, from ``since``."""
        return [r for r in self.records() if r["what"] == "changed" and r["at"] >= since]

    def wait_for_stream(self) -> float:
        """Until its stream has said "ready" (it opened); when it did."""
        until_recorded(self.page, lambda r: r["what"] == "ready")
        return float(next(r["at"] for r in self.records() if r["what"] == "ready"))

    def pushed(self, since: float) -> None:
        """After ``since`` its stream told it of a change and it asked for its fragment then.
        (An ask already due may come between: a result of its own table heard less than an
        interval before, or its Undo closing; test 1 shows that nothing else asks.)"""
        told = self.told(since)
        fetched = self.fetches(since)
        assert told, f"{self.name}: its stream told it of nothing"
        assert any(at >= told[0]["at"] for at in fetched), (
            f"{self.name}: it did not ask for its fragment once told of the change"
        )


def open_table(contexts: ContextFactory, hall: Hall, table: int) -> Live:
    page = contexts(phone=True).new_page()
    page.goto(f"/t/{hall.tables[table]}/")
    return Live(f"table {table}'s phone", page, "#table-live")


def open_couple(contexts: ContextFactory, hall: Hall, couple: int) -> Live:
    page = contexts(phone=True).new_page()
    page.goto(f"/c/{hall.couples[couple]}/")
    return Live(f"couple {couple}'s phone", page, "#couple-live")


def open_desk_and_projector(contexts: ContextFactory, hall: Hall) -> tuple[Live, Live]:
    """The organizer, logged in, with the desk open and the projector in another window."""
    context = contexts()
    desk = context.new_page()
    login(desk, ORGANIZER, PASSWORD, next_path=f"/drives/{hall.slug}/desk/")
    projector = context.new_page()
    projector.goto(f"/drives/{hall.slug}/projector/")
    return Live("the desk", desk, "#desk-grid"), Live("the projector", projector, "#projector-live")


def game_shown(live: Live, game: int) -> None:
    """The page shows ``game`` as the game in play, by itself."""
    shown = f"Game {game} of {GAMES}"
    expect(live.page.locator(live.region)).to_contain_text(shown, timeout=SHOWN_MS)


def until_recorded(page: Page, wanted: Callable[[dict[str, Any]], bool]) -> None:
    """Until the page's recorder holds a record ``wanted`` takes. Read from here, a look every
    50 ms: Playwright's ``wait_for_function`` compiles its predicate in the page, which the
    pages' Content-Security-Policy (no eval) refuses."""
    deadline = time.monotonic() + SHOWN_MS / 1000
    while time.monotonic() < deadline:
        if any(wanted(record) for record in page.evaluate("window.__live")):
            return
        time.sleep(0.05)
    raise AssertionError(f"never recorded: {page.evaluate('window.__live')}")


def now_ms() -> float:
    """The time as the pages record it (milliseconds since 1970)."""
    return time.time() * 1000


def took(since: float, what: str) -> None:
    print(f"{what}: {(now_ms() - since) / 1000:.2f} s")


def timings(pages: list[Live], since: float, what: str) -> None:
    """How long after ``since`` each page was told, and asked for its fragment (with -s)."""
    for live in pages:
        told = [r["at"] for r in live.told(since)]
        asked = live.fetches(since)
        print(
            f"{what}, {live.name}: told after {told[0] - since:.0f} ms, asked after "
            f"{asked[0] - since:.0f} ms"
            if told and asked
            else f"{what}, {live.name}: -"
        )


def test_a_result_reaches_its_pages_by_push_and_no_other_phone(
    hall: Hall, contexts: ContextFactory
) -> None:
    game, table, other = 2, 1, 2
    winner, loser = hall.seating(game)[table]
    first = open_table(contexts, hall, table)
    elsewhere = open_table(contexts, hall, other)
    couple = open_couple(contexts, hall, loser)
    desk, projector = open_desk_and_projector(contexts, hall)
    told = [first, couple, desk, projector]
    pages = [*told, elsewhere]
    opened = {live.name: live.wait_for_stream() for live in pages}
    expect(first.page.get_by_test_id(f"win-{winner}")).to_be_visible()
    expect(projector.page.get_by_test_id("projector-reported")).to_contain_text("0 of 4")
    screenshot(first.page, "page-events-table-before")
    # Longer than any of the pages' poll periods (3 to 6 s): polling, each would have asked.
    time.sleep(7)
    for live in pages:
        # Before its stream opened the page may have polled (it opens in a moment): not since.
        assert live.fetches(opened[live.name]) == [], (
            f"{live.name} asked for its fragment with its stream open"
        )
    sent = now_ms()
    asked_before = len(elsewhere.requests)
    hall.enter(game, table, winner)

    expect(first.page.get_by_test_id("table-result")).to_contain_text(f"Couple {winner} won")
    took(sent, "the table's page")
    expect(couple.page.locator("#couple-live .result-box")).to_contain_text(f"Couple {winner} won")
    took(sent, "the couple's page")
    row = desk.page.locator(f"#desk-grid tr[data-table='{table}']")
    expect(row).to_contain_text(f"{winner}")
    expect(desk.page.get_by_test_id("desk-summary")).to_contain_text("1 of 4 tables reported")
    took(sent, "the desk")
    expect(projector.page.get_by_test_id("projector-reported")).to_contain_text("1 of 4")
    took(sent, "the projector")
    for live in told:
        live.pushed(sent)
    timings(told, sent, "a result")
    screenshot(first.page, "page-events-table-after")
    # The other table's phone: told nothing, asked nothing (a spread of up to 2 s given).
    time.sleep(2.5)
    assert elsewhere.told() == []
    assert elsewhere.requests[asked_before:] == []
    expect(elsewhere.page.get_by_test_id("table-result")).to_have_count(0)


def test_the_next_game_reaches_every_page_from_another_process_and_from_the_desk(
    hall: Hall, contexts: ContextFactory
) -> None:
    pages = [
        open_table(contexts, hall, 1),
        open_table(contexts, hall, 3),
        open_couple(contexts, hall, 5),
    ]
    desk, projector = open_desk_and_projector(contexts, hall)
    pages += [desk, projector]
    for live in pages:
        live.wait_for_stream()
        game_shown(live, 2)
    # Another process plays game 2 and starts game 3 (the data folder's signal file).
    sent = now_ms()
    hall.manage("drive", "simulate", hall.slug, "--seed", SEED, "--until-game", "2")
    took(sent, "the command")
    done = now_ms()
    for live in pages:
        game_shown(live, 3)
        took(done, f"game 3 on {live.name} after the command")
    for live in pages:
        live.pushed(sent)
        assert [r["data"] for r in live.told(sent)][:1] == ["*"]
    # Every table of game 3 reports from its phone; the organizer starts game 4 on the desk.
    for table, couples in hall.seating(3).items():
        hall.enter(3, table, couples[0])
    start = desk.page.get_by_test_id("desk-advance")
    expect(start).to_be_enabled(timeout=SHOWN_MS)
    clicked = now_ms()
    start.click()
    for live in pages:
        game_shown(live, 4)
    for live in pages:
        if live is not desk:  # the desk asks for its grid itself after its button's answer
            live.pushed(clicked)
    button = [r["at"] for r in desk.records() if r["what"] == "fetch" and r["at"] >= clicked]
    timings(pages, button[0], "game 4 from the desk's button")


def test_pages_catch_up_by_themselves_after_the_server_restarts(
    hall: Hall, contexts: ContextFactory
) -> None:
    pages = [open_table(contexts, hall, 1), open_couple(contexts, hall, 5)]
    desk, projector = open_desk_and_projector(contexts, hall)
    pages += [desk, projector]
    for live in pages:
        live.wait_for_stream()
        game_shown(live, 2)
        # Gone after a reload: the page stayed the same page throughout.
        live.page.evaluate("window.__stayed = true")
    print(f"stopped in {hall.stop():.2f} s")
    for live in pages:
        expect(live.page.locator(f"{live.region} [data-poll-status]")).to_have_text(
            OFFLINE, timeout=SHOWN_MS
        )
    screenshot(pages[0].page, "page-events-table-offline")
    # Written while the server is down: game 2 played, game 3 started.
    hall.manage("drive", "simulate", hall.slug, "--seed", SEED, "--until-game", "2")
    for live in pages:
        expect(live.page.locator(live.region)).to_contain_text(f"Game 2 of {GAMES}")
    print(f"started again in {hall.start():.2f} s")
    back = now_ms()
    for live in pages:
        game_shown(live, 3)
        took(back, f"game 3 on {live.name} after the restart")
    for live in pages:
        status = live.page.locator(f"{live.region} [data-poll-status]")
        expect(status).to_contain_text("Updated")
        expect(status).not_to_have_class("offline")
        assert live.page.evaluate("window.__stayed") is True, f"{live.name} was reloaded"
        # It learned of it from its stream, opened again: "ready", then the fragment.
        opened = [r["at"] for r in live.records() if r["what"] == "ready"]
        assert len(opened) >= 2, f"{live.name}: its stream did not open again"
    screenshot(pages[0].page, "page-events-table-back", full_page=True)


def test_the_desk_grid_waits_while_the_scorer_types(hall: Hall, contexts: ContextFactory) -> None:
    seating = hall.seating(2)
    desk, _projector = open_desk_and_projector(contexts, hall)
    page = desk.page
    desk.wait_for_stream()
    row = page.locator("#desk-grid tr[data-table='3']")
    expect(page.get_by_test_id("desk-summary")).to_contain_text("0 of 4 tables reported")
    winner = page.locator("#desk-winner")
    page.locator("#desk-table").click()
    page.keyboard.type("1")
    page.keyboard.press("Enter")
    expect(winner).to_be_focused()
    mark = now_ms()
    hall.enter(2, 3, seating[3][0])
    until_recorded(page, lambda r: r["what"] == "changed" and r["at"] >= mark)
    # The scorer hesitates over the winner for a few seconds: a key every 0.4 s.
    typed = str(seating[1][0])
    for _ in range(8):
        page.keyboard.type(typed[0])
        time.sleep(0.2)
        page.keyboard.press("Backspace")
        time.sleep(0.2)
    assert desk.fetches(mark) == [], "the grid was asked for while the scorer typed"
    assert "0 of 4 tables reported" in page.get_by_test_id("desk-summary").inner_text()
    page.keyboard.type(typed)
    # The keys stop: the grid catches up; the line typed and its focus stay.
    expect(page.get_by_test_id("desk-summary")).to_contain_text(
        "1 of 4 tables reported", timeout=SHOWN_MS
    )
    expect(row).to_contain_text(str(seating[3][0]))
    expect(winner).to_have_value(typed)
    expect(winner).to_be_focused()
    expect(page.locator("#desk-table")).to_have_value("1")
    # Enter: the scorer's own line goes in too.
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("desk-summary")).to_contain_text("2 of 4 tables reported")
    expect(page.locator("#desk-table")).to_be_focused()
