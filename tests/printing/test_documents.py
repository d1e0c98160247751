"""Printed documents on the eager path (tasks in-process, as the embedded default runs them):
request → done → a PDF with the right pages; asked again → the same document at once; the
data changes → stale → rendered again; progress saved as pages are drawn; options checked;
a failure recorded; the task safe to run twice."""

from __future__ import annotations

import io
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from drives.errors import ServiceError
from scoring.models import Document
from scoring.printing import rendering
from scoring.printing import services as printing
from scoring.printing.rendering import document_run
from scoring.printing.services import document_is_stale, document_request, document_status
from scoring.printing.tasks import render_document
from scoring.services import result_resolve
from tests.printing.conftest import DESK, FAKE_PAGES, Night, fake_render

pytestmark = pytest.mark.usefixtures("eager")


def request(capture: Any, night: Night, kind: str, **options: Any) -> Document:
    with capture(execute=True):
        document = document_request(night.drive, kind, DESK, **options)
    document.refresh_from_db()
    return document


def pdf_of(document: Document) -> PdfReader:
    with document.file.open("rb") as handle:
        data = handle.read()
    assert data.startswith(b"%PDF-")
    return PdfReader(io.BytesIO(data))


@pytest.mark.parametrize("kind", rendering.KINDS)
def test_each_document_is_rendered_to_a_pdf(
    night: Night, django_capture_on_commit_callbacks: Any, media: Path, kind: str
) -> None:
    document = request(django_capture_on_commit_callbacks, night, kind)
    assert document.status == Document.Status.DONE, document.error
    reader = pdf_of(document)
    assert len(reader.pages) == document.pages_total == document.pages_done > 0
    assert document.file.name.startswith(f"documents/{night.drive.slug}/")
    assert (media / document.file.name).is_file()
    assert document.finished_at is not None and document.task_id
    game_part = "-game-1" if kind == "movement" else ""
    assert document_status(document) | {"requested_at": "", "finished_at": ""} == {
        "id": document.pk,
        "document": kind,
        "paper": "letter",
        "game": 1 if kind == "movement" else None,
        "couple": None,
        "filled": False,
        "status": "done",
        "pages_done": len(reader.pages),
        "pages_total": len(reader.pages),
        "progress": 1.0,
        "error": None,
        "stale": False,
        "ready": True,
        "requested_at": "",
        "finished_at": "",
        "filename": f"{night.drive.slug}-{kind}{game_part}-letter.pdf",
    }


@pytest.mark.parametrize(("paper", "size"), [("letter", (612, 792)), ("a4", (595, 842))])
def test_the_paper_size(
    night: Night, django_capture_on_commit_callbacks: Any, paper: str, size: Any
) -> None:
    document = request(django_capture_on_commit_callbacks, night, "table-cards", paper=paper)
    box = pdf_of(document).pages[0].mediabox
    assert sorted((round(float(box.width)), round(float(box.height)))) == sorted(size)


def test_one_couples_card_and_the_filled_cards(
    night: Night, django_capture_on_commit_callbacks: Any
) -> None:
    one = request(django_capture_on_commit_callbacks, night, "punch-cards", couple=3)
    filled = request(django_capture_on_commit_callbacks, night, "punch-cards", filled=True)
    everyone = request(django_capture_on_commit_callbacks, night, "punch-cards")
    assert len({one.pk, filled.pk, everyone.pk}) == 3
    assert {d.status for d in (one, filled, everyone)} == {"done"}
    assert document_status(one)["filename"].endswith("-punch-cards-couple-3-letter.pdf")
    assert len(pdf_of(one).pages) == 1
    assert "Thérèse 2" in pdf_of(one).pages[0].extract_text()


def test_an_up_to_date_document_comes_back_at_once(
    night: Night, django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    first = request(django_capture_on_commit_callbacks, night, "results")
    sent: list[int] = []
    monkeypatch.setattr(printing, "_send", lambda pk, task: sent.append(pk))
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        again = document_request(night.drive, "results", DESK)
    assert again.pk == first.pk and again.up_to_date
    assert callbacks == [] and sent == []
    assert again.file.name == first.file.name
    assert Document.objects.count() == 1


def test_a_change_of_the_data_makes_it_stale_and_it_is_rendered_again(
    night: Night, django_capture_on_commit_callbacks: Any, media: Path
) -> None:
    first = request(django_capture_on_commit_callbacks, night, "results")
    old_file, old_version = first.file.name, first.data_version
    assert not document_is_stale(first)
    result_resolve(
        drive=night.drive, game=1, table=1, winner=2, reason="scored the wrong way", actor=DESK
    )
    assert document_is_stale(first)
    assert document_status(first)["stale"] is True
    again = request(django_capture_on_commit_callbacks, night, "results")
    assert again.pk == first.pk  # kept until replaced: the same document, a new PDF
    assert not again.up_to_date
    assert again.status == "done" and again.data_version != old_version
    assert again.file.name != old_file
    assert not (media / old_file).exists() and (media / again.file.name).is_file()
    assert not document_is_stale(again)


def test_progress_is_saved_as_pages_are_drawn(
    night: Night, fake_pdf: None, django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    seen: list[tuple[str, int, int]] = []

    def watching(kind: str, data: Any, *, paper: str, progress: Any = None) -> bytes:
        def report(done: int, total: int) -> None:
            progress(done, total)
            row = Document.objects.get()
            seen.append((row.status, row.pages_done, row.pages_total))

        return fake_render(kind, data, paper=paper, progress=report)

    monkeypatch.setattr(rendering, "render_pdf", watching)
    document = request(django_capture_on_commit_callbacks, night, "table-cards")
    assert document.status == "done"
    assert {status for status, _, _ in seen} == {"running"}
    assert {total for _, _, total in seen} == {FAKE_PAGES}
    saved = sorted({done for _, done, _ in seen})
    assert saved == [1, 5, 10, 12]  # every few pages, and the last


def test_a_queued_document_reports_its_state(
    night: Night, fake_pdf: None, django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    monkeypatch.setattr(printing, "_send", lambda pk, task: None)  # no worker picks it up
    with django_capture_on_commit_callbacks(execute=True):
        document = document_request(night.drive, "table-cards", DESK, paper="a4")
    status = document_status(document)
    assert (status["status"], status["ready"], status["progress"]) == ("queued", False, 0.0)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        again = document_request(night.drive, "table-cards", DESK, paper="a4")
    assert again.pk == document.pk and callbacks == []  # already on its way: not sent twice


def test_the_task_is_safe_to_run_twice(
    night: Night, fake_pdf: None, django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    document = request(django_capture_on_commit_callbacks, night, "score-sheets", game=2)
    calls: list[str] = []
    monkeypatch.setattr(rendering, "render_pdf", lambda *a, **k: calls.append("x") or b"")
    assert render_document.delay(document.pk).get() == "up-to-date"
    assert document_run(document.pk) == "up-to-date"
    assert document_run(999_999) == "missing"
    assert calls == []
    document.refresh_from_db()
    assert document.status == "done" and len(pdf_of(document).pages) == FAKE_PAGES


def test_a_failure_is_recorded(
    night: Night, django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    def broken(*args: Any, **kwargs: Any) -> bytes:
        raise RuntimeError("out of ink")

    monkeypatch.setattr(rendering, "render_pdf", broken)
    document = request(django_capture_on_commit_callbacks, night, "table-cards")
    assert document.status == "failed"
    assert "out of ink" in document.error and not document.file.name
    assert document_status(document)["error"] == document.error


@pytest.mark.parametrize(
    ("kind", "options", "code"),
    [
        ("posters", {}, "bad_document"),
        ("table-cards", {"paper": "legal"}, "bad_paper"),
        ("table-cards", {"game": 2}, "bad_game"),
        ("movement", {"game": 6}, "bad_game"),
        ("movement", {"game": 3}, "game_not_started"),
        ("score-sheets", {"game": "two"}, "bad_game"),
        ("score-sheets", {"game": True}, "bad_game"),
        ("punch-cards", {"couple": 99}, "bad_couple"),
        ("results", {"couple": 1}, "bad_couple"),
        ("results", {"filled": True}, "bad_filled"),
        ("punch-cards", {"filled": "yes"}, "bad_filled"),
        ("punch-cards", {"base_url": "javascript:alert(1)"}, "bad_base_url"),
    ],
)
def test_options_are_checked(night: Night, kind: str, options: Any, code: str) -> None:
    with pytest.raises(ServiceError) as info:
        document_request(night.drive, kind, DESK, **options)
    assert info.value.code == code and info.value.status == 422
    assert Document.objects.count() == 0


def test_a_document_lost_on_its_way_is_sent_again(
    night: Night, fake_pdf: None, django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    sent: list[str] = []
    monkeypatch.setattr(printing, "_send", lambda pk, task: sent.append(task))
    with django_capture_on_commit_callbacks(execute=True):
        document = document_request(night.drive, "results", DESK)
    Document.objects.filter(pk=document.pk).update(
        created_at=document.created_at - printing.LOST_AFTER - timedelta(seconds=1)
    )
    with django_capture_on_commit_callbacks(execute=True):
        again = document_request(night.drive, "results", DESK)
    assert again.pk == document.pk and len(sent) == 2 and sent[0] != sent[1]
    assert again.task_id == sent[1] and again.status == "queued"


def test_the_celery_settings_of_a_real_broker() -> None:
    from config.settings.env import celery_settings, read

    config = celery_settings(read({"CELERY_BROKER_URL": "redis://cache:6379/0"}))
    assert config["CELERY_TASK_ACKS_LATE"] is True
    assert config["CELERY_WORKER_PREFETCH_MULTIPLIER"] == 1
    soft, hard = config["CELERY_TASK_SOFT_TIME_LIMIT"], config["CELERY_TASK_TIME_LIMIT"]
    assert 0 < soft < hard < config["CELERY_BROKER_TRANSPORT_OPTIONS"]["visibility_timeout"]
    assert render_document.acks_late and render_document.time_limit == hard
    assert render_document.soft_time_limit == soft
