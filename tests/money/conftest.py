"""Fixtures of the money tests: the API client and a club (from tests/api), a drive of 6
couples with an entry fee of 20.00 CAD a couple, and the treasurer's sheet printed as the
money page's button prints it (the print path, its task run in-process)."""

import io
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from config.celery import app as celery_app
from drives.models import Drive
from scoring.models import Document
from tests.api.helpers import Api, ClubUsers, make_club, make_drive

Sheet = Callable[..., str]


@pytest.fixture
def api() -> Api:
    return Api(Client())


@pytest.fixture
def ours(db: None) -> ClubUsers:
    return make_club("St. Joseph's Parish", "ours")


@pytest.fixture
def drive(ours: ClubUsers) -> Drive:
    return make_drive(ours.club, 6, entry_fee=Decimal("20.00"), entry_fee_per="couple")


@pytest.fixture
def treasurers_sheet(
    settings: Any, tmp_path: Path, django_capture_on_commit_callbacks: Any
) -> Iterator[Sheet]:
    """``printed(client, drive, **headers)``: the text of the treasurer's sheet the money
    page's button prints (a POST to the print page, its status read, then its PDF
    downloaded), its words one space apart."""
    settings.MEDIA_ROOT = tmp_path / "media"
    conf = celery_app.conf
    before = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager = conf.task_eager_propagates = True

    def printed(client: Client, drive: Drive, **headers: Any) -> str:
        ask = reverse("night:print_request", kwargs={"slug": drive.slug})
        with django_capture_on_commit_callbacks(execute=True):
            asked = client.post(ask, {"document": "accounts"}, **headers)
        assert asked.status_code == 302, asked
        document = Document.objects.filter(drive=drive, kind="accounts").latest("pk")
        status = client.get(
            reverse("night:print_status", kwargs={"slug": drive.slug, "pk": document.pk})
        ).json()
        assert status["ready"], status
        answer = client.get(status["download_url"])
        assert answer["Content-Type"] == "application/pdf"
        assert f"{drive.slug}-accounts-letter.pdf" in answer["Content-Disposition"]
        pdf = b"".join(answer.streaming_content)
        pages = PdfReader(io.BytesIO(pdf)).pages
        return " ".join(" ".join(page.extract_text() for page in pages).split())

    yield printed
    conf.task_always_eager, conf.task_eager_propagates = before
