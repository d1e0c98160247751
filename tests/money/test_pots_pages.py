"""The club's pots on the pages (issue 36 part 4): a jackpot for a night's wins carried over a
season's three drives, money put in each night on the pots page, won by the couple with all
the games; the season page shows it night by night; the drive's export and restore carry its
entries; the page's queries do not grow with the nights."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from drives.models import Membership, Player
from drives.services import member_add
from money import selectors
from money.models import Line, Pot, PotEntry
from scoring.records.export import drive_export
from scoring.records.restore import drive_delete, drive_restore
from tests.factories import UserFactory
from tests.seasons.helpers import World, make_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> World:
    return make_season()


@pytest.fixture
def desk(world: World) -> Client:
    organizer = UserFactory(username="treasurer")
    member_add(club=world.club, user=organizer, role=Membership.Role.ORGANIZER)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organizer)
    return client


def pots_page(slug: str) -> str:
    return reverse("money:pots", kwargs={"slug": slug})


def act(desk: Client, slug: str, **form: Any) -> str:
    answer = desk.post(pots_page(slug), form, follow=True)
    assert answer.status_code == 200
    return str(answer.content.decode())


def test_a_jackpot_carried_over_the_season_and_won_by_all_the_games(
    world: World, desk: Client, django_assert_num_queries: Any
) -> None:
    first = world.drives[0].slug
    page = act(desk, first, action="open", name="Jackpot", kind="jackpot", opening="200", wins="3")
    assert "The Jackpot is open." in page
    pot = Pot.objects.get(club=world.club)
    assert pot.wins == 3
    for drive in world.drives:
        page = act(desk, drive.slug, action="add", pot=str(pot.pk), amount="50", way="cash")
        assert "50.00 put in the Jackpot." in page
    last = world.drives[2].slug
    # couple 2 lost to couple 1: 2 wins of 3
    page = act(desk, last, action="pay", pot=str(pot.pk), couple="2")
    assert "Couple 2 won 2 games; the jackpot takes 3." in page
    page = act(desk, last, action="pay", pot=str(pot.pk), couple="1")
    assert "Lou Samson &amp; Joe Boudreau wins 350.00." in page
    assert not Line.objects.filter(drive=world.drives[2], kind="pot_paid", amount=Decimal("0"))
    assert selectors.accounts(world.drives[2])["totals_by_kind"] == {
        "pot_in": Decimal("50.00"),
        "pot_paid": Decimal("350.00"),
    }

    # the season page: the pot night by night
    season = reverse(
        "seasons:season_detail", kwargs={"club": world.club.slug, "season": world.season.slug}
    )
    shown = desk.get(season).content.decode()
    pots = shown.split('data-testid="season-pots"')[1]
    assert pots.count('<td class="num">50.00</td>') == 3
    assert "200.00" in pots and "250.00" in pots and "300.00" in pots  # carried in
    assert "350.00" in pots and "Lou Samson &amp; Joe Boudreau" in pots

    # the pots page reads in a fixed number of queries, whatever the nights and the pots
    with django_assert_num_queries(9):
        assert desk.get(pots_page(last)).status_code == 200
    act(desk, last, action="open", name="Cookie jar", kind="jar", opening="20")
    act(desk, first, action="add", pot=str(Pot.objects.get(name="Cookie jar").pk), amount="5")
    with django_assert_num_queries(9):
        assert desk.get(pots_page(last)).status_code == 200


def test_the_export_and_restore_carry_the_pots_entries(world: World) -> None:
    from money import services
    from tests.api.helpers import DESK

    pot = services.pot_open(club=world.club, actor=DESK, name="Ace", kind="ace", opening="10")
    drive = world.drives[1]
    services.pot_add(drive=drive, actor=DESK, pot=pot.pk, amount="20")
    services.pot_draw(drive=drive, actor=DESK, pot=pot.pk, ticket=4, card=9, found="2 of clubs")
    services.pot_draw(
        drive=drive,
        actor=DESK,
        pot=pot.pk,
        ticket=7,
        card=12,
        found="ace of spades",
        ace=True,
        winner="Rita Doucet",
    )
    record = drive_export(drive)
    assert [e["kind"] for e in record["money"]["pots"][0]["entries"]] == [
        "carried",
        "added",
        "draw",
        "draw",
    ]
    drive_delete(drive=drive)
    assert not PotEntry.objects.exists()
    assert selectors.pot_balance(pot) == Decimal("10.00")
    restored = drive_restore(data=record).drive
    row = selectors.pot_view(Pot.objects.get(pk=pot.pk))
    assert row["state"] == "won" and row["opened"] == [9, 12] and row["holds"] == Decimal("0.00")
    (night,) = row["history"]
    assert night["drive"] == restored.slug and night["paid"] == Decimal("30.00")
    assert night["winner"] == "Rita Doucet"
    # the same export restored again as another copy opens its pot anew (cards 9 and 12 opened)
    record["drive"]["slug"] = "copy"
    copy = drive_restore(data=record).drive
    assert PotEntry.objects.filter(drive=copy).values("pot").distinct().count() == 1
    assert Pot.objects.filter(club=world.club, name="Ace").count() == 2
    assert Player.objects.filter(club=world.club).exists()
