"""The pages' event streams: ``GET /events/<ticket>/`` holds the connection open and sends a
Server-Sent Event each time a change the page listens to commits (drives/pagehub.py), a
comment line every ``HEARTBEAT`` seconds otherwise. A plain ASGI layer in front of the site's
application (config/asgi.py): a stream never enters Django, and an idle page costs only its
keep-alive lines.

What a stream sends:

- at once, ``retry: 3000`` (the browser opens it again 3 s after it breaks) and
  ``event: ready``: the page asks for itself then, to catch up with what happened while it
  had no stream (static/js/poll.js);
- ``event: changed`` with the topics told since the last one (several changes made while one
  was being sent go in one event);
- ``event: ping`` every ``HEARTBEAT`` seconds: the page knows its stream is alive (one silent
  for about three of them is given up and opened again), and the hall's Wi-Fi keeps it.

A stream ends when the server stops (drives/pagehub.py, ``PAGE_EVENTS_STOP``): the browser
opens it again ``RETRY_MS`` later, on the server started again; one asked for while the
server stops ends at once, with nothing but that delay.

Answers that are not a stream: 204 where the server tells no page of changes (``PAGE_EVENTS``
off: the page polls; a browser does not open a stream again after a 204), 404 for a ticket
Django did not sign, 405 for another method than GET or HEAD.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

from drives import pagehub

ASGIApp = Callable[[dict[str, Any], Any, Any], Awaitable[None]]

PREFIX = "/events/"
HEARTBEAT = 20.0
RETRY_MS = 3000
PING = b"event: ping\ndata: \n\n"
GATHER = 0.02

STREAM_HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-store"),
    # A proxy in front (nginx) passes each event on at once.
    (b"x-accel-buffering", b"no"),
    # The production stack may serve the streams from another address than the pages': the
    # ticket is the stream's only credential, no cookie is sent.
    (b"access-control-allow-origin", b"*"),
    (b"x-content-type-options", b"nosniff"),
]


async def plain(send: Any, status: int, text: str, *extra: tuple[bytes, bytes]) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"cache-control", b"no-store"),
                (b"access-control-allow-origin", b"*"),
                *extra,
            ],
        }
    )
    await send({"type": "http.response.body", "body": text.encode()})


async def stream(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """``GET /events/<ticket>/`` (see the module's docstring)."""
    if scope.get("method") not in ("GET", "HEAD"):
        await plain(send, 405, "Only GET opens a stream.\n", (b"allow", b"GET, HEAD"))
        return
    ticket = scope["path"][len(PREFIX) :].strip("/")
    topics = pagehub.topics_of(ticket) if ticket and "/" not in ticket else None
    if topics is None:
        await plain(send, 404, "No such stream: open the page again.\n")
        return
    hub = pagehub.hub()
    if hub is None:
        await plain(send, 204, "")
        return
    await send({"type": "http.response.start", "status": 200, "headers": STREAM_HEADERS})
    if scope.get("method") == "HEAD":
        await send({"type": "http.response.body", "body": b""})
        return
    if hub.stopping:
        # Not refused (a browser would not open it again): ended, to be opened again later.
        await send({"type": "http.response.body", "body": f"retry: {RETRY_MS}\n\n".encode()})
        return
    listener = hub.listen(topics)

    async def until_gone() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
        listener.closed = True
        listener.wake.set()

    gone = asyncio.ensure_future(until_gone())
    try:
        first = f"retry: {RETRY_MS}\nevent: ready\ndata: \n\n".encode()
        await send({"type": "http.response.body", "body": first, "more_body": True})
        while True:
            try:
                await asyncio.wait_for(listener.wake.wait(), HEARTBEAT)
            except TimeoutError:
                await send({"type": "http.response.body", "body": PING, "more_body": True})
                continue
            if listener.gone():
                break
            # One commit tells its topics in a few deliveries a millisecond or so apart (an
            # advance: the drive saved, its version moved): one event for them all.
            await asyncio.sleep(GATHER)
            if listener.gone():
                break
            told = " ".join(listener.take())
            event = f"event: changed\ndata: {told}\n\n".encode()
            await send({"type": "http.response.body", "body": event, "more_body": True})
        # Gone (nobody reads it) or the server stopping: the answer ends.
        await send({"type": "http.response.body", "body": b""})
    except Exception:  # the phone went away while we wrote: nothing to say
        pass
    finally:
        hub.leave(listener)
        gone.cancel()
        with contextlib.suppress(BaseException):
            await gone


def page_events(app: ASGIApp) -> ASGIApp:
    """``app`` with the pages' streams in front of it."""

    async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].startswith(PREFIX):
            await stream(scope, receive, send)
            return
        await app(scope, receive, send)

    return application
