"""The door in a real browser: couples typed one after the other at typing speed, Enter and
straight on to the next, lose no keystroke; a couple already registered is asked about
without taking the focus; the focus comes back to the first name after "Withdraw… → No, go
back"; and the page still registers without JavaScript."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.auth.models import User
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


def test_the_duplicate_question_sits_above_the_last_banner_next_to_the_names(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    """A couple registered at the door (its big banner), then the same two people again while
    the next names are typed: the question comes where the eyes are, above that banner and
    right above the name fields, in view on a laptop and on a phone; it is announced, and the
    focus stays in the next names."""
    laptop, drive = the_door(new_context, live_server)
    phone = new_context(viewport={"width": 390, "height": 844})
    force_login(phone, User.objects.get(username="door-organizer"), live_server.url)
    for n, page in enumerate((laptop, phone.new_page())):
        page.goto(f"/drives/{drive.slug}/couples/")
        mary, angus = f"Mary MacDonald {n}", f"Angus MacDonald {n}"
        page.keyboard.type(mary, delay=DELAY_MS)
        page.keyboard.press("Tab")
        page.keyboard.type(angus, delay=DELAY_MS)
        page.keyboard.press("Enter")
        banner = page.locator(".messages .couple-flash")
        expect(banner.locator(".flash-number")).to_have_text(f"Couple {n + 1}")
        expect(page.locator("#player1")).to_be_in_viewport(ratio=1)
        page.keyboard.type(angus.lower(), delay=DELAY_MS)
        page.keyboard.press("Tab")
        page.keyboard.type(mary.lower(), delay=DELAY_MS)
        page.keyboard.press("Enter")
        page.keyboard.type("Flora Gillis", delay=DELAY_MS)
        problem = page.get_by_test_id("register-problem")
        expect(problem).to_contain_text(f"are already couple {n + 1} — register anyway?")
        expect(problem).to_have_attribute("role", "alert")
        expect(page.locator("#player1")).to_be_focused()
        expect(page.locator("#player1")).to_have_value("Flora Gillis")
        question, flash = problem.bounding_box(), banner.bounding_box()
        names = page.locator("#player1").bounding_box()
        assert question and flash and names
        # The question, then the banner, then the names, one right after the other.
        assert 0 <= flash["y"] - (question["y"] + question["height"]) < 40
        assert 0 <= names["y"] - (flash["y"] + flash["height"]) < 80
        expect(problem).to_be_in_viewport(ratio=1)  # the whole question
        expect(page.locator("#player1")).to_be_in_viewport(ratio=1)
        if n == 0:
            screenshot(page, "door-duplicate-after-a-couple")


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
