"""The club's pots carried from night to night (issue 36 part 4): a "catch the ace" pot
carried over three drives grows by each night's money, its opened cards stay out, and the
ace of spades pays it whole; the jackpot pays a couple with its wins only; each night's
ledger has what went in and what was paid; a pot carried into another club's drive is
refused, nothing written, the refusal audited; the history reads the same through the API."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import pytest

from drives.models import AuditEntry, Drive
from money import selectors
from money.models import Line, Pot, PotEntry
from tests.api.helpers import Api, ClubUsers, make_club, make_drive

pytestmark = pytest.mark.django_db


def night(ours: ClubUsers, day: int) -> Drive:
    drive = make_drive(ours.club, 4)
    drive.date = date(2026, 11, 1) + timedelta(days=day)
    drive.save(update_fields=["date"])
    return drive


def open_pot(api: Api, ours: ClubUsers, **body: Any) -> dict[str, Any]:
    answer = api.post(f"clubs/{ours.club.slug}/pots", body, token=ours.org_token)
    assert answer.status_code == 201, answer.json()
    data: dict[str, Any] = answer.json()
    return data


def post(api: Api, drive: Drive, pot: int, tail: str, body: Any, token: str) -> Any:
    return api.post(f"drives/{drive.slug}/pots/{pot}/{tail}", body, token=token)


def test_catch_the_ace_carried_over_three_drives_and_won(api: Api, ours: ClubUsers) -> None:
    tok = ours.org_token
    pot = open_pot(api, ours, name="Catch the ace", kind="ace", opening="100.00")
    assert pot["holds"] == "100.00" and pot["sealed"] == 52
    nights = [night(ours, day) for day in (0, 7, 14)]
    for i, drive in enumerate(nights[:2]):
        assert post(api, drive, pot["id"], "add", {"amount": "40.00"}, tok).status_code == 201
        drawn = post(
            api,
            drive,
            pot["id"],
            "draw",
            {"ticket": 17 + i, "card": 5 + i, "found": "7 of hearts"},
            tok,
        )
        assert drawn.status_code == 201, drawn.json()
        assert drawn.json()["state"] == "open"
    # card 5 was opened on the first night: it stays out
    again = post(api, nights[2], pot["id"], "draw", {"ticket": 3, "card": 5}, tok)
    assert again.status_code == 409 and again.json()["code"] == "card_opened"
    assert post(api, nights[2], pot["id"], "add", {"amount": "25.50"}, tok).status_code == 201
    won = post(
        api,
        nights[2],
        pot["id"],
        "draw",
        {
            "ticket": 88,
            "card": 30,
            "found": "ace of spades",
            "ace": True,
            "winner": "Marie LeBlanc",
        },
        tok,
    )
    assert won.status_code == 201, won.json()
    assert won.json()["amount"] == "205.50" and won.json()["state"] == "won"
    assert won.json()["holds"] == "0.00"

    # Each night's ledger: what went in, what was paid.
    last = selectors.accounts(nights[2])
    assert last["totals_by_kind"] == {"pot_in": Decimal("25.50"), "pot_paid": Decimal("205.50")}
    assert last["expected_cash"] == Decimal("25.50") - Decimal("205.50")
    assert selectors.accounts(nights[0])["totals_by_kind"] == {"pot_in": Decimal("40.00")}

    # The history across the drives, through the API.
    history = api.get(f"clubs/{ours.club.slug}/pots", token=ours.scorer_token).json()["pots"]
    (row,) = history
    assert row["state"] == "won" and row["opened"] == [5, 6, 30]
    carried = [h["carried_in"] for h in row["history"]]
    assert carried == ["100.00", "140.00", "180.00"]
    assert [h["added"] for h in row["history"]] == ["40.00", "40.00", "25.50"]
    assert row["history"][2]["winner"] == "Marie LeBlanc"
    assert row["history"][2]["paid"] == "205.50"
    assert row["history"][0]["draws"] == [
        {"ticket": 17, "card": 5, "found": "7 of hearts", "ace": False}
    ]

    # Won: no more money in; the club opens a new pot.
    more = post(api, nights[2], pot["id"], "add", {"amount": "1.00"}, tok)
    assert more.status_code == 409 and more.json()["code"] == "pot_won"


def test_a_pot_carried_into_another_clubs_drive_is_refused_and_audited(
    api: Api, ours: ClubUsers
) -> None:
    theirs = make_club("Legion Branch 12", "theirs")
    pot = open_pot(api, ours, name="Cookie jar", kind="jar", opening="60.00")
    drive = make_drive(theirs.club, 4)
    before = (Line.objects.count(), PotEntry.objects.count())
    for tail, body in (("carry", None), ("add", {"amount": "5.00"}), ("pay", {"winner": "X"})):
        answer = post(api, drive, pot["id"], tail, body or {}, theirs.org_token)
        assert answer.status_code == 422, answer.json()
        assert answer.json()["code"] == "pot_of_another_club"
    assert (Line.objects.count(), PotEntry.objects.count()) == before
    assert Pot.objects.get(pk=pot["id"]).state == "open"
    refused = AuditEntry.objects.filter(drive=drive, action="money.pot.refused")
    assert refused.count() == 3
    # nor does the other club read our pots
    assert api.get(f"clubs/{ours.club.slug}/pots", token=theirs.org_token).status_code == 404


def test_the_jackpot_is_paid_to_a_couple_with_its_wins_only(api: Api, ours: ClubUsers) -> None:
    pot = open_pot(api, ours, name="Jackpot", kind="jackpot", opening="500.00", wins=25)
    assert pot["wins"] == 25
    drive = night(ours, 0)
    short = post(api, drive, pot["id"], "pay", {"couple": 1}, ours.org_token)
    assert short.status_code == 409 and short.json()["code"] == "not_enough_wins"
    draw = post(api, drive, pot["id"], "draw", {"ticket": 1, "card": 1}, ours.org_token)
    assert draw.status_code == 409 and draw.json()["code"] == "not_catch_the_ace"
    assert not Line.objects.filter(drive=drive).exists()
    low = open_pot(api, ours, name="Small jackpot", kind="jackpot", wins=1, opening="50.00")
    Pot.objects.filter(pk=low["id"]).update(wins=0)  # nobody played: 0 wins is enough
    paid = post(api, drive, low["id"], "pay", {"couple": 2}, ours.org_token)
    assert paid.status_code == 201, paid.json()
    assert paid.json()["winner"] == "A2 & B2" and paid.json()["amount"] == "50.00"


def test_a_payout_reversed_opens_the_pot_again(api: Api, ours: ClubUsers) -> None:
    pot = open_pot(api, ours, name="Cookie jar", kind="jar", opening="30.00")
    drive = night(ours, 0)
    paid = post(api, drive, pot["id"], "pay", {"winner": "Anne"}, ours.org_token).json()
    back = api.post(
        f"drives/{drive.slug}/accounts/lines/{paid['line']}/reverse", {}, token=ours.org_token
    )
    assert back.status_code == 201, back.json()
    row = selectors.pot_view(Pot.objects.get(pk=pot["id"]))
    assert row["state"] == "open" and row["holds"] == Decimal("30.00")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"name": "", "kind": "jar"}, "bad_name"),
        ({"name": "J", "kind": "jackpot", "wins": 0}, "bad_wins"),
        ({"name": "J", "kind": "lotto"}, "bad_field"),
    ],
)
def test_bad_pots_are_refused(api: Api, ours: ClubUsers, body: Any, code: str) -> None:
    answer = api.post(f"clubs/{ours.club.slug}/pots", body, token=ours.org_token)
    assert answer.status_code == 422 and answer.json()["code"] == code, answer.json()
    assert not Pot.objects.exists()


def test_money_put_in_and_reversed_leaves_the_pot_and_its_history(
    api: Api, ours: ClubUsers
) -> None:
    pot = open_pot(api, ours, name="Cookie jar", kind="jar", opening="30.00")
    drive = night(ours, 0)
    added = post(api, drive, pot["id"], "add", {"amount": "12.00"}, ours.org_token).json()
    assert added["holds"] == "42.00"
    url = f"drives/{drive.slug}/accounts/lines/{added['line']}/reverse"
    assert api.post(url, {}, token=ours.org_token).status_code == 201
    row = selectors.pot_view(Pot.objects.get(pk=pot["id"]))
    assert row["holds"] == Decimal("30.00")
    assert row["history"][0]["added"] == Decimal("0.00")
    # once the pot is won, the money put in it is no longer taken back
    again = post(api, drive, pot["id"], "add", {"amount": "8.00"}, ours.org_token).json()
    post(api, drive, pot["id"], "pay", {"winner": "Anne"}, ours.org_token)
    url = f"drives/{drive.slug}/accounts/lines/{again['line']}/reverse"
    refused = api.post(url, {}, token=ours.org_token)
    assert refused.status_code == 409 and refused.json()["code"] == "pot_won"
