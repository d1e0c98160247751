"""Nights to print, built through the services, and ways to read a PDF back: its pages'
text and size (pypdf) and the QR codes on a page (pdftoppm, then zxing-cpp)."""

from __future__ import annotations

import io
import math
import shutil
import subprocess
import tempfile
from pathlib import Path

from django.contrib.auth import get_user_model

from drives.models import AuditEntry, Drive
from drives.services import Actor, couples_register, drive_close
from scoring.prizes.selectors import ties_list
from scoring.prizes.services import (
    cookie_jar_draw,
    prize_setup_update,
    prizes_open_ties,
    tie_choose,
    tie_decide,
)
from tests.conftest import require_service
from tests.prizes.helpers import night
from tests.scoring.nights import DESK, advance, lower_number, new_drive, play_game, start

NAMES = [
    ("Aucoin, Thérèse", "Aucoin, Gérard"),
    ("MacNeil, Mary", "MacNeil, Angus"),
    ("Chiasson, Rénald", "Chiasson, Élise"),
    ("LeBlanc, Cécile", "Boudreau, Benoît"),
    ("Poirier, Noëlla", "Deveau, François"),
    ("MacDonald, Flora", "Campbell, Hector"),
]


def couple_names(count: int) -> list[list[str]]:
    out = [list(NAMES[i]) for i in range(min(count, len(NAMES)))]
    out += [[f"North {i}", f"South {i}"] for i in range(len(out) + 1, count + 1)]
    return out


def running_night(couples: int = 20, games: int = 25, played: int = 3) -> Drive:
    """A drive of ``couples`` couples (accented names first), ``played`` games played through
    the services, the next one in play."""
    drive = new_drive(0, name="Friday 45s at St. Joseph's", games=games, venue="Parish hall")
    couples_register(
        drive=drive, couples=[{"players": p} for p in couple_names(couples)], actor=DESK
    )
    drive.refresh_from_db()
    start(drive)
    for game in range(1, played + 1):
        play_game(drive, game, lower_number)
        advance(drive, game)
    drive.refresh_from_db()
    return drive


def finished_night() -> Drive:
    """A finished, closed night with prizes, a settled tie, a booby prize and a signed-off
    close by the organizer."""
    drive = night(
        [9, 9, 7, 6, 6, 2],
        prizes={"prizes": [{"amount": "60.00"}, {"amount": "30.00"}, {"amount": "10.00"}]},
        name="Hall night",
        cookie_jar=[1, 3, 5],
    )
    from drives.models import Couple

    for number, (a, b) in enumerate(NAMES, start=1):
        Couple.objects.filter(drive=drive, number=number).update(player1=a, player2=b)
    prize_setup_update(
        drive=drive,
        actor=DESK,
        booby=True,
        booby_prize={"amount": "5.00"},
        cookie_jar=True,
        cookie_jar_k=2,
        buy_in="2.00",
    )
    for tie in prizes_open_ties(drive=drive, actor=DESK):
        for couple in tie.couples:
            tie_choose(tie=tie, couple=couple, choice="split", actor=DESK)
        tie_decide(tie=tie, actor=DESK)
    cookie_jar_draw(drive=drive, games=[1, 2], actor=DESK)
    user = get_user_model().objects.create_user(
        "mgillis", first_name="Margaret", last_name="Gillis"
    )
    drive_close(drive=drive, actor=Actor(user=user, channel=AuditEntry.Channel.DESK))
    drive.refresh_from_db()
    assert ties_list(drive)
    return drive


def pdf_pages(data: bytes):
    from pypdf import PdfReader

    return PdfReader(io.BytesIO(data)).pages


def drawn_sizes(data: bytes, page: int = 1) -> list[tuple[str, float]]:
    """Each piece of text drawn on ``page`` (from 1) with its size in points as printed: the
    font's size scaled by the text and drawing matrices (forms, turned halves included)."""
    drawn: list[tuple[str, float]] = []

    def visit(text: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
        if text.strip():
            scale = math.hypot(tm[0], tm[1]) * math.hypot(cm[0], cm[1])
            drawn.append((text.strip(), round(size * scale, 1)))

    pdf_pages(data)[page - 1].extract_text(visitor_text=visit)
    return drawn


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in pdf_pages(data))


def render_png(data: bytes, page: int = 1, dpi: int = 150) -> Path:
    """Page ``page`` of the PDF as a PNG (pdftoppm) in a temporary directory."""
    if shutil.which("pdftoppm") is None:
        # Skips on a developer's machine; fails under CI=true, where .ci/run installs it.
        require_service("pdftoppm", "apt-get install poppler-utils")
    out = Path(tempfile.mkdtemp(prefix="pdf-")) / "page"
    pdf = out.with_suffix(".pdf")
    pdf.write_bytes(data)
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            str(dpi),
            "-f",
            str(page),
            "-l",
            str(page),
            "-singlefile",
            str(pdf),
            str(out),
        ],
        check=True,
    )
    return out.with_suffix(".png")


def qr_codes(data: bytes, page: int = 1) -> list[str]:
    """The texts of every QR code on a page."""
    import zxingcpp
    from PIL import Image

    image = Image.open(render_png(data, page))
    return sorted(r.text for r in zxingcpp.read_barcodes(image) if r.format.name == "QRCode")
