"""The desk's entry line at typing speed, after a refusal: what a scorer types next goes to
the table it was typed for, never with a winner left over from a refused line.

The night: eight couples seated by number, so table t seats couples 2t-1 and 2t.
"""

from datetime import date

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from drives.models import AuditEntry, Drive
from drives.services import (
    Actor,
    club_create,
    couples_register,
    drive_create,
    drive_start,
    member_add,
)
from engine.rules import get_ruleset
from engine.scores import legal_final_scores
from scoring.models import Result
from tests.browser.conftest import ContextFactory
from tests.browser.helpers import force_login, screenshot
from tests.factories import UserFactory

pytestmark = pytest.mark.browser

TYPING_MS = 40  # a quick scorer's keystrokes


def started_night(couples: int = 8) -> tuple[Drive, object]:
    """A night started with ``couples`` seated by number (table t: couples 2t-1 and 2t), its
    organizer mary and its scorer angus (returned)."""
    club = club_create(name="St. Joseph's Parish")
    organizer = UserFactory(username="mary")
    scorer = UserFactory(username="angus")
    member_add(club=club, user=organizer, role="organizer")
    member_add(club=club, user=scorer, role="scorer")
    actor = Actor(user=organizer, channel=AuditEntry.Channel.DESK)
    drive = drive_create(club=club, actor=actor, name="Friday 45s", date=date(2026, 11, 20))
    couples_register(
        drive=drive,
        couples=[
            {"players": [f"Player {2 * n - 1}", f"Player {2 * n}"]} for n in range(1, couples + 1)
        ],
        actor=actor,
    )
    drive_start(drive=drive, actor=actor, seating="by-number")
    return drive, scorer


def desk_page(new_context: ContextFactory, live_server: LiveServer, drive: Drive, scorer) -> Page:
    context = new_context()
    force_login(context, scorer, live_server.url)
    page = context.new_page()
    page.goto(f"/drives/{drive.slug}/desk/")
    expect(page.locator("#desk-table")).to_be_focused()
    return page


def type_line(page: Page, *keys: str) -> None:
    for key in keys:
        if key in ("Enter", "Tab"):
            page.keyboard.press(key)
        else:
            page.keyboard.type(key, delay=TYPING_MS)


def winners() -> dict[int, int]:
    return {
        r.seat.table.number: r.winner.number
        for r in Result.objects.select_related("seat__table", "winner")
    }


def test_a_refused_winner_is_never_entered_at_the_next_table(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    drive, scorer = started_night()
    desk = desk_page(new_context, live_server, drive, scorer)
    status = desk.get_by_test_id("desk-status")

    # Couple 6 typed for table 2 (which seats 3 and 4): refused.
    type_line(desk, "2", "Enter", "6", "Enter")
    expect(status).to_have_text("Couple 6 is not at table 2 in this game (it seats 3 and 4).")
    # The line starts again at the table, the refused winner gone.
    expect(desk.locator("#desk-table")).to_be_focused()
    expect(desk.locator("#desk-winner")).to_have_value("")

    # The scorer goes straight on with table 3, as the slip says, and presses Enter: that goes
    # on to the winner; nothing is entered at table 3 with the refused 6.
    type_line(desk, "3", "Enter")
    expect(desk.locator("#desk-winner")).to_be_focused()
    expect(desk.locator("#desk-winner")).to_have_value("")
    assert winners() == {}

    # The winner typed for table 3 now: stored there.
    type_line(desk, "5", "Enter")
    expect(status).to_have_text("Table 3: couple 5 won (game 1).")
    assert winners() == {3: 5}


def test_the_scorer_corrects_their_own_typo_by_typing_the_table_again(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    """Couple 15 typed for table 8, then 16 at once: the scorer's own entry is corrected and
    the status line says so; no conflict waits in the grid."""
    drive, scorer = started_night(16)
    desk = desk_page(new_context, live_server, drive, scorer)
    status = desk.get_by_test_id("desk-status")
    type_line(desk, "8", "Enter", "15", "Enter")
    expect(status).to_have_text("Table 8: couple 15 won (game 1).")
    type_line(desk, "8", "Enter", "16", "Enter")
    expect(status).to_have_text("Table 8: your entry corrected to couple 16 (game 1).")
    row = desk.locator("#table-8")
    expect(row).not_to_have_attribute("data-state", "conflict")
    expect(row).to_contain_text("16 won")
    expect(desk.locator("#desk-table")).to_be_focused()
    assert winners() == {8: 16}
    screenshot(desk, "desk-own-correction")


def test_a_new_table_number_empties_a_winner_typed_for_another(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    """Back to the table field (Shift+Tab) to change it: the winner typed for the old table
    goes, so Enter cannot send it with the new one."""
    drive, scorer = started_night()
    desk = desk_page(new_context, live_server, drive, scorer)
    type_line(desk, "1", "Enter", "2")
    desk.keyboard.press("Shift+Tab")
    expect(desk.locator("#desk-table")).to_be_focused()
    type_line(desk, "4", "Enter")
    expect(desk.locator("#desk-winner")).to_be_focused()
    expect(desk.locator("#desk-winner")).to_have_value("")
    assert winners() == {}
    type_line(desk, "8", "Enter")
    expect(desk.get_by_test_id("desk-status")).to_have_text("Table 4: couple 8 won (game 1).")
    assert winners() == {4: 8}


def test_a_refused_score_keeps_the_table_and_winner_and_selects_the_points(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    drive, scorer = started_night()
    desk = desk_page(new_context, live_server, drive, scorer)
    type_line(desk, "1", "Enter", "2", "Tab", "95-0", "Enter")
    expect(desk.get_by_test_id("desk-status")).to_contain_text("more points than the hands")
    expect(desk.locator("#desk-points")).to_be_focused()
    expect(desk.locator("#desk-winner")).to_have_value("2")
    winner, loser = legal_final_scores(get_ruleset(drive.ruleset))[0]
    type_line(desk, f"{winner}-{loser}", "Enter")
    expect(desk.get_by_test_id("desk-status")).to_have_text("Table 1: couple 2 won (game 1).")
    assert winners() == {1: 2}


def test_the_scorer_starts_the_next_game_from_the_desk(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    """Every table in, by keyboard; the desk's own button starts game 2 without a reload, and
    the entry line follows it."""
    drive, scorer = started_night()
    desk = desk_page(new_context, live_server, drive, scorer)
    desk.evaluate("window.__sameDocument = true")
    button = desk.get_by_test_id("desk-advance")
    expect(button).to_be_disabled()
    for table in range(1, 5):
        type_line(desk, str(table), "Enter", str(2 * table), "Enter")
        expect(desk.get_by_test_id("desk-status")).to_have_text(
            f"Table {table}: couple {2 * table} won (game 1)."
        )
    expect(button).to_be_enabled()
    expect(button).to_have_text("Start game 2")
    screenshot(desk, "desk-next-game")
    button.focus()
    desk.keyboard.press("Enter")
    expect(desk.locator("#desk-grid h2")).to_contain_text("Game 2 of")
    expect(desk.locator("#desk-game")).to_have_value("2")
    assert desk.evaluate("window.__sameDocument") is True  # no reload
    drive.refresh_from_db()
    assert drive.current_game == 2
    # The next entry goes to game 2.
    desk.locator("#desk-table").focus()
    row = desk.locator("#desk-grid tr[data-table='1']")
    stays, _arrives = row.get_attribute("data-couples").split()
    type_line(desk, "1", "Enter", stays, "Enter")
    expect(desk.get_by_test_id("desk-status")).to_have_text(
        f"Table 1: couple {stays} won (game 2)."
    )
