"""Standings and places (docs/rules.md §8): couples ordered by wins, places dense or competition.

Terms: *dense* places give each distinct number of wins one place (18, 18, 16, 15, 15 → 1, 1,
2, 3, 3); *competition* places skip after a tie (1, 1, 3, 4, 4). A couple that withdrew keeps
its wins but takes no place: it is left out when places are counted.

This module ranks; it does not settle ties for prizes (``prizes`` does) nor count wins from
results (the apps do, from the stored games).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Final, Literal

__all__ = ["RANKINGS", "Ranking", "StandingRow", "places", "standings"]

Ranking = Literal["dense", "competition"]
RANKINGS: Final[tuple[str, ...]] = ("dense", "competition")


@dataclass(frozen=True, slots=True)
class StandingRow:
    couple: int
    wins: int
    played: int
    place: int | None
    withdrawn: bool


def places(
    wins: Mapping[int, int], *, ranking: Ranking = "dense", withdrawn: Collection[int] = ()
) -> dict[int, int | None]:
    """Couple → place (None for a withdrawn couple)."""
    if ranking not in RANKINGS:
        raise ValueError(f"ranking must be one of {', '.join(RANKINGS)}")
    out_of_it = set(withdrawn)
    ranked = sorted((w for c, w in wins.items() if c not in out_of_it), reverse=True)
    place_of: dict[int, int] = {}
    distinct = 0
    for position, won in enumerate(ranked, start=1):
        if won not in place_of:
            distinct += 1
            place_of[won] = distinct if ranking == "dense" else position
    return {c: (None if c in out_of_it else place_of[w]) for c, w in wins.items()}


def standings(
    wins: Mapping[int, int],
    played: Mapping[int, int],
    *,
    ranking: Ranking = "dense",
    withdrawn: Collection[int] = (),
) -> list[StandingRow]:
    """Rows in standings order: most wins first, then by couple number."""
    place = places(wins, ranking=ranking, withdrawn=withdrawn)
    out_of_it = set(withdrawn)
    return [
        StandingRow(c, wins[c], played.get(c, 0), place[c], c in out_of_it)
        for c in sorted(wins, key=lambda c: (-wins[c], c))
    ]
