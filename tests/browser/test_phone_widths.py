"""Every page of a night at a phone's width (390 × 844): no page is wider than the phone, a
table wider than its box scrolls inside it and says so (a fade and a "swipe" hint), its
first column stays in view while the others scroll, and nothing is out of reach (the desk
grid's "won" buttons, the win grid's games, the standings' last columns, the prize table).

Two nights: one in progress (the pages of the game in play) and one over, its prizes tied and
its results published (prizes, a tie, the public results, a couple's record of the night).
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from drives.models import Couple, Drive, Table
from drives.services import drive_close, drive_update
from scoring.models import Tie
from scoring.pages.phone import TABLE_POLL_SECONDS
from scoring.prizes.services import prizes_open_ties
from tests.browser.conftest import ContextFactory
from tests.browser.helpers import force_login, screenshot
from tests.browser.test_screenshots import PHONE_TABLE, build_night
from tests.factories import UserFactory
from tests.pages.live_helpers import night, people
from tests.prizes.helpers import DESK
from tests.prizes.helpers import night as finished_night

# The page's look, not its data: run in CI's SQLite pass only (tests/conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.any_database]

WIDTH, HEIGHT = 390, 844
BOXES = ".table-scroll, .grid-scroll, .table-container"

# Every box in which a table scrolls sideways (a wrapper, or a table that is its own box on
# a narrow screen), with whether its content is wider than it and whether it says so.
SCROLL_BOXES = """(boxes) => {
  const found = [...document.querySelectorAll(boxes)];
  for (const table of document.querySelectorAll("main table")) {
    const overflow = getComputedStyle(table).overflowX;
    if (!table.parentElement.closest(boxes) && (overflow === "auto" || overflow === "scroll")) {
      found.push(table);
    }
  }
  return found.map((box) => {
    const hint = box.previousElementSibling;
    return {
      table: (box.matches("table") ? box : box.querySelector("table"))?.className || "?",
      scrolls: box.scrollWidth > box.clientWidth + 1,
      marked: box.getAttribute("data-scrolls"),
      hint: !!hint && hint.classList.contains("scroll-hint") && !hint.hidden
        && hint.getBoundingClientRect().height > 0,
    };
  });
}"""


def finished(club: Any) -> tuple[Drive, Tie]:
    drive = finished_night(
        [9, 9, 7, 6, 6, 5, 4, 4, 3, 2, 1, 1],
        club=club,
        games=10,
        cookie_jar=[1, 2, 3],
        prizes={
            "prizes": [
                {"amount": "60.00"},
                {"amount": "30.00"},
                {"description": "A hand-knit afghan, a tin of oatcakes and a pound of tea"},
            ],
            "cookie_jar": True,
            "buy_in": "2.00",
            "jackpot_threshold": 9,
            "jackpot_amount": "25.00",
        },
    )
    prizes_open_ties(drive=drive, actor=DESK)
    drive_close(drive=drive, actor=DESK)
    drive_update(drive=drive, actor=DESK, published=True)
    return drive, Tie.objects.filter(drive=drive).order_by("id").first()


def check_width(phone: Page, path: str) -> list[dict[str, Any]]:
    """Open ``path``; the page fits the phone; every table that scrolls carries the hint."""
    response = phone.goto(path)
    assert response is not None and response.status in (200, 410), (path, response.status)
    phone.wait_for_load_state("load")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= WIDTH, f"{path} is {width} px wide on a {WIDTH} px phone"
    boxes = phone.evaluate(SCROLL_BOXES, BOXES)
    for box in boxes:
        if box["scrolls"]:
            assert box["marked"] in ("start", "middle", "end"), (path, box)
            assert box["hint"], (path, box)
        else:
            assert box["marked"] is None, (path, box)
    return boxes


def test_every_page_fits_a_phone_and_its_wide_tables_say_they_scroll(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    organizer = UserFactory(username="mary", first_name="Mary")
    scorer = UserFactory(username="angus", first_name="Angus")
    drive = build_night(organizer, scorer)
    over, tie = finished(drive.club)
    context = new_context(phone=True, viewport={"width": WIDTH, "height": HEIGHT})
    force_login(context, organizer, live_server.url)
    phone = context.new_page()
    d, o = f"/drives/{drive.slug}", f"/drives/{over.slug}"
    table = Table.objects.get(drive=drive, number=PHONE_TABLE)
    couple = Couple.objects.get(drive=drive, number=1)
    pages = {
        "dashboard": f"{d}/",
        "desk": f"{d}/desk/",
        "standings": f"{d}/standings/",
        "win grid": f"{d}/grid/",
        "prizes": f"{o}/prizes/",
        "tie": f"{o}/prizes/ties/{tie.pk}/",
        "print": f"{d}/print/",
        "door": f"{d}/couples/",
        "couple page": f"/c/{couple.token}/",
        "table page": f"/t/{table.token}/",
        "projector": f"{d}/projector/",
        "public results": f"/results/{over.slug}/",
        "couple's record": f"/c/{Couple.objects.get(drive=over, number=1).token}/",
    }
    scrolling = {
        name
        for name, path in pages.items()
        if any(box["scrolls"] for box in check_width(phone, path))
    }
    # The pages whose tables are wider than a phone: each scrolled inside its box, with a hint.
    # (The prize table was one; it now fits a phone in its own right.)
    assert {"desk", "standings", "win grid", "public results"} <= scrolling


def test_the_first_column_stays_in_view_and_the_last_ones_are_reachable(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    organizer = UserFactory(username="mary", first_name="Mary")
    scorer = UserFactory(username="angus", first_name="Angus")
    drive = build_night(organizer, scorer)
    context = new_context(phone=True, viewport={"width": WIDTH, "height": HEIGHT})
    force_login(context, organizer, live_server.url)
    phone = context.new_page()

    # The win grid: the couple column stays while the games scroll to the last one.
    phone.goto(f"/drives/{drive.slug}/grid/")
    box = phone.locator(".table-container").first
    first = phone.locator(".win-grid tbody tr").first.locator("td, th").first
    before = first.bounding_box()
    box.evaluate("(el) => { el.scrollLeft = el.scrollWidth; }")
    expect(box).to_have_attribute("data-scrolls", "end")
    after = first.bounding_box()
    assert before is not None and after is not None and after["x"] == before["x"]
    last = phone.locator(".win-grid thead th").last
    last.scroll_into_view_if_needed()
    expect(last).to_be_in_viewport()

    # The desk grid: a missing table's "won" buttons, beyond the phone's width, are reached.
    phone.goto(f"/drives/{drive.slug}/desk/")
    grid = phone.locator(".grid-scroll")
    expect(grid).to_have_attribute("data-scrolls", "start")
    button = phone.locator(f"[data-testid^='desk-win-{PHONE_TABLE}-']").first
    number = phone.locator(f"#table-{PHONE_TABLE} th")
    button.scroll_into_view_if_needed()
    expect(button).to_be_in_viewport()
    expect(number).to_be_in_viewport()  # the table's number stays beside its buttons
    expect(grid).not_to_have_attribute("data-scrolls", "start")


def test_a_wrong_tap_is_undone_on_the_phone(new_context: ContextFactory) -> None:
    """With the page's script on: the tap goes through the API, the Undo appears with the
    result, and the Undo (a plain form) brings the buttons back for the right tap."""
    drive = night(people().club, 4)
    phone = new_context(phone=True, viewport={"width": WIDTH, "height": HEIGHT}).new_page()
    phone.goto(f"/t/{Table.objects.get(drive=drive, number=1).token}/")
    phone.get_by_test_id("win-2").tap()
    status = phone.get_by_test_id("table-status")
    expect(status).to_have_text("Saved ✓ Couple 2 won.")
    undo = phone.get_by_test_id("undo")
    expect(undo).to_be_visible()
    screenshot(phone, "table-phone-undo", full_page=True)
    with phone.expect_navigation():
        undo.tap()
    expect(status).to_contain_text("Undone")
    phone.get_by_test_id("win-1").tap()
    expect(status).to_have_text("Saved ✓ Couple 1 won.")
    result = drive.tables.get(number=1).seats.get().result
    assert (result.winner.number, result.state) == (1, "accepted")
    kinds = list(result.versions.order_by("at", "id").values_list("kind", flat=True))
    assert kinds == ["entered", "undone", "entered"]


def test_only_the_phone_that_tapped_is_offered_the_undo(new_context: ContextFactory) -> None:
    """Both couples open the table card on their phones (a big one and a small one): the tap
    goes through the API from one; that phone gets Undo, the other is told who entered it,
    at once and on its next poll."""
    drive = night(people().club, 4)
    url = f"/t/{Table.objects.get(drive=drive, number=1).token}/"
    tapper = new_context(phone=True, viewport={"width": WIDTH, "height": HEIGHT}).new_page()
    other = new_context(phone=True, viewport={"width": 320, "height": 568}).new_page()
    tapper.goto(url)
    other.goto(url)
    tapper.get_by_test_id("win-2").tap()
    expect(tapper.get_by_test_id("table-status")).to_have_text("Saved ✓ Couple 2 won.")
    expect(tapper.get_by_test_id("undo")).to_be_visible()
    note = other.get_by_test_id("entered-elsewhere")  # the other phone's poll brings it
    expect(note).to_have_text(
        "Entered by the other couple. Wrong? Call the desk.",
        timeout=(TABLE_POLL_SECONDS + 3) * 1000,
    )
    expect(other.get_by_test_id("undo")).to_have_count(0)
    assert other.evaluate("document.documentElement.scrollWidth") <= 320
    screenshot(other, "table-phone-entered-elsewhere", full_page=True)
    with tapper.expect_navigation():
        tapper.get_by_test_id("undo").tap()
    expect(tapper.get_by_test_id("table-status")).to_contain_text("Undone")
