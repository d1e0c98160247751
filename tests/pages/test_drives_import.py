"""/drives/<slug>/couples/import: a couples CSV, every line or none, every bad line named."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from drives.models import Couple, Drive
from drives.services import drive_close
from tests.pages.organizer_helpers import DESK, a_drive, club_people, logged_in, text

pytestmark = pytest.mark.django_db


def import_url(drive: Drive) -> str:
    return reverse("drives:couples_import", kwargs={"slug": drive.slug})


def csv_file(content: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile("couples.csv", content, content_type="text/csv")


def test_the_page_explains_the_file() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club)
    response = logged_in(ours.organizer).get(import_url(drive))
    assert response.status_code == 200
    page = text(response)
    assert "player1,player2" in page
    assert 'enctype="multipart/form-data"' in page
    assert 'data-testid="import"' in page


def test_a_good_file_is_imported_after_the_couples_already_there() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=2)
    client = logged_in(ours.organizer)
    data = b"player1,player2,paid,cookie_jar\nMary MacNeil,Joe MacNeil,yes,no\nAnn,Dan,no,yes\n"
    response = client.post(import_url(drive), {"file": csv_file(data)})
    assert response.status_code == 302
    assert response["Location"] == reverse("drives:couples", kwargs={"slug": drive.slug})
    couples = {c.number: c for c in Couple.objects.filter(drive=drive)}
    assert couples[3].players == ["Mary MacNeil", "Joe MacNeil"] and couples[3].paid
    assert couples[4].cookie_jar and not couples[4].paid
    assert "2 couples imported: numbers 3 to 4." in text(client.get(response["Location"]))


def test_every_bad_line_is_listed_with_its_number_and_nothing_is_imported() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club)
    data = (
        b"player1,player2,paid\n"
        b"Mary,Joe,yes\n"
        b"Ann,,no\n"
        b"Dan,Flora,maybe\n"
        b"Mary,Joe,no\n"
        b"One,Two,yes,extra\n"
    )
    response = logged_in(ours.organizer).post(import_url(drive), {"file": csv_file(data)})
    assert response.status_code == 422
    assert response.context["errors"] == [
        {"line": 3, "message": "a couple needs two player names."},
        {"line": 4, "message": "paid must be yes or no, not 'maybe'"},
        {"line": 5, "message": "the same couple as line 2"},
        {"line": 6, "message": "4 columns, expected 3"},
    ]
    page = text(response)
    assert "Nothing was imported: 4 lines need fixing" in page
    assert 'data-testid="bad-lines"' in page
    for line in (3, 4, 5, 6):
        assert f'<th scope="row" class="num">{line}</th>' in page
    assert not Couple.objects.exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"name,partner\nA,B\n", "the header must start with player1,player2"),
        (b"player1,player2\nMarie,Jos\xe9\n", "not UTF-8"),
        (b"", "file is empty"),  # Django's own words for an empty upload
        (b"player1,player2\n", "no couples"),
    ],
)
def test_a_file_that_is_no_couples_csv_is_named(content: bytes, message: str) -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club)
    response = logged_in(ours.organizer).post(import_url(drive), {"file": csv_file(content)})
    assert response.status_code == 422
    assert message in text(response)
    assert not Couple.objects.exists()


def test_no_file_is_a_form_error() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club)
    response = logged_in(ours.organizer).post(import_url(drive), {})
    assert response.status_code == 422
    assert "This field is required." in text(response)


def test_a_closed_drive_imports_nothing() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club)
    drive_close(drive=drive, actor=DESK)
    client = logged_in(ours.organizer)
    assert 'data-testid="import"' not in text(client.get(import_url(drive)))
    response = client.post(import_url(drive), {"file": csv_file(b"player1,player2\nA,B\n")})
    assert response.status_code == 422
    assert "The drive is closed" in text(response)
    assert not Couple.objects.exists()


def test_permissions() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    theirs = club_people("Legion Branch 12", "theirs")
    drive = a_drive(ours.club)
    url = import_url(drive)
    assert Client().get(url)["Location"].startswith(reverse("login"))
    response = logged_in(theirs.organizer).post(url, {"file": csv_file(b"player1,player2\nA,B\n")})
    assert response.status_code == 404
    assert logged_in(ours.scorer).get(url).status_code == 200
    assert not Couple.objects.exists()
