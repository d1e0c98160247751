"""The public results page: a 404 until the organizer publishes the drive (the same as for a
drive that does not exist), then the standings for anyone, sortable, with CSV and XLSX."""

import codecs
import csv
import io

import pytest

from drives.services import drive_close, drive_update
from scoring.selectors import standings_for_drive
from tests.pages.live_helpers import DESK, logged_in, night, people, play, queries, text

pytestmark = pytest.mark.django_db


def url(drive, extra: str = "") -> str:
    return f"/results/{drive.slug}/{extra}"


@pytest.fixture
def ours():
    return people()


@pytest.fixture
def drive(ours):
    drive = night(ours.club, 5)
    play(drive, 1)
    return drive


def publish(drive) -> None:
    drive_update(drive=drive, actor=DESK, published=True)
    drive.refresh_from_db()


def test_404_until_published(client, ours, drive) -> None:
    assert client.get(url(drive)).status_code == 404
    assert client.get(url(drive, "?_export=csv")).status_code == 404
    # Not even the club's organizer sees an unpublished results page.
    assert logged_in(ours.organizer).get(url(drive)).status_code == 404
    assert client.get("/results/no-such-drive/").status_code == 404


def test_published_results_for_anyone(client, drive) -> None:
    publish(drive)
    response = client.get(url(drive))
    html = text(response)
    assert response.status_code == 200
    assert "Results: Friday 45s" in html and "after game 1 of 25" in html
    for row in standings_for_drive(drive):
        assert f'<tr data-couple="{row["number"]}"' in html
    assert 'data-testid="export-csv"' in html
    drive_close(drive=drive, actor=DESK)
    assert "final results" in text(client.get(url(drive)))


def test_in_french_the_title_keeps_its_colon_with_the_name(client, drive) -> None:
    # French sets a (non-breaking) space before a colon: "Résultats : …", and the title's
    # words and the drive's name stay on one line of the phone.
    drive_update(drive=drive, actor=DESK, published=True, language="fr")
    assert "<h1>R\u00e9sultats\u00a0: Friday 45s</h1>" in text(client.get(url(drive)))


def test_exports(client, drive) -> None:
    publish(drive)
    response = client.get(url(drive, "?_export=csv"))
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response.content.startswith(codecs.BOM_UTF8)  # Excel then reads it as UTF-8
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["Place", "Couple", "Players", "Wins", "Played", "Withdrawn"]
    assert len(rows) == 6
    xlsx = client.get(url(drive, "?_export=xlsx"))
    assert xlsx.status_code == 200
    assert xlsx["Content-Type"].startswith("application/vnd.openxmlformats")


def test_the_same_queries_for_4_and_40_tables(client) -> None:
    counts = []
    for couples in (8, 80):
        drive = night(people().club, couples)
        play(drive, 1)
        publish(drive)
        counts.append((queries(client, url(drive)), queries(client, url(drive, "?_export=csv"))))
    assert counts[0] == counts[1], counts
