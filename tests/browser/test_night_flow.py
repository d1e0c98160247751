"""A night in a real browser (issue 4), the way the hall runs it.

One long flow, step by step, with several people at once (each a browser context of its own):

1. the organizer logs in, registers the couples at the door by keyboard and starts the night;
2. a scorer enters half the results of game 1 at the desk grid by keyboard alone;
3. phones (360×740) enter the rest on their table pages: one taps while the network is down,
   another's answer is lost on the way back; both are retried with the same key and stored
   once;
4. the desk grid shows every table reported without a reload; the organizer starts game 2;
5. the projector, a table page and a couple's page follow the advance by themselves;
6. the organizer closes the night, and the cards' pages say so.

Every step is checked on the page and in the database. Waits are Playwright's ``expect`` with
timeouts above the pages' poll intervals, never fixed sleeps.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest
from django.contrib.auth.models import AbstractBaseUser
from playwright.sync_api import BrowserContext, Page, Request, Route, expect
from pytest_django.live_server_helper import LiveServer

from drives.models import AuditEntry, Club, Couple, Drive, Game, Seat, Table
from drives.services import (
    Actor,
    club_create,
    couples_register,
    drive_create,
    drive_start,
    member_add,
)
from scoring.models import Result, ResultVersion
from scoring.pages import desk as desk_view
from scoring.pages import phone as phone_view
from scoring.pages import projector as projector_view
from scoring.selectors import current_tables
from scoring.services import result_record
from tests.browser.conftest import ContextFactory
from tests.browser.helpers import force_login, login, network_down, screenshot
from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.browser

# The couples at the door, in the order they arrive (couple n is the n-th).
COUPLES = [
    ("Mary MacNeil", "Angus MacNeil"),
    ("Theresa Boudreau", "Joe Boudreau"),
    ("Annie MacDonald", "Hughie MacDonald"),
    ("Flora Campbell", "Donnie Campbell"),
    ("Rita LeBlanc", "Gerard LeBlanc"),
    ("Catherine MacIsaac", "Ronnie MacIsaac"),
    ("Bernadette Poirier", "Leo Poirier"),
    ("Margaret Gillis", "Archie Gillis"),
]
# Game 1 seated by number: table t seats couples 2t-1 (stays) and 2t (arrives).
DESK_WINNERS = {1: 2, 2: 3}  # half the tables, entered at the desk
OFFLINE_TABLE, OFFLINE_WINNER = 3, 6  # taps while the hall's Wi-Fi is down
LOST_TABLE, LOST_WINNER = 4, 7  # the server stores it, the answer never reaches the phone
WATCHED_COUPLE = 2  # its punch card's page is open on a phone all along

OFFLINE = "No connection — retrying…"
DESK = Actor(channel=AuditEntry.Channel.DESK)
RESULT_API = "**/api/v1/drives/*/games/*/tables/*/result"


def poll_timeout(seconds: int) -> int:
    """A wait (ms) that outlasts two polls of a page polling every ``seconds`` (one may be
    held back a moment while someone types), so a change is seen however the polls fall."""
    return (2 * seconds + 4) * 1000


DESK_WAIT = poll_timeout(desk_view.POLL_SECONDS)
PROJECTOR_WAIT = poll_timeout(projector_view.POLL_SECONDS)
TABLE_WAIT = poll_timeout(phone_view.TABLE_POLL_SECONDS)
COUPLE_WAIT = poll_timeout(phone_view.COUPLE_POLL_SECONDS)


# --- the people and the drive -------------------------------------------------------------------


def the_club() -> tuple[Club, AbstractBaseUser, AbstractBaseUser]:
    club = club_create(name="St. Joseph's Parish")
    organizer = UserFactory(username="mary", first_name="Mary")
    scorer = UserFactory(username="angus", first_name="Angus")
    member_add(club=club, user=organizer, role="organizer")
    member_add(club=club, user=scorer, role="scorer")
    return club, organizer, scorer


def a_drive(club: Club, organizer: AbstractBaseUser, **settings: Any) -> Drive:
    settings.setdefault("name", "Friday 45s")
    settings.setdefault("date", date(2026, 11, 20))
    actor = Actor(user=organizer, channel=AuditEntry.Channel.DESK)
    return drive_create(club=club, actor=actor, **settings)


def seat_of(drive: Drive, game: int, table: int) -> Seat:
    return Seat.objects.select_related("stays", "arrives").get(
        game__drive=drive, game__number=game, table__number=table
    )


def current_tables_of(drive: Drive, game: int) -> list[tuple[int, int]]:
    """(couple, table) of every couple seated in game ``game``, from the stored seats."""
    pairs = []
    for seat in Seat.objects.filter(game__drive=drive, game__number=game).select_related(
        "table", "stays", "arrives"
    ):
        for couple in (seat.stays, seat.arrives):
            if couple is not None:
                pairs.append((couple.number, seat.table.number))
    return sorted(pairs)


def new_page(new_context: ContextFactory, *, phone: bool = False) -> Page:
    return new_context(phone=phone).new_page()


def logged_in_page(
    new_context: ContextFactory, user: AbstractBaseUser, live_server: LiveServer
) -> Page:
    context = new_context()
    force_login(context, user, live_server.url)
    return context.new_page()


def keep_status_history(page: Page, element_id: str) -> None:
    """Record every text the status line ``element_id`` shows (see ``status_history``), so
    that a message shown for a moment only can be checked afterwards."""
    page.evaluate(
        """(id) => {
          const el = document.getElementById(id);
          window.__statuses = [el.textContent];
          new MutationObserver(() => window.__statuses.push(el.textContent))
            .observe(el, {childList: true, characterData: true, subtree: true});
        }""",
        element_id,
    )


def status_history(page: Page) -> list[str]:
    return page.evaluate("window.__statuses")


def record_puts(context: BrowserContext) -> list[dict[str, Any]]:
    """The bodies of the result submissions (PUT) the pages of ``context`` send, including
    the ones the network loses."""
    bodies: list[dict[str, Any]] = []

    def seen(request: Request) -> None:
        if request.method == "PUT" and request.url.endswith("/result"):
            bodies.append(json.loads(request.post_data or "{}"))

    context.on("request", seen)
    return bodies


# --- the steps ----------------------------------------------------------------------------------


def register_at_the_door(page: Page, drive: Drive) -> None:
    """Type each couple's names, Tab between them, Enter: the flash names the couple's number
    and the focus is back in the first name for the next couple (tests/browser/test_door.py
    types them at speed without waiting)."""
    page.goto(f"/drives/{drive.slug}/couples/")
    player1 = page.locator("#player1")
    expect(player1).to_be_focused()
    for number, (first, second) in enumerate(COUPLES, start=1):
        page.keyboard.type(first)
        page.keyboard.press("Tab")
        expect(page.locator("#player2")).to_be_focused()
        page.keyboard.type(second)
        page.keyboard.press("Enter")  # sent in the background: the page stays
        flash = page.locator(".messages .couple-flash")
        expect(flash.locator(".flash-number")).to_have_text(f"Couple {number}")
        expect(flash.locator(".flash-names")).to_have_text(f"{first} & {second}")
        expect(player1).to_be_focused()
        expect(player1).to_have_value("")
    expect(page.get_by_test_id("couple-counts")).to_contain_text(f"{len(COUPLES)} couples")
    screenshot(page, "registration")
    stored = list(Couple.objects.filter(drive=drive).order_by("number"))
    assert [(c.number, c.player1, c.player2) for c in stored] == [
        (n, a, b) for n, (a, b) in enumerate(COUPLES, start=1)
    ]
    assert all(c.checked_in and c.joined_game == 1 for c in stored)


def start_the_night(page: Page, drive: Drive) -> None:
    page.goto(f"/drives/{drive.slug}/")
    expect(page.get_by_test_id("couples-count")).to_have_text(f"{len(COUPLES)} couples ready")
    page.get_by_label("by number", exact=True).check()
    with page.expect_navigation():
        page.get_by_test_id("start").click()
    tables = len(COUPLES) // 2
    expect(page.locator(".messages")).to_contain_text(
        f"The night has started: game 1 is seated at {tables} tables."
    )
    expect(page.get_by_test_id("reported")).to_have_text(f"0 of {tables} tables reported")
    drive.refresh_from_db()
    assert drive.state == Drive.State.RUNNING and drive.current_game == 1
    for table in range(1, tables + 1):
        seat = seat_of(drive, 1, table)
        assert (seat.stays.number, seat.arrives.number) == (2 * table - 1, 2 * table)


def enter_at_the_desk(desk: Page, drive: Drive, table: int, winner: int) -> None:
    """Type the table, Enter, the winning couple, Enter; nothing but the keyboard."""
    table_input, winner_input = desk.locator("#desk-table"), desk.locator("#desk-winner")
    expect(table_input).to_be_focused()
    desk.keyboard.type(str(table))
    expect(desk.locator("#desk-hint")).to_contain_text(
        f"Table {table}: {2 * table - 1} v {2 * table}"
    )
    desk.keyboard.press("Enter")
    expect(winner_input).to_be_focused()
    desk.keyboard.type(str(winner))
    desk.keyboard.press("Enter")
    expect(desk.get_by_test_id("desk-status")).to_have_text(
        f"Table {table}: couple {winner} won (game 1)."
    )
    expect(table_input).to_be_focused()
    expect(table_input).to_have_value("")
    expect(winner_input).to_have_value("")
    row = desk.locator(f"tr[data-table='{table}']")
    expect(row).to_have_attribute("data-state", "accepted")
    expect(row).to_have_attribute("data-winner", str(winner))
    result = Result.objects.get(seat=seat_of(drive, 1, table))
    assert (result.winner.number, result.state) == (winner, Result.State.ACCEPTED)
    (version,) = result.versions.all()
    assert version.channel == AuditEntry.Channel.DESK and version.user.get_username() == "angus"


def tap_while_offline(phone: Page, drive: Drive) -> None:
    """The hall's Wi-Fi drops as the couple taps: the page says so, keeps the submission and
    sends it again (same key) when the network is back; it is stored once."""
    submissions = record_puts(phone.context)
    seat = seat_of(drive, 1, OFFLINE_TABLE)
    status = phone.get_by_test_id("table-status")
    with network_down(phone.context):
        phone.get_by_test_id(f"win-{OFFLINE_WINNER}").tap()
        expect(status).to_have_text(OFFLINE)
        # It tries again by itself (after 1 s), still offline, with the same submission.
        with phone.expect_request(lambda r: r.method == "PUT", timeout=5_000):
            pass
        expect(status).to_have_text(OFFLINE)
        assert not Result.objects.filter(seat=seat).exists()
    expect(status).to_have_text(f"Saved ✓ Couple {OFFLINE_WINNER} won.")
    expect(phone.get_by_test_id("table-result")).to_contain_text(
        f"Couple {OFFLINE_WINNER} won", timeout=TABLE_WAIT
    )
    # At least one sent while offline (the request awaited above: the tap's own, or a retry when
    # the page already knew it was offline and held the tap), and the one that got in.
    assert len(submissions) >= 2
    assert len({s["key"] for s in submissions}) == 1
    assert {s["winner"] for s in submissions} == {OFFLINE_WINNER}
    result = Result.objects.get(seat=seat)
    (version,) = result.versions.all()
    assert result.winner.number == OFFLINE_WINNER
    assert version.key == submissions[0]["key"]
    assert version.channel == AuditEntry.Channel.TABLE


def tap_and_lose_the_answer(phone: Page, drive: Drive) -> None:
    """The submission reaches the server, which stores it, but the answer is lost on the way
    back: the page cannot know, says it is retrying, and sends it again with the same key;
    the server recognises it (200), and there is still one result with one version."""
    submissions = record_puts(phone.context)
    answers: list[int] = []
    stored_first: list[int] = []

    def lose_the_answer(route: Route) -> None:
        stored_first.append(route.fetch().status)  # the server gets it and answers...
        route.abort("connectionreset")  # ...but the phone never hears

    phone.on("response", lambda r: answers.append(r.status) if r.request.method == "PUT" else None)
    phone.route(RESULT_API, lose_the_answer, times=1)
    keep_status_history(phone, "table-status")
    phone.get_by_test_id(f"win-{LOST_WINNER}").tap()
    status = phone.get_by_test_id("table-status")
    expect(status).to_have_text(f"Saved ✓ Couple {LOST_WINNER} won.")
    assert OFFLINE in status_history(phone)
    assert stored_first == [201] and answers == [200]
    assert len(submissions) == 2 and submissions[0] == submissions[1]  # same key, same body
    result = Result.objects.get(seat=seat_of(drive, 1, LOST_TABLE))
    (version,) = result.versions.all()
    assert result.winner.number == LOST_WINNER
    assert version.key == submissions[0]["key"]


def advance(page: Page, drive: Drive) -> None:
    """Open the dashboard now that every table has reported, and start game 2."""
    page.goto(f"/drives/{drive.slug}/")
    tables = len(COUPLES) // 2
    expect(page.get_by_test_id("reported")).to_have_text(f"{tables} of {tables} tables reported")
    with page.expect_navigation():
        page.get_by_test_id("advance").click()
    expect(page.locator(".messages")).to_contain_text("Game 2 has started")
    expect(page.get_by_test_id("reported")).to_have_text(f"0 of {tables} tables reported")
    drive.refresh_from_db()
    assert drive.current_game == 2
    assert Game.objects.get(drive=drive, number=1).finished_at is not None


def close_the_night(page: Page, drive: Drive) -> None:
    """From the dashboard (already open), through the confirmation page."""
    with page.expect_navigation():
        page.get_by_test_id("close").click()
    with page.expect_navigation():
        page.get_by_test_id("close-confirm").click()
    expect(page.locator(".messages")).to_contain_text("The night is closed")
    drive.refresh_from_db()
    assert drive.state == Drive.State.CLOSED


# --- the tests ----------------------------------------------------------------------------------


def test_a_whole_night_in_the_browser(new_context: ContextFactory, live_server: LiveServer) -> None:
    club, organizer, scorer = the_club()
    drive = a_drive(club, organizer, games=5)
    tables = len(COUPLES) // 2

    # 1. The organizer logs in, registers the couples at the door and starts the night.
    organizer_page = new_page(new_context)
    login(organizer_page, "mary", DEFAULT_PASSWORD, next_path=f"/drives/{drive.slug}/couples/")
    register_at_the_door(organizer_page, drive)
    start_the_night(organizer_page, drive)

    # The organizer's laptop now shows the projector on the hall's screen: game 1.
    projector = organizer_page
    projector.goto(f"/drives/{drive.slug}/projector/")
    projector_list = projector.get_by_test_id("projector-list")
    expect(projector_list.locator("[data-couple]")).to_have_count(len(COUPLES))
    expect(projector_list.locator("[data-couple='8']")).to_have_attribute("data-table", "4")

    # The couple's punch card page, open on a phone from the start.
    couple = Couple.objects.get(drive=drive, number=WATCHED_COUPLE)
    couple_phone = new_page(new_context, phone=True)
    couple_phone.goto(f"/c/{couple.token}/")
    next_table = couple_phone.get_by_test_id("next-table")
    expect(next_table).to_have_attribute("data-table", "1")

    # 2. The scorer enters half of game 1 at the desk, by keyboard alone.
    desk = logged_in_page(new_context, scorer, live_server)
    desk.goto(f"/drives/{drive.slug}/desk/")
    expect(desk.get_by_test_id("desk-summary")).to_contain_text(f"0 of {tables} tables reported")
    desk.evaluate("window.__sameDocument = true")
    for table, winner in DESK_WINNERS.items():
        enter_at_the_desk(desk, drive, table, winner)
    expect(desk.get_by_test_id("desk-summary")).to_contain_text(f"2 of {tables} tables reported")

    # 3. Phones enter the rest on their table pages.
    offline_phone = new_page(new_context, phone=True)
    offline_phone.goto(f"/t/{Table.objects.get(drive=drive, number=OFFLINE_TABLE).token}/")
    expect(offline_phone.locator("h1")).to_have_text(f"Table {OFFLINE_TABLE}")
    assert offline_phone.evaluate("document.documentElement.scrollWidth") <= 360
    tap_while_offline(offline_phone, drive)

    lost_phone = new_page(new_context, phone=True)
    lost_phone.goto(f"/t/{Table.objects.get(drive=drive, number=LOST_TABLE).token}/")
    tap_and_lose_the_answer(lost_phone, drive)

    # 4. The desk grid has followed (no reload), and the organizer starts game 2.
    for table in range(1, tables + 1):
        expect(desk.locator(f"tr[data-table='{table}']")).to_have_attribute(
            "data-state", "accepted", timeout=DESK_WAIT
        )
    expect(desk.get_by_test_id("desk-summary")).to_contain_text(
        f"{tables} of {tables} tables reported"
    )
    assert desk.evaluate("window.__sameDocument") is True
    game1 = {
        t: Result.objects.get(seat=seat_of(drive, 1, t)).winner.number for t in range(1, tables + 1)
    }
    assert game1 == DESK_WINNERS | {OFFLINE_TABLE: OFFLINE_WINNER, LOST_TABLE: LOST_WINNER}
    assert ResultVersion.objects.filter(result__game__drive=drive).count() == tables
    dashboard = organizer_page.context.new_page()
    advance(dashboard, drive)

    # 5. The projector shows game 2's tables by itself: the stored seating, winners moved on.
    seating = current_tables(drive)
    expect(projector.locator("#projector-live")).to_have_attribute(
        "data-game", "2", timeout=PROJECTOR_WAIT
    )
    shown = [
        (int(row.get_attribute("data-couple") or 0), int(row.get_attribute("data-table") or 0))
        for row in projector_list.locator("[data-couple]").all()
    ]
    assert shown == [(row["number"], row["table"]) for row in seating]
    assert shown == current_tables_of(drive, 2)
    moved = dict(shown)
    for table, winner in game1.items():
        loser = ({2 * table - 1, 2 * table} - {winner}).pop()
        assert moved[winner] == table % tables + 1, f"couple {winner} won at table {table}"
        assert moved[loser] == table, f"couple {loser} lost at table {table}"
    # The desk follows the new game too, and its entries go to it.
    expect(desk.locator("#desk-game")).to_have_value("2", timeout=DESK_WAIT)

    # 6. The couple's page shows its table in game 2; the offline table's page its new couples.
    arrives = Seat.objects.get(game__drive=drive, game__number=2, arrives__number=WATCHED_COUPLE)
    expected = arrives.table.number
    assert expected == moved[WATCHED_COUPLE] == 2  # it won at table 1 and moved up
    expect(next_table).to_have_attribute("data-table", str(expected), timeout=COUPLE_WAIT)
    expect(next_table).to_contain_text(f"Table {expected}")
    seat = seat_of(drive, 2, OFFLINE_TABLE)
    expect(offline_phone.locator("#table-live")).to_have_attribute(
        "data-game", "2", timeout=TABLE_WAIT
    )
    for number in (seat.stays.number, seat.arrives.number):
        expect(offline_phone.get_by_test_id(f"win-{number}")).to_be_visible()

    # And at the end of the night, the organizer closes it: the cards' pages follow by
    # themselves (their next poll is refused, 410, and they reload): the couple's page into
    # its own record of the night, the table's into "closed".
    close_the_night(dashboard, drive)
    expect(couple_phone.get_by_test_id("night-record")).to_be_visible(timeout=COUPLE_WAIT)
    expect(couple_phone.locator(".lead")).to_contain_text("The night is over.")
    expect(offline_phone.locator("h1")).to_have_text("This drive is closed", timeout=TABLE_WAIT)


def test_a_table_token_reaches_only_its_own_table(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    club, organizer, _scorer = the_club()
    drive = a_drive(club, organizer)
    couples_register(
        drive=drive, couples=[{"players": list(pair)} for pair in COUPLES[:4]], actor=DESK
    )
    drive_start(drive=drive, actor=DESK)
    table2 = Table.objects.get(drive=drive, number=2)
    phone = new_page(new_context, phone=True)
    phone.goto(f"/t/{table2.token}/")

    # The page shows table 2 and its couples only.
    expect(phone.locator("h1")).to_have_text("Table 2")
    expect(phone.locator("button.win")).to_have_count(2)
    expect(phone.get_by_test_id("win-3")).to_be_visible()
    expect(phone.get_by_test_id("win-4")).to_be_visible()
    expect(phone.get_by_test_id("win-1")).to_have_count(0)
    expect(phone.locator(".pair")).not_to_contain_text(COUPLES[0][0])

    # A page tampered with to send table 1's result: refused, and the page says why.
    phone.evaluate(
        """() => {
          const form = document.getElementById('table-entry');
          form.dataset.apiUrl = form.dataset.apiUrl.replace(/tables\\/2\\//, 'tables/1/');
          document.querySelector('[data-testid=win-3]').value = '1';
        }"""
    )
    phone.get_by_test_id("win-3").tap()
    expect(phone.get_by_test_id("table-status")).to_have_text(
        "This is table 2's token: it enters that table's result only."
    )
    assert not Result.objects.filter(game__drive=drive).exists()


def test_a_phone_told_its_score_differs_from_the_one_entered(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    """The desk entered couple 3 winning 70–20 while the phone's page was open; the phone
    sends couple 3 winning 65–25: kept for the desk, and the phone says it was the score."""
    club, organizer, _scorer = the_club()
    drive = a_drive(club, organizer)
    couples_register(
        drive=drive, couples=[{"players": list(pair)} for pair in COUPLES[:4]], actor=DESK
    )
    drive_start(drive=drive, actor=DESK)
    table2 = Table.objects.get(drive=drive, number=2)
    phone = new_page(new_context, phone=True)
    phone.goto(f"/t/{table2.token}/")
    expect(phone.get_by_test_id("win-3")).to_be_visible()
    result_record(drive=drive, game=1, table=2, winner=3, points=[70, 20], actor=DESK)
    phone.select_option("#points-choice", "65-25")
    phone.get_by_test_id("win-3").tap()
    expect(phone.get_by_test_id("table-status")).to_have_text(
        "Couple 3 was already entered as the winner here with another score. Both entries "
        "are kept: the desk will sort it out."
    )
    result = Result.objects.get(game__drive=drive)
    assert (result.state, result.points) == ("conflict", [70, 20])
    assert result.versions.filter(kind="conflicting", winner_points=65).exists()
