"""Characters the fonts cannot draw (an emoji in a name or in the drive's name) print as a
visible replacement on every document, U+FFFD with DejaVu Sans and "?" with the standard
fonts, the same in the glyphs drawn and in the text layer; the rest of the name prints as
written, and accented names (é, ç, ñ, the Irish fadas) print as themselves."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from drives.models import Couple, Drive
from scoring.printing.data import build
from scoring.printing.pdf import base, render
from tests.pdf.helpers import finished_night, pdf_text, render_png, running_night

pytestmark = pytest.mark.django_db

EMOJI = "Mary 🍀 MacDonald"
ACCENTED = ["Séamus Ó Dónaill", "Máire Ní Súilleabháin", "Ñuñez, Begoña", "Deveau, François"]
DOCUMENTS = ["punch-cards", "table-cards", "score-sheets", "movement", "results", "accounts"]


@pytest.fixture(params=["dejavu", "standard"])
def replacement(request, monkeypatch) -> str:
    """The replacement of the fonts in use: DejaVu Sans (U+FFFD), or the standard fonts
    ("?"), as when DejaVu is not installed."""
    if request.param == "standard":
        monkeypatch.setattr(base, "_fonts", ("Helvetica", "Helvetica-Bold", False))
        return "?"
    if not base.fonts()[2]:
        pytest.skip("DejaVu Sans is not installed (fonts-dejavu-core)")
    return "\ufffd"


def named(drive: Drive) -> Drive:
    Drive.objects.filter(pk=drive.pk).update(name="Friday 🍀 45s à l'École")
    Couple.objects.filter(drive=drive, number=1).update(player1=EMOJI, player2="Éamon 👨‍👩‍👧")
    Couple.objects.filter(drive=drive, number=2).update(player1=ACCENTED[0], player2=ACCENTED[1])
    Couple.objects.filter(drive=drive, number=3).update(player1=ACCENTED[2], player2=ACCENTED[3])
    drive.refresh_from_db()
    return drive


@pytest.mark.parametrize("document", DOCUMENTS)
def test_an_emoji_prints_as_the_replacement_and_accents_as_themselves(
    document: str, replacement: str
) -> None:
    drive = named(finished_night() if document == "results" else running_night(4, 5, 1))
    text = pdf_text(render(document, build(drive, document)))
    assert f"Friday {replacement} 45s à l'École" in text  # on every document's heading
    assert "🍀" not in text and "\x00" not in text and "■" not in text
    assert not any(ord(c) < 32 and c not in "\n\t" for c in text)  # no stray control bytes
    if document in ("punch-cards", "results"):  # the documents with the players' names
        assert f"Mary {replacement} MacDonald" in text
        # An emoji sequence (three emoji joined): a replacement for each, no joiner left.
        assert f"Éamon {replacement * 3}" in text and "\u200d" not in text
        for name in ACCENTED:
            assert name in text


def test_the_replacement_is_drawn_as_well_as_written(replacement: str) -> None:
    """The emoji's place on the page shows the replacement's glyph: the card drawn from the
    name with the emoji is the card drawn from the name with the replacement typed in."""
    drive = named(running_night(2, 5, 1))
    data = build(drive, "punch-cards", couple=1)
    typed = build(drive, "punch-cards", couple=1)
    card = typed["cards"][0]
    card["players"] = [p.replace("🍀", replacement) for p in card["players"]]
    assert card["players"][0] == f"Mary {replacement} MacDonald"
    for d in (data, typed):
        d["drive"]["name"] = "Friday"
    emoji = Image.open(render_png(render("punch-cards", data), dpi=60)).convert("L")
    plain = Image.open(render_png(render("punch-cards", typed), dpi=60)).convert("L")
    assert ImageChops.difference(emoji, plain).getbbox() is None


def test_text_is_translated_once_per_character(replacement: str) -> None:
    doc = base.Doc({"drive": {"name": "x"}}, "letter")
    assert doc.text("☘️ Seán") == ("☘ Seán" if doc.unicode else "? Seán")  # no selector left
    assert doc.text("👍🏽") == replacement  # the skin tone goes with the emoji it changes
    assert doc.text("plain ASCII 123") == "plain ASCII 123"
    assert doc.text("Françoise Ní Bhriain") == "Françoise Ní Bhriain"
    assert doc.text("tab\there") == f"tab{replacement}here"  # no font draws a control byte
    table = base.printable(doc.regular, doc.bold)
    assert table is base.printable(doc.regular, doc.bold)  # one table for the fonts
    assert table[ord("🍀")] == replacement and table[ord("é")] == "é"
