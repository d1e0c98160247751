"""A club's season to test with: three drives of four couples, three games each, played
through the services (the lower couple number wins every table), so that every player's
season is known in advance."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from drives.models import AuditEntry, Club, Drive
from drives.services import Actor, club_create, couples_register, drive_create, drive_start
from scoring.selectors import game_view, standings_for_drive
from scoring.services import game_advance, result_record
from seasons.models import Season
from seasons.services import season_add_drive, season_create

DESK = Actor(channel=AuditEntry.Channel.DESK)

# The couples of each night: "Thérèse MacNeil" is written three ways, and partners change.
NIGHTS = {
    date(2026, 9, 11): [
        ("Thérèse MacNeil", "Joe Boudreau"),
        ("Ann Cormier", "Bill Aucoin"),
        ("Rita Doucet", "Gus Poirier"),
        ("Lou Samson", "Flo Landry"),
    ],
    date(2026, 10, 9): [
        ("therese macneil", "Ann Cormier"),
        ("Joe Boudreau", "Bill Aucoin"),
        ("Lou Samson", "Gus Poirier"),
        ("Rita Doucet", "Flo Landry"),
    ],
    date(2026, 11, 13): [
        ("Lou Samson", "Joe Boudreau"),
        ("Teresa MacNeil", "Bill Aucoin"),
        ("Ann Cormier", "Flo Landry"),
        ("Rita Doucet", "Gus Poirier"),
    ],
}


def play_night(drive: Drive) -> None:
    """Every game of the drive played, the lower couple number winning each table."""
    drive_start(drive=drive, actor=DESK)
    drive.refresh_from_db()
    for number in range(1, drive.games + 1):
        view = game_view(drive, number)
        assert view is not None
        for row in view["tables"]:
            if not row["sit_out"]:
                winner = min(row["stays"], row["arrives"])
                result_record(
                    drive=drive, game=number, table=row["table"], winner=winner, actor=DESK
                )
        if number < drive.games:
            game_advance(drive=drive, game=number, actor=DESK)
        drive.refresh_from_db()


def make_drive(club: Club, day: date, couples: list[tuple[str, str]], **settings: Any) -> Drive:
    settings.setdefault("games", 3)
    drive = drive_create(club=club, name=f"Friday 45s {day:%b %d}", date=day, **settings)
    couples_register(drive=drive, couples=[{"players": list(pair)} for pair in couples])
    return drive


@dataclass
class World:
    club: Club
    season: Season
    drives: list[Drive]


def make_season(club: Club | None = None, *, play: bool = True) -> World:
    club = club or club_create(name="St. Joseph's Parish")
    drives = []
    for day, couples in NIGHTS.items():
        drive = make_drive(club, day, couples)
        if play:
            play_night(drive)
        drives.append(drive)
    season = season_create(
        club=club, name="Fall 2026", starts=date(2026, 9, 1), ends=date(2026, 12, 20)
    )
    for drive in drives:
        season_add_drive(season=season, drive=drive)
    return World(club, season, drives)


def expected_wins(drives: list[Drive]) -> dict[str, int]:
    """Each name as written (no folding) → its wins, from each drive's own standings."""
    out: dict[str, int] = {}
    for drive in drives:
        for row in standings_for_drive(drive):
            for name in row["players"]:
                out[name] = out.get(name, 0) + row["wins"]
    return out
