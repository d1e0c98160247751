"""Eight desks selling 50/50 tickets at the same instant never sell one number twice: each
strip gets its own numbers (the pool's row lock makes them take turns; the unique constraint
on a pool's numbers is the floor beneath it), and eight desks tearing the same strip from the
roll (the same ``first``) sell it once, the others told it is sold (409), never a crash.

``RACE_WINDOW_SECONDS`` (drives/race.py) makes each seller sleep between finding the numbers
free and writing them (``tickets.checked``). Run once per backend (test_race.py's ``backend``
fixture: the ``postgres`` variant needs DATABASE_URL=postgres://…). The control (no lock:
``SERVICES_LOCKING = False``, DEFERRED transactions on SQLite) shows the collision the lock
prevents: the sellers meet in the window and the constraint refuses all but one.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from drives import race
from drives.models import AuditEntry, Drive
from drives.services import Actor
from money.models import Line, Ticket
from money.services import TICKETS_CHECKED, fifty_fifty_of, tickets_sell
from tests.api.helpers import ClubUsers, make_club, make_drive
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

SELLERS = 8
STRIP = 10


@pytest.fixture
def club(backend: str) -> ClubUsers:  # noqa: F811
    return make_club("St. Joseph's Parish", "race")


@pytest.fixture
def drive(club: ClubUsers) -> Drive:
    drive = make_drive(club.club, 4, entry_fee=Decimal("20"))
    fifty_fifty_of(drive)
    return drive


def sell_at_once(club: ClubUsers, drive: Drive, layer: str, first: int | None) -> list[Outcome]:
    if layer == "http":
        assert http_client().get("me", token=club.org_token).status_code == 200

    def sell(_i: int) -> Outcome:
        body = {"count": STRIP} | ({"first": first} if first else {})
        if layer == "http":
            answer = http_client().post(
                f"drives/{drive.slug}/fifty-fifty/tickets", body, token=club.org_token
            )
            return Outcome(answer.status_code, answer.json().get("first"))
        actor = Actor(user=club.organizer, channel=AuditEntry.Channel.DESK)
        sale = tickets_sell(drive=drive, actor=actor, **body)
        return Outcome(201, sale.first)

    return at_once(sell, SELLERS)


LAYERS = pytest.mark.parametrize("layer", ["service", "http"])


@LAYERS
def test_eight_desks_selling_strips_at_once_sell_every_number_once(
    club: ClubUsers,
    drive: Drive,
    layer: str,
    window: Opener,  # noqa: F811
) -> None:
    window(TICKETS_CHECKED)
    outcomes = sell_at_once(club, drive, layer, None)
    assert sorted(o.status for o in outcomes) == [201] * SELLERS, outcomes
    assert sorted(o.number for o in outcomes) == list(range(1, SELLERS * STRIP, STRIP))
    numbers = list(Ticket.objects.order_by("number").values_list("number", flat=True))
    assert numbers == list(range(1, SELLERS * STRIP + 1))
    assert Line.objects.filter(drive=drive).count() == SELLERS
    assert race.seen(TICKETS_CHECKED).most_at_once == 1  # they took turns


@LAYERS
def test_eight_desks_selling_the_same_strip_sell_it_once(
    club: ClubUsers,
    drive: Drive,
    layer: str,
    window: Opener,  # noqa: F811
) -> None:
    window(TICKETS_CHECKED)
    outcomes = sell_at_once(club, drive, layer, 41)
    assert sorted(o.status for o in outcomes) == [201] + [409] * (SELLERS - 1), outcomes
    assert list(Ticket.objects.values_list("number", flat=True)) == list(range(41, 51))
    assert Line.objects.filter(drive=drive).count() == 1


@pytest.mark.usefixtures("unlocked")
def test_control_without_the_lock_the_sellers_meet_and_the_constraint_holds(
    club: ClubUsers,
    drive: Drive,
    window: Opener,  # noqa: F811
) -> None:
    window(TICKETS_CHECKED)
    outcomes = sell_at_once(club, drive, "service", None)
    # They met in the window, all found 1–10 free ...
    assert race.seen(TICKETS_CHECKED).most_at_once > 1
    # ... and still no number was sold twice: one sale, the others refused or crashed.
    sold = [o for o in outcomes if o.status == 201]
    assert len(sold) >= 1 and len(sold) < SELLERS, outcomes
    assert all(o.status in (409, CRASH) for o in outcomes if o.status != 201), outcomes
    numbers = list(Ticket.objects.values_list("number", flat=True))
    assert len(numbers) == len(set(numbers)) == STRIP * len(sold)
