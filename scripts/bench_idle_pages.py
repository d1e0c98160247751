"""What an unchanged page costs the hall's real server against an empty Django view, side by
side in the same run: the server's CPU a request for a poll that finds nothing new (304) of
the table page, the couple page, the desk grid and the projector, and for ``/livez`` polled at
the same rate. The ratio page ÷ livez is what noise does not change (issue 33's goal: at most
0.1).

    python scripts/bench_idle_pages.py --data /tmp/night
    python scripts/bench_idle_pages.py --data /tmp/night --rate 120 --slice 2 --rounds 8

The night is scripts/bench_polls.py's (500 couples at 250 tables, game 1 with half its tables
reported; kept in ``--data`` and reused). The server is ``fortyfives hall`` on that folder, on
127.0.0.1, a process of its own (scripts/bench_server_polls.py starts it), with ``--idle``
other connections held open as the hall's phones keep theirs. Each kind is polled at
``--rate`` requests a second over 8 connections (the pages with the ETag of their last answer
and ``Accept-Encoding: gzip``, as static/js/poll.js does; the desk and the projector with an
organizer's session), in slices of ``--slice`` seconds taken in turn (livez, table, couple,
desk, projector, then again) for ``--rounds`` rounds, so that every kind sees the same load of
the machine; the server's CPU (its process and its children, psutil) is read around each
slice. Per kind: requests, answers, server CPU ms a request, and ÷ livez.
"""

from __future__ import annotations

import argparse
import http.client
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

KINDS = ("livez", "table", "couple", "desk", "projector")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--data", default="", help="the night's folder (kept and reused)")
    parser.add_argument("--port", type=int, default=8143)
    parser.add_argument("--rate", type=float, default=120.0, help="requests a second, each kind")
    parser.add_argument("--slice", type=float, default=2.0, help="seconds a slice")
    parser.add_argument("--rounds", type=int, default=8, help="slices of each kind")
    parser.add_argument("--idle", type=int, default=750, help="idle connections held open")
    parser.add_argument("--threads", type=int, default=8, help="the server's threads")
    parser.add_argument("--server-args", default="", help="more options for fortyfives hall")
    args = parser.parse_args()
    args.without, args.server = "", "hall"  # as scripts/bench_server_polls.py starts it
    import bench_server_polls

    folder = bench_server_polls.hall_settings(args.data)
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client

    from drives.models import Drive

    bench_polls = bench_server_polls.load_bench_polls()
    call_command("migrate", verbosity=0)
    drive = Drive.objects.filter(name="Bench night").first()
    if drive is None:
        call_command("collectstatic", verbosity=0, interactive=False)
        drive, _user = bench_polls.make_night(1)
    user = drive.club.memberships.get().user
    client = Client()
    client.force_login(user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    paths = {
        "livez": ["/livez"],
        "table": [f"/t/{t.token}/?partial=1" for t in drive.tables.order_by("number")[:100]],
        "couple": [f"/c/{c.token}/?partial=1" for c in drive.couples.order_by("number")[:100]],
        "desk": [f"/drives/{drive.slug}/desk/?partial=grid"],
        "projector": [f"/drives/{drive.slug}/projector/?partial=1"],
    }
    in_process(bench_polls, paths)
    server = bench_server_polls.start_server(folder, args)
    try:
        import psutil

        process = psutil.Process(server.pid)
        headers = {
            kind: {
                "Accept-Encoding": "gzip",
                **({"Cookie": cookie} if kind in ("desk", "projector") else {}),
            }
            for kind in KINDS
        }
        etags = first_etags(args.port, paths, headers)
        held = [bench_server_polls.open_idle(args.port) for _ in range(args.idle)]
        time.sleep(1.0)
        totals = {kind: [0, 0.0, {}] for kind in KINDS}
        for _round in range(args.rounds):
            for kind in KINDS:
                done, spent, statuses = paced(process, args, paths[kind], headers[kind], etags)
                total = totals[kind]
                total[0] += done
                total[1] += spent
                for status, number in statuses.items():
                    total[2][status] = total[2].get(status, 0) + number
        for sock in held:
            sock.close()
        livez = totals["livez"][1] / totals["livez"][0] * 1e3
        print(
            f"hall server (granian, {args.threads} threads), {args.idle} idle connections, "
            f"{args.rate:.0f} requests a second each kind, {args.rounds} slices of "
            f"{args.slice:.0f} s; load average {os.getloadavg()[0]:.1f}"
        )
        print(f"{'kind':<10} {'requests':>9} {'CPU ms a request':>17} {'÷ livez':>8}  answers")
        for kind in KINDS:
            done, spent, statuses = totals[kind]
            each = spent / done * 1e3
            print(f"{kind:<10} {done:9d} {each:17.3f} {each / livez:8.2f}  {statuses}")
    finally:
        server.terminate()
        server.wait(timeout=20)


def in_process(bench_polls: Any, paths: dict[str, list[str]]) -> None:
    """The same polls of the phones' pages and /livez, called in this process (no server):
    the application as the hall's server runs it (behind config/pollgate.py when
    ``POLL_GATE`` is on), CPU us a request (``time.process_time``)."""
    from django.conf import settings
    from django.core.wsgi import get_wsgi_application

    app: Any = get_wsgi_application()
    if getattr(settings, "POLL_GATE", False):  # not on the code before issue 33
        from config.pollgate import poll_gate

        app = poll_gate(app)

    def call(path: str, **headers: str) -> dict[str, str]:
        environ = bench_polls.wsgi_environ(path, headers)
        got: list[Any] = []
        b"".join(app(environ, lambda s, h, *a: got.append((s, dict(h)))))
        return {"status": got[0][0][:3], **got[0][1]}

    gzip = {"Accept-Encoding": "gzip"}
    figures = []
    for kind in ("livez", "table", "couple"):
        kind_paths = paths[kind][:20]
        etags = {p: call(p, **gzip).get("ETag", "") for p in kind_paths}
        count = 3000
        started = time.process_time()
        for turn in range(count):
            path = kind_paths[turn % len(kind_paths)]
            tag = etags[path]
            answer = call(path, **gzip, **({"If-None-Match": tag} if tag else {}))
        spent = (time.process_time() - started) / count * 1e6
        figures.append(f"{kind} {spent:.0f} us ({answer['status']})")
    gate = "behind the gate" if getattr(settings, "POLL_GATE", False) else "no gate"
    print(f"in-process ({gate}), CPU a request: " + ", ".join(figures))


def first_etags(
    port: int, paths: dict[str, list[str]], headers: dict[str, dict[str, str]]
) -> dict[str, str]:
    """Each page's ETag, from a first plain answer (a 200), as the page's first poll has."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    etags: dict[str, str] = {}
    for kind, kind_paths in paths.items():
        for path in kind_paths:
            connection.request("GET", path, headers=headers[kind])
            response = connection.getresponse()
            response.read()
            assert response.status == 200, (path, response.status)
            if kind != "livez":
                etags[path] = response.getheader("ETag") or ""
    connection.close()
    return etags


def paced(
    process: Any,
    args: argparse.Namespace,
    paths: list[str],
    headers: dict[str, str],
    etags: dict[str, str],
) -> tuple[int, float, dict[int, int]]:
    """``args.rate`` requests a second over 8 connections for ``args.slice`` seconds: requests,
    the server's CPU seconds, answers."""
    import bench_server_polls

    senders = 8
    connections = [
        http.client.HTTPConnection("127.0.0.1", args.port, timeout=30) for _ in range(senders)
    ]
    for connection in connections:
        connection.connect()
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    gap = senders / args.rate
    stop = time.monotonic() + args.slice

    def sender(offset: int) -> None:
        connection, turn, started = connections[offset], 0, time.monotonic()
        seen: dict[int, int] = {}
        while time.monotonic() < stop:
            path = paths[(offset + senders * turn) % len(paths)]
            tag = etags.get(path)
            connection.request(
                "GET", path, headers={**headers, **({"If-None-Match": tag} if tag else {})}
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
    before = bench_server_polls.cpu_of(process)
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    spent = bench_server_polls.cpu_of(process) - before
    for connection in connections:
        connection.close()
    return sum(statuses.values()), spent, statuses


if __name__ == "__main__":
    main()
