"""The prize pages in the browser: the ties page's keys, and the prizes on the projector at
the hall's screen sizes."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scoring.models import Tie
from scoring.prizes import prizes_open_ties, tie_choose, tie_cut_record, tie_decide
from tests.browser.conftest import ContextFactory
from tests.browser.helpers import force_login, screenshot
from tests.pages.organizer_helpers import DESK, club_people
from tests.prizes.helpers import night

pytestmark = pytest.mark.browser


def a_cut_under_way() -> tuple[object, Tie, object]:
    """A tie for first place being cut: round 1 drew equal cards, round 2 is to record (the
    page shows round 1's cards one at a time, the reveal listening for Space and →)."""
    people = club_people("Ours", "ours")
    drive = night([5, 5, 2], club=people.club,
                  prizes={"prize_places": 1, "prizes": [{"amount": "9"}]})  # fmt: skip
    prizes_open_ties(drive=drive, actor=DESK)
    tie = Tie.objects.get(drive=drive, key="place:1")
    for n in (1, 2):
        tie_choose(tie=tie, couple=n, choice="cut", actor=DESK)
    tie_decide(tie=tie, actor=DESK)
    tie_cut_record(tie=tie, cards={1: "7H", 2: "7S"}, actor=DESK)
    return drive, tie, people.organizer


def test_keys_on_the_ties_page_belong_to_the_focused_field_or_button(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    drive, tie, organizer = a_cut_under_way()
    context = new_context()
    force_login(context, organizer, live_server.url)
    page: Page = context.new_page()
    page.goto(f"/drives/{drive.slug}/prizes/ties/{tie.pk}/")  # type: ignore[attr-defined]
    expect(page.locator("[data-reveal] .cut-card").first).to_be_visible()
    field = page.get_by_label("Couple 1 drew")
    field.click()
    page.keyboard.type("10 C")
    expect(field).to_have_value("10 C")
    page.keyboard.press("ArrowRight")  # the caret moves; the field keeps its text
    expect(field).to_have_value("10 C")
    page.get_by_label("Couple 2 drew").fill("2H")
    page.get_by_test_id("cut-record").focus()
    page.keyboard.press("Space")
    expect(page.locator(".messages")).to_contain_text(
        "Couple 2 cut the lowest card and takes the prize."
    )
    expect(page.get_by_test_id("tie-settled")).to_be_visible()
    screenshot(page, "prizes-tie-settled")
