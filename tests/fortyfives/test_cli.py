"""The ``fortyfives`` command as a volunteer meets it: one data folder for the server and every
command (``fortyfives manage`` during a hall night reaches the night's own database, never a
stray one in the current folder), one server per folder, a clear line and exit code 2 for
what cannot be done, the words in the hall's language, and a server that stops cleanly when
its window closes, the night folded into the database."""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from config.paths import default_data_dir, hall_choose
from fortyfives import __version__
from fortyfives.datafolder import running, serving
from tests.fortyfives.conftest import command_environ, fortyfives

PASSWORD = "hall-night-45s"
CREATE = (
    "drive", "create", "--club", "St. Mary's Parish Hall", "--name", "Friday 45s",
    "--date", "2026-12-04", "--couples", "couples.csv", "--games", "5",
)  # fmt: skip
COUPLES = "player1,player2\n" + "".join(f"Player {2 * n},Player {2 * n + 1}\n" for n in range(8))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def manager(data_dir: Path, work: Path) -> Callable[..., str]:
    """``fortyfives manage …`` on the hall's folder from ``work``: its output (it must succeed)."""

    def manage(*args: str) -> str:
        done = fortyfives("manage", "--data-dir", str(data_dir), *args, cwd=work)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    return manage


def start_hall(data_dir: Path, work: Path, port: int) -> subprocess.Popen[str]:
    """``fortyfives hall`` on ``data_dir``, typed in ``work``, once its ``/livez`` answers."""
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "fortyfives", "hall", "--data-dir", str(data_dir)),
            *("--address", "127.0.0.1", "--port", str(port), "--no-browser"),
        ],
        cwd=work,
        env=command_environ(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    deadline = time.monotonic() + 120
    while True:
        if server.poll() is not None:
            raise AssertionError(server.stdout.read() if server.stdout else "")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/livez", timeout=2):
                return server
        except OSError:
            if time.monotonic() > deadline:
                server.kill()
                raise AssertionError("the hall server did not answer") from None
            time.sleep(0.3)


def test_the_version_and_the_help_say_what_the_command_does(tmp_path: Path) -> None:
    done = fortyfives("--version", cwd=tmp_path)
    assert (done.returncode, done.stdout.strip()) == (0, f"fortyfives {__version__}")
    done = fortyfives("--help", cwd=tmp_path, env={"FORTYFIVES_DATA_DIR": str(tmp_path / "hall")})
    assert done.returncode == 0
    assert "start the card night" in done.stdout
    assert "copy the club's data into one file" in done.stdout


def test_a_french_hall_is_helped_in_french_argparse_words_too(tmp_path: Path) -> None:
    data_dir = tmp_path / "hall"
    data_dir.mkdir()
    hall_choose(data_dir, language="fr")
    done = fortyfives("--help", cwd=tmp_path, env={"FORTYFIVES_DATA_DIR": str(data_dir)})
    assert done.stdout.startswith("utilisation : fortyfives")
    assert "lancer la soirée de cartes" in done.stdout
    assert "afficher cette aide et quitter" in done.stdout
    done = fortyfives("restore", "--data-dir", str(data_dir), cwd=tmp_path)
    assert done.returncode == 2
    assert "ces arguments sont requis : FICHIER" in done.stderr


def test_the_data_folder_is_the_users_own_not_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if sys.platform != "linux":
        pytest.skip("the folder's place on Linux")
    monkeypatch.delenv("FORTYFIVES_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    assert default_data_dir() == tmp_path / "share" / "fortyfives"
    work = tmp_path / "work"
    work.mkdir()
    done = fortyfives("manage", "check", cwd=work, env={"XDG_DATA_HOME": str(tmp_path / "share")})
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "share" / "fortyfives" / "db.sqlite3").is_file()
    assert list(work.iterdir()) == []


def test_a_second_server_on_the_same_folder_is_refused(tmp_path: Path) -> None:
    data_dir = tmp_path / "hall"
    data_dir.mkdir()
    with serving(data_dir, "http://192.168.1.20:8000"):
        assert running(data_dir) is not None
        done = fortyfives(
            "hall", "--data-dir", str(data_dir), "--address", "127.0.0.1", cwd=tmp_path
        )
        assert done.returncode == 2
        assert done.stdout == ""
        line = done.stderr.strip()
        assert "\n" not in line
        assert "A hall server already runs on" in line
        assert "http://192.168.1.20:8000" in line
        assert not (data_dir / "db.sqlite3").exists()
    assert running(data_dir) is None


def test_a_port_in_use_and_a_folder_that_cannot_be_written_are_one_line_each(
    tmp_path: Path,
) -> None:
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        done = fortyfives(
            "hall", "--data-dir", str(tmp_path / "hall"), "--address", "127.0.0.1",
            "--port", str(port), cwd=tmp_path,
        )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"fortyfives: Port {port} is used by another program. Start with another port, "
        "e.g. fortyfives hall --port 8045."
    )
    (tmp_path / "a-file").write_text("not a folder")
    done = fortyfives(
        "manage", "--data-dir", str(tmp_path / "a-file" / "hall"), "check", cwd=tmp_path
    )
    assert done.returncode == 2
    assert done.stderr.startswith("fortyfives: The data folder ")
    assert "cannot be written" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_without_a_network_the_banner_says_phones_cannot_reach_it(tmp_path: Path) -> None:
    done = fortyfives(
        "hall", "--data-dir", str(tmp_path / "hall"), "--address", "127.0.0.1",
        "--prepare-only", cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = " ".join(done.stdout.split())
    assert "only this laptop can open the pages, phones cannot reach it" in said
    assert "First start: open http://127.0.0.1:8000 on this laptop" in said


@pytest.mark.integration
@pytest.mark.slow
def test_manage_during_a_hall_night_reaches_the_nights_database(tmp_path: Path) -> None:
    """The organizer follows docs/cli.md while the hall's server runs: the drive made and the
    games simulated from the command line are the server's, and nothing lands in the folder
    the command was typed in. Closing the window then stops the server cleanly."""
    data_dir, work, port = tmp_path / "hall", tmp_path / "work", free_port()
    work.mkdir()
    (work / "couples.csv").write_text(COUPLES)
    server = start_hall(data_dir, work, port)
    try:
        base = f"http://127.0.0.1:{port}"

        def manage(*args: str, **env: str) -> str:
            done = fortyfives("manage", "--data-dir", str(data_dir), *args, cwd=work, env=env)
            assert done.returncode == 0, done.stderr
            return done.stdout.strip()

        slug = manage(*CREATE)
        manage("drive", "simulate", slug, "--seed", "1945", "--until-game", "3")
        manage(
            "createsuperuser", "--noinput", "--username", "mary", "--email", "m@example.org",
            DJANGO_SUPERUSER_PASSWORD=PASSWORD,
        )  # fmt: skip
        token = manage("apitoken", "mary").split()[-1]
        request = urllib.request.Request(
            f"{base}/api/v1/drives/{slug}/standings", headers={"Authorization": f"Bearer {token}"}
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            rows = json.load(answer)
        assert len(rows) == 8
        # three games' winners (four tables each), and game 4 in play at every table
        assert sum(row["wins"] for row in rows) == 3 * 4
        assert {row["played"] for row in rows} == {4}
        assert sorted(p.name for p in work.iterdir()) == ["couples.csv"]
    finally:
        server.send_signal(signal.SIGHUP)  # the terminal window closed
        out, _ = server.communicate(timeout=60)
    assert server.returncode == 0, out
    assert "The server has stopped" in out
    wal = data_dir / "db.sqlite3-wal"
    assert not wal.exists() or wal.stat().st_size == 0
    assert running(data_dir) is None
    assert not (data_dir / "server.json").exists()


@pytest.mark.integration
@pytest.mark.slow
def test_the_halls_server_keeps_the_phones_current_through_another_process(
    tmp_path: Path,
) -> None:
    """The hall's real server answers a phone's unchanged poll with a 304 (before Django,
    config/pollgate.py), and a change written by another process while it serves (``fortyfives
    manage drive simulate``: the next game) makes the next poll a 200 with the new page."""
    data_dir, work, port = tmp_path / "hall", tmp_path / "work", free_port()
    work.mkdir()
    (work / "couples.csv").write_text(COUPLES)
    server = start_hall(data_dir, work, port)
    try:
        base = f"http://127.0.0.1:{port}"

        manage = manager(data_dir, work)
        slug = manage(*CREATE)
        manage("drive", "simulate", slug, "--seed", "1945", "--until-game", "1")
        cards = json.loads(manage("drive", "tokens", slug, "--json"))
        table = next(t["token"] for t in cards["tables"] if t["number"] == 1)
        couple = next(c["token"] for c in cards["couples"] if c["number"] == 1)

        def poll(url: str, etag: str = "") -> tuple[int, str, bytes]:
            headers = {"If-None-Match": etag} if etag else {}
            request = urllib.request.Request(f"{base}{url}", headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=10) as answer:
                    return answer.status, answer.headers["ETag"], answer.read()
            except urllib.error.HTTPError as error:
                return error.code, error.headers["ETag"], error.read()

        urls = [f"/t/{table}/?partial=1", f"/c/{couple}/?partial=1"]
        first = {url: poll(url) for url in urls}
        for url in urls:
            assert first[url][0] == 200
            assert poll(url, first[url][1])[:2] == (304, first[url][1])
            assert poll(url, first[url][1])[0] == 304
        manage("drive", "simulate", slug, "--seed", "1945", "--until-game", "2")
        for url in urls:
            status, etag, body = poll(url, first[url][1])
            assert status == 200, f"{url}: still 304 after another process's change"
            assert etag != first[url][1] and body != first[url][2]
            assert poll(url, etag)[0] == 304
    finally:
        server.send_signal(signal.SIGHUP)
        server.communicate(timeout=60)


@pytest.mark.integration
@pytest.mark.slow
def test_the_halls_server_stops_with_the_pages_streams_open(tmp_path: Path) -> None:
    """Closing the window while phones hold their pages' event streams open (config/events.py:
    a stream never ends by itself) stops the server all the same: each stream ends, cleanly,
    and the server with them."""
    data_dir, work, port = tmp_path / "hall", tmp_path / "work", free_port()
    work.mkdir()
    (work / "couples.csv").write_text(COUPLES)
    server = start_hall(data_dir, work, port)
    streams = []
    try:
        base = f"http://127.0.0.1:{port}"

        manage = manager(data_dir, work)
        slug = manage(*CREATE)
        manage("drive", "simulate", slug, "--seed", "1945", "--until-game", "1")
        cards = json.loads(manage("drive", "tokens", slug, "--json"))
        for table in cards["tables"][:3]:
            with urllib.request.urlopen(f"{base}/t/{table['token']}/", timeout=10) as answer:
                page = answer.read().decode()
            found = re.search(r'data-events-url="([^"]+)"', page)
            assert found, "the table's page names no event stream"
            stream = urllib.request.urlopen(f"{base}{found[1]}", timeout=30)
            streams.append(stream)
            assert stream.readline() == b"retry: 3000\n"
    finally:
        server.send_signal(signal.SIGHUP)  # the terminal window closed
        out, _ = server.communicate(timeout=30)
    assert server.returncode == 0, out
    assert "The server has stopped" in out
    for stream in streams:
        assert b"event: ready" in stream.read()  # the rest of it, to its end
        stream.close()
    assert not (data_dir / "server.stopping").exists()
