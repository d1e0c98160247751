"""The club's public pages in the browser, with no login: the club's page and a player's page
at a desk's size, on a phone of 360 px at 200 % text (nothing wider than the screen), printed
(no header, no page links), and with the club showing no names, a player reaching their own page
from their couple's page. Screenshots of each into the test's own folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from club.public import shown_name
from drives.models import Club, Couple
from drives.services import club_create
from tests.browser.conftest import ContextFactory
from tests.browser.helpers import axe_violations, text_size
from tests.club.world import club_world


def wide(page: Page) -> int:
    """How much wider than the screen the page is (0: it fits)."""
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def shot(page: Page, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True, animations="disabled")


def test_the_club_and_a_players_page_at_desk_and_phone_sizes(
    new_context: ContextFactory, live_server: Any, tmp_path: Path
) -> None:
    club = club_create(name="St. Joseph's Parish")
    world = club_world(club, players=60, nights=24, couples=7, games=4)
    regular = world.players[0]
    desk = new_context().new_page()

    desk.goto(f"/clubs/{club.slug}/")
    expect(desk.locator("h1")).to_have_text("St. Joseph's Parish")
    expect(desk.get_by_test_id("past-nights").locator("tbody tr")).to_have_count(20)
    expect(desk.get_by_test_id("season-standings")).to_be_visible()
    assert axe_violations(desk) == []
    shot(desk, tmp_path, "club-desk")
    desk.get_by_role("link", name="Older nights").click()
    expect(desk.get_by_test_id("past-nights").locator("tbody tr")).to_have_count(4)

    desk.goto(f"/clubs/{club.slug}/")
    name = shown_name(regular.name, "initial")
    desk.get_by_test_id("season-standings").get_by_role("link", name=name).first.click()
    expect(desk.locator("h1")).to_have_text(name)
    expect(desk.get_by_test_id("player-nights").locator("tbody tr")).to_have_count(24)
    expect(desk.get_by_test_id("partners")).to_be_visible()
    assert axe_violations(desk) == []
    shot(desk, tmp_path, "player-desk")

    # Printed: the content only.
    desk.emulate_media(media="print")
    expect(desk.locator(".site-header")).to_be_hidden()
    shot(desk, tmp_path, "player-print")
    desk.goto(f"/clubs/{club.slug}/")
    expect(desk.locator(".pages")).to_be_hidden()
    shot(desk, tmp_path, "club-print")

    phone = new_context(phone=True).new_page()
    text_size(phone, 200)
    for path, name in (
        (f"/clubs/{club.slug}/", "club-phone"),
        (f"/clubs/{club.slug}/players/{regular.pk}/", "player-phone"),
    ):
        phone.goto(path)
        expect(phone.locator("h1")).to_be_visible()
        assert wide(phone) <= 1, (path, wide(phone))
        assert axe_violations(phone) == []
        shot(phone, tmp_path, name)


def test_with_no_names_a_player_reaches_their_own_page_from_their_couple(
    new_context: ContextFactory, live_server: Any, tmp_path: Path
) -> None:
    club = club_create(name="Legion Branch 12")
    Club.objects.filter(pk=club.pk).update(public_names=Club.PublicNames.NONE)
    world = club_world(club, players=30, nights=3, couples=5, games=3)
    couple = Couple.objects.get(drive=world.drives[-1], number=1)
    phone = new_context(phone=True).new_page()

    phone.goto(f"/clubs/{club.slug}/")
    expect(phone.get_by_test_id("no-names")).to_be_visible()
    expect(phone.locator(f'a[href^="/clubs/{club.slug}/players/"]')).to_have_count(0)
    shot(phone, tmp_path, "club-no-names-phone")
    assert phone.goto(f"/clubs/{club.slug}/players/{couple.member1_id}/").status == 404

    phone.goto(f"/c/{couple.token}/")
    phone.get_by_test_id("own-pages").get_by_role(
        "link", name=f"{couple.player1}'s nights at the club"
    ).click()
    expect(phone.locator("h1")).to_have_text(couple.player1)
    expect(phone.get_by_test_id("own-page")).to_be_visible()
    expect(phone.get_by_test_id("player-nights").locator("tbody tr")).to_have_count(3)
    assert wide(phone) <= 1
    assert axe_violations(phone) == []
    shot(phone, tmp_path, "own-page-phone")
