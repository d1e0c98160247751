"""A live region as static/js/poll.js keeps it, for the load figures (tools/locustfile.py):
when it asks for itself next, and what its event stream (config/events.py) says.

Nothing here reads a socket or a clock: the locustfile's users feed it the stream's lines and
the moments, and fetch the region's fragment when :attr:`Region.due` has come.

- :class:`EventReader` reads a Server-Sent Events stream line by line, as a browser's
  EventSource does (``event:``, ``data:``, ``retry:``, comments, a blank line ending an event).
- :class:`Region` is a region's timer. Without a stream (a page without ``data-events-url``,
  or ``--no-push``) it asks every ``data-poll-every`` seconds. While its stream is open it asks
  only when told of a change (at once, but never within ``data-poll-every`` of its last ask;
  after a moment drawn within its period for a phone's page on a change of the whole night),
  when the stream opens again after a break (after a moment within its period: to catch up)
  and once every ``SAFETY_POLL`` seconds; a stream broken, it polls again every
  ``data-poll-every`` seconds meanwhile.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

# As static/js/poll.js: the safety poll while a stream is open (seconds); a stream silent this
# long is given up and opened again.
SAFETY_POLL = 120.0
STREAM_SILENT = 65.0
# What config/events.py says at first (``retry: 3000``): the browser opens a broken stream
# again after this many seconds.
RETRY = 3.0


@dataclass
class Event:
    """One event of the stream: its kind (``message`` when it names none) and its data."""

    kind: str
    data: str


@dataclass
class EventReader:
    """A stream's lines in, its events out, as EventSource reads them."""

    retry: float = RETRY
    kind: str = ""
    data: list[str] = field(default_factory=list)

    def feed(self, line: str) -> Event | None:
        """Read one line (its end of line kept or not); the event it ends, if it ends one."""
        line = line.rstrip("\n").rstrip("\r")
        if not line:
            if not self.data:  # nothing to tell: EventSource dispatches nothing
                self.kind = ""
                return None
            event = Event(self.kind or "message", "\n".join(self.data))
            self.kind, self.data = "", []
            return event
        if line.startswith(":"):  # a comment: keeps the connection alive, tells nothing
            return None
        name, _colon, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "event":
            self.kind = value
        elif name == "data":
            self.data.append(value)
        elif name == "retry" and value.isdigit():
            self.retry = int(value) / 1000
        return None


def drive_wide(topics: str) -> bool:
    """A change of the whole night (every page hears of it at once): among its topics, the
    drive's structure (``drive:<id>``) or everything (``*``); an advance tells a phone of its
    table's or couple's own change in the same event."""
    return any(topic == "*" or topic.startswith("drive:") for topic in topics.split(" "))


@dataclass
class Region:
    """A live region's timer, as poll.js keeps it (see the module's docstring). ``reason``
    says why it asks next: ``poll`` (its period), ``safety`` (the minute's safety poll),
    ``changed``, ``reopened`` (the stream open again), ``again`` (told while it was asking)."""

    every: float
    spread: bool = False
    due: float = 0.0
    reason: str = "poll"
    live: bool = False
    opened: int = 0
    asking: bool = False
    again: bool = False
    # When it last asked (the page's clock): told of a change, it waits one period after it.
    last: float = float("-inf")
    draw: Callable[[], float] = random.random

    def start(self, now: float) -> None:
        """The page has just loaded: its first poll after its period."""
        self.schedule(now + self.every, "poll")

    def schedule(self, when: float, reason: str) -> None:
        self.due, self.reason = when, reason

    def ready(self, now: float) -> None:
        """The stream is open (``event: ready``): the first time the page is new and waits
        for the safety poll; after a break, it catches up."""
        self.live = True
        self.opened += 1
        if self.opened > 1:
            self.schedule(now + self.draw() * self.every, "reopened")
        else:
            self.schedule(now + SAFETY_POLL, "safety")

    def changed(self, topics: str, now: float) -> None:
        """Told of a change (``event: changed``, its topics)."""
        if self.asking:
            self.again = True
            return
        wait = self.draw() * self.every if self.spread and drive_wide(topics) else 0.0
        self.schedule(max(now + wait, self.last + self.every), "changed")

    def broken(self, now: float) -> None:
        """The stream broke, or was refused, or fell silent: polling meanwhile."""
        was, self.live = self.live, False
        if was:
            self.schedule(now + self.every, "poll")

    def asked(self, now: float) -> str:
        """The region asks for itself now: why."""
        self.asking, self.again, self.last = True, False, now
        return self.reason

    def answered(self, now: float) -> None:
        """Its answer came (200, 304 or an error): when it asks next."""
        self.asking = False
        if self.again:
            self.again = False
            self.schedule(max(now, self.last + self.every), "again")
        elif self.live:
            self.schedule(now + SAFETY_POLL, "safety")
        else:
            self.schedule(now + self.every, "poll")
