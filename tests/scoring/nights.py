"""Build and play nights through the services, and check docs/rules.md §7 on what is stored.

Shared by the scenario, property, query-count and concurrency tests and by the night
benchmarks. Everything goes through ``drives.services``, ``scoring.services`` and
``scoring.selectors``; the checks read the stored rows (seats, results, couples, tables) and
compare them with an independent re-statement of the movement written here from the text of
docs/rules.md §7, not with ``engine.movement``.

Nothing here decides who may do what (the API's business) or checks scores (the engine's).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db import transaction
from django.utils import timezone

from drives.models import AuditEntry, Club, Couple, Drive, Game, Seat, Table
from drives.services import (
    Actor,
    club_create,
    couple_update,
    couples_register,
    drive_create,
    drive_start,
    game_open,
)
from engine.movement import next_seating
from scoring.models import Result, ResultVersion
from scoring.selectors import couple_records, standings_for_drive
from scoring.services import game_advance, result_record, stored_seating

DESK = Actor(channel=AuditEntry.Channel.DESK)
_club_numbers = itertools.count(1)

Pick = Callable[[int, int, int], int]
"""(table, stays, arrives) → the winning couple."""


# --- building and playing ----------------------------------------------------------------------


def new_drive(couples: int = 0, *, club: Club | None = None, **settings: Any) -> Drive:
    """A drive of a new club (unless one is given) with ``couples`` couples registered."""
    if club is None:
        club = club_create(name=f"Club {next(_club_numbers)}", actor=DESK)
    settings.setdefault("name", "Friday 45s")
    settings.setdefault("date", date(2026, 11, 20))
    drive = drive_create(club=club, actor=DESK, **settings)
    if couples:
        register(drive, couples)
    return drive


def register(drive: Drive, count: int) -> list[int]:
    """Register ``count`` couples (late arrivals once the night runs); their numbers."""
    created = couples_register(
        drive=drive,
        couples=[{"players": [f"North {i}", f"South {i}"]} for i in range(count)],
        actor=DESK,
    )
    drive.refresh_from_db()
    return [c.number for c in created]


def start(drive: Drive, **options: Any) -> Game:
    game = drive_start(drive=drive, actor=DESK, **options)
    drive.refresh_from_db()
    return game


def withdraw(drive: Drive, *numbers: int) -> None:
    """Withdraw couples from the next game."""
    for number in numbers:
        couple_update(
            couple=Couple.objects.get(drive=drive, number=number), withdrawn=True, actor=DESK
        )
    drive.refresh_from_db()


def seeded(rng: random.Random) -> Pick:
    return lambda _table, stays, arrives: rng.choice((stays, arrives))


def lower_number(_table: int, stays: int, arrives: int) -> int:
    return min(stays, arrives)


def play_game(drive: Drive, game: int, pick: Pick) -> dict[int, int]:
    """Record a winner at every table of ``game`` that seats two couples; table → winner."""
    winners = {}
    for table, (stays, arrives) in stored_tables(drive, game).items():
        if stays is None or arrives is None:
            continue
        winner = pick(table, stays, arrives)
        recorded = result_record(drive=drive, game=game, table=table, winner=winner, actor=DESK)
        assert recorded.status == 201
        winners[table] = winner
    return winners


def advance(drive: Drive, game: int) -> Game:
    status, following = game_advance(drive=drive, game=game, actor=DESK)
    assert status == 201, status
    assert following.number == game + 1
    drive.refresh_from_db()
    return following


def fill_results(drive: Drive, game: int, pick: Pick) -> dict[int, int]:
    """Store an accepted result (and its entered version) at every full table of ``game`` in
    two bulk inserts, without the audit or the checks of ``result_record``: a quick way to
    build a big night for the benchmarks. Table → winner."""
    seats = Seat.objects.filter(game__drive=drive, game__number=game).select_related(
        "game", "table", "stays", "arrives"
    )
    results, winners = [], {}
    for seat in seats:
        if seat.stays is None or seat.arrives is None:
            continue
        number = pick(seat.table.number, seat.stays.number, seat.arrives.number)
        winner = seat.stays if number == seat.stays.number else seat.arrives
        results.append(Result(game=seat.game, seat=seat, winner=winner))
        winners[seat.table.number] = number
    with transaction.atomic():
        created = Result.objects.bulk_create(results)
        ResultVersion.objects.bulk_create(
            ResultVersion(result=r, kind=ResultVersion.Kind.ENTERED, winner=r.winner)
            for r in created
        )
    return winners


def build_night(drive: Drive, games: int, pick: Pick) -> None:
    """Bring a started drive to game ``games`` quickly: the results of each game stored in
    bulk (``fill_results``) and the next seating computed by the engine and stored by
    ``game_open``, as the advance does, but without its checks, locks or audit. The last game
    is left without results."""
    drive.refresh_from_db()
    for number in range(drive.current_game, games):
        winners = fill_results(drive, number, pick)
        game = Game.objects.get(drive=drive, number=number)
        following = next_seating(stored_seating(game), winners, movement=drive.movement)
        with transaction.atomic():
            Game.objects.filter(pk=game.pk).update(finished_at=timezone.now())
            game_open(drive=drive, number=number + 1, seating=following)
    drive.refresh_from_db()


# --- what is stored ----------------------------------------------------------------------------

Tables = dict[int, tuple[int | None, int | None]]
"""Open table number → (couple that stays, couple that arrives)."""


def stored_tables(drive: Drive, game: int) -> Tables:
    rows = Seat.objects.filter(game__drive=drive, game__number=game).values_list(
        "table__number", "stays__number", "arrives__number"
    )
    return {table: (stays, arrives) for table, stays, arrives in sorted(rows)}


def stored_winners(drive: Drive, game: int) -> dict[int, int]:
    """Table → winning couple, accepted results only."""
    return dict(
        Result.objects.filter(
            game__drive=drive, game__number=game, state=Result.State.ACCEPTED
        ).values_list("seat__table__number", "winner__number")
    )


def closed_tables(drive: Drive, game: int) -> set[int]:
    """Tables closed at ``game`` (closed before or at it)."""
    return set(
        Table.objects.filter(drive=drive, closed_game__lte=game).values_list("number", flat=True)
    )


def active_couples(drive: Drive, game: int) -> set[int]:
    """Couples that should sit at game ``game``: joined by then and not withdrawn before it."""
    return {
        number
        for number, joined, gone in Couple.objects.filter(drive=drive).values_list(
            "number", "joined_game", "withdrawn_game"
        )
        if joined <= game and (gone is None or gone > game)
    }


# --- docs/rules.md §7, restated -------------------------------------------------------------------


@dataclass
class Expected:
    tables: Tables
    closed: set[int] = field(default_factory=set)


def expected_next(
    tables: Tables,
    winners: dict[int, int],
    *,
    movement: str = "winners-move",
    closed: Iterable[int] = (),
    withdrawn: Iterable[int] = (),
    late: Sequence[int] = (),
    sit_out_last: bool = False,
) -> Expected:
    """The next game's open tables as docs/rules.md §7 words it.

    ``sit_out_last`` (drives created since the sit-out is no table): then no table closes;
    the tables where two couples play are 1..F, a hole among them taken by the couples of the
    highest-numbered table (their roles kept), and a lone couple sits out at F+1.

    The mover of each open table (the winner, or the loser with losers-move; a lone couple
    always) arrives at the next open table, the last one's at the first; the other stays.
    Withdrawn couples leave their seat empty (a table left empty closes); two sit-out tables
    merge, the higher one's couple arriving at the lower one, which closes the higher; late
    couples fill the sit-out seat or open a new table after the last, sitting out.
    """
    order = sorted(tables)
    closed_now = set(closed)
    movers: list[int] = []
    stayers: dict[int, int | None] = {}
    for table in order:
        couples = [c for c in tables[table] if c is not None]
        if len(couples) == 1:
            movers.append(couples[0])
            stayers[table] = None
            continue
        winner = winners[table]
        loser = couples[0] if couples[1] == winner else couples[1]
        moving, staying = (winner, loser) if movement == "winners-move" else (loser, winner)
        movers.append(moving)
        stayers[table] = staying
    last = max([*order, *closed_now], default=0)
    gone = set(withdrawn)
    nxt: Tables = {}
    for i, table in enumerate(order):
        arriving: int | None = movers[i - 1]  # i == 0 takes the last table's mover
        staying = stayers[table]
        staying = None if staying in gone else staying
        arriving = None if arriving in gone else arriving
        if staying is None and arriving is None:
            closed_now.add(table)
        else:
            nxt[table] = (staying, arriving)

    def sit_outs() -> list[int]:
        return [t for t in sorted(nxt) if None in nxt[t]]

    while len(sit_outs()) >= 2:
        low, high = sit_outs()[:2]
        (low_couple,) = [c for c in nxt[low] if c is not None]
        (high_couple,) = [c for c in nxt[high] if c is not None]
        nxt[low] = (low_couple, high_couple)
        del nxt[high]
        closed_now.add(high)
    for couple in late:
        waiting = sit_outs()
        if waiting:
            stays, arrives = nxt[waiting[0]]
            nxt[waiting[0]] = (couple, arrives) if stays is None else (stays, couple)
        else:
            last += 1
            nxt[last] = (couple, None)
    if sit_out_last:
        playing = {t: pair for t, pair in nxt.items() if None not in pair}
        alone = [pair for pair in nxt.values() if None in pair]
        for hole in range(1, len(playing) + 1):
            if hole not in playing:
                playing[hole] = playing.pop(max(playing))
        if alone:
            playing[len(playing) + 1] = alone[0]
        return Expected(dict(sorted(playing.items())), set(closed))
    return Expected(dict(sorted(nxt.items())), closed_now)


def check_game(drive: Drive, game: int, *, results: bool = True) -> None:
    """docs/rules.md §7's invariants for one stored game (and, with ``results``, its results)."""
    drive.refresh_from_db()
    tables = stored_tables(drive, game)
    assert tables, f"game {game} has no seats"
    closed = closed_tables(drive, game)
    seen: dict[int, int] = {}
    for table, couples in tables.items():
        assert table not in closed, f"game {game}: closed table {table} seats {couples}"
        present = [c for c in couples if c is not None]
        assert present, f"game {game}: table {table} is stored empty"
        for couple in present:
            assert couple not in seen, (
                f"game {game}: couple {couple} at tables {seen[couple]} and {table}"
            )
            seen[couple] = table
    assert set(seen) == active_couples(drive, game), (
        f"game {game}: seated {sorted(seen)}, active {sorted(active_couples(drive, game))}"
    )
    sit_out_tables = [t for t, couples in tables.items() if None in couples]
    assert len(sit_out_tables) <= 1, f"game {game}: sit-outs at {sit_out_tables}"
    if not results:
        return
    winners = stored_winners(drive, game)
    full = [t for t, couples in tables.items() if None not in couples]
    assert sorted(winners) == full, f"game {game}: results at {sorted(winners)}, tables {full}"
    for table, winner in winners.items():
        assert winner in tables[table]
    grid = {r.couple.number: r.grid for r in couple_records(drive)}
    credited = sorted(n for n, marks in grid.items() if marks.get(game) in ("W", "S"))
    expected = sorted(winners.values())
    if sit_out_tables and drive.sit_out_counts_as_win:
        expected = sorted(expected + [c for c in tables[sit_out_tables[0]] if c is not None])
    assert credited == expected, f"game {game}: credited {credited}, expected {expected}"
    assert len(credited) == len(full) + (1 if sit_out_tables and drive.sit_out_counts_as_win else 0)
    check_standings(drive)


def check_standings(drive: Drive) -> None:
    """Wins and games played of every couple, counted here from the stored games, against
    the standings selector; no couple has more wins than games played; withdrawn couples
    keep their wins and take no place."""
    played: dict[int, int] = {}
    wins: dict[int, int] = {}
    for game in range(1, drive.current_game + 1):
        tables = stored_tables(drive, game)
        winners = stored_winners(drive, game)
        for table, couples in tables.items():
            present = [c for c in couples if c is not None]
            for couple in present:
                played[couple] = played.get(couple, 0) + 1
            if len(present) == 1 and drive.sit_out_counts_as_win:
                wins[present[0]] = wins.get(present[0], 0) + 1
            elif table in winners:
                wins[winners[table]] = wins.get(winners[table], 0) + 1
    withdrawn = set(
        Couple.objects.filter(drive=drive, withdrawn_game__isnull=False).values_list(
            "number", flat=True
        )
    )
    for row in standings_for_drive(drive):
        number = row["number"]
        assert row["wins"] == wins.get(number, 0), (row, wins.get(number, 0))
        assert row["played"] == played.get(number, 0), (row, played.get(number, 0))
        assert row["wins"] <= row["played"], row
        if number in withdrawn:
            assert row["withdrawn"] and row["place"] is None and not row["eligible"], row
        else:
            assert row["place"] is not None and row["eligible"], row


def check_movement(drive: Drive, game: int, *, late: Sequence[int] = ()) -> None:
    """Game ``game + 1`` is seated from game ``game`` exactly as docs/rules.md §7 says (given the
    couples that joined, in order, and withdrew before it)."""
    before = stored_tables(drive, game)
    after = stored_tables(drive, game + 1)
    winners = stored_winners(drive, game)
    couples = Couple.objects.filter(drive=drive).values_list(
        "number", "joined_game", "withdrawn_game"
    )
    withdrawn = sorted(n for n, joined, gone in couples if gone == game + 1 and joined <= game)
    if not late:
        late = sorted(n for n, joined, gone in couples if joined == game + 1 and gone is None)
    expected = expected_next(
        before,
        winners,
        movement=drive.movement,
        closed=closed_tables(drive, game),
        withdrawn=withdrawn,
        late=late,
        sit_out_last=drive.sit_out_last,
    )
    assert after == expected.tables, f"game {game + 1}: stored {after}, expected {expected.tables}"
    assert closed_tables(drive, game + 1) == expected.closed
    if withdrawn or late:
        return
    # The plain case, word for word: the winner of table t is at the next open table as the
    # arriving couple, the loser stays (the other way round with losers-move).
    order = sorted(before)
    for i, table in enumerate(order):
        following = order[(i + 1) % len(order)]
        couples = [c for c in before[table] if c is not None]
        if len(couples) == 1:
            assert after[following][1] == couples[0], (game, table, after[following])
            continue
        winner = winners[table]
        loser = couples[0] if couples[1] == winner else couples[1]
        moving, staying = (winner, loser) if drive.movement == "winners-move" else (loser, winner)
        assert after[following][1] == moving, (game, table, "mover", after[following])
        assert after[table][0] == staying, (game, table, "stayer", after[table])


def play_and_check(
    drive: Drive, games: int, pick: Pick, *, between: Callable[[int], None] | None = None
) -> None:
    """Play games ``current..games``: results, the §7 checks, ``between(g)`` (late arrivals,
    withdrawals before game g + 1), the advance and the movement check."""
    drive.refresh_from_db()
    for game in range(drive.current_game, games + 1):
        check_game(drive, game, results=False)
        play_game(drive, game, pick)
        check_game(drive, game)
        if game == games:
            break
        if between is not None:
            between(game)
        advance(drive, game)
        check_movement(drive, game)
