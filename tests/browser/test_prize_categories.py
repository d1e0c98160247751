"""The hall's named prizes in the browser: the organizer names one on the prize page, the prize
table shows who takes it, and the projector says it from the back of the hall."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scoring.models import PrizeCategory
from scoring.prizes.services import prizes_open_ties
from tests.browser.conftest import ContextFactory
from tests.browser.helpers import axe_violations, force_login, screenshot
from tests.pages.organizer_helpers import DESK, club_people
from tests.prizes.helpers import night

pytestmark = pytest.mark.browser


def test_the_organizer_names_a_prize_and_the_hall_sees_who_takes_it(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    people = club_people("Ours", "ours")
    # Couple 3 loses every one of the six games; couple 4 wins them all.
    drive = night(
        {1: {1, 5}, 2: {2, 3, 4, 6}, 3: set(), 4: {1, 2, 3, 4, 5, 6}, 5: {6}},
        club=people.club,
        prizes={"prizes": [{"amount": "60.00"}, {"amount": "30.00"}, {"amount": "15.00"}]},
    )
    context = new_context(viewport={"width": 360, "height": 800})
    force_login(context, people.organizer, live_server.url)
    page: Page = context.new_page()
    page.goto(f"/drives/{drive.slug}/prizes/")
    named = page.get_by_test_id("categories")
    named.get_by_label("Named prize 1", exact=True).fill("Hard luck")
    named.get_by_label("Named prize 1: its rule").select_option("most_lost_in_a_row")
    named.get_by_label("Named prize 1: its prize").fill("10")
    page.get_by_test_id("prizes-save").click()
    row = page.get_by_test_id("prize-table").locator('[data-place="category-1"]')
    expect(row).to_contain_text("Hard luck")
    expect(row).to_contain_text("most games lost in a row")
    expect(row).to_contain_text("10.00")
    expect(row.locator("td").nth(1)).to_contain_text("3")  # couple 3, six games in a row
    assert [(c.name, c.rule) for c in PrizeCategory.objects.filter(drive=drive)] == [
        ("Hard luck", "most_lost_in_a_row")
    ]
    # A second row is offered for the next one; a name twice is refused in words.
    page.get_by_label("Named prize 2", exact=True).fill("hard luck")
    page.get_by_label("Named prize 2: its prize").fill("5")
    page.get_by_test_id("prizes-save").click()
    expect(page.get_by_test_id("setup-error")).to_contain_text("Two named prizes have one name")
    assert PrizeCategory.objects.filter(drive=drive).count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert axe_violations(page) == []
    screenshot(page, "prizes-named-prize-phone", full_page=True)
    if os.environ.get("CATEGORY_SHOT"):
        page.screenshot(path=os.environ["CATEGORY_SHOT"], full_page=True)

    prizes_open_ties(drive=drive, actor=DESK)
    projector = context.new_page()
    projector.set_viewport_size({"width": 1280, "height": 720})
    projector.goto(f"/drives/{drive.slug}/projector/?show=prizes")
    wall = projector.get_by_test_id("projector-prizes")
    hard = wall.locator('[data-place="category-1"]')
    expect(hard).to_contain_text("Hard luck")
    expect(hard).to_contain_text("10.00 CAD")
    if os.environ.get("CATEGORY_SHOT"):
        projector.screenshot(path=os.environ["CATEGORY_SHOT"].replace(".png", "-projector.png"))
