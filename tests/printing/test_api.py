"""The API's printed documents: POST …/documents → 202 with the status URL (200 when already
up to date), GET …/documents/{id} (status, progress, download URL), GET …/file (the PDF)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from drives.services import api_token_create
from scoring.models import Document
from scoring.services import result_resolve
from tests.api.helpers import Api
from tests.printing.conftest import DESK, Night

pytestmark = pytest.mark.usefixtures("eager")


@pytest.fixture
def api() -> Api:
    return Api(Client())


def test_request_poll_and_download(
    night: Night, api: Api, django_capture_on_commit_callbacks: Any
) -> None:
    token = api_token_create(user=night.organizer)
    path = f"drives/{night.drive.slug}/documents"
    with django_capture_on_commit_callbacks(execute=True):
        asked = api.post(path, {"document": "results", "paper": "letter"}, token=token)
    assert asked.status_code == 202, asked.json()
    body = asked.json()
    document = Document.objects.get()
    status_url = f"http://testserver/api/v1/{path}/{document.pk}"
    assert body["status_url"] == status_url == asked["Location"]
    assert body["status"] == "queued" and body["download_url"] is None

    status = api.get(f"{path}/{document.pk}", token=token).json()
    assert status["status"] == "done" and status["progress"] == 1.0
    assert status["pages_total"] == status["pages_done"] > 0
    assert status["download_url"] == f"{status_url}/file"
    pdf = api.get(f"{path}/{document.pk}/file", token=token)
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert b"".join(pdf.streaming_content).startswith(b"%PDF-")

    again = api.post(path, {"document": "results"}, token=token)
    assert again.status_code == 200 and again.json()["id"] == document.pk
    assert again.json()["download_url"] == f"{status_url}/file"

    result_resolve(drive=night.drive, game=1, table=1, winner=2, reason="wrong", actor=DESK)
    assert api.get(f"{path}/{document.pk}", token=token).json()["stale"] is True
    with django_capture_on_commit_callbacks(execute=True):
        renewed = api.post(path, {"document": "results", "filled": False}, token=token)
    assert renewed.status_code == 202 and renewed.json()["id"] == document.pk


def test_a_scorer_may_print(
    night: Night, api: Api, django_capture_on_commit_callbacks: Any
) -> None:
    token = api_token_create(user=night.scorer)
    with django_capture_on_commit_callbacks(execute=True):
        asked = api.post(
            f"drives/{night.drive.slug}/documents",
            {"document": "movement", "game": 1},
            token=token,
        )
    assert asked.status_code == 202


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"document": "posters"}, 422, "bad_document"),
        ({"document": "results", "paper": "legal"}, 422, "bad_paper"),
        ({"document": "results", "game": 1}, 422, "bad_game"),
        ({"document": "punch-cards", "couple": 99}, 422, "bad_couple"),
        ({"document": "punch-cards", "filled": "yes"}, 422, "bad_filled"),
        # A JSON body's numbers are numbers (the page's form sends text, the API does not).
        ({"document": "movement", "game": "1"}, 422, "bad_game"),
        ({"document": "punch-cards", "couple": "1"}, 422, "bad_couple"),
        ({"document": "results", "colour": "red"}, 422, "unknown_field"),
        ([], 400, "bad_body"),
    ],
)
def test_options_are_checked(night: Night, api: Api, body: Any, status: int, code: str) -> None:
    token = api_token_create(user=night.organizer)
    answer = api.post(f"drives/{night.drive.slug}/documents", body, token=token)
    assert answer.status_code == status
    assert answer.json()["code"] == code
    assert not Document.objects.exists()


def test_outsiders_and_tokens(
    night: Night, api: Api, django_capture_on_commit_callbacks: Any
) -> None:
    path = f"drives/{night.drive.slug}/documents"
    with django_capture_on_commit_callbacks(execute=True):
        pk = api.post(
            path, {"document": "results"}, token=api_token_create(user=night.organizer)
        ).json()["id"]
    outsider = api_token_create(user=night.outsider)
    assert api.post(path, {"document": "results"}, token=outsider).status_code == 404
    assert api.get(f"{path}/{pk}", token=outsider).status_code == 404
    assert api.get(f"{path}/{pk}/file", token=outsider).status_code == 404
    assert api.get(f"{path}/{pk}").status_code == 401
    table_token = night.drive.tables.first().token
    assert api.get(f"{path}/{pk}", token=table_token).status_code == 403
    mine = api_token_create(user=night.organizer)
    assert api.get(f"{path}/{pk + 1}", token=mine).json()["code"] == "no_such_document"


def test_the_file_of_a_document_not_rendered_yet_is_409(
    night: Night, api: Api, monkeypatch: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from scoring.printing import services as printing

    monkeypatch.setattr(printing, "_send", lambda pk, task: None)
    token = api_token_create(user=night.organizer)
    path = f"drives/{night.drive.slug}/documents"
    with django_capture_on_commit_callbacks(execute=True):
        pk = api.post(path, {"document": "results"}, token=token).json()["id"]
    answer = api.get(f"{path}/{pk}/file", token=token)
    assert answer.status_code == 409 and answer.json()["code"] == "not_ready"


def test_the_endpoints_are_described(api: Api, db: None) -> None:
    spec = api.get("openapi.json").json()
    assert set(spec["paths"]["/drives/{slug}/documents"]) >= {"post"}
    assert "get" in spec["paths"]["/drives/{slug}/documents/{pk}"]
    assert "get" in spec["paths"]["/drives/{slug}/documents/{pk}/file"]


def test_an_empty_base_url_is_refused_not_replaced(night: Night, api: Api) -> None:
    token = api_token_create(user=night.organizer)
    response = api.post(
        f"drives/{night.drive.slug}/documents",
        {"document": "results", "base_url": ""},
        token=token,
    )
    assert response.status_code == 422
    assert response.json()["code"] == "bad_base_url"
    assert not Document.objects.exists()
