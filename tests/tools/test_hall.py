"""The hall's own server (fortyfives/hall.py, config/settings/hall.py): started as a hall would, it
serves the pages with DEBUG off and its own kept secret key, over plain HTTP on which logging
in works, with the static files; the database is copied after every advance and the close."""

from __future__ import annotations

import json
import os
import re
import socket
import sqlite3
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from datetime import date
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.db.utils import ConnectionHandler

from config.settings.env import hall_database_settings, hall_secret_key, read
from drives.errors import ServiceError
from drives.models import AuditEntry, Drive
from drives.services import (
    Actor,
    club_create,
    couples_register,
    drive_close,
    drive_create,
    drive_start,
)
from fortyfives import hall
from scoring.services import game_advance
from tests.pages.live_helpers import play

BASE_DIR = Path(__file__).resolve().parent.parent.parent
PASSWORD = "hall-night-45s"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def hall_env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "CELERY_"))}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env |= {"HALL_DATA_DIR": str(data_dir), "PYTHONUNBUFFERED": "1"}
    return env


def start(data_dir: Path, port: int) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "fortyfives", "hall", "--data-dir", str(data_dir)]
    command += ["--port", str(port), "--address", "127.0.0.1", "--no-browser"]
    server = subprocess.Popen(
        command,
        cwd=BASE_DIR,
        env=hall_env(data_dir),
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"the hall server stopped: {server.stdout.read()}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/livez", timeout=2):
                return server
        except OSError:
            time.sleep(0.3)
    server.kill()
    raise AssertionError("the hall server did not answer within 120 s")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path, subprocess.Popen[str]]]:
    data_dir, port = tmp_path / "hall", free_port()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "fortyfives",
            "hall",
            "--data-dir",
            str(data_dir),
            "--prepare-only",
            "--address",
            "127.0.0.1",
        ],
        cwd=BASE_DIR,
        env=hall_env(data_dir),
        check=True,
        capture_output=True,
        timeout=180,
    )
    subprocess.run(
        [
            sys.executable,
            "manage.py",
            "createsuperuser",
            "--noinput",
            "--username",
            "mary",
            "--email",
            "mary@example.org",
        ],
        cwd=BASE_DIR,
        check=True,
        capture_output=True,
        timeout=120,
        env=hall_env(data_dir)
        | {"DJANGO_SETTINGS_MODULE": "config.settings.hall", "DJANGO_SUPERUSER_PASSWORD": PASSWORD},
    )
    manifest = data_dir / "static" / "staticfiles.json"
    collected = manifest.stat().st_mtime_ns
    server = start(data_dir, port)
    # The start prepared the folder again, but nothing static had changed: nothing collected.
    assert manifest.stat().st_mtime_ns == collected
    try:
        yield f"http://127.0.0.1:{port}", data_dir, server
    finally:
        server.terminate()
        server.wait(timeout=30)


def get(url: str, opener: urllib.request.OpenerDirector | None = None) -> tuple[int, str, dict]:
    try:
        with (opener or urllib.request.build_opener()).open(url, timeout=10) as answer:
            return answer.status, answer.read().decode(), dict(answer.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), dict(error.headers)


@pytest.mark.slow
def test_the_hall_server_serves_a_night_over_plain_http(served) -> None:
    base, data_dir, _server = served
    status, home, headers = get(base + "/")
    assert status == 200 and "Forty-Fives Card Drives" in home
    # Plain HTTP on the hall's address: no header the browser would ignore with a console error.
    assert "cross-origin-opener-policy" not in {name.lower() for name in headers}
    # The static files, by the manifest's hashed names (DEBUG off: whitenoise serves them).
    stylesheet = re.search(r'href="(/static/css/site\.[0-9a-f]+\.css)"', home)
    assert stylesheet, "the page links the manifest's stylesheet"
    assert get(base + stylesheet.group(1))[0] == 200
    # DEBUG off: an unknown page is the plain 404, not Django's debug page.
    status, missing, _ = get(base + "/no-such-page/")
    assert status == 404 and "URLconf" not in missing
    # Logging in works over plain HTTP (cookies not marked Secure) and CSRF passes.
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    status, login_page, headers = get(base + "/accounts/login/", opener)
    assert status == 200
    assert "secure" not in headers.get("Set-Cookie", "").lower()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login_page)
    assert token
    body = urllib.parse.urlencode(
        {"username": "mary", "password": PASSWORD, "csrfmiddlewaretoken": token.group(1)}
    ).encode()
    request = urllib.request.Request(
        base + "/accounts/login/", data=body, headers={"Referer": base + "/accounts/login/"}
    )
    with opener.open(request, timeout=10) as answer:
        assert answer.status == 200 and answer.url.rstrip("/") != base + "/accounts/login"
    assert any(c.name == "sessionid" and not c.secure for c in jar)
    status, _page, _ = get(base + "/drives/", opener)
    assert status == 200
    # A form sent in chunks (no Content-Length) is read, not taken as empty: logged in.
    chunked_jar = CookieJar()
    chunked = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(chunked_jar))
    _status, login_page, _ = get(base + "/accounts/login/", chunked)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login_page)
    assert token
    body = urllib.parse.urlencode(
        {"username": "mary", "password": PASSWORD, "csrfmiddlewaretoken": token.group(1)}
    ).encode()
    request = urllib.request.Request(
        base + "/accounts/login/",
        data=iter([body[:20], body[20:]]),  # an iterable: urllib sends it chunked
        headers={
            "Referer": base + "/accounts/login/",
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    with chunked.open(request, timeout=10) as answer:
        assert answer.status == 200 and answer.url.rstrip("/") != base + "/accounts/login"
    assert any(c.name == "sessionid" for c in chunked_jar)
    # The home page shows the organizer the address the phones use, with its QR code.
    status, home, _ = get(base + "/", opener)
    assert "http://127.0.0.1:" in home and 'class="hall-qr"' in home
    # The secret key: made once in the data folder, owner-only, kept across restarts.
    key_file = data_dir / "secret_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert len(key_file.read_text().strip()) >= 50
    assert (data_dir / "db.sqlite3").is_file()
    # Everything in the data folder is the owner's only (the server's umask): the folder, the
    # database with its WAL and shared memory, the collected static files (served all the
    # same, above).
    assert mode(data_dir) == 0o700
    for name in ("db.sqlite3", "db.sqlite3-wal", "db.sqlite3-shm", "static/staticfiles.json"):
        assert mode(data_dir / name) == 0o600, name
    assert mode(data_dir / "static") == mode(data_dir / "static" / "css") == 0o700
    assert mode(next((data_dir / "static" / "css").glob("site.*.css"))) == 0o600
    # The hall's connections commit at synchronous=FULL (2).
    synchronous = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", SYNCHRONOUS],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
        env=hall_env(data_dir) | {"DJANGO_SETTINGS_MODULE": "config.settings.hall"},
    )
    assert synchronous.stdout.split() == ["2"], synchronous.stderr
    # No demo account with its published password on the hall's network.
    demo = subprocess.run(
        [sys.executable, "manage.py", "demo"],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=120,
        env=hall_env(data_dir) | {"DJANGO_SETTINGS_MODULE": "config.settings.hall"},
    )
    assert demo.returncode != 0 and "The demo command is turned off here" in demo.stderr
    assert not any(name == "organizer" for name in usernames(data_dir / "db.sqlite3"))


SYNCHRONOUS = (
    "from django.db import connection\n"
    "with connection.cursor() as cursor:\n"
    "    cursor.execute('PRAGMA synchronous')\n"
    "    print(cursor.fetchone()[0])"
)


def usernames(database: Path) -> list[str]:
    with sqlite3.connect(database) as db:
        return [name for (name,) in db.execute("SELECT username FROM auth_user")]


def test_the_secret_key_is_made_once_and_kept(tmp_path: Path) -> None:
    first = hall_secret_key(tmp_path)
    assert len(first) >= 50 and hall_secret_key(tmp_path) == first
    (tmp_path / "secret_key").write_text("short")
    assert hall_secret_key(tmp_path) != "short"


@pytest.fixture
def open_umask() -> Iterator[None]:
    """A umask that lets every account read what is made (a usual default), put back after."""
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_halls_database_is_private_and_synced_at_every_commit(
    tmp_path: Path, django_db_blocker: Any, open_umask: None
) -> None:
    """The data folder 0700; the database, its WAL and shared memory 0600 (SQLite gives these
    the database file's mode), even under a umask that lets every account read; and the
    hall's connections at synchronous=FULL (2): a commit is on the disk before it is answered,
    so a power cut loses nothing acknowledged (NORMAL, 1, may lose the last commits)."""
    data_dir = tmp_path / "hall"
    data_dir.mkdir(mode=0o755)  # made by an older version, readable by every account
    config = hall_database_settings(read({}), data_dir)
    assert config["NAME"] == data_dir / "db.sqlite3"
    assert mode(data_dir) == 0o700 and mode(data_dir / "db.sqlite3") == 0o600
    handler = ConnectionHandler({"default": config})
    with django_db_blocker.unblock():
        try:
            with handler["default"].cursor() as cursor:
                cursor.execute("PRAGMA synchronous")
                assert cursor.fetchone()[0] == 2  # FULL
                cursor.execute("PRAGMA journal_mode")
                assert cursor.fetchone()[0] == "wal"
                cursor.execute("CREATE TABLE night (game integer)")
                cursor.execute("INSERT INTO night VALUES (1)")
                for name in ("db.sqlite3", "db.sqlite3-wal", "db.sqlite3-shm"):
                    assert mode(data_dir / name) == 0o600, name
        finally:
            handler.close_all()
    # A folder and files left readable by an older version are put right at the next start.
    os.chmod(data_dir, 0o755)
    for name in ("db.sqlite3", "db.sqlite3-wal"):
        (data_dir / name).touch()
        os.chmod(data_dir / name, 0o644)
    hall_database_settings(read({}), data_dir)
    assert mode(data_dir) == 0o700
    assert mode(data_dir / "db.sqlite3") == mode(data_dir / "db.sqlite3-wal") == 0o600
    # The secret key is made there too, owner-only.
    hall_secret_key(data_dir)
    assert mode(data_dir / "secret_key") == 0o600


def test_the_static_files_are_collected_again_only_when_they_changed(
    tmp_path: Path, settings
) -> None:
    source, root = tmp_path / "source", tmp_path / "collected"
    (source / "css").mkdir(parents=True)
    (source / "css" / "site.css").write_text("body { color: black }")
    settings.STATICFILES_DIRS = [source]
    settings.STATICFILES_FINDERS = ["django.contrib.staticfiles.finders.FileSystemFinder"]
    settings.STATIC_ROOT = root
    settings.STORAGES = settings.STORAGES | {
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"}
    }

    def served_css() -> str:
        manifest = json.loads((root / "staticfiles.json").read_text())
        return (root / manifest["paths"]["css/site.css"]).read_text()

    assert hall.collect_static() is True
    assert served_css() == "body { color: black }"
    assert hall.collect_static() is False  # nothing changed: the restart collects nothing
    (source / "css" / "site.css").write_text("body { color: navy }")
    assert hall.collect_static() is True
    assert served_css() == "body { color: navy }"
    (source / "css" / "print.css").write_text("nav { display: none }")
    assert hall.collect_static() is True
    (root / "staticfiles.json").unlink()  # a folder emptied by hand is filled again
    assert hall.collect_static() is True and served_css() == "body { color: navy }"
    settings.WHITENOISE_KEEP_ONLY_HASHED_FILES = not getattr(
        settings, "WHITENOISE_KEEP_ONLY_HASHED_FILES", False
    )
    assert hall.collect_static() is True  # the settings of what is collected changed


# --- the backups ---------------------------------------------------------------------------------


def night_of(couples: int) -> Drive:
    club = club_create(name="St. Joseph's Parish")
    actor = Actor(channel=AuditEntry.Channel.DESK)
    drive = drive_create(
        club=club, actor=actor, name="Friday 45s", date=date(2026, 11, 20), games=5
    )
    couples_register(
        drive=drive, actor=actor, couples=[{"players": [f"A{i}", f"B{i}"]} for i in range(couples)]
    )
    drive_start(drive=drive, actor=actor)
    return drive


def current_game_in(path: Path) -> int:
    with sqlite3.connect(path) as copy:
        (game,) = copy.execute("SELECT current_game FROM drives_drive").fetchone()
    return int(game)


@pytest.mark.django_db(transaction=True)
def test_the_database_is_copied_after_every_advance_and_the_close(
    tmp_path: Path, settings, open_umask: None
) -> None:
    """Committed for real (a transactional test): the copy is taken after the commit."""
    if connection.vendor != "sqlite":
        pytest.skip("the hall server's backups are SQLite's; PostgreSQL has its own")
    settings.HALL_BACKUP_DIR = tmp_path / "backups"
    settings.HALL_BACKUPS = 2
    drive = night_of(8)
    actor = Actor(channel=AuditEntry.Channel.DESK)
    for game in (1, 2, 3):
        play(drive, game)
        game_advance(drive=drive, game=game, actor=actor)
        time.sleep(0.01)
    copies = sorted((tmp_path / "backups").glob("*.sqlite3"))
    assert [c.name.split("-", 3)[-1] for c in copies] == [
        f"{drive.slug}-game-3.sqlite3",
        f"{drive.slug}-game-4.sqlite3",
    ]
    assert [current_game_in(c) for c in copies] == [3, 4]
    assert not list((tmp_path / "backups").glob("*.partial"))
    # Readable by the laptop's owner only, whatever the process's umask.
    assert mode(tmp_path / "backups") == 0o700
    assert [mode(c) for c in copies] == [0o600, 0o600]
    drive_close(drive=drive, actor=actor)
    newest = sorted((tmp_path / "backups").glob("*.sqlite3"))[-1]
    assert newest.name.endswith(f"{drive.slug}-closed.sqlite3")


@pytest.mark.django_db(transaction=True)
def test_no_backup_without_the_hall_settings_or_after_a_refused_advance(
    tmp_path: Path, settings
) -> None:
    drive = night_of(4)
    actor = Actor(channel=AuditEntry.Channel.DESK)
    settings.HALL_BACKUP_DIR = tmp_path / "backups"
    settings.HALL_BACKUPS = 3
    with pytest.raises(ServiceError, match="not complete"):
        game_advance(drive=drive, game=1, actor=actor)  # nobody has played: refused
    assert not (tmp_path / "backups").exists()
    settings.HALL_BACKUPS = 0
    play(drive, 1)
    game_advance(drive=drive, game=1, actor=actor)
    assert not (tmp_path / "backups").exists()


# --- the address ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("address", "ok"),
    [
        ("192.168.1.20", True),
        ("10.0.0.5", True),
        ("127.0.0.1", False),
        ("169.254.3.4", False),
        ("0.0.0.0", False),
        ("::1", False),
        ("laptop", False),
    ],
)
def test_only_an_address_other_machines_reach_is_used(address: str, ok: bool) -> None:
    assert hall.usable(address) is ok


def test_without_a_network_the_server_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    class NoRoute(socket.socket):
        def connect(self, *args: object) -> None:
            raise OSError("Network is unreachable")

    monkeypatch.setattr(hall.socket, "socket", NoRoute)
    monkeypatch.setattr(hall.socket, "gethostbyname_ex", lambda name: (name, [], ["127.0.1.1"]))
    assert hall.lan_address() is None
    monkeypatch.setattr(
        hall.socket, "gethostbyname_ex", lambda name: (name, [], ["127.0.1.1", "192.168.4.7"])
    )
    assert hall.lan_address() == "192.168.4.7"
