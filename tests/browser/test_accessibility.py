"""Readable for the hall's older players: each page at the size its users see it, with larger
text, zoom, high-contrast (forced colours) mode and axe-core's WCAG 2.2 AA rules.

The measures of docs/accessibility.md come from these tests; run them again with
``.venv/bin/pytest tests/browser/test_accessibility.py -q``.

The sizes: the desk 1280×800 (200% zoom: 640×400 CSS pixels at device scale 2; 400%:
320×200), the projector 1920×1080 and 1280×720, the phones 390×844 (150% and 200% text: the
browser's default font size at 24 and 32 px, as Android's "font size" setting does), the
organizer's pages down to 320 px wide.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from drives.models import AuditEntry, Couple, Drive, Table
from drives.services import Actor
from scoring.models import Tie
from scoring.prizes.services import prizes_open_ties, tie_choose
from scoring.selectors import game_view
from scoring.services import result_record
from tests.browser.conftest import ContextFactory
from tests.browser.helpers import (
    CONTRAST_JS,
    axe_violations,
    force_login,
    network_down,
    screenshot,
    text_size,
)
from tests.browser.test_phone_widths import BOXES, SCROLL_BOXES, finished
from tests.browser.test_screenshots import PHONE_TABLE, build_night
from tests.factories import UserFactory
from tests.pages.live_helpers import DESK, night, people
from tests.prizes.helpers import night as finished_night

# The page's look, not its data: run in CI's SQLite pass only (tests/conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.any_database]

DESK_SIZE = {"width": 1280, "height": 800}
PHONE_SIZE = {"width": 390, "height": 844}


def organizer_and_scorer() -> tuple[Any, Any]:
    return (
        UserFactory(username="mary", first_name="Mary"),
        UserFactory(username="angus", first_name="Angus"),
    )


def logged_in(
    new_context: ContextFactory, user: Any, base_url: str, **options: Any
) -> tuple[BrowserContext, Page]:
    context = new_context(**options)
    force_login(context, user, base_url)
    return context, context.new_page()


def phone_page(new_context: ContextFactory, **options: Any) -> Page:
    return new_context(phone=True, viewport=PHONE_SIZE, **options).new_page()


def fully_in_first_screen(page: Page, selector: str) -> list[dict[str, Any]]:
    """Where each element of ``selector`` is, scrolled to the top: whether it is whole on the
    first screen (no scrolling, nothing covering it sideways)."""
    page.evaluate("window.scrollTo(0, 0)")
    return page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)].map((el) => {
          const r = el.getBoundingClientRect();
          return {text: el.textContent.trim().slice(0, 40), top: Math.round(r.top),
                  bottom: Math.round(r.bottom), inside: r.top >= 0 && r.bottom <= innerHeight
                  && r.left >= 0 && r.right <= innerWidth && r.height > 0};
        })""",
        selector,
    )


# --- 1. The desk's sticky entry line at 200% and 400% zoom -------------------------------------


def test_the_desk_entry_leaves_the_grid_in_view_when_zoomed(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    organizer, scorer = organizer_and_scorer()
    drive = build_night(organizer, scorer)
    for zoom, size in (
        (100, DESK_SIZE),
        (200, {"width": 640, "height": 400}),
        (400, {"width": 320, "height": 200}),
    ):
        _, desk = logged_in(
            new_context, scorer, live_server.url, viewport=size, device_scale_factor=zoom / 100
        )
        desk.goto(f"/drives/{drive.slug}/desk/")
        # "Missing: 9" takes the scorer to table 9's row, in full view below the entry line.
        desk.locator(".sum-missing a", has_text=str(PHONE_TABLE)).first.click()
        desk.wait_for_timeout(100)
        where = desk.evaluate(
            """(n) => {
              const entry = document.getElementById('desk-entry').getBoundingClientRect();
              const row = document.getElementById('table-' + n).getBoundingClientRect();
              const sticky = getComputedStyle(document.getElementById('desk-entry')).position;
              return {entryTop: entry.top, entryBottom: entry.bottom, sticky,
                      rowTop: row.top, rowBottom: row.bottom, height: innerHeight};
            }""",
            PHONE_TABLE,
        )
        covered = where["entryBottom"] > where["rowTop"] and where["entryTop"] < where["rowBottom"]
        assert not covered and where["rowTop"] >= -1 and where["rowTop"] < where["height"], (
            zoom,
            where,
        )
        # Scrolled down the grid, the entry line (if it stays) takes at most a third of the
        # screen, so the grid's rows stay readable under it.
        desk.evaluate("window.scrollTo(0, document.body.scrollHeight / 2)")
        entry = desk.locator("#desk-entry").bounding_box()
        assert entry is not None
        visible = max(0.0, min(entry["y"] + entry["height"], size["height"]) - max(entry["y"], 0))
        assert visible <= size["height"] / 3, (zoom, visible, size)
        if zoom == 200:
            screenshot(desk, "desk-zoom-200")


# --- 2. The projector: every couple of a usual night on one screen ------------------------------


@pytest.mark.parametrize(
    ("couples", "size"),
    [
        (60, {"width": 1280, "height": 720}),
        (40, {"width": 1920, "height": 1080}),
        (60, {"width": 1920, "height": 1080}),
    ],
)
def test_the_projector_shows_every_couple_on_one_screen(
    new_context: ContextFactory, live_server: LiveServer, couples: int, size: dict[str, int]
) -> None:
    p = people()
    drive = night(p.club, couples, games=12)
    _, screen = logged_in(new_context, p.scorer, live_server.url, viewport=size)
    screen.goto(f"/drives/{drive.slug}/projector/")
    items = screen.locator("[data-testid='projector-list'] li")
    expect(items).to_have_count(couples)
    screen.wait_for_timeout(300)  # the layout after the first paint
    measures = screen.evaluate(
        """() => {
          const items = [...document.querySelectorAll('[data-testid=projector-list] li')];
          const inside = items.filter((li) => { const r = li.getBoundingClientRect();
            return !li.hidden && r.height > 0 && r.top >= 0 && r.bottom <= innerHeight
              && r.left >= 0 && r.right <= innerWidth; }).length;
          const number = items[0].querySelector('.c');
          const body = getComputedStyle(document.body).fontFamily;
          const controls = document.querySelector('.kiosk-controls');
          const links = [...controls.querySelectorAll('a, button')].filter((a) => !a.hidden);
          return {inside, pager: document.querySelector('[data-pager]').textContent.trim(),
                  numberPx: parseFloat(getComputedStyle(number).fontSize),
                  tablePx: parseFloat(getComputedStyle(items[0].querySelector('.t')).fontSize),
                  font: body, opacity: parseFloat(getComputedStyle(controls).opacity),
                  controlPx: Math.min(...links.map(
                    (a) => parseFloat(getComputedStyle(a).fontSize))),
                  scrolls: document.documentElement.scrollHeight > innerHeight + 1};
        }"""
    )
    assert measures["inside"] == couples and measures["pager"] == "", measures
    assert not measures["scrolls"], measures
    assert measures["numberPx"] >= 0.05 * size["height"], measures
    assert measures["tablePx"] >= 0.05 * size["height"], measures
    assert "serif" in measures["font"] and not measures["font"].startswith(("serif", '"Times')), (
        measures
    )
    assert "sans-serif" in measures["font"], measures
    assert measures["opacity"] == 1 and measures["controlPx"] >= 16, measures
    if couples == 60 and size["height"] == 720:
        screenshot(screen, "projector-60-couples-1280x720")


def test_the_projector_standings_fit_one_screen(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    organizer, scorer = organizer_and_scorer()
    drive = build_night(organizer, scorer)
    _, screen = logged_in(
        new_context, scorer, live_server.url, viewport={"width": 1280, "height": 720}
    )
    screen.goto(f"/drives/{drive.slug}/projector/?show=standings")
    expect(screen.get_by_test_id("projector-standings")).to_be_visible()
    screen.wait_for_timeout(300)
    hidden = screen.evaluate(
        """() => [...document.querySelectorAll('[data-testid=projector-standings] li')]
          .filter((li) => { const r = li.getBoundingClientRect();
            return li.hidden || r.bottom > innerHeight || r.right > innerWidth; }).length"""
    )
    assert hidden == 0
    size = screen.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.proj-standings .c')).fontSize)"
    )
    assert size >= 36


# --- 3. Text boxes outlined at 3:1; a placeholder that does not look typed ----------------------

BOXES_CONTRAST = """() => [...document.querySelectorAll(
    'main input[type=text], main input[type=password], main input[type=number],'
    + ' main input[type=email], main input[type=date], main input:not([type]),'
    + ' main select, main textarea')]
  .filter((el) => el.offsetParent !== null)
  .map((el) => {
    const s = getComputedStyle(el);
    return {box: el.id || el.name, width: parseFloat(s.borderTopWidth),
            ratio: window.__contrast.ratio(s.borderTopColor,
                                           window.__contrast.behind(el.parentElement))};
  })"""


def boxes_below_3_to_1(page: Page) -> list[dict[str, Any]]:
    page.evaluate(CONTRAST_JS)
    boxes = page.evaluate(BOXES_CONTRAST)
    assert boxes, page.url
    return [b for b in boxes if b["ratio"] < 3 or b["width"] < 1]


def test_every_text_box_is_outlined_at_3_to_1(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    organizer, scorer = organizer_and_scorer()
    drive = build_night(organizer, scorer)
    anonymous = new_context(viewport=DESK_SIZE).new_page()
    anonymous.goto("/accounts/login/")
    assert boxes_below_3_to_1(anonymous) == []
    _, page = logged_in(new_context, organizer, live_server.url, viewport=DESK_SIZE)
    for path in ("desk/", "", "print/", "couples/", "settings"):
        page.goto(f"/drives/{drive.slug}/{path}")
        assert boxes_below_3_to_1(page) == [], path
    table = Table.objects.get(drive=drive, number=PHONE_TABLE)
    phone = phone_page(new_context)
    phone.goto(f"/t/{table.token}/")
    assert boxes_below_3_to_1(phone) == []
    # The desk's example score is written beside the box, not inside it as if typed.
    page.goto(f"/drives/{drive.slug}/desk/")
    points = page.locator("#desk-points")
    assert (points.get_attribute("placeholder") or "") == ""
    expect(page.locator("label[for='desk-points']")).to_contain_text("50-40")


# --- 4. The punch card: won, lost and to-play apart without colour, with a legend ---------------

HOLE_LOOKS = """() => {
  const looks = {};
  for (const hole of document.querySelectorAll('[data-testid=punch-card] .hole')) {
    const s = getComputedStyle(hole);
    const after = getComputedStyle(hole, '::after');
    looks[hole.dataset.mark] = [s.borderTopStyle, s.borderTopWidth, s.backgroundColor,
      s.color, after.content, s.boxShadow].join(' | ');
  }
  return looks;
}"""


def test_the_punch_card_tells_won_lost_and_to_play_apart_without_colour(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    organizer, scorer = organizer_and_scorer()
    drive = build_night(organizer, scorer)
    phone = phone_page(new_context)
    for couple in Couple.objects.filter(drive=drive).order_by("number"):
        # A couple with a game won, one lost and games to play.
        phone.goto(f"/c/{couple.token}/")
        marks = set(
            phone.locator("[data-testid=punch-card] .hole").evaluate_all(
                "(holes) => holes.map((h) => h.dataset.mark)"
            )
        )
        if {"W", "L", ""} <= marks:
            break
    assert {"W", "L", ""} <= marks, marks
    legend = phone.get_by_test_id("punch-legend")
    expect(legend).to_be_visible()
    for word in ("Won", "Lost", "To play"):
        expect(legend).to_contain_text(word)
    for forced in ("none", "active"):
        phone.emulate_media(forced_colors=forced)
        looks = phone.evaluate(HOLE_LOOKS)
        assert len(set(looks.values())) == len(looks), (forced, looks)
        # In high contrast the won holes stay filled: not the same as the page behind.
        won = phone.locator("[data-testid=punch-card] .hole[data-mark='W']").first
        filled = won.evaluate(
            "(h) => getComputedStyle(h).backgroundColor"
            " !== getComputedStyle(document.body).backgroundColor"
        )
        assert filled, forced
    screenshot(phone, "couple-phone-forced-colours", full_page=True)


# --- 5. Forced colours: buttons stay buttons, the current tab and the chosen option marked ------

BUTTONS_OUTLINED = """() => [...document.querySelectorAll('button, .button, input[type=submit]')]
  .filter((b) => b.offsetParent !== null && !b.classList.contains('link'))
  .map((b) => { const s = getComputedStyle(b);
    return {text: b.textContent.trim().slice(0, 30), width: parseFloat(s.borderTopWidth),
            style: s.borderTopStyle, color: s.borderTopColor, bg: s.backgroundColor}; })
  .filter((b) => b.width < 1 || b.style === 'none' || b.color === b.bg)"""

CURRENT_LOOKS = """(selector) => [...document.querySelectorAll(selector)].map((a) => {
  const s = getComputedStyle(a);
  return [a.getAttribute('aria-current') === 'page', [s.borderTopWidth, s.borderTopStyle,
    s.backgroundColor, s.color, s.textDecorationLine, s.outlineStyle, s.fontWeight].join(' | ')];
})"""


def current_stands_out(page: Page, selector: str) -> None:
    looks = page.evaluate(CURRENT_LOOKS, selector)
    current = {look for is_current, look in looks if is_current}
    others = {look for is_current, look in looks if not is_current}
    assert current and others and not current & others, (selector, looks)


def test_forced_colours_keep_buttons_and_states_apart(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    organizer, scorer = organizer_and_scorer()
    drive = build_night(organizer, scorer)
    over, tie = finished(drive.club)
    _, page = logged_in(new_context, organizer, live_server.url, viewport=DESK_SIZE)
    page.emulate_media(forced_colors="active")
    for path, tabs in (
        (f"/drives/{drive.slug}/desk/", ".page-links a, .game-nav a"),
        (f"/drives/{drive.slug}/", ".drive-nav a"),
        (f"/drives/{drive.slug}/couples/", ".drive-nav a"),
        (f"/drives/{over.slug}/prizes/ties/{tie.pk}/", ".drive-nav a"),
    ):
        page.goto(path)
        assert page.evaluate(BUTTONS_OUTLINED) == [], path
        for selector in tabs.split(", "):
            current_stands_out(page, selector)
    screenshot(page, "prizes-tie-forced-colours")
    # The tie: the chosen option of a couple stands out from the options not chosen.
    # (on a night not closed yet: a closed night's ties no longer change)
    last = finished_night(
        [5, 5, 3, 1], club=drive.club, games=5, prizes={"prizes": [{"amount": "20.00"}]}
    )
    prizes_open_ties(drive=last, actor=DESK)
    tie = Tie.objects.filter(drive=last).order_by("id").first()
    assert tie is not None
    number = tie.couples[0]
    tie_choose(tie=tie, couple=number, choice="cut", actor=DESK)
    page.goto(f"/drives/{last.slug}/prizes/ties/{tie.pk}/")
    chosen = page.get_by_test_id(f"choose-{number}-cut")
    expect(chosen).to_have_attribute("aria-pressed", "true")
    looks = page.locator(f"[data-couple='{number}'] .choice-buttons button").evaluate_all(
        """(buttons) => buttons.map((b) => { const s = getComputedStyle(b);
          return [b.getAttribute('aria-pressed'), [s.backgroundColor, s.color, s.borderTopWidth,
            getComputedStyle(b, '::before').content].join(' | ')]; })"""
    )
    pressed = {look for state, look in looks if state == "true"}
    unpressed = {look for state, look in looks if state == "false"}
    assert pressed and unpressed and not pressed & unpressed, looks
    # Logged out: the login page's button.
    anonymous = new_context(viewport=DESK_SIZE).new_page()
    anonymous.emulate_media(forced_colors="active")
    anonymous.goto("/accounts/login/")
    assert anonymous.evaluate(BUTTONS_OUTLINED) == []
    # The phones: "Couple N won" at the table, "Confirm" on the couple's page.
    game = drive.current_game
    small = night(people().club, 4, confirm_by_other_couple=True)
    seat = game_view(small, 1)["tables"][0]
    winner, loser = seat["stays"], seat["arrives"]
    by_winner = Actor(channel=AuditEntry.Channel.COUPLE, couple=small.couples.get(number=winner))
    result_record(drive=small, game=1, table=seat["table"], winner=winner, actor=by_winner)
    phone = phone_page(new_context)
    phone.emulate_media(forced_colors="active")
    phone.goto(f"/t/{Table.objects.get(drive=small, number=2).token}/")  # not reported yet
    assert phone.evaluate(BUTTONS_OUTLINED) == []
    phone.goto(f"/c/{Couple.objects.get(drive=small, number=loser).token}/")
    expect(phone.get_by_test_id("confirm")).to_be_visible()
    assert phone.evaluate(BUTTONS_OUTLINED) == []
    assert game


# --- 6. What people act on is at least 16 px ---------------------------------------------------

SMALL_TEXT = """() => {
  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    const text = node.textContent.trim();
    if (!text || !el || el.closest('.visually-hidden, [hidden], .skip-link')) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (px < 16) small.push(`${el.className || el.tagName}: ${px}px "${text.slice(0, 30)}"`);
  }
  return small;
}"""


def test_what_people_read_at_the_table_the_desk_and_the_projector_is_at_least_16px(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    organizer, scorer = organizer_and_scorer()
    drive = build_night(organizer, scorer)
    table = Table.objects.get(drive=drive, number=PHONE_TABLE)
    phone = phone_page(new_context)
    phone.goto(f"/t/{table.token}/")
    expect(phone.locator(".deals")).to_be_visible()
    assert phone.evaluate(SMALL_TEXT) == []
    with network_down(phone.context, "**/t/**"):
        expect(phone.locator("[data-poll-status]")).to_have_text(
            "No connection — retrying…", timeout=15_000
        )
        assert phone.evaluate(SMALL_TEXT) == []
    phone.goto(f"/c/{Couple.objects.get(drive=drive, number=1).token}/")
    assert phone.evaluate(SMALL_TEXT) == []
    _, desk = logged_in(new_context, scorer, live_server.url, viewport=DESK_SIZE)
    desk.goto(f"/drives/{drive.slug}/desk/")
    assert desk.evaluate(SMALL_TEXT) == []
    _, screen = logged_in(
        new_context, scorer, live_server.url, viewport={"width": 1920, "height": 1080}
    )
    screen.goto(f"/drives/{drive.slug}/projector/")
    with network_down(screen.context, "**/projector/**"):
        note = screen.locator("[data-poll-status]")
        expect(note).to_have_text("No connection — retrying…", timeout=15_000)
        assert screen.evaluate(SMALL_TEXT) == []
        screen.evaluate(CONTRAST_JS)
        ratio = note.evaluate(
            "(n) => window.__contrast.ratio(getComputedStyle(n).color, window.__contrast.behind(n))"
        )
        assert ratio >= 7, ratio


# --- 7. Larger text keeps the main action on the first phone screen; the "large print" choice ---


@pytest.mark.parametrize("percent", [150, 200])
def test_larger_text_keeps_the_main_action_on_the_first_phone_screen(
    new_context: ContextFactory, live_server: LiveServer, percent: int
) -> None:
    organizer, scorer = organizer_and_scorer()
    drive = build_night(organizer, scorer)
    table = Table.objects.get(drive=drive, number=PHONE_TABLE)
    phone = phone_page(new_context)
    text_size(phone, percent)
    phone.goto(f"/t/{table.token}/")
    assert (
        phone.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") >= 16 * percent / 100
    )
    buttons = fully_in_first_screen(phone, "button.win")
    assert len(buttons) == 2 and all(b["inside"] for b in buttons), (percent, buttons)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE_SIZE["width"]
    if percent == 200:
        screenshot(phone, "table-phone-text-200")
    couple = Couple.objects.get(drive=drive, number=1)
    phone.goto(f"/c/{couple.token}/")
    where = fully_in_first_screen(phone, "[data-testid=next-table]")
    assert where and where[0]["inside"], (percent, where)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE_SIZE["width"]
    if percent == 200:
        screenshot(phone, "couple-phone-text-200")


TEXT_SIZES = """() => {
  const px = (el) => parseFloat(getComputedStyle(el).fontSize);
  const sizes = [];
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (node.textContent.trim() && el.getClientRects().length && !el.closest('.visually-hidden')) {
      sizes.push(px(el));
    }
  }
  return {body: px(document.body), smallest: Math.min(...sizes),
          button: px(document.querySelector('button.win'))};
}"""


def test_a_player_taps_large_print_and_the_phone_remembers_it(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    organizer, scorer = organizer_and_scorer()
    drive = build_night(organizer, scorer)
    table = Table.objects.get(drive=drive, number=PHONE_TABLE)
    couple = Couple.objects.get(drive=drive, number=1)
    phone = phone_page(new_context)
    phone.goto(f"/t/{table.token}/")
    normal = phone.evaluate(TEXT_SIZES)
    toggle = phone.get_by_test_id("large-print")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.tap()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    large = phone.evaluate(TEXT_SIZES)
    # The page's text a third larger, its smallest words larger too, the buttons no smaller.
    assert large["body"] >= 1.3 * normal["body"], (normal, large)
    assert large["smallest"] >= 1.15 * normal["smallest"], (normal, large)
    assert large["button"] >= normal["button"], (normal, large)
    buttons = fully_in_first_screen(phone, "button.win")
    assert all(b["inside"] for b in buttons), buttons
    screenshot(phone, "table-phone-large-print")
    # Remembered on this phone: the couple's page opens in large print too, and after a reload.
    phone.goto(f"/c/{couple.token}/")
    expect(phone.get_by_test_id("large-print")).to_have_attribute("aria-pressed", "true")
    assert phone.evaluate("document.documentElement.classList.contains('large-print')")
    where = fully_in_first_screen(phone, "[data-testid=next-table]")
    assert where[0]["inside"], where
    phone.get_by_test_id("large-print").tap()
    phone.reload()
    expect(phone.get_by_test_id("large-print")).to_have_attribute("aria-pressed", "false")
    # Another phone (another browser) is not changed.
    other = phone_page(new_context)
    other.goto(f"/t/{table.token}/")
    expect(other.get_by_test_id("large-print")).to_have_attribute("aria-pressed", "false")


# --- 8 and 10. No page wider than the screen: public results on phones, organizer pages at 320 --


@pytest.mark.parametrize("width", [320, 360, 390])
def test_no_page_is_wider_than_a_small_phone(
    new_context: ContextFactory, live_server: LiveServer, width: int
) -> None:
    organizer, scorer = organizer_and_scorer()
    drive = build_night(organizer, scorer)
    over, tie = finished(drive.club)
    setup = night(drive.club, 6, start=False, name="Saturday afternoon forty-fives at the Legion")
    _, page = logged_in(
        new_context,
        organizer,
        live_server.url,
        phone=True,
        viewport={"width": width, "height": 740},
    )
    d, o, s = f"/drives/{drive.slug}", f"/drives/{over.slug}", f"/drives/{setup.slug}"
    # The organizer's pages and the public results: nothing scrolls sideways, neither the page
    # nor a table in it (the desk grid, the standings and the win grid are grids of numbers:
    # they scroll inside their box, first column kept, see test_phone_widths.py).
    pages = (
        "/drives/",
        f"{d}/",
        f"{o}/",
        f"{s}/",
        f"{s}/settings",
        "/drives/new",
        f"{o}/prizes/",
        f"{o}/prizes/ties/{tie.pk}/",
        f"/results/{over.slug}/",
        f"{d}/couples/",
        f"{d}/print/",
    )
    wide, scrolling = {}, {}
    for path in pages:
        page.goto(path)
        page.wait_for_load_state("load")
        scroll = page.evaluate("document.documentElement.scrollWidth")
        if scroll > width:
            wide[path] = scroll
        boxes = [b["table"] for b in page.evaluate(SCROLL_BOXES, BOXES) if b["scrolls"]]
        if path.startswith("/results/"):
            boxes = [b for b in boxes if b == "prize-table"]  # its standings are a grid
        if boxes:
            scrolling[path] = boxes
    assert wide == {}, (width, wide)
    assert scrolling == {}, (width, scrolling)


# --- 9. Focus rings: seen on the dark header, on summary and select -----------------------------

FOCUS_RING = """(el) => {
  const s = getComputedStyle(el);
  return {width: parseFloat(s.outlineWidth), style: s.outlineStyle,
          ratio: window.__contrast.ratio(s.outlineColor,
                                         window.__contrast.behind(el.parentElement))};
}"""


def test_focus_rings_are_seen_everywhere(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    organizer, scorer = organizer_and_scorer()
    drive = build_night(organizer, scorer)
    _, page = logged_in(new_context, organizer, live_server.url, viewport=DESK_SIZE)
    page.goto(f"/drives/{drive.slug}/print/")
    page.evaluate(CONTRAST_JS)
    rings = {}
    page.keyboard.press("Tab")  # the skip link
    page.keyboard.press("Tab")  # the brand, on the dark header
    rings["header"] = page.evaluate(
        FOCUS_RING.replace("(el) =>", "(_, el = document.activeElement) =>", 1)
    )
    for selector in ("main select", "summary"):
        if page.locator(selector).count() == 0:
            page.goto("/drives/")
            page.evaluate(CONTRAST_JS)
        target = page.locator(selector).first
        target.focus()
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")
        rings[selector] = target.evaluate(FOCUS_RING)
    for where, ring in rings.items():
        assert ring["style"] != "none" and ring["width"] >= 3 and ring["ratio"] >= 3, (where, ring)


# --- axe-core: WCAG 2.2 AA on every page at its users' size -------------------------------------


# The sizes every page is checked at: each at its users' size (the desk's laptop, the
# projector, the phone), then every page at 320 px, at 125% zoom of a 1024×640 laptop (819×512
# CSS px) and at its users' size with 200% text. One page load a page a size.
AXE_SIZES: dict[str, dict[str, Any] | None] = {
    "users' size": None,
    "320 px": {"viewport": {"width": 320, "height": 640}},
    "1024x640 at 125%": {"viewport": {"width": 819, "height": 512}, "device_scale_factor": 1.25},
    "200% text": None,
}


@pytest.mark.parametrize("size", list(AXE_SIZES))
def test_axe_finds_no_serious_violation_on_any_page(
    new_context: ContextFactory, live_server: LiveServer, size: str
) -> None:
    organizer, scorer = organizer_and_scorer()
    drive = build_night(organizer, scorer)
    over, tie = finished(drive.club)
    d, o = f"/drives/{drive.slug}", f"/drives/{over.slug}"
    desk_pages = {
        "home": "/",
        "drive list": "/drives/",
        "new drive": "/drives/new",
        "dashboard": f"{d}/",
        "door": f"{d}/couples/",
        "desk": f"{d}/desk/",
        "standings": f"{d}/standings/",
        "win grid": f"{d}/grid/",
        "print": f"{d}/print/",
        "settings": f"{d}/settings",
        "prizes": f"{o}/prizes/",
        "tie": f"{o}/prizes/ties/{tie.pk}/",
        "closed dashboard": f"{o}/",
        "players": f"/clubs/{drive.club.slug}/players/",
    }
    projector_pages = {
        "projector": f"{d}/projector/",
        "projector standings": f"{d}/projector/?show=standings",
        "projector prizes": f"{o}/projector/?show=prizes",
    }
    table = Table.objects.get(drive=drive, number=PHONE_TABLE)
    phone_pages = {
        "login": "/accounts/login/",
        "table phone": f"/t/{table.token}/",
        "couple phone": f"/c/{Couple.objects.get(drive=drive, number=1).token}/",
        "public results": f"/results/{over.slug}/",
        "couple's record": f"/c/{Couple.objects.get(drive=over, number=1).token}/",
    }
    options = AXE_SIZES[size]
    found: dict[str, list[str]] = {}

    def check(page: Page, pages: dict[str, str]) -> None:
        if size == "200% text":
            text_size(page, 200)
        for name, path in pages.items():
            page.goto(path)
            found[name] = axe_violations(page)

    if options is None:  # each page at its users' size
        _, page = logged_in(new_context, organizer, live_server.url, viewport=DESK_SIZE)
        check(page, desk_pages)
        _, screen = logged_in(
            new_context, organizer, live_server.url, viewport={"width": 1920, "height": 1080}
        )
        check(screen, projector_pages)
        check(phone_page(new_context), phone_pages)
    else:  # every page at the same size
        _, page = logged_in(new_context, organizer, live_server.url, **options)
        check(page, desk_pages | projector_pages)
        check(new_context(**options).new_page(), phone_pages)
    assert {name: v for name, v in found.items() if v} == {}


def test_axe_in_forced_colours_and_large_print(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    p = people()
    drive: Drive = night(p.club, 8)
    phone = phone_page(new_context)
    phone.goto(f"/t/{Table.objects.get(drive=drive, number=1).token}/")
    phone.get_by_test_id("large-print").tap()
    assert axe_violations(phone) == []
    phone.emulate_media(forced_colors="active")
    phone.goto(f"/c/{Couple.objects.get(drive=drive, number=1).token}/")
    assert axe_violations(phone) == []
