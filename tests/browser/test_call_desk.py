"""A table calls the desk from its phone while the desk types a result: the call shows on the
desk grid at once and the desk's half-typed line stays; the desk says it is on its way and the
phone shows "On my way"; the desk closes the call and the phone may call again; then the line
the desk typed goes in.

The night: eight couples seated by number, so table t seats couples 2t-1 and 2t.
"""

import pytest
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from scoring.models import Result, TableCall
from tests.browser.conftest import ContextFactory
from tests.browser.helpers import axe_violations, screenshot
from tests.browser.test_desk_entry import desk_page, started_night, type_line

pytestmark = pytest.mark.browser

# Told by the page's stream, or at the next poll: a few seconds on a shared machine.
SOON = 15_000


def test_a_phone_calls_the_desk_while_the_desk_types(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    drive, scorer = started_night(8)
    desk = desk_page(new_context, live_server, drive, scorer)
    desk.set_viewport_size({"width": 1280, "height": 800})
    type_line(desk, "3", "Tab", "5")  # table 3, couple 5 won: not sent yet
    expect(desk.locator("#desk-winner")).to_have_value("5")

    phone = new_context(phone=True).new_page()
    phone.goto(f"/t/{drive.tables.get(number=2).token}/")
    form = phone.locator("#call-desk")
    expect(form.get_by_role("button", name="Call the desk to table 2")).to_be_visible()
    form.get_by_label("Why (optional)").select_option("A renege claim")
    form.get_by_label("In your own words (optional)").fill("couple 4 says no")
    screenshot(phone, "phone-call-desk")
    form.get_by_role("button", name="Call the desk to table 2").click()
    expect(phone.get_by_test_id("table-status")).to_have_text(
        "The desk knows: someone is coming to your table."
    )
    expect(phone.get_by_test_id("call-state")).to_contain_text("The desk knows", timeout=SOON)
    expect(phone.get_by_test_id("call-desk-section")).to_be_hidden()
    call = TableCall.objects.get()
    assert call.reason == "A renege claim — couple 4 says no"

    # The desk sees the call at once, and its typed line is still there.
    waiting = desk.get_by_test_id("desk-call-2")
    expect(waiting).to_contain_text("Table 2 needs the desk", timeout=SOON)
    expect(waiting).to_contain_text("A renege claim — couple 4 says no")
    expect(waiting).to_contain_text("waiting 0 min")
    expect(desk.locator("#desk-table")).to_have_value("3")
    expect(desk.locator("#desk-winner")).to_have_value("5")
    screenshot(desk, "desk-call-waiting")
    assert axe_violations(desk) == []

    desk.get_by_test_id("call-answer-2").click()
    expect(desk.get_by_test_id("desk-status")).to_contain_text("on its way")
    expect(phone.get_by_test_id("call-state")).to_contain_text(
        "On my way: the desk is coming to your table.", timeout=SOON
    )
    screenshot(phone, "phone-call-on-my-way")
    assert axe_violations(phone) == []
    expect(desk.get_by_test_id("desk-call-2")).to_contain_text("on my way")

    desk.get_by_test_id("call-close-2").click()
    expect(desk.get_by_test_id("desk-calls")).to_have_count(0, timeout=SOON)
    expect(phone.get_by_test_id("call-state")).to_have_count(0, timeout=SOON)
    expect(phone.get_by_test_id("call-desk-section")).to_be_visible()
    assert TableCall.objects.get().state == "closed"

    # The line the desk had typed before the call goes in as typed.
    desk.locator("#desk-winner").focus()
    desk.keyboard.press("Enter")
    expect(desk.get_by_test_id("desk-status")).to_contain_text("Table 3: couple 5 won")
    result = Result.objects.get()
    assert (result.seat.table.number, result.winner.number) == (3, 5)
