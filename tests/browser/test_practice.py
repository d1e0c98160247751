"""The practice table on a phone (390×844): whole games of each preset in both modes, played
by tapping legal cards and again with the keyboard alone (Tab, the arrows of a radio group,
Enter); a refused card answered in plain words; every target a thumb's size (44 px); the why
and the hint opened; nothing wider than the phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ContextFactory
from tests.browser.helpers import screenshot

# The page's look, not its data: run in CI's SQLite pass only (tests/conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.any_database]

THUMB = 44  # px: the smallest target a thumb hits reliably (WCAG 2.5.5)
# What a player taps or reaches with Tab on the practice pages.
TARGETS = (
    ".practice button, .practice summary, .practice a, .practice-start button, "
    ".practice-start .choice, .actions a"
)


@pytest.fixture
def phone390(new_context: ContextFactory) -> Page:
    return new_context(phone=True, viewport={"width": 390, "height": 844}).new_page()


def _fits(page: Page) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the page is {wide}px wider than the screen"


def _thumb_sized(page: Page) -> None:
    """Every visible target of the page is at least 44 px high and wide."""
    page.wait_for_load_state("load")  # the stylesheets too
    small = page.evaluate(
        """([selector, least]) => [...document.querySelectorAll(selector)]
            .filter(e => e.offsetParent !== null)
            .map(e => [e.outerHTML.slice(0, 80), e.getBoundingClientRect()])
            .filter(([, r]) => r.height < least || r.width < least)
            .map(([html, r]) => `${Math.round(r.width)}x${Math.round(r.height)} ${html}`)""",
        [TARGETS, THUMB],
    )
    assert not small, "targets smaller than a thumb:\n" + "\n".join(small)


def _choose(page: Page, ruleset: str, mode: str, bots: str | None = None) -> None:
    page.goto("/")
    page.get_by_test_id("practice-link").click()
    _thumb_sized(page)
    page.get_by_label(ruleset).check()
    page.get_by_label(mode).check()
    if bots:
        opponents = page.get_by_role("group", name="How well do your opponents play?")
        opponents.get_by_label(bots).check()
    page.get_by_test_id("start").click()


GAMES = [
    ("Cape Breton 45", "Partners"),
    ("Irish 45 with the joker", "Partners"),
    ("Auction 45s to 120", "Partners"),
    ("Cape Breton 45", "Three-handed"),
    ("Irish 45 with the joker", "Three-handed"),
]


@pytest.mark.parametrize(("ruleset", "mode"), GAMES)
def test_a_whole_game_on_a_phone_by_tapping_legal_cards(
    phone390: Page, ruleset: str, mode: str
) -> None:
    phone = phone390
    _choose(phone, ruleset, mode, "beginner" if mode == "Three-handed" else None)
    expect(phone.get_by_role("heading", name="Rules in one page")).to_be_visible()
    _fits(phone)
    _thumb_sized(phone)
    # The pictures of docs/screenshots: the deal and the end of a hand (Cape Breton, both
    # modes), the end of the game (auction), naming trump.
    slug = f"{ruleset.split()[0].lower()}-{mode.lower()}"
    if slug == "cape-partners":
        screenshot(phone, "practice-phone", full_page=True)
    refused_once = hint_once = why_once = hand_over_once = False
    for _ in range(400):
        # (A jink can end an Irish game with its first hand: the end of the hand shows with
        # the end of the game.)
        if not hand_over_once and phone.get_by_test_id("hand-over").count():
            expect(phone.get_by_test_id("hand-over")).to_contain_text("Total")
            _thumb_sized(phone)
            if slug == "cape-partners":
                screenshot(phone, "practice-phone-hand-over", full_page=True)
            elif slug == "cape-three-handed":
                screenshot(phone, "practice-phone-three-handed", full_page=True)
            hand_over_once = True
        if phone.get_by_test_id("game-over").count():
            break
        whys = phone.locator("details.why summary")
        if not why_once and whys.count():
            whys.first.click()
            expect(phone.locator("details.why[open]").first).to_contain_text(":")
            why_once = True
        if not hint_once and phone.get_by_test_id("hint").count():
            phone.get_by_test_id("hint").click()
            expect(phone.locator("details.hint[open]")).to_contain_text(":")
            _thumb_sized(phone)
            hint_once = True
        refused = phone.locator("button.hand-card.refused")
        if not refused_once and refused.count():
            # A screen reader hears it too: unavailable, and why (not only faded and dashed).
            expect(refused.first).to_have_attribute("aria-disabled", "true")
            expect(refused.first).to_have_accessible_description(re.compile("You must"))
            legal_cards = phone.locator("button.hand-card.legal")
            assert legal_cards.count() and not legal_cards.first.get_attribute("aria-disabled")
            # Still a button: a tap on it is answered in words (Playwright waits for an
            # aria-disabled control to be enabled, hence force).
            refused.first.click(force=True)
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
        else:
            legal.first.click()
        phone.wait_for_load_state()
    over = phone.get_by_test_id("game-over")
    expect(over).to_be_visible()
    expect(over).to_contain_text("won")
    assert why_once and hint_once and hand_over_once
    if mode == "Three-handed":
        expect(phone.get_by_test_id("score-left")).to_be_visible()
    _fits(phone)
    _thumb_sized(phone)
    if slug == "auction-partners":
        screenshot(phone, "practice-phone-over", full_page=True)
    # A new game from the end of the game; the browser finds its game from the start page.
    phone.get_by_test_id("new-game").click()
    expect(phone.get_by_test_id("start")).to_be_visible()


def _tab_to(page: Page, selector: str, limit: int = 120) -> None:
    """Press Tab until the focused element matches ``selector``."""
    page.wait_for_load_state("load")
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
    focusable = page.evaluate(
        "s => [document.querySelectorAll('a, button, summary, input').length,"
        " document.querySelectorAll(s).length, document.activeElement.outerHTML.slice(0, 80),"
        " location.pathname]",
        selector,
    )
    raise AssertionError(f"Tab never reached {selector}: {focusable}")


def _enter(page: Page) -> None:
    """Press Enter on the focused button and wait for the page it submits to."""
    with page.expect_navigation():
        page.keyboard.press("Enter")


@pytest.mark.parametrize(
    ("ruleset_index", "mode_index"),
    [(0, 0), (0, 1), (2, 0)],
    ids=["cape-breton-partners", "cape-breton-three-handed", "auction-partners"],
)
def test_a_whole_game_with_the_keyboard_alone(
    phone390: Page, ruleset_index: int, mode_index: int
) -> None:
    page = phone390
    page.goto("/practice/")
    # Radio groups: Tab into the group, the arrow keys choose, Enter deals.
    _tab_to(page, "input[name=ruleset]")
    for _ in range(ruleset_index):
        page.keyboard.press("ArrowDown")
    _tab_to(page, "input[name=mode]")
    for _ in range(mode_index):
        page.keyboard.press("ArrowDown")
    _tab_to(page, "[data-testid=start]")
    _enter(page)
    expect(page.get_by_role("heading", name="Rules in one page")).to_be_visible()
    auction = ruleset_index == 2
    for _ in range(600):
        if page.get_by_test_id("game-over").count():
            break
        if page.get_by_test_id("decline").count():
            _tab_to(page, "[data-testid=decline]")
        elif page.get_by_test_id("pass").count():
            bids = page.locator("[data-testid^=bid-]")
            _tab_to(page, "[data-testid^=bid-]" if bids.count() else "[data-testid=pass]")
        elif page.get_by_test_id("suit-S").count():
            _tab_to(page, "[data-testid=suit-S]")
        else:
            _tab_to(page, "button.hand-card.legal")
        _enter(page)
    expect(page.get_by_test_id("game-over")).to_be_visible()
    if auction:
        expect(page.get_by_test_id("bids")).to_be_visible()
    _tab_to(page, "[data-testid=again]")
    _enter(page)
    expect(page.locator("button.hand-card, [data-testid=pass]").first).to_be_visible()


def test_the_table_on_a_desk_screen(page: Page) -> None:
    page.goto("/practice/")
    page.get_by_test_id("start").click()
    expect(page.locator("button.hand-card").first).to_be_visible()
    _fits(page)
    screenshot(page, "practice-desk", full_page=True)
