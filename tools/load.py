"""The load figures of BENCHMARKS.md ("Load"), played by locust (tools/locustfile.py).

Each command starts its own stack (tools/night.py: gunicorn with the production settings on a
new database, PostgreSQL with Redis or the SQLite default, dropped at the end), sets each run's
night up there (250 tables, 500 couples, started by number) and runs locust headless on it
(``python -m locust -f tools/locustfile.py --headless``, one process), which writes its CSV
files and its JSON stats beside a summary of the figures:

``steady``
    C clients on ``GET /livez`` (the minimal JSON view: the yardstick) then C clients submitting
    new results without pause, 15 s each after a warm-up: requests per second, p50/p95/p99,
    and the ratio of the two throughputs.
``night``
    A whole night, 250 tables × 25 games, every table's phone reporting the moment its game
    starts, 10 % sent again with the same key, 5 % followed by the other couple's winner; the
    organizer resolving the conflicts and advancing: end to end.
``hall``
    4 games of the same night with every phone reporting within the same 60 s of its game's
    start; with ``--pages``, every table's page, one couple's page in two, the desk and the
    projector open meanwhile, kept fresh as their scripts do.
``hall-night``
    The hall's real load, on the hall's own server (``--stack hall``: ``make hall``'s granian
    on SQLite) or the production stack: 250 tables, every couple's phone on its page, every
    table's phone on its own, 3 desks and the projector, each game played ``--play`` seconds
    and its results arriving within ``--spread`` seconds after, the organizer advancing;
    ``--games`` games of the night (time-compressed: a real game is played in some 5
    minutes). The server's own CPU time (psutil: the server process and its children), minute
    by minute, beside locust's percentiles, bytes and errors.

How the pages keep fresh is static/js/poll.js's (tools/locustfile.py): where the server tells
pages of changes (their live region names an event stream: the hall's server), each page holds
its stream open and asks for its fragment when told of a change, when its stream opens again
and once a minute; elsewhere, or with ``--no-push`` (the figures side by side), each polls its
fragment every few seconds (a couple's page 6 s, a table's 5 s, the desk and the projector
3 s). Each fragment is asked with the ETag of the last answer.
``figures``
    ``steady`` at 50 and 250 clients, ``night``, ``hall``, and 2 games of ``hall --pages``:
    the section in one command.

    python -m tools.load figures --stack postgres --out load-postgres
    python -m tools.load hall --stack sqlite --games 2 --tables 50
    python -m tools.load hall-night --stack hall --games 4 --play 30
    python -m tools.load hall-night --stack hall --games 4 --play 30 --no-push
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from tools.night import DEFAULT_POSTGRES_SERVER, LoadError, NightSetup, own_stack, set_up_night
from tools.stack import BASE_DIR, DEFAULT_BROKER_URL, Stack, StackError

LOCUSTFILE = Path(__file__).with_name("locustfile.py")


def run_locust(
    stack: Stack, setup: NightSetup, phase: str, out: Path, name: str, *options: str
) -> dict[str, Any]:
    """Play ``phase`` of the locustfile on the night; its summary, with the CSV and JSON
    files of locust's own stats left in ``out`` as ``<name>_*``."""
    out.mkdir(parents=True, exist_ok=True)
    night_file, summary = out / f"{name}-night.json", out / f"{name}-summary.json"
    night_file.write_text(json.dumps(dataclasses.asdict(setup)), encoding="utf-8")
    argv = [
        sys.executable,
        "-m",
        "locust",
        "-f",
        str(LOCUSTFILE),
        "--headless",
        "--host",
        stack.url,
        "--only-summary",
        "--loglevel",
        "WARNING",
        "--csv",
        str(out / name),
        "--json-file",
        str(out / f"{name}-stats"),
        "--night",
        str(night_file),
        "--phase",
        phase,
        "--summary",
        str(summary),
        *options,
    ]
    load_before = os.getloadavg()[0]
    started = time.monotonic()
    meter = CpuMeter(stack.web.pid if stack.web is not None else None)
    meter.start()
    try:
        done = subprocess.run(argv, cwd=BASE_DIR, timeout=3600, check=False)
    finally:
        meter.stop()
    if not summary.exists():
        raise LoadError(f"locust wrote no summary (exit {done.returncode}): {' '.join(argv)}")
    report: dict[str, Any] = json.loads(summary.read_text(encoding="utf-8"))
    report["locust_exit"] = done.returncode
    report["wall_seconds"] = round(time.monotonic() - started, 1)
    report["load_average"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
    report["server_cpu_by_minute"] = meter.by_minute()
    return report


class CpuMeter:
    """The server's CPU seconds (user + system of the server process and its children: the
    gunicorn master and its workers, or granian's process and its worker), read every second
    by psutil, summed minute by minute from the start."""

    def __init__(self, pid: int | None, every: float = 1.0) -> None:
        self.pid, self.every = pid, every
        self.samples: list[tuple[float, float]] = []
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.seen: dict[int, float] = {}  # each process's last reading (workers that exit)

    def read(self) -> float:
        import psutil

        try:
            root = psutil.Process(self.pid)
            processes = [root, *root.children(recursive=True)]
        except psutil.Error:
            return sum(self.seen.values())
        for process in processes:
            try:
                times = process.cpu_times()
            except psutil.Error:
                continue
            self.seen[process.pid] = times.user + times.system
        return sum(self.seen.values())

    def run(self) -> None:
        started = time.monotonic()
        while True:
            self.samples.append((time.monotonic() - started, self.read()))
            if self.done.wait(self.every):
                self.samples.append((time.monotonic() - started, self.read()))
                return

    def start(self) -> None:
        if self.pid is not None:
            self.thread.start()

    def stop(self) -> None:
        self.done.set()
        if self.thread.is_alive():
            self.thread.join(timeout=10)

    def by_minute(self) -> list[float]:
        """CPU seconds used in each minute of the run (the last one may be partial)."""
        if len(self.samples) < 2:
            return []
        first = self.samples[0][1]
        out: list[float] = []
        for moment, total in self.samples:
            minute = int(moment // 60)
            while len(out) <= minute:
                out.append(0.0)
            out[minute] = total - first - sum(out[:minute])
        return [round(value, 2) for value in out]


def steady(stack: Stack, args: argparse.Namespace, clients: int) -> dict[str, Any]:
    setup = set_up_night(stack, tables=args.tables, games=60, name=f"Steady {clients}")
    report = run_locust(
        stack,
        setup,
        "steady",
        args.out,
        f"steady-{clients}",
        "--clients",
        str(clients),
        "--seconds",
        str(args.seconds),
        "--warmup",
        str(args.warmup),
    )
    results, livez = report.get("results", {}), report.get("livez", {})
    advance = report.get("advance", {"total_ms": 0})
    between = results.get("seconds", 0) - advance["total_ms"] / 1000
    results["per_second_between_advances"] = round(results.get("requests", 0) / between, 1)
    report["ratio_results_to_livez"] = round(
        results.get("per_second", 0) / max(livez.get("per_second", 0), 1e-9), 3
    )
    return report


def night(
    stack: Stack, args: argparse.Namespace, phase: str, games: int, pages: bool = False
) -> dict[str, Any]:
    name = {"night": "Load night", "hall": "Hall night"}[phase] + (" with pages" if pages else "")
    setup = set_up_night(stack, tables=args.tables, games=games, name=name)
    options = ["--retry", str(args.retry), "--conflict", str(args.conflict)]
    if phase == "hall":
        options += ["--spread", str(args.spread), "--play", str(args.play)]
    if pages:
        couples = args.couple_phones if args.couple_phones is not None else args.tables
        options += ["--pages", "--couple-phones", str(couples), "--desks", str(args.desks)]
        options += [] if args.push else ["--no-push"]
    label = f"{phase}-pages" if pages else phase
    report = run_locust(stack, setup, phase, args.out, label, *options)
    report["drive_check"] = stack.manage("drive", "check", setup.slug).stdout.strip()
    return report


# --- printing ----------------------------------------------------------------------------------

HEADER = f"{'':<36} {'reqs':>7} {'req/s':>8} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'fails':>6}"


def row(label: str, f: dict[str, Any], per_second: Any = "") -> str:
    return (
        f"{label:<36} {f.get('requests', 0):>7} {per_second:>8} {f.get('p50_ms', 0):>7} "
        f"{f.get('p95_ms', 0):>7} {f.get('p99_ms', 0):>7} {f.get('failures', 0):>6}"
    )


def print_steady(report: dict[str, Any], backend: str) -> None:
    results, livez = report.get("results", {}), report.get("livez", {})
    print(f"\n{backend}, steady, {report['clients']} clients (load {report['load_average']})")
    print(HEADER)
    print(row("result PUT (advances included)", results, results.get("per_second")))
    print(row("  between advances", results, results.get("per_second_between_advances")))
    print(row("GET /livez", livez, livez.get("per_second")))
    print(
        f"ratio results/livez {report['ratio_results_to_livez']:.2f}; "
        f"{report.get('games_advanced', 0)} advances; failures {report['failures']}"
    )


def print_hall_night(report: dict[str, Any], backend: str) -> None:
    """The hall night's own figures: the server's CPU and the bytes, minute by minute."""
    print_night(report, backend)
    cpu = report.get("server_cpu_by_minute", [])
    sent = report.get("bytes_by_minute", [])
    full = cpu[:-1] or cpu  # the last minute is partial
    if full:
        print(
            f"server CPU s a minute: average {sum(cpu) / max(len(cpu), 1):.1f} over {len(cpu)} "
            f"minutes ({sum(cpu):.1f} s in all, {sum(cpu) / 60 / max(len(cpu), 1):.0%} of a "
            f"core), busiest minute {max(full):.1f}"
        )
    print("  CPU s by minute: " + " ".join(f"{v:.1f}" for v in cpu))
    if sent:
        print(
            f"bytes sent a minute (bodies): average {sum(sent) / len(sent) / 1e6:.2f} MB, "
            f"busiest {max(sent) / 1e6:.2f} MB"
        )
    print(row("all polls", report.get("all_polls", {})))


def print_streams(report: dict[str, Any]) -> None:
    """How the pages kept fresh: on their streams or polling, and why they asked."""
    on_streams = report.get("pages_on_streams", 0)
    how = f"{on_streams} pages on their event streams" if on_streams else "every page polling"
    if not report.get("push", True):
        how += " (--no-push)"
    print(
        f"{how}; stream events {report.get('stream_events', {})}, "
        f"broken {report.get('stream_breaks', 0)}"
    )
    print(f"fragments asked for, by reason: {report.get('fetches_by_reason', {})}")


def print_night(report: dict[str, Any], backend: str) -> None:
    spread = report.get("spread_seconds") or 0
    how = f"each game's results within {spread:g} s" if spread else "all at once"
    if report.get("pages"):
        streams = report.get("pages_on_streams")
        how += ", every page on its event stream" if streams else ", every page polling"
    print(
        f"\n{backend}, {report['phase']}: {report['tables']} tables, {report['games']} games, "
        f"{how}: {report['seconds']} s end to end (load {report['load_average']})"
    )
    print(HEADER)
    print(row("all result PUTs", report["all_results"], report["results_per_second"]))
    for name, f in report["by_name"].items():
        print(row(f"  {name}", f))
    print(
        f"acknowledged {report['acknowledged']}, conflicts {report['conflicts']}, "
        f"failures {report['failures']}, anomalies {len(report['anomalies'])}"
    )
    if report.get("pages"):
        print_streams(report)
    for line in report["anomalies"][:10]:
        print(f"  ! {line}")
    print(report["drive_check"])


# --- the command ---------------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    main = argparse.ArgumentParser(
        prog="python -m tools.load", description="The load figures, played by locust."
    )
    main.add_argument("mode", choices=["figures", "steady", "night", "hall", "hall-night"])
    main.add_argument(
        "--stack",
        choices=["postgres", "sqlite", "hall"],
        required=True,
        help="hall: make hall's server (granian, SQLite); sqlite/postgres: gunicorn",
    )
    main.add_argument(
        "--postgres", default=DEFAULT_POSTGRES_SERVER, help="the server for --stack postgres"
    )
    main.add_argument(
        "--broker-url",
        help=f"with --stack postgres by default {DEFAULT_BROKER_URL} (broker and cache, as in "
        'production); with sqlite "none"',
    )
    main.add_argument("--port", type=int, help="the server's port on 127.0.0.1 (a free one)")
    main.add_argument(
        "--database", help="postgres: the database to create and drop (fortyfives_load_<pid>)"
    )
    main.add_argument("--workers", type=int, help="gunicorn workers (2 × cores, SQLite 1 ×)")
    main.add_argument(
        "--worker-class",
        choices=["gthread", "sync"],
        help="gunicorn's worker class (config/gunicorn.py's: gthread)",
    )
    main.add_argument("--threads", type=int, help="threads a gthread worker (4)")
    main.add_argument("--tables", type=int, default=250, help="tables (250)")
    main.add_argument("--clients", default="50,250", help="steady: concurrencies (50,250)")
    main.add_argument("--seconds", type=float, default=15.0, help="steady: a phase (15)")
    main.add_argument("--warmup", type=float, default=4.0, help="steady: warm-up (4)")
    main.add_argument("--games", type=int, help="night: 25, hall: 4 (figures: both)")
    main.add_argument("--spread", type=float, default=60.0, help="hall: seconds (60)")
    main.add_argument("--play", type=float, help="hall: seconds a game is played (hall-night 30)")
    main.add_argument("--desks", type=int, default=1, help="--pages: desks (hall-night 3)")
    main.add_argument("--pages", action="store_true", help="hall: every page open meanwhile")
    main.add_argument(
        "--no-push",
        dest="push",
        action="store_false",
        help="--pages, hall-night: every page polls, even where the server tells pages of "
        "changes (as before the event streams: the figures side by side)",
    )
    main.add_argument("--pages-games", type=int, default=2, help="figures: hall --pages (2)")
    main.add_argument("--couple-phones", type=int, help="--pages: couples polling (= tables)")
    main.add_argument("--retry", type=float, default=0.10, help="same-key retries (0.10)")
    main.add_argument("--conflict", type=float, default=0.05, help="second results (0.05)")
    main.add_argument("--out", type=Path, help="locust's files (default: a temporary folder)")
    main.add_argument("--json", metavar="FILE", help="write every figure here as JSON")
    return main


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.mode == "hall-night":  # the hall's real load: every page, every phone
        args.pages = True
        args.desks = max(args.desks, 3)
        args.couple_phones = args.couple_phones or 2 * args.tables
        args.play = 30.0 if args.play is None else args.play
        args.games = args.games or 4
    args.play = args.play or 0.0
    args.out = args.out or Path(tempfile.mkdtemp(prefix="fortyfives-locust-"))
    broker = args.broker_url or (DEFAULT_BROKER_URL if args.stack == "postgres" else None)
    broker = None if broker and broker.lower() == "none" else broker
    summary: dict[str, Any] = {
        "mode": args.mode,
        "backend": args.stack,
        "machine_cores": os.cpu_count(),
        "broker": broker,
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    try:
        with own_stack(
            args.stack,
            postgres_server=args.postgres,
            broker_url=broker,
            workers=args.workers,
            worker_class=args.worker_class,
            threads=args.threads,
            database_name=args.database,
            port=args.port,
        ) as stack:
            summary["web_workers"] = stack.config.web_workers
            summary["web_worker_class"] = args.worker_class or "config/gunicorn.py's"
            summary["web_threads"] = args.threads
            print(
                f"{args.stack} at {stack.url}, {stack.config.web_workers} server process(es); "
                f"locust's files in {args.out}"
            )
            if args.mode in ("figures", "steady"):
                summary["steady"] = []
                for clients in [int(c) for c in args.clients.split(",") if c.strip()]:
                    summary["steady"].append(steady(stack, args, clients))
                    print_steady(summary["steady"][-1], args.stack)
            if args.mode in ("figures", "night"):
                games = args.games if args.mode == "night" and args.games else 25
                summary["night"] = night(stack, args, "night", games)
                print_night(summary["night"], args.stack)
            if args.mode in ("figures", "hall"):
                games = args.games if args.mode == "hall" and args.games else 4
                summary["hall"] = night(stack, args, "hall", games, pages=args.pages)
                print_night(summary["hall"], args.stack)
            if args.mode == "hall-night":
                summary["hall_night"] = night(stack, args, "hall", args.games, pages=True)
                print_hall_night(summary["hall_night"], args.stack)
            if args.mode == "figures" and args.pages_games > 0:
                summary["hall_pages"] = night(stack, args, "hall", args.pages_games, pages=True)
                print_night(summary["hall_pages"], args.stack)
    except (StackError, LoadError) as error:
        print(f"tools.load: {error}", file=sys.stderr)
        return 1
    summary["finished"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
        print(f"figures written to {args.json}")
    kinds = ("night", "hall", "hall_pages", "hall_night")
    runs = [*summary.get("steady", []), *(summary.get(k) for k in kinds)]
    return 1 if any(r and (r["failures"] or r["anomalies"]) for r in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
