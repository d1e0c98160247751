"""The season pages: who may open them, a season made and edited through its forms (bad
dates a form error), drives added and removed, merges and splits from the players page, the
standings sorted and exported, the projector, and the public page once published."""

from __future__ import annotations

import codecs
import csv
import io
import re
from datetime import date

import openpyxl
import pytest

from drives.services import club_create
from seasons.models import PlayerMerge, Season, SeasonDrive
from tests.pages.live_helpers import logged_in, people, text
from tests.seasons.helpers import World, make_drive, make_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def ours():
    return people("St. Joseph's Parish")


@pytest.fixture
def world(ours) -> World:
    return make_season(ours.club)


def url(world: World, page: str = "") -> str:
    return f"/clubs/{world.club.slug}/seasons/{world.season.slug}/{page}"


def players_in_order(html: str) -> list[str]:
    return re.findall(r'<tr data-player="([^"]+)"', html)


def test_who_may_open_the_season(client, ours, world) -> None:
    response = client.get(url(world))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    outsider = logged_in(people().organizer)
    assert outsider.get(url(world)).status_code == 404
    assert outsider.get("/seasons/").status_code == 200
    scorer = logged_in(ours.scorer)
    page = scorer.get(url(world))
    assert page.status_code == 200 and "Remove" not in text(page)
    assert scorer.get(url(world, "edit")).status_code == 403
    assert scorer.post(url(world, "players"), {"action": "merge"}).status_code == 403


def test_a_season_made_through_the_form_and_bad_dates_refused(ours) -> None:
    client = logged_in(ours.organizer)
    page = client.get("/seasons/")
    assert "New season for St. Joseph" in text(page)
    refused = client.post(
        "/seasons/",
        {"club": ours.club.slug, "name": "Backwards", "starts": "2027-05-01", "ends": "2026-09-01"},
    )
    assert refused.status_code == 422
    assert "cannot end" in text(refused) and not Season.objects.exists()
    made = client.post(
        "/seasons/",
        {"club": ours.club.slug, "name": "Fall 2026", "starts": "2026-09-01", "ends": "2026-12-20"},
    )
    season = Season.objects.get()
    assert (
        made.status_code == 302
        and made["Location"] == f"/clubs/{ours.club.slug}/seasons/{season.slug}/"
    )
    scorer = logged_in(ours.scorer)
    assert scorer.post("/seasons/", {"club": ours.club.slug, "name": "X"}).status_code == 403


def test_drives_added_and_removed(ours) -> None:
    world = make_season(ours.club, play=False)
    client = logged_in(ours.organizer)
    first = world.drives[0]
    client.post(url(world, f"drives/{first.slug}/remove"))
    assert not SeasonDrive.objects.filter(drive=first).exists()
    page = text(client.get(url(world)))
    assert f'value="{first.slug}"' in page  # offered again
    theirs = make_drive(club_create(name="Legion"), date(2026, 10, 2), [("A B", "C D")])
    refused = client.post(url(world, "drives"), {"drive": theirs.slug}, follow=True)
    assert "not added" in text(refused) and not SeasonDrive.objects.filter(drive=theirs).exists()
    # The same words as for a drive that does not exist.
    unknown = client.post(url(world, "drives"), {"drive": "no-such-drive"}, follow=True)
    why = [
        re.findall(r"not added: ([^<]*)", text(page).replace(slug, "?"))
        for page, slug in ((refused, theirs.slug), (unknown, "no-such-drive"))
    ]
    assert why[0] and why[0] == why[1]
    client.post(url(world, "drives"), {"drive": first.slug})
    assert SeasonDrive.objects.filter(drive=first, season=world.season).exists()


def test_edit_refuses_reversed_dates_with_a_form_error(ours, world) -> None:
    client = logged_in(ours.organizer)
    response = client.post(
        url(world, "edit"), {"name": "Fall", "starts": "2026-12-01", "ends": "2026-11-01"}
    )
    assert response.status_code == 422 and "cannot end" in text(response)
    response = client.post(
        url(world, "edit"), {"name": "Fall", "starts": "2026-09-01", "ends": "2026-10-01"}
    )
    assert response.status_code == 422 and "remove it from the season first" in text(response)
    response = client.post(
        url(world, "edit"),
        {
            "name": "Fall and winter",
            "starts": "2026-09-01",
            "ends": "2027-04-30",
            "published": "on",
        },
    )
    assert response.status_code == 302
    world.season.refresh_from_db()
    assert world.season.name == "Fall and winter" and world.season.published


def test_merge_from_the_players_page_and_merging_with_itself_refused(ours, world) -> None:
    client = logged_in(ours.organizer)
    itself = client.post(
        url(world, "players"),
        {"action": "merge", "name": "Teresa MacNeil", "into": "Teresa MacNeil"},
    )
    assert itself.status_code == 422 and "always the same person" in text(itself)
    together = client.post(
        url(world, "players"), {"action": "merge", "name": "Joe Boudreau", "into": "Lou Samson"}
    )
    assert together.status_code == 422 and "two people" in text(together)
    assert not PlayerMerge.objects.exists()
    merged = client.post(
        url(world, "players"),
        {"action": "merge", "name": "Teresa MacNeil", "into": "Thérèse MacNeil"},
    )
    assert merged.status_code == 302
    page = text(client.get(url(world, "players")))
    assert "“Teresa MacNeil”" in page
    standings = text(client.get(url(world)))
    assert "teresa macneil" not in players_in_order(standings)
    client.post(url(world, "players"), {"action": "unmerge", "name": "Thérèse MacNeil"})
    assert not PlayerMerge.objects.exists()


def test_split_from_the_players_page(ours, world) -> None:
    client = logged_in(ours.organizer)
    october = world.drives[1]
    response = client.post(
        url(world, "players"),
        {
            "action": "split",
            "drive": october.slug,
            "name": "Rita Doucet",
            "as_name": "Rita Doucet (Mabou)",
        },
    )
    assert response.status_code == 302
    assert "rita doucet (mabou)" in players_in_order(text(client.get(url(world))))
    missing = client.post(
        url(world, "players"),
        {"action": "split", "drive": october.slug, "name": "Nobody", "as_name": "Else"},
    )
    assert missing.status_code == 422 and "No player" in text(missing)


def test_standings_sort_and_export(ours, world) -> None:
    client = logged_in(ours.scorer)
    html = text(client.get(url(world)))
    order = players_in_order(html)
    assert len(order) == 9  # nine players: Thérèse under two spellings, Teresa apart
    by_name = players_in_order(text(client.get(url(world) + "?sort=player")))
    assert by_name != order and sorted(by_name) == sorted(order)
    fewest = players_in_order(text(client.get(url(world) + "?sort=-average")))
    assert len(fewest) == 9
    by_average = client.get(url(world) + "?sort=average&_export=csv")
    lines = list(csv.reader(io.StringIO(by_average.content.decode("utf-8-sig"))))
    column = lines[0].index("Average wins per drive")
    averages = [float(line[column]) for line in lines[1:]]
    assert averages == sorted(averages) and averages[0] < averages[-1]
    exported = client.get(url(world) + "?_export=csv")
    assert exported["Content-Type"].startswith("text/csv")
    assert exported.content.startswith(codecs.BOM_UTF8)
    rows = list(csv.reader(io.StringIO(exported.content.decode("utf-8-sig"))))
    assert rows[0][:4] == ["Place", "Player", "Drives", "Total wins"]
    assert len(rows) == 10
    total = sum(int(r[3]) for r in rows[1:])
    assert total == 2 * 3 * 2 * 3
    xlsx = client.get(url(world) + "?_export=xlsx")
    sheet = openpyxl.load_workbook(io.BytesIO(xlsx.content)).active
    assert [c.value for c in sheet[1]][:2] == ["Place", "Player"] and sheet.max_row == 10


def test_projector_and_the_public_page(client, ours, world) -> None:
    projector = logged_in(ours.scorer).get(url(world, "projector"))
    assert projector.status_code == 200 and 'data-testid="season-projector"' in text(projector)
    assert client.get(url(world, "results")).status_code == 404
    Season.objects.filter(pk=world.season.pk).update(published=True)
    public = client.get(url(world, "results"))
    assert public.status_code == 200 and "Joe Boudreau" in text(public)
    assert client.get(url(world, "results") + "?_export=csv").status_code == 200


def test_the_season_page_takes_a_fixed_number_of_queries_a_drive(ours, world) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = logged_in(ours.scorer)
    client.get(url(world))
    with CaptureQueriesContext(connection) as three:
        client.get(url(world))
    SeasonDrive.objects.filter(drive=world.drives[0]).delete()
    with CaptureQueriesContext(connection) as two:
        client.get(url(world))
    per_drive = len(three) - len(two)
    # The standings' three, and the cookie jar's (no jar: the carry-in, four).
    assert per_drive <= 8, per_drive
