"""Time the club's public pages for a big club: its page and a player's page, rendered whole
through Django's test client, with the queries each takes.

    python scripts/bench_club_pages.py                  # 2,000 players, 300 nights
    python scripts/bench_club_pages.py --players 500 --nights 50 --reads 5
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/NAME python scripts/bench_club_pages.py

The club is written cheaply (``tests.club.world.club_world``: bulk inserts, no services):
``--nights`` closed and published nights a week apart, each of ``--couples`` couples drawn from
``--players`` players (the first of them, "the regular", at every night), ``--games`` games
with every result in, and a published season of all the nights (its standings are on the
club's page). Read: the club's page (its first page of nights, the season's standings), its
JSON twin, the regular's page (every night) and an occasional player's, and the regular's own
page. Each is read once with an empty cache ("first": the season's standings counted afresh;
its queries printed), then ``--reads`` times (the season's standings from the cache, as long
as the season does not change): their median and minimum.

A database of its own, as scripts/bench_night.py does: on SQLite a file in a temporary folder,
on PostgreSQL a ``test_NAME`` database; nothing is written to the project's own database.
"""

from __future__ import annotations

import argparse
import os
import platform
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
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--nights", type=int, default=300)
    parser.add_argument("--couples", type=int, default=30)
    parser.add_argument("--games", type=int, default=25)
    parser.add_argument("--reads", type=int, default=10)
    args = parser.parse_args(argv)

    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()  # the test client's host allowed, as under pytest

    folder = None
    if connection.vendor == "sqlite":
        folder = tempfile.TemporaryDirectory(prefix="bench-club-")
        connection.settings_dict["TEST"]["NAME"] = str(Path(folder.name) / "club.sqlite3")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        run(args, describe=f"{connection.vendor}")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        if folder is not None:
            folder.cleanup()
    return 0


def run(args: argparse.Namespace, *, describe: str) -> None:
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client

    from drives.models import Couple, Player
    from drives.services import club_create
    from tests.club.world import club_world

    club = club_create(name="Benchmark Parish")
    start = time.perf_counter()
    world = club_world(
        club, players=args.players, nights=args.nights, couples=args.couples, games=args.games
    )
    built = time.perf_counter() - start
    regular = world.players[0]
    # An occasional player: the one of the median number of nights among those who played.
    counts = sorted(
        (
            Couple.objects.filter(member1=p).count() + Couple.objects.filter(member2=p).count(),
            p.pk,
        )
        for p in Player.objects.filter(club=club)[1:200]
    )
    occasional = Player.objects.get(pk=counts[len(counts) // 2][1])
    print(
        f"Club: {args.players} players, {args.nights} nights of {args.couples} couples and "
        f"{args.games} games ({args.nights * args.games * ((args.couples + 1) // 2)} tables "
        f"played), one season of all of them; written in {built:.1f} s. {describe}; Python "
        f"{platform.python_version()} ({platform.machine()})"
    )
    client = Client()
    base = f"/clubs/{club.slug}"
    pages = [
        ("the club's page", f"{base}/"),
        ("the club's page, JSON", f"/api/v1{base}"),
        ("the club's page, its last page of nights", f"{base}/?page={(args.nights + 19) // 20}"),
        (f"the regular's page ({args.nights} nights)", f"{base}/players/{regular.pk}/"),
        (
            f"an occasional player's page ({counts[len(counts) // 2][0]} nights)",
            f"{base}/players/{occasional.pk}/",
        ),
        ("the regular's own page", f"{base}/players/{regular.pk}/{regular.page_key()}/"),
        ("the regular's page, JSON", f"/api/v1{base}/players/{regular.pk}"),
    ]
    queries: list[str] = []

    def count(execute: Any, sql: str, *rest: Any) -> Any:
        queries.append(sql)
        return execute(sql, *rest)

    print(
        f"{'page':<48} {'first ms':>9} {'queries':>8} {'then: median ms':>16} {'min ms':>7} "
        f"{'queries':>8} {'KB':>5}"
    )
    for name, path in pages:
        client.get(path)  # the code's own first use (templates read, URLs resolved) left out
        queries.clear()
        cache.clear()
        begun = time.perf_counter()
        with connection.execute_wrapper(count):
            response = client.get(path)
        first = time.perf_counter() - begun
        counted = len(queries)
        queries.clear()
        with connection.execute_wrapper(count):
            client.get(path)
        again = len(queries)
        assert response.status_code == 200, (path, response.status_code)
        times = []
        for _ in range(args.reads):
            begun = time.perf_counter()
            client.get(path)
            times.append(time.perf_counter() - begun)
        print(
            f"{name:<48} {1000 * first:>9.0f} {counted:>8} "
            f"{1000 * statistics.median(times):>16.0f} {1000 * min(times):>7.0f} {again:>8} "
            f"{len(response.content) / 1024:>5.0f}"
        )


if __name__ == "__main__":
    raise SystemExit(main())
