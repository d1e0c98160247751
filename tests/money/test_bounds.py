"""Every sum the ledger stores fits its column (99,999,999.99 at most): a sale, a 50/50 prize
or an amount past it is refused (422 ``bad_amount``) with nothing written, 29 digits and more
too, and the database's own check stops any other path. A drive that already holds such a
line (stored on SQLite before the check) still shows its accounts and exports, the line
flagged and left out of the totals."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.db import DataError, IntegrityError, connection, transaction
from django.test import Client
from django.urls import reverse

from drives.models import AuditEntry, Drive
from money.models import MAX_AMOUNT, CashCount, Draw, Line, MoneySetup, Pool, Ticket, TicketSale
from money.services import setup_update
from tests.api.helpers import DESK, Api, ClubUsers
from tests.money.conftest import Sheet

pytestmark = pytest.mark.django_db

THIRTY = "1" + "0" * 29  # 30 digits: past what Decimal's context quantizes


def url(drive: Drive, tail: str) -> str:
    return f"drives/{drive.slug}/{tail}"


def nothing_written(drive: Drive) -> None:
    for model in (Line, TicketSale, Ticket, Draw, CashCount):
        assert not model.objects.exists(), model


def reads_answer(api: Api, ours: ClubUsers, drive: Drive) -> dict[str, Any]:
    """The reads that failed for good after an oversized line: each answers."""
    tok = ours.org_token
    for answer in (
        api.patch(url(drive, "accounts/setup"), {"share_percent": 50}, token=tok),
        api.get(url(drive, "export"), token=tok),
        api.get(f"clubs/{ours.club.slug}/money", token=tok),
    ):
        assert answer.status_code == 200, answer.content
    accounts = api.get(url(drive, "accounts"), token=tok)
    assert accounts.status_code == 200, accounts.content
    return dict(accounts.json())


def sell_past_the_column(api: Api, ours: ClubUsers, drive: Drive) -> None:
    tok = ours.org_token
    quilt = api.post(
        url(drive, "raffles"), {"name": "A quilt", "ticket_price": "99999999.99"}, token=tok
    )
    assert quilt.status_code == 201, quilt.content
    two = api.post(url(drive, f"raffles/{quilt.json()['id']}/tickets"), {"count": 2}, token=tok)
    assert two.status_code == 422 and two.json()["code"] == "bad_amount", two.content
    assert "99999999.99" in two.json()["message"]
    setup_update(drive=drive, actor=DESK, ticket_price="60000000")
    fifty = api.post(url(drive, "fifty-fifty/tickets"), {"count": 2}, token=tok)
    assert fifty.status_code == 422 and fifty.json()["code"] == "bad_amount", fifty.content
    nothing_written(drive)
    data = reads_answer(api, ours, drive)
    assert data["lines"] == [] and data["net"] == "0.00"
    one = api.post(url(drive, f"raffles/{quilt.json()['id']}/tickets"), {"count": 1}, token=tok)
    assert one.status_code == 201 and one.json()["amount"] == "99999999.99"


def test_a_sale_past_the_largest_sum_is_refused_and_the_reads_still_answer(
    api: Api, ours: ClubUsers, drive: Drive
) -> None:
    sell_past_the_column(api, ours, drive)


@pytest.mark.postgres
def test_a_sale_past_the_largest_sum_is_refused_on_postgresql(
    api: Api, ours: ClubUsers, drive: Drive
) -> None:
    assert connection.vendor == "postgresql"
    sell_past_the_column(api, ours, drive)


def test_a_fifty_fifty_prize_past_the_largest_sum_is_not_drawn(
    api: Api, ours: ClubUsers, drive: Drive
) -> None:
    tok = ours.org_token
    setup_update(drive=drive, actor=DESK, ticket_price="99999999.99", share_percent=100)
    for _sale in range(2):
        sold = api.post(url(drive, "fifty-fifty/tickets"), {"count": 1}, token=tok)
        assert sold.status_code == 201, sold.content
    drawn = api.post(url(drive, "fifty-fifty/draw"), token=tok)
    assert drawn.status_code == 422 and drawn.json()["code"] == "bad_amount", drawn.content
    assert not Draw.objects.exists()
    assert not AuditEntry.objects.filter(action="money.draw").exists()


@pytest.mark.parametrize(
    ("tail", "body", "field"),
    [
        ("accounts/lines", {"kind": "donation", "amount": THIRTY}, "amount"),
        ("accounts/lines", {"kind": "expense", "amount": THIRTY + ".00"}, "amount"),
        ("accounts/count", {"total": THIRTY}, "total"),
        ("accounts/count", {"denominations": {THIRTY: 1}}, "denominations"),
        ("fifty-fifty/tickets", {"count": 1, "amount": THIRTY}, "amount"),
        ("raffles", {"name": "A ham", "ticket_price": THIRTY}, "ticket_price"),
        ("accounts/setup", {"opening_float": THIRTY}, "opening_float"),
        ("accounts/setup", {"ticket_price": THIRTY}, "ticket_price"),
        ("accounts/setup", {"strip_price": "9" * 40}, "strip_price"),
    ],
)
def test_amounts_of_thirty_digits_are_bad_amounts(
    api: Api, ours: ClubUsers, drive: Drive, tail: str, body: dict[str, Any], field: str
) -> None:
    method = api.patch if tail == "accounts/setup" else api.post
    answer = method(url(drive, tail), body, token=ours.org_token)
    assert answer.status_code == 422, answer.content
    assert (answer.json()["code"], answer.json()["field"]) == ("bad_amount", field)
    nothing_written(drive)
    assert not MoneySetup.objects.exists() and not Pool.objects.filter(kind="raffle").exists()


def test_the_money_page_answers_thirty_digits_with_words(ours: ClubUsers, drive: Drive) -> None:
    desk = Client()
    desk.force_login(ours.organizer)
    page = reverse("money:page", kwargs={"slug": drive.slug})
    for form in (
        {"action": "line", "kind": "donation", "amount": THIRTY},
        {"action": "count", "total": THIRTY},
        {"action": "setup", "opening_float": THIRTY},
        {"action": "raffle", "name": "A ham", "ticket_price": THIRTY},
    ):
        answer = desk.post(page, form, follow=True)
        assert answer.status_code == 200
        words = [str(m) for m in answer.context["messages"]]
        assert any("give a sum from 0.01 to 99999999.99" in w for w in words), (form, words)
    nothing_written(drive)


def test_the_database_refuses_a_sum_past_the_column(drive: Drive) -> None:
    too_much = MAX_AMOUNT + Decimal("0.01")
    for make in (
        lambda: Line.objects.create(drive=drive, kind="donation", amount=too_much, channel="desk"),
        lambda: Line.objects.create(drive=drive, kind="donation", amount=-too_much, channel="desk"),
        lambda: CashCount.objects.create(drive=drive, total=too_much),
        lambda: MoneySetup.objects.create(drive=drive, opening_float=too_much),
    ):
        with pytest.raises((IntegrityError, DataError)), transaction.atomic():
            make()
    nothing_written(drive)


def store_past_the_column(drive: Drive, amount: str) -> Line:
    """A line as an older version stored it on SQLite (which keeps any number in a column):
    written past today's check."""
    line = Line.objects.create(drive=drive, kind="raffle_tickets", amount="1.00", channel="desk")
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA ignore_check_constraints = 1")
        try:
            table = Line._meta.db_table
            cursor.execute(f"UPDATE {table} SET amount = %s WHERE id = %s", [amount, line.pk])
        finally:
            cursor.execute("PRAGMA ignore_check_constraints = 0")
    return line


@pytest.mark.skipif(
    connection.vendor != "sqlite", reason="only SQLite ever stored a sum past its column"
)
def test_a_line_stored_past_the_column_is_shown_flagged_and_left_out(
    api: Api, ours: ClubUsers, drive: Drive, treasurers_sheet: Sheet
) -> None:
    tok = ours.org_token
    api.post(url(drive, "accounts/lines"), {"kind": "donation", "amount": "5"}, token=tok)
    bad = store_past_the_column(drive, "199999999.98")
    data = reads_answer(api, ours, drive)
    assert [(ln["amount"], ln["out_of_bounds"]) for ln in data["lines"]] == [
        ("5.00", False),
        ("199999999.98", True),
    ]
    assert (data["money_in"], data["net"], data["expected_cash"]) == ("5.00", "5.00", "5.00")
    export = api.get(url(drive, "export"), token=tok).json()
    assert [ln["amount"] for ln in export["money"]["lines"]] == ["5.00", "199999999.98"]
    again = api.post(url(drive, f"accounts/lines/{bad.pk}/reverse"), {}, token=tok)
    assert again.status_code == 422 and again.json()["code"] == "bad_amount"
    desk = Client()
    desk.force_login(ours.organizer)
    page = desk.get(reverse("money:page", kwargs={"slug": drive.slug}))
    assert page.status_code == 200
    assert "left out of the totals" in page.content.decode()
    for name in ("csv", "pot"):
        answer = desk.get(reverse(f"money:{name}", kwargs={"slug": drive.slug}))
        assert answer.status_code == 200, name
    assert "Net raised 5.00 CAD" in treasurers_sheet(desk, drive)


@pytest.mark.skipif(
    connection.vendor != "sqlite", reason="only SQLite ever stored a sum past its column"
)
@pytest.mark.django_db(transaction=True)
def test_the_upgrade_keeps_a_line_stored_past_the_column(api: Api, ours: ClubUsers) -> None:
    """money 0003 on a hall's laptop whose SQLite holds an oversized sale: the upgrade goes
    through, the line is kept as it was, and the database refuses the next one."""
    from django.db.migrations.executor import MigrationExecutor

    from tests.api.helpers import make_drive
    from tests.drives.test_migration_sit_out_last import migrate

    drive = make_drive(ours.club, 2)
    before = [("money", "0002_pool_ticket_price")]
    try:
        old = migrate(before).loader.project_state(before).apps
        old.get_model("money", "Line").objects.create(
            drive_id=drive.pk, kind="raffle_tickets", amount="199999999.98", channel="desk"
        )
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
        data = reads_answer(api, ours, drive)
        assert [(ln["amount"], ln["out_of_bounds"]) for ln in data["lines"]] == [
            ("199999999.98", True)
        ]
        with pytest.raises(IntegrityError), transaction.atomic():
            Line.objects.create(drive=drive, kind="donation", amount="1e9", channel="desk")
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
