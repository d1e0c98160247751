"""The door's type-ahead in a real browser, by keyboard only: "ther" offers Thérèse from an
earlier night, the arrow key and Enter choose her, and the couple registered is linked to
that very player; Escape closes the list and the name typed stays as typed."""

from __future__ import annotations

from datetime import date

import pytest
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from drives.models import Couple, Player
from drives.services import club_create, couples_register, drive_create, member_add
from tests.browser.conftest import ContextFactory
from tests.browser.helpers import force_login
from tests.factories import UserFactory

pytestmark = pytest.mark.browser


def test_the_door_chooses_a_player_of_an_earlier_night_by_keyboard(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    club = club_create(name="St. Mary's Parish Hall")
    scorer = UserFactory(username="door-scorer")
    member_add(club=club, user=scorer, role="scorer")
    earlier = drive_create(club=club, name="Friday 45s", date=date(2026, 11, 20))
    couples_register(drive=earlier, couples=[{"players": ["Thérèse Aucoin", "Joe Aucoin"]}])
    therese = Player.objects.get(name="Thérèse Aucoin")
    drive = drive_create(club=club, name="Friday 45s", date=date(2026, 11, 27))
    context = new_context()
    force_login(context, scorer, live_server.url)
    page = context.new_page()
    page.goto(f"/drives/{drive.slug}/couples/")
    first = page.locator("#player1")
    expect(first).to_be_focused()
    page.keyboard.type("ther", delay=30)
    options = page.get_by_role("listbox").get_by_role("option")
    expect(options).to_have_count(1)
    expect(options.first).to_contain_text("Thérèse Aucoin")
    expect(first).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("ArrowDown")
    expect(options.first).to_have_attribute("aria-selected", "true")
    page.keyboard.press("Enter")  # chooses her; registers nothing yet
    expect(first).to_have_value("Thérèse Aucoin")
    expect(page.get_by_role("listbox")).to_be_hidden()
    assert not Couple.objects.filter(drive=drive).exists()
    page.keyboard.press("Tab")
    page.keyboard.type("Jo", delay=30)
    expect(page.get_by_role("listbox").get_by_role("option").first).to_contain_text("Joe Aucoin")
    page.keyboard.press("Escape")
    expect(page.locator("#player2")).to_have_attribute("aria-expanded", "false")
    page.keyboard.type("hn Ng", delay=30)
    page.keyboard.press("Escape")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("couple-counts")).to_contain_text("1 couple")
    couple = Couple.objects.get(drive=drive)
    assert couple.players == ["Thérèse Aucoin", "John Ng"]
    assert couple.member1_id == therese.pk
    assert couple.member2.name == "John Ng"
