"""A club's season in the browser: the organizer makes a season, adds three drives, merges
two spellings of one player and sees the season standings; the projector and the phone show
them too (screenshots at desk, projector and phone sizes with SCREENSHOTS=1)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from drives.services import club_create
from tests.browser.conftest import ContextFactory
from tests.browser.helpers import force_login, screenshot
from tests.factories import UserFactory
from tests.seasons.helpers import NIGHTS, make_drive, play_night


def test_a_season_of_three_drives_with_two_spellings_merged(
    new_context: ContextFactory, live_server
) -> None:
    organizer = UserFactory(username="maggie")
    club = club_create(name="St. Joseph's Parish", organizer=organizer)
    drives = []
    for day, couples in NIGHTS.items():
        drive = make_drive(club, day, couples)
        play_night(drive)
        drives.append(drive)
    context = new_context()
    force_login(context, organizer, live_server.url)
    page: Page = context.new_page()

    page.goto("/seasons/")
    page.get_by_text("New season for St. Joseph's Parish").click()
    form = page.get_by_test_id("season-new-st-josephs-parish")
    form.get_by_label("Season name").fill("Fall 2026")
    form.get_by_label("From").fill("2026-09-01")
    form.get_by_label("To", exact=True).fill("2026-12-20")
    form.get_by_test_id("create-season").click()
    expect(page.locator("h1")).to_have_text("Fall 2026")

    for drive in drives:
        adding = page.get_by_test_id("season-add-drive")
        adding.get_by_label("Drive").select_option(drive.slug)
        adding.get_by_role("button", name="Add to the season").click()
        expect(page.locator(".messages")).to_contain_text(f"{drive.name} is in the season")
    expect(page.get_by_test_id("season-drives").locator("tbody tr")).to_have_count(3)
    therese = page.locator('tr[data-player="therese macneil"]')
    expect(therese.locator("td").nth(2)).to_have_text("2")  # two drives under two spellings
    expect(page.locator('tr[data-player="teresa macneil"]')).to_have_count(1)

    page.get_by_test_id("season-players-link").click()
    merge = page.get_by_test_id("merge-form")
    merge.get_by_label("This spelling").select_option("Teresa MacNeil")
    merge.get_by_label("is the same person as").select_option("Thérèse MacNeil")
    merge.get_by_test_id("merge").click()
    expect(page.get_by_test_id("merged-players")).to_contain_text("“Teresa MacNeil”")

    page.get_by_role("link", name="Standings and drives").click()
    therese = page.locator('tr[data-player="therese macneil"]')
    expect(therese.locator("td").nth(2)).to_have_text("3")
    expect(page.locator('tr[data-player="teresa macneil"]')).to_have_count(0)
    # Sorted by the header: by player name.
    page.get_by_role("link", name="Player", exact=True).click()
    names = page.locator("tbody tr[data-player] td:nth-child(2)").all_inner_texts()
    assert names == sorted(names, key=str.casefold)
    page.get_by_role("link", name="Standings and drives").click()
    screenshot(page, "season-standings", full_page=True)

    projector = new_context(viewport={"width": 1920, "height": 1080}).new_page()
    force_login(projector.context, organizer, live_server.url)
    projector.goto(page.url.split("?")[0] + "projector")
    expect(projector.get_by_test_id("season-projector").locator("li")).to_have_count(8)
    screenshot(projector, "season-projector-1920x1080")
    # A small hall screen still shows every player at once (projector.js sizes the type to
    # fit rather than turning pages), each row within the screen.
    projector.set_viewport_size({"width": 1280, "height": 720})
    rows = projector.locator("[data-testid=season-projector] li:visible")
    expect(rows).to_have_count(8)
    expect(projector.locator("[data-pager]")).not_to_contain_text("Page 1 of")
    for box in (rows.nth(i).bounding_box() for i in range(8)):
        assert box is not None and box["y"] + box["height"] <= 720

    phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    force_login(phone.context, organizer, live_server.url)
    phone.goto(page.url.split("?")[0] + "players")
    expect(phone.get_by_test_id("merge-form")).to_be_visible()
    screenshot(phone, "season-players-phone", full_page=True)
