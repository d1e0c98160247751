"""Time the season's standings of a club's season of many nights, and count their queries.

    python scripts/bench_season.py                  # 40 nights of 20 couples, 3 games each
    python scripts/bench_season.py --nights 40 --couples 30 --rounds 5

The season (its drives played through the services, couples drawn from a club of players
with a fixed seed, so partners change from night to night) lives in a database of its own,
created and destroyed by Django's test machinery as in scripts/bench_print.py. With every rule
set (the best 8 nights of 12… here of the nights given, 5 to qualify, points per place, ties by
nights won, most improved over 3, a final of 8), the standings (``seasons.selectors``:
season_view and standings_rows) are read for the first 10, 20… nights and timed (the median
of ``--rounds``), their queries counted; then the season's JSON standings and the season's
page, whole, the same way, with what its cookie jar and its money take of it.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--nights", type=int, default=40)
    parser.add_argument("--couples", type=int, default=20, help="couples a night")
    parser.add_argument("--players", type=int, default=80, help="the club's players")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)

    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()  # the test client's host allowed, as under pytest

    folder = None
    if connection.vendor == "sqlite":
        folder = tempfile.TemporaryDirectory(prefix="bench-season-")
        connection.settings_dict["TEST"]["NAME"] = str(Path(folder.name) / "season.sqlite3")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        run(args, describe=connection.vendor)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        if folder is not None:
            folder.cleanup()
    return 0


def play(drive: Any, desk: Any) -> None:
    """Every game of the drive played, the lower couple number winning each table."""
    from drives.services import drive_start
    from scoring.selectors import game_view
    from scoring.services import game_advance, result_record

    drive_start(drive=drive, actor=desk)
    drive.refresh_from_db()
    for number in range(1, drive.games + 1):
        view = game_view(drive, number)
        assert view is not None
        for row in view["tables"]:
            if not row["sit_out"]:
                winner = (
                    min(row["stays"], row["arrives"])
                    if number % 2
                    else max(row["stays"], row["arrives"])
                )
                result_record(
                    drive=drive, game=number, table=row["table"], winner=winner, actor=desk
                )
        if number < drive.games:
            game_advance(drive=drive, game=number, actor=desk)
        drive.refresh_from_db()


def season(args: argparse.Namespace) -> tuple[Any, list[Any], Any]:
    from datetime import date, timedelta

    from drives.models import AuditEntry, Membership
    from drives.services import Actor, club_create, couples_register, drive_create
    from seasons.services import season_create
    from tests.factories import UserFactory

    desk = Actor(channel=AuditEntry.Channel.DESK)
    organizer = UserFactory(username="bench-organizer")
    club = club_create(name="Benchmark Parish", organizer=organizer, actor=desk)
    assert club.memberships.filter(user=organizer, role=Membership.Role.ORGANIZER).exists()
    start = date(2026, 1, 2)
    found = season_create(
        club=club,
        name="The long season",
        starts=start,
        ends=start + timedelta(weeks=args.nights + 1),
        best_count=8,
        qualify_nights=5,
        scoring="points",
        place_points=[10, 8, 6, 5, 4, 3, 2, 1],
        improved_nights=3,
        tie_break="nights_won",
        final_size=8,
    )
    draw = random.Random(45)
    names = [f"Player {n:03d}" for n in range(1, args.players + 1)]
    drives = []
    for night in range(args.nights):
        day = start + timedelta(weeks=night)
        drive = drive_create(
            club=club, name=f"Friday {night + 1}", date=day, games=args.games, actor=desk
        )
        chosen = draw.sample(names, 2 * args.couples)
        couples_register(
            drive=drive,
            couples=[{"players": chosen[i : i + 2]} for i in range(0, len(chosen), 2)],
            actor=desk,
        )
        play(drive, desk)
        drives.append(drive)
    return found, drives, organizer


def timed(call: Any, rounds: int) -> tuple[float, int]:
    from django.db import connection

    queries: list[str] = []

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        queries.append(sql)  # counted as they run: a request clears connection.queries
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        call()
    times = []
    for _ in range(rounds):
        began = time.perf_counter()
        call()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000, len(queries)


def run(args: argparse.Namespace, *, describe: str) -> None:
    from django.test import Client

    from drives.services import api_token_create
    from seasons import selectors
    from seasons.models import SeasonDrive

    began = time.perf_counter()
    found, drives, organizer = season(args)
    made = time.perf_counter() - began
    print(
        f"{args.nights} nights of {args.couples} couples, {args.games} games, "
        f"{args.players} players; {describe}, Python {platform.python_version()}; "
        f"made and played in {made:.0f} s"
    )
    client = Client()
    client.force_login(organizer)
    token = api_token_create(user=organizer)
    base = f"/clubs/{found.club.slug}/seasons/{found.slug}/"
    api = f"/api/v1/clubs/{found.club.slug}/seasons/{found.slug}/standings"
    steps = sorted({n for n in (1, 10, 20, 40, args.nights) if n <= args.nights})
    print(
        "| nights | standings ms (queries) | JSON standings ms (queries) | page ms (queries) "
        "| of which the cookie jar | and the money |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    added = 0
    for step in steps:
        for drive in drives[added:step]:
            SeasonDrive.objects.create(drive=drive, season=found)
        added = step

        def standings() -> None:
            selectors.standings_rows(selectors.season_view(found))

        def json_standings() -> None:
            answer = client.get(api, HTTP_AUTHORIZATION=f"Bearer {token}")
            assert answer.status_code == 200, answer.content[:300]

        def page() -> None:
            answer = client.get(base)
            assert answer.status_code == 200, answer.status_code

        def jar() -> None:
            selectors.season_jar(selectors.season_drives(found))

        def money() -> None:
            selectors.season_money(selectors.season_drives(found))

        cells = [timed(call, args.rounds) for call in (standings, json_standings, page, jar, money)]
        print(f"| {step} | " + " | ".join(f"{ms:.0f} ({q})" for ms, q in cells) + " |")


if __name__ == "__main__":
    raise SystemExit(main())
