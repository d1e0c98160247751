"""/drives/<slug>/couples/import: a couples CSV, every line or none, every bad line named."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from drives.models import AuditEntry, Couple, Drive
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


def test_a_french_excel_file_semicolons_and_windows_1252_is_read_and_the_page_says_so() -> None:
    """Excel set to French saves "CSV" with semicolons, in Windows-1252: both used to refuse
    the file. It is read, and the message names the separator and the encoding found."""
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club)
    client = logged_in(ours.organizer)
    data = "player1;player2;paid\nThérèse Aucoin;Zoë Doucet, fils;oui\nÈve;René;non\n"
    response = client.post(import_url(drive), {"file": csv_file(data.encode("cp1252"))})
    assert response.status_code == 302
    couples = {c.number: c for c in Couple.objects.filter(drive=drive)}
    assert couples[1].players == ["Thérèse Aucoin", "Zoë Doucet, fils"] and couples[1].paid
    assert couples[2].players == ["Ève", "René"] and not couples[2].paid
    page = text(client.get(response["Location"]))
    assert "2 couples imported: numbers 1 to 2." in page
    assert "Columns separated by semicolons." in page
    assert "read as Windows-1252" in page


def test_a_utf8_file_with_commas_says_so_and_nothing_about_the_encoding() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club)
    client = logged_in(ours.organizer)
    data = "player1,player2\nThérèse,Zoë\n".encode()
    response = client.post(import_url(drive), {"file": csv_file(data)})
    assert Couple.objects.get(drive=drive).players == ["Thérèse", "Zoë"]
    page = text(client.get(response["Location"]))
    assert "Columns separated by commas." in page and "Windows-1252" not in page


def test_every_bad_line_is_listed_with_its_number_and_nothing_is_imported() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club)
    data = (
        b"player1,player2,paid\n"
        b"Mary,Joe,yes\n"
        b"Ann,,no\n"
        b"Dan,Flora,maybe\n"
        b"Ed,Flora\n"
        b"One,Two,yes,extra\n"
    )
    response = logged_in(ours.organizer).post(import_url(drive), {"file": csv_file(data)})
    assert response.status_code == 422
    assert response.context["errors"] == [
        {"line": 3, "message": "A couple needs two player names."},
        {"line": 4, "message": "paid must be yes or no, not 'maybe'"},
        {"line": 5, "message": "2 columns, expected 3"},
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
        (b"player1,player2\nMarie,Jos\x81\x00\n", "not UTF-8"),  # neither UTF-8 nor cp1252
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


COUPLES = b"player1,player2\nMary MacDonald,Angus MacDonald\nFlora Gillis,Dan Gillis\n"


def test_couples_already_registered_are_listed_with_a_box_to_add_them_again() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=1)
    client = logged_in(ours.organizer)
    page = text(client.get(import_url(drive)))
    assert 'name="allow_duplicates"' not in page  # offered only when there are duplicates
    assert client.post(import_url(drive), {"file": csv_file(COUPLES)}).status_code == 302
    again = b"player1,player2\nangus macdonald,Mary MacDonald\nAnn Beaton,Hugh Beaton\n"
    response = client.post(import_url(drive), {"file": csv_file(again)})
    assert response.status_code == 422
    page = text(response)
    assert "Nothing was imported: 1 couple of the file is already registered" in page
    assert 'data-testid="duplicates"' in page
    assert '<th scope="row" class="num">2</th>' in page
    assert "angus macdonald &amp; Mary MacDonald is already couple 2" in page
    assert 'type="checkbox" name="allow_duplicates"' in page
    assert "Add them again" in page
    assert Couple.objects.filter(drive=drive).count() == 3


def test_a_couple_listed_twice_in_the_file_is_listed_too() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club)
    response = logged_in(ours.organizer).post(
        import_url(drive), {"file": csv_file(COUPLES + b"Dan Gillis,FLORA GILLIS\n")}
    )
    assert response.status_code == 422
    assert "Dan Gillis &amp; FLORA GILLIS is the same couple as line 3" in text(response)
    assert not Couple.objects.exists()


def test_with_the_box_ticked_the_couples_are_added_again() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club)
    client = logged_in(ours.organizer)
    client.post(import_url(drive), {"file": csv_file(COUPLES)})
    response = client.post(import_url(drive), {"file": csv_file(COUPLES), "allow_duplicates": "on"})
    assert response.status_code == 302
    assert "2 couples imported: numbers 3 to 4." in text(client.get(response["Location"]))
    assert [c.player1 for c in Couple.objects.filter(drive=drive).order_by("number")] == [
        "Mary MacDonald",
        "Flora Gillis",
        "Mary MacDonald",
        "Flora Gillis",
    ]
    entry = AuditEntry.objects.filter(action="couples.register").latest("pk")
    assert entry.channel == "desk" and entry.note.startswith("duplicates allowed")
