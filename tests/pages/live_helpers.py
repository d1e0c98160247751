"""Helpers of the live pages' tests (desk, table and couple pages, projector, standings,
results): clubs with an organizer and a scorer, nights built and played through the services,
logged-in clients, and measuring a page's queries."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from drives.models import AuditEntry, Club, Drive
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
from tests.factories import UserFactory

DESK = Actor(channel=AuditEntry.Channel.DESK)
_numbers = itertools.count(1)


@dataclass
class People:
    club: Club
    organizer: Any
    scorer: Any


def people(name: str = "") -> People:
    n = next(_numbers)
    club = club_create(name=name or f"Parish {n}")
    organizer = UserFactory(username=f"organizer{n}")
    scorer = UserFactory(username=f"scorer{n}")
    member_add(club=club, user=organizer, role="organizer")
    member_add(club=club, user=scorer, role="scorer")
    return People(club, organizer, scorer)


def night(club: Club, couples: int, *, start: bool = True, **settings: Any) -> Drive:
    """A drive of ``couples`` couples, started (game 1 seated by number) unless told not."""
    settings.setdefault("name", "Friday 45s")
    settings.setdefault("date", date(2026, 11, 20))
    drive = drive_create(club=club, **settings)
    couples_register(
        drive=drive,
        couples=[{"players": [f"Ann {i}", f"Joe {i}"]} for i in range(1, couples + 1)],
    )
    if start:
        drive_start(drive=drive, actor=DESK)
    drive.refresh_from_db()
    return drive


def play(drive: Drive, game: int, *, skip: tuple[int, ...] = ()) -> None:
    """Enter every table's result of ``game`` at the desk (the lower number wins)."""
    view = game_view(drive, game)
    assert view is not None
    for row in view["tables"]:
        if not row["sit_out"] and row["table"] not in skip and row["winner"] is None:
            result_record(
                drive=drive,
                game=game,
                table=row["table"],
                winner=min(row["stays"], row["arrives"]),
                actor=DESK,
            )


def advance(drive: Drive, game: int) -> None:
    game_advance(drive=drive, game=game, actor=DESK)
    drive.refresh_from_db()


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text(response: Any) -> str:
    return response.content.decode()


def status_line(response: Any, element_id: str) -> str:
    """The words of the status line ``element_id`` of a page."""
    match = re.search(rf'id="{element_id}"[^>]*>([^<]*)<', text(response))
    assert match is not None, f"no #{element_id} on the page"
    return match.group(1).strip()


def queries(client: Client, url: str, headers: dict[str, str] | None = None) -> int:
    """How many queries a GET of ``url`` takes (the answer must be a 200)."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, headers=headers)
    assert response.status_code == 200, response.status_code
    return len(captured)
