"""The embedded default's SQLite options (config/settings/env.py) as writers feel them: Django's
own backend with IMMEDIATE transactions, so that two workers writing to the one file take
turns instead of the second failing with "database is locked" when it starts to write.

WAL, synchronous and the busy timeout are read back from SQLite in tests/config/test_settings.py.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import OperationalError
from django.db.utils import ConnectionHandler
from pytest_django import DjangoDbBlocker

from config.settings.env import database_settings, read

BASE_DIR = Path(settings.BASE_DIR)


@pytest.fixture
def handlers(tmp_path: Path, django_db_blocker: DjangoDbBlocker) -> Iterator[Any]:
    """Connections of their own to a file of their own, as each gunicorn worker has."""
    made: list[ConnectionHandler] = []

    def connect(**options: Any) -> Any:
        config = {**database_settings(read({}), BASE_DIR), "NAME": str(tmp_path / "hall.sqlite3")}
        config["OPTIONS"] = {**config["OPTIONS"], **options}
        handler = ConnectionHandler({"default": config})
        made.append(handler)
        return handler["default"]

    with django_db_blocker.unblock():
        first = connect()
        with first.cursor() as cursor:
            cursor.execute("CREATE TABLE IF NOT EXISTS night (n INTEGER)")
        yield connect
        for handler in made:
            handler.close_all()


def begin(connection: Any) -> None:
    connection.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)


def end(connection: Any, how: str) -> None:
    getattr(connection, how)()
    connection.set_autocommit(True)


def count(connection: Any) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM night")
        return int(cursor.fetchone()[0])


def test_two_writers_that_read_first_take_turns_and_both_succeed(handlers: Any) -> None:
    """Each writer reads, then writes (as a result's submission does). The second waits at
    BEGIN for the first to commit, then reads what the first wrote; with DEFERRED transactions
    it would read the old state and fail with "database is locked" when it came to write."""
    log: list[str] = []
    seen: dict[str, int] = {}
    failures: list[BaseException] = []
    inside, release = threading.Event(), threading.Event()

    def writer(name: str, hold: bool) -> None:
        connection = handlers()  # in this thread: a connection of its own, as a worker has
        try:
            begin(connection)
            log.append(f"{name} in")
            seen[name] = count(connection)
            if hold:
                inside.set()
                release.wait(5)
            with connection.cursor() as cursor:
                cursor.execute("INSERT INTO night VALUES (1)")
            log.append(f"{name} out")
            end(connection, "commit")
        except BaseException as error:  # reported by the test below, not lost in the thread
            failures.append(error)
            inside.set()
        finally:
            connection.close()

    holder = threading.Thread(target=writer, args=("first", True))
    holder.start()
    assert inside.wait(5)
    waiter = threading.Thread(target=writer, args=("second", False))
    waiter.start()
    waiter.join(0.3)
    release.set()
    holder.join(10)
    waiter.join(10)
    assert failures == []
    assert log == ["first in", "first out", "second in", "second out"]
    assert seen == {"first": 0, "second": 1}
    assert count(handlers()) == 2


def test_a_writer_that_waits_too_long_is_told_the_database_is_locked(handlers: Any) -> None:
    first, second = handlers(), handlers(timeout=0.2)
    begin(first)
    with pytest.raises(OperationalError, match="database is locked"):
        begin(second)  # IMMEDIATE: the write lock is asked for at BEGIN
    end(first, "rollback")
    begin(second)
    end(second, "rollback")


def test_deferred_transactions_take_no_lock_at_begin(handlers: Any) -> None:
    """The race tests' control run opens its connections with DEFERRED transactions."""
    first = handlers(transaction_mode="DEFERRED")
    second = handlers(transaction_mode="DEFERRED", timeout=0.2)
    begin(first)
    begin(second)  # both in: neither has written yet
    end(first, "rollback")
    end(second, "rollback")
