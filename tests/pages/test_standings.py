"""Standings (django-tables2) and the per-game win grid: for the club's organizers and
scorers; places, wins and withdrawals; sorting; CSV and XLSX exports with the right content
type and rows; W/L/S/-/? in the grid; and a fixed number of queries."""

import codecs
import csv
import io
import re

import openpyxl
import pytest

from drives.services import couple_update
from scoring.selectors import standings_for_drive
from tests.pages.live_helpers import DESK, advance, logged_in, night, people, play, queries, text

pytestmark = pytest.mark.django_db
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def url(drive, page: str = "standings", extra: str = "") -> str:
    return f"/drives/{drive.slug}/{page}/{extra}"


def couples_in_order(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<tr data-couple="(\d+)"', html)]


def read_csv(response) -> list[list[str]]:
    """The rows of a CSV export, which starts with UTF-8's byte order mark (Excel needs it)."""
    assert response.content.startswith(codecs.BOM_UTF8)
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def read_xlsx(response) -> list[list[object]]:
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    return [list(row) for row in sheet.iter_rows(values_only=True)]


@pytest.fixture
def ours():
    return people()


@pytest.fixture
def drive(ours):
    drive = night(ours.club, 5)
    play(drive, 1)  # 1 and 3 win, 5 sits out (a win)
    couple_update(couple=drive.couples.get(number=4), actor=DESK, withdrawn=True)
    advance(drive, 1)
    play(drive, 2, skip=(1,))
    return drive


@pytest.mark.parametrize("page", ["standings", "grid"])
def test_who_may_open_it(client, ours, drive, page) -> None:
    response = client.get(url(drive, page))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    outsider = logged_in(people().organizer)
    assert outsider.get(url(drive, page)).status_code == 404
    assert outsider.get(url(drive, page, "?_export=csv")).status_code == 404
    assert logged_in(ours.scorer).get(url(drive, page)).status_code == 200


def test_the_standings(ours, drive) -> None:
    html = text(logged_in(ours.scorer).get(url(drive)))
    expected = [row["number"] for row in standings_for_drive(drive)]
    assert couples_in_order(html) == expected
    assert "Ann 1 &amp; Joe 1" in html
    withdrawn = re.search(r'<tr data-couple="4".*?</tr>', html, re.S).group(0)
    assert "withdrawn" in withdrawn and "—" in withdrawn
    assert 'data-testid="export-csv"' in html and 'data-testid="export-xlsx"' in html


def test_sorting(ours, drive) -> None:
    client = logged_in(ours.scorer)
    by_number = couples_in_order(text(client.get(url(drive, extra="?sort=number"))))
    assert by_number == [1, 2, 3, 4, 5]
    assert couples_in_order(text(client.get(url(drive, extra="?sort=-number")))) == [5, 4, 3, 2, 1]
    by_place = couples_in_order(text(client.get(url(drive, extra="?sort=-place"))))
    assert by_place[-1] != 4  # the withdrawn couple has no place: last either way
    assert couples_in_order(text(client.get(url(drive, extra="?sort=place"))))[-1] == 4
    assert couples_in_order(text(client.get(url(drive, extra="?sort=nonsense")))) != []


def test_csv_export(ours, drive) -> None:
    response = logged_in(ours.scorer).get(url(drive, extra="?_export=csv"))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert f'filename="{drive.slug}-standings.csv"' in response["Content-Disposition"]
    rows = read_csv(response)
    assert rows[0] == ["Place", "Couple", "Players", "Wins", "Played", "Withdrawn"]
    expected = standings_for_drive(drive)
    assert len(rows) == 1 + len(expected)
    first = expected[0]
    assert rows[1] == [
        str(first["place"]),
        str(first["number"]),
        " & ".join(first["players"]),
        str(first["wins"]),
        str(first["played"]),
        "",
    ]
    assert ["", "4", "Ann 4 & Joe 4", "0", "1", "yes"] in rows


@pytest.mark.parametrize("page", ["standings", "grid"])
def test_csv_exports_keep_accents_for_excel(ours, drive, page) -> None:
    """Excel reads a CSV without a byte order mark in the computer's code page: "Thérèse"
    came out as "ThÃ©rÃ¨se". With the mark it reads UTF-8."""
    couple_update(couple=drive.couples.get(number=2), actor=DESK, player1="Thérèse Aucoin")
    response = logged_in(ours.scorer).get(url(drive, page, "?_export=csv"))
    assert response.content[:3] == codecs.BOM_UTF8
    assert "Thérèse Aucoin & Joe 2".encode() in response.content
    assert response.content.count(codecs.BOM_UTF8) == 1
    rows = read_csv(response)
    assert rows[0][0] in ("Place", "Couple")  # the first header is clean after the mark


def test_xlsx_export(ours, drive) -> None:
    response = logged_in(ours.scorer).get(url(drive, extra="?_export=xlsx"))
    assert response.status_code == 200
    assert response["Content-Type"] == XLSX
    rows = read_xlsx(response)
    assert rows[0] == ["Place", "Couple", "Players", "Wins", "Played", "Withdrawn"]
    assert len(rows) == 1 + len(standings_for_drive(drive))
    numbers = [int(row[1]) for row in rows[1:]]
    assert numbers == [row["number"] for row in standings_for_drive(drive)]


def test_an_unknown_export_format_shows_the_page(ours, drive) -> None:
    response = logged_in(ours.scorer).get(url(drive, extra="?_export=yaml"))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")


def test_the_win_grid(ours, drive) -> None:
    html = text(logged_in(ours.scorer).get(url(drive, "grid")))
    assert 'class="data-table win-grid"' in html
    rows = {
        int(number): re.findall(r'<td class="(mark-[a-z-]+)"', body)
        for number, body in re.findall(r'<tr data-couple="(\d+)"[^>]*>(.*?)</tr>', html, re.S)
    }
    # Game 1: 1 beat 2, 3 beat 4, 5 sat out (a win). Game 2 (4 withdrew): 1 beat 3 at
    # table 2; table 1 (2 v 5) has no result yet.
    assert rows[1] == ["mark-win", "mark-win"]
    assert rows[2] == ["mark-loss", "mark-pending"]
    assert rows[3] == ["mark-win", "mark-loss"]
    assert rows[4] == ["mark-loss", "mark-none"]
    assert rows[5] == ["mark-sit-win", "mark-pending"]
    assert "css/live.css" in html


def test_win_grid_exports(ours, drive) -> None:
    client = logged_in(ours.scorer)
    response = client.get(url(drive, "grid", "?_export=csv"))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    rows = read_csv(response)
    assert rows[0] == ["Couple", "Players", "Wins", "1", "2"]
    assert rows[1] == ["1", "Ann 1 & Joe 1", "2", "W", "W"]
    assert rows[4] == ["4", "Ann 4 & Joe 4", "0", "L", ""]
    assert rows[5] == ["5", "Ann 5 & Joe 5", "1", "S", "?"]
    xlsx = client.get(url(drive, "grid", "?_export=xlsx"))
    assert xlsx["Content-Type"] == XLSX
    assert len(read_xlsx(xlsx)) == 6


def test_the_same_queries_for_4_and_40_tables(ours) -> None:
    counts = []
    for couples in (8, 80):
        drive = night(ours.club, couples)
        play(drive, 1)
        advance(drive, 1)
        play(drive, 2, skip=(1,))
        client = logged_in(ours.scorer)
        counts.append(
            tuple(
                queries(client, url(drive, page, extra))
                for page in ("standings", "grid")
                for extra in ("", "?sort=-wins", "?_export=csv", "?_export=xlsx")
            )
        )
    assert counts[0] == counts[1], counts
