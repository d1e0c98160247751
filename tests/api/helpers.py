"""Helpers of the API tests: ``Api``, a JSON client that sends ``Authorization: Bearer`` when
given a token; clubs with an organizer and a scorer (each with an API token); drives built
through the services; tokens; playing a game through the API."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.test import Client

from drives.models import AuditEntry, Club, Drive, Membership
from drives.services import (
    Actor,
    api_token_create,
    club_create,
    couples_register,
    drive_create,
    drive_start,
    member_add,
)
from tests.factories import UserFactory

DESK = Actor(channel=AuditEntry.Channel.DESK)
BASE = "/api/v1"


class Api:
    """``api.put(path, body, token=…)`` → the response, with ``.json()`` for the body."""

    def __init__(self, client: Client) -> None:
        self.client = client

    def call(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        token: str | None = None,
        raw: bytes | str | None = None,
        content_type: str = "application/json",
        **extra: Any,
    ) -> Any:
        if token is not None:
            extra["HTTP_AUTHORIZATION"] = f"Bearer {token}"
        data: Any = raw if raw is not None else (json.dumps(body) if body is not None else "")
        url = path if path.startswith("/") else f"{BASE}/{path}"
        return self.client.generic(method, url, data, content_type=content_type, **extra)

    def get(self, path: str, **kw: Any) -> Any:
        return self.call("GET", path, **kw)

    def post(self, path: str, body: Any = None, **kw: Any) -> Any:
        return self.call("POST", path, body, **kw)

    def put(self, path: str, body: Any = None, **kw: Any) -> Any:
        return self.call("PUT", path, body, **kw)

    def patch(self, path: str, body: Any = None, **kw: Any) -> Any:
        return self.call("PATCH", path, body, **kw)


@dataclass
class ClubUsers:
    club: Club
    organizer: Any
    scorer: Any
    org_token: str
    scorer_token: str


def make_club(name: str, prefix: str) -> ClubUsers:
    club = club_create(name=name)
    organizer = UserFactory(username=f"{prefix}-organizer")
    scorer = UserFactory(username=f"{prefix}-scorer")
    member_add(club=club, user=organizer, role=Membership.Role.ORGANIZER)
    member_add(club=club, user=scorer, role=Membership.Role.SCORER)
    return ClubUsers(
        club, organizer, scorer, api_token_create(user=organizer), api_token_create(user=scorer)
    )


def make_drive(club: Club, couples: int, *, start: bool = False, **settings: Any) -> Drive:
    drive = drive_create(club=club, name="Friday 45s", date=date(2026, 11, 20), **settings)
    if couples:
        couples_register(
            drive=drive,
            couples=[{"players": [f"A{i}", f"B{i}"]} for i in range(1, couples + 1)],
        )
    if start:
        drive_start(drive=drive, actor=DESK)
        drive.refresh_from_db()
    return drive


def table_token(drive: Drive, number: int) -> str:
    return drive.tables.get(number=number).token


def couple_token(drive: Drive, number: int) -> str:
    return drive.couples.get(number=number).token


def play(api: Api, drive: Drive, game: int, token: str, pick: Any = min) -> None:
    """Enter every table's result of ``game`` (the lower number wins unless ``pick``)."""
    view = api.get(f"drives/{drive.slug}/games/{game}", token=token).json()
    for row in view["tables"]:
        if not row["sit_out"] and row["state"] == "missing":
            winner = pick(row["stays"], row["arrives"])
            answer = api.put(
                f"drives/{drive.slug}/games/{game}/tables/{row['table']}/result",
                {"winner": winner},
                token=token,
            )
            assert answer.status_code == 201, answer.json()
