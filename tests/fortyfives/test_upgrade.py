"""Upgrades keep the club (fortyfives/upgrade.py): an older version's data folder is copied,
migrated and told what changed; a newer version's is refused, never migrated backwards; no
migration under a running server."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from pathlib import Path

import pytest
from django.db import connection
from filelock import FileLock

from drives.models import AuditEntry
from drives.services import Actor
from fortyfives.changes import CHANGES, changes_between
from fortyfives.database import version_name, version_number
from scoring.services import game_advance
from tests.fortyfives.conftest import (
    SLUG,
    add_migration,
    fortyfives,
    manage,
    mark,
    refused,
    results_in,
    state_of,
)
from tests.pages.live_helpers import play
from tests.tools.test_hall import night_of


def tables_of(database: Path) -> set[str]:
    with contextlib.closing(sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True)) as db:
        return {name for (name,) in db.execute("SELECT name FROM sqlite_master")}


def pragma(database: Path, name: str) -> int:
    with contextlib.closing(sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True)) as db:
        return int(db.execute(f"PRAGMA {name}").fetchone()[0])


def hall_json(data_dir: Path) -> dict[str, str]:
    return dict(json.loads((data_dir / "hall.json").read_text()))


def made_older(data_dir: Path) -> None:
    """The folder as fortyfives 0.1.0 left it: a table it did not have yet, its version."""
    manage(data_dir, "migrate", "sessions", "zero")
    mark(data_dir / "db.sqlite3", user_version=version_number("0.1.0"))
    (data_dir / "hall.json").write_text(json.dumps({"version": "0.1.0"}))


def test_an_older_folder_is_kept_migrated_and_told_what_changed(
    played: Path, copy_of, tmp_path: Path
) -> None:
    data_dir = copy_of(played)
    made_older(data_dir)
    done = fortyfives("manage", "--data-dir", data_dir, "drive", "list")
    assert done.returncode == 0, done.stderr
    # Said on stderr: the command's stdout stays its own answer (for scripts).
    assert "used by fortyfives 0.1.0: it is now up to date for 0.2.0" in done.stderr
    assert "What changed:" in done.stderr and "fortyfives backup copies the club" in done.stderr
    assert done.stdout.startswith("slug ") and SLUG in done.stdout  # the command asked for ran
    [kept] = (data_dir / "backups").glob("before-upgrade-from-0.1.0-*.sqlite3")
    assert str(kept) in done.stderr
    # The copy is the folder as 0.1.0 left it; the folder is 0.2.0's now.
    assert "django_session" not in tables_of(kept)
    assert version_name(pragma(kept, "user_version")) == "0.1.0"
    assert results_in(kept) == results_in(played / "db.sqlite3")
    database = data_dir / "db.sqlite3"
    assert "django_session" in tables_of(database)
    assert version_name(pragma(database, "user_version")) == "0.2.0"
    assert hall_json(data_dir)["version"] == "0.2.0"
    assert results_in(database) == results_in(played / "db.sqlite3")
    # Said once: the next command finds the folder up to date.
    again = fortyfives("manage", "--data-dir", data_dir, "drive", "list")
    assert again.returncode == 0 and "What changed" not in again.stdout + again.stderr
    assert len(list((data_dir / "backups").glob("before-*"))) == 1
    # The old version's backup restores into a new folder, brought up to date.
    new = tmp_path / "new-laptop"
    restored = fortyfives("restore", "--data-dir", new, kept)
    assert restored.returncode == 0, restored.stderr
    assert "fortyfives 0.1.0" in restored.stdout
    assert "django_session" in tables_of(new / "db.sqlite3")
    assert results_in(new / "db.sqlite3") == results_in(played / "db.sqlite3")


def test_a_newer_versions_folder_is_refused_and_left_as_it_is(played: Path, copy_of) -> None:
    data_dir = copy_of(played)
    add_migration(data_dir / "db.sqlite3", "scoring", "0099_cards_by_suit")
    mark(data_dir / "db.sqlite3", user_version=version_number("0.3.0"))
    before = state_of(data_dir)
    for command in (
        ("manage", "--data-dir", data_dir, "drive", "list"),
        ("hall", "--data-dir", data_dir, "--prepare-only", "--address", "127.0.0.1"),
    ):
        line = refused(fortyfives(*command), "fortyfives 0.3.0, newer than this one (0.2.0)")
        assert "install 0.3.0 or newer. Nothing was changed." in line
        assert state_of(data_dir) == before
    # Without the version recorded (hall.json lost too): refused all the same.
    mark(data_dir / "db.sqlite3", user_version=0)
    refused(fortyfives("manage", "--data-dir", data_dir, "check"), "a newer version")


def test_no_migration_while_a_server_holds_the_folder(played: Path, copy_of) -> None:
    """A command during the night works on the folder as it stands; one that would migrate
    it under the running server (of the older version) is refused until the server stops."""
    data_dir = copy_of(played)
    lock = FileLock(data_dir / "server.lock", timeout=0)
    lock.acquire()  # as the server holds it
    try:
        server = {"url": "http://127.0.0.1:8000", "pid": os.getpid(), "started": "20:00"}
        (data_dir / "server.json").write_text(json.dumps(server))
        assert SLUG in manage(data_dir, "drive", "list")
        manage(data_dir, "migrate", "sessions", "zero")  # a newer version's migration, say
        before = state_of(data_dir)
        refused(fortyfives("manage", "--data-dir", data_dir, "drive", "list"), "stop it")
        assert state_of(data_dir) == before
    finally:
        lock.release()
    done = fortyfives("manage", "--data-dir", data_dir, "drive", "list")
    assert done.returncode == 0 and "django_session" in tables_of(data_dir / "db.sqlite3")


def test_a_new_folder_is_made_without_a_backup_or_news(tmp_path: Path) -> None:
    data_dir = tmp_path / "hall"
    done = fortyfives("manage", "--data-dir", data_dir, "drive", "list")
    assert done.returncode == 0, done.stderr
    assert "What changed" not in done.stdout + done.stderr
    assert not (data_dir / "backups").exists()
    assert version_name(pragma(data_dir / "db.sqlite3", "user_version")) == "0.2.0"
    assert hall_json(data_dir)["version"] == "0.2.0"


def test_the_changes_said_are_those_between_the_two_versions() -> None:
    assert [v for v, _ in changes_between("0.1.0", "0.2.0")] == ["0.2.0"]
    assert changes_between("0.2.0", "0.2.0") == []
    assert [v for v, _ in changes_between(None, "0.2.0")] == ["0.2.0"]
    assert all(0 < len(lines) <= 6 for lines in CHANGES.values())
    assert version_name(version_number("1.12.3")) == "1.12.3" and version_name(0) is None


@pytest.mark.django_db(transaction=True)
def test_the_servers_rotation_leaves_the_kept_copies_alone(tmp_path: Path, settings) -> None:
    """The copies kept before a restore or an upgrade are not among the server's own, which
    it rotates after each advance: they stay however many games are played."""
    if connection.vendor != "sqlite":
        pytest.skip("the hall server's backups are SQLite's")
    folder = tmp_path / "backups"
    folder.mkdir()
    kept = [folder / "before-restore-2026-11-20-1930.sqlite3"]
    kept.append(folder / "before-upgrade-from-0.1.0-2026-11-20-1900.sqlite3")
    for path in kept:
        path.write_bytes(b"")
    settings.HALL_BACKUP_DIR, settings.HALL_BACKUPS = folder, 2
    drive = night_of(8)
    for game in (1, 2, 3):
        play(drive, game)
        game_advance(drive=drive, game=game, actor=Actor(channel=AuditEntry.Channel.DESK))
        time.sleep(0.01)
    assert all(path.exists() for path in kept)
    assert len([p for p in folder.iterdir() if p.name[0].isdigit()]) == 2
