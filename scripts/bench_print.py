"""Time the full print set of a big night, and one couple's punch card on demand.

    python scripts/bench_print.py                   # 500 couples (250 tables), 25 games
    python scripts/bench_print.py --rounds 5        # the set and the single card 5 times
    python scripts/bench_print.py --couples 100 --paper a4 --profile

The night (couples registered, the first games played through the services) lives in a
database of its own, created and destroyed by Django's test machinery as in
scripts/bench_night.py. The print set is 500 punch cards, 250 table cards, 250 score sheets and
the results. ``build`` (ORM → plain data) is timed apart from ``render`` (data → PDF bytes).
One couple's punch card on demand is timed whole, as the desk's button asks for it: build
(``couple=N``, with the recorded wins) and render. For information, a bare reportlab loop
draws the same number of simple pages (a title, a number, a few lines of text and a box each,
one canvas, compressed). Each round starts with no QR code cached, as a fresh worker does,
and each timed part with the garbage collected.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import os
import platform
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SET = ("punch-cards", "table-cards", "score-sheets", "results")


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--couples", type=int, default=500)
    parser.add_argument("--games", type=int, default=25)
    parser.add_argument("--played", type=int, default=3, help="games played before printing")
    parser.add_argument("--paper", choices=["letter", "a4"], default="letter")
    parser.add_argument(
        "--rounds", type=int, default=1, help="render the set and run the bare loop N times"
    )
    parser.add_argument("--profile", action="store_true", help="print the cProfile top 25")
    args = parser.parse_args(argv)

    import django

    django.setup()
    from django.db import connection

    folder = None
    if connection.vendor == "sqlite":
        folder = tempfile.TemporaryDirectory(prefix="bench-print-")
        connection.settings_dict["TEST"]["NAME"] = str(Path(folder.name) / "print.sqlite3")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        run(args, describe=connection.vendor)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        if folder is not None:
            folder.cleanup()
    return 0


def night(args: argparse.Namespace) -> Any:
    from datetime import date

    from drives.models import AuditEntry
    from drives.services import Actor, club_create, couples_register, drive_create, drive_start
    from scoring.selectors import game_view
    from scoring.services import game_advance, result_record

    desk = Actor(channel=AuditEntry.Channel.DESK)
    club = club_create(name="Benchmark Parish", actor=desk)
    drive = drive_create(
        club=club, actor=desk, name="Benchmark night", date=date(2026, 11, 20), games=args.games
    )
    couples_register(
        drive=drive,
        couples=[
            {"players": [f"Aucoin, Thérèse {i}", f"MacNeil, Angus {i}"]}
            for i in range(args.couples)
        ],
        actor=desk,
    )
    drive_start(drive=drive, actor=desk)
    for game in range(1, args.played + 1):
        for table in game_view(drive, game)["tables"]:
            if not table["sit_out"]:
                winner = min(table["stays"], table["arrives"])
                result_record(
                    drive=drive, game=game, table=table["table"], winner=winner, actor=desk
                )
        game_advance(drive=drive, game=game, actor=desk)
    drive.refresh_from_db()
    return drive


def bare_loop(pages: int, paper: str) -> float:
    """The same number of simple pages drawn with a bare reportlab canvas."""
    from reportlab.lib.pagesizes import A4, LETTER
    from reportlab.pdfgen.canvas import Canvas

    size = LETTER if paper == "letter" else A4
    start = time.perf_counter()
    canvas = Canvas(io.BytesIO(), pagesize=size, pageCompression=1)
    for n in range(1, pages + 1):
        canvas.setFont("Helvetica-Bold", 24)
        canvas.drawString(72, size[1] - 72, "Benchmark night")
        canvas.setFont("Helvetica-Bold", 96)
        canvas.drawString(72, size[1] - 200, str(n))
        canvas.setFont("Helvetica", 10)
        for line in range(5):
            canvas.drawString(72, size[1] - 240 - 14 * line, f"Line {line} of page {n}")
        canvas.rect(60, 60, size[0] - 120, size[1] - 120, stroke=1, fill=0)
        canvas.showPage()
    canvas.save()
    return time.perf_counter() - start


def one_card(drive: Any, couple: int, paper: str) -> float:
    """One couple's punch card on demand, with its recorded wins: build and render."""
    from scoring.printing.data import build
    from scoring.printing.pdf import render

    start = time.perf_counter()
    render("punch-cards", build(drive, "punch-cards", couple=couple, filled=True), paper=paper)
    return time.perf_counter() - start


def run(args: argparse.Namespace, *, describe: str) -> None:
    from scoring.printing.data import build
    from scoring.printing.pdf import base

    start = time.perf_counter()
    drive = night(args)
    setup = time.perf_counter() - start
    print(
        f"Night: {args.couples} couples, {args.games} games, {args.played} played "
        f"(set up in {setup:.1f} s); {args.paper}; {describe}; Python "
        f"{platform.python_version()} ({platform.machine()})"
    )
    data, build_times = {}, {}
    for document in SET:
        start = time.perf_counter()
        data[document] = build(drive, document)
        build_times[document] = time.perf_counter() - start
    profiler = cProfile.Profile() if args.profile else None
    rounds = []
    for _ in range(args.rounds):
        # Each round starts as a fresh worker would for its QR codes: none cached (the old
        # renderers' cache was ``qr_path``). The DejaVu fonts are read once a process: the
        # first round's first document pays it.
        for cached in ("qr_rects", "qr_path"):
            if hasattr(base, cached):
                getattr(base, cached).cache_clear()
        # Each timed part starts with the garbage collected: a full collection of this
        # process (Django and the night, over 100,000 objects) takes about 50 ms and would
        # otherwise fall on whichever part happens to trip it.
        gc.collect()
        if profiler is not None:
            profiler.enable()
        rows = render_set(data, args.paper)
        if profiler is not None:
            profiler.disable()
        pages = sum(row[1] for row in rows)
        gc.collect()
        bare = bare_loop(pages, args.paper)
        gc.collect()
        card = one_card(drive, 1 + len(rounds) % args.couples, args.paper)
        rounds.append((rows, sum(row[3] for row in rows), bare, card))
    # Render times: the median over the rounds (the only round when there is one).
    rows = rounds[0][0]
    total_pages = sum(row[1] for row in rows)
    total_render = statistics.median(r[1] for r in rounds)
    print(f"{'document':<14} {'pages':>6} {'KiB':>7} {'build s':>8} {'render s':>9} {'ms/page':>8}")
    for k, (document, pages, size, _took) in enumerate(rows):
        took = statistics.median(r[0][k][3] for r in rounds)
        print(
            f"{document:<14} {pages:>6} {size / 1024:>7.0f} {build_times[document]:>8.2f} "
            f"{took:>9.3f} {1000 * took / max(pages, 1):>8.2f}"
        )
    total_build = sum(build_times.values())
    print(
        f"{'full set':<14} {total_pages:>6} {'':>7} {total_build:>8.2f} {total_render:>9.3f} "
        f"{1000 * total_render / total_pages:>8.2f}"
    )
    for number, (_rows, render_time, bare_time, card_time) in enumerate(rounds, start=1):
        print(
            f"round {number}: render {render_time:.3f} s; one couple's punch card on demand "
            f"{1000 * card_time:.0f} ms; bare reportlab loop, {total_pages} simple pages: "
            f"{bare_time:.3f} s" + (" (reading the fonts included)" if number == 1 else "")
        )
    if len(rounds) > 1:
        renders, bares = [r[1] for r in rounds], [r[2] for r in rounds]
        cards = [r[3] for r in rounds]
        print(
            f"median of {len(rounds)} rounds: render {statistics.median(renders):.3f} s, "
            f"punch card {1000 * statistics.median(cards):.0f} ms, bare "
            f"{statistics.median(bares):.3f} s; best: render {min(renders):.3f} s, punch card "
            f"{1000 * min(cards):.0f} ms"
        )
    if profiler is not None:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


def render_set(data: dict[str, Any], paper: str) -> list[tuple[str, int, int, float]]:
    """(document, pages, bytes, seconds) for each document of the set, rendered in turn."""
    from scoring.printing.pdf import render

    rows = []
    for document in SET:
        pages = [0]
        start = time.perf_counter()
        pdf = render(
            document,
            data[document],
            paper=paper,
            progress=lambda done, total, pages=pages: pages.__setitem__(0, total),
        )
        rows.append((document, pages[0], len(pdf), time.perf_counter() - start))
    return rows


if __name__ == "__main__":
    raise SystemExit(main())
