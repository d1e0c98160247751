"""Properties of the night's money: under any order of sales, corrections and payouts the
ledger's totals are the sums of its lines (and the cash box expects the float plus the cash
lines); a draw picks only sold tickets, the same one again from its recorded seed; and the
drive's export carries the ledger through a restore unchanged."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drives.errors import ServiceError
from drives.models import AuditEntry, Drive
from drives.services import Actor, couple_update
from money import records, selectors, services
from money.models import IN_KINDS, Line, Pool, Ticket
from scoring.records.export import drive_export
from scoring.records.restore import drive_delete, drive_restore
from tests.api.helpers import ClubUsers, make_drive

pytestmark = pytest.mark.django_db

DESK = Actor(channel=AuditEntry.Channel.DESK)
cents = st.integers(min_value=1, max_value=50_000).map(lambda c: Decimal(c) / 100)
ways = st.sampled_from(["cash", "card", "e-transfer", "other"])
steps = st.lists(
    st.one_of(
        st.tuples(st.just("line"), st.sampled_from(["entry", "donation", "expense"]), cents, ways),
        st.tuples(st.just("tickets"), st.integers(1, 12), ways),
        st.tuples(st.just("paid"), st.integers(1, 6), st.booleans(), ways),
        st.tuples(st.just("reverse"), st.integers(0, 40)),
        st.tuples(st.just("draw_and_pay"), ways),
    ),
    max_size=12,
)


def play(drive: Drive, step: tuple[Any, ...]) -> None:
    kind = step[0]
    try:
        if kind == "line":
            services.line_record(drive=drive, actor=DESK, kind=step[1], amount=step[2], way=step[3])
        elif kind == "tickets":
            services.tickets_sell(drive=drive, actor=DESK, count=step[1], way=step[2])
        elif kind == "paid":
            couple = drive.couples.get(number=step[1])
            couple_update(couple=couple, actor=DESK, paid=step[2], paid_way=step[3])
        elif kind == "reverse":
            ids = list(Line.objects.filter(drive=drive).values_list("pk", flat=True))
            if ids:
                services.line_reverse(drive=drive, line_id=ids[step[1] % len(ids)], actor=DESK)
        else:
            services.draw_make(drive=drive, actor=DESK)
            services.draw_claim(drive=drive, actor=DESK, way=step[1])
    except ServiceError:
        pass  # refused (reversing twice, drawing with no tickets ...): nothing written


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(script=steps)
def test_the_totals_are_the_sums_of_the_lines_in_any_order(
    drive: Drive, script: list[tuple[Any, ...]]
) -> None:
    Line.objects.filter(drive=drive).delete()
    for pool in drive.pools.all():
        pool.delete()
    drive.couples.update(paid=False)
    for step in script:
        play(drive, step)
    data = selectors.accounts(drive)
    stored = list(Line.objects.filter(drive=drive))
    assert len(data["lines"]) == len(stored)
    for kind, total in data["totals_by_kind"].items():
        assert total == sum(line.amount for line in stored if line.kind == kind)
    assert sum(data["totals_by_kind"].values(), Decimal(0)) == sum(
        (line.amount for line in stored), Decimal(0)
    )
    signed = [line.amount if line.kind in IN_KINDS else -line.amount for line in stored]
    assert data["net"] == sum(signed, Decimal(0)) == sum(data["totals_by_way"].values(), Decimal(0))
    cash = sum(
        (s for s, line in zip(signed, stored, strict=True) if line.way == "cash"), Decimal(0)
    )
    assert data["expected_cash"] == data["opening_float"] + cash


@settings(max_examples=60, deadline=None)
@given(
    sold=st.lists(st.integers(1, 10_000), min_size=1, max_size=60, unique=True),
    seed=st.integers(0, 2**48 - 1),
)
def test_a_draw_picks_a_sold_ticket_again_from_its_seed(sold: list[int], seed: int) -> None:
    ticket = services.pick(sold, seed)
    assert ticket in sold
    assert services.pick(list(reversed(sold)), seed) == ticket


def test_the_draw_is_among_the_sold_and_replays_from_the_recorded_seed(drive: Drive) -> None:
    services.tickets_sell(drive=drive, actor=DESK, count=3, first=7)
    services.tickets_sell(drive=drive, actor=DESK, count=2, first=50)
    draw = services.draw_make(drive=drive, actor=DESK)
    sold = list(Ticket.objects.values_list("number", flat=True))
    assert sorted(sold) == [7, 8, 9, 50, 51] and draw.ticket in sold
    assert services.pick(sold, draw.seed) == draw.ticket
    audit = AuditEntry.objects.get(drive=drive, action="money.draw")
    assert audit.new["seed"] == draw.seed and audit.new["ticket"] == draw.ticket


def test_the_export_carries_the_ledger_through_a_restore(drive: Drive, ours: ClubUsers) -> None:
    couple_update(couple=drive.couples.get(number=1), actor=DESK, paid=True, paid_way="card")
    services.tickets_sell(drive=drive, actor=DESK, count=10)
    refund = services.tickets_sell(drive=drive, actor=DESK, count=1)
    services.line_reverse(drive=drive, line_id=refund.line_id, actor=DESK)
    ham = services.raffle_add(drive=drive, actor=DESK, name="A ham")
    services.tickets_sell(drive=drive, actor=DESK, count=2, raffle=ham.pk)
    quilt = services.raffle_add(drive=drive, actor=DESK, name="A quilt", ticket_price="5.00")
    services.tickets_sell(drive=drive, actor=DESK, count=3, raffle=quilt.pk)
    services.draw_make(drive=drive, actor=DESK)
    services.draw_claim(drive=drive, actor=DESK)
    services.setup_update(drive=drive, actor=DESK, opening_float="50.00", share_percent=40)
    services.cash_count(drive=drive, actor=DESK, denominations={"20": 3, "5": 1})
    before = drive_export(drive)
    accounts = selectors.accounts(drive)
    drive_delete(drive=drive)
    restored = drive_restore(data=before).drive
    after = drive_export(restored)
    assert after["money"] == before["money"]
    again = selectors.accounts(restored)
    for key in ("net", "expected_cash", "counted_cash", "difference", "totals_by_kind"):
        assert again[key] == accounts[key], key
    assert again["fifty_fifty"]["sold"] == 10  # the refunded ticket stays unsold


def test_a_bad_ledger_in_an_export_restores_nothing(drive: Drive) -> None:
    services.line_record(drive=drive, actor=DESK, kind="donation", amount="5")
    data = drive_export(drive)
    data["money"]["lines"][0]["amount"] = "5.001"
    drive_delete(drive=drive)
    with pytest.raises(ServiceError) as refused:
        drive_restore(data=data)
    assert refused.value.code == "bad_export" and "money.lines[0].amount" in refused.value.message
    assert not Drive.objects.exists()


def test_a_raffles_own_price_goes_through_the_ledgers_part(drive: Drive, ours: ClubUsers) -> None:
    """The money part of the export carries a raffle item's own price and the restore sets it
    again; an export made before raffles had prices restores them at the drive's prices."""
    quilt = services.raffle_add(drive=drive, actor=DESK, name="A quilt", ticket_price="5.00")
    services.raffle_add(drive=drive, actor=DESK, name="A ham")
    services.tickets_sell(drive=drive, actor=DESK, count=3, raffle=quilt.pk)
    part = records.export(drive)
    assert [p["ticket_price"] for p in part["pools"]] == ["5.00", None]
    numbers = set(drive.couples.values_list("number", flat=True))
    again = make_drive(ours.club, 6, entry_fee=Decimal("20.00"))
    records.write(again, records.read(json.loads(json.dumps(part)), numbers), {})
    assert records.export(again)["pools"] == part["pools"]
    older = json.loads(json.dumps(part))
    del older["pools"][0]["ticket_price"]
    oldest = make_drive(ours.club, 6, entry_fee=Decimal("20.00"))
    records.write(oldest, records.read(older, numbers), {})
    assert [p.ticket_price for p in Pool.objects.filter(drive=oldest)] == [None, None]
    bad = json.loads(json.dumps(part))
    bad["pools"][0]["ticket_price"] = "-1"
    with pytest.raises(ServiceError) as refused:
        records.read(bad, numbers)
    assert "pools[0].ticket_price" in refused.value.message
