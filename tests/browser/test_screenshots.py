"""Each page of a night in progress, as the README shows them.

A realistic night (22 couples, four games played, game 5 half reported with a conflict and
an unusual score) is built through the services; then the desk grid, a table page and a
couple's page on a phone, the projector, the standings and the organizer's dashboard are
opened as their users would, checked for what matters on each, and photographed into
docs/screenshots/ when SCREENSHOTS=1 (``SCREENSHOTS=1 .venv/bin/pytest tests/browser``). The
registration page's picture is taken by test_night_flow.py, after the door has filled it.
"""

from __future__ import annotations

import random
from datetime import date

import pytest
from django.contrib.auth.models import AbstractBaseUser
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from drives.errors import Conflict
from drives.models import AuditEntry, Couple, Drive, Table
from drives.services import (
    Actor,
    club_create,
    couples_register,
    drive_create,
    drive_start,
    member_add,
)
from scoring.selectors import game_view
from scoring.services import game_advance, result_record
from tests.browser.conftest import ContextFactory
from tests.browser.helpers import force_login, screenshot
from tests.factories import UserFactory
from tests.pages.live_helpers import night, people

# The page's look, not its data: run in CI's SQLite pass only (tests/conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.any_database]

FIRST = [
    "Mary",
    "Angus",
    "Theresa",
    "Joe",
    "Annie",
    "Hughie",
    "Flora",
    "Donnie",
    "Rita",
    "Gerard",
    "Catherine",
    "Ronnie",
    "Bernadette",
    "Leo",
    "Margaret",
    "Archie",
    "Sadie",
    "Danny",
    "Lorraine",
    "Kenny",
    "Peggy",
    "Alex",
    "Colette",
    "Raymond",
]
LAST = [
    "MacNeil",
    "Boudreau",
    "MacDonald",
    "Campbell",
    "LeBlanc",
    "MacIsaac",
    "Poirier",
    "Gillis",
    "MacKinnon",
    "Chiasson",
    "MacLean",
    "Deveau",
    "MacPherson",
    "Aucoin",
    "Beaton",
    "Cormier",
    "MacLellan",
    "Doucet",
    "Rankin",
    "Samson",
    "MacKenzie",
    "Landry",
]
COUPLES = 22
PLAYED = 4  # games over; game PLAYED + 1 is in play
CONFLICT_TABLE, UNUSUAL_TABLE = 2, 3
ENTERED_AT_THE_DESK = 7  # the table the scorer types while the picture is taken
PHONE_TABLE = 9  # a table that has not reported yet
REPORTED = (1, CONFLICT_TABLE, UNUSUAL_TABLE, 4, 5, 10, 11)  # in the game in play


def build_night(organizer: AbstractBaseUser, scorer: AbstractBaseUser) -> Drive:
    club = club_create(name="St. Joseph's Parish")
    member_add(club=club, user=organizer, role="organizer")
    member_add(club=club, user=scorer, role="scorer")
    desk = Actor(user=scorer, channel=AuditEntry.Channel.DESK)
    table = Actor(channel=AuditEntry.Channel.TABLE)
    drive = drive_create(
        club=club, name="Friday 45s", date=date(2026, 11, 20), venue="Parish hall", games=12
    )
    names = [
        (f"{FIRST[2 * i % len(FIRST)]} {last}", f"{FIRST[(2 * i + 1) % len(FIRST)]} {last}")
        for i, last in enumerate(LAST[:COUPLES])
    ]
    couples_register(
        drive=drive,
        couples=[
            {"players": list(pair), "paid": True, "cookie_jar": i % 3 == 0}
            for i, pair in enumerate(names)
        ],
    )
    drive_start(drive=drive, actor=desk)
    rng = random.Random(45)
    scores = [[70, 20], [65, 25], [60, 30], [55, 35], [50, 40], None, None]
    for number in range(1, PLAYED + 2):
        drive.refresh_from_db()
        view = game_view(drive, number)
        assert view is not None
        in_play = number == PLAYED + 1
        for row in view["tables"]:
            t = row["table"]
            if in_play and t not in REPORTED:
                continue  # not reported yet
            winner = rng.choice([row["stays"], row["arrives"]])
            if in_play and t == UNUSUAL_TABLE:
                result_record(
                    drive=drive,
                    game=number,
                    table=t,
                    winner=winner,
                    points=[70, 10],
                    confirm_unusual=True,
                    actor=desk,
                )
                continue
            result_record(
                drive=drive,
                game=number,
                table=t,
                winner=winner,
                points=rng.choice(scores),
                actor=table if rng.random() < 0.6 else desk,
            )
            if in_play and t == CONFLICT_TABLE:
                other = row["stays"] if winner == row["arrives"] else row["arrives"]
                with pytest.raises(Conflict):
                    result_record(drive=drive, game=number, table=t, winner=other, actor=desk)
        if not in_play:
            game_advance(drive=drive, game=number, actor=desk)
    drive.refresh_from_db()
    return drive


def desktop(new_context: ContextFactory, user: AbstractBaseUser, base_url: str) -> Page:
    context = new_context()
    force_login(context, user, base_url)
    return context.new_page()


def fits_the_phone(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, page.url


def test_the_pages_of_a_night_in_progress(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    organizer = UserFactory(username="mary", first_name="Mary")
    scorer = UserFactory(username="angus", first_name="Angus")
    drive = build_night(organizer, scorer)
    game = drive.current_game
    tables = (COUPLES + 1) // 2

    # The desk grid: the scorer types a result; the conflict and the unusual score stand out.
    desk = desktop(new_context, scorer, live_server.url)
    desk.goto(f"/drives/{drive.slug}/desk/")
    conflict = desk.locator(f"tr[data-table='{CONFLICT_TABLE}']")
    expect(conflict).to_have_attribute("data-state", "conflict")
    expect(desk.locator(f"tr[data-table='{UNUSUAL_TABLE}']")).to_have_class(
        "state-accepted is-unusual"
    )
    row = game_view(drive, game)["tables"][ENTERED_AT_THE_DESK - 1]
    desk.keyboard.type(str(ENTERED_AT_THE_DESK))
    desk.keyboard.press("Enter")
    desk.keyboard.type(str(row["arrives"]))
    desk.keyboard.press("Enter")
    expect(desk.get_by_test_id("desk-status")).to_have_text(
        f"Table {ENTERED_AT_THE_DESK}: couple {row['arrives']} won (game {game})."
    )
    expect(desk.get_by_test_id("desk-summary")).to_contain_text(
        f"{len(REPORTED) + 1} of {tables} tables reported"
    )
    screenshot(desk, "desk")

    # A table page on a phone, from the QR code of a table that has not reported.
    phone = new_context(phone=True).new_page()
    phone.goto(f"/t/{Table.objects.get(drive=drive, number=PHONE_TABLE).token}/")
    expect(phone.locator("button.win")).to_have_count(2)
    for button in phone.locator("button.win").all():  # both on the first screen
        expect(button).to_be_in_viewport(ratio=1)
    fits_the_phone(phone)
    screenshot(phone, "table-phone")

    # A couple's page on a phone: the one that deals at that table; its punch card below.
    seat = game_view(drive, game)["tables"][PHONE_TABLE - 1]
    couple = Couple.objects.get(drive=drive, number=seat["arrives"])
    phone.goto(f"/c/{couple.token}/")
    expect(phone.get_by_test_id("next-table")).to_have_attribute("data-table", str(PHONE_TABLE))
    expect(phone.locator(".dealer")).to_have_text("You deal first.")
    expect(phone.get_by_test_id("punch-card").locator("li")).to_have_count(drive.games)
    fits_the_phone(phone)
    screenshot(phone, "couple-phone")

    # The organizer's screens: the projector, the standings, the dashboard.
    organizer_page = desktop(new_context, organizer, live_server.url)
    organizer_page.goto(f"/drives/{drive.slug}/projector/")
    expect(organizer_page.get_by_test_id("projector-list").locator("[data-couple]")).to_have_count(
        COUPLES
    )
    screenshot(organizer_page, "projector")

    organizer_page.goto(f"/drives/{drive.slug}/standings/")
    expect(organizer_page.locator("table tbody tr")).to_have_count(COUPLES)
    screenshot(organizer_page, "standings")

    organizer_page.set_viewport_size({"width": 1280, "height": 1000})  # down to "advance"
    organizer_page.goto(f"/drives/{drive.slug}/")
    expect(organizer_page.get_by_test_id("conflict-tables")).to_contain_text(
        f"table {CONFLICT_TABLE}"
    )
    expect(organizer_page.get_by_test_id("advance")).to_be_disabled()
    screenshot(organizer_page, "dashboard")


def test_the_sit_out_on_the_projector_and_the_desk(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    """Seven couples: three tables numbered 1 to 3 and couple 7 "sits out", no table of its
    own on the projector nor in the desk grid's numbers."""
    group = people()
    drive = night(group.club, 7)
    page = desktop(new_context, group.organizer, live_server.url)
    page.goto(f"/drives/{drive.slug}/projector/")
    row = page.get_by_test_id("projector-list").locator("[data-couple='7']")
    expect(row).to_contain_text("sits out")
    screenshot(page, "projector-sit-out")
    page.goto(f"/drives/{drive.slug}/desk/")
    numbers = page.locator("#desk-grid tbody tr[data-table] th").all_inner_texts()
    assert [n.strip() for n in numbers] == ["1", "2", "3", "sits out"]
    expect(page.get_by_test_id("desk-advance")).to_be_disabled()
    screenshot(page, "desk-sit-out")
