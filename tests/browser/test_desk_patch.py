"""A desk left open while results come in from the tables: its polls say which grid the page
shows and get back only the rows that changed, put in place of theirs; the rest of the grid
(and what the scorer is doing in it) stays. A patch that does not fit the page brings the
whole grid instead.

The night: twelve couples seated by number, so table t seats couples 2t-1 and 2t.
"""

import pytest
from playwright.sync_api import Page, Request, expect
from pytest_django.live_server_helper import LiveServer

from drives.models import AuditEntry, Drive
from drives.services import Actor
from scoring.services import result_record
from tests.browser.conftest import ContextFactory
from tests.browser.helpers import force_login, js_errors, screenshot
from tests.browser.test_desk_entry import started_night

pytestmark = pytest.mark.browser

TABLE = Actor(channel=AuditEntry.Channel.TABLE)


def open_desk(
    new_context: ContextFactory, live_server: LiveServer, drive: Drive, scorer
) -> tuple[Page, list[dict[str, str]]]:
    """The desk's page, with the headers of every poll of its grid it sends."""
    context = new_context()
    force_login(context, scorer, live_server.url)
    page = context.new_page()
    polls: list[dict[str, str]] = []

    def seen(request: Request) -> None:
        if "partial=grid" in request.url:
            polls.append(request.headers)

    page.on("request", seen)
    page.goto(f"/drives/{drive.slug}/desk/")
    expect(page.locator("#desk-table")).to_be_focused()
    return page, polls


def test_the_rows_that_changed_come_in_and_the_rest_of_the_grid_stays(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    drive, scorer = started_night(12)
    desk, polls = open_desk(new_context, live_server, drive, scorer)
    grid = desk.locator("#desk-grid")
    # The scorer has typed half a line; a row of the grid is marked (as a script would see it).
    desk.keyboard.type("5", delay=40)
    desk.evaluate("document.getElementById('table-4').dataset.seen = 'yes'")
    version = grid.get_attribute("data-version")
    result_record(drive=drive, game=1, table=2, winner=3, actor=TABLE)
    result_record(drive=drive, game=1, table=6, winner=12, actor=TABLE)
    expect(desk.locator("#table-2")).to_have_attribute("data-winner", "3")
    expect(desk.locator("#table-6")).to_have_attribute("data-winner", "12")
    expect(desk.get_by_test_id("desk-summary")).to_contain_text("2 of 6 tables reported")
    assert grid.get_attribute("data-version") != version
    assert grid.get_attribute("data-patch-of") is None
    # The poll said which grid the page showed, and only the two rows came: the others are the
    # page's own (the mark is still there), six rows in all, in order.
    assert any(headers.get("x-poll-have") == version for headers in polls)
    assert desk.locator("#table-4").get_attribute("data-seen") == "yes"
    numbers = desk.locator("#desk-grid tbody tr").evaluate_all(
        "rows => rows.map(row => row.dataset.table)"
    )
    assert numbers == ["1", "2", "3", "4", "5", "6"]
    # What was typed is as it was, and the line still works.
    expect(desk.locator("#desk-table")).to_have_value("5")
    expect(desk.locator("#desk-table")).to_be_focused()
    desk.keyboard.press("Enter")
    desk.keyboard.type("9", delay=40)
    desk.keyboard.press("Enter")
    expect(desk.get_by_test_id("desk-status")).to_have_text("Table 5: couple 9 won (game 1).")
    expect(desk.locator("#table-5")).to_have_attribute("data-winner", "9")
    screenshot(desk, "desk-patched")
    assert js_errors(desk) == []


def test_a_patch_that_does_not_fit_the_page_brings_the_whole_grid(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    drive, scorer = started_night(12)
    desk, polls = open_desk(new_context, live_server, drive, scorer)
    # The page has lost a row (as if it had drifted from what the server sent).
    desk.evaluate("document.getElementById('table-3').remove()")
    result_record(drive=drive, game=1, table=3, winner=6, actor=TABLE)
    # The patch brings table 3's row, which the page does not have: the whole grid is asked
    # for at once, without saying which grid the page shows, and it has every row again.
    expect(desk.locator("#table-3")).to_have_attribute("data-winner", "6")
    assert desk.locator("#desk-grid tbody tr").count() == 6
    assert any("x-poll-have" not in headers for headers in polls[1:])
    assert js_errors(desk) == []
