"""When two registrations are the same couple: the same two people, in either order, their
names compared as a person at the door would read them — ignoring case, accents, invisible
formatting characters and runs of spaces ("Thérèse  MacNeil" is "therese macneil").

``couples_matching`` finds, for names about to be registered, the couple of the drive that
already has them. The couples CSV import (``drives.services.couples_import_csv``) uses it to
refuse a file whose couples are already there unless duplicates are allowed; it is meant for
any other way of registering too. This module only reads: refusing, warning or allowing is the
caller's decision, and the names stored are never changed by it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from drives.models import Couple, Drive


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(
        c for c in decomposed if not unicodedata.combining(c) and unicodedata.category(c) != "Cf"
    )


@lru_cache(maxsize=8192)
def name_key(name: str) -> str:
    """A player's name as compared: compatibility-decomposed (NFKD), without combining marks
    (accents) or format characters (zero-width spaces, joiners), case-folded, with runs of
    white space made one space and none at the ends. Kept for the last 8,192 names (a season
    of hundreds of nights asks for each of its players' names again and again)."""
    # Folded twice: case folding may itself produce letters with accents to take off.
    return " ".join(_fold(_fold(name).casefold()).split())


def couple_key(player1: str, player2: str) -> tuple[str, str]:
    """The couple as compared: both names' keys, in an order that does not depend on which
    player was written first."""
    first, second = sorted((name_key(player1), name_key(player2)))
    return first, second


def couples_matching(*, drive: Drive, players: Sequence[tuple[str, str]]) -> list[Couple | None]:
    """For each pair of names in ``players``, the drive's couple with the same two people
    (``couple_key``), or None. Withdrawn couples do not count (they may register again); among
    several, the lowest number. One query, whatever the number of names or couples."""
    found: dict[tuple[str, str], Couple] = {}
    couples = (
        Couple.objects.filter(drive=drive, withdrawn_game__isnull=True)
        .only("number", "player1", "player2")
        .order_by("number")
    )
    for couple in couples:
        found.setdefault(couple_key(couple.player1, couple.player2), couple)
    return [found.get(couple_key(p1, p2)) for p1, p2 in players]
