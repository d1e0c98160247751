"""The gallery of docs/printing/: every document of a night rendered, then read back as a
player or a scorer would — its pages counted, its text read (pypdf) and its QR codes decoded
(pdftoppm, then zxing-cpp) — against what the database holds: each couple's card carries that
couple's names and its own page's address, each table's card and sheet that table's; the
treasurer's sheet adds up the night's money.

The first page of each (and the movement's wall list) is also made a small PNG; with
``PRINT_GALLERY=docs/printing`` the PNGs are written there."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from drives.models import Couple, Drive, Table
from money.services import cash_count, draw_claim, draw_make, line_record, tickets_sell
from scoring.printing.data import build
from scoring.printing.pdf import render
from tests.pdf.helpers import finished_night, pdf_pages, qr_codes, render_png, running_night
from tests.scoring.nights import DESK

pytestmark = pytest.mark.django_db

BASE = "https://45s.example.org"


def couple_url(couple: Couple) -> str:
    return f"{BASE}/c/{couple.token}/"


def table_url(table: Table) -> str:
    return f"{BASE}/t/{table.token}/"


def texts(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in pdf_pages(pdf)]


def keep(name: str, pdf: bytes, page: int = 1) -> None:
    """The page as a small PNG, copied into the gallery when PRINT_GALLERY names it."""
    png = render_png(pdf, page=page, dpi=60)
    target = os.environ.get("PRINT_GALLERY")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        shutil.copy(png, Path(target) / f"{name}.png")


@pytest.fixture
def drive() -> Drive:
    return running_night(couples=20, games=25, played=3)


def test_punch_cards_carry_each_couples_names_and_own_page(drive: Drive) -> None:
    pdf = render("punch-cards", build(drive, "punch-cards", base_url=BASE), paper="letter")
    keep("punch-cards-letter", pdf)
    couples = list(Couple.objects.filter(drive=drive).order_by("number"))
    pages = texts(pdf)
    codes = [code for page in range(1, len(pages) + 1) for code in qr_codes(pdf, page)]
    assert sorted(codes) == sorted(couple_url(c) for c in couples)  # each card once
    every = "\n".join(pages)
    for couple in couples:
        assert couple.player1 in every and couple.player2 in every, couple.number
    assert all(drive.name in page for page in pages)


def test_a_filled_card_alone_on_a4(drive: Drive) -> None:
    data = build(drive, "punch-cards", couple=1, filled=True, base_url=BASE)
    pdf = render("punch-cards", data, paper="a4")
    keep("punch-card-filled-a4", pdf)
    first = Couple.objects.get(drive=drive, number=1)
    (page,) = texts(pdf)
    assert first.player1 in page and first.player2 in page
    assert "North 7" not in page  # nobody else's card
    assert qr_codes(pdf) == [couple_url(first)]


def test_a_table_card_and_a_score_sheet_per_table_in_play(drive: Drive) -> None:
    tables = list(Table.objects.filter(drive=drive).order_by("number"))
    assert len(tables) == 10  # 20 couples, nobody sitting out
    cards = render("table-cards", build(drive, "table-cards", base_url=BASE), paper="letter")
    keep("table-card-letter", cards)
    assert len(pdf_pages(cards)) == len(tables)
    assert qr_codes(cards, page=1) == [table_url(tables[0])] * 2  # both halves of the tent
    assert qr_codes(cards, page=10) == [table_url(tables[9])] * 2
    for paper, name in (("letter", "score-sheet-letter"), ("a4", "score-sheet-a4")):
        sheets = render("score-sheets", build(drive, "score-sheets", base_url=BASE), paper=paper)
        keep(name, sheets)
        pages = texts(sheets)
        assert len(pages) == len(tables)
        assert "SCORE SHEET" in pages[0] and drive.name in pages[0]
        assert qr_codes(sheets, page=1) == [table_url(tables[0])]


def test_the_movement_names_the_game_in_play_and_its_wall_list(drive: Drive) -> None:
    pdf = render("movement", build(drive, "movement"), paper="letter")
    keep("movement-letter", pdf)
    keep("movement-wall-letter", pdf, page=2)
    pages = texts(pdf)
    assert len(pages) == 2
    assert f"Game {drive.current_game}" in pages[0] and drive.name in pages[0]
    assert qr_codes(pdf) == []


def test_the_results_list_the_couples_by_place() -> None:
    done = finished_night()
    pdf = render("results", build(done, "results"), paper="letter")
    keep("results-letter", pdf)
    text = "\n".join(texts(pdf))
    assert "RESULTS" in text and done.name in text
    # The night's wins were 9, 9, 7, 6, 6, 2: couples 1 and 2 share first place.
    lines = [line for line in text.splitlines() if " & " in line]
    assert lines[0].startswith("Aucoin, Thérèse & Aucoin, Gérard")
    assert lines[1].startswith("MacNeil, Mary & MacNeil, Angus")
    assert lines[2].startswith("Chiasson, Rénald & Chiasson, Élise")


def test_the_treasurers_sheet_adds_up_the_night(drive: Drive) -> None:
    tickets_sell(drive=drive, actor=DESK, count=10, way="cash")
    line_record(drive=drive, actor=DESK, kind="donation", amount="25.00", way="e-transfer")
    line_record(drive=drive, actor=DESK, kind="expense", amount="4.50", way="cash", note="milk")
    draw_make(drive=drive, actor=DESK)
    draw_claim(drive=drive, actor=DESK, way="cash")
    cash_count(drive=drive, actor=DESK, total="6.00")
    pdf = render("accounts", build(drive, "accounts"), paper="letter")
    keep("accounts-letter", pdf)
    (page,) = texts(pdf)
    words = " ".join(page.split())
    assert "The night's accounts" in words and drive.name in words
    assert "Money in 35.00 CAD" in words and "Money out 9.50 CAD" in words
    assert "Net raised 25.50 CAD" in words and "Expected in the box 0.50 CAD" in words
    assert "Difference 5.50 CAD" in words and "50/50: ticket" in words
