"""Checking a stored night against docs/rules.md §7 (``manage.py drive check``).

After a crash, a restore or a night of hand corrections the organizer (or the person running
the server) can ask whether what is stored still makes one consistent night:

* the games are numbered 1 to the game in play, each played game is finished and was started
  once (one ``game.advance`` entry in the audit for each game after the first);
* in every game every active couple sits at exactly one table, nobody else sits, no closed
  table seats anyone, no table is stored empty, at most one table has a sit-out (the engine's
  ``check_invariants``);
* every result belongs to its seat's game, names a couple of that table, and is not at a
  sit-out table; every game before the one in play has an accepted result at every table of
  two couples (a game is complete before the next one starts), so the wins credited in it are
  its tables of two couples plus the credited sit-out;
* each game after the first is seated from the one before exactly as the movement says, from
  the winners as they stood when it was advanced (a correction made afterwards changes wins,
  never the seating already played) and the late arrivals and withdrawals of that break;
* no couple has more wins than games played.

Reads only; a handful of queries whatever the size of the night.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from django.db.models import Count
from django.utils.translation import gettext

from drives.models import AuditEntry, Couple, Drive, Game, Seat, Table
from engine.movement import MovementError, Seating, TableSeat, check_invariants, next_seating
from scoring.models import Result, ResultVersion


@dataclass
class CheckReport:
    """What ``drive_check`` looked at, and the problems found (empty: the night holds)."""

    games: int = 0
    seats: int = 0
    results: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def drive_check(drive: Drive) -> CheckReport:
    """Check the stored night of ``drive`` (see the module's docstring)."""
    report = CheckReport()
    problems = report.problems
    games = {
        number: finished
        for number, finished in Game.objects.filter(drive=drive).values_list(
            "number", "finished_at"
        )
    }
    report.games = len(games)
    current = drive.current_game
    if sorted(games) != list(range(1, current + 1)):
        problems.append(
            gettext("the games stored are %(games)s, expected 1 to %(current)s (the game in play)")
            % {"games": sorted(games), "current": current}
        )
    for number in sorted(games):
        if number < current and games[number] is None:
            problems.append(
                gettext("game %(number)s: game %(next)s started but it is not finished")
                % {"number": number, "next": number + 1}
            )

    couples = {
        number: (joined, gone)
        for number, joined, gone in Couple.objects.filter(drive=drive).values_list(
            "number", "joined_game", "withdrawn_game"
        )
    }
    closed_at = {
        number: closed
        for number, closed in Table.objects.filter(
            drive=drive, closed_game__isnull=False
        ).values_list("number", "closed_game")
        if closed is not None
    }
    seats: dict[int, dict[int, tuple[int | None, int | None]]] = defaultdict(dict)
    seat_of: dict[int, tuple[int, int]] = {}
    for seat_id, game, table, stays, arrives in Seat.objects.filter(game__drive=drive).values_list(
        "id", "game__number", "table__number", "stays__number", "arrives__number"
    ):
        seats[game][table] = (stays, arrives)
        seat_of[seat_id] = (game, table)
    report.seats = len(seat_of)

    results: dict[int, dict[int, tuple[str, int]]] = defaultdict(dict)
    result_ids: dict[int, tuple[int, int]] = {}
    rows = Result.objects.filter(game__drive=drive).values_list(
        "id", "seat_id", "game__number", "state", "winner__number"
    )
    for result_id, seat_id, game, state, winner in rows:
        report.results += 1
        where = seat_of.get(seat_id)
        if where is None or where[0] != game:
            problems.append(
                gettext("game %(game)s: result %(result_id)s is on a seat of another game")
                % {"game": game, "result_id": result_id}
            )
            continue
        table = where[1]
        if table in results[game]:
            problems.append(
                gettext("game %(game)s table %(table)s: more than one result")
                % {"game": game, "table": table}
            )
        results[game][table] = (state, winner)
        result_ids[result_id] = where
        if winner not in seats[game][table]:
            problems.append(
                gettext(
                    "game %(game)s table %(table)s: the winner, couple %(winner)s, is not at "
                    "the table"
                )
                % {"game": game, "table": table, "winner": winner}
            )
        if None in seats[game][table]:
            problems.append(
                gettext("game %(game)s table %(table)s: a result at a sit-out table")
                % {"game": game, "table": table}
            )

    # The winner when the game was advanced: a correction after the advance keeps the winner
    # it replaced in previous_winner.
    at_advance: dict[tuple[int, int], int] = {}
    corrections = (
        ResultVersion.objects.filter(
            result__game__drive=drive, kind=ResultVersion.Kind.RESOLVED, after_advance=True
        )
        .order_by("at", "id")
        .values_list("result_id", "previous_winner__number")
    )
    for result_id, previous in corrections:
        where = result_ids.get(result_id)
        if where is not None and previous is not None:
            at_advance.setdefault(where, previous)

    wins: Counter[int] = Counter()
    played: Counter[int] = Counter()
    for game in sorted(seats):
        tables = seats[game]
        closed = frozenset(t for t, first in closed_at.items() if first <= game)
        seating = Seating(
            tuple(TableSeat(t, stays, arrives) for t, (stays, arrives) in sorted(tables.items())),
            closed,
        )
        active = {
            n
            for n, (joined, gone) in couples.items()
            if joined <= game and (gone is None or gone > game)
        }
        problems.extend(f"game {game}: {p}" for p in check_invariants(seating, active))
        for table, pair in sorted(tables.items()):
            if pair == (None, None):
                problems.append(
                    gettext("game %(game)s table %(table)s: stored with nobody at it")
                    % {"game": game, "table": table}
                )
        full = [t for t, pair in tables.items() if None not in pair]
        accepted = {
            t: winner
            for t, (state, winner) in results[game].items()
            if state == Result.State.ACCEPTED
        }
        if game < current:
            missing = sorted(set(full) - set(accepted))
            if missing:
                problems.append(
                    gettext(
                        "game %(game)s: game %(next)s started without an accepted result at "
                        "table(s) %(list)s"
                    )
                    % {
                        "game": game,
                        "next": game + 1,
                        "list": ", ".join(str(t) for t in missing),
                    }
                )
        for pair in tables.values():
            present = [c for c in pair if c is not None]
            played.update(present)
            if len(present) == 1 and drive.sit_out_counts_as_win:
                wins[present[0]] += 1
        wins.update(accepted.values())

        if game + 1 in seats:
            winners = {t: at_advance.get((game, t), w) for t, w in accepted.items()}
            closed_next = frozenset(t for t, first in closed_at.items() if first <= game + 1)
            problems.extend(
                _movement_problems(drive, game, seating, winners, couples, seats, closed_next)
            )

    for number in sorted(couples):
        if wins[number] > played[number]:
            problems.append(
                gettext("couple %(number)s: %(wins)s wins in %(played)s games played")
                % {"number": number, "wins": wins[number], "played": played[number]}
            )

    advances = dict(
        AuditEntry.objects.filter(drive=drive, action="game.advance")
        .values_list("subject")
        .annotate(n=Count("id"))
        .values_list("subject", "n")
    )
    for game in range(2, current + 1):
        count = advances.get(f"game {game}", 0)
        if count != 1:
            problems.append(
                gettext("game %(game)s: started %(count)s times according to the audit")
                % {"game": game, "count": count}
            )
    return report


def _movement_problems(
    drive: Drive,
    game: int,
    seating: Seating,
    winners: dict[int, int],
    couples: dict[int, tuple[int, int | None]],
    seats: dict[int, dict[int, tuple[int | None, int | None]]],
    closed: frozenset[int],
) -> list[str]:
    """Game ``game + 1`` as stored against the movement applied to game ``game``."""
    following = game + 1
    withdrawn = sorted(n for n, (j, w) in couples.items() if w == following and j <= game)
    late = sorted(n for n, (j, w) in couples.items() if j == following and (w is None or w > j))
    try:
        expected = next_seating(
            seating,
            winners,
            movement=drive.movement,  # type: ignore[arg-type]  # one of Drive.Movement
            withdrawn=withdrawn,
            late=late,
            sit_out_last=drive.sit_out_last,
        )
    except MovementError as error:
        return [f"game {following}: cannot be seated from game {game}: {error.message}"]
    stored = {t: pair for t, pair in seats[following].items()}
    wanted = {t.table: (t.stays, t.arrives) for t in expected.tables}
    problems = []
    if closed != expected.closed:
        problems.append(
            gettext(
                "game %(following)s: tables closed %(closed)s, the movement from game %(game)s "
                "closes %(expected)s"
            )
            % {
                "following": following,
                "closed": sorted(closed),
                "game": game,
                "expected": sorted(expected.closed),
            }
        )
    for table in sorted(set(stored) | set(wanted)):
        if stored.get(table) != wanted.get(table):
            problems.append(
                gettext(
                    "game %(following)s table %(table)s: seats %(stored)s, the movement from "
                    "game %(game)s gives %(wanted)s"
                )
                % {
                    "following": following,
                    "table": table,
                    "stored": _pair(stored.get(table)),
                    "game": game,
                    "wanted": _pair(wanted.get(table)),
                }
            )
    return problems


def _pair(pair: tuple[int | None, int | None] | None) -> str:
    if pair is None:
        return gettext("nobody (no such table)")
    stays, arrives = pair
    return gettext("%(stays)s staying and %(arrives)s arriving") % {
        "stays": stays or "-",
        "arrives": arrives or "-",
    }
