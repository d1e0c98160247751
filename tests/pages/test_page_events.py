"""Pages told of a change at once (drives/pagehub.py, config/events.py): what each change
publishes, to whom, only once committed; the stream as a page's browser reads it (the first
``ready``, a ``changed`` per change it listens to and none for others, a ``ping`` when
nothing happens, gone when the phone leaves); the tickets Django signs; the production
stack's hub through a real Redis.

The ASGI application is called as the server calls it, in an event loop; the writes commit
for real (``transaction=True``)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import transaction
from django.test import Client

from config import events
from drives import pagehub
from drives.models import AuditEntry, Drive, Seat
from drives.services import Actor, couple_update
from scoring.services import result_record
from tests.pages.live_helpers import DESK, advance, night, people, play

pytestmark = pytest.mark.django_db(transaction=True)

TABLE = Actor(channel=AuditEntry.Channel.TABLE)


@pytest.fixture
def published(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[list[str]]]:
    """The hall's settings for events; every publication recorded (topics, in order)."""
    settings.PAGE_EVENTS = "local"
    told: list[list[str]] = []
    monkeypatch.setattr(pagehub, "publish", lambda topics: told.append(sorted(topics)))
    yield told


@pytest.fixture
def drive() -> Drive:
    return night(people().club, 8)


def seat(drive: Drive, table: int) -> Seat:
    return Seat.objects.get(game__drive=drive, game__number=drive.current_game, table__number=table)


def test_a_result_tells_its_table_its_couples_and_the_drives_desk(
    published: list[list[str]], drive: Drive
) -> None:
    place = seat(drive, 1)
    published.clear()
    with transaction.atomic():
        result_record(drive=drive, game=1, table=1, winner=place.stays.number, actor=DESK)
        assert published == [], "told before the result was committed"
    assert published, "a stored result told no page"
    told = set().union(*published)
    assert {
        f"table:{place.table_id}",
        f"couple:{place.stays_id}",
        f"couple:{place.arrives_id}",
        f"results:{drive.pk}",
    } <= told
    other = seat(drive, 2)
    assert f"table:{other.table_id}" not in told, "another table's phone was told"
    assert f"drive:{drive.pk}" not in told, "a result told every phone of the night"


def test_a_result_rolled_back_tells_nobody(published: list[list[str]], drive: Drive) -> None:
    published.clear()
    with contextlib.suppress(RuntimeError), transaction.atomic():
        result_record(drive=drive, game=1, table=1, winner=seat(drive, 1).stays.number, actor=DESK)
        raise RuntimeError("the desk's write failed")
    assert published == []


def test_an_advance_and_a_rename_tell_the_whole_drive(
    published: list[list[str]], drive: Drive
) -> None:
    play(drive, 1)
    published.clear()
    advance(drive, 1)
    assert [f"drive:{drive.pk}"] in published
    published.clear()
    couple = drive.couples.get(number=3)
    couple_update(couple=couple, player1="Mary MacNeil", actor=DESK)
    assert any(f"drive:{drive.pk}" in topics for topics in published)


def test_the_pages_carry_their_streams_address(settings: Any, drive: Drive) -> None:
    """Each live page names its stream, whose ticket holds exactly the topics that page
    hears of; with events off (the default), no stream: the page polls."""
    table = drive.tables.get(number=1)
    couple = drive.couples.get(number=2)
    client = Client()
    settings.PAGE_EVENTS = ""
    assert "data-events-url" not in client.get(f"/t/{table.token}/").content.decode()
    settings.PAGE_EVENTS = "local"
    for url, topics in (
        (f"/t/{table.token}/", {f"drive:{drive.pk}", f"table:{table.pk}"}),
        (f"/c/{couple.token}/", {f"drive:{drive.pk}", f"couple:{couple.pk}"}),
    ):
        page = client.get(url).content.decode()
        found = re.search(r'data-events-url="/events/([^"/]+)/"', page)
        assert found, f"{url}: no stream"
        assert set(pagehub.topics_of(found.group(1)) or ()) == topics


def test_a_ticket_is_signed() -> None:
    ticket = pagehub.ticket(["table:1", "drive:1"])
    assert pagehub.topics_of(ticket) == ["drive:1", "table:1"]
    assert pagehub.ticket(["drive:1", "table:1"]) == ticket, "a page rendered again moves"
    other = pagehub.ticket(["table:2", "drive:1"])
    forged = other.split(":")[0] + ":" + ticket.split(":")[1]  # another page's topics
    assert pagehub.topics_of(forged) is None
    assert pagehub.topics_of("WyJkcml2ZToxIl0:bad") is None


class Browser:
    """A page's stream as the browser holds it: the ASGI application called in an event loop
    on its own thread, what it sends gathered; ``leave()`` is the phone going away."""

    def __init__(self, path: str, method: str = "GET") -> None:
        self.path = path
        self.method = method
        self.sent: list[dict[str, Any]] = []
        self.loop = asyncio.new_event_loop()
        self.left = threading.Event()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        asyncio.set_event_loop(self.loop)

        async def receive() -> dict[str, Any]:
            while not self.left.is_set():
                await asyncio.sleep(0.01)
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            self.sent.append(message)

        async def inner(scope: Any, receive: Any, send: Any) -> None:
            raise AssertionError("a stream went to Django")

        scope = {"type": "http", "method": self.method, "path": self.path, "headers": []}
        app = events.page_events(inner)
        try:
            self.loop.run_until_complete(app(scope, receive, send))
        finally:
            # the hub's watcher (the signal file, Redis) lives with the loop: stopped with it
            for task in asyncio.all_tasks(self.loop):
                task.cancel()
                with contextlib.suppress(BaseException):
                    self.loop.run_until_complete(task)
            self.loop.close()
            self.done.set()

    def __enter__(self) -> Browser:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.leave()

    def leave(self) -> None:
        self.left.set()
        assert self.done.wait(5), "the stream did not end when the phone left"
        self.thread.join(5)

    @property
    def status(self) -> int:
        return int(self.sent[0]["status"]) if self.sent else 0

    def text(self) -> str:
        return "".join(m.get("body", b"").decode() for m in self.sent[1:])

    def wait_for(self, needle: str, timeout: float = 5.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if needle in self.text():
                return self.text()
            time.sleep(0.01)
        raise AssertionError(f"{needle!r} never came; got {self.text()!r}")


@pytest.fixture
def hall_hub(settings: Any) -> Iterator[pagehub.Hub]:
    settings.PAGE_EVENTS = "local"
    settings.PAGE_BOARD_SIGNAL = ""
    found = pagehub.hub()
    assert found is not None
    yield found
    found.loop = None


def test_a_stream_says_ready_then_each_change_it_listens_to(
    hall_hub: pagehub.Hub, drive: Drive
) -> None:
    place = seat(drive, 1)
    mine = pagehub.ticket([f"drive:{drive.pk}", f"table:{place.table_id}"])
    theirs = pagehub.ticket([f"drive:{drive.pk}", f"table:{seat(drive, 2).table_id}"])
    with Browser(f"/events/{mine}/") as phone, Browser(f"/events/{theirs}/") as other:
        phone.wait_for("event: ready")
        other.wait_for("event: ready")
        assert phone.status == 200
        headers = dict(phone.sent[0]["headers"])
        assert headers[b"content-type"].startswith(b"text/event-stream")
        assert "retry: 3000" in phone.text()
        # the real write path, from Django's side of the process (another thread)
        result_record(drive=drive, game=1, table=1, winner=place.stays.number, actor=DESK)
        phone.wait_for(f"event: changed\ndata: table:{place.table_id}\n\n")
        time.sleep(0.2)
        assert "changed" not in other.text(), "another table's phone was told"
        play(drive, 1)
        advance(drive, 1)
        other.wait_for(f"data: drive:{drive.pk}")
        time.sleep(0.2)
        told = re.findall(r"event: changed\ndata: ([^\n]*)\n", other.text())
        advances = [topics for topics in told if f"drive:{drive.pk}" in topics.split()]
        assert len(advances) == 1, f"one advance told in several events: {told}"
    assert not hall_hub.listeners, "a phone that left is still listened to"


def test_a_quiet_stream_pings(hall_hub: pagehub.Hub, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(events, "HEARTBEAT", 0.05)
    with Browser(f"/events/{pagehub.ticket(['drive:1'])}/") as page:
        page.wait_for("event: ping\ndata: \n\n")


def test_another_process_write_tells_every_stream(
    settings: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``fortyfives manage`` writing while the hall serves: the signal file grows, and every
    stream is told ``*`` (what changed is unknown) within about a second."""
    signal = tmp_path / "pages-changed"
    settings.PAGE_EVENTS = "local"
    settings.PAGE_BOARD_SIGNAL = str(signal)
    pagehub._hub = None
    with Browser(f"/events/{pagehub.ticket(['drive:7'])}/") as page:
        page.wait_for("event: ready")
        time.sleep(0.1)  # the watcher has looked once
        signal.write_bytes(b".")
        page.wait_for("event: changed\ndata: *\n\n", timeout=5)
    pagehub._hub = None


@pytest.mark.parametrize(
    ("path", "method", "status"),
    [
        ("/events/not-a-ticket/", "GET", 404),
        ("/events/", "GET", 404),
        (f"/events/{pagehub.__name__}/x/", "GET", 404),
        ("/events/TICKET/", "POST", 405),
    ],
)
def test_what_is_not_a_stream(settings: Any, path: str, method: str, status: int) -> None:
    settings.PAGE_EVENTS = "local"
    path = path.replace("TICKET", pagehub.ticket(["drive:1"]))
    with Browser(path, method) as answer:
        pass
    assert answer.status == status
    assert answer.text(), "refused without a word"


def test_no_events_here_says_poll(settings: Any) -> None:
    """A server that tells no changes answers 204: the browser does not open the stream again
    and the page polls."""
    settings.PAGE_EVENTS = "local"
    ticket = pagehub.ticket(["drive:1"])
    settings.PAGE_EVENTS = ""
    with Browser(f"/events/{ticket}/") as answer:
        pass
    assert answer.status == 204


@pytest.mark.redis
def test_the_production_hub_carries_a_commit_through_redis(settings: Any, drive: Drive) -> None:
    """The production stack: the web process publishes on Redis once the result commits; the
    events process (here, the stream's loop) tells its page."""
    settings.PAGE_EVENTS = "redis"
    settings.PAGE_EVENTS_REDIS_URL = os.environ["CELERY_BROKER_URL"]
    settings.PAGE_EVENTS_CHANNEL = f"fortyfives:pages:test:{drive.pk}"
    pagehub._hub = None
    place = seat(drive, 1)
    ticket = pagehub.ticket([f"table:{place.table_id}"])
    try:
        with Browser(f"/events/{ticket}/") as phone:
            phone.wait_for("event: ready")
            time.sleep(0.3)  # the listener has subscribed
            result_record(drive=drive, game=1, table=1, winner=place.stays.number, actor=DESK)
            phone.wait_for(f"data: table:{place.table_id}")
    finally:
        pagehub._hub = None


def test_a_tables_undo_ends_by_itself_on_the_page(settings: Any, drive: Drive) -> None:
    """The Undo a table's phone offers after its tap closes with time, not with a change:
    the page names that moment (data-poll-until, the moment in its ETag), so that poll.js asks
    again then though its stream says nothing."""
    settings.PAGE_EVENTS = "local"
    table = drive.tables.get(number=1)
    client = Client()
    assert "data-poll-until" not in client.get(f"/t/{table.token}/").content.decode()
    result_record(drive=drive, game=1, table=1, winner=seat(drive, 1).stays.number, actor=TABLE)
    fragment = client.get(f"/t/{table.token}/?partial=1")
    until = int(fragment["ETag"].strip('W/"').partition("~")[2])
    found = re.search(r'data-poll-until="(\d+)"', fragment.content.decode())
    assert found is not None, "the page does not say when its Undo closes"
    assert int(found.group(1)) == until
