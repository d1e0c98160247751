"""A club's season: the standings of its players across the drives of the season.

Couples change from week to week, so a season counts *players*: each couple's two names,
matched by a key (the caller's: ``drives.names.name_key`` folds case, accents and spaces).
Two spellings of one person are *merged* (``merges``: a key → the key it counts as); two people
of one name are *split* (``splits``: (drive, key) → the name the player of that drive counts
under instead, itself keyed and merged like any other).

Pure arithmetic: drives come in as :class:`Night` (each couple's two names, wins and prizes),
players go out as :class:`PlayerStanding`. Sums are exact: every couple's wins are counted once
for each of its two players, so the players' total wins are twice the couples' wins of every
drive, however the names are merged or split.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_UP, Decimal
from itertools import pairwise


@dataclass(frozen=True)
class CoupleNight:
    """One couple of one drive: its two players' names as registered, its wins, and the prizes
    it won (their descriptions, e.g. "1st place", "cookie jar")."""

    players: tuple[str, str]
    wins: int
    prizes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Night:
    """One drive of the season: its id (the caller's: a slug), its date (sortable text, e.g.
    ISO) and its couples."""

    drive: str
    date: str
    couples: tuple[CoupleNight, ...]


@dataclass(frozen=True)
class PlayerNight:
    drive: str
    name: str
    wins: int
    prizes: tuple[str, ...]


@dataclass(frozen=True)
class PlayerStanding:
    """A player of the season. ``key``: who they are (the merged key); ``name``: the spelling
    seen most often (the first seen among equals); ``spellings``: every spelling seen;
    ``best``: the most wins of one drive and the drive (the earliest among equals);
    ``clashes``: drives where two players of the season counted as this one (the same name
    twice in one night: split them)."""

    place: int
    key: str
    name: str
    spellings: tuple[str, ...]
    drives: int
    wins: int
    best: int
    best_drive: str
    average: Decimal
    prizes: int
    nights: tuple[PlayerNight, ...] = field(default=())
    clashes: tuple[str, ...] = field(default=())


def _same(name: str) -> str:
    return name


def resolve(key: str, merges: Mapping[str, str]) -> str:
    """The key ``key`` counts as: merges followed to their end (a chain a → b → c is c; a
    cycle stops where it would come back)."""
    seen = {key}
    while key in merges and merges[key] not in seen:
        key = merges[key]
        seen.add(key)
    return key


def player_key(
    name: str,
    drive: str,
    *,
    merges: Mapping[str, str] = {},
    splits: Mapping[tuple[str, str], str] = {},
    key: Callable[[str], str] = _same,
) -> str:
    """Who the player named ``name`` at ``drive`` is: the split's name if the drive splits
    that name off, then the name's key, then the merges."""
    folded = key(name)
    split = splits.get((drive, folded))
    if split is not None:
        folded = key(split)
    return resolve(folded, merges)


def average(wins: int, drives: int) -> Decimal:
    """Wins per drive played, to two decimals (half up); 0 for no drive."""
    if drives == 0:
        return Decimal("0.00")
    return (Decimal(wins) / Decimal(drives)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def season_standings(
    nights: Iterable[Night],
    *,
    merges: Mapping[str, str] = {},
    splits: Mapping[tuple[str, str], str] = {},
    key: Callable[[str], str] = _same,
) -> list[PlayerStanding]:
    """Every player of the season, best first: most total wins, then the best average, then
    the best night, then by name. Places are shared by equal total wins (competition ranking:
    1, 1, 3)."""
    ordered = sorted(nights, key=lambda n: (n.date, n.drive))
    per: dict[str, list[PlayerNight]] = defaultdict(list)
    spellings: dict[str, Counter[str]] = defaultdict(Counter)
    first_seen: dict[str, dict[str, int]] = defaultdict(dict)
    order = 0
    for night in ordered:
        for couple in night.couples:
            for name in couple.players:
                who = player_key(name, night.drive, merges=merges, splits=splits, key=key)
                shown = splits.get((night.drive, key(name)), name)
                per[who].append(PlayerNight(night.drive, shown, couple.wins, couple.prizes))
                spellings[who][shown] += 1
                first_seen[who].setdefault(shown, order)
                order += 1
    rows = []
    for who, played in per.items():
        by_drive: dict[str, int] = {}
        for one in played:
            by_drive[one.drive] = by_drive.get(one.drive, 0) + one.wins
        counts = Counter(one.drive for one in played)
        wins = sum(one.wins for one in played)
        best_drive = max(by_drive, key=lambda d: by_drive[d])  # dicts keep the season's order
        seen = spellings[who]
        name = min(seen, key=lambda s: (-seen[s], first_seen[who][s]))
        rows.append(
            PlayerStanding(
                place=0,
                key=who,
                name=name,
                spellings=tuple(sorted(seen, key=lambda s: first_seen[who][s])),
                drives=len(by_drive),
                wins=wins,
                best=by_drive[best_drive],
                best_drive=best_drive,
                average=average(wins, len(by_drive)),
                prizes=sum(len(one.prizes) for one in played),
                nights=tuple(played),
                clashes=tuple(d for d, n in counts.items() if n > 1),
            )
        )
    rows.sort(key=lambda r: (-r.wins, -r.average, -r.best, r.name.casefold(), r.key))
    placed: list[PlayerStanding] = []
    for index, row in enumerate(rows):
        same = placed and placed[-1].wins == row.wins
        place = placed[-1].place if same else index + 1
        placed.append(replace(row, place=place))
    return placed


@dataclass(frozen=True)
class JarNight:
    """The cookie jar of one drive: what it carried in from the drives before, what it held
    (``pot``, carried in included), and what it carried out to the next (None: nothing)."""

    drive: str
    carried_in: Decimal
    pot: Decimal
    carried_out: Decimal | None


def jar_consistent(nights: Sequence[JarNight]) -> list[str]:
    """The drives (of a season in date order) whose jar carried in something else than the
    drive before carried out (None: nothing). A check for the page: a drive of the club
    outside the season sits between them."""
    out = []
    for before, after in pairwise(nights):
        expected = before.carried_out or Decimal(0)
        if after.carried_in != expected:
            out.append(after.drive)
    return out
