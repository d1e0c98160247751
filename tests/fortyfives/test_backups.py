"""``fortyfives backup`` and ``fortyfives restore`` (fortyfives/backups.py), run as a volunteer
runs them: the club copied into one file while the hall's server answers, put back into a new
data folder with every result, and every file that is not a backup of this version refused in
one line, with nothing changed."""

from __future__ import annotations

import contextlib
import re
import resource
import shutil
import signal
import sqlite3
import stat
import threading
import urllib.request
from pathlib import Path

import pytest

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
from tests.tools.test_hall import free_port, start

GAMES, TABLES = 3, 6  # the played night: 12 couples at 6 tables, 3 games


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.slow
def test_a_backup_taken_while_the_server_serves_restores_with_every_result(
    played: Path, copy_of, tmp_path: Path
) -> None:
    data_dir, usb = copy_of(played), tmp_path / "usb"
    usb.mkdir()
    server = start(data_dir, port := free_port())
    answers: list[int] = []
    done = threading.Event()

    def poll() -> None:  # a phone's polls all along
        while not done.is_set():
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/livez", timeout=10) as answer:
                answers.append(answer.status)

    poller = threading.Thread(target=poll)
    poller.start()
    try:
        backed = fortyfives("backup", "--data-dir", data_dir, "--to", usb)
        assert backed.returncode == 0, backed.stderr
        [copy] = usb.iterdir()  # one file, no -wal or .partial beside it
        assert re.fullmatch(r"fortyfives-backup-\d{4}-\d\d-\d\d-\d{4}\.sqlite3", copy.name)
        assert str(copy) in backed.stdout
        # The server holds the folder: a restore into it is refused, nothing changed.
        before = state_of(data_dir)
        refused(fortyfives("restore", "--data-dir", data_dir, copy), "stop it")
        assert state_of(data_dir) == before
        assert not list((data_dir / "backups").glob("before-*"))
        answers_during = len(answers)
    finally:
        done.set()
        poller.join(timeout=30)
        server.terminate()
        server.wait(timeout=30)
    assert answers_during > 0 and set(answers) == {200}
    assert mode(copy) == 0o600
    assert len(results_in(copy)) == GAMES * TABLES
    assert results_in(copy) == results_in(data_dir / "db.sqlite3")
    # Into a new data folder (another laptop): every result, the same standings.
    new = tmp_path / "new-laptop"
    restored = fortyfives("restore", "--data-dir", new, copy)
    assert restored.returncode == 0, restored.stderr
    assert "back from" in restored.stdout and "What changed" not in restored.stdout
    assert results_in(new / "db.sqlite3") == results_in(played / "db.sqlite3")
    assert manage(new, "drive", "show", SLUG) == manage(played, "drive", "show", SLUG)
    assert not list(new.glob("*.restoring")) and not (new / "backups").exists()


def test_restore_keeps_the_current_data_first_and_takes_the_servers_own_backups(
    played: Path, copy_of, tmp_path: Path
) -> None:
    """The copies the server makes after every advance (backups/) are backups too: the one
    taken when game 3 started puts the night back as it was then, and the data it replaced
    is kept in backups/, itself restorable."""
    data_dir = copy_of(played)
    [after_game_2] = (played / "backups").glob(f"*-{SLUG}-game-3.sqlite3")
    assert len(results_in(after_game_2)) == 2 * TABLES
    done = fortyfives("restore", "--data-dir", data_dir, after_game_2)
    assert done.returncode == 0, done.stderr
    [kept] = (data_dir / "backups").glob("before-restore-*.sqlite3")
    assert str(kept) in done.stdout
    assert results_in(data_dir / "db.sqlite3") == results_in(after_game_2)
    assert "game in play: 3 (0 of 6 tables reported)" in manage(data_dir, "drive", "show", SLUG)
    assert results_in(kept) == results_in(played / "db.sqlite3")
    # Changed its mind: the data as it was comes back from the kept copy.
    again = fortyfives("restore", "--data-dir", data_dir, kept)
    assert again.returncode == 0, again.stderr
    assert results_in(data_dir / "db.sqlite3") == results_in(played / "db.sqlite3")


def test_restore_refuses_what_is_not_a_backup_of_this_version(
    played: Path, copy_of, tmp_path: Path
) -> None:
    data_dir = copy_of(played)
    good = tmp_path / "club.sqlite3"
    assert fortyfives("backup", "--data-dir", played, "--to", good).returncode == 0
    text = tmp_path / "notes.txt"
    text.write_text("Friday: 45s at the hall, bring the cards\n")
    cut = tmp_path / "cut-short.sqlite3"  # a copy to a USB stick pulled out half-way
    cut.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    photos = tmp_path / "photos.sqlite3"  # another program's SQLite database
    with contextlib.closing(sqlite3.connect(photos)) as db:
        db.execute("CREATE TABLE photo (name text)")
        db.commit()
    blog = tmp_path / "blog.sqlite3"  # another Django program's
    with contextlib.closing(sqlite3.connect(blog)) as db:
        db.execute("CREATE TABLE django_migrations (id integer, app text, name text, applied)")
        db.execute("INSERT INTO django_migrations VALUES (1, 'blog', '0001_initial', '')")
        db.commit()
    newer = tmp_path / "newer.sqlite3"  # made by fortyfives 0.3.0, with a migration of its own
    shutil.copyfile(good, newer)
    add_migration(newer, "drives", "0099_cards_by_suit")
    mark(newer, user_version=3000)
    before = state_of(data_dir)
    cases = [
        (text, ["not a fortyfives backup", "not a database"]),
        (cut, ["damaged or incomplete"]),
        (photos, ["another program's database"]),
        (blog, ["another program's database"]),
        (newer, ["fortyfives 0.3.0", "install 0.3.0 or newer"]),
        (tmp_path / "no-such-file.sqlite3", ["There is no file"]),
        (data_dir / "db.sqlite3", ["the club's database itself"]),
    ]
    for file, words in cases:
        line = refused(fortyfives("restore", "--data-dir", data_dir, file), *words)
        assert state_of(data_dir) == before, line
    # Into a new laptop's folder: refused, and no folder half made (an empty database, a key).
    new = tmp_path / "new-laptop"
    refused(fortyfives("restore", "--data-dir", new, newer), "install 0.3.0 or newer")
    assert not new.exists()
    # The good one goes through.
    assert fortyfives("restore", "--data-dir", data_dir, good).returncode == 0


def test_a_backup_in_the_current_folder_unless_told_where(played: Path, tmp_path: Path) -> None:
    here = tmp_path / "here"
    here.mkdir()
    done = fortyfives("backup", "--data-dir", played, cwd=here)
    assert done.returncode == 0, done.stderr
    [made] = here.iterdir()
    assert made.name.startswith("fortyfives-backup-") and made.suffix == ".sqlite3"
    assert results_in(made) == results_in(played / "db.sqlite3")
    # A file named with --to, written again the next week.
    stick = tmp_path / "club.sqlite3"
    for _week in (1, 2):
        assert fortyfives("backup", "--data-dir", played, "--to", stick).returncode == 0
    assert results_in(stick) == results_in(played / "db.sqlite3")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.sqlite3", "here"]


def test_backup_refusals_leave_nothing_half_written(played: Path, copy_of, tmp_path: Path) -> None:
    empty = tmp_path / "no-club-here"
    refused(fortyfives("backup", "--data-dir", empty, "--to", tmp_path), "nothing to back up")
    assert not empty.exists()
    refused(
        fortyfives("backup", "--data-dir", played, "--to", tmp_path / "gone" / "club.sqlite3"),
        "does not exist",
    )
    letter = tmp_path / "letter.sqlite3"
    letter.write_text("Dear members,")
    refused(fortyfives("backup", "--data-dir", played, "--to", letter), "already exists")
    assert letter.read_text() == "Dear members,"
    refused(
        fortyfives("backup", "--data-dir", played, "--to", played / "db.sqlite3"),
        "club's own database",
    )
    # A disk that fills up half-way (the files this process may write are limited to 1 MB)
    # under a club of some 4 MB (more than SQLite's page cache: its copy spills a journal).
    big = copy_of(played)
    with contextlib.closing(sqlite3.connect(big / "db.sqlite3")) as db:
        db.execute("CREATE TABLE bulk (data blob)")
        db.executemany("INSERT INTO bulk VALUES (?)", [(bytes(4000),)] * 1000)
        db.commit()
    stick = tmp_path / "stick"
    stick.mkdir()

    def small_disk() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1_000_000, 1_000_000))

    line = refused(
        fortyfives("backup", "--data-dir", big, "--to", stick, preexec_fn=small_disk),
        str(stick),
    )
    assert "room" in line or "cannot be written" in line
    assert list(stick.iterdir()) == []
