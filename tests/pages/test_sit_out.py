"""A couple that sits out is at no table. It used to look like one: "table 8" on a 15-couple
night, "table 3" (a hole among the tables played) after a withdrawal, in the projector's large
type, and a table card was printed for it. Now it reads "sits out" on the projector, the
couple's phone, the table's phone and the desk; no table card or score sheet is printed for
it; and the tables played are 1..F without a hole, whatever withdraws or arrives late."""

from __future__ import annotations

import re

import pytest

from drives.models import Drive, Table
from drives.services import couple_update, couples_register
from scoring.printing.data import build
from scoring.printing.pdf import render
from scoring.selectors import current_tables
from tests.pages.live_helpers import DESK, advance, logged_in, night, people, play, text
from tests.pdf.helpers import pdf_pages, pdf_text

pytestmark = pytest.mark.django_db


def projector_rows(html: str) -> dict[int, str]:
    """couple → what the projector shows after its arrow (a table number or "sits out")."""
    block = re.search(r'data-testid="projector-list">(.*?)</ol>', html, re.S)
    assert block is not None
    rows = re.findall(r'<li data-couple="(\d+)".*?</li>', block.group(1), re.S)
    out = {}
    for couple, item in zip(rows, re.findall(r"<li .*?</li>", block.group(1), re.S), strict=True):
        shown = re.search(r'<span class="t[^"]*">([^<]*)</span>', item)
        assert shown is not None
        out[int(couple)] = shown.group(1).strip()
    return out


def couple_line(client, drive: Drive, number: int) -> str:
    html = text(client.get(f"/c/{drive.couples.get(number=number).token}/"))
    match = re.search(r'data-testid="next-table"[^>]*>(.*?)</p>', html, re.S)
    assert match is not None
    return re.sub(r"<[^>]+>", "", match.group(1)).strip()


def desk_headers(html: str) -> dict[int, str]:
    """data-table → the row header the desk shows."""
    row = r'<tr id="table-\d+" data-table="(\d+)".*?<th scope="row">(.*?)</th>'
    found = re.findall(row, html, re.S)
    return {int(t): re.sub(r"<[^>]+>", "", h).strip() for t, h in found}


def test_fifteen_couples_the_fifteenth_sits_out_everywhere() -> None:
    ours = people()
    drive = night(ours.club, 15)
    client = logged_in(ours.scorer)
    shown = projector_rows(text(client.get(f"/drives/{drive.slug}/projector/")))
    assert shown[15] == "sits out"
    assert {shown[n] for n in range(1, 15)} == {str(t) for t in range(1, 8)}
    assert "8" not in shown.values()
    assert couple_line(client, drive, 15) == "Sits out"
    assert couple_line(client, drive, 14) == "Table 7"
    headers = desk_headers(text(client.get(f"/drives/{drive.slug}/desk/")))
    assert headers[8] == "sits out" and headers[7] == "7"
    sit_out_table = Table.objects.get(drive=drive, number=8)
    table_page = text(client.get(f"/t/{sit_out_table.token}/"))
    assert "Couple 15 (Ann 15 & Joe 15) sits out this game." in table_page


def test_no_table_card_nor_score_sheet_for_the_sit_out() -> None:
    ours = people()
    drive = night(ours.club, 15)
    cards = build(drive, "table-cards")
    assert [t["number"] for t in cards["tables"]] == [1, 2, 3, 4, 5, 6, 7]
    assert len(pdf_pages(render("table-cards", cards))) == 7
    sheets = build(drive, "score-sheets")
    assert [t["number"] for t in sheets["tables"]] == [1, 2, 3, 4, 5, 6, 7]
    movement = pdf_text(render("movement", build(drive, "movement")))
    assert re.search(r"15\s*→ sits out", movement)
    assert "table 8" not in movement.lower()


def test_a_withdrawal_in_the_middle_leaves_no_hole_on_the_projector() -> None:
    """16 couples at 8 tables; 5 withdraws before game 2. The couple left alone used to sit
    out at "table 4" between tables played; now table 8's couples play at table 4."""
    ours = people()
    drive = night(ours.club, 16)
    play(drive, 1)
    couple_update(couple=drive.couples.get(number=5), actor=DESK, withdrawn=True)
    advance(drive, 1)
    client = logged_in(ours.scorer)
    shown = projector_rows(text(client.get(f"/drives/{drive.slug}/projector/")))
    tables = sorted({int(v) for v in shown.values() if v.isdigit()})
    assert tables == [1, 2, 3, 4, 5, 6, 7]
    alone = [c for c, v in shown.items() if v == "sits out"]
    assert len(alone) == 1 and 5 not in shown
    assert [t["number"] for t in build(drive, "table-cards")["tables"]] == list(range(1, 8))


def test_late_arrivals_fill_the_sit_out_then_sit_out_after_the_last_table() -> None:
    ours = people()
    drive = night(ours.club, 15)
    play(drive, 1)
    couples_register(drive=drive, couples=[{"players": ["Late", "One"]}], actor=DESK)
    advance(drive, 1)
    assert not any(r["sit_out"] for r in current_tables(drive))
    assert sorted({r["table"] for r in current_tables(drive)}) == list(range(1, 9))
    play(drive, 2)
    couples_register(drive=drive, couples=[{"players": ["Late", "Two"]}], actor=DESK)
    advance(drive, 2)
    rows = {r["number"]: r for r in current_tables(drive)}
    assert rows[17]["sit_out"] and rows[17]["table"] == 9
    client = logged_in(ours.scorer)
    assert projector_rows(text(client.get(f"/drives/{drive.slug}/projector/")))[17] == "sits out"
    assert [t["number"] for t in build(drive, "table-cards")["tables"]] == list(range(1, 9))
