"""The prize pages in the browser: the ties page's keys, and the prizes on the projector at
the hall's screen sizes."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scoring.models import Tie
from scoring.prizes.services import prizes_open_ties, tie_choose, tie_cut_record, tie_decide
from tests.browser.conftest import ContextFactory
from tests.browser.helpers import force_login, screenshot
from tests.pages.organizer_helpers import DESK, club_people
from tests.prizes.helpers import night

pytestmark = pytest.mark.browser


def a_cut_under_way() -> tuple[object, Tie, object]:
    """A tie for first place being cut: round 1 drew equal cards, round 2 is to record (the
    page shows round 1's cards one at a time, the reveal listening for Space and →)."""
    people = club_people("Ours", "ours")
    drive = night(
        [5, 5, 2], club=people.club, prizes={"prize_places": 1, "prizes": [{"amount": "9"}]}
    )
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
    page.goto(f"/drives/{drive.slug}/prizes/ties/{tie.pk}/")
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
    for card in page.locator(".cut-card").all():  # every card turned over, both rounds
        # one card every 2 s after the page is shown again: a loaded machine's timers lag
        expect(card).to_be_visible(timeout=15_000)
    screenshot(page, "prizes-tie-settled", full_page=True)


@pytest.mark.parametrize(("width", "height", "least"), [(1920, 1080, 44), (1280, 720, 30)])
def test_the_prizes_on_the_projector_read_from_the_back_of_the_hall(
    new_context: ContextFactory, live_server: LiveServer, width: int, height: int, least: int
) -> None:
    """At the hall's screen sizes the prizes are in large type, the names and prizes on one
    screen, nothing wider than the screen."""
    people = club_people("Ours", "ours")
    drive = night(
        [5, 4, 3, 2, 1],
        club=people.club,
        prizes={
            "prizes": [
                {"amount": "60.00"},
                {"amount": "30.00"},
                {"description": "a Christmas ham"},
            ],
            "booby_prize": {"description": "a wooden spoon"},
        },
    )
    prizes_open_ties(drive=drive, actor=DESK)
    context = new_context(viewport={"width": width, "height": height})
    force_login(context, people.organizer, live_server.url)
    page = context.new_page()
    page.goto(f"/drives/{drive.slug}/projector/?show=prizes")
    wall = page.get_by_test_id("projector-prizes")
    expect(wall.locator('[data-place="1"]')).to_contain_text("60.00 CAD")
    expect(wall.locator('[data-place="3"]')).to_contain_text("a Christmas ham")
    expect(wall.locator('[data-place="booby"]')).to_contain_text("a wooden spoon")
    names = wall.locator(".names").first
    expect(names).to_contain_text("&")
    size = float(names.evaluate("e => getComputedStyle(e).fontSize").removesuffix("px"))
    assert size >= least, f"{size}px at {width}x{height}"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    last = wall.locator("li").last.bounding_box()
    assert last is not None and last["y"] + last["height"] <= height
    screenshot(page, f"projector-prizes-{width}x{height}")


def test_the_prize_pages_fit_a_phone(new_context: ContextFactory, live_server: LiveServer) -> None:
    """The prize table and a tie's choices stay within a 390-pixel screen."""
    people = club_people("Ours", "ours")
    drive = night(
        [5, 5, 3, 2],
        club=people.club,
        prizes={
            "prizes": [{"amount": "60.00"}, {"amount": "30.00"}, {"description": "a Christmas ham"}]
        },
    )
    prizes_open_ties(drive=drive, actor=DESK)
    tie = Tie.objects.get(drive=drive, key="place:1")
    context = new_context(viewport={"width": 390, "height": 844})
    force_login(context, people.organizer, live_server.url)
    page = context.new_page()
    for path in (f"/drives/{drive.slug}/prizes/", f"/drives/{drive.slug}/prizes/ties/{tie.pk}/"):
        page.goto(path)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
    expect(page.get_by_test_id("choose-1-play-off")).to_be_visible()
    screenshot(page, "prizes-tie-phone")
