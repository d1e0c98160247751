"""The production stack on one machine: gunicorn, a Celery worker and the pages' event streams
on PostgreSQL and Redis.

``make stack`` (or ``python -m tools.stack``) prepares the database (creates it if it is a
PostgreSQL database that does not exist yet, migrates, collects the static files), starts
gunicorn with the production settings, a Celery worker and the events process (granian on
``config.asgi``, on the next port, told of each commit through Redis: drives/pagehub.py),
waits until ``/healthz`` says the database and the broker answer, and keeps them running until
Ctrl-C (or SIGTERM), which stops them all. If one of them dies, the others are stopped too
and the command fails.

It is what a federation runs on each server (see docs/deploy.md), on this machine's own
services, without a reverse proxy: plain HTTP on 127.0.0.1, so cookies are not marked secure
and there is no redirect to HTTPS. The integration tests (tests/integration) drive it through
the :class:`Stack` class: they start it, crash parts of it with SIGKILL, start them again and
stop everything at the end.

    python -m tools.stack --database-url postgres://postgres@127.0.0.1:5432/fortyfives \\
        --broker-url redis://127.0.0.1:6379/0 --port 8001 --demo

``--broker-url none`` runs tasks inside the web processes, and a ``sqlite:///…`` database URL
gives the embedded default served by gunicorn instead of runserver.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parent.parent
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/fortyfives"
DEFAULT_BROKER_URL = "redis://127.0.0.1:6379/0"


class StackError(RuntimeError):
    """A part of the stack did not start, or stopped by itself."""


def default_web_workers(database_url: str = "") -> int:
    """gunicorn's usual sizing, two worker processes per core; on SQLite one per core: every
    process writes to the one file, and each commit makes the other processes' page caches
    stale, so more processes cost more than they serve (BENCHMARKS.md, Load: on two cores
    2 sync workers answered 477–543 results/s, 3 and 4 workers about 400).

    Each worker is threaded (config/gunicorn.py: ``gthread``, 4 threads, keep-alive 10 s;
    ``--worker-class``/``--threads`` here). On the hall night (250 tables, 750 phones polling,
    4 workers on 2 cores, PostgreSQL) back to back on a quiet machine: sync workers, one
    request at a time and a new connection each, polls p95 210 ms; 4 threads a worker with
    keep-alive, 97 ms; the same 25.7 CPU s a minute, result PUTs p95 54 and 62 ms
    (BENCHMARKS.md, "The production stack's workers")."""
    cores = os.cpu_count() or 1
    return cores if database_url.strip().lower().startswith("sqlite") else 2 * cores


def postgres_connect(url: str, *, server: bool = False) -> Any:
    """A psycopg connection for a postgres:// URL: to its database, or (``server``) to the
    server's own ``postgres`` database in autocommit, for creating and dropping databases."""
    import dj_database_url
    import psycopg

    parsed = dj_database_url.parse(url)
    return psycopg.connect(
        host=parsed.get("HOST") or "127.0.0.1",
        port=parsed.get("PORT") or 5432,
        user=parsed.get("USER") or "postgres",
        password=parsed.get("PASSWORD") or None,
        dbname="postgres" if server else parsed["NAME"],
        autocommit=server,
    )


@dataclass
class StackConfig:
    database_url: str = DEFAULT_DATABASE_URL
    # None: no broker, tasks run inside the web processes (the embedded default).
    broker_url: str | None = DEFAULT_BROKER_URL
    host: str = "127.0.0.1"
    port: int = 8001
    # None: default_web_workers() for the database.
    web_workers: int | None = None
    # gunicorn's worker class and threads a worker; None: config/gunicorn.py's (gthread, 4).
    web_worker_class: str | None = None
    web_threads: int | None = None
    worker: bool = True
    # The pages' event streams (config/events.py): an ASGI process beside gunicorn, told of
    # each commit through Redis (drives/pagehub.py), on ``port + 1``. Without a broker (no
    # Redis) or with ``events=False``, the pages poll.
    events: bool = True
    # Where logs, media and static files go; a new temporary folder when not given.
    state_dir: Path | None = None
    secret_key: str = field(default_factory=lambda: secrets.token_urlsafe(50))
    extra_env: dict[str, str] = field(default_factory=dict)


class Stack:
    """gunicorn and a Celery worker as child processes, each in its own process group."""

    def __init__(self, config: StackConfig) -> None:
        self.config = config
        if config.web_workers is None:
            config.web_workers = default_web_workers(config.database_url)
        self.state_dir = config.state_dir or Path(tempfile.mkdtemp(prefix="fortyfives-stack-"))
        self.state_dir.mkdir(parents=True, exist_ok=True)
        self.web: subprocess.Popen[bytes] | None = None
        self.worker: subprocess.Popen[bytes] | None = None
        self.events: subprocess.Popen[bytes] | None = None

    # -- what the children see -------------------------------------------------------------

    @property
    def url(self) -> str:
        return f"http://{self.config.host}:{self.config.port}"

    @property
    def events_port(self) -> int:
        return self.config.port + 1

    @property
    def events_on(self) -> bool:
        return bool(self.config.events and self.config.broker_url)

    @property
    def log_dir(self) -> Path:
        return self.state_dir / "logs"

    def env(self) -> dict[str, str]:
        config = self.config
        environ = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.prod",
            "SECRET_KEY": config.secret_key,
            "ALLOWED_HOSTS": f"{config.host},localhost,127.0.0.1",
            "DATABASE_URL": config.database_url,
            "MEDIA_ROOT": str(self.state_dir / "media"),
            "STATIC_ROOT": str(self.state_dir / "static"),
            # Plain HTTP on this machine: no proxy in front to terminate TLS.
            "SECURE_SSL_REDIRECT": "false",
            "SECURE_COOKIES": "false",
            "SECURE_HSTS_SECONDS": "0",
            "PYTHONUNBUFFERED": "1",
        }
        environ.pop("CELERY_RESULT_BACKEND", None)
        if self.events_on:
            # Published on the broker's Redis; the pages open their streams at the events
            # process's own address (a proxy in front would route /events/ to it instead).
            environ["PAGE_EVENTS"] = "redis"
            environ["PAGE_EVENTS_REDIS_URL"] = str(config.broker_url)
            environ["PAGE_EVENTS_URL"] = f"http://{config.host}:{self.events_port}/events/"
        else:
            environ.pop("PAGE_EVENTS", None)
        if config.broker_url:
            environ["CELERY_BROKER_URL"] = config.broker_url
            environ.setdefault("CACHE_URL", config.broker_url)
        else:
            environ.pop("CELERY_BROKER_URL", None)
        environ.update(config.extra_env)
        return environ

    # -- preparing the database --------------------------------------------------------------

    def manage(self, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        """Run ``manage.py`` with the stack's settings; raise StackError if it fails."""
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=BASE_DIR,
            env=self.env(),
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if result.returncode != 0:
            raise StackError(
                f"manage.py {' '.join(args)} failed ({result.returncode}):\n"
                f"{result.stdout}{result.stderr}"
            )
        return result

    def create_database(self) -> bool:
        """Create the PostgreSQL database if it does not exist; True if it was created."""
        import dj_database_url
        from psycopg import sql

        parsed = dj_database_url.parse(self.config.database_url)
        if "postgresql" not in parsed["ENGINE"]:
            return False
        with postgres_connect(self.config.database_url, server=True) as connection:
            exists = connection.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", [parsed["NAME"]]
            ).fetchone()
            if exists:
                return False
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(parsed["NAME"])))
        return True

    def prepare(self) -> None:
        self.create_database()
        self.manage("migrate", "--noinput")
        self.manage("collectstatic", "--noinput")

    # -- the processes ------------------------------------------------------------------------

    def _spawn(self, name: str, argv: list[str]) -> subprocess.Popen[bytes]:
        self.log_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_dir / f"{name}.log", "ab")  # noqa: SIM115 (kept by the child)
        try:
            return subprocess.Popen(
                argv,
                cwd=BASE_DIR,
                env=self.env(),
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        finally:
            log.close()

    def web_argv(self) -> list[str]:
        """gunicorn's command line: config/gunicorn.py (the Procfile's settings: the worker
        class, its threads and keep-alive, the access log with the tokens masked), then what
        this stack was told."""
        config = self.config
        told: list[str] = []
        if config.web_worker_class:
            told += ["--worker-class", config.web_worker_class]
        # gunicorn makes a sync worker with threads a gthread one: sync is one thread.
        threads = 1 if config.web_worker_class == "sync" else config.web_threads
        if threads:
            told += ["--threads", str(threads)]
        return [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi",
            "--config",
            str(BASE_DIR / "config" / "gunicorn.py"),
            "--bind",
            f"{config.host}:{config.port}",
            "--workers",
            str(config.web_workers),
            "--backlog",
            "2048",
            "--timeout",
            "60",
            "--graceful-timeout",
            "10",
            "--access-logfile",
            str(self.log_dir / "access.log"),
            *told,
        ]

    def start_web(self) -> None:
        self.web = self._spawn("web", self.web_argv())

    def events_argv(self) -> list[str]:
        """granian's command line for the pages' streams: one process (an event loop holds
        every stream), ASGI without lifespan, config/asgi.py (which answers only
        ``/events/`` here: the pages are gunicorn's)."""
        return [
            sys.executable,
            "-m",
            "granian",
            "--interface",
            "asginl",
            "--workers",
            "1",
            "--host",
            self.config.host,
            "--port",
            str(self.events_port),
            "--backlog",
            "4096",
            "--backpressure",
            "4096",
            "--log-level",
            "warning",
            "config.asgi:application",
        ]

    def start_events(self) -> None:
        if self.events_on:
            self.events = self._spawn("events", self.events_argv())

    def start_worker(self) -> None:
        if not (self.config.worker and self.config.broker_url):
            return
        self.worker = self._spawn(
            "worker",
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--loglevel",
                "info",
                "--pool",
                "prefork",
                "--concurrency",
                "1",
                "--without-gossip",
                "--without-mingle",
            ],
        )

    def health(self, timeout: float = 2.0) -> dict[str, Any] | None:
        """The body of /healthz, or None if the server does not answer."""
        try:
            with urllib.request.urlopen(f"{self.url}/healthz", timeout=timeout) as response:
                return dict(json.loads(response.read()))
        except urllib.error.HTTPError as error:
            return dict(json.loads(error.read() or b"{}"))
        except (OSError, ValueError):
            return None

    def wait_healthy(self, timeout: float = 60.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        body: dict[str, Any] | None = None
        while time.monotonic() < deadline:
            self.check_alive()
            body = self.health()
            if body and body.get("status") == "ok":
                return body
            time.sleep(0.2)
        raise StackError(f"{self.url}/healthz did not say ok within {timeout} s: {body}")

    def check_alive(self) -> None:
        for name, process in (("web", self.web), ("worker", self.worker), ("events", self.events)):
            if process is not None and process.poll() is not None:
                log = self.log_dir / f"{name}.log"
                tail = log.read_text(errors="replace")[-3000:] if log.exists() else ""
                raise StackError(f"the {name} process exited ({process.returncode}):\n{tail}")

    def start(self, prepare: bool = True) -> Stack:
        if prepare:
            self.prepare()
        self.start_web()
        self.start_worker()
        self.start_events()
        self.wait_healthy()
        return self

    @staticmethod
    def _signal_group(process: subprocess.Popen[bytes] | None, sig: int) -> None:
        if process is None or process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)

    def _stop(self, process: subprocess.Popen[bytes] | None, grace: float = 10.0) -> None:
        if process is None:
            return
        self._signal_group(process, signal.SIGTERM)
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self._signal_group(process, signal.SIGKILL)
            process.wait(timeout=grace)
        # Whatever the group left behind (a worker child of a master that was killed).
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)

    def kill_web(self) -> None:
        """Crash the web server: SIGKILL to gunicorn's master and all its workers at once."""
        self._signal_group(self.web, signal.SIGKILL)
        if self.web is not None:
            self.web.wait(timeout=10)
        self.web = None

    def kill_events(self) -> None:
        """Crash the pages' streams: SIGKILL to the events process (the pages poll until it
        is back)."""
        self._signal_group(self.events, signal.SIGKILL)
        if self.events is not None:
            self.events.wait(timeout=10)
        self.events = None

    def stop(self) -> None:
        web, worker, events = self.web, self.worker, self.events
        self.web = self.worker = self.events = None
        self._stop(web)
        self._stop(worker)
        self._stop(events)

    def __enter__(self) -> Stack:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.stack",
        description="Start gunicorn and a Celery worker with the production settings.",
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get("STACK_DATABASE_URL", DEFAULT_DATABASE_URL),
        help=f"database to serve (created if missing; default {DEFAULT_DATABASE_URL})",
    )
    parser.add_argument(
        "--broker-url",
        default=os.environ.get("STACK_BROKER_URL", DEFAULT_BROKER_URL),
        help=f'Celery broker, or "none" to run tasks in the web processes '
        f"(default {DEFAULT_BROKER_URL})",
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument(
        "--workers",
        type=int,
        help="gunicorn workers (default two per core, on SQLite one per core)",
    )
    parser.add_argument(
        "--worker-class",
        choices=["gthread", "sync"],
        help="gunicorn's worker class (default config/gunicorn.py's: gthread)",
    )
    parser.add_argument(
        "--threads", type=int, help="threads a gthread worker (default config/gunicorn.py's: 4)"
    )
    parser.add_argument("--no-worker", action="store_true", help="start no Celery worker")
    parser.add_argument("--no-events", action="store_true", help="no event streams: the pages poll")
    parser.add_argument("--state-dir", type=Path, help="logs, media and static files")
    parser.add_argument("--demo", action="store_true", help="load the demo night first")
    args = parser.parse_args(argv)

    broker = None if args.broker_url.strip().lower() in {"", "none"} else args.broker_url
    stack = Stack(
        StackConfig(
            database_url=args.database_url,
            broker_url=broker,
            host=args.host,
            port=args.port,
            web_workers=args.workers,
            web_worker_class=args.worker_class,
            web_threads=args.threads,
            worker=not args.no_worker,
            events=not args.no_events,
            state_dir=args.state_dir,
            secret_key=os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
        )
    )
    stopping = False

    def on_signal(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    try:
        stack.prepare()
        if args.demo:
            stack.config.extra_env["DEMO_COMMAND_ALLOWED"] = "true"
            print(stack.manage("demo").stdout, end="")
        stack.start(prepare=False)
        print(f"web     {stack.url} ({stack.config.web_workers} gunicorn workers)")
        if stack.worker is not None:
            print(f"worker  celery, broker {broker}")
        else:
            print("worker  none: tasks run inside the web processes")
        print(f"logs    {stack.log_dir}")
        print("Ctrl-C stops everything.", flush=True)
        while not stopping:
            stack.check_alive()
            time.sleep(0.5)
    except StackError as error:
        print(f"stack: {error}", file=sys.stderr)
        return 1
    finally:
        stack.stop()
    print("stopped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
