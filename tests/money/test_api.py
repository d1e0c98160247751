"""The night's money through the API: the door's paid tick becomes a line, 50/50 tickets are
sold in ranges and drawn, the payout is a line, the cash box is counted against what it
should hold; bad input is a 4xx naming the problem and writes nothing."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from drives.models import AuditEntry, Drive, DriveVersion
from money import selectors
from money.models import CashCount, Draw, Line, Ticket
from money.services import pick
from scoring.models import Award, PrizeSetup
from tests.api.helpers import Api, ClubUsers

pytestmark = pytest.mark.django_db


def url(drive: Drive, tail: str) -> str:
    return f"drives/{drive.slug}/{tail}"


def accounts(api: Api, drive: Drive, token: str) -> dict[str, Any]:
    answer = api.get(url(drive, "accounts"), token=token)
    assert answer.status_code == 200, answer.content
    return answer.json()


def test_the_doors_paid_tick_records_the_entry_fee_and_undoing_it_reverses(
    api: Api, ours: ClubUsers, drive: Drive
) -> None:
    tok = ours.org_token
    version = DriveVersion.objects.get(drive=drive).version
    assert api.patch(url(drive, "couples/1"), {"paid": True}, token=tok).status_code == 200
    assert DriveVersion.objects.get(drive=drive).version > version
    answer = api.patch(url(drive, "couples/2"), {"paid": True, "paid_way": "card"}, token=tok)
    assert answer.status_code == 200
    data = accounts(api, drive, tok)
    assert [(ln["kind"], ln["amount"], ln["way"], ln["couple"]) for ln in data["lines"]] == [
        ("entry", "20.00", "cash", 1),
        ("entry", "20.00", "card", 2),
    ]
    assert data["totals_by_way"] == {"cash": "20.00", "card": "20.00"}
    assert data["expected_cash"] == "20.00"
    # Unticked by mistake: a reversing line, the first stays as it was.
    assert api.patch(url(drive, "couples/1"), {"paid": False}, token=tok).status_code == 200
    data = accounts(api, drive, tok)
    assert data["totals_by_kind"]["entry"] == "20.00"
    assert [ln["amount"] for ln in data["lines"]] == ["20.00", "20.00", "-20.00"]
    assert data["lines"][2]["reverses"] == data["lines"][0]["id"]
    # A way nobody knows: the tick is refused with it, nothing written.
    bad = api.patch(url(drive, "couples/3"), {"paid": True, "paid_way": "bitcoin"}, token=tok)
    assert bad.status_code == 422 and bad.json()["code"] == "bad_way"
    assert not drive.couples.get(number=3).paid
    assert Line.objects.filter(drive=drive).count() == 3


def test_jar_buy_ins_and_prizes_are_read_not_entered(
    api: Api, ours: ClubUsers, drive: Drive
) -> None:
    PrizeSetup.objects.create(drive=drive, buy_in=Decimal("2.00"))
    drive.couples.filter(number__in=[1, 2, 3]).update(cookie_jar=True)
    couple = drive.couples.get(number=4)
    Award.objects.create(drive=drive, kind="place", place=1, couple=couple, amount=50, how="direct")
    Award.objects.create(drive=drive, kind="cookie-jar", couple=couple, amount=6, how="direct")
    data = accounts(api, drive, ours.org_token)
    assert data["totals_by_kind"] == {
        "jar_buy_in": "6.00",
        "prize_paid": "50.00",
        "jar_paid": "6.00",
    }
    assert {ln["source"] for ln in data["lines"]} == {"door", "prizes"}
    assert data["net"] == "-50.00"
    assert not Line.objects.exists()


def test_fifty_fifty_strips_draw_claim_and_the_box(api: Api, ours: ClubUsers, drive: Drive) -> None:
    tok = ours.org_token
    strip = api.post(url(drive, "fifty-fifty/tickets"), {"count": 10}, token=tok)
    assert strip.status_code == 201, strip.content
    assert (strip.json()["first"], strip.json()["last"]) == (1, 10)
    assert strip.json()["amount"] == "10.00"  # the strip's price, not ten singles
    one = api.post(url(drive, "fifty-fifty/tickets"), {"count": 1, "way": "card"}, token=tok)
    assert (one.json()["first"], one.json()["amount"]) == (11, "2.00")
    torn = api.post(url(drive, "fifty-fifty/tickets"), {"count": 3, "first": 100}, token=tok)
    assert (torn.json()["first"], torn.json()["last"], torn.json()["amount"]) == (100, 102, "6.00")
    overlap = api.post(url(drive, "fifty-fifty/tickets"), {"count": 5, "first": 8}, token=tok)
    assert overlap.status_code == 409 and overlap.json()["code"] == "tickets_sold"
    assert "Ticket 8" in overlap.json()["message"]
    assert Ticket.objects.count() == 14
    drawn = api.post(url(drive, "fifty-fifty/draw"), token=tok)
    assert drawn.status_code == 201
    draw = drawn.json()
    sold = sorted(Ticket.objects.values_list("number", flat=True))
    assert draw["ticket"] in sold and draw["ticket"] == pick(sold, draw["seed"])
    assert draw["prize"] == "9.00"  # half of 18.00
    again = api.post(url(drive, "fifty-fifty/draw"), token=tok)
    assert again.status_code == 409 and again.json()["code"] == "already_drawn"
    late = api.post(url(drive, "fifty-fifty/tickets"), {"count": 1}, token=tok)
    assert late.status_code == 409 and late.json()["code"] == "drawn"
    # Nobody holds it: a redraw among the others.
    assert api.post(url(drive, "fifty-fifty/unclaimed"), token=tok).status_code == 200
    redraw = api.post(url(drive, "fifty-fifty/draw"), token=tok).json()
    assert redraw["round"] == 2 and redraw["ticket"] != draw["ticket"]
    assert redraw["ticket"] == pick([t for t in sold if t != draw["ticket"]], redraw["seed"])
    claimed = api.post(url(drive, "fifty-fifty/claim"), {"way": "cash"}, token=tok)
    assert claimed.status_code == 200 and claimed.json()["state"] == "claimed"
    data = accounts(api, drive, tok)
    assert data["totals_by_kind"] == {"fifty_fifty_tickets": "18.00", "fifty_fifty_paid": "9.00"}
    assert data["fifty_fifty"]["prize"] == "9.00" and data["fifty_fifty"]["sold"] == 14
    assert data["expected_cash"] == "7.00"  # 16.00 cash in, 9.00 out
    # Float, then the count by denomination: 10 + 2 × 2.00 + 4 × 0.25 short of 20.00 expected.
    assert (
        api.patch(url(drive, "accounts/setup"), {"opening_float": "13.00"}, token=tok).status_code
        == 200
    )
    counted = api.post(
        url(drive, "accounts/count"), {"denominations": {"10": 1, "2": 4, "0.25": 4}}, token=tok
    )
    assert counted.status_code == 201, counted.content
    assert counted.json() | {"counted_denominations": None} == {
        "expected_cash": "20.00",
        "counted_cash": "19.00",
        "difference": "-1.00",
        "counted_denominations": None,
    }
    actions = set(AuditEntry.objects.filter(drive=drive).values_list("action", flat=True))
    assert {"money.tickets", "money.draw", "money.claim", "money.count"} <= actions


def test_a_raffle_item_has_its_own_numbers_and_draw(
    api: Api, ours: ClubUsers, drive: Drive
) -> None:
    tok = ours.org_token
    ham = api.post(url(drive, "raffles"), {"name": "A ham"}, token=tok).json()
    quilt = api.post(url(drive, "raffles"), {"name": "A quilt"}, token=tok).json()
    a = api.post(url(drive, f"raffles/{ham['id']}/tickets"), {"count": 10}, token=tok).json()
    b = api.post(url(drive, f"raffles/{quilt['id']}/tickets"), {"count": 1}, token=tok).json()
    assert (a["first"], b["first"]) == (1, 1)
    draw = api.post(url(drive, f"raffles/{ham['id']}/draw"), token=tok).json()
    assert 1 <= draw["ticket"] <= 10 and draw["prize"] is None
    assert api.post(url(drive, f"raffles/{ham['id']}/claim"), token=tok).status_code == 200
    data = accounts(api, drive, tok)
    assert data["totals_by_kind"] == {"raffle_tickets": "12.00"}
    assert [r["name"] for r in data["raffles"]] == ["A ham", "A quilt"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"kind": "donation", "amount": "-5"}, "negative_amount"),
        ({"kind": "donation", "amount": "5.001"}, "sub_cent_amount"),
        ({"kind": "donation", "amount": "five"}, "bad_amount"),
        ({"kind": "donation", "amount": "0"}, "bad_amount"),
        ({"kind": "donation", "amount": "5", "currency": "USD"}, "wrong_currency"),
        ({"kind": "fifty_fifty_paid", "amount": "5"}, "kind_not_by_hand"),
        ({"kind": "donation", "amount": "5", "way": "cheque"}, "bad_way"),
        ({"kind": "donation", "amount": "5", "couple": 99}, "no_such_couple"),
        ({"kind": "donation", "amount": "5", "tip": 1}, "unknown_field"),
    ],
)
def test_bad_lines_are_refused_and_nothing_is_written(
    api: Api, ours: ClubUsers, drive: Drive, body: dict[str, Any], code: str
) -> None:
    answer = api.post(url(drive, "accounts/lines"), body, token=ours.org_token)
    assert 400 <= answer.status_code < 500 and answer.json()["code"] == code, answer.content
    assert not Line.objects.exists()


def test_a_good_line_a_correction_and_bad_draws_and_counts(
    api: Api, ours: ClubUsers, drive: Drive
) -> None:
    tok = ours.org_token
    line = api.post(
        url(drive, "accounts/lines"),
        {"kind": "expense", "amount": "12.5", "note": "coffee", "currency": "cad"},
        token=tok,
    )
    assert line.status_code == 201 and line.json()["amount"] == "12.50"
    lid = line.json()["id"]
    assert api.post(url(drive, f"accounts/lines/{lid}/reverse"), {}, token=tok).status_code == 201
    twice = api.post(url(drive, f"accounts/lines/{lid}/reverse"), {}, token=tok)
    assert twice.status_code == 409 and twice.json()["code"] == "already_reversed"
    assert accounts(api, drive, tok)["net"] == "0.00"
    nothing = api.post(url(drive, "fifty-fifty/draw"), token=tok)
    assert nothing.status_code == 409 and nothing.json()["code"] == "no_tickets"
    assert not Draw.objects.exists()
    for body in ({"total": "12O.50"}, {"denominations": {"20": "three"}}, {}, {"total": "-1"}):
        answer = api.post(url(drive, "accounts/count"), body, token=tok)
        assert answer.status_code == 422, (body, answer.content)
    assert not CashCount.objects.exists()


def test_scorers_take_money_unless_the_organizer_says_no(
    api: Api, ours: ClubUsers, drive: Drive
) -> None:
    assert api.get(url(drive, "accounts"), token=ours.scorer_token).status_code == 200
    off = api.patch(url(drive, "accounts/setup"), {"scorers_allowed": False}, token=ours.org_token)
    assert off.status_code == 200
    assert api.get(url(drive, "accounts"), token=ours.scorer_token).status_code == 403


def test_the_net_raised_by_each_of_a_clubs_drives(api: Api, ours: ClubUsers, drive: Drive) -> None:
    from tests.api.helpers import make_drive

    other = make_drive(ours.club, 2, entry_fee=Decimal("10"))
    assert (
        api.patch(url(drive, "couples/1"), {"paid": True}, token=ours.org_token).status_code == 200
    )
    api.post(url(other, "accounts/lines"), {"kind": "expense", "amount": "3"}, token=ours.org_token)
    answer = api.get(f"clubs/{ours.club.slug}/money", token=ours.org_token)
    assert answer.status_code == 200
    nets = {row["slug"]: row["net"] for row in answer.json()["drives"]}
    assert nets == {drive.slug: "20.00", other.slug: "-3.00"}
    assert api.get(f"clubs/{ours.club.slug}/money", token=ours.scorer_token).status_code == 403


def test_the_accounts_cost_the_same_queries_however_many_lines(
    api: Api,
    ours: ClubUsers,
    drive: Drive,
    django_assert_num_queries: Any,
    django_assert_max_num_queries: Any,
) -> None:
    tok = ours.org_token

    def night(n: int) -> None:
        for i in range(n):
            api.post(url(drive, "fifty-fifty/tickets"), {"count": 2}, token=tok)
            api.post(url(drive, "accounts/lines"), {"kind": "donation", "amount": "1"}, token=tok)
            api.patch(url(drive, f"couples/{i + 1}"), {"paid": True}, token=tok)

    night(1)  # the queries: the lines and what they are read from, then four for each pool
    api.post(url(drive, "raffles"), {"name": "A ham"}, token=tok)
    with django_assert_max_num_queries(15) as few:
        selectors.accounts(drive)
    queries = len(few.captured_queries)  # read now: the next requests empty Django's log
    night(3)
    with django_assert_num_queries(queries):
        selectors.accounts(drive)


def test_deleting_a_couple_who_paid_refunds_their_entry_fee(
    api: Api, ours: ClubUsers, drive: Drive
) -> None:
    """A couple registered twice by mistake, both ticked paid (one by card): deleting the
    duplicate writes a refund line the way it came, in the same transaction; the box expects
    only what was kept. A couple who had not paid leaves the ledger alone."""
    tok = ours.org_token
    api.patch(url(drive, "couples/5"), {"paid": True}, token=tok)
    api.patch(url(drive, "couples/6"), {"paid": True, "paid_way": "card"}, token=tok)
    entry6 = Line.objects.get(couple__number=6)
    assert api.call("DELETE", url(drive, "couples/6"), token=tok).status_code == 204
    data = accounts(api, drive, tok)
    assert [(ln["amount"], ln["way"], ln["couple"], ln["reverses"]) for ln in data["lines"]] == [
        ("20.00", "cash", 5, None),
        ("20.00", "card", None, None),
        ("-20.00", "card", None, entry6.pk),
    ]
    assert data["lines"][2]["note"] == "couple 6 deleted"
    assert data["totals_by_kind"]["entry"] == "20.00" and data["totals_by_way"] == {
        "cash": "20.00",
        "card": "0.00",
    }
    assert AuditEntry.objects.filter(drive=drive, action="money.reverse").count() == 1
    assert api.call("DELETE", url(drive, "couples/4"), token=tok).status_code == 204
    assert Line.objects.filter(drive=drive).count() == 3


def test_a_refund_that_fails_keeps_the_couple(
    api: Api, ours: ClubUsers, drive: Drive, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The refund and the deletion are one transaction: if writing the refund fails, the
    couple is still there and nothing is written."""
    from money import services

    tok = ours.org_token
    api.patch(url(drive, "couples/6"), {"paid": True}, token=tok)

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the ledger is out of reach")

    monkeypatch.setattr(services, "_line_audit", broken)
    with pytest.raises(RuntimeError):
        api.call("DELETE", url(drive, "couples/6"), token=tok)
    assert drive.couples.filter(number=6).exists()
    assert Line.objects.filter(drive=drive).count() == 1


def test_a_raffle_item_with_its_own_ticket_price(api: Api, ours: ClubUsers, drive: Drive) -> None:
    """A quilt's tickets at 5.00 each (a strip too: 10 × 5.00), the ham's at the drive's
    prices; a bad price is refused naming the field, and no item is added."""
    tok = ours.org_token
    quilt = api.post(
        url(drive, "raffles"), {"name": "A quilt", "ticket_price": "5.00"}, token=tok
    ).json()
    ham = api.post(url(drive, "raffles"), {"name": "A ham"}, token=tok).json()
    api.post(url(drive, f"raffles/{quilt['id']}/tickets"), {"count": 1}, token=tok)
    api.post(url(drive, f"raffles/{quilt['id']}/tickets"), {"count": 10}, token=tok)
    api.post(url(drive, f"raffles/{ham['id']}/tickets"), {"count": 10}, token=tok)
    api.post(url(drive, f"raffles/{ham['id']}/tickets"), {"count": 1}, token=tok)
    data = accounts(api, drive, tok)
    raffles = {r["name"]: r for r in data["raffles"]}
    assert raffles["A quilt"]["takings"] == "55.00" and raffles["A ham"]["takings"] == "12.00"
    assert (raffles["A quilt"]["ticket_price"], raffles["A quilt"]["own_price"]) == ("5.00", True)
    assert (raffles["A ham"]["ticket_price"], raffles["A ham"]["own_price"]) == ("2.00", False)
    for price, code in (
        ("-5", "negative_amount"),
        ("2.505", "sub_cent_amount"),
        ("x", "bad_amount"),
    ):
        bad = api.post(url(drive, "raffles"), {"name": "A cake", "ticket_price": price}, token=tok)
        assert bad.status_code == 422 and bad.json()["field"] == "ticket_price", bad.json()
        assert bad.json()["code"] == code
    assert len(accounts(api, drive, tok)["raffles"]) == 2


def test_a_couple_registered_paid_by_card_through_the_api(
    api: Api, ours: ClubUsers, drive: Drive
) -> None:
    tok = ours.org_token
    card = {"players": ["Flora Gillis", "Dan Gillis"], "paid": True, "paid_way": "card"}
    made = api.post(url(drive, "couples"), card, token=tok)
    assert made.status_code == 201, made.json()
    cheque = {"players": ["Rita LeBlanc", "Gerard LeBlanc"], "paid": True, "paid_way": "cheque"}
    bad = api.post(url(drive, "couples"), cheque, token=tok)
    assert bad.status_code == 422 and bad.json()["code"] == "bad_way"
    assert list(Line.objects.values_list("way", "couple__number")) == [("card", 7)]
    assert drive.couples.count() == 7
