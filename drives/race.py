"""Two test-only knobs that prove the services' locking matters (tests/integration/test_race.py,
test_race_drive_create.py).

* ``settings.RACE_WINDOW_SECONDS`` (default ``{}``): ``pause(point)`` sleeps that long at the
  named point, between a service reading the state and writing what follows from it, to widen
  the window in which a second writer could slip in. Points: ``"result.read"`` (a result's
  recording, after looking up the table's result), ``"advance.checked"`` (the advance, after
  checking every table has its result, before creating the next game), ``"slug.checked"``
  (a drive's creation, after finding its slug free, before inserting it) and
  ``"couples.checked"`` (a couples CSV import, after looking for couples already registered).
* ``settings.SERVICES_LOCKING`` (default ``True``): ``False`` makes ``drives.guards.lock_drive``
  read the drive row without SELECT … FOR UPDATE, and a drive's creation give up (the
  database's error) when another writer took its slug first instead of trying the next one.
  On SQLite the lock is the IMMEDIATE transaction itself (config/settings/env.py), a
  connection option: a test turning the locking off also opens its connections with DEFERRED
  transactions.

Neither is ever set outside tests (the production settings are checked for it). Unset, a
service pays one settings lookup per point and nothing is recorded.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from django.conf import settings


@dataclass
class Window:
    """What happened at one point while its window was open."""

    visits: int = 0
    inside: int = 0
    most_at_once: int = 0


_guard = threading.Lock()
_windows: dict[str, Window] = {}


def locking() -> bool:
    """Whether services lock the drive row and retry a slug another writer took (always,
    except in a test's control run)."""
    return bool(getattr(settings, "SERVICES_LOCKING", True))


def pause(point: str) -> None:
    """Sleep for the window configured for ``point``, counting who is inside it at once."""
    seconds = getattr(settings, "RACE_WINDOW_SECONDS", None)
    seconds = seconds.get(point, 0) if seconds else 0
    if not seconds:
        return
    with _guard:
        window = _windows.setdefault(point, Window())
        window.visits += 1
        window.inside += 1
        window.most_at_once = max(window.most_at_once, window.inside)
    try:
        time.sleep(seconds)
    finally:
        with _guard:
            window.inside -= 1


def seen(point: str) -> Window:
    """A copy of what happened at ``point`` since the last :func:`reset`."""
    with _guard:
        window = _windows.get(point, Window())
        return Window(window.visits, window.inside, window.most_at_once)


def reset() -> None:
    with _guard:
        _windows.clear()
