"""Worker faults on the production path (PostgreSQL, Redis, a prefork Celery worker).

The worker tests start a private ``redis-server`` on a free port (the shared one is never
stopped) and real workers (``celery -A config worker --pool=prefork --concurrency=1``, each
in its own process group) on the test's PostgreSQL database, with short limits from the
environment (``CELERY_TASK_SOFT_TIME_LIMIT``, ``CELERY_TASK_TIME_LIMIT``,
``CELERY_VISIBILITY_TIMEOUT``). The document is genuinely large (the punch cards of 500
couples, 63 pages); the worker adds a short pause after each page (``WORKER_MAIN``) so that a
kill or a time limit lands in the middle of the rendering whatever the machine's speed.

- ``kill -9`` of the pool process mid-render: its main process sends the task again; then
  ``kill -9`` of the whole worker mid-render: the next worker renders the document once,
  from the start (Redis restores the unacknowledged task after the visibility timeout), and
  nothing runs again afterwards. Renderings are counted in the workers' logs.
- Redis down when a document is asked for: a clear 503 within a few seconds, the document
  failed with the reason; Redis back within the publish retries: the document is done.
- Time limits: a rendering past the soft limit, and one deaf to it killed at the hard limit,
  end failed with the limit in the reason, never run again.

The other tests (the audit of print requests, a document lost on its way, the settings'
rules) need no service.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.db import connections
from django.test import Client
from django.urls import reverse
from kombu.exceptions import OperationalError
from pypdf import PdfReader

from config.celery import app as celery_app
from config.settings.env import celery_settings, read
from drives.models import AuditEntry, Drive, Membership
from drives.services import (
    Actor,
    api_token_create,
    club_create,
    couples_register,
    drive_create,
    member_add,
)
from scoring.models import Document
from scoring.printing import rendering
from scoring.printing import services as printing
from scoring.printing.rendering import document_run
from scoring.printing.services import QUEUE_DOWN, document_request, document_status
from scoring.printing.tasks import render_document
from tests.factories import UserFactory
from tests.printing.conftest import Night, database_url, fake_render, make_night

DESK = Actor(channel=AuditEntry.Channel.DESK)
COUPLES = 500
LARGE = 50  # pages at least: the punch cards of 500 couples are 63 pages (8 a page)
WAIT = 60  # the longest any step may take before the test gives up on it

SERVICES = [
    pytest.mark.integration,
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]


def needs_services(test: Callable[..., None]) -> Callable[..., None]:
    """PostgreSQL and Redis (CI's second pass), rows committed for the worker to see."""
    for mark in SERVICES:
        test = mark(test)
    return test


# The worker's main: the renderer pauses FAULTS_PAGE_DELAY seconds after each page; with
# paper FAULTS_DEAF_PAPER it hears neither the soft time limit (SIGUSR1) nor the TERM that
# comes first at the hard one, as during a long call into C: only the KILL stops it.
WORKER_MAIN = r"""
import os, signal, sys, time
import django
django.setup()
from scoring.printing import rendering

DELAY = float(os.environ["FAULTS_PAGE_DELAY"])
DEAF_PAPER = os.environ.get("FAULTS_DEAF_PAPER", "")
real_render = rendering.render_pdf

def slow_render(kind, data, *, paper, progress=None):
    if paper == DEAF_PAPER:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1, signal.SIGTERM})
    def step(done, total):
        time.sleep(DELAY)
        if progress is not None:
            progress(done, total)
    return real_render(kind, data, paper=paper, progress=step)

rendering.render_pdf = slow_render
from celery.__main__ import main
sys.argv = ["celery", *sys.argv[1:]]
sys.exit(main())
"""


# --- the private Redis and the workers --------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PrivateRedis:
    """A redis-server of the test's own on a free port, without persistence: stopping it
    loses what it held, as a restarted Redis without a disk does."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("redis-server is not installed", pytrace=False)
        command = [
            binary,
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--daemonize",
            "no",
            "--dir",
            str(self.folder),
        ]
        with (self.folder / "redis.log").open("ab") as log:
            self.process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        try:
            wait_for(self.answers, 10, "the private Redis to answer")
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()  # no shutdown save: gone at once, as in a crash
            self.process.wait(timeout=10)
        self.process = None

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, socket_timeout=5)

    def answers(self) -> bool:
        try:
            return bool(self.client().ping())
        except redis.RedisError:
            return False


class Worker:
    """A prefork worker (one pool process) in its own process group, its log in a file."""

    def __init__(self, name: str, broker: str, folder: Path, **env: str) -> None:
        self.name = name
        self.log_path = folder / f"worker-{name}.log"
        environment = os.environ | {
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": database_url(),
            "MEDIA_ROOT": str(settings.MEDIA_ROOT),
            "CELERY_BROKER_URL": broker,
            "CELERY_RESULT_BACKEND": broker,
            "PYTHONPATH": str(settings.BASE_DIR),
            **env,
        }
        command = [
            sys.executable,
            "-c",
            WORKER_MAIN,
            "-A",
            "config",
            "worker",
            "--pool=prefork",
            "--concurrency=1",
            "-n",
            f"{name}@%h",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
            "-l",
            "info",
        ]
        with self.log_path.open("wb") as out:
            self.process = subprocess.Popen(
                command,
                cwd=settings.BASE_DIR,
                env=environment,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kill(self) -> None:
        """``kill -9`` of the worker: its main process and its pool process, at once."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def kill_pool_process(self) -> None:
        """``kill -9`` of the pool process only (the main process lives on)."""
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        pids = [int(pid) for pid in children.read_text().split()]
        assert len(pids) == 1, pids
        os.kill(pids[0], signal.SIGKILL)

    def stop(self) -> None:
        """At the end of a test: nothing of the worker is left running."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def received(self, task_id: str) -> int:
        return self.log().count(f"Task scoring.render_document[{task_id}] received")

    def finished(self, task_id: str, outcome: str) -> int:
        pattern = rf"Task scoring\.render_document\[{task_id}\] succeeded in [\d.]+s: '{outcome}'"
        return len(re.findall(pattern, self.log()))


def wait_for(check: Callable[[], Any], seconds: float, what: str, *logs: Worker) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    tails = "\n".join(f"--- {w.name}\n{w.log()[-4000:]}" for w in logs)
    raise AssertionError(f"gave up waiting for {what} after {seconds} s\n{tails}")


@pytest.fixture(scope="module")
def private_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PrivateRedis]:
    server = PrivateRedis(tmp_path_factory.mktemp("redis"))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def broker(private_redis: PrivateRedis, monkeypatch: pytest.MonkeyPatch) -> Iterator[PrivateRedis]:
    """The private Redis, empty, as this process's broker too (tasks sent, not run here).
    Celery reads CELERY_BROKER_URL from the environment before its settings."""
    if not private_redis.answers():
        private_redis.start()
    private_redis.client().flushall()
    conf = celery_app.conf
    before = conf.broker_url, conf.result_backend, conf.task_always_eager
    backends = celery_app._backend_cache, getattr(celery_app._local, "backend", None)
    monkeypatch.setenv("CELERY_BROKER_URL", private_redis.url)
    monkeypatch.setenv("CELERY_RESULT_BACKEND", private_redis.url)
    conf.broker_url = conf.result_backend = private_redis.url
    conf.task_always_eager = False
    # Drop the connection pools and the result backend made for the other broker.
    celery_app._backend_cache = celery_app._local.backend = None
    celery_app._after_fork()
    try:
        yield private_redis
    finally:
        conf.broker_url, conf.result_backend, conf.task_always_eager = before
        celery_app._backend_cache, celery_app._local.backend = backends
        celery_app._after_fork()


@pytest.fixture
def media(settings: Any, tmp_path: Path) -> Path:
    settings.MEDIA_ROOT = tmp_path / "media"
    return Path(settings.MEDIA_ROOT)


@pytest.fixture
def workers(broker: PrivateRedis, tmp_path: Path, media: Path) -> Iterator[Callable[..., Worker]]:
    """``workers(name, **env)`` starts a worker; every one is stopped at the end."""
    started: list[Worker] = []

    def start(name: str, **env: str) -> Worker:
        worker = Worker(name, broker.url, tmp_path, **env)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()


def big_drive(couples: int = COUPLES) -> tuple[Drive, Any]:
    club = club_create(name="Knights of Columbus Hall")
    organizer = UserFactory(username="faults-organizer")
    member_add(club=club, user=organizer, role=Membership.Role.ORGANIZER)
    drive = drive_create(club=club, name="Big Night", date=date(2026, 12, 4), games=5, actor=DESK)
    players = [{"players": [f"LeBlanc, Marie {i}", f"Doucet {i}"]} for i in range(couples)]
    couples_register(drive=drive, couples=players)
    return drive, organizer


def the_queue_is_empty(server: PrivateRedis) -> bool:
    """Nothing waiting, nothing delivered and unacknowledged."""
    client = server.client()
    return (client.llen("celery"), client.hlen("unacked"), client.zcard("unacked_index")) == (
        0,
        0,
        0,
    )


def document_pages(document: Document) -> int:
    document.refresh_from_db()
    return document.pages_done


def pdfs(media: Path) -> list[Path]:
    return sorted(media.rglob("*.pdf"))


# --- kill -9 mid-render -----------------------------------------------------------------------

# Limits of the kill test: the slowed rendering (about 2 s) stays well under the soft limit.
KILL_ENV = {
    "CELERY_TASK_SOFT_TIME_LIMIT": "6",
    "CELERY_TASK_TIME_LIMIT": "7",
    "CELERY_VISIBILITY_TIMEOUT": "8",
    "FAULTS_PAGE_DELAY": "0.03",
}


@needs_services
def test_a_worker_killed_mid_render_leaves_the_document_to_the_next_one(
    broker: PrivateRedis, workers: Callable[..., Worker], media: Path
) -> None:
    drive, _ = big_drive()
    first = workers("first", **KILL_ENV)
    document = document_request(drive, "punch-cards", DESK)
    task = document.task_id

    def mid_render() -> bool:
        document.refresh_from_db()
        return document.status == "running" and 10 <= document.pages_done < document.pages_total

    # The pool process dies (as when out of memory): its main process sends the task again.
    wait_for(mid_render, WAIT, "the rendering to be under way", first)
    first.kill_pool_process()
    wait_for(lambda: first.received(task) == 2, WAIT, "the task to be sent again", first)
    assert "WorkerLostError" in first.log()
    document.refresh_from_db()
    assert document.status == "running" and pdfs(media) == []

    # The whole worker dies with kill -9, mid-render of that second try (which starts again
    # from page 0).
    wait_for(lambda: document_pages(document) < 10, WAIT, "the second try to start", first)
    wait_for(mid_render, WAIT, "the second try to be under way", first)
    first.kill()
    document.refresh_from_db()
    assert document.status == "running" and pdfs(media) == []
    assert document.pages_done < document.pages_total
    # Delivered, never acknowledged: Redis keeps it aside until the visibility timeout.
    assert broker.client().hlen("unacked") == 1
    assert first.finished(task, "done") == 0

    second = workers("second", **KILL_ENV)
    wait_for(lambda: second.finished(task, "done"), WAIT, "the next worker to render it", second)
    document.refresh_from_db()
    assert (document.status, document.error) == ("done", "")
    assert document.pages_done == document.pages_total >= LARGE
    assert pdfs(media) == [media / document.file.name]
    assert len(PdfReader(media / document.file.name).pages) == document.pages_total
    finished_at = document.finished_at

    # No loop: a visibility timeout and more later, nothing ran again and nothing waits.
    time.sleep(int(KILL_ENV["CELERY_VISIBILITY_TIMEOUT"]) + 3)
    assert second.received(task) == 1 and second.finished(task, "done") == 1
    assert first.finished(task, "done") == 0
    assert the_queue_is_empty(broker)
    document.refresh_from_db()
    assert (document.status, document.finished_at) == ("done", finished_at)
    assert pdfs(media) == [media / document.file.name]
    assert AuditEntry.objects.filter(action="document.print").count() == 1


# --- Redis down -------------------------------------------------------------------------------


def post_in_time(send: Callable[[], Any], what: str) -> Any:
    """The response of ``send()``, failing (not hanging) if none comes within WAIT seconds."""
    answer: list[Any] = []

    def run() -> None:
        try:
            answer.append(send())
        finally:
            connections.close_all()  # this thread's own database connection

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(WAIT)
    assert answer, f"{what}: no answer within {WAIT} s"
    return answer[0]


@needs_services
def test_with_redis_down_a_request_fails_clearly_and_works_once_it_is_back(
    broker: PrivateRedis, workers: Callable[..., Worker], media: Path
) -> None:
    drive, organizer = big_drive(couples=40)
    worker = workers("steady", **KILL_ENV)
    api = Client()
    token = api_token_create(user=organizer)
    path = f"/api/v1/drives/{drive.slug}/documents"

    def ask(paper: str) -> Any:
        return api.post(
            path,
            {"document": "punch-cards", "paper": paper},
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {token}",
        )

    broker.stop()
    answer = post_in_time(lambda: ask("letter"), "a request with Redis down")
    assert answer.status_code == 503, answer.content
    assert answer.json()["code"] == "print_queue_down"
    assert answer.json()["message"] == QUEUE_DOWN
    document = Document.objects.get(pk=answer.json()["document"])
    assert (document.status, document.error) == ("failed", QUEUE_DOWN)  # never "queued"
    status = api.get(f"{path}/{document.pk}", HTTP_AUTHORIZATION=f"Bearer {token}").json()
    assert (status["status"], status["error"]) == ("failed", QUEUE_DOWN)
    entry = AuditEntry.objects.get(action="document.print")
    assert (entry.channel, entry.user, entry.subject) == ("api", organizer, "punch-cards")

    # Redis back: asking again sends it afresh and the worker (reconnected) renders it.
    broker.start()
    again = post_in_time(lambda: ask("letter"), "a request with Redis back")
    assert again.status_code == 202 and again.json()["id"] == document.pk
    document.refresh_from_db()
    task = document.task_id
    wait_for(lambda: worker.finished(task, "done"), WAIT, "the worker to render it", worker)
    document.refresh_from_db()
    assert (document.status, document.error) == ("done", "")

    # Redis gone for a moment while a request is being sent: the retries carry it through.
    broker.stop()
    comeback = threading.Timer(1.5, broker.start)
    comeback.start()
    late = post_in_time(lambda: ask("a4"), "a request while Redis restarts")
    comeback.join()
    assert late.status_code == 202, late.content
    other = Document.objects.get(pk=late.json()["id"])
    wait_for(lambda: worker.finished(other.task_id, "done"), WAIT, "the a4 rendering", worker)
    other.refresh_from_db()
    assert other.status == "done"
    assert len(PdfReader(media / other.file.name).pages) == other.pages_total > 0


# --- time limits ------------------------------------------------------------------------------


@needs_services
def test_a_rendering_past_its_time_limits_fails_clearly_and_is_not_run_again(
    broker: PrivateRedis, workers: Callable[..., Worker], media: Path
) -> None:
    drive, _ = big_drive()
    env = {
        "CELERY_TASK_SOFT_TIME_LIMIT": "2",
        "CELERY_TASK_TIME_LIMIT": "3",
        "CELERY_VISIBILITY_TIMEOUT": "5",
        "FAULTS_PAGE_DELAY": "0.1",  # 50 pages and more: over 5 s
        "FAULTS_DEAF_PAPER": "a4",
    }
    worker = workers("limited", **env)
    soft = document_request(drive, "punch-cards", DESK)  # hears the soft limit
    deaf = document_request(drive, "punch-cards", DESK, paper="a4")  # killed at the hard one

    def ended(document: Document) -> bool:
        document.refresh_from_db()
        return document.status in ("done", "failed")

    wait_for(lambda: ended(soft), WAIT, "the soft time limit", worker)
    wait_for(lambda: ended(deaf), WAIT, "the hard time limit", worker)
    assert (soft.status, soft.error) == (
        "failed",
        "The rendering took longer than 2 s and was stopped.",
    )
    assert (deaf.status, deaf.error) == (
        "failed",
        "The rendering took longer than 3 s and was stopped.",
    )
    # The worker's main process logs the hard limit as it marks the task failed: the line
    # may reach the log a moment after the document's status reaches the database.
    wait_for(lambda: "Hard time limit (3" in worker.log(), 10, "the hard limit's log line", worker)

    time.sleep(int(env["CELERY_VISIBILITY_TIMEOUT"]) + 2)
    assert worker.received(soft.task_id) == 1 and worker.received(deaf.task_id) == 1
    assert the_queue_is_empty(broker)
    assert [d.status for d in Document.objects.order_by("pk")] == ["failed", "failed"]
    assert pdfs(media) == []


# --- without services: the audit, a document lost on its way, the settings' rules -----------


@pytest.fixture
def night(transactional_db: None, media: Path) -> Night:
    """A small night; rows committed as they would be in a request (on_commit runs)."""
    return make_night()


@pytest.fixture
def unsent(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Tasks are not sent anywhere: their ids are kept."""
    sent: list[str] = []
    monkeypatch.setattr(printing, "_send", lambda pk, task: sent.append(task))
    return sent


def print_entries() -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(action="document.print").order_by("id"))


def test_every_print_request_is_audited_with_its_channel(
    night: Night, unsent: list[str], tmp_path: Path
) -> None:
    desk = Client()
    desk.force_login(night.organizer)
    url = reverse("night:print_request", kwargs={"slug": night.drive.slug})
    asked = desk.post(url, {"document": "punch-cards", "paper": "a4", "couple": "3"})
    assert asked.status_code == 302
    token = api_token_create(user=night.scorer)
    api = Client().post(
        f"/api/v1/drives/{night.drive.slug}/documents",
        {"document": "score-sheets", "game": 1},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert api.status_code == 202
    output = tmp_path / "results.pdf"
    call_command(
        "drive",
        "print",
        night.drive.slug,
        "--document",
        "results",
        "-o",
        str(output),
        stdout=io.StringIO(),
    )
    refused = desk.post(url, {"document": "posters"})
    assert refused.status_code == 422

    entries = print_entries()
    assert [(e.channel, e.user, e.subject) for e in entries] == [
        ("desk", night.organizer, "punch-cards"),
        ("api", night.scorer, "score-sheets"),
        ("cli", None, "results"),
    ]  # the refused request left nothing
    assert entries[0].new == {
        "document": "punch-cards",
        "paper": "a4",
        "game": None,
        "couple": 3,
        "filled": False,
        "language": "en",
        "status": "queued",
    }
    assert (entries[1].new["game"], entries[2].new["status"]) == (1, "rendered")
    assert all(e.drive == night.drive and e.at is not None for e in entries)


def test_a_request_while_the_print_queue_is_down_fails_clearly(
    night: Night, monkeypatch: pytest.MonkeyPatch
) -> None:
    def down(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(render_document, "apply_async", down)
    desk = Client()
    desk.force_login(night.organizer)
    url = reverse("night:print_request", kwargs={"slug": night.drive.slug})
    page = desk.post(url, {"document": "table-cards"})
    assert page.status_code == 503
    assert "The print queue is not reachable: try again in a moment." in page.content.decode()
    document = Document.objects.get()
    assert (document.status, document.error) == ("failed", QUEUE_DOWN)
    assert document_status(document)["status"] == "failed"
    assert [e.new["status"] for e in print_entries()] == ["queued"]  # asked, then failed


def test_a_document_no_worker_started_fails_and_is_sent_afresh(
    night: Night, unsent: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rendering, "render_pdf", fake_render)
    document = document_request(night.drive, "results", DESK)
    assert document_status(document)["status"] == "queued"  # not yet lost
    Document.objects.update(created_at=document.created_at - printing.QUEUED_TIMEOUT)
    document.refresh_from_db()
    status = document_status(document)
    assert status["status"] == "failed" and status["error"].startswith(
        "No print worker started this document within 120 s"
    )
    again = document_request(night.drive, "results", DESK)
    assert (again.pk, again.status, again.task_id) == (document.pk, "queued", unsent[1])
    assert unsent[0] != unsent[1]
    assert document_run(document.pk, task_id=unsent[0]) == "superseded"  # the old request's
    assert Document.objects.get().status == "queued"
    assert document_run(document.pk, task_id=unsent[1]) == "done"

    # Running long past any time limit: its worker is gone.
    third = document_request(night.drive, "results", DESK, paper="a4")
    lost_at = third.created_at - printing.QUEUED_TIMEOUT - printing.LOST_AFTER
    Document.objects.filter(pk=third.pk).update(status="running", created_at=lost_at)
    third.refresh_from_db()
    assert document_status(third)["error"] == (
        "The print worker stopped while rendering this document. Ask for it again."
    )


def test_failures_the_task_cannot_record_itself_are_recorded(
    night: Night, unsent: list[str], settings: Any
) -> None:
    from billiard.exceptions import WorkerLostError
    from celery.exceptions import TimeLimitExceeded
    from celery.signals import task_failure

    first = document_request(night.drive, "results", DESK)
    second = document_request(night.drive, "table-cards", DESK)
    for document, error in ((first, TimeLimitExceeded(360)), (second, WorkerLostError())):
        task_failure.send(
            sender=render_document, task_id=document.task_id, exception=error, args=[document.pk]
        )
    first.refresh_from_db()
    second.refresh_from_db()
    limit = settings.CELERY_TASK_TIME_LIMIT
    assert (first.status, first.error) == (
        "failed",
        f"The rendering took longer than {limit} s and was stopped.",
    )
    assert second.status == "failed" and second.error.startswith(
        "The print worker stopped while rendering this document, 3 times: it was given up."
    )
    # An older request's task failing leaves the newer request alone.
    again = document_request(night.drive, "results", DESK)
    task_failure.send(
        sender=render_document,
        task_id="an-older-one",
        exception=TimeLimitExceeded(1),
        args=[again.pk],
    )
    assert Document.objects.get(pk=again.pk).status == "queued"


def test_time_limits_and_visibility_timeout_come_from_the_environment() -> None:
    config = celery_settings(
        read(
            {
                "CELERY_BROKER_URL": "redis://cache:6379/0",
                "CELERY_TASK_SOFT_TIME_LIMIT": "5",
                "CELERY_TASK_TIME_LIMIT": "6",
                "CELERY_VISIBILITY_TIMEOUT": "8",
            }
        )
    )
    assert (config["CELERY_TASK_SOFT_TIME_LIMIT"], config["CELERY_TASK_TIME_LIMIT"]) == (5, 6)
    options = config["CELERY_BROKER_TRANSPORT_OPTIONS"]
    assert (options["visibility_timeout"], options["unacked_restore_interval"]) == (8, 1)
    defaults = celery_settings(read({"CELERY_BROKER_URL": "redis://cache:6379/0"}))
    assert (defaults["CELERY_TASK_SOFT_TIME_LIMIT"], defaults["CELERY_TASK_TIME_LIMIT"]) == (
        300,
        360,
    )
    assert defaults["CELERY_BROKER_TRANSPORT_OPTIONS"]["visibility_timeout"] == 3600
    assert defaults["CELERY_TASK_PUBLISH_RETRY_POLICY"]["max_retries"] == 5


@pytest.mark.parametrize(
    "environ",
    [
        {"CELERY_TASK_SOFT_TIME_LIMIT": "400"},  # after the hard limit (360)
        {"CELERY_TASK_TIME_LIMIT": "3600"},  # as long as the visibility timeout
        {"CELERY_VISIBILITY_TIMEOUT": "60"},  # shorter than a task may run
        {"CELERY_TASK_SOFT_TIME_LIMIT": "0"},
    ],
)
def test_limits_out_of_order_are_refused(environ: dict[str, str]) -> None:
    with pytest.raises(ImproperlyConfigured, match="CELERY_VISIBILITY_TIMEOUT"):
        celery_settings(read({"CELERY_BROKER_URL": "redis://cache:6379/0", **environ}))
