"""Play a whole simulated night through the services and time it, game by game.

    python scripts/bench_night.py                       # 500 couples (250 tables), 25 games
    python scripts/bench_night.py --couples 100 --games 10 --profile
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/NAME python scripts/bench_night.py

Each table's winner and final points come from the engine's bots
(``engine.simulate.simulate_table_game``, seeded); every result goes through
``scoring.services.result_record`` and every game through ``game_advance``, as the desk would
send them. The standings and the desk's view of the game are read after each game. The time
spent simulating the games is measured apart and left out of the service figures.

The night is played in a database of its own, created and destroyed by Django's test
machinery: on SQLite a file in a temporary folder (the embedded default, WAL and IMMEDIATE
transactions as configured), on PostgreSQL a ``test_NAME`` database beside the one named in
DATABASE_URL. Nothing is written to the project's own database. Settings default to
``config.settings.test`` (DEBUG off). Copying the figures into BENCHMARKS.md with the
machine described is left to the person running it.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
READS = 20  # repeated reads of the finished night, for a median


def timed(action: Callable[[], T]) -> tuple[T, float]:
    start = time.perf_counter()
    value = action()
    return value, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--couples", type=int, default=500)
    parser.add_argument("--games", type=int, default=25)
    parser.add_argument("--ruleset", default="cape-breton-45")
    parser.add_argument("--movement", choices=["winners-move", "losers-move"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quiet", action="store_true", help="no line per game")
    parser.add_argument("--profile", action="store_true", help="print the cProfile top 25")
    args = parser.parse_args(argv)

    import django

    django.setup()
    from django.db import connection

    folder = None
    if connection.vendor == "sqlite":
        folder = tempfile.TemporaryDirectory(prefix="bench-night-")
        connection.settings_dict["TEST"]["NAME"] = str(Path(folder.name) / "night.sqlite3")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        profiler = cProfile.Profile() if args.profile else None
        if profiler is not None:
            profiler.enable()
        play(args, describe=f"{connection.vendor} {connection.settings_dict['NAME']}")
        if profiler is not None:
            profiler.disable()
            pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        if folder is not None:
            folder.cleanup()
    return 0


def play(args: argparse.Namespace, *, describe: str) -> None:
    from datetime import date

    from drives.models import AuditEntry
    from drives.services import (
        Actor,
        club_create,
        couples_register,
        drive_close,
        drive_create,
        drive_start,
    )
    from engine.rules import get_ruleset
    from engine.simulate import simulate_table_game
    from scoring.records.export import drive_export
    from scoring.selectors import game_view, standings_for_drive
    from scoring.services import game_advance, result_record

    desk = Actor(channel=AuditEntry.Channel.DESK)
    club = club_create(name="Benchmark Parish", actor=desk)
    settings: dict[str, Any] = {"games": args.games, "ruleset": args.ruleset}
    if args.movement:
        settings["movement"] = args.movement
    drive = drive_create(
        club=club, actor=desk, name="Benchmark night", date=date(2026, 11, 20), **settings
    )
    _, setup_time = timed(
        lambda: (
            couples_register(
                drive=drive,
                couples=[{"players": [f"N{i}", f"S{i}"]} for i in range(args.couples)],
                actor=desk,
            ),
            drive_start(drive=drive, actor=desk),
        )
    )
    rules = get_ruleset(args.ruleset)
    rng = random.Random(args.seed)
    tables = (args.couples + 1) // 2
    print(
        f"Night: {args.couples} couples, {tables} tables, {args.games} games, {args.ruleset}, "
        f"seed {args.seed}; {describe}; Python {platform.python_version()} "
        f"({platform.machine()})"
    )
    if not args.quiet:
        print(
            f"{'game':>4} {'results':>6} {'record s':>9} {'ms/result':>9} "
            f"{'advance ms':>10} {'standings ms':>12} {'view ms':>8}"
        )
    simulate_total = record_total = 0.0
    advances: list[float] = []
    per_result: list[float] = []
    standings_times: list[float] = []
    views: list[float] = []
    results = 0
    for game in range(1, args.games + 1):
        view, view_time = timed(lambda game=game: game_view(drive, game))
        assert view is not None
        views.append(view_time)
        start = time.perf_counter()
        played = [
            simulate_table_game(rules, rng, t["stays"], t["arrives"])
            for t in view["tables"]
            if not t["sit_out"]
        ]
        simulate_total += time.perf_counter() - start
        seats = [t for t in view["tables"] if not t["sit_out"]]
        start = time.perf_counter()
        for seat, outcome in zip(seats, played, strict=True):
            result_record(
                drive=drive,
                game=game,
                table=seat["table"],
                winner=outcome.winner,
                points=list(outcome.points),
                confirm_unusual=True,
                actor=desk,
            )
        record_time = time.perf_counter() - start
        record_total += record_time
        results += len(seats)
        per_result.append(record_time / max(len(seats), 1))
        advance_time = 0.0
        if game < args.games:
            (status, _), advance_time = timed(
                lambda game=game: game_advance(drive=drive, game=game, actor=desk)
            )
            assert status == 201
            advances.append(advance_time)
        rows, standings_time = timed(lambda: standings_for_drive(drive))
        standings_times.append(standings_time)
        if not args.quiet:
            print(
                f"{game:>4} {len(seats):>6} {record_time:>9.2f} {1000 * per_result[-1]:>9.2f} "
                f"{1000 * advance_time:>10.1f} {1000 * standings_time:>12.1f} "
                f"{1000 * view_time:>8.1f}"
            )
    drive.refresh_from_db()
    _, close_time = timed(lambda: drive_close(drive=drive, actor=desk))
    export, export_time = timed(lambda: drive_export(drive))
    assert len(export["games"]) == args.games and len(rows) == args.couples
    services = setup_time + record_total + sum(advances) + close_time
    print(
        f"Through the services: {services:.1f} s for the night "
        f"(register and start {setup_time:.2f} s; {results} results in {record_total:.1f} s, "
        f"{1000 * statistics.mean(per_result):.2f} ms each; {len(advances)} advances in "
        f"{sum(advances):.2f} s; close {1000 * close_time:.0f} ms)."
    )
    if advances:
        print(
            f"Advance: mean {1000 * statistics.mean(advances):.1f} ms, median "
            f"{1000 * statistics.median(advances):.1f} ms, max {1000 * max(advances):.1f} ms."
        )
    final = [timed(lambda: standings_for_drive(drive))[1] for _ in range(READS)]
    last_view = [timed(lambda: game_view(drive, args.games))[1] for _ in range(READS)]
    print(
        f"Standings of {args.couples} couples after the last game, {READS} reads: median "
        f"{1000 * statistics.median(final):.1f} ms (min {1000 * min(final):.1f}, max "
        f"{1000 * max(final):.1f}); after each game: median "
        f"{1000 * statistics.median(standings_times):.1f} ms."
    )
    print(
        f"Game view of {tables} tables, last game, {READS} reads: median "
        f"{1000 * statistics.median(last_view):.1f} ms (before each game: median "
        f"{1000 * statistics.median(views):.1f} ms). Export of the night: {export_time:.2f} s."
    )
    print(
        f"Simulating the {results} games with the engine's bots (not counted): "
        f"{simulate_total:.1f} s."
    )


if __name__ == "__main__":
    raise SystemExit(main())
