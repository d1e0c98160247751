"""The club's pots in a real browser (issue 36 part 4): a "catch the ace" carried over the
three drives of a season, money put in each night and a sealed card opened at each, until the
ace of spades is found at the third and the pot is paid; each night's ledger, the pot's page
and the season page say it night by night. Then a couple's member price at the door (part 6).
Read at desk size, on a phone at 360 px and at 200 % text, in English and French, with axe's
WCAG 2.2 AA rules. Screenshots (SCREENSHOTS=1): pots-desk, pots-phone, pots-season."""

from __future__ import annotations

from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from drives.models import Player
from drives.services import member_add
from money import selectors
from money.models import Line, Pot
from money.services import setup_update
from tests.api.helpers import DESK
from tests.browser.conftest import ContextFactory
from tests.browser.helpers import axe_violations, force_login, screenshot, text_size
from tests.factories import UserFactory
from tests.seasons.helpers import make_season

pytestmark = pytest.mark.browser


def night(page: Page, slug: str, amount: str, ticket: str, card: str, found: str) -> None:
    page.goto(f"/drives/{slug}/money/")
    page.get_by_test_id("club-pots").click()
    expect(page.get_by_role("heading", name="The club's pots", exact=True)).to_be_visible()
    page.get_by_label("Put in tonight").fill(amount)
    page.get_by_test_id("pot-add").click()
    expect(page.get_by_text(f"{amount}.00 put in the Catch the ace.")).to_be_visible()
    page.get_by_label("Ticket drawn").fill(ticket)
    page.get_by_label("Sealed card chosen").select_option(card)
    page.get_by_label("The card opened is").fill(found)


def test_catch_the_ace_carried_over_three_drives_and_won(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    world = make_season()
    organizer = UserFactory(username="pots-treasurer")
    member_add(club=world.club, user=organizer, role="organizer")
    context = new_context()
    force_login(context, organizer, live_server.url)
    page = context.new_page()
    first, second, third = (drive.slug for drive in world.drives)

    # The organizer opens the club's pot, with last season's 100.00 in it.
    page.goto(f"/drives/{first}/money/pots")
    expect(page.get_by_text("The club has no pot open.")).to_be_visible()
    page.get_by_label("Name").fill("Catch the ace")
    page.get_by_label("Kind").select_option("ace")
    page.get_by_label("It holds already").fill("100")
    page.get_by_test_id("pot-open").click()
    expect(page.get_by_text("The Catch the ace is open.")).to_be_visible()
    pot = Pot.objects.get(club=world.club)

    # Night 1 and night 2: money in, a card opened, not the ace: the pot rolls on.
    night(page, first, "40", "17", "5", "7 of hearts")
    page.get_by_test_id("pot-draw").click()
    expect(page.get_by_text("Card 5 is not the ace: the pot rolls on.")).to_be_visible()
    night(page, second, "35", "42", "12", "queen of spades")
    # card 5, opened last week, is no longer offered
    assert page.locator("select[name=card] option[value='5']").count() == 0
    page.get_by_test_id("pot-draw").click()
    expect(page.get_by_text("Card 12 is not the ace: the pot rolls on.")).to_be_visible()
    expect(page.get_by_test_id("pot-holds")).to_have_text("175.00 CAD")
    expect(page.get_by_test_id("pot-sealed")).to_contain_text("50 of 52 cards still sealed.")

    # Night 3: the ace of spades.
    night(page, third, "30", "88", "30", "ace of spades")
    page.get_by_label("The ace of spades: the pot is won").check()
    page.get_by_label("Winner").fill("Rita Doucet")
    page.get_by_test_id("pot-draw").click()
    expect(page.get_by_text("The ace of spades! Rita Doucet wins 205.00.")).to_be_visible()
    expect(page.get_by_test_id("pot-holds")).to_have_text("0.00 CAD")
    history = page.get_by_test_id("pot-history")
    expect(history.locator("tbody tr")).to_have_count(3)
    expect(history.locator("tbody tr").nth(0)).to_contain_text("100.00")
    expect(history.locator("tbody tr").nth(1)).to_contain_text("ticket 42: card 12")
    expect(history.locator("tbody tr").nth(2)).to_contain_text("Rita Doucet")
    expect(history.locator("tbody tr").nth(2)).to_contain_text("205.00")
    assert axe_violations(page) == []
    screenshot(page, "pots-desk", full_page=True)

    # Each night's ledger: what went in, what was paid; the money page shows the lines.
    sums = [selectors.accounts(drive)["totals_by_kind"] for drive in world.drives]
    assert sums == [
        {"pot_in": Decimal("40.00")},
        {"pot_in": Decimal("35.00")},
        {"pot_in": Decimal("30.00"), "pot_paid": Decimal("205.00")},
    ]
    page.goto(f"/drives/{third}/money/")
    ledger = page.locator("table.ledger")
    expect(ledger).to_contain_text("club's pot paid out")
    expect(ledger).to_contain_text("Catch the ace: Rita Doucet")

    # The season page: the pot night by night.
    page.goto(f"/clubs/{world.club.slug}/seasons/{world.season.slug}/")
    pots = page.get_by_test_id("season-pots")
    expect(pots.get_by_role("heading", name="Catch the ace")).to_contain_text("won")
    expect(pots.locator("tbody tr")).to_have_count(3)
    expect(pots.locator("tbody tr").nth(1)).to_contain_text("12 (queen of spades)")
    expect(pots.locator("tbody tr").nth(2)).to_contain_text("205.00")
    pots.scroll_into_view_if_needed()
    screenshot(page, "pots-season", full_page=True)
    assert pot.pk == Pot.objects.get(state="won").pk

    # On a phone at 200 % text, in French: the history fits and reads.
    phone = new_context(locale="fr-CA", viewport={"width": 360, "height": 740})
    force_login(phone, organizer, live_server.url)
    small = phone.new_page()
    small.goto(f"/drives/{third}/money/pots")
    expect(small.get_by_role("heading", name="Les pots du club")).to_be_visible()
    expect(small.get_by_test_id("pot-holds")).to_have_text("0,00 CAD")
    expect(small.get_by_test_id("pot-history")).to_contain_text("billet 88 : carte 30")
    small.get_by_test_id("pot-holds").scroll_into_view_if_needed()
    screenshot(small, "pots-phone")
    text_size(small, 200)
    small.reload()
    expect(small.get_by_test_id("pot-history")).to_contain_text("Rita Doucet")
    assert small.evaluate("document.documentElement.scrollWidth") <= 360
    assert axe_violations(small) == []


def test_members_pay_the_members_price_at_the_door(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    world = make_season(play=False)
    organizer = UserFactory(username="door-treasurer")
    member_add(club=world.club, user=organizer, role="organizer")
    drive = world.drives[0]
    drive.entry_fee = Decimal("5.00")
    drive.save(update_fields=["entry_fee"])
    setup_update(drive=drive, actor=DESK, member_fee="3.00")
    context = new_context()
    force_login(context, organizer, live_server.url)
    page = context.new_page()
    # The players page: Thérèse MacNeil is a member.
    member = Player.objects.get(club=world.club, name="Thérèse MacNeil")
    page.goto(f"/clubs/{world.club.slug}/players/{member.pk}/edit")
    page.get_by_label("A member of the club").check()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text("The player was saved.")).to_be_visible()
    # The door shows it, and the paid tick charges 3 + 5.
    page.goto(f"/drives/{drive.slug}/couples/")
    expect(page.get_by_test_id("members-1")).to_have_text("club members: 1")
    expect(page.get_by_test_id("members-2")).to_have_count(0)
    page.get_by_test_id("paid-1").click()
    expect(page.get_by_test_id("paid-1")).to_have_text("✓ Paid")
    assert Line.objects.get(drive=drive, couple__number=1).amount == Decimal("8.00")
    page.goto(f"/drives/{drive.slug}/money/")
    expect(page.get_by_test_id("member-fee")).to_have_text(
        "Members of the club: 3.00 CAD a person."
    )
    expect(page.locator("#cash-box")).to_contain_text("8.00")
