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

Then what an idle page costs a minute on its event stream (config/events.py), against
``/livez`` polled at the page's own period, in the same run. For each kind, ``--phones``
phones split as the night's are (one table's page a table, the couples' pages for the rest:
250 and 500 of 750) and ``--screens`` desk grids and as many projectors (a hall has a few;
more here so that their cost stands above the machine's noise):

- *on their streams*: that many pages each hold their stream open (the server sends them only
  its pings, every 20 s: nothing changes) and make their safety poll (a 304, with the ETag of
  their fragment, each page on its own connection) every ``SAFETY_POLL`` seconds. The window
  is ``--window`` seconds (20 s: a ping each), shorter than that: each page's safety poll has
  its own moment of the period, spread evenly, and the window holds those that fall in it,
  ``window ÷ SAFETY_POLL`` of them: the safety polls counted pro rata;
- *livez*: as many clients, each on its own connection, ask ``/livez`` every
  ``data-poll-every`` seconds of that page (read from it: a table's 5 s, a couple's 6 s, the
  desk's and the projector's 3 s) over a window as long.

The windows follow one another (the server alone, then each kind's livez and streams) for
``--idle-rounds`` rounds; the server's CPU (its process and its children) is read around each
window. Per kind: CPU ms a page-minute and a livez client-minute, less the server's own when
nobody asks anything (measured in the same rounds), and page ÷ livez. Last, the server's
resident memory (psutil RSS of its process and children) with no stream open, then with
``--phones`` phones' streams open at once.

    python scripts/bench_idle_pages.py --data /tmp/night --rounds 0 --idle-rounds 3
"""

from __future__ import annotations

import argparse
import html
import http.client
import os
import re
import selectors
import socket
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

KINDS = ("livez", "table", "couple", "desk", "projector")
PAGES = ("table", "couple", "desk", "projector")
EVENTS_URL = re.compile(r'data-events-url="([^"]+)"')
POLL_EVERY = re.compile(r'data-poll-every="([0-9.]+)"')
SAFETY_POLL = 120.0  # static/js/poll.js: a page on its stream asks every 2 minutes all the same


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
    parser.add_argument(
        "--phones", type=int, default=750, help="idle phones' pages on their streams (750)"
    )
    parser.add_argument(
        "--screens", type=int, default=50, help="idle desk grids, and projectors, on theirs (50)"
    )
    parser.add_argument(
        "--window", type=float, default=20.0, help="seconds of each idle window (20: a ping)"
    )
    parser.add_argument("--idle-rounds", type=int, default=3, help="windows of each kind (3)")
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
        if args.rounds > 0:
            per_request(process, args, paths, headers)
        idle_pages(process, args, drive, headers)
    finally:
        server.terminate()
        server.wait(timeout=20)


def per_request(
    process: Any,
    args: argparse.Namespace,
    paths: dict[str, list[str]],
    headers: dict[str, dict[str, str]],
) -> None:
    """The server's CPU a 304 poll of each page kind and a request of /livez, at the same
    rate, with ``--idle`` other connections held open."""
    import bench_server_polls

    etags = first_etags(args.port, paths, headers)
    held = [bench_server_polls.open_idle(args.port) for _ in range(args.idle)]
    time.sleep(1.0)
    totals: dict[str, list[Any]] = {kind: [0, 0.0, {}] for kind in KINDS}
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


@dataclass
class Page:
    """An idle page: its fragment (with the ETag of its last answer), its stream, its period,
    and what its requests carry (gzip; the organizer's session for the desk and projector)."""

    fragment: str
    etag: str
    events: str
    every: float
    headers: dict[str, str]


def idle_pages(
    process: Any, args: argparse.Namespace, drive: Any, headers: dict[str, dict[str, str]]
) -> None:
    """An idle page's server CPU a minute on its event stream, against /livez polled at the
    page's period by as many clients, in the same run; the server's memory with and without
    the phones' streams open (see the module's docstring)."""
    tables = list(drive.tables.order_by("number"))
    couples = list(drive.couples.order_by("number"))
    phones_tables = min(len(tables), args.phones // 3)
    fragments = {
        "table": [f"/t/{t.token}/?partial=1" for t in tables[:phones_tables]],
        "couple": [f"/c/{c.token}/?partial=1" for c in couples[: args.phones - phones_tables]],
        "desk": [f"/drives/{drive.slug}/desk/?partial=grid"] * args.screens,
        "projector": [f"/drives/{drive.slug}/projector/?partial=1"] * args.screens,
    }
    pages = {kind: read_pages(args.port, paths, headers[kind]) for kind, paths in fragments.items()}
    # The memory first, before any stream was ever opened.
    phones = pages["table"] + pages["couple"]
    before = resident(process)
    streams = Streams(args.port, phones)
    time.sleep(3.0)
    after = resident(process)
    streams.close()
    memory = (
        f"server memory (RSS, process and children): {before / 2**20:.1f} MB with no stream "
        f"open, {after / 2**20:.1f} MB with {len(phones)} phones' streams open "
        f"({(after - before) / len(phones) / 1024:.1f} KB a stream)"
    )
    spent_alone, seconds_alone = 0.0, 0.0
    totals: dict[str, dict[str, Any]] = {
        kind: {"page": 0.0, "livez": 0.0, "seconds": 0.0, "told": {}, "answers": {}}
        for kind in PAGES
    }
    for turn in range(args.idle_rounds):
        time.sleep(2.0)
        spent_alone += window_alone(process, args.window)
        seconds_alone += args.window
        for kind in PAGES:
            total = totals[kind]
            every = pages[kind][0].every
            spent, answers = livez_window(process, args, len(pages[kind]), every)
            total["livez"] += spent
            add(total["answers"], {f"livez {s}": n for s, n in answers.items()})
            spent, told, answers = streams_window(process, args, pages[kind], turn)
            total["page"] += spent
            total["seconds"] += args.window
            add(total["told"], told)
            add(total["answers"], {f"safety poll {s}": n for s, n in answers.items()})
    alone = spent_alone / seconds_alone * 60 * 1e3  # ms a minute
    print(
        f"\nidle pages on their event streams against /livez at the page's period "
        f"(windows of {args.window:.0f} s, {args.idle_rounds} of each; the safety polls, one a "
        f"page every {SAFETY_POLL:.0f} s, spread: {args.window / SAFETY_POLL:.0%} of them in a "
        f"window); the server alone: {alone:.0f} ms CPU a minute, taken out of each figure; "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{'kind':<10} {'pages':>5} {'every':>5} {'page: CPU ms/min':>16} "
        f"{'livez: CPU ms/min':>17} {'page ÷ livez':>12}  streams told; answers"
    )
    for kind in PAGES:
        total, count = totals[kind], len(pages[kind])
        minutes = count * total["seconds"] / 60  # page-minutes (and livez client-minutes)
        alone_share = spent_alone / seconds_alone * total["seconds"]
        page = (total["page"] - alone_share) / minutes * 1e3
        livez = (total["livez"] - alone_share) / minutes * 1e3
        print(
            f"{kind:<10} {count:5d} {pages[kind][0].every:4.0f}s {page:16.3f} {livez:17.3f} "
            f"{page / livez:12.3f}  {total['told']}; {total['answers']}"
        )
    print(memory)


def add(into: dict[str, int], counts: dict[Any, int]) -> None:
    for key, number in counts.items():
        into[str(key)] = into.get(str(key), 0) + number


def read_pages(port: int, paths: list[str], headers: dict[str, str]) -> list[Page]:
    """Each fragment once (a 200): its ETag, its stream's address and its period."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    pages: list[Page] = []
    seen: dict[str, Page] = {}
    for path in paths:
        if path in seen:  # the desk's and the projector's screens: one page, many screens
            pages.append(seen[path])
            continue
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        body = response.read()
        assert response.status == 200, (path, response.status)
        if response.getheader("Content-Encoding") == "gzip":
            import gzip

            body = gzip.decompress(body)
        text = body.decode()
        events, every = EVENTS_URL.search(text), POLL_EVERY.search(text)
        if events is None or every is None:
            raise SystemExit(f"{path}: no event stream named (is PAGE_EVENTS on?)")
        seen[path] = Page(
            path,
            response.getheader("ETag") or "",
            html.unescape(events.group(1)),
            float(every.group(1)),
            headers,
        )
        pages.append(seen[path])
    connection.close()
    return pages


def resident(process: Any) -> int:
    """The server's resident memory: its process and its children (granian's worker)."""
    return sum(each.memory_info().rss for each in [process, *process.children(recursive=True)])


def window_alone(process: Any, seconds: float) -> float:
    import bench_server_polls

    before = bench_server_polls.cpu_of(process)
    time.sleep(seconds)
    return bench_server_polls.cpu_of(process) - before


class Streams:
    """Pages' event streams held open, each on its connection, read by one thread: what they
    are told, by kind (``ready``, ``ping``, ``changed``)."""

    def __init__(self, port: int, pages: list[Page]) -> None:
        self.told: dict[str, int] = {}
        self.selector = selectors.DefaultSelector()
        self.socks: list[socket.socket] = []
        self.lock = threading.Lock()
        self.done = threading.Event()
        for page in pages:
            sock = socket.create_connection(("127.0.0.1", port))
            extra = "".join(f"{k}: {v}\r\n" for k, v in page.headers.items() if k == "Cookie")
            sock.sendall(
                f"GET {page.events} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Accept: text/event-stream\r\nCache-Control: no-cache\r\n{extra}\r\n".encode()
            )
            sock.setblocking(False)
            self.socks.append(sock)
            self.selector.register(sock, selectors.EVENT_READ, [b""])
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()
        deadline = time.monotonic() + 60
        while self.count("ready") < len(pages):
            wrong = set(self.told) - {"ready", "ping", "changed"}
            if time.monotonic() > deadline or wrong:
                raise SystemExit(f"streams not opened: {self.told}")
            time.sleep(0.1)

    def count(self, kind: str) -> int:
        with self.lock:
            return self.told.get(kind, 0)

    def read(self) -> None:
        while not self.done.is_set():
            for key, _mask in self.selector.select(timeout=0.2):
                sock = cast(socket.socket, key.fileobj)
                try:
                    data = sock.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:
                    self.selector.unregister(sock)
                    self.tell("closed")
                    continue
                *lines, key.data[0] = (key.data[0] + data).split(b"\n")
                for line in lines:
                    if line.startswith(b"event: "):
                        self.tell(line[7:].strip().decode())
                    elif line.startswith(b"HTTP/1.1 ") and not line.startswith(b"HTTP/1.1 200"):
                        self.tell(f"answered {line[9:12].decode()}")

    def tell(self, kind: str) -> None:
        with self.lock:
            self.told[kind] = self.told.get(kind, 0) + 1

    def close(self) -> dict[str, int]:
        self.done.set()
        self.reader.join(timeout=5)
        for sock in self.socks:
            sock.close()
        self.selector.close()
        return self.told


def streams_window(
    process: Any, args: argparse.Namespace, pages: list[Page], turn: int
) -> tuple[float, dict[str, int], dict[int, int]]:
    """The pages on their streams for ``args.window`` seconds, nothing changing: each page's
    safety poll at its moment of the minute, those in the window made. The server's CPU
    seconds, what the streams were told in the window, the safety polls' answers."""
    import bench_server_polls

    streams = Streams(args.port, pages)
    time.sleep(2.0)  # the openings settled: the window holds only what an idle page costs
    told_before = dict(streams.told)
    count = len(pages)
    # Page i's safety poll at (i + ½) ÷ count of the minute, the minute's start turning each
    # round; the window holds those that fall in its first seconds.
    moments = sorted(
        (((i + 0.5) / count + turn * 0.37) % 1.0 * SAFETY_POLL, i) for i in range(count)
    )
    sends = [(moment, pages[i].fragment, i) for moment, i in moments if moment < args.window]
    connections = connect(args.port, sends)
    before = bench_server_polls.cpu_of(process)
    answers = send_at(connections, sends, pages, args.window)
    spent = bench_server_polls.cpu_of(process) - before
    for connection in connections.values():
        connection.close()
    told = streams.close()
    in_window = {k: n - told_before.get(k, 0) for k, n in told.items() if k != "ready"}
    return spent, {k: n for k, n in in_window.items() if n}, answers


def livez_window(
    process: Any, args: argparse.Namespace, clients: int, every: float
) -> tuple[float, dict[int, int]]:
    """``clients`` clients, each on its connection, asking /livez every ``every`` seconds
    (their moments spread evenly) for ``args.window`` seconds: the server's CPU seconds, the
    answers."""
    import bench_server_polls

    sends = []
    for client in range(clients):
        moment = (client + 0.5) / clients * every
        while moment < args.window:
            sends.append((moment, "/livez", client))
            moment += every
    sends.sort()
    connections = connect(args.port, sends)
    before = bench_server_polls.cpu_of(process)
    answers = send_at(connections, sends, None, args.window)
    spent = bench_server_polls.cpu_of(process) - before
    for connection in connections.values():
        connection.close()
    return spent, answers


def connect(port: int, sends: list[tuple[float, str, int]]) -> dict[int, Any]:
    """A connection for each client of ``sends`` (moment, path, client), opened."""
    clients = sorted({client for _m, _p, client in sends})
    connections = {
        client: http.client.HTTPConnection("127.0.0.1", port, timeout=30) for client in clients
    }
    for connection in connections.values():
        connection.connect()
    return connections


def send_at(
    connections: dict[int, Any],
    sends: list[tuple[float, str, int]],
    pages: list[Page] | None,
    seconds: float,
) -> dict[int, int]:
    """Each (moment, path, client) sent at its moment of the window on the client's own
    connection (kept alive), by 8 threads; returns after ``seconds``, with the answers."""
    senders = 8
    statuses: dict[int, int] = {}
    lock = threading.Lock()
    started = time.monotonic()

    def sender(offset: int) -> None:
        seen: dict[int, int] = {}
        for moment, path, client in sends[offset::senders]:
            time.sleep(max(0.0, started + moment - time.monotonic()))
            headers = {"Accept-Encoding": "gzip"}
            if pages is not None:
                page = pages[client]
                headers = {**page.headers, "If-None-Match": page.etag}
            connection = connections[client]
            connection.request("GET", path, headers=headers)
            response = connection.getresponse()
            response.read()
            seen[response.status] = seen.get(response.status, 0) + 1
        with lock:
            for status, number in seen.items():
                statuses[status] = statuses.get(status, 0) + number

    workers = [threading.Thread(target=sender, args=(n,)) for n in range(senders)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    time.sleep(max(0.0, started + seconds - time.monotonic()))
    return statuses


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
