"""Printing before the night starts: a hall prints its table cards and score sheets before
people arrive. They used to come out as one page with the drive's name and "—", listed as
"ready". Now a card (and a sheet) is printed for every table the first game will use, one for
every two couples registered, and game 1 seats at those very tables, so the QR codes printed
stay good; with no couples the page says why they must wait. The print page also shows the
address the QR codes carry, and warns when only this computer can reach it."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from drives.models import AuditEntry, Drive, Membership, Table
from drives.services import club_create, couples_register, drive_create, drive_start, member_add
from scoring.models import Document
from scoring.selectors import game_view
from tests.factories import UserFactory
from tests.pdf.helpers import pdf_text, qr_codes
from tests.printing.conftest import DESK

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]


def a_drive_not_started(couples: int) -> tuple[Drive, Client]:
    club = club_create(name="St. Joseph's Parish")
    organizer = UserFactory(username="early-organizer")
    member_add(club=club, user=organizer, role=Membership.Role.ORGANIZER)
    drive = drive_create(club=club, name="Friday 45s", date=date(2026, 11, 20), games=5, actor=DESK)
    if couples:
        couples_register(
            drive=drive, couples=[{"players": [f"Ann {i}", f"Joe {i}"]} for i in range(couples)]
        )
    client = Client()
    client.force_login(organizer)
    return drive, client


def url(drive: Drive, name: str, **kwargs: Any) -> str:
    return reverse(f"night:{name}", kwargs={"slug": drive.slug, **kwargs})


def ask(client: Client, drive: Drive, document: str, capture: Any, **extra: str) -> Any:
    with capture(execute=True):
        return client.post(
            url(drive, "print_request"), {"document": document, "paper": "letter"}, **extra
        )


def downloaded(client: Client, drive: Drive) -> tuple[dict[str, Any], bytes]:
    document = Document.objects.latest("pk")
    status = client.get(url(drive, "print_status", pk=document.pk)).json()
    pdf = client.get(status["download_url"])
    return status, b"".join(pdf.streaming_content)


def test_table_cards_before_the_start_one_per_table_of_the_first_game(
    django_capture_on_commit_callbacks: Any,
) -> None:
    drive, client = a_drive_not_started(15)  # 7 tables; the 15th couple sits out
    asked = ask(client, drive, "table-cards", django_capture_on_commit_callbacks)
    assert asked.status_code == 302
    status, pdf = downloaded(client, drive)
    assert status["ready"] and status["pages_total"] == 7
    first_card = qr_codes(pdf, page=1)
    tokens = dict(Table.objects.filter(drive=drive).values_list("number", "token"))
    assert sorted(tokens) == [1, 2, 3, 4, 5, 6, 7]
    assert set(first_card) == {f"http://testserver/t/{tokens[1]}/"}
    entry = AuditEntry.objects.get(drive=drive, action="tables.prepare")
    assert entry.new == {"tables": 7, "couples": 15}
    # The night starts at the very tables printed: their QR codes lead to game 1's tables.
    drive_start(drive=drive, actor=DESK)
    drive.refresh_from_db()
    after = dict(Table.objects.filter(drive=drive).values_list("number", "token"))
    assert all(after[n] == tokens[n] for n in tokens)
    view = game_view(drive, 1)
    assert view is not None
    playing = [t["table"] for t in view["tables"] if not t["sit_out"]]
    assert playing == [1, 2, 3, 4, 5, 6, 7]
    # Asking again changes nothing: no new tables, no new audit entry.
    assert AuditEntry.objects.filter(action="tables.prepare").count() == 1


def test_score_sheets_before_the_start_have_blank_lines_for_the_games(
    django_capture_on_commit_callbacks: Any,
) -> None:
    drive, client = a_drive_not_started(8)
    ask(client, drive, "score-sheets", django_capture_on_commit_callbacks)
    status, pdf = downloaded(client, drive)
    assert status["ready"] and status["pages_total"] == 4
    text = pdf_text(pdf)
    assert "Friday 45s" in text and "—" not in text


def test_with_no_couples_the_page_says_why_the_cards_must_wait(
    django_capture_on_commit_callbacks: Any,
) -> None:
    drive, client = a_drive_not_started(1)
    for document in ("table-cards", "score-sheets"):
        answer = ask(client, drive, document, django_capture_on_commit_callbacks)
        assert answer.status_code == 409
        page = answer.content.decode()
        assert 'data-testid="print-error"' in page
        assert "wait until at least two couples are registered" in page
    assert not Document.objects.exists()
    assert not Table.objects.exists()


def test_the_command_line_prints_the_table_cards_before_the_start(tmp_path: Path) -> None:
    drive, _ = a_drive_not_started(6)
    output = tmp_path / "tables.pdf"
    call_command("drive", "print", drive.slug, "--document", "table-cards", "--output", str(output))
    assert len(PdfReader(output).pages) == 3


@pytest.mark.parametrize(
    ("host", "warned"),
    [
        ("127.0.0.1:8000", True),
        ("localhost:8000", True),
        ("[::1]:8000", True),
        ("192.168.1.20:8000", False),
        ("hall.example.org", False),
    ],
)
def test_the_page_shows_the_address_of_the_qr_codes_and_warns_of_a_local_one(
    settings: Any, host: str, warned: bool
) -> None:
    settings.ALLOWED_HOSTS = ["*"]
    drive, client = a_drive_not_started(4)
    page = client.get(url(drive, "print"), HTTP_HOST=host).content.decode()
    assert f"<strong>http://{host}/</strong>" in page
    assert ('data-testid="qr-local"' in page) is warned


@pytest.mark.parametrize(
    ("host", "carried"),
    [
        ("127.0.0.1:8000", "http://192.168.1.20:8000"),
        ("localhost:8000", "http://192.168.1.20:8000"),
        ("192.168.1.20:8000", "http://192.168.1.20:8000"),
        ("hall-laptop:8000", "http://hall-laptop:8000"),
    ],
)
def test_on_the_hall_server_cards_printed_from_the_laptop_carry_the_halls_address(
    settings: Any, host: str, carried: str
) -> None:
    """fortyfives/hall.py knows the laptop's address on the hall's network (HALL_URL): the organizer
    prints from 127.0.0.1, the phones must reach the address on the cards."""
    settings.ALLOWED_HOSTS = ["*"]
    settings.HALL_URL = "http://192.168.1.20:8000"
    drive, client = a_drive_not_started(4)
    page = client.get(url(drive, "print"), HTTP_HOST=host).content.decode()
    assert f"<strong>{carried}/</strong>" in page
    assert 'data-testid="qr-local"' not in page
