"""Fixtures of the printing tests: a club with an organizer and a scorer, a night with a
game played, the PDFs kept in the test's folder, Celery eager (in-process) whatever the
broker; the real renderers (``scoring.printing.pdf``), or, for the tests of progress and failures,
a small fake of the same signature (``FAKE_PAGES`` pages, ``fake_pdf``)."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.db import connection
from reportlab.lib.pagesizes import A4, letter
from reportlab.pdfgen import canvas

from config.celery import app as celery_app
from drives.models import AuditEntry, Club, Drive, Membership
from drives.services import (
    Actor,
    club_create,
    couples_register,
    drive_create,
    drive_start,
    member_add,
)
from scoring.printing import rendering
from scoring.selectors import game_view
from scoring.services import result_record
from tests.factories import UserFactory

DESK = Actor(channel=AuditEntry.Channel.DESK)
FAKE_PAGES = 12


def fake_render(
    document: str,
    data: dict[str, Any],
    *,
    paper: str = "letter",
    progress: Callable[[int, int], None] | None = None,
) -> bytes:
    """A PDF of FAKE_PAGES pages naming the document, reporting its progress as it goes."""
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer, pagesize=letter if paper == "letter" else A4)
    for page in range(1, FAKE_PAGES + 1):
        pdf.drawString(72, 720, f"{document} {data['drive']['name']} page {page}")
        pdf.showPage()
        if progress is not None:
            progress(page, FAKE_PAGES)
    pdf.save()
    return buffer.getvalue()


@pytest.fixture
def fake_pdf(monkeypatch: pytest.MonkeyPatch) -> None:
    """The renderer replaced by ``fake_render``, for the tests of progress and failures that
    need a known number of pages."""
    monkeypatch.setattr(rendering, "render_pdf", fake_render)


@pytest.fixture(autouse=True)
def media(settings: Any, tmp_path: Path) -> Path:
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def eager() -> Iterator[None]:
    """Tasks run in-process, as in the embedded default (even when a broker is configured)."""
    before = celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = before


@dataclass
class Night:
    club: Club
    drive: Drive
    organizer: Any
    scorer: Any
    outsider: Any


def make_night(couples: int = 8) -> Night:
    club = club_create(name="St. Joseph's Parish")
    organizer = UserFactory(username="print-organizer")
    scorer = UserFactory(username="print-scorer")
    outsider = UserFactory(username="print-outsider")
    member_add(club=club, user=organizer, role=Membership.Role.ORGANIZER)
    member_add(club=club, user=scorer, role=Membership.Role.SCORER)
    other = club_create(name="Legion Branch 12")
    member_add(club=other, user=outsider, role=Membership.Role.ORGANIZER)
    drive = drive_create(club=club, name="Friday 45s", date=date(2026, 11, 20), games=5, actor=DESK)
    players = [{"players": [f"Aucoin, Thérèse {i}", f"Boudreau {i}"]} for i in range(couples)]
    couples_register(drive=drive, couples=players)
    drive_start(drive=drive, actor=DESK)
    drive.refresh_from_db()
    view = game_view(drive, 1)
    assert view is not None
    for table in view["tables"]:
        if not table["sit_out"]:
            result_record(
                drive=drive, game=1, table=table["table"], winner=table["stays"], actor=DESK
            )
    drive.refresh_from_db()
    return Night(club, drive, organizer, scorer, outsider)


@pytest.fixture
def night(db: None) -> Night:
    return make_night()


def database_url() -> str:
    """The URL of the database this test runs on (the test database, by its name)."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    user = quote(db.get("USER") or "", safe="")
    password = quote(db.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else f"{user}@" if user else ""
    host = db.get("HOST") or "localhost"
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{auth}{host}{port}/{db['NAME']}"
