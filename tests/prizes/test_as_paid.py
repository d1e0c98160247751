"""Prizes as the hall pays them: a share of the entry money or of the pot (rounded down to the
hall's unit), one prize per couple, and the half-time prize, as the organizer, the API, the
projector and the treasurer see them."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.urls import reverse

from drives.models import AuditEntry, Couple, Drive
from drives.services import couple_update
from money.printing import accounts_document
from money.selectors import accounts
from money.services import line_record
from scoring.models import Award, PrizePlace, PrizeSetup, Tie
from scoring.prizes.selectors import prize_table, setup_view
from scoring.prizes.services import prize_setup_update, prizes_open_ties, tie_choose, tie_decide
from tests.api.helpers import Api, ClubUsers
from tests.pages.organizer_helpers import logged_in
from tests.pages.test_prizes_pages import setup_post
from tests.prizes.helpers import DESK, night

pytestmark = pytest.mark.django_db


def paid(drive: Drive, *numbers: int) -> None:
    """The couples pay at the door: the entry fee is a line of the ledger."""
    for number in numbers:
        couple_update(couple=Couple.objects.get(drive=drive, number=number), actor=DESK, paid=True)


def _awards(drive: Drive, kind: str) -> list[tuple[int, Any]]:
    return [
        (a.couple.number, a.amount)
        for a in Award.objects.filter(drive=drive, kind=kind).order_by("place", "couple__number")
    ]


# --- shares of the takings --------------------------------------------------------------------


def test_thirty_percent_of_the_entry_money_rounded_to_the_dollar(api: Api, ours: ClubUsers) -> None:
    # 7 couples at $7.50 a couple: $52.50 of entry money; 30 % is $15.75, paid as $15.
    drive = night([5, 4, 3, 2, 1, 1, 0], club=ours.club, entry_fee="7.50", entry_fee_per="couple")
    paid(drive, *range(1, 8))
    setup = {
        "prize_places": 2,
        "prizes": [{"share_of": "entry", "percent": 30}, {"amount": "10.00"}],
        "share_rounding": "1.00",
    }
    answer = api.patch(f"drives/{drive.slug}/prizes/setup", setup, token=ours.org_token)
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["prizes"][0] == {
        "amount": "15.00",
        "description": "",
        "share_of": "entry",
        "percent": 30,
    }
    assert body["takings"]["entry"] == "52.50"

    table = api.get(f"drives/{drive.slug}/prizes", token=ours.org_token).json()
    assert table["places"][0]["prize"]["amount"] == "15.00"
    assert table["places"][0]["awards"][0] == {
        "couple": 1,
        "amount": "15.00",
        "description": "",
        "how": "direct",
        "tie": None,
    }
    # A couple that pays late adds to the share until the ties are opened…
    couple_update(couple=Couple.objects.get(drive=drive, number=7), actor=DESK, paid=False)
    paid(drive, 7)
    line_record(drive=drive, actor=DESK, kind="entry", amount="7.50", note="a late couple")
    assert prize_table(drive)["places"][0]["prize"]["amount"] == "18.00"  # 30 % of 60.00
    # …which fix it: the award and the treasurer's sheet pay what it came to.
    prizes_open_ties(drive=drive, actor=DESK)
    line_record(drive=drive, actor=DESK, kind="entry", amount="7.50", note="after the prizes")
    assert _awards(drive, Award.Kind.PLACE) == [(1, Decimal("18.00")), (2, Decimal("10.00"))]
    assert prize_table(drive)["places"][0]["prize"]["amount"] == "18.00"
    opened = AuditEntry.objects.get(drive=drive, action="prizes.open")
    assert "place 1: 30% of entry = 18.00" in opened.new
    paid_out = [line for line in accounts(drive)["lines"] if line["kind"] == "prize_paid"]
    assert sorted(line["amount"] for line in paid_out) == [Decimal("10.00"), Decimal("18.00")]
    sheet = accounts_document(drive)["accounts"]["notes"]
    cur = drive.currency
    assert f"Place 1 (30% of the entry money) to couple 1: 18.00 {cur}." in sheet
    assert f"Place 2 to couple 2: 10.00 {cur}." in sheet

    # The organizer's page, the projector and the treasurer's sheet say the amount.
    client = logged_in(ours.organizer)
    page = client.get(reverse("night:prizes", kwargs={"slug": drive.slug})).content.decode()
    assert "30% of the entry money" in page and "18.00" in page
    projector = client.get(reverse("night:projector", args=[drive.slug]) + "?show=prizes")
    assert "18.00" in projector.content.decode()


def test_a_share_of_the_pot_to_the_cent_or_to_five_dollars() -> None:
    drive = night([3, 2, 1], entry_fee="5.00", entry_fee_per="couple")
    paid(drive, 1, 2, 3)
    line_record(drive=drive, actor=DESK, kind="donation", amount="22.00", note="the parish")
    # Entry 15.00 + donation 22.00 = a pot of 37.00; 50 % is 18.50.
    prize_setup_update(
        drive=drive,
        actor=DESK,
        prizes=[{"share_of": "pot", "percent": 50}],
        share_rounding="0.01",
    )
    assert setup_view(drive)["prizes"][0]["amount"] == "18.50"
    prize_setup_update(drive=drive, actor=DESK, share_rounding="5.00")
    assert setup_view(drive)["prizes"][0]["amount"] == "15.00"


def test_shares_past_100_percent_are_refused_with_nothing_written(
    api: Api, ours: ClubUsers
) -> None:
    drive = night([3, 2, 1], club=ours.club)
    prize_setup_update(drive=drive, actor=DESK, prizes=[{"amount": "20.00"}])
    before = AuditEntry.objects.filter(drive=drive).count()
    setup = {
        "prizes": [{"share_of": "entry", "percent": 60}, {"share_of": "pot", "percent": 30}],
        "half_time": {"after_game": 2, "share_of": "entry", "percent": 20},
        "one_prize_per_couple": True,
    }
    answer = api.patch(f"drives/{drive.slug}/prizes/setup", setup, token=ours.org_token)
    assert answer.status_code == 422
    assert answer.json()["code"] == "shares_over_100"
    assert "more than 100 %" in answer.json()["message"]
    stored = PrizeSetup.objects.get(drive=drive)
    assert stored.half_time_after is None and not stored.one_prize_per_couple
    assert [(p.amount, p.share_of) for p in PrizePlace.objects.filter(drive=drive)] == [
        (Decimal("20.00"), "")
    ]
    assert AuditEntry.objects.filter(drive=drive).count() == before
    # 60 + 30 alone is fine, audited like any change of the set-up.
    del setup["half_time"]
    assert (
        api.patch(f"drives/{drive.slug}/prizes/setup", setup, token=ours.org_token).status_code
        == 200
    )
    entry = AuditEntry.objects.filter(drive=drive, action="prizes.setup").last()
    assert entry is not None and entry.new["prizes"]["1"] == "60% of entry"


def test_the_page_sets_a_share_and_refuses_more_than_100_percent(ours: ClubUsers) -> None:
    drive = night([3, 2, 1], club=ours.club, entry_fee="10.00", entry_fee_per="couple")
    paid(drive, 1, 2, 3)
    client = logged_in(ours.organizer)
    url = reverse("night:prizes_setup", kwargs={"slug": drive.slug})
    data = setup_post(
        **{
            "setup-place_1": "70% entry",
            "setup-place_2": "40% pot",
            "setup-share_rounding": "1.00",
        }
    )
    response = client.post(url, data)
    assert response.status_code == 422
    assert "more than 100 %" in " ".join(response.context["setup_form"].non_field_errors())
    assert not PrizePlace.objects.filter(drive=drive).exists()

    data |= {"setup-place_2": "30% pot", "setup-one_prize_per_couple": "on"}
    data |= {"setup-half_time_after": "2", "setup-half_time_prize": "a pie"}
    response = client.post(url, data)
    assert response.status_code == 302
    view = setup_view(drive)
    assert view["prizes"][0] == {
        "amount": "21.00",
        "description": "",
        "share_of": "entry",
        "percent": 70,
    }
    assert view["prizes"][1]["share_of"] == "pot" and view["one_prize_per_couple"] is True
    assert view["half_time"] == {"after_game": 2, "amount": None, "description": "a pie"}
    page = client.get(reverse("night:prizes", kwargs={"slug": drive.slug})).content.decode()
    assert 'value="70% entry"' in page and 'value="30% pot"' in page


# --- one prize per couple and the half-time prize ----------------------------------------------


def _half_time_night(one_each: bool) -> Drive:
    # After game 2: couple 1 and couple 3 have 2 wins, couple 1 wins outright by the end.
    wins = {1: {1, 2, 3, 4}, 2: {3, 4}, 3: {1, 2}, 4: {3}, 5: set()}
    return night(
        wins,
        games=4,
        prizes={
            "prize_places": 1,
            "prizes": [{"amount": "50.00"}],
            "half_time": {"after_game": 2, "amount": "10.00"},
            "booby_prize": {"amount": "2.00"},
            "one_prize_per_couple": one_each,
        },
    )


def test_one_prize_per_couple_the_next_couple_moves_up(api: Api, ours: ClubUsers) -> None:
    drive = night(
        {1: {1, 2, 3, 4}, 2: {1, 3, 4}, 3: {2}, 4: set(), 5: {4}},
        games=4,
        club=ours.club,
    )
    setup = {
        "prize_places": 1,
        "prizes": [{"amount": "50.00"}],
        "half_time": {"after_game": 2, "amount": "10.00"},
        "one_prize_per_couple": True,
    }
    assert (
        api.patch(f"drives/{drive.slug}/prizes/setup", setup, token=ours.org_token).status_code
        == 200
    )
    table = api.get(f"drives/{drive.slug}/prizes", token=ours.org_token).json()
    # Couple 1 was best at half time (2 wins) and first at the end: it takes first place, and
    # couple 2 (1 win at half time, then alone) moves up to the half-time prize... with couple
    # 3, who also had one win: a tie at half time, settled like any other.
    assert table["places"][0]["couples"] == [1]
    assert table["half_time"]["couples"] == [2, 3] and table["half_time"]["status"] == "tie"
    assert table["half_time"]["wins"] == 1
    ties = prizes_open_ties(drive=drive, actor=DESK)
    half = next(t for t in ties if t.kind == Tie.Kind.HALF_TIME)
    assert half.key == "half-time" and half.couples == [2, 3]
    tie_choose(tie=half, couple=2, choice="split", actor=DESK)
    tie_choose(tie=half, couple=3, choice="split", actor=DESK)
    tie_decide(tie=half, actor=DESK)
    assert _awards(drive, Award.Kind.HALF_TIME) == [(2, Decimal("5.00")), (3, Decimal("5.00"))]
    assert _awards(drive, Award.Kind.PLACE) == [(1, Decimal("50.00"))]


def test_without_the_setting_a_couple_may_take_two_prizes() -> None:
    drive = _half_time_night(one_each=False)
    table = prize_table(drive)
    # Couple 1: first, and best at half time with couple 3 (2 wins each): a tie.
    assert table["half_time"]["couples"] == [1, 3]
    drive = _half_time_night(one_each=True)
    table = prize_table(drive)
    assert table["places"][0]["couples"] == [1]
    assert table["half_time"]["couples"] == [3] and table["half_time"]["status"] == "awarded"
    assert table["half_time"]["awards"][0]["amount"] == "10.00"
    assert table["booby"]["couples"] == [5]
    prizes_open_ties(drive=drive, actor=DESK)
    assert _awards(drive, Award.Kind.HALF_TIME) == [(3, Decimal("10.00"))]


def test_the_booby_couple_best_at_half_time_takes_the_half_time_prize() -> None:
    # Couple 4 won games 1 and 2, then nothing: best at half time, fewest wins at the end.
    wins = {1: {3, 4, 5, 6}, 2: {3, 4, 5}, 3: {1, 3, 4}, 4: {1, 2}, 5: {4, 5, 6}}
    prizes = {
        "prize_places": 1,
        "prizes": [{"amount": "50.00"}],
        "half_time": {"after_game": 2, "amount": "10.00"},
    }
    drive = night(wins, games=6, prizes=prizes | {"one_prize_per_couple": True})
    table = prize_table(drive)
    assert table["half_time"]["couples"] == [4]
    # It takes the half-time prize; the booby prize goes to the next fewest (3 wins each).
    assert table["booby"]["couples"] == [2, 3, 5] and table["booby"]["status"] == "tie"
    drive = night(wins, games=6, prizes=prizes)
    assert prize_table(drive)["booby"]["couples"] == [4]


def test_the_half_time_prize_waits_for_its_game() -> None:
    drive = _half_time_night(one_each=False)
    Drive.objects.filter(pk=drive.pk).update(current_game=2)
    drive.refresh_from_db()
    # Game 2 in play with every result in: played out.
    assert prize_table(drive)["half_time"]["played_out"] is True
    Drive.objects.filter(pk=drive.pk).update(current_game=1)
    drive.refresh_from_db()
    table = prize_table(drive)
    assert table["half_time"]["status"] == "pending" and table["half_time"]["couples"] == []


def test_a_half_time_after_the_last_game_is_refused(api: Api, ours: ClubUsers) -> None:
    drive = night([3, 2, 1], club=ours.club)
    answer = api.patch(
        f"drives/{drive.slug}/prizes/setup",
        {"half_time": {"after_game": 4, "amount": "10.00"}},
        token=ours.org_token,
    )
    assert answer.status_code == 422 and answer.json()["field"] == "half_time"
    assert not PrizeSetup.objects.filter(drive=drive, half_time_after__isnull=False).exists()


def test_the_couples_page_and_the_printed_results_name_the_half_time_prize() -> None:
    from scoring.pages.selectors_live import couple_night
    from scoring.printing.data import build
    from scoring.printing.rendering import render_pdf
    from tests.pdf.helpers import pdf_text

    drive = _half_time_night(one_each=True)
    prizes_open_ties(drive=drive, actor=DESK)
    mine = couple_night(Couple.objects.get(drive=drive, number=3))["prizes"]
    assert [(p["kind"], p["amount"]) for p in mine] == [("half-time", "10.00")]
    text = pdf_text(render_pdf("results", build(drive, "results"), paper="letter"))
    assert "Half-time prize" in text and "10.00" in text
