"""Prizes as the hall pays them, in the browser: a couple first at the end and best at half
time takes two prizes until the organizer ticks "One prize per couple" on the prize set-up;
then it keeps the better (first place) and the next couple moves up to the half-time prize,
on the prize page at desk size and on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.browser.conftest import ContextFactory
from tests.browser.helpers import force_login, screenshot
from tests.pages.organizer_helpers import club_people
from tests.prizes.helpers import night

pytestmark = pytest.mark.browser


def test_one_prize_per_couple_set_on_the_page_moves_the_next_couple_up(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    people = club_people("Ours", "ours")
    # After game 2 couples 1 and 3 have two wins each; couple 1 wins every game.
    wins = {1: {1, 2, 3, 4}, 2: {3, 4}, 3: {1, 2}, 4: {3}, 5: set()}
    drive = night(
        wins,
        games=4,
        club=people.club,
        prizes={
            "prize_places": 1,
            "prizes": [{"amount": "50.00"}],
            "half_time": {"after_game": 2, "amount": "10.00"},
            "booby_prize": {"amount": "2.00"},
        },
    )
    context = new_context(viewport={"width": 1280, "height": 800})
    force_login(context, people.organizer, live_server.url)
    page: Page = context.new_page()
    page.goto(f"{live_server.url}/drives/{drive.slug}/prizes/")
    first = page.locator('tr[data-place="1"]')
    half = page.locator('tr[data-place="half-time"]')
    expect(first).to_contain_text("50.00")
    expect(first.locator("td").nth(1)).to_contain_text("1")
    # Couple 1 is also best at half time, with couple 3: a tie for a second prize.
    expect(half.locator("td").nth(1)).to_contain_text("1, 3")
    expect(half).to_have_attribute("data-status", "tie")

    page.get_by_label("One prize per couple").check()
    page.get_by_test_id("prizes-save").click()
    expect(page.get_by_test_id("one-prize-rule")).to_be_visible()
    expect(first.locator("td").nth(1)).to_contain_text("1")
    expect(half.locator("td").nth(1)).to_have_text("3 · 2 wins")
    expect(half).to_have_attribute("data-status", "awarded")
    expect(half).to_contain_text("10.00")
    expect(page.locator('tr[data-place="booby"] td').nth(1)).to_contain_text("5")
    screenshot(page, "prizes-one-per-couple", full_page=True)

    phone = new_context(viewport={"width": 360, "height": 740})
    force_login(phone, people.organizer, live_server.url)
    small = phone.new_page()
    small.goto(f"{live_server.url}/drives/{drive.slug}/prizes/")
    expect(small.get_by_test_id("one-prize-rule")).to_be_visible()
    width = small.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, width
