"""The movement of a drive: who sits at which table for each game (docs/rules.md §7).

Terms:
- A *seating* is the open tables of one game, each listing the couple that *stays* (was there
  last game) and the couple that *arrives* (moved in, and deals first); either may be None.
- A *sit-out* table seats one couple alone. At most one table sits out at any game.
- A *closed* table seats nobody any more; it keeps its number (numbers are printed on the
  tables) and the movement skips it.
- *winners-move* (default): the winner at table t moves to the next open table, the loser
  stays; *losers-move*: the other way round. A lone couple always moves on.

At game 1 "by number" table t seats couples 2t−1 (stays) and 2t (arrives); "shuffle" seats a
permutation drawn from a recorded seed the same way. Between games, withdrawals empty seats
(two sit-out tables merge: the lone couple of the higher-numbered one moves to the lower one as
its arriving couple and the emptied table closes), then late arrivals fill the sit-out seat or
open a new table after the last.

This module computes seatings and checks them; it stores nothing and does not judge results.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

__all__ = [
    "MOVEMENTS",
    "Movement",
    "MovementError",
    "Seating",
    "TableSeat",
    "check_invariants",
    "credited_wins",
    "first_seating",
    "next_seating",
]

Movement = Literal["winners-move", "losers-move"]
MOVEMENTS: Final[tuple[str, ...]] = ("winners-move", "losers-move")


class MovementError(ValueError):
    """A seating cannot be computed from what was given; ``code`` says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class TableSeat:
    """One open table at one game. ``arrives`` deals first; a lone couple is a sit-out."""

    table: int
    stays: int | None
    arrives: int | None

    @property
    def couples(self) -> tuple[int, ...]:
        return tuple(c for c in (self.stays, self.arrives) if c is not None)

    @property
    def is_sit_out(self) -> bool:
        return (self.stays is None) != (self.arrives is None)

    @property
    def lone(self) -> int | None:
        """The couple sitting out at this table, if it is a sit-out."""
        if not self.is_sit_out:
            return None
        return self.stays if self.stays is not None else self.arrives

    @property
    def dealer(self) -> int | None:
        """The couple that deals first: the arriving one (at game 1, the even number)."""
        return self.arrives if self.arrives is not None else self.stays

    def other(self, couple: int) -> int | None:
        if couple == self.stays:
            return self.arrives
        if couple == self.arrives:
            return self.stays
        raise MovementError("not_at_table", f"Couple {couple} is not at table {self.table}.")


@dataclass(frozen=True, slots=True)
class Seating:
    """The open tables of one game in table order, and the numbers of the closed ones."""

    tables: tuple[TableSeat, ...]
    closed: frozenset[int] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        numbers = [t.table for t in self.tables]
        if numbers != sorted(set(numbers)):
            raise MovementError("bad_tables", "Tables must be listed once each, in order.")

    @property
    def last_table(self) -> int:
        return max([t.table for t in self.tables] + list(self.closed), default=0)

    def table_of(self) -> dict[int, int]:
        """Couple number → table number."""
        return {c: t.table for t in self.tables for c in t.couples}

    def by_number(self) -> dict[int, TableSeat]:
        return {t.table: t for t in self.tables}

    @property
    def sit_out(self) -> TableSeat | None:
        return next((t for t in self.tables if t.is_sit_out), None)

    def to_list(self) -> list[dict[str, int | None]]:
        return [{"table": t.table, "stays": t.stays, "arrives": t.arrives} for t in self.tables]


def _pair_up(order: Sequence[int], first_table: int = 1) -> tuple[TableSeat, ...]:
    return tuple(
        TableSeat(
            table=first_table + i // 2,
            stays=order[i],
            arrives=order[i + 1] if i + 1 < len(order) else None,
        )
        for i in range(0, len(order), 2)
    )


def first_seating(couples: Iterable[int], *, shuffle_seed: int | None = None) -> Seating:
    """Game 1: T = ⌈N/2⌉ tables; "by number" table t seats 2t−1 (stays) and 2t (arrives),
    or the couples in an order drawn from ``shuffle_seed``. N odd: the last table sits out."""
    order = sorted(set(couples))
    if not order:
        raise MovementError("no_couples", "A drive needs at least one couple to start.")
    if shuffle_seed is not None:
        random.Random(shuffle_seed).shuffle(order)
    return Seating(_pair_up(order))


def next_seating(
    seating: Seating,
    winners: Mapping[int, int],
    *,
    movement: Movement = "winners-move",
    withdrawn: Collection[int] = (),
    late: Sequence[int] = (),
    sit_out_last: bool = False,
) -> Seating:
    """The seating of the next game.

    ``winners`` maps each table with two couples to its winning couple (sit-out tables need
    none). ``withdrawn`` couples leave before the next game, ``late`` couples join it (in the
    order given). Raises :class:`MovementError` when a result is missing or names a couple
    not at that table, or a late or withdrawn couple is unknown.

    ``sit_out_last``: the tables played are always 1..F, without a hole, and the sit-out (if
    any) is the place after them, F+1, which is no table in the hall (see
    :func:`_tables_without_holes`); no table closes. Without it, the rules of §7 as first
    written: an emptied table closes and a sit-out stays where the withdrawal left it.
    """
    if movement not in MOVEMENTS:
        raise MovementError("bad_movement", f"Movement must be one of {', '.join(MOVEMENTS)}.")
    tables = seating.tables
    if not tables:
        raise MovementError("no_tables", "There is no open table.")
    stays: dict[int, int | None] = {}
    movers: list[int | None] = []
    for seat in tables:
        if seat.is_sit_out or not seat.couples:
            stays[seat.table] = None
            movers.append(seat.lone)
            continue
        winner = winners.get(seat.table)
        if winner is None:
            raise MovementError("missing_result", f"Table {seat.table} has no result.")
        if winner not in seat.couples:
            raise MovementError(
                "winner_not_at_table", f"Couple {winner} did not play at table {seat.table}."
            )
        loser = seat.other(winner)
        mover, stayer = (winner, loser) if movement == "winners-move" else (loser, winner)
        stays[seat.table] = stayer
        movers.append(mover)
    # The mover of each open table arrives at the next open one; the last one's at the first.
    arrivals = movers[-1:] + movers[:-1]
    new = [
        TableSeat(seat.table, stays[seat.table], arrival)
        for seat, arrival in zip(tables, arrivals, strict=True)
    ]
    changed = _apply_changes(new, set(seating.closed), withdrawn, late, seating)
    if not sit_out_last:
        return changed
    return Seating(_tables_without_holes(list(changed.tables)), seating.closed)


def _tables_without_holes(tables: list[TableSeat]) -> tuple[TableSeat, ...]:
    """The tables of a game renumbered as little as possible so that the F tables where two
    couples play are tables 1..F and the lone couple, if any, sits out at place F+1 (no table
    in the hall: it is shown as "sits out", and it gets no table card).

    A hole among 1..F (a table emptied by withdrawals, or where a couple was left alone) is
    filled by the two couples of the highest-numbered table, who keep their roles (who stays,
    who arrives and deals) and their opponent: only the table they play at changes. Nobody
    plays anyone else than the movement gave them; from the next game on the movement goes
    round tables 1..F and the sit-out as usual."""
    pairs = {t.table: t for t in tables if not t.is_sit_out}
    lone = next((t for t in tables if t.is_sit_out), None)
    count = len(pairs)
    for hole in range(1, count + 1):
        if hole in pairs:
            continue
        top = max(pairs)
        moved = pairs.pop(top)
        pairs[hole] = TableSeat(hole, moved.stays, moved.arrives)
    out = [pairs[n] for n in sorted(pairs)]
    if lone is not None:
        out.append(TableSeat(count + 1, lone.stays, lone.arrives))
    return tuple(out)


def _apply_changes(
    tables: list[TableSeat],
    closed: set[int],
    withdrawn: Collection[int],
    late: Sequence[int],
    previous: Seating,
) -> Seating:
    seated = {c for t in tables for c in t.couples}
    unknown = sorted(set(withdrawn) - seated)
    if unknown:
        raise MovementError(
            "not_seated", f"Couple {unknown[0]} is not playing, so cannot withdraw."
        )
    if len(set(late)) != len(late) or set(late) & seated:
        raise MovementError("already_seated", "A late couple is already seated.")
    gone = set(withdrawn)
    tables = [
        TableSeat(
            t.table,
            None if t.stays in gone else t.stays,
            None if t.arrives in gone else t.arrives,
        )
        for t in tables
    ]
    for t in tables:
        if not t.couples:
            closed.add(t.table)
    tables = [t for t in tables if t.couples]
    tables = _merge_sit_outs(tables, closed)
    last = max([t.table for t in tables] + list(closed) + [previous.last_table], default=0)
    for couple in late:
        sit_out = next((i for i, t in enumerate(tables) if t.is_sit_out), None)
        if sit_out is None:
            last += 1
            tables.append(TableSeat(last, couple, None))
            continue
        t = tables[sit_out]
        tables[sit_out] = (
            TableSeat(t.table, couple, t.arrives)
            if t.stays is None
            else TableSeat(t.table, t.stays, couple)
        )
    return Seating(tuple(tables), frozenset(closed))


def _merge_sit_outs(tables: list[TableSeat], closed: set[int]) -> list[TableSeat]:
    """Pair sit-out tables from the top: the lone couple of the higher-numbered table moves to
    the lower one as its arriving couple (the one already there stays) and its table closes."""
    while True:
        sit_outs = [t for t in tables if t.is_sit_out]
        if len(sit_outs) < 2:
            return tables
        low, high = sit_outs[0], sit_outs[1]
        merged = TableSeat(low.table, low.lone, high.lone)
        closed.add(high.table)
        tables = [merged if t is low else t for t in tables if t is not high]


def credited_wins(
    seating: Seating, winners: Mapping[int, int], *, sit_out_counts_as_win: bool = True
) -> dict[int, int]:
    """Couple → 1 for each couple credited with a win in this game (the punched holes)."""
    credit: dict[int, int] = {}
    for seat in seating.tables:
        if seat.is_sit_out:
            if sit_out_counts_as_win and seat.lone is not None:
                credit[seat.lone] = 1
        elif seat.table in winners:
            credit[winners[seat.table]] = 1
    return credit


def check_invariants(
    seating: Seating,
    active: Collection[int],
    *,
    wins: Mapping[int, int] | None = None,
    games_played: Mapping[int, int] | None = None,
) -> list[str]:
    """The §7 invariants for one game; returns the problems found (empty when all hold).

    Every active couple sits at exactly one table and nobody else sits; at most one table has
    a sit-out; no closed table seats anyone; and, given ``wins`` and ``games_played`` per
    couple, no couple has more wins than games played.
    """
    problems: list[str] = []
    seen: dict[int, int] = {}
    for seat in seating.tables:
        if seat.table in seating.closed:
            problems.append(f"closed table {seat.table} seats couples")
        for couple in seat.couples:
            if couple in seen:
                problems.append(f"couple {couple} sits at tables {seen[couple]} and {seat.table}")
            seen[couple] = seat.table
        if seat.stays is not None and seat.stays == seat.arrives:
            problems.append(f"couple {seat.stays} plays itself at table {seat.table}")
    missing = sorted(set(active) - set(seen))
    extra = sorted(set(seen) - set(active))
    if missing:
        problems.append(f"active couples without a table: {missing}")
    if extra:
        problems.append(f"couples seated but not active: {extra}")
    sit_outs = [t.table for t in seating.tables if t.is_sit_out]
    if len(sit_outs) > 1:
        problems.append(f"more than one sit-out table: {sit_outs}")
    if wins is not None and games_played is not None:
        for couple, won in wins.items():
            if won > games_played.get(couple, 0):
                problems.append(
                    f"couple {couple} has {won} wins in {games_played.get(couple, 0)} games"
                )
    return problems
