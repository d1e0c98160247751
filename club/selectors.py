"""Reads of the club's players: a search by name (the door's type-ahead, the players page),
each player's nights, and the pairs of players that may be one person.

A search matches the start of any word of the name's key (``drives.names.name_key``: case,
accents, invisible characters and spaces ignored), so "ther" finds "Thérèse MacNeil" and
"macn" finds her too. Possible duplicates are names that differ by a letter or two (difflib's
ratio of their keys at least ``CLOSE``) or a first name written as its initial ("M. MacDonald"
and "Mary MacDonald"); two players of the same key are not listed (the organizer made them two
on purpose). Nothing here writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from difflib import SequenceMatcher

from django.db.models import Case, Count, Max, Q, Value, When

from drives.models import Club, Couple, Player
from drives.names import name_key

SUGGESTIONS = 10
CLOSE = 0.85


@dataclass(frozen=True)
class PlayerRow:
    """A player with the nights played (drives) and the date of the last one."""

    player: Player
    nights: int
    last_night: date | None


def players_matching(club: Club, query: str) -> Q:
    """The condition of a search: every word of ``query`` starts a word of the name."""
    condition = Q(club=club)
    for word in name_key(query[:80]).split():
        condition &= Q(key__startswith=word) | Q(key__contains=" " + word)
    return condition


def players_nights(players: Sequence[Player]) -> list[PlayerRow]:
    """Each player with their nights: two queries, whatever the number of players."""
    ids = [p.pk for p in players]
    nights: dict[int, int] = dict.fromkeys(ids, 0)
    last: dict[int, date] = {}
    for field in ("member1", "member2"):
        rows = (
            Couple.objects.filter(**{f"{field}__in": ids})
            .values(field)
            .annotate(n=Count("drive", distinct=True), last=Max("drive__date"))
        )
        for row in rows:
            nights[row[field]] += row["n"]
            if row[field] not in last or last[row[field]] < row["last"]:
                last[row[field]] = row["last"]
    return [PlayerRow(p, nights[p.pk], last.get(p.pk)) for p in players]


def players_suggest(club: Club, query: str) -> list[PlayerRow]:
    """Up to ``SUGGESTIONS`` players for what the door typed (none for nothing typed), those
    whose name starts with it first."""
    typed = name_key(query[:80])
    if not typed:
        return []
    # The names that start with what was typed first ("ther": Thérèse before Mary Theriault).
    first = Case(When(key__startswith=typed, then=Value(0)), default=Value(1))
    found = (
        Player.objects.filter(players_matching(club, query))
        .annotate(first=first)
        .order_by("first", "key", "id")
    )
    return players_nights(list(found[:SUGGESTIONS]))


def players_search(club: Club, query: str = "") -> list[PlayerRow]:
    """The club's players matching ``query`` (all of them for none), by name."""
    return players_nights(list(Player.objects.filter(players_matching(club, query))))


def _initial_of(first: str, other: str) -> bool:
    return len(first.rstrip(".")) == 1 and other.startswith(first.rstrip("."))


def _alike(one: str, two: str) -> bool:
    """Two keys that may be one person (see the module's description)."""
    if one == two:
        return False
    a, b = one.split(), two.split()
    same_surname = len(a) > 1 and len(b) > 1 and a[-1] == b[-1]
    if same_surname and (_initial_of(a[0], b[0]) or _initial_of(b[0], a[0])):
        return True
    matcher = SequenceMatcher(None, one, two)
    return matcher.real_quick_ratio() >= CLOSE and matcher.ratio() >= CLOSE


def players_possible_duplicates(club: Club) -> list[tuple[Player, Player]]:
    """Pairs of the club's players that may be one person, the older one first. Names are
    compared within groups of the same last word's first letter (a typo in the surname's
    first letter is not caught), so a club of thousands is read in well under a second."""
    groups: dict[str, list[Player]] = {}
    for player in Player.objects.filter(club=club).only("id", "name", "key", "club_id"):
        words = player.key.split()
        groups.setdefault(words[-1][:1] if words else "", []).append(player)
    pairs = []
    for members in groups.values():
        for i, one in enumerate(members):
            for two in members[i + 1 :]:
                if _alike(one.key, two.key):
                    pairs.append((one, two) if one.pk < two.pk else (two, one))
    return sorted(pairs, key=lambda pair: (pair[0].key, pair[1].key))
