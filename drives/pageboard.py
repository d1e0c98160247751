"""The phones' pages' poll keys, kept in the serving process's memory, so that a phone's poll
that finds nothing new is answered before Django (config/pollgate.py) with no query.

The board holds, for a table's or couple's card token, the poll key Django itself computed
the last time it answered that page (``scoring.pages.conditional.phone_key``: the drive, its
``structure``, the language, the card and the latest ``ResultVersion`` it shows). It never
works out a key of its own: it only **forgets**. Every change that alters what a phone's page
shows already goes through one of two places, in the transaction that writes it, and each
makes the board forget, once that transaction has committed:

- ``drives.services.drive_changed`` not for a table's result only (the structure moves: an
  advance, the seating, couples, withdrawals, the settings, the close): every key of the drive;
- a ``Result`` or ``ResultVersion`` stored (``scoring.apps``): the keys of its table and of its
  two couples;
- a drive, table or couple deleted or saved (``scoring.apps``): its keys.

What is forgotten goes to Django, which reads the key again and teaches it back. A key learned
from a read that began before a forgetting is refused (``epoch``): a read of the old versions
cannot come back after the change that made it old. So the board may know less than the
database, never something older than it: a change reaches the next poll of every phone it
concerns; a closed drive, a deleted card, a restart (an empty board) all go to Django.

One process only. Another process writing the same database (``fortyfives manage drive …``
while the hall serves) cannot reach this memory: its commits add a byte to the file named by
the setting ``PAGE_BOARD_SIGNAL`` (the hall's data folder), and the serving process forgets
everything when that file's time or size changes (``outside_changes``). The production stack
(several workers and machines) does not turn the board on: there, Django answers every poll as
before.
"""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError, transaction

from drives import pagehub

Card = tuple[str, int]  # ("table" | "couple", its primary key)
Entry = tuple[str, str]  # ("table" | "couple", the card's token)


class Board:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        # Raised by every forgetting: a key read before it is refused.
        self.epoch = 0
        self.keys: dict[Entry, str] = {}
        self.by_drive: dict[int, set[Entry]] = {}
        self.by_card: dict[Card, set[Entry]] = {}
        # Only the serving process with the gate in front of Django learns (config/pollgate.py).
        self.serving = False
        self.signal_seen: tuple[int, int] | None = None

    def key(self, page: str, token: str) -> str | None:
        return self.keys.get((page, token))

    def learn(self, page: str, token: str, key: str, drive_id: int, pk: int, since: int) -> None:
        """``key``, read by Django for the ``page`` of ``token`` (card ``pk`` of drive
        ``drive_id``) by a read that began at epoch ``since``."""
        if not self.serving:
            return
        entry = (page, token)
        with self.lock:
            if since != self.epoch:
                return
            self.keys[entry] = key
            self.by_drive.setdefault(drive_id, set()).add(entry)
            self.by_card.setdefault((page, pk), set()).add(entry)

    def forget_drive(self, drive_id: int) -> None:
        with self.lock:
            self.epoch += 1
            for entry in self.by_drive.pop(drive_id, ()):
                self.keys.pop(entry, None)

    def forget_cards(self, cards: list[Card]) -> None:
        with self.lock:
            self.epoch += 1
            for card in cards:
                for entry in self.by_card.pop(card, ()):
                    self.keys.pop(entry, None)

    def forget_all(self) -> None:
        with self.lock:
            self.epoch += 1
            self.keys.clear()
            self.by_drive.clear()
            self.by_card.clear()

    def outside_changes(self) -> None:
        """Forget everything if another process has written since the last look (the time of
        ``PAGE_BOARD_SIGNAL``)."""
        signal = settings.PAGE_BOARD_SIGNAL
        try:
            found = os.stat(signal) if signal else None
        except OSError:
            found = None
        # The size too: it grows at every write, where a coarse clock may leave the time.
        seen = (found.st_mtime_ns, found.st_size) if found else None
        if seen != self.signal_seen:
            self.forget_all()
            self.signal_seen = seen


BOARD = Board()


def _outside() -> None:
    """In a process that does not serve: tell the serving one (see the module's docstring)."""
    signal = settings.PAGE_BOARD_SIGNAL
    if signal and not BOARD.serving:
        with contextlib.suppress(OSError), Path(signal).open("ab") as mark:
            mark.write(b".")


def wanted() -> bool:
    """Whether a change must be told: a board serves in this process, or one may serve in
    another (the hall's settings name the signal file), or pages hear of changes
    (drives/pagehub.py). Elsewhere (the tests of other rooms) a write registers nothing after
    its commit."""
    return BOARD.serving or bool(settings.PAGE_BOARD_SIGNAL) or bool(settings.PAGE_EVENTS)


def _card_topics(cards: list[Card], drive_id: int | None) -> list[str]:
    topics = [f"{page}:{pk}" for page, pk in cards]
    if drive_id is not None:
        topics.append(pagehub.results_topic(drive_id))
    return topics


def _pages_listening() -> bool:
    """Whether a page may hear of a change published from this process (the hall's streams
    are served by this process; the production stack's by any)."""
    found = pagehub.hub()
    return found is not None and (found.loop is not None or settings.PAGE_EVENTS == "redis")


def drive_forget(drive_id: int) -> None:
    """Once the current transaction commits: the drive's keys are forgotten, and its pages
    told."""
    if not wanted():
        return

    def forget() -> None:
        BOARD.forget_drive(drive_id)
        _outside()
        pagehub.publish([pagehub.drive_topic(drive_id)])

    transaction.on_commit(forget)


def cards_forget(cards: list[Card], drive_id: int | None = None) -> None:
    """Once the current transaction commits: these cards' keys are forgotten, and their pages
    told (with the drive's desk and projector when ``drive_id`` is given: a result)."""
    if not wanted():
        return

    def forget() -> None:
        BOARD.forget_cards(cards)
        _outside()
        pagehub.publish(_card_topics(cards, drive_id))

    transaction.on_commit(forget)


def seat_forget(**lookup: object) -> None:
    """Once the current transaction commits: the keys of the table and couples of the seat
    ``lookup`` finds (``pk=``, ``result__pk=``), a row the writer did not read (read then,
    after the commit, outside the writer's transaction)."""
    if not wanted():
        return
    from drives.models import Seat

    def forget() -> None:
        _outside()
        listening = _pages_listening()
        if not BOARD.serving and not listening:
            return  # nothing learned here and no page to tell: no read needed
        try:
            found = list(
                Seat.objects.filter(**lookup).values_list(
                    "table_id", "table__drive_id", "stays_id", "arrives_id"
                )
            )
        except DatabaseError:
            BOARD.forget_all()  # which cards, unknown: none is trusted
            pagehub.publish([pagehub.EVERYTHING])
            return
        for table, drive_id, *couples in found:
            cards: list[Card] = [("table", table)]
            cards += [("couple", pk) for pk in couples if pk]
            BOARD.forget_cards(cards)
            if listening:
                pagehub.publish(_card_topics(cards, drive_id))

    transaction.on_commit(forget)
