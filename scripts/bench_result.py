"""What one result submission costs the web process, against /livez, in-process.

    python scripts/bench_result.py                        # SQLite file, 250 PUTs
    python scripts/bench_result.py --database postgres    # a new database on 127.0.0.1:5432
    python scripts/bench_result.py --requests 500 --profile

Django's WSGI handler with the production settings is called directly (no server, no
network, no client), so the figures are the application's own: CPU milliseconds a request
(``time.process_time``) for ``GET /livez`` and for ``PUT …/games/1/tables/{t}/result`` with
each table's token, a legal score and a key, every table once; and the database statements a
PUT sends. The night (500 couples, 250 tables, started by number) is made through the
services on a new SQLite file or a new PostgreSQL database, dropped at the end. PostgreSQL's
own CPU is not counted here (the load figures, tools/load.py, feel it in their latencies).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", choices=["sqlite", "postgres"], default="sqlite")
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--requests", type=int, default=250, help="PUTs (at most 250)")
    parser.add_argument("--profile", action="store_true", help="cProfile the PUTs")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="fortyfives-bench-"))
    name = f"fortyfives_bench_{os.getpid()}"
    if args.database == "sqlite":
        os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'night.sqlite3'}"
    else:
        admin(args.postgres, f'CREATE DATABASE "{name}"')
        os.environ["DATABASE_URL"] = f"{args.postgres}/{name}"
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings.prod",
        SECRET_KEY="bench-" + "x" * 60,
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="false",
        SECURE_COOKIES="false",
        MEDIA_ROOT=str(folder / "media"),
    )
    os.environ.pop("CELERY_BROKER_URL", None)
    try:
        run(args, folder)
    finally:
        if args.database == "postgres":
            from django.db import connections

            connections.close_all()
            admin(args.postgres, f'DROP DATABASE IF EXISTS "{name}"')


def admin(server: str, statement: str) -> None:
    from tools.stack import postgres_connect

    with postgres_connect(f"{server}/postgres", server=True) as connection:
        connection.execute(statement.encode())


def run(args: argparse.Namespace, folder: Path) -> None:
    import warnings

    warnings.filterwarnings("ignore", message="No directory at")
    import django

    django.setup()
    from django.core.management import call_command
    from django.core.wsgi import get_wsgi_application
    from django.db import connection

    from engine.rules import PRESETS
    from engine.scores import legal_final_scores

    call_command("migrate", verbosity=0)
    app = get_wsgi_application()

    def call(method: str, path: str, token: str, body: Any = None) -> tuple[str, bytes]:
        data = b"" if body is None else json.dumps(body).encode()
        environ = {
            "REQUEST_METHOD": method,
            "PATH_INFO": path,
            "QUERY_STRING": "",
            "SCRIPT_NAME": "",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "80",
            "HTTP_HOST": "127.0.0.1",
            "wsgi.input": io.BytesIO(data),
            "wsgi.url_scheme": "http",
            "CONTENT_LENGTH": str(len(data)),
            "CONTENT_TYPE": "application/json",
            "REMOTE_ADDR": "127.0.0.1",
            "HTTP_AUTHORIZATION": f"Bearer {token}",
        }
        status: list[str] = []
        answer = b"".join(app(environ, lambda s, h, *a: status.append(s)))  # type: ignore[arg-type]  # WSGI start_response
        return status[0], answer

    slug, token = make_night(folder)
    status, answer = call("POST", f"/api/v1/drives/{slug}/start", token, {"seating": "by-number"})
    assert status.startswith("201"), (status, answer)
    from drives.models import Table

    tables = dict(Table.objects.filter(drive__slug=slug).values_list("number", "token"))
    first = json.loads(answer)["tables"]
    score = list(legal_final_scores(PRESETS["cape-breton-45"])[1])
    count = min(args.requests, len(first))

    for _ in range(200):  # warm up: imports, caches, the connection
        call("GET", "/livez", "")
    started = time.process_time()
    for _ in range(2000):
        call("GET", "/livez", "")
    livez = (time.process_time() - started) / 2000

    def put(table: dict[str, Any]) -> None:
        number = table["table"]
        body = {"winner": table["stays"], "points": score, "key": f"bench-{number}"}
        path = f"/api/v1/drives/{slug}/games/1/tables/{number}/result"
        status, answer = call("PUT", path, tables[number], body)
        assert status.startswith("201"), (status, answer)

    queries: list[str] = []

    def record(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        put(first[0])
    profiler = cProfile.Profile(time.process_time) if args.profile else None
    started = time.process_time()
    if profiler:
        profiler.enable()
    for table in first[1:count]:
        put(table)
    if profiler:
        profiler.disable()
    cpu = (time.process_time() - started) / max(count - 1, 1)
    print(f"{connection.vendor}: GET /livez {livez * 1e3:.3f} ms CPU a request")
    print(f"{connection.vendor}: result PUT {cpu * 1e3:.3f} ms CPU a request ({count - 1} PUTs)")
    print(f"statements a PUT: {len(queries)}")
    for query in queries:
        print("   ", query[:110])
    if profiler:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)


def make_night(folder: Path) -> tuple[str, str]:
    """A drive of 500 couples (250 tables) made as an organizer would from the command line,
    and an organizer's API token."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from drives.models import Drive, Membership
    from drives.services import api_token_create, member_add

    couples = folder / "couples.csv"
    couples.write_text(
        "player1,player2\n" + "".join(f"North {n},South {n}\n" for n in range(1, 501)),
        encoding="utf-8",
    )
    out = io.StringIO()
    call_command(
        "drive",
        "create",
        "--club",
        "Bench club",
        "--name",
        "Bench night",
        "--date",
        "2026-11-21",
        "--couples",
        str(couples),
        "--games",
        "25",
        stdout=out,
    )
    drive = Drive.objects.get(slug=out.getvalue().strip())
    user = get_user_model().objects.create(username="bench-organizer")
    member_add(club=drive.club, user=user, role=Membership.Role.ORGANIZER)
    return drive.slug, api_token_create(user=user)


if __name__ == "__main__":
    main()
