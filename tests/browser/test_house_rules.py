"""The house rules where the hall sees them: a line under the projector's title (1920×1080),
and the practice start page's house rules on a phone (390×844), chosen, dealt and shown on the
table."""

from __future__ import annotations

from unittest.mock import patch

import pytest
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import ContextFactory
from tests.browser.helpers import force_login, screenshot
from tests.pages.live_helpers import night, people
from tests.practice.test_announce import SWITCH, robbing_seed

pytestmark = pytest.mark.browser


def test_the_projector_shows_the_rules_under_its_title(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    group = people()
    drive = night(
        group.club, 12, ruleset="auction-120", rules={"min_bid": 20, "first_lead": "left-of-bidder"}
    )
    context = new_context(viewport={"width": 1920, "height": 1080})
    force_login(context, group.organizer, live_server.url)
    page = context.new_page()
    page.goto(f"/drives/{drive.slug}/projector/")
    rules = page.get_by_test_id("projector-rules")
    expect(rules).to_have_text(
        "Rules: Auction 45s to 120 · Auction: who leads the first trick: the player on the "
        "bidder's left · Auction: the lowest bid: 20"
    )
    title = page.locator(".proj-head h1").bounding_box()
    line = rules.bounding_box()
    assert title is not None and line is not None
    assert line["y"] >= title["y"] + title["height"], "the rules line is under the title"
    assert line["height"] < title["height"], "the rules line is smaller than the title"
    assert page.evaluate("document.documentElement.scrollWidth") <= 1920
    screenshot(page, "projector-rules")


def test_the_practice_start_page_offers_house_rules_on_a_phone(
    new_context: ContextFactory,
) -> None:
    page = new_context(phone=True, viewport={"width": 390, "height": 844}).new_page()
    page.goto("/practice/")
    page.get_by_test_id("house-rules").locator("summary").click()
    page.get_by_label("Ace of hearts led: players with no trump must play a heart").select_option(
        "False"
    )
    page.get_by_label("Trumps that may be held back from a lower trump led").select_option("none")
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    screenshot(page, "practice-house-rules", full_page=True)
    page.get_by_test_id("start").click()
    shown = page.locator(".practice-rules").get_by_test_id("house-rules")
    expect(shown).to_contain_text("Ace of hearts led: players with no trump must play a heart: no")
    expect(shown).to_contain_text("none: every trump must follow")


def test_the_kitty_on_a_phone_tick_the_cards_and_draw(new_context: ContextFactory) -> None:
    """Auction with a kitty of 3: play by the hints up to your turn to draw, tick the cards
    the hint names, draw, and hold five cards."""
    page = new_context(phone=True, viewport={"width": 390, "height": 844}).new_page()
    for _attempt in range(12):
        page.goto("/practice/")
        page.locator("input[name=ruleset][value=auction-120]").check()
        page.get_by_test_id("house-rules").locator("summary").click()
        page.get_by_label("Auction: cards in the kitty").select_option("3")
        page.get_by_test_id("start").click()
        for _step in range(8):
            if page.get_by_test_id("draw-turn").count():
                break
            if page.get_by_test_id("pass").count():
                page.get_by_test_id("bid-20").or_(page.get_by_test_id("pass")).first.click()
            elif page.locator("[data-testid^=suit-]").count():
                page.locator("[data-testid^=suit-]").first.click()
            else:
                break
        if page.get_by_test_id("draw-turn").count():
            break
    expect(page.get_by_test_id("draw-turn")).to_be_visible()
    boxes = page.locator(".draw-form input[type=checkbox]")
    held = boxes.count()
    assert held >= 5
    for i in range(max(held - 5, 2)):
        boxes.nth(i).check()
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    screenshot(page, "practice-kitty-draw", full_page=True)
    page.get_by_test_id("draw").click()
    expect(page.get_by_test_id("draw-turn")).to_have_count(0)
    expect(page.locator(".practice-hand .hand-card, .practice-hand .card")).not_to_have_count(0)


def test_announcing_the_ace_by_keyboard_on_a_phone(new_context: ContextFactory) -> None:
    """Under unannounced_ace_lowest, dealt the ace of trumps: Tab to "Keep my hand and
    announce the ace", Enter; the event line says you announced it and no ace plays low."""
    page = new_context(phone=True, viewport={"width": 390, "height": 844}).new_page()
    # The table draws its own seed (no caller chooses it): the one that deals the ace here.
    # The live server runs in this process, so the patch reaches it.
    with patch("practice.table.new_seed", return_value=robbing_seed(SWITCH)):
        started = page.request.post("/api/v1/practice", data={"rules": SWITCH})
    assert started.status == 201, started.text()
    page.goto(f"/practice/{started.json()['id']}/")
    expect(page.get_by_test_id("decline")).to_have_text(
        "Keep my hand without announcing: my ace plays as the lowest trump"
    )
    page.wait_for_load_state("load")
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.testid === 'announce'"):
            break
    else:
        raise AssertionError("Tab never reached the announce choice")
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    screenshot(page, "practice-announce-ace", full_page=True)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page.locator(".practice-event")).to_contain_text(
        ["You kept your hand and announced the ace of trumps: it keeps its rank."]
    )
    expect(page.get_by_test_id("ace-low")).to_have_count(0)
    expect(page.get_by_test_id("your-turn").or_(page.get_by_test_id("hand-over"))).to_be_visible()
