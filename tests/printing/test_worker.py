"""A real Celery worker renders a document: the worker is started as a process with the same
settings and the test's own database (by name), listening on a queue of its own; the test
asks for a document, waits (60 s at most) for it to be done, checks the PDF, and stops the
worker whatever happens. Needs Redis (``CELERY_BROKER_URL=redis://…``): CI's second pass, on
PostgreSQL."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from pypdf import PdfReader

from config.celery import app as celery_app
from scoring.models import Document
from scoring.printing import services as printing
from scoring.printing.services import document_request
from scoring.printing.tasks import render_document
from tests.printing.conftest import DESK, database_url, make_night

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]

WAIT = 60


def start_worker(queue: str, media: Path, log: Path) -> subprocess.Popen[bytes]:
    env = os.environ | {
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": database_url(),
        "MEDIA_ROOT": str(media),
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
    }
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        "--pool=solo",
        "--concurrency=1",
        "-Q",
        queue,
        "-n",
        f"{queue}@%h",
        "--without-heartbeat",
        "--without-gossip",
        "--without-mingle",
        "-l",
        "info",
    ]
    with log.open("wb") as out:
        return subprocess.Popen(
            command,
            cwd=settings.BASE_DIR,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def stop(worker: subprocess.Popen[bytes]) -> None:
    if worker.poll() is None:
        worker.terminate()
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait(timeout=15)


def test_a_worker_renders_the_document(
    media: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert not celery_app.conf.task_always_eager
    queue = f"print-test-{uuid.uuid4().hex[:12]}"

    def send(document_id: int, task_id: str) -> Any:
        return render_document.apply_async(args=[document_id], task_id=task_id, queue=queue)

    monkeypatch.setattr(printing, "_send", send)
    night = make_night()
    log = tmp_path / "worker.log"
    worker = start_worker(queue, media, log)
    try:
        document = document_request(night.drive, "table-cards", DESK, paper="a4")
        assert document.status == "queued"  # committed, sent: the worker does the rest
        deadline = time.monotonic() + WAIT
        while document.status in ("queued", "running") and time.monotonic() < deadline:
            assert worker.poll() is None, log.read_text(errors="replace")
            time.sleep(0.2)
            document.refresh_from_db()
        assert document.status == "done", (document.status, document.error, log.read_text())
        reader = PdfReader(media / document.file.name)
        assert len(reader.pages) == document.pages_total == document.pages_done > 0
        # Safe to run twice: sent again, the worker leaves the document alone.
        again = render_document.apply_async(args=[document.pk], queue=queue)
        assert again.get(timeout=WAIT) == "up-to-date"
        assert Document.objects.get().file.name == document.file.name
    finally:
        stop(worker)
    assert document.task_id in log.read_text(errors="replace")
