"""Registration before the night in a real browser: a couple registers on a phone (the club's
type-ahead offers Thérèse from an earlier night), the next couple is wait-listed as the drive is
full, the first cancels by its link and the wait list moves up by itself; the link used again
says so. At the desk the organizer checks the registered couple in with one tap and pairs two
players who came looking for a partner, once confirmed."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from drives.models import Club, Couple, Player, Registration
from drives.services import club_create, couples_register, drive_create, member_add
from tests.browser.conftest import ContextFactory
from tests.browser.helpers import axe_violations, force_login, screenshot, text_size
from tests.factories import UserFactory

pytestmark = pytest.mark.browser

SHOTS = Path("/tmp/registration-shots")


def look(page: Page, name: str) -> None:
    """The committed screenshot (SCREENSHOTS=1) and one to look at after every run."""
    screenshot(page, name, full_page=True)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def register_on_a_phone(page: Page, slug: str, first: str, second: str | None) -> None:
    page.goto(f"/drives/{slug}/register/")
    page.get_by_label("Your name").fill(first)
    if second is None:
        page.get_by_label("I have no partner: I am looking for one").check()
    else:
        page.get_by_label("Your partner's name").fill(second)
    page.get_by_test_id("register").click()


def test_register_cancel_wait_list_and_check_in_at_the_door(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    from django.utils import timezone

    club = club_create(name="St. Mary's Parish Hall")
    Club.objects.filter(pk=club.pk).update(public_names=Club.PublicNames.FULL)  # the type-ahead
    organizer = UserFactory(username="reg-organizer")
    member_add(club=club, user=organizer, role="organizer")
    earlier = drive_create(club=club, name="Friday 45s", date=date(2026, 11, 20))
    couples_register(drive=earlier, couples=[{"players": ["Thérèse Aucoin", "Joe Aucoin"]}])
    therese = Player.objects.get(name="Thérèse Aucoin")
    drive = drive_create(
        club=club,
        name="Christmas 45s",
        date=date.today() + timedelta(days=10),
        venue="Parish hall",
        registration_opens=timezone.now() - timedelta(hours=1),
        registration_closes=timezone.now() + timedelta(days=9),
        capacity=1,
    )

    # A couple registers on a phone, choosing Thérèse in the club's type-ahead.
    phone = new_context(phone=True).new_page()
    phone.goto(f"/drives/{drive.slug}/register/")
    expect(phone.get_by_role("heading", level=1)).to_contain_text("Register for Christmas 45s")
    assert axe_violations(phone) == []
    name = phone.get_by_label("Your name")
    name.click()
    phone.keyboard.type("ther", delay=30)
    option = phone.get_by_role("listbox").get_by_role("option")
    expect(option).to_have_count(1)
    expect(option.first).to_contain_text("Thérèse Aucoin")
    look(phone, "registration-phone-typeahead")
    phone.keyboard.press("ArrowDown")
    phone.keyboard.press("Enter")
    expect(name).to_have_value("Thérèse Aucoin")
    phone.get_by_label("Your partner's name").fill("Joe Aucoin")
    phone.get_by_label("Phone or e-mail (optional, for the club only)").fill("902-555-0101")
    phone.get_by_test_id("register").click()
    answer = phone.get_by_test_id("register-answer")
    expect(answer).to_contain_text("You are registered: couple 1 of the list")
    cancel = phone.get_by_test_id("cancel-link")
    expect(cancel).to_be_visible()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the answer is {width} px wide on a 360 px phone"
    look(phone, "registration-phone-registered")
    first = Registration.objects.get(drive=drive, player1="Thérèse Aucoin")
    assert first.member1_id == therese.pk and first.status == "registered"
    cancel_url = cancel.get_attribute("href")
    assert cancel_url and first.token in cancel_url

    # The drive is full: the next couple is wait-listed, and told what that means.
    other = new_context(phone=True).new_page()
    register_on_a_phone(other, drive.slug, "Mary MacDonald", "Angus MacDonald")
    expect(other.get_by_test_id("register-answer")).to_contain_text(
        "You are on the wait list: number 1"
    )
    look(other, "registration-phone-wait-list")

    # The first couple cancels by its link: the wait list moves up by itself.
    phone.goto(cancel_url)
    phone.get_by_test_id("cancel").click()
    expect(phone.get_by_test_id("cancel-answer")).to_contain_text("Your registration is cancelled")
    assert Registration.objects.get(player1="Mary MacDonald").status == "registered"
    phone.goto(cancel_url)
    expect(phone.get_by_test_id("cancel-answer")).to_contain_text(
        "This registration was already cancelled."
    )
    look(phone, "registration-phone-cancelled-twice")

    # At 200 % text the form still fits the phone's width.
    text_size(other, 200)
    other.goto(f"/drives/{drive.slug}/register/")
    expect(other.get_by_label("Your name")).to_be_visible()
    width = other.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the form is {width} px wide at 200 % text"
    look(other, "registration-phone-200")
    text_size(other, 100)

    # Two players come alone, looking for a partner.
    register_on_a_phone(other, drive.slug, "Flora Gillis", None)
    expect(other.get_by_test_id("register-answer")).to_contain_text("looking for a partner")
    register_on_a_phone(other, drive.slug, "Joe Ng", None)

    # At the desk: one tap checks the registered couple in; the singles are paired.
    desk_context = new_context()
    force_login(desk_context, organizer, live_server.url)
    desk = desk_context.new_page()
    desk.goto(f"/drives/{drive.slug}/couples/")
    section = desk.get_by_test_id("door-registrations")
    expect(section).to_contain_text("Mary MacDonald & Angus MacDonald")
    expect(section).not_to_contain_text("Thérèse")  # cancelled
    assert axe_violations(desk) == []
    look(desk, "registration-door")
    mary = Registration.objects.get(player1="Mary MacDonald")
    desk.get_by_test_id(f"check-in-{mary.pk}").click()
    expect(desk.locator(".messages")).to_contain_text(
        "Mary MacDonald & Angus MacDonald are checked in: couple 1."
    )
    expect(desk.get_by_test_id(f"check-in-{mary.pk}")).to_have_count(0)
    couple = Couple.objects.get(drive=drive)
    assert couple.checked_in and couple.member1_id == mary.member1_id
    desk.get_by_label("Pair this player").select_option(label="Flora Gillis")
    desk.get_by_label("with this player").select_option(label="Joe Ng")
    desk.get_by_test_id("pair").click()
    expect(desk.get_by_test_id("pair-question")).to_contain_text(
        "Make Flora Gillis & Joe Ng a couple of the night, checked in?"
    )
    assert Couple.objects.filter(drive=drive).count() == 1  # asked, nothing done yet
    desk.get_by_test_id("pair-confirm").click()
    expect(desk.locator(".messages")).to_contain_text("are paired and checked in: couple 2.")
    expect(desk.get_by_test_id("door-registrations")).to_have_count(0)
    look(desk, "registration-door-done")
    assert [c.players for c in Couple.objects.filter(drive=drive).order_by("number")] == [
        ["Mary MacDonald", "Angus MacDonald"],
        ["Flora Gillis", "Joe Ng"],
    ]

    # The members' list of registrations.
    desk.goto(f"/drives/{drive.slug}/registrations/")
    expect(desk.get_by_test_id("registrations")).to_contain_text("902-555-0101")
    assert axe_violations(desk) == []
    look(desk, "registration-list")
