"""A night to load, on a stack of its own: what the load figures (tools/load.py, locust) and
the burst and crash tests (tools/loadgen.py) set up before they play.

:func:`own_stack` starts gunicorn with the production settings (tools/stack.py) on a new
database (PostgreSQL: ``fortyfives_load_<pid>`` beside the server's ``postgres``; SQLite: a
file in a temporary folder) and drops it at the end. :func:`set_up_night` makes a drive of
``2 × tables`` couples there through ``manage.py drive create``, an organizer of its club with
a password and an API token, starts it through the API (game 1 seated by number) and reads the
table and couple tokens (``manage.py drive tokens --json``).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import socket
import sys
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from tools.stack import Stack, StackConfig, default_web_workers, postgres_connect

API = "/api/v1"
DEFAULT_POSTGRES_SERVER = "postgres://postgres@127.0.0.1:5432/postgres"


class LoadError(RuntimeError):
    """The night could not be set up or went somewhere it never should."""


@dataclass
class NightSetup:
    """A started night on a server: what the clients need to play it."""

    url: str
    slug: str
    organizer_token: str
    table_tokens: dict[int, str]
    games: int
    tables: int
    ruleset: str
    first_game: dict[str, Any]
    couple_tokens: dict[int, str] = field(default_factory=dict)
    # The organizer's login, for the pages behind it (the desk, the projector).
    username: str = ""
    password: str = ""


ORGANIZER_CODE = """
from django.contrib.auth import get_user_model
from drives.models import Drive, Membership
from drives.services import api_token_create, member_add
drive = Drive.objects.get(slug={slug!r})
user, _ = get_user_model().objects.get_or_create(username={username!r})
user.set_password({password!r})
user.save()
member_add(club=drive.club, user=user, role=Membership.Role.ORGANIZER)
print(api_token_create(user=user))
"""


def http_json(
    method: str, url: str, token: str, body: Any = None, timeout: float = 60.0
) -> tuple[int, Any]:
    """One blocking JSON request with a bearer token: the status and the decoded answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def set_up_night(
    stack: Stack,
    *,
    tables: int = 250,
    games: int = 25,
    name: str = "Load night",
    ruleset: str = "cape-breton-45",
) -> NightSetup:
    """Create and start a night of ``tables`` tables and ``games`` games on the stack."""
    folder = Path(tempfile.mkdtemp(prefix="fortyfives-load-"))
    try:
        couples = folder / "couples.csv"
        couples.write_text(
            "player1,player2\n"
            + "".join(f"North {i},South {i}\n" for i in range(1, 2 * tables + 1)),
            encoding="utf-8",
        )
        slug = stack.manage(
            "drive",
            "create",
            "--club",
            "Load Test Club",
            "--name",
            name,
            "--date",
            date.today().isoformat(),
            "--couples",
            str(couples),
            "--games",
            str(games),
            "--ruleset",
            ruleset,
        ).stdout.strip()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    username, password = "load-organizer", secrets.token_urlsafe(12)
    code = ORGANIZER_CODE.format(slug=slug, username=username, password=password)
    token = stack.manage("shell", "-c", code).stdout.strip().splitlines()[-1]
    status, first_game = http_json(
        "POST", f"{stack.url}{API}/drives/{slug}/start", token, {"seating": "by-number"}
    )
    if status != 201:
        raise LoadError(f"starting {slug} answered {status}: {first_game}")
    listing = json.loads(
        stack.manage("drive", "tokens", slug, "--json", "--base-url", stack.url).stdout
    )
    return NightSetup(
        url=stack.url,
        slug=slug,
        organizer_token=token,
        table_tokens={t["number"]: t["token"] for t in listing["tables"]},
        games=games,
        tables=tables,
        ruleset=ruleset,
        first_game=first_game,
        couple_tokens={c["number"]: c["token"] for c in listing["couples"]},
        username=username,
        password=password,
    )


# --- a stack of its own --------------------------------------------------------------------------


def free_port() -> int:
    """A free port on 127.0.0.1 whose next one is free too: the stack's events process listens
    on the web port + 1 (tools/stack.py), and a port the kernel hands out may have its
    neighbour taken by another program's connection (it happened in CI: the events process
    could not bind and exited)."""
    for _ in range(100):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        if port < 65535 and _bindable(port + 1):
            return port
    raise OSError("no two free ports side by side on 127.0.0.1")


def _bindable(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def with_database(url: str, name: str) -> str:
    """The same server's URL with another database name."""
    head, _, _ = url.rpartition("/")
    return f"{head}/{name}"


def drop_postgres_database(url: str) -> None:
    import dj_database_url
    from psycopg import sql

    with postgres_connect(url, server=True) as connection:
        connection.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(dj_database_url.parse(url)["NAME"])
            )
        )


class HallStack(Stack):
    """The hall's own server (``fortyfives hall``: granian, the hall's settings, SQLite in
    its data folder), as ``make hall`` runs it, on 127.0.0.1 with the data folder in
    ``state_dir``. ``manage`` runs with the same settings and folder."""

    def env(self) -> dict[str, str]:
        environ = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.hall",
            "HALL_DATA_DIR": str(self.state_dir),
            "PYTHONUNBUFFERED": "1",
        }
        for name in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "STATIC_ROOT", "MEDIA_ROOT"):
            environ.pop(name, None)
        return environ

    def prepare(self) -> None:
        """The hall's command prepares its folder itself (migrate, collectstatic)."""

    def start_web(self) -> None:
        self.web = self._spawn(
            "web",
            [
                sys.executable,
                "-m",
                "fortyfives",
                "hall",
                "--address",
                "127.0.0.1",
                "--port",
                str(self.config.port),
                "--data-dir",
                str(self.state_dir),
            ],
        )

    def start(self, prepare: bool = True) -> Stack:
        self.start_web()
        self.wait_healthy(timeout=600)  # collectstatic compresses every file the first time
        return self


@contextlib.contextmanager
def own_stack(
    kind: str,
    *,
    postgres_server: str = DEFAULT_POSTGRES_SERVER,
    broker_url: str | None = None,
    workers: int | None = None,
    worker_class: str | None = None,
    threads: int | None = None,
    database_name: str | None = None,
    port: int | None = None,
) -> Iterator[Stack]:
    """gunicorn (no Celery worker: results need none) on a new database (on PostgreSQL
    ``database_name``, by default ``fortyfives_load_<pid>``), stopped and the database
    dropped at the end. The integration tests start theirs with it too."""
    state = Path(tempfile.mkdtemp(prefix="fortyfives-load-stack-"))
    if kind == "postgres":
        name = database_name or f"fortyfives_load_{os.getpid()}"
        database = with_database(postgres_server, name)
    elif kind in ("sqlite", "hall"):
        database = f"sqlite:///{state / 'db.sqlite3'}"
    else:
        raise LoadError(f"the stack is postgres, sqlite or hall, not {kind!r}")
    stack = (HallStack if kind == "hall" else Stack)(
        StackConfig(
            database_url=database,
            broker_url=broker_url,
            port=port or free_port(),
            web_workers=1 if kind == "hall" else workers or default_web_workers(database),
            web_worker_class=worker_class,
            web_threads=threads,
            worker=False,
            state_dir=state,
        )
    )
    try:
        stack.start()
        yield stack
    finally:
        stack.stop()
        if kind == "postgres":
            drop_postgres_database(database)
        shutil.rmtree(state, ignore_errors=True)
