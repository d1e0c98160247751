"""The members' entry price (issue 36 part 6): the drive's entry fee is the non-members'
price and the money settings may set a members' price; who is a member is the club's players'
(``Player.member``, set on the player's page). A couple pays for its two players, per person
or per couple as the hall charges: the door's paid tick, the ledger and the cash box follow;
the money page and the door say so; the export carries the price."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from drives.models import Couple, Drive, Player
from drives.services import couple_update
from money import selectors, services
from money.models import Line, MoneySetup
from scoring.records.export import drive_export
from scoring.records.restore import drive_delete, drive_restore
from tests.api.helpers import DESK, Api, ClubUsers, make_drive
from tests.money.conftest import Sheet

pytestmark = pytest.mark.django_db


def members(drive: Drive, *names: str) -> None:
    Player.objects.filter(club=drive.club, name__in=names).update(member=True)


def pay(drive: Drive, number: int) -> Decimal:
    couple_update(couple=drive.couples.get(number=number), actor=DESK, paid=True)
    line = Line.objects.filter(drive=drive, couple__number=number).latest("id")
    return line.amount


def test_per_person_each_member_pays_the_members_price(ours: ClubUsers) -> None:
    drive = make_drive(ours.club, 3, entry_fee=Decimal("5.00"))
    services.setup_update(drive=drive, actor=DESK, member_fee="3.00")
    assert Couple.objects.get(drive=drive, number=1).member1 is not None
    members(drive, "A1", "B1", "A2")
    assert [pay(drive, n) for n in (1, 2, 3)] == [Decimal("6.00"), Decimal("8.00"), Decimal("10")]
    data = selectors.accounts(drive)
    assert data["totals_by_kind"] == {"entry": Decimal("24.00")}
    assert data["expected_cash"] == Decimal("24.00")


def test_per_couple_a_couple_pays_half_of_each_price(ours: ClubUsers) -> None:
    drive = make_drive(ours.club, 3, entry_fee=Decimal("10.00"), entry_fee_per="couple")
    services.setup_update(drive=drive, actor=DESK, member_fee="8.00")
    members(drive, "A1", "B1", "A2")
    assert [pay(drive, n) for n in (1, 2, 3)] == [Decimal("8.00"), Decimal("9.00"), Decimal("10")]
    # without a members' price, everyone pays the entry fee
    services.setup_update(drive=drive, actor=DESK, member_fee="")
    assert MoneySetup.objects.get(drive=drive).member_fee is None
    couple_update(couple=drive.couples.get(number=1), actor=DESK, paid=False)
    assert pay(drive, 1) == Decimal("10.00")


def test_the_api_sets_the_members_price(api: Api, ours: ClubUsers, drive: Drive) -> None:
    url = f"drives/{drive.slug}/accounts/setup"
    answer = api.patch(url, {"member_fee": "15.00"}, token=ours.org_token)
    assert answer.status_code == 200 and answer.json()["member_fee"] == "15.00"
    bad = api.patch(url, {"member_fee": "-1"}, token=ours.org_token)
    assert bad.status_code == 422
    assert api.patch(url, {"member_fee": ""}, token=ours.org_token).json()["member_fee"] is None
    scorer = api.patch(url, {"member_fee": "1.00"}, token=ours.scorer_token)
    assert scorer.status_code == 403


def test_the_player_page_the_door_and_the_money_page_say_it(ours: ClubUsers) -> None:
    drive = make_drive(ours.club, 2, entry_fee=Decimal("5.00"))
    desk = Client()
    desk.force_login(ours.organizer)
    player = Player.objects.get(club=ours.club, name="A1")
    edit = reverse("club:player_edit", kwargs={"club": ours.club.slug, "player": player.pk})
    answer = desk.post(edit, {"name": "A1", "phone": "", "email": "", "member": "on"})
    assert answer.status_code == 302
    player.refresh_from_db()
    assert player.member
    door = desk.get(reverse("drives:couples", kwargs={"slug": drive.slug})).content.decode()
    assert 'data-testid="members-1"' in door and "club members: 1" in door
    assert 'data-testid="members-2"' not in door
    money = reverse("money:page", kwargs={"slug": drive.slug})
    desk.post(money, {"action": "setup", "member_fee": "4.00"})
    page = desk.get(money).content.decode()
    assert "Members of the club: 4.00 CAD a person." in page
    desk.post(
        reverse("drives:couples_toggle", kwargs={"slug": drive.slug, "number": 1}),
        {"set": "paid:1"},
    )
    assert selectors.accounts(drive)["totals_by_kind"]["entry"] == Decimal("9.00")


def test_the_export_carries_the_members_price(ours: ClubUsers) -> None:
    drive = make_drive(ours.club, 2, entry_fee=Decimal("5.00"))
    services.setup_update(drive=drive, actor=DESK, member_fee="3.50")
    record = drive_export(drive)
    assert record["money"]["setup"]["member_fee"] == "3.50"
    drive_delete(drive=drive)
    restored = drive_restore(data=record).drive
    assert MoneySetup.objects.get(drive=restored).member_fee == Decimal("3.50")


def test_a_couple_registered_paid_pays_its_members_price(ours: ClubUsers) -> None:
    from drives.services import couples_register

    make_drive(ours.club, 1)  # A1 played an earlier night
    drive = make_drive(ours.club, 0, entry_fee=Decimal("5.00"))
    members(drive, "A1")
    services.setup_update(drive=drive, actor=DESK, member_fee="2.00")
    couples_register(drive=drive, couples=[{"players": ["A1", "Zed"], "paid": True}])
    line = Line.objects.get(drive=drive, couple__number=1)
    assert line.amount == Decimal("7.00")


def test_the_treasurers_sheet_says_the_members_price(
    ours: ClubUsers, treasurers_sheet: Sheet
) -> None:
    drive = make_drive(ours.club, 2, entry_fee=Decimal("5.00"))
    services.setup_update(drive=drive, actor=DESK, member_fee="3.00")
    desk = Client()
    desk.force_login(ours.organizer)
    text = treasurers_sheet(desk, drive, HTTP_ACCEPT_LANGUAGE="en")
    assert "Entry fee: 5.00 CAD a person (10.00 CAD a couple) · members: 3.00 CAD" in text
