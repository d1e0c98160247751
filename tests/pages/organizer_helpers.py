"""Helpers of the organizer's page tests (drives, couples, dashboard): a club with an
organizer and a scorer, another club, a drive with couples, and a night played through the
services."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from django.test import Client

from drives.errors import Conflict
from drives.models import AuditEntry, Club, Drive
from drives.services import Actor, club_create, couples_register, drive_create, member_add
from scoring.selectors import game_view
from scoring.services import result_record
from tests.factories import UserFactory

DESK = Actor(channel=AuditEntry.Channel.DESK)


@dataclass
class ClubPeople:
    club: Club
    organizer: Any
    scorer: Any


def club_people(name: str, prefix: str) -> ClubPeople:
    club = club_create(name=name)
    organizer = UserFactory(username=f"{prefix}-organizer")
    scorer = UserFactory(username=f"{prefix}-scorer")
    member_add(club=club, user=organizer, role="organizer")
    member_add(club=club, user=scorer, role="scorer")
    return ClubPeople(club, organizer, scorer)


def a_drive(club: Club, couples: int = 0, **settings: Any) -> Drive:
    settings.setdefault("name", "Friday 45s")
    settings.setdefault("date", date(2026, 11, 20))
    drive = drive_create(club=club, **settings)
    if couples:
        couples_register(
            drive=drive,
            couples=[{"players": [f"Ann {i}", f"Joe {i}"]} for i in range(1, couples + 1)],
        )
    return drive


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def play_game(drive: Drive, number: int, *, skip: tuple[int, ...] = ()) -> None:
    """Enter a result at every table of game ``number`` (the lower number wins), except the
    tables in ``skip``."""
    view = game_view(drive, number)
    assert view is not None
    for table in view["tables"]:
        if table["sit_out"] or table["table"] in skip:
            continue
        result_record(
            drive=drive,
            game=number,
            table=table["table"],
            winner=min(table["stays"], table["arrives"]),
            actor=DESK,
        )


def text(response: Any) -> str:
    return response.content.decode()


def a_conflict(drive: Drive, game: int, table: int, winner: int, actor: Actor = DESK) -> None:
    """Enter a second, different winner at a table that has one: the table is in conflict."""
    try:
        result_record(drive=drive, game=game, table=table, winner=winner, actor=actor)
    except Conflict:
        return
    raise AssertionError(f"game {game} table {table}: no conflict")
