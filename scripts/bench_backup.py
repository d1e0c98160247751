"""``fortyfives backup`` of a 250-table night while the hall's server answers the phones'
polls: how long the backup takes, and the polls' p95 during it against without it.

    python scripts/bench_backup.py                       # the night made in a new folder
    python scripts/bench_backup.py --data /tmp/bench-backup --seconds 30

The night is made by the commands a hall would type (kept in ``--data`` and reused):
``fortyfives manage drive create`` with 500 couples (250 tables) and 25 games, then
``drive simulate`` through the 25 games (the engine's random bots). The server is
``fortyfives hall`` on that folder, on 127.0.0.1, in a process of its own.

The phones: 750 connections held open (every couple's and every table's phone) polling the
couples' pages at ``--rate`` polls a second in all, as static/js/poll.js does
(``If-None-Match`` with the page's ETag, ``Accept-Encoding: gzip``; 134 a second: 500 couples
every 6 s and 250 tables every 5 s); a poll's time runs from its request to its answer's last
byte. After 5 s to warm the server up: ``--seconds`` of polls alone; then as long again while
another process backs the folder up again and again (``fortyfives.backups.backup``, as the
command calls it, a backup every 0.2 s: far more than a volunteer's one), the polls whose time
overlaps a backup being "during". Last, ``fortyfives backup`` typed as a volunteer would type
it (the command's whole time, Python's start included), a few times.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SLUG = "bench-night-2026-11-21"
PHONES = 750
SENDERS = 15

# Backups one after another in a process of their own (the polls' client keeps its own
# interpreter), each one's start and end printed as wall-clock times.
BACKUPS = """
import json, sys, time
from pathlib import Path
from fortyfives.backups import backup
folder, target, until = Path(sys.argv[1]), Path(sys.argv[2]), float(sys.argv[3])
while time.time() < until:
    started = time.time()
    made = backup(folder, target)
    print(json.dumps([started, time.time()]), flush=True)
    made.unlink()
    time.sleep(0.2)
"""


def fortyfives(*args: str, quiet: bool = True) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE",)}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        [sys.executable, "-m", "fortyfives", *args],
        cwd=ROOT,
        env=env,
        check=True,
        text=True,
        capture_output=quiet,
    )


def make_night(folder: Path) -> None:
    database = folder / "db.sqlite3"
    if database.is_file():
        with contextlib.closing(sqlite3.connect(database)) as db:
            found = db.execute("SELECT current_game FROM drives_drive WHERE slug = ?", (SLUG,))
            if (found.fetchone() or (0,))[0] == 25:
                return
    couples = Path(tempfile.mkdtemp(prefix="bench-couples-")) / "couples.csv"
    couples.write_text(
        "player1,player2\n" + "".join(f"North {n},South {n}\n" for n in range(1, 501))
    )
    started = time.monotonic()
    fortyfives(
        *("manage", "--data-dir", str(folder), "drive", "create", "--club", "Bench club"),
        *("--name", "Bench night", "--date", "2026-11-21", "--games", "25"),
        *("--couples", str(couples)),
    )
    fortyfives(
        *("manage", "--data-dir", str(folder), "drive", "simulate", SLUG),
        *("--bot", "random", "--seed", "7"),
    )
    print(f"the night made (500 couples, 25 games): {time.monotonic() - started:.0f} s")


def start_server(folder: Path, port: int) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE",)}
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "fortyfives", "hall", "--address", "127.0.0.1"),
            *("--port", str(port), "--data-dir", str(folder), "--no-browser"),
        ],
        cwd=ROOT,
        env=env | {"PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/livez", timeout=2):
                return server
        except OSError:
            time.sleep(0.5)
    server.terminate()
    raise SystemExit("the hall's server did not start")


def poll_paths(folder: Path, port: int) -> dict[str, str]:
    """Every couple's page, with its ETag as the phone holds it."""
    uri = f"{(folder / 'db.sqlite3').as_uri()}?mode=ro"
    with contextlib.closing(sqlite3.connect(uri, uri=True)) as db:
        tokens = [t for (t,) in db.execute("SELECT token FROM drives_couple ORDER BY number")]
    etags = {}
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for token in tokens:
        path = f"/c/{token}/?partial=1"
        connection.request("GET", path, headers={"Accept-Encoding": "gzip"})
        answer = connection.getresponse()
        answer.read()
        etags[path] = answer.headers["ETag"]
    connection.close()
    return etags


def paced(
    port: int, etags: dict[str, str], rate: float, seconds: float
) -> list[tuple[float, float, int]]:
    """750 connections polling ``rate`` times a second in all for ``seconds``: each poll's
    (start, end, status), wall-clock times."""
    connections = [http.client.HTTPConnection("127.0.0.1", port, timeout=30) for _ in range(PHONES)]
    for connection in connections:
        connection.connect()
    paths = list(etags)
    polls: list[tuple[float, float, int]] = []
    lock = threading.Lock()
    stop = time.monotonic() + seconds
    gap = SENDERS / rate

    def sender(offset: int) -> None:
        mine, turn, started = connections[offset::SENDERS], 0, time.monotonic()
        seen = []
        while time.monotonic() < stop:
            path = paths[(offset + SENDERS * turn) % len(paths)]
            connection = mine[turn % len(mine)]
            began = time.time()
            connection.request(
                "GET", path, headers={"If-None-Match": etags[path], "Accept-Encoding": "gzip"}
            )
            answer = connection.getresponse()
            answer.read()
            seen.append((began, time.time(), answer.status))
            turn += 1
            time.sleep(max(0.0, started + turn * gap - time.monotonic()))
        with lock:
            polls.extend(seen)

    workers = [threading.Thread(target=sender, args=(n,)) for n in range(SENDERS)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    for connection in connections:
        connection.close()
    return polls


def p95(times: list[float]) -> float:
    return statistics.quantiles(times, n=20)[-1] if len(times) >= 20 else max(times)


def described(polls: list[tuple[float, float, int]]) -> str:
    times = [(end - start) * 1e3 for start, end, _status in polls]
    statuses: dict[int, int] = {}
    for _start, _end, status in polls:
        statuses[status] = statuses.get(status, 0) + 1
    return (
        f"{len(times)} polls, p50 {statistics.median(times):.1f} ms, p95 {p95(times):.1f} ms, "
        f"max {max(times):.1f} ms (answers {statuses})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--data", default="", help="the night's folder (kept and reused)")
    parser.add_argument("--port", type=int, default=8142)
    parser.add_argument("--rate", type=float, default=134.0, help="polls a second, in all")
    parser.add_argument("--seconds", type=float, default=20.0, help="each phase's length")
    parser.add_argument("--commands", type=int, default=5, help="fortyfives backup typed")
    args = parser.parse_args()
    folder = Path(args.data or tempfile.mkdtemp(prefix="bench-backup-")).resolve()
    for name in ("DATABASE_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"):
        os.environ.pop(name, None)
    make_night(folder)
    size = (folder / "db.sqlite3").stat().st_size
    print(f"data folder {folder}: the database {size / 1e6:.1f} MB")
    server = start_server(folder, args.port)
    target = Path(tempfile.mkdtemp(prefix="bench-usb-"))
    try:
        etags = poll_paths(folder, args.port)
        paced(args.port, etags, args.rate, 5.0)  # the server warmed up (its caches filled)
        alone = paced(args.port, etags, args.rate, args.seconds)
        print(f"polls without a backup: {described(alone)}")
        until = time.time() + args.seconds
        backups = subprocess.Popen(
            [sys.executable, "-c", BACKUPS, str(folder), str(target), str(until)],
            cwd=ROOT,
            env=os.environ | {"PYTHONPATH": str(ROOT)},
            stdout=subprocess.PIPE,
            text=True,
        )
        polls = paced(args.port, etags, args.rate, args.seconds)
        out, _ = backups.communicate(timeout=120)
        spans = [tuple(json.loads(line)) for line in out.splitlines() if line.strip()]
        took = [(end - start) * 1e3 for start, end in spans]
        during = [p for p in polls if any(p[0] < end and p[1] > start for start, end in spans)]
        print(
            f"backups during the polls: {len(took)}, each {statistics.median(took):.0f} ms "
            f"(median; max {max(took):.0f} ms)"
        )
        print(f"polls during a backup: {described(during)}")
        print(f"polls in the same {args.seconds:.0f} s, all: {described(polls)}")
        commands = []
        for _turn in range(args.commands):
            started = time.monotonic()
            fortyfives("backup", "--data-dir", str(folder), "--to", str(target))
            commands.append(time.monotonic() - started)
            for made in target.iterdir():
                made.unlink()
        print(
            f"fortyfives backup typed, the server serving: {statistics.median(commands):.2f} s "
            f"(median of {len(commands)}; Python's start and the copy)"
        )
    finally:
        server.terminate()
        server.wait(timeout=30)
        for made in target.iterdir():
            made.unlink()
        target.rmdir()


if __name__ == "__main__":
    main()
