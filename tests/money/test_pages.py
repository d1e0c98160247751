"""The money page: a strip sold in one press, a line recorded and reversed, a bad count
answered on the page with nothing written; the pot's poll is a 304 while nothing changes;
the accounts as CSV and as the treasurer's PDF; scorers kept out when the organizer says so."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from drives.models import Drive
from drives.services import drive_update
from drives.signals import PAID_WAYS
from money.models import CashCount, Line, Pool, Way
from money.services import setup_update
from scoring.models import Document
from tests.api.helpers import DESK, Api, ClubUsers, make_drive
from tests.money.conftest import Sheet

pytestmark = pytest.mark.django_db


def page_of(drive: Drive, name: str = "page") -> str:
    return reverse(f"money:{name}", kwargs={"slug": drive.slug})


@pytest.fixture
def desk(ours: ClubUsers) -> Client:
    client = Client()
    client.force_login(ours.organizer)
    return client


def messages_of(response: object) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_a_strip_in_one_press_a_line_and_its_reversal(desk: Client, drive: Drive) -> None:
    shown = desk.get(page_of(drive))
    assert shown.status_code == 200
    assert b"Strip of 10" in shown.content and reverse("money:page", args=[drive.slug]).encode()
    sold = desk.post(page_of(drive), {"action": "sell", "count": "10", "way": "cash"}, follow=True)
    assert "Sold tickets 1–10 for 10.00." in messages_of(sold)
    desk.post(
        page_of(drive),
        {"action": "line", "kind": "expense", "amount": "4.50", "way": "cash", "note": "milk"},
    )
    expense = Line.objects.get(kind="expense")
    assert expense.amount == Decimal("4.50") and expense.note == "milk"
    desk.post(page_of(drive), {"action": "reverse", "line": str(expense.pk)})
    assert Line.objects.filter(reverses=expense, amount=Decimal("-4.50")).exists()
    page = desk.get(page_of(drive)).content.decode()
    assert "10.00 CAD" in page  # the pot


def test_a_count_with_letters_is_answered_and_writes_nothing(desk: Client, drive: Drive) -> None:
    answer = desk.post(page_of(drive), {"action": "count", "total": "12O.50"}, follow=True)
    assert any("not a sum of money" in m for m in messages_of(answer))
    assert not CashCount.objects.exists()
    answer = desk.post(page_of(drive), {"action": "sell", "count": "1", "first": "x"}, follow=True)
    assert any("first must be a whole number" in m for m in messages_of(answer))
    assert not Line.objects.exists()


def test_the_pots_poll_is_a_304_until_a_sale(desk: Client, drive: Drive) -> None:
    first = desk.get(page_of(drive, "pot"))
    etag = first["ETag"]
    assert desk.get(page_of(drive, "pot"), HTTP_IF_NONE_MATCH=etag).status_code == 304
    desk.post(page_of(drive), {"action": "sell", "count": "1"})
    again = desk.get(page_of(drive, "pot"), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200 and b"2.00" in again.content


def test_csv_and_pdf(desk: Client, drive: Drive, treasurers_sheet: Sheet) -> None:
    desk.post(page_of(drive), {"action": "sell", "count": "10", "way": "card"})
    csv_text = desk.get(page_of(drive, "csv")).content.decode()
    assert csv_text.splitlines()[0].startswith("at,kind,amount,currency,way")
    assert ",fifty_fifty_tickets,10.00,CAD,card," in csv_text
    button = 'action="{}"'.format(reverse("night:print_request", args=[drive.slug]))
    assert button in desk.get(page_of(drive)).content.decode()
    text = treasurers_sheet(desk, drive)
    assert "The night's accounts" in text and "Net raised 10.00 CAD" in text
    assert "card 10.00 CAD" in text and "Expected in the box 0.00 CAD" in text
    # The sheet's old address leads to the print page, the sheet chosen there.
    old = desk.get(page_of(drive, "pdf"))
    assert old.status_code == 302
    assert old["Location"] == reverse("night:print", args=[drive.slug]) + "?document=accounts"
    assert '<option value="accounts" selected>' in desk.get(old["Location"]).content.decode()


def test_scorers_are_kept_out_when_the_organizer_says_so(ours: ClubUsers, drive: Drive) -> None:
    scorer = Client()
    scorer.force_login(ours.scorer)
    assert scorer.get(page_of(drive)).status_code == 200
    setup_update(drive=drive, actor=DESK, scorers_allowed=False)
    assert scorer.get(page_of(drive)).status_code == 403


def test_the_treasurers_sheet_is_kept_from_scorers_with_the_money(
    ours: ClubUsers, desk: Client, drive: Drive, api: Api, treasurers_sheet: Sheet
) -> None:
    """The sheet prints for whoever the money page lets in: a scorer while the scorers take
    money; once the organizer keeps it to the organizers, the scorer is neither offered it,
    nor shown the organizer's among the printed documents, nor let print it (page or API)."""
    scorer = Client()
    scorer.force_login(ours.scorer)
    print_page = reverse("night:print", args=[drive.slug])
    assert '<option value="accounts"' in scorer.get(print_page).content.decode()
    assert "Net raised" in treasurers_sheet(scorer, drive)
    setup_update(drive=drive, actor=DESK, scorers_allowed=False)
    assert "Net raised" in treasurers_sheet(desk, drive)
    sheet = Document.objects.get(drive=drive, kind="accounts")
    page = scorer.get(print_page).content.decode()
    assert '<option value="accounts"' not in page and f"printed-{sheet.pk}" not in page
    assert '<option value="results"' in page  # the night's documents are still theirs
    for name in ("print_document", "print_status", "print_download"):
        shown = scorer.get(reverse(f"night:{name}", args=[drive.slug, sheet.pk]))
        assert shown.status_code == 404, name
    asked = scorer.post(reverse("night:print_request", args=[drive.slug]), {"document": "accounts"})
    assert asked.status_code == 403
    assert "Only the organizers take money at this drive." in asked.content.decode()
    assert scorer.get(page_of(drive, "pdf")).status_code == 403
    documents = f"drives/{drive.slug}/documents"
    refused = api.post(documents, {"document": "accounts"}, token=ours.scorer_token)
    assert refused.status_code == 403 and refused.json()["code"] == "not_allowed"
    assert api.get(f"{documents}/{sheet.pk}", token=ours.scorer_token).status_code == 404
    assert api.get(f"{documents}/{sheet.pk}", token=ours.org_token).json()["ready"] is True
    assert Document.objects.filter(kind="accounts").count() == 1


def test_the_close_asks_for_the_count(desk: Client, drive: Drive) -> None:
    page = desk.get(reverse("night:dashboard_close", kwargs={"slug": drive.slug})).content.decode()
    assert "Count the cash box" in page and f"{page_of(drive)}#cash-box" in page


def test_the_box_counted_by_note_and_coin(desk: Client, drive: Drive) -> None:
    desk.post(page_of(drive), {"action": "count", "d-20": "2", "d-0.25": "3", "d-5": ""})
    count = CashCount.objects.get()
    assert count.total == Decimal("40.75") and count.denominations == {"20.00": 2, "0.25": 3}
    answer = desk.post(page_of(drive), {"action": "count", "d-20": "two"}, follow=True)
    assert any("whole number" in m for m in messages_of(answer))
    assert CashCount.objects.count() == 1


def test_the_doors_paid_tick_and_a_couple_registered_paid(desk: Client, drive: Drive) -> None:
    toggle = reverse("drives:couples_toggle", kwargs={"slug": drive.slug, "number": 2})
    desk.post(toggle, {"set": "paid:1", "way": "e-transfer"})
    desk.post(
        reverse("drives:couples", kwargs={"slug": drive.slug}),
        {"player1": "Flora Gillis", "player2": "Dan Gillis", "paid": "on"},
    )
    lines = list(Line.objects.order_by("id").values_list("kind", "amount", "way", "couple__number"))
    assert lines == [
        ("entry", Decimal("20.00"), "e-transfer", 2),
        ("entry", Decimal("20.00"), "cash", 7),
    ]


def test_the_doors_picker_of_the_way_of_payment(desk: Client, drive: Drive) -> None:
    """The couples page offers each unpaid couple's way (cash first) when the drive has a fee;
    the form posted without a script sends every row's picker, and the ticked row's is kept."""
    couples = reverse("drives:couples", kwargs={"slug": drive.slug})
    page = desk.get(couples).content.decode()
    assert 'name="way-3"' in page and '<option value="cash" selected>' in page
    assert [value for value, _name in PAID_WAYS] == Way.values
    toggle = reverse("drives:couples_toggle", kwargs={"slug": drive.slug, "number": 3})
    desk.post(toggle, {"set": "paid:1", "way-2": "cash", "way-3": "card", "way-4": "other"})
    assert list(Line.objects.values_list("way", "couple__number")) == [("card", 3)]
    answer = desk.post(
        reverse("drives:couples_toggle", kwargs={"slug": drive.slug, "number": 4}),
        {"set": "paid:1", "way-4": "cheque"},
        follow=True,
    )
    assert any("way must be one of" in m for m in messages_of(answer))
    assert Line.objects.count() == 1 and not drive.couples.get(number=4).paid


def test_a_drive_without_a_fee_shows_no_way_to_pick(ours: ClubUsers, desk: Client) -> None:
    free = make_drive(ours.club, 2)
    page = desk.get(reverse("drives:couples", kwargs={"slug": free.slug})).content.decode()
    assert "pay-way" not in page


def test_the_treasurers_pdf_is_in_the_drives_language(
    ours: ClubUsers, desk: Client, drive: Drive, treasurers_sheet: Sheet
) -> None:
    """An English-speaking organizer prints a French drive's accounts: the page is French
    (the hall's language), and an English drive's stays English."""
    desk.post(page_of(drive), {"action": "sell", "count": "10", "way": "card"})
    assert "The night's accounts" in treasurers_sheet(desk, drive)
    drive_update(drive=drive, actor=DESK, language="fr")
    drive.refresh_from_db()
    text = treasurers_sheet(desk, drive, HTTP_ACCEPT_LANGUAGE="en")
    assert "Les comptes de la soirée" in text and "Net amassé" in text
    assert "Net raised" not in text and "The night's accounts" not in text
    # The page the organizer reads afterwards is still in their own language.
    assert b"The ledger" in desk.get(page_of(drive), HTTP_ACCEPT_LANGUAGE="en").content


def test_the_door_is_told_a_paid_couple_deleted_is_refunded(desk: Client, drive: Drive) -> None:
    delete = reverse("drives:couples_delete", kwargs={"slug": drive.slug, "number": 6})
    assert b"delete-refund" not in desk.get(delete).content
    desk.post(
        reverse("drives:couples_toggle", kwargs={"slug": drive.slug, "number": 6}),
        {"set": "paid:1", "way-6": "e-transfer"},
    )
    page = desk.get(delete).content.decode()
    assert "their entry fee (20.00 CAD) as refunded" in page
    desk.post(delete)
    assert not drive.couples.filter(number=6).exists()
    assert sorted(Line.objects.values_list("amount", "way")) == [
        (Decimal("-20.00"), "e-transfer"),
        (Decimal("20.00"), "e-transfer"),
    ]


def test_a_raffle_item_priced_on_the_money_page(desk: Client, drive: Drive) -> None:
    desk.post(page_of(drive), {"action": "raffle", "name": "A quilt", "ticket_price": "5"})
    quilt = Pool.objects.get(name="A quilt")
    page = desk.get(page_of(drive)).content.decode()
    assert "Sell one · 5.00" in page and "Sell 10 · 50.00" in page
    desk.post(page_of(drive), {"action": "sell", "raffle": str(quilt.pk), "count": "1"})
    assert Line.objects.get(pool=quilt).amount == Decimal("5.00")
    answer = desk.post(
        page_of(drive), {"action": "raffle", "name": "A ham", "ticket_price": "2,50"}, follow=True
    )
    assert any("ticket_price" in m for m in messages_of(answer))
    assert not Pool.objects.filter(name="A ham").exists()


def test_a_couple_registered_paid_by_card_at_the_door(desk: Client, drive: Drive) -> None:
    couples = reverse("drives:couples", kwargs={"slug": drive.slug})
    assert 'name="paid_way"' in desk.get(couples).content.decode()
    desk.post(
        couples,
        {
            "player1": "Flora Gillis",
            "player2": "Dan Gillis",
            "paid": "on",
            "paid_way": "card",
            "checked_in": "on",
        },
    )
    desk.post(
        couples,
        {
            "player1": "Rita LeBlanc",
            "player2": "Gerard LeBlanc",
            "paid": "on",
            "paid_way": "bitcoin",
        },
    )
    assert list(Line.objects.values_list("way", "couple__number")) == [("card", 7)]
    assert not drive.couples.filter(player1="Rita LeBlanc").exists()
