"""Names with markup, quotes and commas are shown as typed, never as markup: every page that
shows a couple's names has them escaped (and never the raw tag), the CSV and XLSX exports
have them as plain text (a name that looks like a spreadsheet formula stays text), and every
printed document has them as literal text (the PDF renderers do not read any markup).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from django.utils.html import escape
from hypothesis import example, given
from hypothesis import strategies as st

from drives.models import Drive
from drives.services import couple_update, couples_register, drive_start, drive_update
from scoring.pages.tables import inert
from scoring.printing.rendering import document_render
from scoring.prizes.services import prize_setup_update, prizes_open_ties
from scoring.services import game_advance
from tests.api.helpers import DESK, make_club, make_drive
from tests.cli.helpers import run
from tests.fuzz.helpers import fuzzing, play_game, rolled_back
from tests.pdf.helpers import pdf_text

pytestmark = pytest.mark.django_db

SCRIPT = '<script>alert("x")</script>'
QUOTES = 'O\'Neil & "Sons"'
COMMA = "Aucoin, Thérèse"
MARKUP = "<b>Bold</b> & <i>Co</i> &amp; <br/>"
FORMULA = '=HYPERLINK("http://x","y")'
# Four couples: markup, quotes, entities and a comma in their names, and a name that looks
# like a spreadsheet formula.
PLAYERS = [
    [SCRIPT, QUOTES],
    [COMMA, MARKUP],
    [FORMULA, "+1-2@3"],
    ["Ann Plain", "Bob Plain"],
]
NAMES = [SCRIPT, QUOTES, COMMA, MARKUP]
# The drive's and the club's names and the venue, typed by the organizer, are text too.
DRIVE_NAME = 'Friday <b>45s</b> & "more"'
CLUB_NAME = "St. Joseph's <i>Parish</i>"
VENUE = "<img src=x onerror=alert(1)>"
RAW = [SCRIPT, "<b>Bold</b>", "<i>Co</i>", "<br/>", "<b>45s</b>", "<i>Parish</i>", VENUE]


@pytest.fixture(scope="module")
def night(django_db_setup: None, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """A drive of four couples with those names, game 1 played, the prizes' ties opened,
    published; and a superuser for the admin."""
    with django_db_blocker.unblock(), transaction.atomic():
        ours = make_club(CLUB_NAME, "esc")
        drive = make_drive(ours.club, 0, games=3)
        drive_update(drive=drive, actor=DESK, name=DRIVE_NAME, venue=VENUE)
        couples_register(drive=drive, couples=[{"players": p} for p in PLAYERS])
        drive.refresh_from_db()
        drive_start(drive=drive, actor=DESK)
        drive.refresh_from_db()
        play_game(drive, 1)
        game_advance(drive=drive, game=1, actor=DESK)
        drive.refresh_from_db()
        prize_setup_update(drive=drive, actor=DESK, prize_places=2, cookie_jar=True)
        prizes_open_ties(drive=drive, actor=DESK, force=True)
        drive_update(drive=drive, actor=DESK, published=True)
        admin = get_user_model().objects.create_superuser("esc-admin", "a@example.org", "pw")
        yield {
            "drive": Drive.objects.get(pk=drive.pk),
            "organizer": ours.organizer,
            "admin": admin,
            "table": drive.tables.get(number=1).token,
            "couple": drive.couples.get(number=2).token,
            "ties": list(drive.ties.values_list("pk", flat=True)),
        }
        transaction.set_rollback(True)


@pytest.fixture
def organizer(night: dict[str, Any], db: None) -> Client:
    client = Client()
    client.force_login(night["organizer"])
    return client


def pages(night: dict[str, Any]) -> dict[str, str]:
    slug = night["drive"].slug
    d = f"/drives/{slug}"
    found = {
        "couples": f"{d}/couples/",
        "dashboard": f"{d}/",
        "desk": f"{d}/desk/",
        "projector": f"{d}/projector/",
        "projector standings": f"{d}/projector/?show=standings",
        "projector prizes": f"{d}/projector/?show=prizes",
        "standings": f"{d}/standings/",
        "grid": f"{d}/grid/",
        "results": f"/results/{slug}/",
        "prizes": f"{d}/prizes/",
        "withdraw": f"{d}/couples/1/withdraw",
        "table page": f"/t/{night['table']}/",
        "couple page": f"/c/{night['couple']}/",
    }
    for tie in night["ties"]:
        found[f"tie {tie}"] = f"{d}/prizes/ties/{tie}/"
    return found


# The pages that show every couple's names, those that show some (a couple's page, its
# table's), and those that show numbers only (never a raw tag there either).
EVERY_NAME = {"couples", "standings", "grid", "results"}
SOME_NAMES = {"withdraw", "table page", "couple page"}


def assert_escaped(html: str, names: list[str]) -> list[str]:
    """No raw markup of a name anywhere; the names shown, escaped. The names found."""
    for raw in RAW:
        assert raw not in html, raw
    return [name for name in names if escape(name) in html]


@pytest.mark.parametrize(
    "page",
    [
        "couples",
        "dashboard",
        "desk",
        "projector",
        "projector standings",
        "projector prizes",
        "standings",
        "grid",
        "results",
        "prizes",
        "withdraw",
        "table page",
        "couple page",
    ],
)
def test_pages_show_names_escaped(organizer: Client, night: dict[str, Any], page: str) -> None:
    response = organizer.get(pages(night)[page])
    assert response.status_code == 200
    shown = assert_escaped(response.content.decode(), NAMES)
    assert escape(DRIVE_NAME) in response.content.decode()
    if page in EVERY_NAME:
        assert shown == NAMES
    elif page in SOME_NAMES:
        assert shown, f"no name on the {page} page"


def test_tie_pages_show_names_escaped(organizer: Client, night: dict[str, Any]) -> None:
    assert night["ties"]
    for tie in night["ties"]:
        response = organizer.get(pages(night)[f"tie {tie}"])
        assert response.status_code == 200
        assert assert_escaped(response.content.decode(), NAMES)


def test_the_flash_after_registering_escapes_the_names(
    organizer: Client, night: dict[str, Any]
) -> None:
    slug = night["drive"].slug
    response = organizer.post(
        f"/drives/{slug}/couples/", {"player1": SCRIPT, "player2": MARKUP}, follow=True
    )
    assert response.status_code == 200
    assert assert_escaped(response.content.decode(), [SCRIPT, MARKUP]) == [SCRIPT, MARKUP]


@pytest.mark.parametrize("model", ["couple", "auditentry"])
def test_the_admin_escapes_the_names(night: dict[str, Any], db: None, model: str) -> None:
    client = Client()
    client.force_login(night["admin"])
    response = client.get(f"/admin/drives/{model}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert SCRIPT not in html and "<b>Bold</b>" not in html
    if model == "couple":
        couple = night["drive"].couples.get(number=1)
        response = client.get(f"/admin/drives/couple/{couple.pk}/change/")
        assert response.status_code == 200
        assert escape(SCRIPT) in response.content.decode()


def test_the_csv_export_has_the_names_as_text(organizer: Client, night: dict[str, Any]) -> None:
    for path in ("standings", "grid", "results"):
        response = organizer.get(pages(night)[path], {"_export": "csv"})
        assert response.status_code == 200
        text = b"".join(response.streaming_content if response.streaming else [response.content])
        rows = list(csv.reader(io.StringIO(text.decode("utf-8-sig"))))
        players = {row[rows[0].index("Players")] for row in rows[1:]}
        assert " & ".join(PLAYERS[0]) in players  # markup and quotes as typed
        assert " & ".join(PLAYERS[1]) in players  # the comma inside one cell
        # A name that starts like a formula is kept with an apostrophe before it, so that a
        # spreadsheet opening the file shows it instead of running it.
        assert "'" + " & ".join(PLAYERS[2]) in players
        assert not any(cell.startswith(("=", "+", "@")) for row in rows for cell in row)


@pytest.mark.parametrize(
    ("value", "kept"),
    [
        ("=1+1", "'=1+1"),
        ("+1-2@3", "'+1-2@3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("-cmd", "'-cmd"),
        ("\tx", "'\tx"),
        ("-5", "-5"),
        ("+2.5", "+2.5"),
        ("-", "-"),
        ("Ann & Bob", "Ann & Bob"),
        (7, 7),
        (None, None),
    ],
)
def test_only_text_that_starts_like_a_formula_is_made_inert(value: Any, kept: Any) -> None:
    assert inert(value) == kept


def test_the_xlsx_export_keeps_a_formula_looking_name_as_text(
    organizer: Client, night: dict[str, Any]
) -> None:
    from openpyxl import load_workbook

    response = organizer.get(pages(night)["standings"], {"_export": "xlsx"})
    assert response.status_code == 200
    sheet = load_workbook(io.BytesIO(response.content)).active
    cells = [cell for row in sheet.iter_rows() for cell in row if cell.value is not None]
    names = {cell.value: cell.data_type for cell in cells if isinstance(cell.value, str)}
    assert " & ".join(PLAYERS[0]) in names
    formula = next(v for v in names if "HYPERLINK" in v)
    assert names[formula] == "s", "a name must never become a live formula"


def printed(night: dict[str, Any], tmp_path: Path, document: str) -> str:
    output = tmp_path / f"{document}.pdf"
    run("drive", "print", night["drive"].slug, "--document", document, "--output", str(output))
    return " ".join(pdf_text(output.read_bytes()).split())


@pytest.mark.parametrize("document", ["punch-cards", "results"])
def test_printed_names_are_literal_text(
    night: dict[str, Any], db: None, tmp_path: Path, document: str
) -> None:
    """Markup, entities and quotes print as typed (a long name may be cut short with "…" to
    fit its box; it is never read as markup)."""
    text = printed(night, tmp_path, document)
    for name in [*NAMES, FORMULA]:
        assert name[:16] in text, (name, text[:2000])
    if document == "results":  # the whole names, on one line each
        for players in PLAYERS:
            assert " & ".join(players) in text


@pytest.mark.parametrize("document", ["table-cards", "score-sheets", "movement"])
def test_documents_without_names_print(
    night: dict[str, Any], db: None, tmp_path: Path, document: str
) -> None:
    text = printed(night, tmp_path, document)
    assert DRIVE_NAME in text  # the drive's name as typed, markup and all


@fuzzing(15)
@given(
    names=st.lists(
        st.text(
            st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00"),
            min_size=1,
            max_size=80,
        ).filter(str.strip),
        min_size=2,
        max_size=2,
    )
)
@example(names=["🂡 Zoë 名前 \u202eabc", "\t<![CDATA[x]]> &#0; %PDF"])
@example(names=["(unbalanced \\ paren", "a)\\n) Tj ET"])
def test_any_name_prints(night: dict[str, Any], db: None, names: list[str]) -> None:
    """Whatever a name holds (any script, emoji, control characters, PDF syntax), the punch
    cards and the results print."""
    drive = night["drive"]
    with rolled_back():
        couple = drive.couples.get(number=4)
        couple_update(couple=couple, actor=DESK, players=names)
        for document in ("punch-cards", "results"):
            pdf = document_render(drive, document)
            assert pdf.startswith(b"%PDF")
