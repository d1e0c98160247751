"""The embedded default's backend (config/sqlite/base.py): writers queue on a lock file beside
the database, one transaction at a time, and let go of it however the transaction ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import OperationalError
from django.db.utils import ConnectionHandler
from pytest_django import DjangoDbBlocker

from config.settings.env import database_settings

BASE_DIR = Path(settings.BASE_DIR)


@pytest.fixture
def handlers(tmp_path: Path, django_db_blocker: DjangoDbBlocker) -> Iterator[Any]:
    """Connections of their own to a file of their own, as each gunicorn worker has."""
    made: list[ConnectionHandler] = []

    def connect(**options: Any) -> Any:
        config = {**database_settings({}, BASE_DIR), "NAME": str(tmp_path / "hall.sqlite3")}
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


def lock_path(connection: Any) -> Path:
    return Path(f"{connection.settings_dict['NAME']}-writers.lock")


def test_a_second_writer_waits_for_the_first_to_commit(handlers: Any) -> None:
    log: list[str] = []
    inside, release = threading.Event(), threading.Event()

    def writer(name: str, hold: bool) -> None:
        connection = handlers()  # in this thread: a connection of its own, as a worker has
        begin(connection)
        log.append(f"{name} in")
        with connection.cursor() as cursor:
            cursor.execute("INSERT INTO night VALUES (1)")
        if hold:
            inside.set()
            release.wait(5)
        log.append(f"{name} out")
        end(connection, "commit")
        connection.close()

    holder = threading.Thread(target=writer, args=("first", True))
    holder.start()
    assert inside.wait(5)
    waiter = threading.Thread(target=writer, args=("second", False))
    waiter.start()
    waiter.join(0.3)
    assert waiter.is_alive(), "the second writer went in while the first held the file"
    assert log == ["first in"]
    release.set()
    holder.join(5)
    waiter.join(5)
    assert log == ["first in", "first out", "second in", "second out"]
    reader = handlers()
    with reader.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM night")
        assert cursor.fetchone()[0] == 2


def begin(connection: Any) -> None:
    connection.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)


def end(connection: Any, how: str) -> None:
    getattr(connection, how)()
    connection.set_autocommit(True)


@pytest.mark.parametrize("how", ["commit", "rollback", "close"])
def test_the_lock_is_let_go_however_the_transaction_ends(handlers: Any, how: str) -> None:
    first, second = handlers(), handlers(timeout=0.2)
    begin(first)
    with first.cursor() as cursor:
        cursor.execute("INSERT INTO night VALUES (1)")
    if how == "close":
        first.close()
    else:
        end(first, how)
    begin(second)  # would raise "database is locked" after 0.2 s if the lock were kept
    end(second, "commit")


def test_a_writer_that_waits_too_long_is_told_the_database_is_locked(handlers: Any) -> None:
    first, second = handlers(), handlers(timeout=0.2)
    begin(first)
    with pytest.raises(OperationalError, match="database is locked"):
        begin(second)
    assert not second._writing
    end(first, "rollback")
    begin(second)
    end(second, "rollback")


def test_deferred_transactions_take_no_lock(handlers: Any) -> None:
    first = handlers(transaction_mode="DEFERRED")
    second = handlers(transaction_mode="DEFERRED", timeout=0.2)
    begin(first)
    begin(second)  # both in: DEFERRED takes no lock at BEGIN (a test's control run)
    assert not first._writing and not second._writing
    end(first, "rollback")
    end(second, "rollback")


def test_a_writer_that_dies_lets_go_of_the_lock(handlers: Any, tmp_path: Path) -> None:
    connection = handlers(timeout=5)
    holder = subprocess.Popen(
        [
            sys.executable, "-c",
            "import fcntl, os, sys, time\n"
            "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)\n"
            "fcntl.flock(fd, fcntl.LOCK_EX)\n"
            "print('held', flush=True)\n"
            "time.sleep(60)\n",
            str(lock_path(connection)),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        killer = threading.Timer(0.3, lambda: os.kill(holder.pid, signal.SIGKILL))
        killer.start()
        begin(connection)  # waits until the holder is killed, then goes in
        assert holder.wait(5) == -signal.SIGKILL
        end(connection, "commit")
    finally:
        holder.kill()
        holder.wait()
