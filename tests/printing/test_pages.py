"""The print page: members ask for a document, follow its progress (a JSON status view) and
download it; an up-to-date document downloads at once; outsiders get 404s; the dashboard
links to the page."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Document
from tests.printing.conftest import Night

pytestmark = pytest.mark.usefixtures("eager")


def client_of(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def url(night: Night, name: str, **kwargs: Any) -> str:
    return reverse(f"night:{name}", kwargs={"slug": night.drive.slug, **kwargs})


def test_print_a_document_follow_it_and_download_it(
    night: Night, django_capture_on_commit_callbacks: Any
) -> None:
    client = client_of(night.organizer)
    page = client.get(url(night, "print"))
    assert page.status_code == 200
    assert 'data-testid="print"' in page.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        asked = client.post(url(night, "print_request"), {"document": "table-cards", "paper": "a4"})
    document = Document.objects.get()
    assert asked.status_code == 302
    assert asked["Location"] == url(night, "print_document", pk=document.pk)
    progress = client.get(asked["Location"])
    assert progress.status_code == 200
    assert url(night, "print_status", pk=document.pk) in progress.content.decode()
    status = client.get(url(night, "print_status", pk=document.pk)).json()
    assert status["status"] == "done" and status["ready"] is True
    assert status["pages_done"] == status["pages_total"] > 0
    assert status["download_url"] == url(night, "print_download", pk=document.pk)
    pdf = client.get(status["download_url"])
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert b"".join(pdf.streaming_content).startswith(b"%PDF-")
    assert "attachment" in pdf["Content-Disposition"]
    assert f"{night.drive.slug}-table-cards-a4.pdf" in pdf["Content-Disposition"]

    # Up to date: the same request downloads at once.
    again = client.post(url(night, "print_request"), {"document": "table-cards", "paper": "a4"})
    assert again.status_code == 302
    assert again["Location"] == url(night, "print_download", pk=document.pk)
    listing = client.get(url(night, "print")).content.decode()
    assert f'data-testid="printed-{document.pk}"' in listing


def test_a_scorer_prints_too(night: Night, django_capture_on_commit_callbacks: Any) -> None:
    client = client_of(night.scorer)
    assert client.get(url(night, "print")).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        asked = client.post(url(night, "print_request"), {"document": "movement"})
    assert asked.status_code == 302
    assert Document.objects.get().game == 1


def test_bad_options_show_the_page_with_the_error(night: Night) -> None:
    client = client_of(night.organizer)
    page = client.post(url(night, "print_request"), {"document": "results", "couple": "4"})
    assert page.status_code == 422
    assert 'data-testid="print-error"' in page.content.decode()
    assert Document.objects.count() == 0


def test_outsiders_get_404s_and_anonymous_users_the_login_page(
    night: Night, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        client_of(night.organizer).post(url(night, "print_request"), {"document": "results"})
    pk = Document.objects.get().pk
    outsider = client_of(night.outsider)
    for name, kwargs in [
        ("print", {}),
        ("print_document", {"pk": pk}),
        ("print_status", {"pk": pk}),
        ("print_download", {"pk": pk}),
    ]:
        assert outsider.get(url(night, name, **kwargs)).status_code == 404, name
        assert Client().get(url(night, name, **kwargs)).status_code == 302, name
    assert outsider.post(url(night, "print_request"), {"document": "results"}).status_code == 404
    # A document of another drive is not reachable through this one's URLs.
    other = client_of(night.organizer)
    assert other.get(url(night, "print_download", pk=pk + 1)).status_code == 404


def test_the_dashboard_links_to_the_print_page(night: Night) -> None:
    page = client_of(night.organizer).get(reverse("night:dashboard", args=[night.drive.slug]))
    assert url(night, "print") in page.content.decode()
