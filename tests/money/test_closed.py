"""A closed drive's money: the cash box's count and the late expenses are still recorded
(and audited), because the box is counted when the cards are put away; tickets are no longer
sold nor drawn (422 ``drive_closed``, nothing written). The close page says so."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from drives.models import AuditEntry, Drive
from drives.services import drive_close
from money.models import CashCount, Draw, Line, Pool, Ticket
from money.services import fifty_fifty_of, raffle_add, tickets_sell
from tests.api.helpers import DESK, Api, ClubUsers

pytestmark = pytest.mark.django_db


def url(drive: Drive, tail: str) -> str:
    return f"drives/{drive.slug}/{tail}"


@pytest.fixture
def closed(drive: Drive) -> Drive:
    """The drive after a night: a strip of 50/50 tickets and a raffle ticket sold, closed."""
    tickets_sell(drive=drive, actor=DESK, count=10)
    ham = raffle_add(drive=drive, actor=DESK, name="A ham")
    tickets_sell(drive=drive, actor=DESK, raffle=ham.pk, count=1)
    return drive_close(drive=drive, actor=DESK)


def test_after_the_close_the_count_and_expenses_are_recorded_and_audited(
    api: Api, ours: ClubUsers, closed: Drive
) -> None:
    tok = ours.org_token
    count = api.post(url(closed, "accounts/count"), {"total": "120.00"}, token=tok)
    assert count.status_code == 201, count.content
    rent = api.post(
        url(closed, "accounts/lines"),
        {"kind": "expense", "amount": "40", "note": "the hall's rent"},
        token=tok,
    )
    assert rent.status_code == 201, rent.content
    fixed = api.post(url(closed, f"accounts/lines/{rent.json()['id']}/reverse"), {}, token=tok)
    assert fixed.status_code == 201, fixed.content
    actions = AuditEntry.objects.filter(drive=closed, action__startswith="money.")
    assert {"money.count", "money.line", "money.reverse"} <= set(
        actions.values_list("action", flat=True)
    )
    assert CashCount.objects.filter(drive=closed).count() == 1


def test_after_the_close_no_ticket_is_sold_nor_drawn(
    api: Api, ours: ClubUsers, closed: Drive
) -> None:
    tok = ours.org_token
    ham = Pool.objects.get(drive=closed, kind="raffle").pk
    sale = Line.objects.get(drive=closed, kind="fifty_fifty_tickets").pk
    lines, tickets = Line.objects.count(), Ticket.objects.count()
    for tail, body in (
        ("fifty-fifty/tickets", {"count": 10}),
        (f"raffles/{ham}/tickets", {"count": 1}),
        ("fifty-fifty/draw", None),
        (f"raffles/{ham}/draw", None),
        ("raffles", {"name": "A quilt"}),
        ("accounts/lines", {"kind": "donation", "amount": "5"}),
        (f"accounts/lines/{sale}/reverse", {}),
    ):
        answer = api.post(url(closed, tail), body, token=tok)
        assert answer.status_code == 422, (tail, answer.content)
        assert answer.json()["code"] == "drive_closed", (tail, answer.json())
    assert (Line.objects.count(), Ticket.objects.count()) == (lines, tickets)
    assert not Draw.objects.exists() and Pool.objects.filter(drive=closed).count() == 2
    assert fifty_fifty_of(closed).tickets.count() == 10


def test_the_money_page_and_the_close_page_say_what_is_left(ours: ClubUsers, drive: Drive) -> None:
    desk = Client()
    desk.force_login(ours.organizer)
    close_page = desk.get(reverse("night:dashboard_close", kwargs={"slug": drive.slug}))
    assert "the count of the cash box and expenses can still be recorded" in (
        close_page.content.decode()
    )
    drive_close(drive=drive, actor=DESK)
    page = reverse("money:page", kwargs={"slug": drive.slug})
    sold = desk.post(page, {"action": "sell", "count": "10"}, follow=True)
    words = [str(m) for m in sold.context["messages"]]
    assert any("The drive is closed" in w for w in words), words
    counted = desk.post(page, {"action": "count", "total": "80"}, follow=True)
    assert [str(m) for m in counted.context["messages"]] == ["The count is recorded."]
    assert not Line.objects.exists() and CashCount.objects.count() == 1
