"""The practice table's levels on a phone (390×844): a learner chooses a strong partner and
strong opponents, plays a whole hand with the hint open (the strong player's card and its
chances in words) and reaches the hand's summary; nothing wider than the phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ContextFactory

pytestmark = [pytest.mark.browser, pytest.mark.any_database]


@pytest.fixture
def phone390(new_context: ContextFactory) -> Page:
    return new_context(phone=True, viewport={"width": 390, "height": 844}).new_page()


def test_a_hand_against_strong_players_with_the_hint_on_a_phone(phone390: Page) -> None:
    phone = phone390
    phone.goto("/practice/")
    phone.get_by_label("Cape Breton 45").check()
    phone.get_by_role("group", name="How well does your partner play?").get_by_label(
        "strong"
    ).check()
    phone.get_by_role("group", name="How well do your opponents play?").get_by_label(
        "strong"
    ).check()
    phone.get_by_test_id("start").click()
    expect(phone.get_by_test_id("levels")).to_have_text("Partner: strong · opponents: strong")
    hints = 0
    for _ in range(40):
        if phone.get_by_test_id("hand-over").count() or phone.get_by_test_id("game-over").count():
            break
        if phone.get_by_test_id("decline").count():
            phone.get_by_test_id("decline").click()
            continue
        legal = phone.locator("button.hand-card.legal")
        if legal.count() > 1 and phone.get_by_test_id("hint").count():
            phone.get_by_test_id("hint").click()
            expect(phone.locator("details.hint[open]")).to_contain_text("times in 10")
            hints += 1
        if legal.count():
            legal.first.click()
        else:  # a hand card to throw away as the dealer
            phone.locator("button.hand-card").first.click()
    assert hints, "no choice of card came with a hint"
    expect(phone.get_by_test_id("hand-over").or_(phone.get_by_test_id("game-over"))).to_be_visible()
    wide = phone.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0
