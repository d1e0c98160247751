"""The production stack tells the pages of a change as the hall does (drives/pagehub.py): a
result PUT to gunicorn's web processes is published on Redis once committed, and the events
process (granian on config/asgi.py) tells the table's page on its stream; the page's stream
opens again after the events process crashed and restarted. On the SQLite stack (no Redis)
the pages name no stream: they poll."""

from __future__ import annotations

import html
import http.client
import json
import queue
import re
import threading
import time
import urllib.request
from urllib.parse import urlsplit

import pytest

from tools.night import set_up_night
from tools.stack import Stack

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def page(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as response:
        return str(response.read().decode())


class Stream:
    """A page's stream as the browser holds it: the lines it sends, read on a thread."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
        self.connection.request("GET", parts.path, headers={"Accept": "text/event-stream"})
        self.response = self.connection.getresponse()
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self) -> None:
        try:
            for raw in self.response:
                self.lines.put(raw.decode().rstrip("\n"))
        except (OSError, AttributeError, ValueError):  # closed while it read: the test is done
            pass

    def wait_for(self, needle: str, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        seen: list[str] = []
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                continue
            seen.append(line)
            if needle in line:
                return
        raise AssertionError(f"{needle!r} never came on the stream: {seen}")

    def close(self) -> None:
        self.connection.close()


def put_result(stack: Stack, slug: str, game: int, table: int, token: str, winner: int) -> int:
    request = urllib.request.Request(
        f"{stack.url}/api/v1/drives/{slug}/games/{game}/tables/{table}/result",
        data=json.dumps({"winner": winner, "key": f"stack-{table}-{winner}"}).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="PUT",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return int(response.status)


def test_a_result_reaches_the_tables_page_through_redis(stack: Stack) -> None:
    night = set_up_night(stack, tables=4, games=3, name="Events night")
    token = night.table_tokens[1]
    shown = page(f"{stack.url}/t/{token}/")
    found = re.search(r'data-events-url="([^"]+)"', shown)
    if not stack.events_on:
        assert found is None, "a stack without Redis named a stream"
        return
    assert found is not None, "the table's page names no stream"
    url = html.unescape(found.group(1))
    assert url.startswith(f"http://{stack.config.host}:{stack.events_port}/events/")
    stream = Stream(url)
    try:
        assert stream.response.status == 200
        stream.wait_for("event: ready")
        time.sleep(0.5)  # the events process's listener has subscribed
        seat = next(row for row in night.first_game["tables"] if row["table"] == 1)
        assert put_result(stack, night.slug, 1, 1, token, seat["stays"]) == 201
        stream.wait_for("event: changed")
    finally:
        stream.close()

    # The events process crashes and comes back: the page's stream opens again.
    stack.kill_events()
    with pytest.raises(OSError):
        Stream(url)
    stack.start_events()
    deadline = time.monotonic() + 30
    while True:
        try:
            again = Stream(url)
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    try:
        again.wait_for("event: ready")
    finally:
        again.close()
