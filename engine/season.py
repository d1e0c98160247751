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
    place: int | None = None


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
    place: int | None = None


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
    score: int = 0
    counted: int = 0
    nights_won: int = 0
    best_score: int = 0
    qualified: bool = True


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
                per[who].append(
                    PlayerNight(night.drive, shown, couple.wins, couple.prizes, couple.place)
                )
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
                score=wins,
                counted=len(by_drive),
                nights_won=len({one.drive for one in played if one.place == 1}),
                best_score=by_drive[best_drive],
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


# --- the season's rules ---------------------------------------------------------------------

#: How players of equal score are told apart: ``shared`` (they share the place), ``nights_won``
#: (more nights won, then the better best night, then shared), ``best_night`` (the better best
#: night, then more nights won, then shared).
TIES = ("shared", "nights_won", "best_night")


@dataclass(frozen=True)
class Rules:
    """The rules a club writes for its season. ``best``: only a player's best N nights count
    (None: every night); ``of``: the season has M nights, those after the Mth (date order)
    count for nothing (None: the nights played so far); ``qualify``: the nights a player must
    have played to take a place (0: none); ``points``: points for 1st, 2nd, 3rd… place of a
    night (a couple's place, shared places taking the points of the place; a place past the
    table scores 0; empty: a night scores its wins); ``improved``: K, most improved compares
    the average of a player's last K nights with their first K (0: not named); ``ties``: one of
    :data:`TIES`; ``final``: the season's top N players go to the season's final (0: none)."""

    best: int | None = None
    of: int | None = None
    qualify: int = 0
    points: tuple[int, ...] = ()
    improved: int = 0
    ties: str = "shared"
    final: int = 0


@dataclass(frozen=True)
class Improvement:
    """A player's gain: the average score of their last K nights less that of their first K."""

    key: str
    name: str
    first: Decimal
    last: Decimal
    gain: Decimal


def night_score(one: PlayerNight, points: Sequence[int]) -> int:
    """What one night is worth: its wins, or the points of the couple's place."""
    if not points:
        return one.wins
    if one.place is None or not 1 <= one.place <= len(points):
        return 0
    return points[one.place - 1]


def scores_by_night(
    player: PlayerStanding, counting: Sequence[str], points: Sequence[int]
) -> list[int]:
    """The player's score of each night they played among ``counting`` (in that order)."""
    by_drive: dict[str, int] = {}
    for one in player.nights:
        by_drive[one.drive] = by_drive.get(one.drive, 0) + night_score(one, points)
    return [by_drive[d] for d in counting if d in by_drive]


def _tie_key(row: PlayerStanding, ties: str) -> tuple[int, ...]:
    if ties == "nights_won":
        return (-row.score, -row.nights_won, -row.best_score)
    if ties == "best_night":
        return (-row.score, -row.best_score, -row.nights_won)
    return (-row.score,)


def apply_rules(
    players: Sequence[PlayerStanding], drives: Sequence[str], rules: Rules = Rules()
) -> list[PlayerStanding]:
    """The players of :func:`season_standings` scored and placed by ``rules``, ``drives`` the
    season's drives in date order. The qualified come first, placed (competition ranking:
    players the tie rule cannot tell apart share a place); those not qualified yet follow,
    in the same order, with no place (0). Within a shared place: the better average, the
    better best night, then by name."""
    counting = list(drives[: rules.of] if rules.of is not None else drives)
    counts = set(counting)
    rows = []
    for player in players:
        scores = scores_by_night(player, counting, rules.points)
        best = sorted(scores, reverse=True)[: rules.best] if rules.best is not None else scores
        won = {one.drive for one in player.nights if one.place == 1 and one.drive in counts}
        rows.append(
            replace(
                player,
                score=sum(best),
                counted=len(best),
                nights_won=len(won),
                best_score=max(scores, default=0),
                qualified=len(scores) >= rules.qualify and bool(scores),
            )
        )
    rows.sort(
        key=lambda r: (
            not r.qualified,
            *_tie_key(r, rules.ties),
            -r.average,
            -r.best,
            r.name.casefold(),
            r.key,
        )
    )
    placed: list[PlayerStanding] = []
    for index, row in enumerate(rows):
        if not row.qualified:
            placed.append(replace(row, place=0))
            continue
        same = placed and _tie_key(placed[-1], rules.ties) == _tie_key(row, rules.ties)
        placed.append(replace(row, place=placed[-1].place if same else index + 1))
    return placed


def most_improved(
    players: Sequence[PlayerStanding], drives: Sequence[str], rules: Rules
) -> list[Improvement]:
    """The most improved players: among those who played at least 2·K of the counting nights,
    the biggest gain of the average score of their last K nights over their first K (to two
    decimals); everyone of that gain (a tie names them all); nobody when no one gained or K
    is 0."""
    k = rules.improved
    if k <= 0:
        return []
    counting = list(drives[: rules.of] if rules.of is not None else drives)
    gains = []
    for player in players:
        scores = scores_by_night(player, counting, rules.points)
        if len(scores) < 2 * k:
            continue
        first, last = average(sum(scores[:k]), k), average(sum(scores[-k:]), k)
        gains.append(Improvement(player.key, player.name, first, last, last - first))
    top = max((g.gain for g in gains), default=Decimal(0))
    if top <= 0:
        return []
    return sorted((g for g in gains if g.gain == top), key=lambda g: g.name.casefold())


def finalists(players: Sequence[PlayerStanding], rules: Rules) -> list[PlayerStanding]:
    """The season final's players: the qualified placed in the top N (a tie at the cut takes
    everyone of that place); none when N is 0."""
    if rules.final <= 0:
        return []
    return [p for p in players if p.qualified and 0 < p.place <= rules.final]
