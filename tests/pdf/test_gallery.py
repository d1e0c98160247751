"""The first page of every document (and the movement's wall list) rendered to a small PNG
(pdftoppm). With ``PRINT_GALLERY=docs/printing`` the PNGs are written there: the gallery of
docs/printing/."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from scoring.printing.data import build
from scoring.printing.pdf import render
from tests.pdf.helpers import finished_night, render_png, running_night

pytestmark = pytest.mark.django_db

BASE = "https://45s.example.org"


def test_the_gallery() -> None:
    drive = running_night(couples=20, games=25, played=3)
    done = finished_night()
    shots = {
        "punch-cards-letter": ("punch-cards", build(drive, "punch-cards", base_url=BASE), "letter"),
        "punch-card-filled-a4": (
            "punch-cards",
            build(drive, "punch-cards", couple=1, filled=True, base_url=BASE),
            "a4",
        ),
        "table-card-letter": ("table-cards", build(drive, "table-cards", base_url=BASE), "letter"),
        "score-sheet-letter": (
            "score-sheets",
            build(drive, "score-sheets", base_url=BASE),
            "letter",
        ),
        "score-sheet-a4": ("score-sheets", build(drive, "score-sheets", base_url=BASE), "a4"),
        "movement-letter": ("movement", build(drive, "movement"), "letter"),
        "movement-wall-letter": ("movement", build(drive, "movement"), "letter", 2),
        "results-letter": ("results", build(done, "results"), "letter"),
    }
    target = os.environ.get("PRINT_GALLERY")
    for name, (document, data, paper, *page) in shots.items():
        png = render_png(render(document, data, paper=paper), page=page[0] if page else 1, dpi=60)
        assert 0 < png.stat().st_size < 150_000, (name, png.stat().st_size)
        if target:
            Path(target).mkdir(parents=True, exist_ok=True)
            shutil.copy(png, Path(target) / f"{name}.png")
