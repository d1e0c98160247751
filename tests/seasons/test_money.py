"""The night's money across a season: the net raised by each drive of the season and the
season's total, on the season page and at ``GET …/seasons/{season}/money``, for the club's
organizers only (as the drives' money pages are)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from drives.models import Drive
from money import services as money
from seasons.selectors import season_money
from tests.api.helpers import Api, ClubUsers, make_club
from tests.seasons.helpers import DESK, World, make_drive, make_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def ours() -> ClubUsers:
    return make_club("St. Joseph's Parish", "ours")


@pytest.fixture
def world(ours: ClubUsers) -> World:
    """Three drives: the first takes a donation and pays an expense, the second sells a 50/50
    strip, the third took nothing; a drive of the club outside the season takes 500.00."""
    world = make_season(ours.club, play=False)
    first, second, _third = world.drives
    money.line_record(drive=first, actor=DESK, kind="donation", amount="100.00")
    money.line_record(drive=first, actor=DESK, kind="expense", amount="12.50", way="card")
    money.tickets_sell(drive=second, actor=DESK, count=10)
    other = make_drive(ours.club, world.drives[0].date.replace(month=1), [("A", "B")])
    money.line_record(drive=other, actor=DESK, kind="donation", amount="500.00")
    return world


def base(world: World) -> str:
    return f"clubs/{world.club.slug}/seasons/{world.season.slug}"


def test_the_net_raised_per_drive_and_the_seasons_total_in_the_api(
    ours: ClubUsers, world: World
) -> None:
    api = Api(Client())
    answer = api.get(f"{base(world)}/money", token=ours.org_token)
    assert answer.status_code == 200, answer.json()
    data = answer.json()
    assert data["season"]["slug"] == world.season.slug
    assert [(d["slug"], d["money_in"], d["money_out"], d["net"]) for d in data["drives"]] == [
        (world.drives[0].slug, "100.00", "12.50", "87.50"),
        (world.drives[1].slug, "10.00", "0.00", "10.00"),
        (world.drives[2].slug, "0.00", "0.00", "0.00"),
    ]
    assert data["totals"] == [
        {"currency": "CAD", "money_in": "110.00", "money_out": "12.50", "net": "97.50"}
    ]
    # A reversal (the expense was a mistake) shows at once in the season's total.
    expense = world.drives[0].money_lines.get(kind="expense")
    money.line_reverse(drive=world.drives[0], line_id=expense.pk, actor=DESK)
    again = api.get(f"{base(world)}/money", token=ours.org_token).json()
    assert again["totals"][0]["net"] == "110.00"


def test_the_seasons_money_is_the_organizers(ours: ClubUsers, world: World) -> None:
    api = Api(Client())
    assert api.get(f"{base(world)}/money", token=ours.scorer_token).status_code == 403
    theirs = make_club("Holy Cross Hall", "theirs")
    assert api.get(f"{base(world)}/money", token=theirs.org_token).status_code == 404


def test_the_season_page_shows_the_money_to_organizers_only(ours: ClubUsers, world: World) -> None:
    url = reverse("seasons:season_detail", args=[world.club.slug, world.season.slug])
    organizer = Client()
    organizer.force_login(ours.organizer)
    page = organizer.get(url).content.decode()
    assert 'data-testid="season-money"' in page
    assert "Sums in CAD." in page and "500.00" not in page
    assert ">87.50<" in page and "<strong>97.50</strong>" in page
    scorer = Client()
    scorer.force_login(ours.scorer)
    shown = scorer.get(url)
    assert shown.status_code == 200 and b"season-money" not in shown.content


def test_the_seasons_money_costs_the_same_queries_for_each_drive(world: World) -> None:
    """The same few queries a drive, however many lines each has."""

    def queries(drives: list[Drive]) -> int:
        with CaptureQueriesContext(connection) as captured:
            season_money(drives)
        return len(captured)

    one = queries(world.drives[:1])
    assert one == PER_DRIVE
    assert queries(world.drives) == 3 * PER_DRIVE
    money.tickets_sell(drive=world.drives[2], actor=DESK, count=3)
    money.line_record(drive=world.drives[2], actor=DESK, kind="donation", amount="5")
    money.line_record(drive=world.drives[2], actor=DESK, kind="expense", amount="1")
    assert queries(world.drives) == 3 * PER_DRIVE


# the stored lines, the reversed ones, the prizes' set-up and the awards (and the jar's couples
# where the drive has a cookie jar's buy-in: none here)
PER_DRIVE = 4
