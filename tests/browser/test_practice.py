"""The practice table on a phone: a whole game played by tapping legal cards (and once by
keyboard), a refused card answered in plain words, nothing wider than the phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import screenshot

pytestmark = pytest.mark.browser


def _fits(page: Page) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the page is {wide}px wider than the screen"


@pytest.mark.parametrize(
    ("ruleset", "mode"),
    [
        ("Cape Breton 45", "Partners"),
        ("Irish 45 with the joker", "Partners"),
        ("Auction 45s to 120", "Partners"),
        ("Cape Breton 45", "Three-handed"),
        ("Irish 45 with the joker", "Three-handed"),
    ],
)
def test_a_whole_game_on_a_phone_by_tapping_legal_cards(
    phone: Page, ruleset: str, mode: str
) -> None:
    phone.goto("/")
    phone.get_by_test_id("practice-link").click()
    phone.get_by_label(ruleset).check()
    phone.get_by_label(mode).check()
    phone.get_by_test_id("start").click()
    expect(phone.get_by_role("heading", name="Rules in one page")).to_be_visible()
    _fits(phone)
    screenshot(phone, "practice-phone", full_page=True)
    refused_once = keyboard_once = False
    for _ in range(400):
        if phone.get_by_test_id("game-over").count():
            break
        refused = phone.locator("button.hand-card.refused")
        if not refused_once and refused.count():
            refused.first.click()
            expect(phone.locator(".messages")).to_contain_text("You must")
            refused_once = True
            continue
        legal = phone.locator("button.hand-card.legal")
        if phone.get_by_test_id("decline").count():
            phone.get_by_test_id("decline").click()
        elif phone.get_by_test_id("pass").count():
            bids = phone.locator("[data-testid^=bid-]")
            # Bid the lowest now and then (so that you name trump), else pass.
            (
                bids.first if bids.count() and not refused_once else phone.get_by_test_id("pass")
            ).click()
        elif phone.get_by_test_id("suit-H").count():
            screenshot(phone, "practice-phone-trump", full_page=True)
            phone.get_by_test_id("suit-H").click()
        elif not keyboard_once and phone.get_by_test_id("your-turn").count():
            legal.first.focus()
            phone.keyboard.press("Enter")
            keyboard_once = True
        else:
            legal.first.click()
        phone.wait_for_load_state()
    over = phone.get_by_test_id("game-over")
    expect(over).to_be_visible()
    expect(over).to_contain_text("won")
    if mode == "Three-handed":
        expect(phone.get_by_test_id("score-left")).to_be_visible()
        screenshot(phone, "practice-phone-three-handed", full_page=True)
    _fits(phone)
    if mode == "Partners":
        screenshot(phone, "practice-phone-over", full_page=True)
    # The browser finds its game again from the start page.
    phone.goto("/practice/")
    expect(phone.get_by_test_id("start")).to_be_visible()


def test_the_table_on_a_desk_screen(page: Page) -> None:
    page.goto("/practice/")
    page.get_by_test_id("start").click()
    expect(page.locator("button.hand-card").first).to_be_visible()
    _fits(page)
    screenshot(page, "practice-desk", full_page=True)
