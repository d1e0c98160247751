"""The night's money in a real browser: at the door, the strip's button has the focus, so
Enter sells a strip (two keystrokes with the way of payment); the pot on the money page grows
by itself when another desk sells; the draw shows the ticket and the prize on the projector's
50/50 screen, which refreshes itself; the treasurer's sheet downloads from the money page.
Screenshots at desk, projector and phone sizes (SCREENSHOTS=1)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from drives.services import club_create, couples_register, drive_create, member_add
from money.models import Draw, Line, Ticket
from money.services import (
    draw_claim,
    draw_make,
    line_record,
    raffle_add,
    setup_update,
    tickets_sell,
)
from tests.api.helpers import DESK
from tests.browser.conftest import ContextFactory
from tests.browser.helpers import force_login, screenshot, text_size
from tests.factories import UserFactory
from tests.seasons.helpers import make_season

pytestmark = pytest.mark.browser


def test_selling_at_the_door_and_drawing_on_the_projector(
    new_context: ContextFactory, live_server: LiveServer, settings: Any
) -> None:
    # The treasurer's sheet is printed by the print task: here, in the server's own process
    # (with a broker and no worker, as on the PostgreSQL pass, it would wait in the queue).
    settings.CELERY_TASK_ALWAYS_EAGER = True
    club = club_create(name="St. Mary's Parish Hall")
    organizer = UserFactory(username="money-organizer")
    member_add(club=club, user=organizer, role="organizer")
    drive = drive_create(
        club=club, name="Friday 45s", date=date(2026, 11, 27), entry_fee=Decimal("20")
    )
    desk_context = new_context()
    force_login(desk_context, organizer, live_server.url)
    raffle_add(drive=drive, actor=DESK, name="A quilt", ticket_price="5.00")
    desk = desk_context.new_page()
    desk.goto(f"/drives/{drive.slug}/money/")
    expect(desk.get_by_role("button", name="Sell one · 5.00")).to_be_visible()
    # Enter on the focused strip button sells a strip.
    expect(desk.get_by_role("button", name="Strip of 10 · 10.00")).to_be_focused()
    desk.keyboard.press("Enter")
    expect(desk.get_by_text("Sold tickets 1–10 for 10.00.")).to_be_visible()
    assert list(Ticket.objects.values_list("number", flat=True)) == list(range(1, 11))
    # Another desk sells a single: the pot on this page grows without a reload.
    tickets_sell(drive=drive, actor=DESK, count=1)
    expect(desk.locator("#pot .big-number")).to_have_text("12.00 CAD", timeout=10_000)
    screenshot(desk, "money-desk", full_page=True)

    projector_context = new_context(viewport={"width": 1920, "height": 1080})
    force_login(projector_context, organizer, live_server.url)
    projector = projector_context.new_page()
    projector.goto(f"/drives/{drive.slug}/money/projector")
    expect(projector.locator(".pot-amount")).to_have_text("12.00 CAD")
    screenshot(projector, "money-projector-pot")
    desk.get_by_role("button", name="Draw the 50/50").click()
    draw = Draw.objects.get()
    expect(projector.locator(".pot-ticket")).to_have_text(str(draw.ticket), timeout=10_000)
    expect(projector.locator(".pot-amount")).to_have_text("6.00 CAD")
    screenshot(projector, "money-projector-drawn")
    desk.get_by_role("button", name="Winner paid").click()
    expect(desk.get_by_text("Paid out.")).to_be_visible()
    assert Line.objects.filter(kind="fifty_fifty_paid", amount=Decimal("6.00")).exists()
    # The treasurer's sheet prints as the other documents do: the button on the money page
    # asks the print page for it, and (rendered at once without a broker) it downloads.
    with desk.expect_download() as sheet:
        desk.get_by_role("button", name="The treasurer's page (PDF)").click()
    assert sheet.value.suggested_filename == f"{drive.slug}-accounts-letter.pdf"
    with open(sheet.value.path(), "rb") as handle:
        assert handle.read(5) == b"%PDF-"

    phone_context = new_context(phone=True)
    force_login(phone_context, organizer, live_server.url)
    phone = phone_context.new_page()
    phone.goto(f"/drives/{drive.slug}/money/")
    expect(phone.locator("#cash-box")).to_contain_text("Expected")
    screenshot(phone, "money-phone", full_page=True)


def test_the_door_ticks_paid_by_card_and_the_ledger_says_card(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    """At the door, the row's way of payment is picked by keyboard (the select before the
    "paid" tick, cash unless changed), then Enter on the tick: the entry fee's line says card;
    the next couple, ticked without picking, paid cash. The fee is 10.00 a person: a couple
    pays 20.00, and the money page says both."""
    club = club_create(name="St. Mary's Parish Hall")
    organizer = UserFactory(username="door-money")
    member_add(club=club, user=organizer, role="organizer")
    drive = drive_create(
        club=club, name="Friday 45s", date=date(2026, 11, 27), entry_fee=Decimal("10")
    )
    couples_register(
        drive=drive,
        actor=DESK,
        couples=[
            {"player1": "Anne MacKenzie", "player2": "Lois MacKenzie"},
            {"player1": "Mary MacDonald", "player2": "Angus MacDonald"},
        ],
    )
    for options, name in (({"phone": True}, "door-money-phone"), ({}, "door-money-desk")):
        context = new_context(**options)  # type: ignore[arg-type]
        force_login(context, organizer, live_server.url)
        page = context.new_page()
        page.goto(f"/drives/{drive.slug}/couples/")
        expect(page.get_by_test_id("way-1")).to_have_value("cash")
        screenshot(page, name, full_page=True)
        if options:
            continue
        page.get_by_test_id("way-1").focus()
        page.keyboard.type("car")  # the select's type-ahead: card
        expect(page.get_by_test_id("way-1")).to_have_value("card")
        page.keyboard.press("Tab")
        expect(page.get_by_test_id("paid-1")).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.get_by_test_id("paid-1")).to_have_text("✓ Paid")
        expect(page.get_by_test_id("way-1")).to_be_hidden()
        page.get_by_test_id("paid-2").click()
        expect(page.get_by_test_id("paid-2")).to_have_text("✓ Paid")
        page.goto(f"/drives/{drive.slug}/money/")
        expect(page.locator("table.ledger")).to_contain_text("card")
        expect(page.get_by_test_id("entry-fee")).to_have_text(
            "Entry: 10.00 CAD a person, 20.00 CAD a couple."
        )
        screenshot(page, "door-money-page", full_page=True)
        lines = Line.objects.filter(kind="entry").order_by("couple__number")
        assert [(line.couple.number, line.way, line.amount) for line in lines if line.couple] == [
            (1, "card", Decimal("20.00")),
            (2, "cash", Decimal("20.00")),
        ]
        # Couple 2 was the same couple typed twice: deleting it refunds the fee it was ticked for.
        page.goto(f"/drives/{drive.slug}/couples/2/delete")
        expect(page.get_by_test_id("delete-refund")).to_contain_text("20.00 CAD")
        screenshot(page, "door-money-delete")
        page.get_by_test_id("delete-confirm").click()
        page.goto(f"/drives/{drive.slug}/money/")
        expect(page.locator("table.ledger")).to_contain_text("couple 2 deleted")
    refund = Line.objects.get(reverses__isnull=False)
    assert (refund.amount, refund.way, refund.couple) == (Decimal("-20.00"), "cash", None)


def test_the_season_page_shows_the_money_each_drive_raised(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    """The organizer's season page: each drive's money in, out and net, and the season's
    total (screenshots at desk and phone sizes)."""
    organizer = UserFactory(username="season-treasurer")
    club = club_create(name="St. Joseph's Parish", organizer=organizer)
    world = make_season(club, play=False)
    line_record(drive=world.drives[0], actor=DESK, kind="donation", amount="100.00")
    line_record(drive=world.drives[0], actor=DESK, kind="expense", amount="12.50")
    tickets_sell(drive=world.drives[1], actor=DESK, count=10)
    for options, name in (({}, "season-money-desk"), ({"phone": True}, "season-money-phone")):
        context = new_context(**options)  # type: ignore[arg-type]
        force_login(context, organizer, live_server.url)
        page = context.new_page()
        page.goto(f"/clubs/{club.slug}/seasons/{world.season.slug}/")
        table = page.get_by_test_id("season-money")
        expect(table).to_contain_text("87.50")
        expect(page.get_by_test_id("season-money-total")).to_contain_text("97.50")
        table.scroll_into_view_if_needed()
        screenshot(page, name)


def test_the_licence_report_from_the_money_page_on_a_small_phone(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    """The treasurer opens the licence's report from the money page on a 320 px phone with
    large text: nothing is wider than the phone (the tables scroll in their boxes), the PDF
    downloads, and printed the page leaves the site's header and links out."""
    club = club_create(name="St. Mary's Parish Hall")
    organizer = UserFactory(username="licence-organizer")
    member_add(club=club, user=organizer, role="organizer")
    drive = drive_create(club=club, name="Friday 45s", date=date(2026, 11, 27), language="fr")
    setup_update(drive=drive, actor=DESK, licence_number="NS-AGLC 2026-0417")
    tickets_sell(drive=drive, actor=DESK, count=10)
    tickets_sell(drive=drive, actor=DESK, count=10, first=31)
    quilt = raffle_add(drive=drive, actor=DESK, name="A hand-knit quilt", ticket_price="5.00")
    tickets_sell(drive=drive, actor=DESK, count=4, raffle=quilt.pk)
    draw_make(drive=drive, actor=DESK)
    draw_claim(drive=drive, actor=DESK)
    draw_make(drive=drive, actor=DESK, raffle=quilt.pk)
    draw_claim(drive=drive, actor=DESK, raffle=quilt.pk)
    line_record(drive=drive, actor=DESK, kind="expense", amount="12.50", note="Hall rental")
    context = new_context(locale="fr-CA", viewport={"width": 320, "height": 568})
    force_login(context, organizer, live_server.url)
    page = context.new_page()
    text_size(page, 200)
    page.goto(f"/drives/{drive.slug}/money/")
    page.get_by_role("link", name="Rapport de licence").click()
    expect(page.get_by_role("heading", name="Rapport de licence")).to_be_visible()
    expect(page.get_by_test_id("licence-number")).to_contain_text("NS-AGLC 2026-0417")
    expect(page.get_by_test_id("licence-tickets")).to_contain_text("1–10, 31–40")
    expect(page.get_by_test_id("licence-net")).to_contain_text("17,50 CAD")  # 40 − 10 − 12.50
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    with page.expect_download() as report:
        page.get_by_test_id("licence-pdf").click()
    assert report.value.suggested_filename == f"{drive.slug}-licence-report.pdf"
    with open(report.value.path(), "rb") as handle:
        assert handle.read(5) == b"%PDF-"
    page.emulate_media(media="print")
    expect(page.locator(".site-header")).to_be_hidden()
    expect(page.get_by_test_id("licence-pdf")).to_be_hidden()
    expect(page.get_by_test_id("licence-net")).to_be_visible()
    context.close()
