"""The live pages' polls in a real browser: while nothing changes the server answers 304 (the
browser sends back the ETag, static/js/poll.js swaps nothing), and a result entered meanwhile
shows within one poll interval."""

from __future__ import annotations

import time
from datetime import date

import pytest
from playwright.sync_api import Page, Response, expect
from pytest_django.live_server_helper import LiveServer

from drives.models import AuditEntry
from drives.services import (
    Actor,
    club_create,
    couples_register,
    drive_create,
    drive_start,
    member_add,
)
from scoring.pages import desk as desk_view
from scoring.pages import phone as phone_view
from scoring.services import result_record
from tests.browser.conftest import ContextFactory
from tests.browser.helpers import force_login
from tests.factories import UserFactory

pytestmark = pytest.mark.browser

DESK = Actor(channel=AuditEntry.Channel.DESK)


def polls(page: Page, marker: str) -> list[int]:
    """The statuses of the page's polls (responses whose address has ``marker``), as they come."""
    seen: list[int] = []

    def note(response: Response) -> None:
        if marker in response.url:
            seen.append(response.status)

    page.on("response", note)
    return seen


def wait_for(page: Page, seen: list[int], count: int, seconds: float) -> None:
    """Until ``seen`` has ``count`` polls (Playwright's own wait: its events come meanwhile)."""
    deadline = time.monotonic() + seconds
    while len(seen) < count and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    assert len(seen) >= count, f"{len(seen)} polls in {seconds} s: {seen}"


def test_unchanged_polls_are_304_and_a_result_shows_at_the_next(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    club = club_create(name="Polling Parish")
    scorer = UserFactory(username="poller")
    member_add(club=club, user=scorer, role="scorer")
    drive = drive_create(club=club, name="Poll night", date=date(2026, 11, 20))
    couples_register(
        drive=drive, couples=[{"players": [f"Ann {i}", f"Joe {i}"]} for i in range(1, 9)]
    )
    drive_start(drive=drive, actor=DESK)
    drive.refresh_from_db()

    desk_context = new_context()
    force_login(desk_context, scorer, live_server.url)
    desk = desk_context.new_page()
    desk_polls = polls(desk, "partial=grid")
    desk.goto(f"/drives/{drive.slug}/desk/")

    phone = new_context(phone=True).new_page()
    table_polls = polls(phone, "partial=1")
    phone.goto(f"/t/{drive.tables.get(number=1).token}/")

    # The first poll has no ETag yet (200); the next ones find nothing new.
    wait_for(desk, desk_polls, 3, 4 * desk_view.POLL_SECONDS + 4)
    wait_for(phone, table_polls, 3, 4 * phone_view.TABLE_POLL_SECONDS + 4)
    assert desk_polls[0] == 200 and set(desk_polls[1:]) == {304}, desk_polls
    assert table_polls[0] == 200 and set(table_polls[1:]) == {304}, table_polls
    expect(desk.locator("#table-1")).not_to_have_attribute("data-winner", "2")

    result_record(drive=drive, game=1, table=1, winner=2, actor=DESK)
    desk_seen, table_seen = len(desk_polls), len(table_polls)
    # Within one poll interval (and a second for the answer).
    expect(desk.locator("#table-1")).to_have_attribute(
        "data-winner", "2", timeout=(desk_view.POLL_SECONDS + 2) * 1000
    )
    expect(phone.get_by_test_id("table-result")).to_contain_text(
        "Couple 2 won", timeout=(phone_view.TABLE_POLL_SECONDS + 2) * 1000
    )
    assert 200 in desk_polls[desk_seen:] and 200 in table_polls[table_seen:]
    # And quiet again.
    wait_for(desk, desk_polls, len(desk_polls) + 2, 2 * desk_view.POLL_SECONDS + 4)
    assert desk_polls[-1] == 304, desk_polls
