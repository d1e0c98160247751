"""How the renderers write their PDFs: each distinct QR code drawn once a document as a form
and placed wherever it is printed, streams compressed by the canvas without touching
reportlab's process-wide settings, and several documents rendered at once in one process (a
worker's threads) coming out as they do one at a time."""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor

import pytest
from pypdf import PdfReader
from reportlab import rl_config

from scoring.printing.data import build
from scoring.printing.pdf import render
from scoring.printing.pdf.base import QR_BORDER, qr_modules, qr_rects
from tests.pdf.helpers import pdf_pages, qr_codes, running_night

BASE = "https://45s.example.org"


def test_a_qr_codes_rectangles_cover_exactly_its_dark_modules() -> None:
    for text in (f"{BASE}/c/sOmVOZAMXeYnvh8GkeewLw/", "12345678901234567890", "Équipe 7", "x"):
        modules = qr_modules(text)
        side, rects = qr_rects(text)
        assert side == len(modules) + 2 * QR_BORDER
        painted = [[False] * side for _ in range(side)]
        for x, y, width, height in rects:
            for row in range(side - y - height, side - y):  # y goes up
                for col in range(x, x + width):
                    assert not painted[row][col], text  # no module painted twice
                    painted[row][col] = True
        inner = [row[QR_BORDER : side - QR_BORDER] for row in painted[QR_BORDER:-QR_BORDER]]
        assert inner == [list(map(bool, row)) for row in modules], text
        assert not any(painted[0]) and not any(row[0] for row in painted)  # the quiet zone


@pytest.fixture
def night_data(db):
    drive = running_night(couples=8, games=10, played=2)
    return {
        "punch-cards": build(drive, "punch-cards", base_url=BASE),
        "table-cards": build(drive, "table-cards", base_url=BASE),
        "score-sheets": build(drive, "score-sheets", base_url=BASE),
        "results": build(drive, "results"),
    }


def page_texts(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in pdf_pages(pdf)]


def test_streams_are_compressed_and_reportlab_settings_stay_as_they_are(
    night_data, monkeypatch
) -> None:
    monkeypatch.setattr(rl_config, "useA85", 0)  # as another user of reportlab set it
    seen = []

    def progress(done: int, total: int) -> None:
        seen.append(rl_config.useA85)  # mid-render: still as it was

    pdf = render("table-cards", night_data["table-cards"], progress=progress)
    assert seen and set(seen) == {0}
    assert rl_config.useA85 == 0
    for page in PdfReader(io.BytesIO(pdf)).pages:
        assert "/FlateDecode" in list(page["/Contents"].get_object()["/Filter"])
        for form in page["/Resources"]["/XObject"].values():  # the fixed parts, the codes
            assert "/FlateDecode" in list(form.get_object()["/Filter"])


def forms(pdf: bytes) -> list[set[str]]:
    """The names of the forms each page places."""
    return [set(page["/Resources"]["/XObject"]) for page in PdfReader(io.BytesIO(pdf)).pages]


def test_each_distinct_qr_code_is_one_form_a_document_placed_where_it_is_printed(
    night_data,
) -> None:
    tables = night_data["table-cards"]["tables"]
    pdf = render("table-cards", night_data["table-cards"])
    placed = forms(pdf)
    codes = [names - {"/FormXob.table-frame"} for names in placed]
    assert all(len(names) == 1 for names in codes)  # both halves place the page's one form
    assert len(set().union(*codes)) == len(tables)  # a form for each table's code
    assert qr_codes(pdf, page=2) == [tables[1]["url"], tables[1]["url"]]
    # the same table's code on every one of its score sheets' pages and a card's on its card
    sheets = render("score-sheets", night_data["score-sheets"])
    assert len(set().union(*forms(sheets))) == 1 + len(night_data["score-sheets"]["tables"])
    cards = night_data["punch-cards"]["cards"]
    punch = render("punch-cards", night_data["punch-cards"])
    assert qr_codes(punch) == sorted(card["url"] for card in cards[:6])  # 6 a page
    # a QR code's form is drawn once in the file, however often it is placed
    assert pdf.count(b"/Subtype /Form") == len(tables) + 1


def test_documents_rendered_at_once_in_threads_come_out_as_one_at_a_time(night_data) -> None:
    documents = list(night_data) * 3
    alone = {d: page_texts(render(d, night_data[d])) for d in night_data}
    with ThreadPoolExecutor(max_workers=4) as pool:
        pdfs = list(pool.map(lambda d: render(d, night_data[d]), documents))
    for document, pdf in zip(documents, pdfs, strict=True):
        assert page_texts(pdf) == alone[document], document
    table = night_data["table-cards"]["tables"][2]
    assert qr_codes(pdfs[1], page=3) == [table["url"], table["url"]]
