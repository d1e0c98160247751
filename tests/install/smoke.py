"""The smoke test of an installed ``fortyfives``: one night as a hall runs it, from outside.

The same scenario for every way the program is installed (the wheel in a fresh virtual
environment on each Python, tests/install/test_wheel.py; the single-file bundle of
``make bundle``, tests/install/test_bundle.py). It is given only the command to run, and works
in a folder of its own with a home of its own, so that nothing of the checkout (its code, its
settings, its data) can stand in for what was installed:

1. ``fortyfives --version`` names this version;
2. ``fortyfives manage drive create`` makes a drive of eight couples and prints its slug;
3. ``fortyfives hall`` starts in the background and answers ``/livez``;
4. ``fortyfives manage drive simulate`` enters three games' results while it serves, and the
   server shows them (the standings of its JSON API, read with a table's token), and serves
   its pages in French to a French browser (the compiled catalogs are installed);
5. ``fortyfives backup`` copies the club into one file while the server serves;
6. Ctrl-C (SIGINT) stops the server: exit 0, the write-ahead log folded into the database;
7. ``fortyfives restore`` puts that file into a new data folder, where ``drive show`` shows
   every result as the first folder does.
"""

from __future__ import annotations

import contextlib
import gettext
import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
COUPLES = 8  # four tables, nobody sits out
GAMES_ENTERED = 3
RESULTS = GAMES_ENTERED * COUPLES // 2
# The first start prepares the folder (migrations, the static files collected): generous, for
# a slow machine, or a bundle unpacking itself.
START_TIMEOUT = 180
COMMAND_TIMEOUT = 300


def version() -> str:
    """The checkout's version, the one the installed program must report."""
    found = re.search(
        r'^__version__ = "([^"]+)"',
        (ROOT / "fortyfives" / "__init__.py").read_text(encoding="utf-8"),
        re.MULTILINE,
    )
    assert found is not None
    return found.group(1)


def french(msgid: str) -> str:
    """``msgid`` in the project's French catalog (the checkout's compiled one)."""
    catalog = gettext.translation("django", localedir=ROOT / "locale", languages=["fr"])
    translated = catalog.gettext(msgid)
    assert translated != msgid, f"no French for {msgid!r} in the catalog"
    return translated


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def environment(workdir: Path) -> dict[str, str]:
    """A volunteer's environment: a home of its own, nothing pointing at a checkout, its
    settings or another database."""
    home = workdir / "home"
    home.mkdir(parents=True, exist_ok=True)
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("DJANGO_", "DATABASE_", "CELERY_", "FORTYFIVES_", "HALL_"))
        and name not in {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "SECRET_KEY"}
    }
    return env | {
        "HOME": str(home),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "PYTHONUNBUFFERED": "1",
    }


@dataclass
class Hall:
    """The installed command, run in ``workdir``."""

    fortyfives: list[str]
    workdir: Path

    def run(self, *arguments: str | Path) -> str:
        """The command's stdout; a failure shows its stderr."""
        done = subprocess.run(
            [*self.fortyfives, *map(str, arguments)],
            cwd=self.workdir,
            env=environment(self.workdir),
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT,
        )
        assert done.returncode == 0, (
            f"fortyfives {' '.join(map(str, arguments))}: exit {done.returncode}\n"
            f"{done.stdout}\n{done.stderr}"
        )
        return done.stdout

    def manage(self, data_dir: Path, *arguments: str | Path) -> str:
        return self.run("manage", "--data-dir", data_dir, *arguments)

    @contextlib.contextmanager
    def serving(self, data_dir: Path, port: int) -> Iterator[subprocess.Popen[str]]:
        """``fortyfives hall`` in the background until it answers ``/livez``; killed if still
        running when the block ends (the scenario stops it itself, with Ctrl-C)."""
        log = (self.workdir / f"hall-{port}.log").open("w", encoding="utf-8")
        server = subprocess.Popen(
            [
                *self.fortyfives,
                *("hall", "--data-dir", str(data_dir), "--address", "127.0.0.1"),
                *("--port", str(port), "--no-browser"),
            ],
            cwd=self.workdir,
            env=environment(self.workdir),
            stdout=log,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            wait_for_livez(server, port, self.workdir / f"hall-{port}.log")
            yield server
        finally:
            if server.poll() is None:
                server.kill()
                server.wait(timeout=30)
            log.close()


def wait_for_livez(server: subprocess.Popen[str], port: int, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"the hall's server stopped: {log.read_text(encoding='utf-8')}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/livez", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"no /livez within {START_TIMEOUT} s: {log.read_text(encoding='utf-8')}")


def get(url: str, headers: dict[str, str]) -> tuple[int, str]:
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.status, answer.read().decode("utf-8")


def couples_csv(path: Path) -> None:
    rows = [f"Player {n}A,Player {n}B" for n in range(1, COUPLES + 1)]
    path.write_text("player1,player2\n" + "\n".join(rows) + "\n", encoding="utf-8")


def results_shown(show: str) -> list[str]:
    """What ``drive show`` says of the results: the game in play and its tables, and the
    standings' rows (place, couple, wins, games, players)."""
    return [
        line.strip()
        for line in show.splitlines()
        if line.startswith("game in play") or re.search(r"\d+ wins? in", line)
    ]


def wins_shown(show: str) -> list[int]:
    """The wins of each couple in ``drive show``'s standings."""
    return [int(found) for found in re.findall(r"(\d+) wins? in", show)]


def stop_with_ctrl_c(server: subprocess.Popen[str], data_dir: Path) -> None:
    server.send_signal(signal.SIGINT)
    assert server.wait(timeout=60) == 0, "the hall's server did not stop cleanly on Ctrl-C"
    wal = data_dir / "db.sqlite3-wal"
    assert not wal.exists() or wal.stat().st_size == 0, "the write-ahead log was not folded"


def smoke(fortyfives: list[str], workdir: Path) -> None:
    """The whole scenario (the module's docstring) with the command ``fortyfives``."""
    hall = Hall(fortyfives, workdir)
    data_dir, restored_dir, usb = workdir / "club", workdir / "restored", workdir / "usb"

    assert hall.run("--version").strip() == f"fortyfives {version()}"

    couples = workdir / "couples.csv"
    couples_csv(couples)
    slug = hall.manage(
        data_dir,
        *("drive", "create", "--club", "St. Mary's Parish Hall", "--name", "Friday 45s"),
        *("--date", "2026-11-20", "--games", "5", "--couples", couples),
    ).splitlines()[-1]  # the slug, alone on its line
    assert slug == "friday-45s-2026-11-20"

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with hall.serving(data_dir, port) as server:
        # The results entered from the command line reach the server's own database.
        hall.manage(data_dir, "drive", "simulate", slug, "--until-game", GAMES_ENTERED, "--seed", 1)
        tokens = json.loads(hall.manage(data_dir, "drive", "tokens", slug, "--json"))
        table = {"Authorization": f"Bearer {tokens['tables'][0]['token']}"}
        status, body = get(f"{base}/api/v1/drives/{slug}/standings", table)
        rows = json.loads(body)
        assert status == 200 and len(rows) == COUPLES
        assert sum(row["wins"] for row in rows) == RESULTS
        assert all(row["played"] >= GAMES_ENTERED for row in rows)

        # The pages in French for a French browser: the catalogs were installed compiled.
        status, page = get(f"{base}/accounts/login/", {"Accept-Language": "fr"})
        assert status == 200 and '<html lang="fr"' in page
        assert french("Forty-Fives Card Drives") in page

        # A backup while the server serves: one new file in the folder given.
        usb.mkdir()
        hall.run("backup", "--data-dir", data_dir, "--to", usb)
        written = list(usb.iterdir())
        assert len(written) == 1 and written[0].is_file(), written

        stop_with_ctrl_c(server, data_dir)

    shown = hall.manage(data_dir, "drive", "show", slug)
    assert sum(wins_shown(shown)) == RESULTS and len(wins_shown(shown)) == COUPLES

    hall.run("restore", written[0], "--data-dir", restored_dir)
    assert results_shown(hall.manage(restored_dir, "drive", "show", slug)) == results_shown(shown)


if __name__ == "__main__":
    # make bundle: the scenario on the bundle just built, in a temporary folder.
    #   python tests/install/smoke.py dist/fortyfives-<version>-linux-x86_64
    import sys
    import tempfile

    if len(sys.argv) != 2:
        sys.exit("usage: python tests/install/smoke.py PATH-OF-FORTYFIVES")
    with tempfile.TemporaryDirectory(prefix="fortyfives-smoke-") as folder:
        smoke([str(Path(sys.argv[1]).resolve())], Path(folder))
    print(f"smoke test passed: {sys.argv[1]}")
