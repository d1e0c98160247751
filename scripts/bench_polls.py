"""What a poll of the live pages costs the web process at 250 tables: 304 (nothing changed,
the ETag sent back) against 200 (rendered), in-process, with /livez as the yardstick.

    python scripts/bench_polls.py                 # SQLite file, 200 polls a page and kind
    python scripts/bench_polls.py --polls 500

Django's WSGI handler with the hall's settings (``make hall``) is called directly (no server, no
network), as scripts/bench_result.py does. The night: 500 couples at 250 tables, game 1 in
play with half its tables reported. Per page: CPU milliseconds a request
(``time.process_time``) and statements, for a poll with the fragment's ETag (304) and one
without (200, plain and gzipped as a browser asks); and the desk grid's bytes as sent, plain
and gzipped. (The standings page and the win grid do not poll.)
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def wsgi_environ(path: str, headers: dict[str, str]) -> dict[str, Any]:
    """The WSGI environ of a GET of ``path`` (with its query) from 127.0.0.1, with ``headers``
    (``{"If-None-Match": …}``) as a browser sends them; scripts/bench_server_polls.py uses it
    too."""
    route, _sep, query = path.partition("?")
    return {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": route,
        "QUERY_STRING": query,
        "SCRIPT_NAME": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "HTTP_HOST": "127.0.0.1",
        "wsgi.input": io.BytesIO(b""),
        "wsgi.url_scheme": "http",
        "REMOTE_ADDR": "127.0.0.1",
        **{"HTTP_" + k.upper().replace("-", "_"): v for k, v in headers.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--polls", type=int, default=200, help="requests a page and kind")
    parser.add_argument(
        "--game", type=int, default=1, help="the game in play (the earlier ones all reported)"
    )
    parser.add_argument(
        "--views", type=int, default=20, help="renders of each whole page (the page budgets)"
    )
    parser.add_argument("--profile", default="", help="cProfile one page of the budgets, by name")
    parser.add_argument(
        "--data",
        default="",
        help="a folder to keep the night in and to reuse it from (default: a new one)",
    )
    args = parser.parse_args()
    folder = Path(args.data or tempfile.mkdtemp(prefix="fortyfives-bench-"))
    # Before Django starts: its set-up opens (and so makes) the database file.
    args.kept = (folder / "db.sqlite3").exists()
    # The hall's settings (``make hall``: DEBUG off, SQLite, whitenoise's manifest), with
    # their data folder in a temporary one.
    os.environ.pop("DATABASE_URL", None)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings.hall",
        HALL_DATA_DIR=str(folder),
        ALLOWED_HOSTS="127.0.0.1",
    )
    os.environ.pop("CELERY_BROKER_URL", None)
    run(args)


def run(args: argparse.Namespace) -> None:
    import warnings

    warnings.filterwarnings("ignore", message="No directory at")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.core.wsgi import get_wsgi_application
    from django.db import connection
    from django.test import Client

    from drives.models import Drive

    app = get_wsgi_application()
    kept = args.kept
    drive = Drive.objects.filter(name="Bench night").first() if kept else None
    if drive is not None and drive.current_game == args.game:
        user = drive.club.memberships.get().user
    else:
        call_command("migrate", verbosity=0)
        call_command("collectstatic", verbosity=0, interactive=False)
        drive, user = make_night(args.game)
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value

    def call(path: str, **headers: str) -> tuple[str, dict[str, str], bytes]:
        environ = wsgi_environ(
            path, {"Cookie": f"{settings.SESSION_COOKIE_NAME}={session}", **headers}
        )
        got: list[Any] = []
        body = b"".join(app(environ, lambda s, h, *a: got.append((s, dict(h)))))  # type: ignore[arg-type]  # WSGI start_response
        return got[0][0], got[0][1], body

    def cpu(path: str, count: int, **headers: str) -> tuple[float, int, str]:
        status, _headers, _body = call(path, **headers)
        queries: list[str] = []
        with connection.execute_wrapper(
            lambda ex, sql, *rest: queries.append(sql) or ex(sql, *rest)
        ):
            call(path, **headers)
        started = time.process_time()
        for _ in range(count):
            call(path, **headers)
        return (time.process_time() - started) / count * 1e3, len(queries), status[:3]

    table = drive.tables.get(number=1).token
    couple = drive.couples.get(number=1).token
    pages = {
        "couple page": f"/c/{couple}/?partial=1",
        "table page": f"/t/{table}/?partial=1",
        "desk grid": f"/drives/{drive.slug}/desk/?partial=grid",
        "projector": f"/drives/{drive.slug}/projector/?partial=1",
        "projector standings": f"/drives/{drive.slug}/projector/?partial=1&show=standings",
    }
    for _ in range(200):  # warm up: imports, caches, the connection
        call("/livez")
    livez, _q, _s = cpu("/livez", 2000)
    print(f"{connection.vendor}, 250 tables, {args.polls} polls each; CPU ms a request")
    print(f"{'GET /livez':<24} {livez:8.3f} ms")
    print(
        f"{'page':<24} {'304':>8} {'queries':>8} {'200':>10} {'queries':>8} {'200/304':>8}"
        f" {'200 gzip':>10}"
    )
    for name, path in pages.items():
        _status, headers, _body = call(path)
        tag = headers["ETag"]
        fresh, fresh_q, fresh_status = cpu(path, max(args.polls // 4, 10))
        same, same_q, same_status = cpu(path, args.polls, **{"If-None-Match": tag})
        packed, _q, _s = cpu(path, max(args.polls // 4, 10), **{"Accept-Encoding": "gzip"})
        assert (fresh_status, same_status) == ("200", "304"), (name, fresh_status, same_status)
        print(
            f"{name:<24} {same:8.3f} {same_q:8d} {fresh:10.3f} {fresh_q:8d} {fresh / same:7.0f}×"
            f" {packed:10.3f}"
        )
    budgets(args, call, cpu, livez, drive, table, couple)
    _s, _h, plain = call(pages["desk grid"])
    _s, headers, packed = call(pages["desk grid"], **{"Accept-Encoding": "gzip"})
    assert headers.get("Content-Encoding") == "gzip"
    _s, _h, nothing = call(pages["desk grid"], **{"If-None-Match": headers["ETag"]})
    print(f"desk grid: {len(plain)} bytes, gzipped {len(packed)} bytes, 304 {len(nothing)} bytes")


def budgets(
    args: argparse.Namespace, call: Any, cpu: Any, livez: float, drive: Any, table: str, couple: str
) -> None:
    """Every page a 250-table night shows, rendered in full (no ETag) after a result came in:
    CPU ms, statements, bytes, and × /livez (the bar: 300 ×)."""
    slug = drive.slug
    pages = {
        "desk (page)": f"/drives/{slug}/desk/",
        "desk grid (poll)": f"/drives/{slug}/desk/?partial=grid",
        "projector (page)": f"/drives/{slug}/projector/",
        "projector (poll)": f"/drives/{slug}/projector/?partial=1",
        "projector standings": f"/drives/{slug}/projector/?partial=1&show=standings",
        "dashboard": f"/drives/{slug}/",
        "standings": f"/drives/{slug}/standings/",
        "win grid": f"/drives/{slug}/grid/",
        "couple page": f"/c/{couple}/",
        "couple (poll)": f"/c/{couple}/?partial=1",
        "table page": f"/t/{table}/",
        "table (poll)": f"/t/{table}/?partial=1",
    }
    from django.db import connection

    a_result = corrections(drive)
    turns = iter(range(10**6))

    if args.profile:  # each view after a result, as the budgets below
        import cProfile
        import pstats

        path = pages[args.profile]
        profile = cProfile.Profile()
        for _ in range(args.views):
            a_result(next(turns))
            profile.enable()
            call(path, **{"Accept-Encoding": "gzip"})
            profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(45)
        return

    def after_a_result(path: str, count: int) -> tuple[float, int, str]:
        """CPU ms of the first view after a result (the page has changed), and its queries."""
        call(path)
        a_result(next(turns))
        queries: list[str] = []
        with connection.execute_wrapper(
            lambda ex, sql, *rest: queries.append(sql) or ex(sql, *rest)
        ):
            status, _h, _b = call(path)
        spent = 0.0
        for _ in range(count):
            a_result(next(turns))
            started = time.process_time()
            call(path)
            spent += time.process_time() - started
        return spent / count * 1e3, len(queries), status[:3]

    print(f"\nwhole pages, each view after a result, {args.views} views; bar 300 × /livez")
    print(f"{'page':<22} {'CPU ms':>8} {'× livez':>8} {'queries':>8} {'bytes':>9} {'gzipped':>8}")
    for name, path in pages.items():
        spent, queries, status = after_a_result(path, args.views)
        assert status == "200", (name, status)
        _s, _h, body = call(path)
        _s, headers, packed = call(path, **{"Accept-Encoding": "gzip"})
        zipped = len(packed) if headers.get("Content-Encoding") == "gzip" else len(body)
        print(
            f"{name:<22} {spent:8.1f} {spent / livez:8.0f} {queries:8d} {len(body):9d} {zipped:8d}"
        )


def corrections(drive: Any) -> Any:
    """``a_result(turn)``: a change at one table of the game in play (a correction, so the night
    keeps its shape), a table a turn: the other couple than the one now recorded wins, so that
    the pages do change, on a night reused from an earlier run too. scripts/bench_desk_poll.py
    uses it too."""
    from drives.models import AuditEntry
    from drives.services import Actor
    from scoring.selectors import game_view
    from scoring.services import result_resolve

    desk = Actor(channel=AuditEntry.Channel.DESK)
    reported = [row for row in game_view(drive, drive.current_game)["tables"] if row["winner"]]
    winners = {row["table"]: row["winner"] for row in reported}

    def a_result(turn: int) -> None:
        row = reported[turn % len(reported)]
        winner = row["stays"] if winners[row["table"]] == row["arrives"] else row["arrives"]
        winners[row["table"]] = winner
        result_resolve(
            drive=drive,
            game=drive.current_game,
            table=row["table"],
            winner=winner,
            reason="bench",
            actor=desk,
        )

    return a_result


def make_night(game: int = 1) -> tuple[Any, Any]:
    """500 couples at 250 tables, ``game`` in play (the games before it all reported and
    advanced by the engine's bots), the first 125 tables of it reported."""
    from datetime import date

    from django.contrib.auth import get_user_model

    from drives.models import AuditEntry, Membership
    from drives.services import (
        Actor,
        club_create,
        couples_register,
        drive_create,
        drive_start,
        member_add,
    )
    from scoring.selectors import game_view
    from scoring.services import result_record
    from scoring.simulation import drive_simulate

    desk = Actor(channel=AuditEntry.Channel.DESK)
    club = club_create(name="Bench club")
    user = get_user_model().objects.create(username="bench-organizer")
    member_add(club=club, user=user, role=Membership.Role.ORGANIZER)
    drive = drive_create(club=club, name="Bench night", date=date(2026, 11, 21))
    couples_register(
        drive=drive,
        couples=[{"players": [f"North {n}", f"South {n}"]} for n in range(1, 501)],
    )
    drive_start(drive=drive, actor=desk)
    drive.refresh_from_db()
    if game > 1:
        drive_simulate(drive=drive, until_game=game - 1, seed=7, bot="random")
        drive.refresh_from_db()
    view = game_view(drive, game)
    for row in view["tables"][:125]:
        result_record(drive=drive, game=game, table=row["table"], winner=row["stays"], actor=desk)
    drive.refresh_from_db()
    return drive, user


if __name__ == "__main__":
    main()
