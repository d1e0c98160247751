"""Eight organizers (or one double click, many times over) creating the same drive, with the
same name and date, at the same instant: every one is created, each with its own slug, and
none is answered with a crash; and a control run without the retry that shows the collision.

Eight threads released together by a barrier, each on its own database connection, create
"Friday 45s" on 2026-11-20 through the service and through ``POST /api/v1/drives``.
``RACE_WINDOW_SECONDS`` (drives/race.py) makes each writer sleep between finding the slug
free and inserting the drive (``slug.checked``):

* as in production: eight drives, slugs ``friday-45s-2026-11-20`` and ``…-2`` to ``…-8``, one
  ``drive.create`` audit entry each, eight 201s. On PostgreSQL the writers meet in the window,
  all find the first slug free, and the unique index refuses all but one insert: each of the
  others takes the next free slug in a savepoint and goes on (the window is passed again). On
  SQLite the IMMEDIATE transaction makes each writer wait for the one before: they never meet.
* control (``SERVICES_LOCKING = False``: no retry; on SQLite DEFERRED transactions): the
  writers meet in the window and all but one crash on the database (PostgreSQL: the slug's
  unique constraint; SQLite: a write based on a stale read). Were the pause doing nothing,
  the writers would not meet and the control would fail.

The tests commit for real and run once per backend (tests/integration/test_race.py's
``backend`` fixture: the ``postgres`` variant needs DATABASE_URL=postgres://…).
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.db import DatabaseError, IntegrityError

from drives import race
from drives.models import AuditEntry, Drive
from drives.services import SLUG_CHECKED, Actor, drive_create
from tests.api.helpers import ClubUsers, make_club
from tests.integration.test_race import (  # noqa: F401  (fixtures)
    CRASH,
    Opener,
    Outcome,
    at_once,
    backend,
    http_client,
    unlocked,
    window,
)

pytestmark = pytest.mark.integration

WRITERS = 8
NAME = "Friday 45s"
DAY = date(2026, 11, 20)
BASE = "friday-45s-2026-11-20"
SLUGS = [BASE] + [f"{BASE}-{n}" for n in range(2, WRITERS + 1)]


@pytest.fixture
def club(backend: str) -> ClubUsers:  # noqa: F811
    return make_club("St. Joseph's Parish", "race")


def create_at_once(club: ClubUsers, layer: str, window: Opener) -> list[Outcome]:  # noqa: F811
    """Every writer creates the same drive; an outcome's ``number`` is the drive's id."""
    if layer == "http":
        # The token's last use is written now, not by the eight requests.
        assert http_client().get("me", token=club.org_token).status_code == 200

    def create(_i: int) -> Outcome:
        if layer == "http":
            body = {"club": club.club.slug, "name": NAME, "date": DAY.isoformat()}
            answer = http_client().post("drives", body, token=club.org_token)
            if answer.status_code != 201:
                return Outcome(answer.status_code)
            return Outcome(201, Drive.objects.get(slug=answer.json()["slug"]).pk)
        actor = Actor(user=club.organizer, channel=AuditEntry.Channel.API)
        drive = drive_create(club=club.club, actor=actor, name=NAME, date=DAY)
        return Outcome(201, drive.pk)

    window(SLUG_CHECKED)
    return at_once(create, WRITERS)


def statuses(outcomes: list[Outcome]) -> list[int]:
    return sorted(outcome.status for outcome in outcomes)


LAYERS = pytest.mark.parametrize("layer", ["service", "http"])


@LAYERS
def test_eight_organizers_creating_the_same_drive_at_once_get_eight_drives(
    club: ClubUsers,
    layer: str,
    backend: str,  # noqa: F811
    window: Opener,  # noqa: F811
) -> None:
    outcomes = create_at_once(club, layer, window)
    assert statuses(outcomes) == [201] * WRITERS, outcomes
    drives = Drive.objects.filter(club=club.club)
    assert sorted(drives.values_list("pk", flat=True)) == sorted(o.number for o in outcomes)
    assert sorted(drives.values_list("slug", flat=True)) == sorted(SLUGS)
    created = AuditEntry.objects.filter(action="drive.create", drive__club=club.club)
    assert sorted(created.values_list("subject", flat=True)) == sorted(SLUGS)
    seen = race.seen(SLUG_CHECKED)
    if backend == "postgresql":
        # They met in the window and found the same slug free: the collision happened, and
        # each writer refused by the unique index went round again with the next slug.
        assert seen.most_at_once > 1, seen
        assert seen.visits > WRITERS, seen
    else:
        # SQLite: each writer waited for the one before (the IMMEDIATE transaction).
        assert (seen.visits, seen.most_at_once) == (WRITERS, 1), seen


@LAYERS
@pytest.mark.usefixtures("unlocked")
def test_control_without_the_retry_the_same_slug_crashes(
    club: ClubUsers,
    layer: str,
    backend: str,  # noqa: F811
    window: Opener,  # noqa: F811
) -> None:
    outcomes = create_at_once(club, layer, window)
    seen = race.seen(SLUG_CHECKED)
    # The race: several writers found the slug free before any inserted it ...
    assert seen.most_at_once > 1, seen
    # ... and without the retry all but the first crash on the database.
    crashes = [outcome for outcome in outcomes if outcome.status == CRASH]
    assert crashes, outcomes
    assert statuses(outcomes) == [201] * (WRITERS - len(crashes)) + [CRASH] * len(crashes)
    if layer == "service":
        expected: Any = IntegrityError if backend == "postgresql" else DatabaseError
        assert all(isinstance(crash.error, expected) for crash in crashes), crashes
    created = Drive.objects.filter(club=club.club).count()
    assert created == WRITERS - len(crashes)
