"""The club page's part that an app above ``club`` reads for it: the current season's standings
(``seasons`` sits above ``club`` and registers its reader from its ``ready``, as the money
registers its printed sheet with scoring). Without a reader the club page shows no season."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from drives.models import Club


@dataclass(frozen=True)
class SeasonStanding:
    """A player's line of the season's standings, named as the couples' cards spelled it."""

    place: int | None
    name: str
    key: str  # the name's key (drives.names.name_key): the club's player of that key
    drives: int
    wins: int
    prizes: int


@dataclass(frozen=True)
class SeasonPart:
    """The season under way (or the last one begun), published, with its first players."""

    slug: str
    name: str
    starts: date
    ends: date
    drives: int
    players: int
    standings: list[SeasonStanding]


# (club, today, how many players) → the season's part, or None without a published season.
SeasonReader = Callable[[Club, date, int], SeasonPart | None]
SEASON_READERS: list[SeasonReader] = []


def register_season(reader: SeasonReader) -> None:
    """Called once from the seasons app's ``ready``."""
    if reader not in SEASON_READERS:
        SEASON_READERS.append(reader)


def season_of(club: Club, today: date, top: int) -> SeasonPart | None:
    return SEASON_READERS[0](club, today, top) if SEASON_READERS else None
