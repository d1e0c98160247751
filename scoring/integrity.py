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
from datetime import datetime

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


Pair = tuple[int | None, int | None]  # (the couple that stays, the one that arrives)


@dataclass
class _Night:
    """The night as stored, read once (a query a kind of row)."""

    drive: Drive
    # game number → when it finished (None: not finished)
    games: dict[int, datetime | None]
    # couple number → (the game it joined, the game it withdrew from, or None)
    couples: dict[int, tuple[int, int | None]]
    # table number → the first game it is closed for
    closed_at: dict[int, int]
    # game → table → who sits there
    seats: dict[int, dict[int, Pair]]
    # seat id → (game, table)
    seat_of: dict[int, tuple[int, int]]
    # game → table → (the result's state, its winner), once the results are placed
    results: dict[int, dict[int, tuple[str, int]]] = field(
        default_factory=lambda: defaultdict(dict)
    )
    # result id → (game, table)
    result_ids: dict[int, tuple[int, int]] = field(default_factory=dict)

    def closed(self, game: int) -> frozenset[int]:
        return frozenset(t for t, first in self.closed_at.items() if first <= game)

    def seating(self, game: int) -> Seating:
        tables = self.seats[game]
        return Seating(
            tuple(TableSeat(t, stays, arrives) for t, (stays, arrives) in sorted(tables.items())),
            self.closed(game),
        )

    def active(self, game: int) -> set[int]:
        """The couples who should sit in ``game``: joined, and not yet withdrawn."""
        return {
            n
            for n, (joined, gone) in self.couples.items()
            if joined <= game and (gone is None or gone > game)
        }

    def accepted(self, game: int) -> dict[int, int]:
        """Table → winner of the game's accepted results."""
        return {
            t: winner
            for t, (state, winner) in self.results[game].items()
            if state == Result.State.ACCEPTED
        }


def drive_check(drive: Drive) -> CheckReport:
    """Check the stored night of ``drive`` (see the module's docstring): one function a
    check, the problems listed as the night goes (its games, its results, game by game, the
    couples' wins, the audit)."""
    night = _read(drive)
    report = CheckReport(games=len(night.games), seats=len(night.seat_of))
    problems = report.problems
    problems += _games_numbered(night)
    problems += _games_finished(night)
    report.results, placed = _results_placed(night)
    problems += placed
    at_advance = _winners_at_advance(night)
    for game in sorted(night.seats):
        seating = night.seating(game)
        problems += _seating_holds(night, game, seating)
        problems += _complete_before_next(night, game)
        problems += _seated_by_the_movement(night, game, seating, at_advance)
    problems += _wins_within_games_played(night)
    problems += _games_started_once(night)
    return report


def _read(drive: Drive) -> _Night:
    games = dict(Game.objects.filter(drive=drive).values_list("number", "finished_at"))
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
    seats: dict[int, dict[int, Pair]] = defaultdict(dict)
    seat_of: dict[int, tuple[int, int]] = {}
    for seat_id, game, table, stays, arrives in Seat.objects.filter(game__drive=drive).values_list(
        "id", "game__number", "table__number", "stays__number", "arrives__number"
    ):
        seats[game][table] = (stays, arrives)
        seat_of[seat_id] = (game, table)
    return _Night(drive, games, couples, closed_at, seats, seat_of)


def _games_numbered(night: _Night) -> list[str]:
    """The games are numbered 1 to the game in play."""
    current = night.drive.current_game
    if sorted(night.games) == list(range(1, current + 1)):
        return []
    return [
        gettext("the games stored are %(games)s, expected 1 to %(current)s (the game in play)")
        % {"games": sorted(night.games), "current": current}
    ]


def _games_finished(night: _Night) -> list[str]:
    """Every game before the one in play is finished."""
    return [
        gettext("game %(number)s: game %(next)s started but it is not finished")
        % {"number": number, "next": number + 1}
        for number in sorted(night.games)
        if number < night.drive.current_game and night.games[number] is None
    ]


def _results_placed(night: _Night) -> tuple[int, list[str]]:
    """The results placed at their tables (``night.results``): how many there are, and the
    problems of those on a seat of another game, a second one at a table, a winner not at
    the table or a result at a sit-out table."""
    problems = []
    count = 0
    rows = Result.objects.filter(game__drive=night.drive).values_list(
        "id", "seat_id", "game__number", "state", "winner__number"
    )
    for result_id, seat_id, game, state, winner in rows:
        count += 1
        where = night.seat_of.get(seat_id)
        if where is None or where[0] != game:
            problems.append(
                gettext("game %(game)s: result %(result_id)s is on a seat of another game")
                % {"game": game, "result_id": result_id}
            )
            continue
        table = where[1]
        said = {"game": game, "table": table}
        if table in night.results[game]:
            problems.append(gettext("game %(game)s table %(table)s: more than one result") % said)
        night.results[game][table] = (state, winner)
        night.result_ids[result_id] = where
        if winner not in night.seats[game][table]:
            problems.append(
                gettext(
                    "game %(game)s table %(table)s: the winner, couple %(winner)s, is not at "
                    "the table"
                )
                % (said | {"winner": winner})
            )
        if None in night.seats[game][table]:
            problems.append(
                gettext("game %(game)s table %(table)s: a result at a sit-out table") % said
            )
    return count, problems


def _winners_at_advance(night: _Night) -> dict[tuple[int, int], int]:
    """(game, table) → the winner when the game was advanced, where a correction after the
    advance replaced it (the version keeps the winner it replaced in ``previous_winner``)."""
    at_advance: dict[tuple[int, int], int] = {}
    corrections = (
        ResultVersion.objects.filter(
            result__game__drive=night.drive,
            kind=ResultVersion.Kind.RESOLVED,
            after_advance=True,
        )
        .order_by("at", "id")
        .values_list("result_id", "previous_winner__number")
    )
    for result_id, previous in corrections:
        where = night.result_ids.get(result_id)
        if where is not None and previous is not None:
            at_advance.setdefault(where, previous)
    return at_advance


def _seating_holds(night: _Night, game: int, seating: Seating) -> list[str]:
    """Every active couple at exactly one table, nobody else, no closed table used, at most
    one sit-out (the engine's ``check_invariants``), and no table stored empty."""
    problems = [f"game {game}: {p}" for p in check_invariants(seating, night.active(game))]
    for table, pair in sorted(night.seats[game].items()):
        if pair == (None, None):
            problems.append(
                gettext("game %(game)s table %(table)s: stored with nobody at it")
                % {"game": game, "table": table}
            )
    return problems


def _complete_before_next(night: _Night, game: int) -> list[str]:
    """A game before the one in play has an accepted result at every table of two couples."""
    if game >= night.drive.current_game:
        return []
    full = [t for t, pair in night.seats[game].items() if None not in pair]
    missing = sorted(set(full) - set(night.accepted(game)))
    if not missing:
        return []
    return [
        gettext(
            "game %(game)s: game %(next)s started without an accepted result at table(s) %(list)s"
        )
        % {"game": game, "next": game + 1, "list": ", ".join(str(t) for t in missing)}
    ]


def _seated_by_the_movement(
    night: _Night, game: int, seating: Seating, at_advance: dict[tuple[int, int], int]
) -> list[str]:
    """The next game, if stored, seated from this one as the movement says, from the winners
    as they stood at the advance."""
    if game + 1 not in night.seats:
        return []
    winners = {t: at_advance.get((game, t), w) for t, w in night.accepted(game).items()}
    return _movement_problems(
        night.drive, game, seating, winners, night.couples, night.seats, night.closed(game + 1)
    )


def _wins_within_games_played(night: _Night) -> list[str]:
    """No couple has more wins (accepted results, and sit-outs where they count as a win)
    than games played."""
    wins: Counter[int] = Counter()
    played: Counter[int] = Counter()
    for game in sorted(night.seats):
        for pair in night.seats[game].values():
            present = [c for c in pair if c is not None]
            played.update(present)
            if len(present) == 1 and night.drive.sit_out_counts_as_win:
                wins[present[0]] += 1
        wins.update(night.accepted(game).values())
    return [
        gettext("couple %(number)s: %(wins)s wins in %(played)s games played")
        % {"number": number, "wins": wins[number], "played": played[number]}
        for number in sorted(night.couples)
        if wins[number] > played[number]
    ]


def _games_started_once(night: _Night) -> list[str]:
    """Each game after the first was started once: one ``game.advance`` in the audit."""
    advances = dict(
        AuditEntry.objects.filter(drive=night.drive, action="game.advance")
        .values_list("subject")
        .annotate(n=Count("id"))
        .values_list("subject", "n")
    )
    problems = []
    for game in range(2, night.drive.current_game + 1):
        count = advances.get(f"game {game}", 0)
        if count != 1:
            problems.append(
                gettext("game %(game)s: started %(count)s times according to the audit")
                % {"game": game, "count": count}
            )
    return problems


def _movement_problems(
    drive: Drive,
    game: int,
    seating: Seating,
    winners: dict[int, int],
    couples: dict[int, tuple[int, int | None]],
    seats: dict[int, dict[int, Pair]],
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


def _pair(pair: Pair | None) -> str:
    if pair is None:
        return gettext("nobody (no such table)")
    stays, arrives = pair
    return gettext("%(stays)s staying and %(arrives)s arriving") % {
        "stays": stays or "-",
        "arrives": arrives or "-",
    }
