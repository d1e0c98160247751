"""Every printed document, built from a real drive and read back: page count and size, the
text (names with accents, the numbers 1..25, table numbers), the QR codes' URLs."""

from __future__ import annotations

import json
import re

import pytest
from reportlab.lib.pagesizes import A4, LETTER

from drives.models import Couple, Drive, Table
from money.services import line_record
from scoring.printing.data import DOCUMENTS, build, data_version
from scoring.printing.pdf import PAPERS, render
from scoring.services import result_record
from tests.pdf.helpers import finished_night, pdf_pages, pdf_text, qr_codes, running_night
from tests.scoring.nights import DESK

pytestmark = pytest.mark.django_db

BASE = "https://45s.example.org"
SIZES = {"letter": LETTER, "a4": A4}


@pytest.fixture
def drive():
    return running_night(couples=20, games=25, played=3)


def size_of(page) -> tuple[float, float]:
    box = page.mediabox
    return (round(float(box.width)), round(float(box.height)))


def check_size(data: bytes, paper: str) -> None:
    want = tuple(round(v) for v in SIZES[paper])
    assert {size_of(p) for p in pdf_pages(data)} == {want}


def test_build_is_plain_data_for_every_document(drive) -> None:
    for document in DOCUMENTS:
        data = build(drive, document, base_url=BASE)
        assert json.loads(json.dumps(data)) == data  # plain data only: no model instances
        assert data["document"] == document
        assert data["drive"]["name"] == "Friday 45s at St. Joseph's"
    with pytest.raises(ValueError):
        build(drive, "menus")


@pytest.mark.parametrize("paper", PAPERS)
def test_punch_cards(drive, paper) -> None:
    data = build(drive, "punch-cards", base_url=BASE)
    assert len(data["cards"]) == 20
    seen = []
    pdf = render("punch-cards", data, paper=paper, progress=lambda d, t: seen.append((d, t)))
    pages = pdf_pages(pdf)
    assert len(pages) == 4  # 6 a page
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]
    check_size(pdf, paper)
    first = pages[0].extract_text()
    assert "Aucoin, Thérèse" in first and "Chiasson, Élise" in first
    numbers = set(re.findall(r"\d+", first))
    assert {str(n) for n in range(1, 26)} <= numbers  # the circles of the 25 games
    assert "Friday 45s at St. Joseph's" in first
    text = pdf_text(pdf)
    assert "North 20" in text and "South 20" in text


def test_a_punch_card_alone_and_its_qr_code(drive) -> None:
    data = build(drive, "punch-cards", couple=1, base_url=BASE)
    assert [c["number"] for c in data["cards"]] == [1]
    pdf = render("punch-cards", data)
    assert len(pdf_pages(pdf)) == 1
    token = Couple.objects.get(drive=drive, number=1).token
    assert qr_codes(pdf) == [f"{BASE}/c/{token}/"]


def test_a_filled_punch_card_shows_the_recorded_wins(drive) -> None:
    data = build(drive, "punch-cards", couple=1, filled=True, base_url=BASE)
    card = data["cards"][0]
    assert data["filled"] is True
    assert card["won"] == [1, 2, 3]  # the lower number wins every game here
    assert "recorded wins punched" in pdf_text(render("punch-cards", data))
    plain = build(drive, "punch-cards", couple=1, base_url=BASE)
    assert plain["cards"][0]["won"] == []


@pytest.mark.parametrize("paper", PAPERS)
def test_table_cards(drive, paper) -> None:
    data = build(drive, "table-cards", base_url=BASE)
    assert [t["number"] for t in data["tables"]] == list(range(1, 11))
    pdf = render("table-cards", data, paper=paper)
    pages = pdf_pages(pdf)
    assert len(pages) == 10
    check_size(pdf, paper)
    for number, page in enumerate(pages, start=1):
        assert str(number) in page.extract_text().split()
    token = Table.objects.get(drive=drive, number=7).token
    url = f"{BASE}/t/{token}/"
    assert f"45s.example.org/t/{token}/" in pages[6].extract_text()
    assert qr_codes(pdf, page=7) == [url, url]  # both halves of the tent
    # Above the QR code, on both faces: the page calls the desk, or a hand does.
    words = " ".join(pages[6].extract_text().split())
    assert words.count("or raise your hand.") == 2
    assert words.count("Need the desk?") == 2


@pytest.mark.parametrize("paper", PAPERS)
def test_score_sheets(drive, paper) -> None:
    data = build(drive, "score-sheets", base_url=BASE)
    assert data["game"] == 4 and data["games"] == list(range(1, 26))
    pdf = render("score-sheets", data, paper=paper)
    pages = pdf_pages(pdf)
    assert len(pages) == 10
    check_size(pdf, paper)
    first = pages[0].extract_text()
    numbers = set(re.findall(r"\d+", first))
    assert {str(n) for n in range(1, 26)} <= numbers
    words = " ".join(first.split())
    assert "Card ranking" in words
    assert "♥ hearts 5♥ J♥ A♥ K♥ Q♥ 10♥ 9♥ 8♥ 7♥ 6♥ 4♥ 3♥ 2♥" in words  # docs/rules.md §1
    assert "♣ clubs 5♣ J♣ A♥ A♣ K♣ Q♣ 2♣ 3♣ 4♣ 6♣ 7♣ 8♣ 9♣ 10♣ K♣ Q♣ J♣ A♣ 2♣" in words
    # diamonds: as trumps, then off-trump ("red high", the ace last)
    assert "2♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 2♦ A♦" in words
    sheet = data["tables"][0]
    assert sheet["stays"] and sheet["arrives"] and sheet["deals"] == sheet["arrives"]
    token = Table.objects.get(drive=drive, number=1).token
    assert qr_codes(pdf) == [f"{BASE}/t/{token}/"]


def test_score_sheets_of_a_given_game(drive) -> None:
    data = build(drive, "score-sheets", game=1)
    first = {t["number"]: (t["stays"], t["arrives"]) for t in data["tables"]}
    assert first[1] == (1, 2)  # by number: table 1 seats couples 1 and 2


@pytest.mark.parametrize("paper", PAPERS)
def test_movement(drive, paper) -> None:
    data = build(drive, "movement")
    assert data["game"] == 4
    assert len(data["tables"]) == 10 and len(data["couples"]) == 20
    for row in data["couples"]:
        table = next(t for t in data["tables"] if t["table"] == row["table"])
        assert row["number"] in (table["stays"], table["arrives"])
    pdf = render("movement", data, paper=paper)
    check_size(pdf, paper)
    pages = pdf_pages(pdf)
    assert len(pages) == 2  # by table, then couple → table
    wall = pages[1].extract_text()
    some = data["couples"][16]
    assert re.search(rf"\b{some['number']}\s*→ table {some['table']}\b", wall)


@pytest.mark.parametrize("paper", PAPERS)
def test_results(paper) -> None:
    drive = finished_night()
    data = build(drive, "results")
    assert data["signed_by"] == "Margaret Gillis" and data["signed_at"]
    assert json.loads(json.dumps(data)) == data
    pdf = render("results", data, paper=paper)
    check_size(pdf, paper)
    text = pdf_text(pdf)
    assert "Aucoin, Thérèse" in text
    assert "Margaret Gillis" in text
    assert "prize split" in text  # the tie for first
    assert "Cookie jar" in text and "Booby prize" in text
    assert "60.00 CAD" in text


def test_results_in_the_drives_language_whoever_asks() -> None:
    from django.utils import translation

    drive = finished_night()
    drive.language = "fr"
    drive.save(update_fields=["language"])
    with translation.override("en"):  # an English-speaking organizer prints the French hall's
        data = build(drive, "results")
    assert data["language"] == "fr" and translation.get_language() == "en"
    text = pdf_text(render("results", data))
    assert "Résultats".upper() in text and "Approuvé par l'organisateur" in text
    assert "Prix citron" in text and "1er" in text and "partagé" in text
    assert "Booby prize" not in text and "Cookie jar" not in text
    assert data["drive"]["date_text"].split()[1] in {
        "janvier",
        "février",
        "mars",
        "avril",
        "mai",
        "juin",
        "juillet",
        "août",
        "septembre",
        "octobre",
        "novembre",
        "décembre",
    }


def test_english_drive_prints_english_in_a_french_browser() -> None:
    from django.utils import translation

    drive = finished_night()
    with translation.override("fr"):
        data = build(drive, "results")
    text = pdf_text(render("results", data))
    assert "Booby prize" in text and "1st" in text and "Prix citron" not in text


def test_unsigned_results_leave_lines_to_sign(drive) -> None:
    data = build(drive, "results")
    assert data["signed_by"] == "" and data["signed_at"] == ""
    assert "Signed off by the organizer" in pdf_text(render("results", data))


def test_data_version_changes_when_a_result_changes(drive) -> None:
    before = {d: data_version(drive, d) for d in DOCUMENTS}
    assert before == {d: data_version(drive, d) for d in DOCUMENTS}  # stable
    view = build(drive, "movement")
    table = view["tables"][0]
    result_record(drive=drive, game=4, table=table["table"], winner=table["stays"], actor=DESK)
    drive.refresh_from_db()
    after = {d: data_version(drive, d) for d in DOCUMENTS}
    assert after["results"] != before["results"]
    assert data_version(drive, "punch-cards", filled=True) != data_version(drive, "punch-cards")
    assert after["table-cards"] == before["table-cards"]  # a table card shows no result


def test_the_treasurers_sheet_shows_the_money_and_goes_out_of_date_with_it(drive) -> None:
    """The night's accounts come from the money app (``money.printing.DOCUMENT``): the
    totals by kind, by way of payment and the cash box on one page, a heading that prints
    whatever the drive is called, and a sheet out of date once a line is recorded."""
    Drive.objects.filter(pk=drive.pk).update(name="Fish & Chips <45s>")
    drive.refresh_from_db()
    before = data_version(drive, "accounts")
    assert before == data_version(drive, "accounts")
    line_record(drive=drive, actor=DESK, kind="donation", amount="25.00", way="cash")
    assert data_version(drive, "accounts") != before
    pdf = render("accounts", build(drive, "accounts"), paper="a4")
    check_size(pdf, "a4")
    assert len(pdf_pages(pdf)) == 1
    text = " ".join(pdf_text(pdf).split())
    assert "The night's accounts" in text and "Fish & Chips <45s> · 2026-11-20" in text
    assert "donation 25.00 CAD" in text and "Net raised 25.00 CAD" in text
    assert "cash 25.00 CAD" in text and "Expected in the box 25.00 CAD" in text


def test_standard_fonts_fall_back_without_dejavu(monkeypatch, drive) -> None:
    from scoring.printing.pdf import base

    monkeypatch.setattr(base, "_fonts", ("Helvetica", "Helvetica-Bold", False))
    data = build(drive, "score-sheets")
    text = pdf_text(render("score-sheets", data))
    assert "5H JH AH KH" in " ".join(
        text.split()
    )  # suit letters where the font has no suit symbols
    cards = pdf_text(render("punch-cards", build(drive, "punch-cards", couple=1)))
    assert "Aucoin, Thérèse" in cards  # Latin-1 accents print in the standard fonts


def test_unknown_document_or_paper() -> None:
    with pytest.raises(ValueError):
        render("menus", {})
    with pytest.raises(ValueError):
        render("results", {}, paper="legal")
