"""The door in a real browser: couples typed one after the other at typing speed, Enter and
straight on to the next, lose no keystroke; a couple already registered is asked about
without taking the focus; the focus comes back to the first name after "Withdraw… → No, go
back"; and the page still registers without JavaScript."""

from __future__ import annotations

from datetime import date

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from drives.models import Couple, Drive
from drives.services import club_create, couples_register, drive_create, member_add
from tests.browser.conftest import ContextFactory
from tests.browser.helpers import force_login, screenshot
from tests.factories import UserFactory

pytestmark = pytest.mark.browser

# Names the walk-through lost letters of: the next first name typed during the reload.
COUPLES = [
    ("Anne MacKenzie", "Lois MacKenzie"),
    ("Mary MacDonald", "Angus MacDonald"),
    ("Thérèse Aucoin", "Joe Aucoin"),
    ("Flora Gillis", "Dan Gillis"),
    ("Bernadette Poirier", "Leo Poirier"),
    ("Margaret Gillis", "Archie Gillis"),
    ("Rita LeBlanc", "Gerard LeBlanc"),
    ("Catherine MacIsaac", "Ronnie MacIsaac"),
]
DELAY_MS = 30  # a quick typist: about 35 keys a second


def the_door(
    new_context: ContextFactory, live_server: LiveServer, **options: object
) -> tuple[Page, Drive]:
    club = club_create(name="St. Mary's Parish Hall")
    organizer = UserFactory(username="door-organizer")
    member_add(club=club, user=organizer, role="organizer")
    drive = drive_create(club=club, name="Friday 45s", date=date(2026, 11, 27))
    context = new_context(**options)
    force_login(context, organizer, live_server.url)
    return context.new_page(), drive


def test_couples_typed_at_speed_are_registered_exactly(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    page, drive = the_door(new_context, live_server)
    page.goto(f"/drives/{drive.slug}/couples/")
    expect(page.locator("#player1")).to_be_focused()
    for first, second in COUPLES:
        page.keyboard.type(first, delay=DELAY_MS)
        page.keyboard.press("Tab")
        page.keyboard.type(second, delay=DELAY_MS)
        page.keyboard.press("Enter")  # and straight on to the next couple, no waiting
    expect(page.get_by_test_id("couple-counts")).to_contain_text(f"{len(COUPLES)} couples")
    last = len(COUPLES)
    expect(page.locator(".messages .couple-flash .flash-number")).to_have_text(f"Couple {last}")
    expect(page.locator("#player1")).to_be_focused()
    expect(page.locator("#player1")).to_have_value("")
    expect(page.locator(f"#couple-{last}")).to_contain_text(" & ".join(COUPLES[-1]))
    stored = Couple.objects.filter(drive=drive).order_by("number")
    assert [(c.number, c.player1, c.player2) for c in stored] == [
        (n, a, b) for n, (a, b) in enumerate(COUPLES, start=1)
    ]
    assert all(c.checked_in and not c.paid for c in stored)


def test_a_couple_already_registered_is_asked_about_without_taking_the_focus(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    page, drive = the_door(new_context, live_server)
    couples_register(drive=drive, couples=[{"players": ["Mary MacDonald", "Angus MacDonald"]}])
    page.goto(f"/drives/{drive.slug}/couples/")
    page.keyboard.type("angus macdonald", delay=DELAY_MS)
    page.keyboard.press("Tab")
    page.keyboard.type("mary macdonald", delay=DELAY_MS)
    page.keyboard.press("Enter")
    page.keyboard.type("Flora Gillis", delay=DELAY_MS)  # the next couple, at once
    problem = page.get_by_test_id("register-problem")
    expect(problem).to_contain_text("are already couple 1 — register anyway?")
    expect(page.locator("#player1")).to_be_focused()
    expect(page.locator("#player1")).to_have_value("Flora Gillis")
    screenshot(page, "door-duplicate")
    page.keyboard.press("Tab")
    page.keyboard.type("Dan Gillis", delay=DELAY_MS)
    page.keyboard.press("Enter")
    expect(page.locator(".messages .couple-flash .flash-number")).to_have_text("Couple 2")

    page.get_by_test_id("problem-register-anyway").click()
    expect(page.locator(".messages .couple-flash .flash-number")).to_have_text("Couple 3")
    expect(problem).to_have_count(0)
    expect(page.locator("#player1")).to_be_focused()
    stored = Couple.objects.filter(drive=drive).order_by("number")
    assert [c.players for c in stored] == [
        ["Mary MacDonald", "Angus MacDonald"],
        ["Flora Gillis", "Dan Gillis"],
        ["angus macdonald", "mary macdonald"],
    ]


def test_the_focus_comes_back_to_the_first_name_after_withdraw_and_go_back(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    page, drive = the_door(new_context, live_server)
    couples_register(
        drive=drive, couples=[{"players": [f"Ann {i}", f"Joe {i}"]} for i in range(30)]
    )
    page.goto(f"/drives/{drive.slug}/couples/")
    page.get_by_test_id("withdraw-25").click()
    page.get_by_role("link", name="No, go back").click()
    expect(page.locator("#player1")).to_be_focused()
    page.keyboard.type("Rita LeBlanc", delay=DELAY_MS)
    expect(page.locator("#player1")).to_have_value("Rita LeBlanc")
    page.go_back()  # the withdraw page again, then the browser's back button
    page.go_back()
    expect(page.locator("#player1")).to_be_focused()


def test_without_javascript_the_form_posts_and_comes_back(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    page, drive = the_door(new_context, live_server, java_script_enabled=False)
    page.goto(f"/drives/{drive.slug}/couples/")
    page.fill("#player1", "Mary MacDonald")
    page.fill("#player2", "Angus MacDonald")
    with page.expect_navigation():
        page.get_by_test_id("register").click()
    expect(page.locator(".messages .couple-flash .flash-number")).to_have_text("Couple 1")
    page.fill("#player1", "Mary MacDonald")
    page.fill("#player2", "Angus MacDonald")
    with page.expect_navigation():
        page.get_by_test_id("register").click()
    expect(page.locator(".form-errors")).to_contain_text("already couple 1 — register anyway?")
    with page.expect_navigation():
        page.get_by_test_id("register-anyway").click()
    expect(page.locator(".messages .couple-flash .flash-number")).to_have_text("Couple 2")
    assert Couple.objects.filter(drive=drive).count() == 2
