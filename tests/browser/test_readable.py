"""Readable at the sizes older players use, and told what the page does (issue 31, section
4): every page at 320 CSS px, the desk at 125% zoom, the phones at 200% text and 200% zoom,
the couples page at 150% text, every logged-in page at 320 px with 200% text in English and
French; the desk grid says when it waits for the scorer.

How the sizes are made (as in test_accessibility.py): a zoom of Z% on a W×H screen is a
(W/Z)×(H/Z) CSS-pixel viewport at device scale Z/100; "N% text" is the browser's default
font size at N% of 16 px (``text_size``).
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from drives.models import Table
from seasons.services import season_add_drive, season_create
from tests.browser.conftest import ContextFactory
from tests.browser.helpers import CONTRAST_JS, force_login, text_size
from tests.browser.test_accessibility import SMALL_TEXT, fully_in_first_screen
from tests.browser.test_screenshots import PHONE_TABLE, build_night
from tests.factories import UserFactory

# The page's look, not its data: run in CI's SQLite pass only (tests/conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.any_database]

# Each link and button of the site header: whether it lies inside the header's dark band
# (not spilled onto the cream page) and its text's contrast on what it is drawn on.
HEADER_CONTROLS = """() => {
  const band = document.querySelector('.site-header').getBoundingClientRect();
  return [...document.querySelectorAll('.site-header a, .site-header button')].map((el) => {
    const r = el.getBoundingClientRect();
    const inside = r.left >= band.left - 0.5 && r.right <= band.right + 0.5
      && r.top >= band.top - 0.5 && r.bottom <= band.bottom + 0.5;
    const s = getComputedStyle(el);
    return {text: el.textContent.trim(), inside, right: Math.round(r.right),
            ratio: window.__contrast.ratio(s.color, window.__contrast.behind(el))};
  });
}"""


def header_problems(page: Page, width: int) -> dict[str, Any]:
    page.evaluate(CONTRAST_JS)
    controls = page.evaluate(HEADER_CONTROLS)
    bad = [c for c in controls if not c["inside"] or c["ratio"] < 4.5 or c["right"] > width]
    wide = page.evaluate("document.documentElement.scrollWidth")
    return {"wide": wide} if wide > width else {"controls": bad} if bad else {}


def test_the_header_wraps_and_keeps_its_contrast_at_every_width(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    organizer = UserFactory(username="mary", first_name="Mary", is_staff=True)
    scorer = UserFactory(username="angus", first_name="Angus")
    drive = build_night(organizer, scorer)
    d = f"/drives/{drive.slug}"
    pages = ("/", "/drives/", f"{d}/", f"{d}/couples/", f"{d}/desk/", "/seasons/")
    for locale in ("en-CA", "fr-CA"):
        for width in (320, 360, 1280):
            context = new_context(locale=locale, viewport={"width": width, "height": 640})
            force_login(context, organizer, live_server.url)
            page = context.new_page()
            found = {}
            for path in pages:
                page.goto(path)
                problems = header_problems(page, width)
                if problems:
                    found[path] = problems
            assert found == {}, (locale, width, found)
            context.close()


# Every text box and list the user types in or picks from, as drawn: its text size and height.
BOXES = """() => [...document.querySelectorAll('main input, main select, main textarea')]
  .filter((el) => el.type !== 'hidden' && el.type !== 'checkbox' && el.getClientRects().length)
  .map((el) => { const r = el.getBoundingClientRect();
    return {name: el.name, px: parseFloat(getComputedStyle(el).fontSize),
            height: Math.round(r.height), right: Math.round(r.right)}; })"""


def test_the_money_page_has_the_site_s_text_boxes_and_fits_a_small_phone(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    organizer = UserFactory(username="mary", first_name="Mary")
    scorer = UserFactory(username="angus", first_name="Angus")
    drive = build_night(organizer, scorer)
    for width in (320, 1280):
        context = new_context(viewport={"width": width, "height": 800})
        force_login(context, organizer, live_server.url)
        page = context.new_page()
        page.goto(f"/drives/{drive.slug}/money/")
        page.evaluate("document.querySelectorAll('main details').forEach((d) => d.open = true)")
        boxes = page.evaluate(BOXES)
        assert len(boxes) >= 19, boxes
        small = [b for b in boxes if b["px"] < 16 or b["height"] < 44 or b["right"] > width]
        assert small == [], (width, small)
        assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_the_table_page_keeps_who_won_on_a_small_phone_s_first_screen(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    organizer = UserFactory(username="mary", first_name="Mary")
    scorer = UserFactory(username="angus", first_name="Angus")
    drive = build_night(organizer, scorer)
    table = Table.objects.get(drive=drive, number=PHONE_TABLE)
    # A 320×568 phone: at 200% text, at 200% zoom (160×284 CSS px), and as it is.
    for name, size, scale, percent in (
        ("200% text", {"width": 320, "height": 568}, 2, 200),
        ("200% zoom", {"width": 160, "height": 284}, 4, 100),
        ("100%", {"width": 320, "height": 568}, 2, 100),
    ):
        phone = new_context(phone=True, viewport=size, device_scale_factor=scale).new_page()
        if percent != 100:
            text_size(phone, percent)
        phone.goto(f"/t/{table.token}/")
        buttons = fully_in_first_screen(phone, "button.win")
        assert len(buttons) == 2 and all(b["inside"] for b in buttons), (name, buttons)
        assert phone.evaluate("document.documentElement.scrollWidth") <= size["width"], name


# The focused control's box and the sticky entry line's, when the line is sticky.
FOCUS_UNDER_ENTRY = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const entry = document.getElementById('desk-entry');
  const r = el.getBoundingClientRect();
  const e = entry.getBoundingClientRect();
  const sticky = getComputedStyle(entry).position === 'sticky';
  const under = sticky && !entry.contains(el) && e.bottom > r.top && e.top < r.bottom;
  return {name: (el.id || el.textContent.trim()).slice(0, 30), under, top: Math.round(r.top),
          entryBottom: Math.round(e.bottom)};
}"""


def test_a_focused_control_of_the_desk_is_never_under_its_entry_line(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    organizer = UserFactory(username="mary", first_name="Mary")
    scorer = UserFactory(username="angus", first_name="Angus")
    drive = build_night(organizer, scorer)
    # A laptop's 1024×640 at 100% and at 125% zoom (819×512 CSS px), the desk's 1280×800.
    for size, scale in (
        ({"width": 1024, "height": 640}, 1),
        ({"width": 819, "height": 512}, 1.25),
        ({"width": 1280, "height": 800}, 1),
    ):
        context = new_context(viewport=size, device_scale_factor=scale)
        force_login(context, scorer, live_server.url)
        desk = context.new_page()
        desk.goto(f"/drives/{drive.slug}/desk/")
        # Forward from the entry line to the grid's last control, then back up to the entry.
        seen, hidden = 0, []
        for key in ["Tab"] * 70 + ["Shift+Tab"] * 70:
            desk.keyboard.press(key)
            where = desk.evaluate(FOCUS_UNDER_ENTRY)
            if where is None:
                continue
            seen += 1
            if where["under"]:
                hidden.append((key, where))
        assert seen > 100 and hidden == [], (size, scale, hidden)


def test_the_desk_grid_says_it_waits_while_the_focus_is_in_it(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    organizer = UserFactory(username="mary", first_name="Mary")
    scorer = UserFactory(username="angus", first_name="Angus")
    drive = build_night(organizer, scorer)
    context = new_context()
    force_login(context, scorer, live_server.url)
    desk = context.new_page()
    desk.goto(f"/drives/{drive.slug}/desk/")
    note = desk.locator("#desk-grid [data-poll-paused]")
    expect(note).to_have_attribute("aria-live", "polite")  # read out when it changes
    expect(note).to_have_text("")
    for _ in range(30):  # Tab from the entry line into the grid
        desk.keyboard.press("Tab")
        if desk.evaluate("document.getElementById('desk-grid').contains(document.activeElement)"):
            break
    expect(note).to_have_text("Paused while you type — resumes when you leave the grid")
    expect(note).to_be_visible()
    desk.locator("#desk-table").focus()  # back to the entry line: the grid refreshes again
    expect(note).to_have_text("")


def test_the_couples_page_fits_larger_text_and_its_small_words_are_16px(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    organizer = UserFactory(username="mary", first_name="Mary")
    scorer = UserFactory(username="angus", first_name="Angus")
    drive = build_night(organizer, scorer)
    d = f"/drives/{drive.slug}"
    # "Edit" starts the link's name (WCAG 2.5.3: a voice user says what they see).
    context = new_context(viewport={"width": 1280, "height": 800})
    force_login(context, organizer, live_server.url)
    page = context.new_page()
    page.goto(f"{d}/couples/")
    edit = page.get_by_test_id("edit-1")
    expect(edit).to_have_text("Edit")
    expect(edit).to_have_accessible_name("Edit couple 1")
    # Badges, the venue line, the projector's rules line: 16 px or more.
    small = {}
    for path in (f"{d}/couples/", "/drives/", f"{d}/", f"{d}/projector/"):
        page.goto(path)
        found = page.evaluate(SMALL_TEXT)
        if found:
            small[path] = found
    assert small == {}
    # At 150% text on the desk's laptop, 125% on a small one: the page fits the screen.
    for size, percent in (
        ({"width": 1280, "height": 800}, 150),
        ({"width": 1024, "height": 640}, 125),
    ):
        context = new_context(viewport=size)
        force_login(context, organizer, live_server.url)
        page = context.new_page()
        text_size(page, percent)
        page.goto(f"{d}/couples/")
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], percent


# What makes the page wider than the screen: the innermost elements that reach past its right
# edge and are not inside a box that scrolls or clips them (a wide table in its own scroller).
OVERFLOWING = """() => {
  const width = document.documentElement.clientWidth;
  const clipped = (el) => {
    for (let e = el.parentElement; e && e !== document.body; e = e.parentElement) {
      if (getComputedStyle(e).overflowX !== 'visible') return true;
    }
    return false;
  };
  const out = [...document.body.querySelectorAll('*')].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.right > width + 0.5 && !clipped(el);
  });
  return out.filter((el) => !out.some((o) => o !== el && el.contains(o)))
    .map((el) => ({
      el: el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
        + (el.name ? `[name=${el.name}]` : '') + (el.className ? '.' + el.className : ''),
      text: el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40),
      right: Math.round(el.getBoundingClientRect().right)}))
    .sort((a, b) => b.right - a.right).slice(0, 3);
}"""


def test_every_logged_in_page_fits_a_small_phone_at_200_percent_text(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    organizer = UserFactory(username="mary", first_name="Mary", is_staff=True)
    scorer = UserFactory(username="angus", first_name="Angus")
    drive = build_night(organizer, scorer)
    season = season_create(
        club=drive.club, name="2026-2027", starts=date(2026, 9, 1), ends=date(2027, 5, 31)
    )
    season_add_drive(season=season, drive=drive)
    d = f"/drives/{drive.slug}"
    pages = (
        "/",
        "/drives/",
        f"{d}/",
        f"{d}/couples/",
        f"{d}/desk/",
        f"{d}/prizes/",
        f"{d}/standings/",
        f"{d}/money/",
        f"{d}/settings",
        f"{d}/print/",
        "/seasons/",
        f"/clubs/{drive.club.slug}/seasons/{season.slug}/",
    )
    # A 320×568 phone with the browser's text at 200%: only a wide table may scroll, in its box.
    wide = {}
    for locale in ("en-CA", "fr-CA"):
        context = new_context(locale=locale, viewport={"width": 320, "height": 568})
        force_login(context, organizer, live_server.url)
        page = context.new_page()
        text_size(page, 200)
        for path in pages:
            page.goto(path)
            if page.evaluate("document.documentElement.scrollWidth") > 320:
                wide[f"{locale} {path}"] = page.evaluate(OVERFLOWING)
        context.close()
    assert wide == {}, wide
