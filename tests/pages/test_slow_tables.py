"""Slow tables: once most tables of the game in play have reported (80 %), the ones still
missing after the drive's ``slow_table_minutes`` are marked on the desk grid and the projector
says "Waiting for tables …"; the director still decides when to start the next game."""

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from drives.services import drive_update
from scoring.models import ResultVersion
from scoring.selectors import game_view, slow_tables
from scoring.services import result_record
from tests.pages.live_helpers import DESK, logged_in, night, people, queries, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def who():
    return people()


def reported_ago(drive, tables, minutes: int) -> None:
    """Tables ``tables`` of game 1 reported ``minutes`` ago (the lower couple won)."""
    for table in tables:
        row = next(r for r in game_view(drive, 1)["tables"] if r["table"] == table)
        result_record(drive=drive, game=1, table=table, winner=row["stays"], actor=DESK)
    ResultVersion.objects.update(at=timezone.now() - timedelta(minutes=minutes))


def test_the_missing_tables_are_slow_only_after_the_time_once_most_reported(who) -> None:
    drive = night(who.club, 10)  # five tables
    reported_ago(drive, (1, 2, 3), 10)
    assert slow_tables(drive, game_view(drive, 1))["tables"] == []  # 3 of 5: not most
    reported_ago(drive, (4,), 2)  # the fourth, 80 %, two minutes ago
    marked = slow_tables(drive, game_view(drive, 1))
    assert marked["tables"] == [] and marked["at"] is not None  # in a minute
    later = slow_tables(drive, game_view(drive, 1), now=timezone.now() + timedelta(minutes=2))
    assert later["tables"] == [5]
    drive_update(drive=drive, actor=DESK, slow_table_minutes=0)
    drive.refresh_from_db()
    assert slow_tables(drive, game_view(drive, 1), now=timezone.now() + timedelta(hours=1)) == {
        "tables": [],
        "at": None,
    }


def test_the_desk_and_the_projector_mark_them(who) -> None:
    drive = night(who.club, 10)
    desk = logged_in(who.scorer)
    grid = f"/drives/{drive.slug}/desk/?partial=grid"
    projector = f"/drives/{drive.slug}/projector/?partial=1"
    reported_ago(drive, (1, 2, 3, 4), 1)  # the fourth a minute ago: two minutes to go
    page = desk.get(grid)
    assert 'data-testid="desk-slow"' not in text(page)
    # The grid's ETag ends when the tables are to be marked: its poll is drawn again then.
    assert "~" in page["ETag"]
    reported_ago(drive, (), 5)  # now five minutes ago
    cache.clear()
    page = text(desk.get(grid))
    assert 'data-testid="desk-slow"' in page and '<a href="#table-5">5</a>' in page
    shown = text(desk.get(projector))
    assert "Waiting for table 5" in shown
    # Still the organizer's call: the advance waits for table 5's result as before.
    assert "Start game 2" not in page or "disabled" in page


def test_the_grid_takes_the_same_statements_with_slow_tables(who) -> None:
    drive = night(who.club, 10)
    desk = logged_in(who.scorer)
    grid = f"/drives/{drive.slug}/desk/?partial=grid"
    reported_ago(drive, (1, 2), 10)
    cache.clear()
    before = queries(desk, grid)
    reported_ago(drive, (3, 4), 10)  # now table 5 is slow
    cache.clear()
    assert queries(desk, grid) == before
