"""What a phone's 304 costs through the hall's real server (``make hall``: granian), beside the
same poll called in-process: where the CPU of a night of 304s goes.

    python scripts/bench_server_polls.py --data /tmp/bench-night
    python scripts/bench_server_polls.py --data /tmp/bench-night --idle 0,750 --requests 3000

The night is scripts/bench_polls.py's (500 couples at 250 tables, kept in ``--data`` and
reused). The server is ``fortyfives hall`` on that folder, on 127.0.0.1, in a process of
its own; its CPU time (the process and its children: granian's worker) is read with psutil
before and after the polls. For each count of
``--idle`` connections (opened first and left open, as every phone in the hall keeps its own
between polls), ``--clients`` connections send ``--requests`` conditional polls of the couples'
pages in all (``If-None-Match`` with the ETag of the page, ``Accept-Encoding: gzip``, as
static/js/poll.js does), as fast as answered: the server's CPU ms a 304. In-process: Django's
WSGI handler called directly with the same requests (``time.process_time``).
"""

from __future__ import annotations

import argparse
import http.client
import importlib.util
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def hall_settings(data: str | None) -> Path:
    """Django set up on the hall's settings and the night's folder (``data``, or a new one),
    as the hall's server runs: its folder."""
    folder = Path(data or tempfile.mkdtemp(prefix="fortyfives-bench-")).resolve()
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings.hall",
        HALL_DATA_DIR=str(folder),
        ALLOWED_HOSTS="127.0.0.1",
    )
    import warnings

    warnings.filterwarnings("ignore", message="No directory at")
    import django

    django.setup()
    return folder


def load_bench_polls() -> Any:
    spec = importlib.util.spec_from_file_location("bench_polls", ROOT / "scripts/bench_polls.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--data", default="", help="the night's folder (kept and reused)")
    parser.add_argument("--port", type=int, default=8141)
    parser.add_argument("--idle", default="0,750", help="idle connections held open, per run")
    parser.add_argument("--clients", type=int, default=4, help="connections sending the polls")
    parser.add_argument("--requests", type=int, default=3000, help="polls a run, in all")
    parser.add_argument("--threads", type=int, default=8, help="the server's threads")
    parser.add_argument("--server-args", default="", help="more options for fortyfives hall")
    parser.add_argument(
        "--server",
        choices=["hall", "waitress"],
        default="hall",
        help="fortyfives hall (granian), or waitress as it served before (pip install "
        "waitress first): the two side by side",
    )
    parser.add_argument(
        "--paced",
        type=float,
        default=0.0,
        help="also: 750 connections (every phone's) polling this many times a second in all, "
        "as a hall's phones do (134: 500 couples every 6 s, 250 tables every 5 s)",
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="--paced: how long")
    parser.add_argument(
        "--profile", action="store_true", help="cProfile the in-process 304s, then stop"
    )
    parser.add_argument(
        "--without",
        default="",
        help="a middleware to leave out (dotted path), in-process and in the server: the "
        "figures with and without it side by side",
    )
    args = parser.parse_args()
    folder = hall_settings(args.data)
    from django.core.management import call_command
    from django.core.wsgi import get_wsgi_application

    bench_polls = load_bench_polls()

    from drives.models import Drive

    call_command("migrate", verbosity=0)
    drive = Drive.objects.filter(name="Bench night").first()
    if drive is None:
        call_command("collectstatic", verbosity=0, interactive=False)
        drive, _user = bench_polls.make_night(1)
    paths = [f"/c/{c.token}/?partial=1" for c in drive.couples.order_by("number")[:200]]

    from django.conf import settings

    if args.without:
        settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if m != args.without]
    app = get_wsgi_application()

    def call(path: str, **headers: str) -> tuple[str, dict[str, str]]:
        environ = bench_polls.wsgi_environ(path, headers)
        got: list[Any] = []
        b"".join(app(environ, lambda s, h, *a: got.append((s, dict(h)))))  # type: ignore[arg-type]  # WSGI start_response
        return got[0][0], got[0][1]

    etags = {path: call(path, **{"Accept-Encoding": "gzip"})[1]["ETag"] for path in paths}
    gzip = {"Accept-Encoding": "gzip"}
    for path in paths:
        assert call(path, **{"If-None-Match": etags[path], **gzip})[0].startswith("304")
    count = max(args.requests // 3, 200)

    def in_process_polls() -> None:
        for turn in range(count):
            path = paths[turn % len(paths)]
            call(path, **{"If-None-Match": etags[path], **gzip})

    if args.profile:
        import cProfile
        import pstats

        profile = cProfile.Profile()
        profile.runcall(in_process_polls)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)
        return
    started = time.process_time()
    in_process_polls()
    in_process = (time.process_time() - started) / count * 1e3
    print(f"in-process (WSGI handler, no server): {in_process:.3f} ms CPU a 304")
    # The poll key's query alone, as the ORM builds it each time.
    from scoring.pages import conditional

    tokens = [path.split("/")[2] for path in paths]
    started = time.process_time()
    for turn in range(count):
        conditional.phone_key("couple", tokens[turn % len(tokens)])
    spent = (time.process_time() - started) / count * 1e3
    print(f"  the poll key's query: {spent:.3f} ms CPU")

    server = start_server(folder, args)
    try:
        import psutil

        process = psutil.Process(server.pid)
        for idle in [int(n) for n in args.idle.split(",") if n.strip()]:
            held = [open_idle(args.port) for _ in range(idle)]
            time.sleep(1.0)
            spent, seconds, statuses = polls(process, args, paths, etags)
            for sock in held:
                sock.close()
            time.sleep(1.0)
            print(
                f"{args.server}, {idle:4d} idle connections, {args.clients} polling: "
                f"{spent / args.requests * 1e3:.3f} ms CPU a 304 "
                f"({args.requests / seconds:.0f} a second; answers {statuses})"
            )
        if args.paced:
            done, spent, seconds, statuses = paced(process, args, paths, etags)
            print(
                f"{args.server}, 750 connections polling {done / seconds:.0f} a second: "
                f"{spent / done * 1e3:.3f} ms CPU a 304, {spent / seconds * 60:.1f} CPU s a "
                f"minute (answers {statuses})"
            )
    finally:
        server.terminate()
        server.wait(timeout=20)


# fortyfives hall, with one middleware left out: settings of the hall's, less that middleware, named
# in the environment its worker process inherits.
WITHOUT = """
import os, sys, tempfile
from fortyfives import hall
from fortyfives.cli import main
prepare = hall.prepare
def without(*args, **kwargs):
    prepare(*args, **kwargs)
    folder = tempfile.mkdtemp(prefix="bench-settings-")
    with open(os.path.join(folder, "bench_without_settings.py"), "w") as module:
        module.write("from config.settings.hall import *\\n")
        module.write("MIDDLEWARE = [m for m in MIDDLEWARE if m != %r]\\n" % {middleware!r})
    sys.path.insert(0, folder)
    os.environ["PYTHONPATH"] = os.pathsep.join([folder, os.environ.get("PYTHONPATH", "")])
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench_without_settings"
hall.prepare = without
sys.exit(main(["hall", *sys.argv[1:]]))
"""


# waitress as fortyfives hall served with it before granian: the same application and settings.
WAITRESS = """
import sys
import waitress
from fortyfives import hall
from fortyfives.cli import main
def serve(address, port, threads):
    from django.core.wsgi import get_wsgi_application
    waitress.serve(get_wsgi_application(), listen=f"127.0.0.1:{port}", threads=threads,
                   connection_limit=1000, channel_timeout=30)
hall.serve = serve
sys.exit(main(["hall", *sys.argv[1:]]))
"""


def start_server(folder: Path, args: argparse.Namespace) -> subprocess.Popen[bytes]:
    runner = os.environ.get("BENCH_SERVER_RUNNER")  # e.g. a profiler's wrapper of fortyfives hall
    start = [runner] if runner else ["-m", "fortyfives", "hall"]
    if args.without:
        start = ["-c", WITHOUT.format(middleware=args.without)]
    if args.server == "waitress":
        start = ["-c", WAITRESS]
    argv = [
        sys.executable,
        *start,
        "--address",
        "127.0.0.1",
        "--port",
        str(args.port),
        "--data-dir",
        str(folder),
        "--threads",
        str(args.threads),
        "--no-browser",
        *args.server_args.split(),
    ]
    server = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", args.port), timeout=1).close()
            return server
        except OSError:
            time.sleep(0.5)
    server.terminate()
    raise SystemExit("the hall's server did not start")


def open_idle(port: int) -> socket.socket:
    """A connection that asked once (a 304 poll of /livez) and now waits, as a phone does."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.sendall(b"GET /livez HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    sock.recv(65536)
    return sock


def cpu_of(process: Any) -> float:
    """CPU seconds of the server's process and its children (granian's worker)."""
    spent = 0.0
    for each in [process, *process.children(recursive=True)]:
        times = each.cpu_times()
        spent += times.user + times.system
    return spent


def paced(
    process: Any, args: argparse.Namespace, paths: list[str], etags: dict[str, str]
) -> tuple[int, float, float, dict[int, int]]:
    """750 connections, each polling in turn at ``args.paced`` polls a second in all, for
    ``args.seconds``: polls, CPU seconds, seconds, answers."""
    connections = [
        http.client.HTTPConnection("127.0.0.1", args.port, timeout=30) for _ in range(750)
    ]
    for connection in connections:
        connection.connect()
    senders = 15
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    stop = time.monotonic() + args.seconds
    gap = senders / args.paced  # each sender's pause between its polls

    def sender(offset: int) -> None:
        mine, turn, started = connections[offset::senders], 0, time.monotonic()
        seen: dict[int, int] = {}
        while time.monotonic() < stop:
            path = paths[(offset + senders * turn) % len(paths)]
            connection = mine[turn % len(mine)]
            connection.request(
                "GET", path, headers={"If-None-Match": etags[path], "Accept-Encoding": "gzip"}
            )
            response = connection.getresponse()
            response.read()
            seen[response.status] = seen.get(response.status, 0) + 1
            turn += 1
            time.sleep(max(0.0, started + turn * gap - time.monotonic()))
        with lock:
            for status, number in seen.items():
                statuses[status] = statuses.get(status, 0) + number

    workers = [threading.Thread(target=sender, args=(n,)) for n in range(senders)]
    before, started = cpu_of(process), time.monotonic()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    spent, seconds = cpu_of(process) - before, time.monotonic() - started
    for connection in connections:
        connection.close()
    return sum(statuses.values()), spent, seconds, statuses


def polls(
    process: Any, args: argparse.Namespace, paths: list[str], etags: dict[str, str]
) -> tuple[float, float, dict[int, int]]:
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    each = args.requests // args.clients

    def client(offset: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", args.port, timeout=30)
        seen: dict[int, int] = {}
        for turn in range(each):
            path = paths[(offset + turn) % len(paths)]
            connection.request(
                "GET", path, headers={"If-None-Match": etags[path], "Accept-Encoding": "gzip"}
            )
            response = connection.getresponse()
            response.read()
            seen[response.status] = seen.get(response.status, 0) + 1
        connection.close()
        with lock:
            for status, number in seen.items():
                statuses[status] = statuses.get(status, 0) + number

    def cpu() -> float:
        return cpu_of(process)

    workers = [threading.Thread(target=client, args=(n * 37,)) for n in range(args.clients)]
    before, started = cpu(), time.monotonic()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return cpu() - before, time.monotonic() - started, statuses


if __name__ == "__main__":
    main()
