"""What synchronous=FULL costs a result on the hall's SQLite, beside NORMAL, in one run.

    python scripts/bench_synchronous.py                  # SQLite file in a temporary folder
    python scripts/bench_synchronous.py --games 4 --folder /media/usb/bench
    python scripts/bench_synchronous.py --by game        # whole games take turns

A night of 500 couples (250 tables) is made through the services on a new SQLite file (WAL,
as on the hall), then every table's result is recorded through ``scoring.services.
result_record`` (the write behind the API's PUT and the desk's entry), game after game; the
tables take turns, one at synchronous=NORMAL and the next at FULL (the PRAGMA is the
connection's, set before each result), so that both see the same disk at the same moments;
``--by game``: whole games take turns instead (a FULL commit then never syncs what a NORMAL
one left in the WAL just before).
The figures are wall-clock milliseconds a result (an fsync is waiting, not CPU): median, 95th
percentile and mean for each, and what FULL adds. The folder is removed at the end.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MODES = ("NORMAL", "FULL")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games of 250 results (default 4)")
    parser.add_argument("--folder", type=Path, help="where the SQLite file goes (a temp folder)")
    parser.add_argument("--by", choices=["table", "game"], default="table", help="who takes turns")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="fortyfives-sync-", dir=args.folder))
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings.prod",
        DATABASE_URL=f"sqlite:///{folder / 'night.sqlite3'}",
        SECRET_KEY="bench-" + "x" * 60,
        ALLOWED_HOSTS="127.0.0.1",
        MEDIA_ROOT=str(folder / "media"),
    )
    os.environ.pop("CELERY_BROKER_URL", None)
    try:
        run(args.games, args.by)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run(games: int, by: str) -> None:
    import django

    django.setup()
    from datetime import date

    from django.core.management import call_command
    from django.db import connection

    from drives.models import AuditEntry
    from drives.services import Actor, club_create, couples_register, drive_create, drive_start
    from engine.rules import PRESETS
    from engine.scores import legal_final_scores
    from scoring.selectors import game_view
    from scoring.services import game_advance, result_record

    call_command("migrate", verbosity=0)
    desk = Actor(channel=AuditEntry.Channel.DESK)
    drive = drive_create(
        club=club_create(name="Bench club"),
        name="Bench night",
        date=date(2026, 11, 21),
        games=games + 1,
        actor=desk,
    )
    couples_register(
        drive=drive, couples=[{"players": [f"N{n}", f"S{n}"]} for n in range(500)], actor=desk
    )
    drive_start(drive=drive, actor=desk)
    score = list(legal_final_scores(PRESETS["cape-breton-45"])[1])
    taken: dict[str, list[float]] = {mode: [] for mode in MODES}
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        journal = cursor.fetchone()[0]
    for game in range(1, games + 1):
        view = game_view(drive, game)
        assert view is not None
        for turn, table in enumerate(view["tables"]):
            if table["stays"] is None:
                continue
            mode = MODES[(turn if by == "table" else game) % 2]
            with connection.cursor() as cursor:
                cursor.execute(f"PRAGMA synchronous={mode}")
            started = time.perf_counter()
            result_record(
                drive=drive,
                game=game,
                table=table["table"],
                winner=table["stays"],
                points=score,
                actor=desk,
            )
            taken[mode].append(time.perf_counter() - started)
        game_advance(drive=drive, game=game, actor=desk)
    print(f"SQLite {journal} journal, {games} games of 250 results, {by}s taking turns")
    for mode in MODES:
        times = sorted(taken[mode])
        p95 = times[int(0.95 * (len(times) - 1))]
        print(
            f"  synchronous={mode:<6} {len(times)} results: median "
            f"{statistics.median(times) * 1e3:.2f} ms, p95 {p95 * 1e3:.2f} ms, mean "
            f"{statistics.fmean(times) * 1e3:.2f} ms"
        )
    added = statistics.median(taken["FULL"]) - statistics.median(taken["NORMAL"])
    print(f"  FULL adds {added * 1e3:.2f} ms to a result's median")


if __name__ == "__main__":
    main()
