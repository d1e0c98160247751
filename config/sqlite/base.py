"""The embedded default's database backend: Django's SQLite backend, with writers that queue.

SQLite lets one writer at a time hold a database file. With IMMEDIATE transactions (settings:
config/settings/env.py) a writer takes that lock at BEGIN, and a second writer waits in
SQLite's busy handler, which sleeps 1, 2, 5, 10 … up to 100 ms between tries and is never
woken: when the night's phones all report at once, the web server's workers spent half their
time asleep there while the file was free (BENCHMARKS.md, Load).

This backend makes each such writer first take an exclusive ``flock`` on a lock file beside
the database (``<name>-writers.lock``), held until its transaction commits or rolls back. A
waiting writer tries again every 50 µs at first, then at most every half millisecond, so the
file is handed on within a fraction of a transaction's time; after the connection's
``timeout`` (20 s) it gives up with SQLite's own "database is locked". A process that dies
lets go of its ``flock`` with it. The busy handler still covers writes that take no ``flock``
(a statement outside a transaction, another program). Readers never take it.

Only IMMEDIATE transactions queue here (the default); with ``transaction_mode`` DEFERRED, as a
test's control run sets, the backend is Django's own.
"""

from __future__ import annotations

import fcntl
import os
import time
from typing import Any

from django.db import OperationalError
from django.db.backends.sqlite3 import base

FIRST_WAIT = 0.00005
LONGEST_WAIT = 0.0005


class DatabaseWrapper(base.DatabaseWrapper):
    _writers_fd: int | None = None
    _writing = False

    def _writers_lock_path(self) -> str | None:
        name = str(self.settings_dict["NAME"])
        if self.is_in_memory_db() or not name:
            return None
        return f"{name}-writers.lock"

    def _take_writers_lock(self) -> None:
        if self.transaction_mode != "IMMEDIATE" or self._writing:
            return
        if self._writers_fd is None:  # opened once per connection, kept until it closes
            path = self._writers_lock_path()
            if path is None:
                return
            self._writers_fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        patience = float(self.settings_dict["OPTIONS"].get("timeout", 5))
        deadline = time.monotonic() + patience
        wait = FIRST_WAIT
        while True:
            try:
                fcntl.flock(self._writers_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise OperationalError("database is locked") from None
                time.sleep(wait)
                wait = min(wait * 2, LONGEST_WAIT)
        self._writing = True

    def _let_go_of_writers_lock(self) -> None:
        if self._writing and self._writers_fd is not None:
            fcntl.flock(self._writers_fd, fcntl.LOCK_UN)
        self._writing = False

    def _start_transaction_under_autocommit(self) -> None:
        self._take_writers_lock()
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._let_go_of_writers_lock()
            raise

    def _commit(self) -> Any:
        try:
            return super()._commit()
        finally:
            self._let_go_of_writers_lock()

    def _rollback(self) -> Any:
        try:
            return super()._rollback()
        finally:
            self._let_go_of_writers_lock()

    def _close(self) -> Any:
        try:
            return super()._close()
        finally:
            self._let_go_of_writers_lock()
            if self._writers_fd is not None:
                os.close(self._writers_fd)
                self._writers_fd = None
