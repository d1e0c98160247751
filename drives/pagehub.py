"""Pages told of a change the moment it commits: the topics a change concerns, published to
the pages' event streams (Server-Sent Events, config/events.py), so that a page with nothing
new costs the server nothing but a keep-alive line now and then.

A page's stream listens to **topics**, named in a signed ticket Django writes into the page
(``events_url``): a table's page ``drive:<id>`` and ``table:<pk>``; a couple's page
``drive:<id>`` and ``couple:<pk>``; the desk's grid and the projector ``drive:<id>`` and
``results:<drive id>``. What is published mirrors what drives/pageboard.py forgets, at the
same moments (once the writing transaction has committed): a change of the drive's structure
(an advance, the seating, couples, withdrawals, the settings, the close) ``drive:<id>``; a
result stored, its table, its two couples and ``results:<drive id>``; ``*`` everything (another
process wrote and what is unknown). A page told of a topic asks for itself again with its last
ETag (static/js/poll.js): the usual conditional GET, so what it shows is always Django's.

Two hubs, chosen by the setting ``PAGE_EVENTS``:

- ``"local"`` (the hall's one process): the streams and the writers are in the same process;
  a commit in a request's thread hands the topics to the event loop that serves the streams.
  Another process's writes (``fortyfives manage drive …`` while the hall serves) reach it
  through the file named by ``PAGE_BOARD_SIGNAL``, looked at every second: ``*``. When the
  server is told to stop, its main process writes the file named by ``PAGE_EVENTS_STOP``
  (fortyfives/hall.py): seen within a second, every stream ends (the browser opens it again
  3 s later, on the server started again), or the server would wait for every page to close.
- ``"redis"`` (the production stack: several web processes and machines): a commit publishes
  on the Redis channel ``PAGE_EVENTS_CHANNEL`` of ``PAGE_EVENTS_REDIS_URL``; each events
  process listens to it and tells its own streams. A listener that lost Redis tells its
  streams ``*`` when it is back (it may have missed something).

``""`` (the default: tests of other rooms, a deployment that has not set it): nothing is
published and the pages poll as before. Streams that break (a phone leaving the Wi-Fi, a
server restart) are taken up again by the browser, and the page asks for itself at once when
its stream opens again: a phone catches up when it returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import threading
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core import signing

log = logging.getLogger(__name__)

SALT = "fortyfives.page-events"
EVERYTHING = "*"


def drive_topic(drive_id: int) -> str:
    return f"drive:{drive_id}"


def results_topic(drive_id: int) -> str:
    return f"results:{drive_id}"


def ticket(topics: Iterable[str]) -> str:
    """The signed ticket of a stream listening to ``topics`` (no secret in it: it says only
    which changes the page wants to hear of; the signature keeps a stream to what Django
    allowed the page). The same topics give the same ticket: a page rendered again keeps its
    stream's address."""
    return _signed(tuple(sorted(set(topics))))


@functools.lru_cache(maxsize=4096)
def _signed(topics: tuple[str, ...]) -> str:
    return signing.Signer(salt=SALT).sign_object(list(topics))


def topics_of(ticket_text: str) -> list[str] | None:
    """The topics of a ticket Django signed, or None."""
    try:
        topics = signing.Signer(salt=SALT).unsign_object(ticket_text)
    except (signing.BadSignature, ValueError):
        return None
    if not isinstance(topics, list) or not all(isinstance(t, str) for t in topics):
        return None
    return topics


def events_url(topics: Iterable[str]) -> str:
    """Where a page opens its stream, or "" where nothing is published (the page polls)."""
    if not settings.PAGE_EVENTS:
        return ""
    return f"{settings.PAGE_EVENTS_URL}{ticket(topics)}/"


class Listener:
    """One stream's side of the hub: the topics it listens to, what was told since it last
    looked, and the event that wakes it (in the hub's event loop)."""

    def __init__(self, topics: list[str]) -> None:
        self.topics = topics
        self.told: set[str] = set()
        self.wake = asyncio.Event()
        self.closed = False

    def gone(self) -> bool:
        return self.closed

    def tell(self, topic: str) -> None:
        self.told.add(topic)
        self.wake.set()

    def take(self) -> list[str]:
        told = sorted(self.told)
        self.told.clear()
        self.wake.clear()
        return told


class Hub:
    """The streams of this process, by topic; :meth:`publish` may be called from any thread,
    the rest runs in the event loop serving the streams."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.by_topic: dict[str, set[Listener]] = {}
        self.listeners: set[Listener] = set()
        self.watcher: asyncio.Task[None] | None = None
        # The server is stopping: the streams have ended, a new one ends at once.
        self.stopping = False

    # --- the streams' side (the event loop) ---

    def listen(self, topics: list[str]) -> Listener:
        self.loop = asyncio.get_running_loop()
        if self.watcher is None or self.watcher.done():
            self.watcher = self.loop.create_task(self.watch())
        listener = Listener(topics)
        self.listeners.add(listener)
        for topic in topics:
            self.by_topic.setdefault(topic, set()).add(listener)
        return listener

    def leave(self, listener: Listener) -> None:
        listener.closed = True
        self.listeners.discard(listener)
        for topic in listener.topics:
            found = self.by_topic.get(topic)
            if found is not None:
                found.discard(listener)
                if not found:
                    del self.by_topic[topic]

    def stop(self) -> None:
        """Every stream ends (the server is stopping)."""
        self.stopping = True
        for listener in self.listeners:
            listener.closed = True
            listener.wake.set()

    def deliver(self, topics: Iterable[str]) -> None:
        for topic in topics:
            if topic == EVERYTHING:
                for listener in self.listeners:
                    listener.tell(topic)
                continue
            for listener in self.by_topic.get(topic, ()):
                listener.tell(topic)

    async def watch(self) -> None:
        """What else tells this process of a change (another process's writes)."""

    # --- the writers' side (any thread) ---

    def publish(self, topics: list[str]) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return  # no stream has ever listened here
        with contextlib.suppress(RuntimeError):  # the loop is closing: no stream to tell
            loop.call_soon_threadsafe(self.deliver, topics)


class LocalHub(Hub):
    """The hall's one process (see the module's docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.signal_seen: tuple[int, int] | None = None

    def signal_state(self) -> tuple[int, int] | None:
        signal = settings.PAGE_BOARD_SIGNAL
        try:
            found = os.stat(signal) if signal else None
        except OSError:
            return None
        return (found.st_mtime_ns, found.st_size) if found else None

    def stop_asked(self) -> bool:
        stop = settings.PAGE_EVENTS_STOP
        return bool(stop) and os.path.exists(stop)

    async def watch(self) -> None:
        self.signal_seen = self.signal_state()
        while True:
            await asyncio.sleep(1.0)
            if not self.stopping and self.stop_asked():
                self.stop()
            seen = self.signal_state()
            if seen != self.signal_seen:
                self.signal_seen = seen
                self.deliver([EVERYTHING])


class RedisHub(Hub):
    """The production stack (see the module's docstring)."""

    def __init__(self, url: str, channel: str) -> None:
        super().__init__()
        self.url = url
        self.channel = channel
        self.client: Any = None
        self.client_lock = threading.Lock()

    def publish(self, topics: list[str]) -> None:
        import redis

        with self.client_lock:
            if self.client is None:
                self.client = redis.Redis.from_url(
                    self.url, socket_timeout=2, socket_connect_timeout=2
                )
            client = self.client
        try:
            client.publish(self.channel, " ".join(topics))
        except redis.RedisError as error:
            # The change is stored; the pages see it at their next safety poll (poll.js).
            log.warning("page events not published (%s): %s", " ".join(topics), error)

    async def watch(self) -> None:
        import redis.asyncio

        missed = False
        while True:
            try:
                client = redis.asyncio.Redis.from_url(self.url)
                async with client.pubsub() as pubsub:
                    await pubsub.subscribe(self.channel)
                    if missed:
                        self.deliver([EVERYTHING])
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            data = message["data"]
                            text = data.decode() if isinstance(data, bytes) else str(data)
                            self.deliver(text.split())
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis away: listen again, and say so
                log.warning("page events: Redis listener lost (%s); retrying", error)
                missed = True
                await asyncio.sleep(1.0)


_hub: Hub | None = None
_hub_lock = threading.Lock()


def hub() -> Hub | None:
    """This process's hub, as the setting ``PAGE_EVENTS`` asks, or None."""
    global _hub
    kind = settings.PAGE_EVENTS
    if not kind:
        return None
    with _hub_lock:
        wanted: type[Hub] = RedisHub if kind == "redis" else LocalHub
        if type(_hub) is not wanted:
            _hub = (
                RedisHub(settings.PAGE_EVENTS_REDIS_URL, settings.PAGE_EVENTS_CHANNEL)
                if kind == "redis"
                else LocalHub()
            )
        return _hub


def publish(topics: list[str]) -> None:
    """Tell the pages listening to ``topics`` (call it once the change has committed)."""
    found = hub()
    if found is not None and topics:
        found.publish(topics)
