"""How the renderers write their PDFs: QR codes module for module as reportlab's encoder lays
them out, page streams Flate-compressed without touching reportlab's process-wide settings,
and several documents rendered at once in one process (a worker's threads) coming out as
they do one at a time."""

from __future__ import annotations

import io
import random
import string
from concurrent.futures import ThreadPoolExecutor

import pytest
from pypdf import PdfReader
from reportlab import rl_config
from reportlab.graphics.barcode.qrencoder import QRCode, QRErrorCorrectLevel
from reportlab.pdfgen.canvas import Canvas

from scoring.pdf import render
from scoring.pdf.base import QR_MASK, _layout, qr_matrix, qr_path
from scoring.print_data import build
from tests.pdf.helpers import pdf_pages, qr_codes, running_night

BASE = "https://45s.example.org"


def encoder_matrix(text: str) -> list[list[bool]]:
    """The modules reportlab's own encoder lays out for ``text`` with the renderers' mask."""
    code = QRCode(None, QRErrorCorrectLevel.M)
    code.addData(text)
    code.version = code.calculate_version()
    code.makeImpl(False, QR_MASK)
    return [[bool(m) for m in row] for row in code.modules]


def texts() -> list[str]:
    """URLs as printed, and texts of every mode and of sizes up to a version with blocks of
    two lengths."""
    rnd = random.Random(45)
    out = [
        "https://45s.example.org/c/sOmVOZAMXeYnvh8GkeewLw/",
        "http://127.0.0.1:8000/t/PoNUO4k-tij1LKOATsolug/",
        "12345678901234567890",
        "HTTPS://45S.EXAMPLE.ORG/T/ABC",
        "Équipe 7 · Thérèse",
        "x",
    ]
    for length in (10, 30, 60, 100, 160, 250, 400):
        out.append("".join(rnd.choice(string.ascii_letters + "/:.-_") for _ in range(length)))
    return out


def test_qr_codes_are_the_encoders_own_module_for_module() -> None:
    for text in texts():
        assert qr_matrix(text) == encoder_matrix(text), text


def test_the_columns_follow_the_encoders_data_path_in_every_version() -> None:
    for version in range(1, 41):
        layout = _layout(version, QR_MASK)  # checks its path against the encoder's order
        assert sorted(col for col, _rows in layout.columns) == list(range(version * 4 + 17))


def test_a_qr_code_path_fills_exactly_its_dark_modules() -> None:
    for text in texts():
        modules = qr_matrix(text)
        size, path = qr_path(text)
        assert size == len(modules)
        *rects, fill = path.split("\n")
        assert fill == "f"
        painted = [[False] * size for _ in range(size)]
        for rect in rects:
            *numbers, op = rect.split()
            x, y, width, height = map(int, numbers)
            assert op == "re" and width == 1  # a run of modules down a column
            for row in range(size - y - height, size - y):  # the path's y goes up
                assert not painted[row][x], text  # runs do not overlap
                painted[row][x] = True
        assert painted == modules, text


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


def test_streams_are_flate_and_reportlab_settings_stay_as_they_are(night_data, monkeypatch) -> None:
    monkeypatch.setattr(rl_config, "useA85", 1)  # reportlab's default, set by another user
    seen = []

    def progress(done: int, total: int) -> None:
        seen.append(rl_config.useA85)  # mid-render: still as it was

    pdf = render("table-cards", night_data["table-cards"], progress=progress)
    assert seen and set(seen) == {1}
    assert rl_config.useA85 == 1
    for page in PdfReader(io.BytesIO(pdf)).pages:
        assert list(page["/Contents"].get_object()["/Filter"]) == ["/FlateDecode"]
        for form in page["/Resources"]["/XObject"].values():  # the card's fixed parts
            assert list(form.get_object()["/Filter"]) == ["/FlateDecode"]
    # a plain reportlab canvas meanwhile still writes its ASCII85 streams
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pageCompression=1)
    canvas.drawString(72, 720, "plain")
    canvas.showPage()
    canvas.save()
    assert b"/ASCII85Decode" in buffer.getvalue()


def test_documents_rendered_at_once_in_threads_come_out_as_one_at_a_time(night_data) -> None:
    documents = list(night_data) * 3
    alone = {d: page_texts(render(d, night_data[d])) for d in night_data}
    qr_path.cache_clear()  # the threads encode the codes again, side by side
    with ThreadPoolExecutor(max_workers=4) as pool:
        pdfs = list(pool.map(lambda d: render(d, night_data[d]), documents))
    for document, pdf in zip(documents, pdfs, strict=True):
        assert page_texts(pdf) == alone[document], document
    table = night_data["table-cards"]["tables"][2]
    assert qr_codes(pdfs[1], page=3) == [table["url"], table["url"]]
