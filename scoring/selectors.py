"""Reads of the night: a game's seating and results, standings with places, the per-game
win grid, the couple → table list, punch-card reconciliation, and the drive's and couples'
summaries the full export (``scoring.records.export``) is made of.

Each selector takes a fixed number of queries whatever the size of the night (tests assert
it): rows are fetched in bulk and combined in Python. Wins are derived, never stored: a couple
wins a game when an accepted result names it, or when it sits out and the drive credits
sit-outs.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Count, Min, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from drives.inputs import SLOW_SHARE
from drives.models import Couple, Drive, Game, Seat
from engine.standings import standings as rank
from scoring.models import Result, TableCall
from scoring.prepared import prepared

WIN, LOSS, SIT_OUT_WIN, SIT_OUT, PENDING = "W", "L", "S", "-", "?"


def seats_by_game(drive: Drive, *, game: int | None = None) -> dict[int, list[Seat]]:
    """Game number → seats (table order), couples loaded. One query."""
    query = Seat.objects.filter(game__drive=drive).select_related(
        "game", "table", "stays", "arrives"
    )
    if game is not None:
        query = query.filter(game__number=game)
    out: dict[int, list[Seat]] = defaultdict(list)
    for seat in query.order_by("game__number", "table__number"):
        out[seat.game.number].append(seat)
    return out


def couple_number(couple: Couple | None) -> int | None:
    """The couple's number, or None for no couple (an empty seat, no winner yet)."""
    return couple.number if couple is not None else None


@prepared
def _game_seats(drive_id: int, number: int) -> QuerySet[Any, Any]:
    """Every seat of game ``number`` of drive ``drive_id`` in table order: the table, the
    couple that stays and the one that arrives, the result's state, winner, points and verdict
    (None without a result), and the game's id."""
    return (
        Seat.objects.filter(game__drive_id=drive_id, game__number=number)
        .order_by("table__number")
        .values(
            "table__number",
            "stays__number",
            "arrives__number",
            "result__state",
            "result__winner__number",
            "result__winner_points",
            "result__loser_points",
            "result__verdict",
            "game_id",
        )
    )


@prepared
def _game_times(game_id: int) -> QuerySet[Any, Any]:
    """When game ``game_id`` started and finished."""
    return Game.objects.filter(pk=game_id).values("started_at", "finished_at")


def game_view(drive: Drive, number: int) -> dict[str, Any] | None:
    """A game as the desk and the API see it: every table with the couple that stays, the one
    that arrives (and deals), the result, and the tables missing or in conflict. Two
    queries of plain columns, written by the ORM once a process (``scoring.prepared``: the desk
    grid and the projector read it after every result, BENCHMARKS.md)."""
    seats = _game_seats(drive.pk, number)
    if not seats:
        return None
    tables, missing, conflicts, pending, unusual = [], [], [], [], []
    undone, conflict, waiting = Result.State.UNDONE, Result.State.CONFLICT, Result.State.PENDING
    for seat in seats:
        table = seat["table__number"]
        stays, arrives = seat["stays__number"], seat["arrives__number"]
        state, verdict = seat["result__state"], seat["result__verdict"]
        winner, won, lost = (
            seat["result__winner__number"],
            seat["result__winner_points"],
            seat["result__loser_points"],
        )
        sit_out = (stays is None) != (arrives is None)
        row: dict[str, Any] = {
            "table": table,
            "stays": stays,
            "arrives": arrives,
            "deals": arrives or stays,
            "sit_out": sit_out,
            "winner": None,
            "points": None,
            "state": "sit-out" if sit_out else "missing",
        }
        if state is not None and state != undone:  # undone: taken back, no result
            points = [won, lost] if won is not None and lost is not None else None
            row.update(winner=winner, points=points, state=state)
            if state == conflict:
                conflicts.append(table)
            elif state == waiting:
                pending.append(table)
            if verdict == "trumpless_hands":
                unusual.append(table)
        elif not sit_out:
            missing.append(table)
        tables.append(row)
    game = _game_times(seats[0]["game_id"])[0]
    started_at, finished_at = game["started_at"], game["finished_at"]
    return {
        "number": number,
        "state": "finished" if finished_at else "playing",
        "started_at": started_at.isoformat(),
        "tables": tables,
        "missing": missing,
        "conflicts": conflicts,
        "pending": pending,
        "unusual": unusual,
        "reported": sum(1 for t in tables if t["winner"] is not None),
        "to_report": sum(1 for t in tables if not t["sit_out"]),
    }


@dataclass(frozen=True)
class CoupleRecord:
    couple: Couple
    wins: int
    played: int
    won_games: list[int]
    grid: dict[int, str]


def couple_records(drive: Drive) -> list[CoupleRecord]:
    """Every couple with its wins, games played and the game-by-game grid. Three queries."""
    return records_of_drives([drive])[drive.pk]


def records_of_drives(drives: list[Drive]) -> dict[int, list[CoupleRecord]]:
    """:func:`couple_records` of several drives at once (drive id → its records): three
    queries, however many drives (a season's standings read its nights this way)."""
    by_pk = {d.pk: d for d in drives}
    couples = list(Couple.objects.filter(drive_id__in=by_pk).order_by("drive_id", "number"))
    by_id = {c.pk: c for c in couples}
    # Accepted results only (a pending or conflicting one counts as no result yet). No
    # ordering: the models' default ordering would join and sort through games and drives.
    winners = dict(
        Result.objects.filter(game__drive_id__in=by_pk, state=Result.State.ACCEPTED)
        .order_by()
        .values_list("seat_id", "winner_id")
    )
    grid: dict[int, dict[int, str]] = {c.pk: {} for c in couples}
    seats = (
        Seat.objects.filter(game__drive_id__in=by_pk)
        .order_by()
        .values_list("id", "game__drive_id", "game__number", "stays_id", "arrives_id")
    )
    for seat_id, drive_id, game, stays, arrives in seats:
        present = [c for c in (stays, arrives) if c is not None]
        if len(present) == 1:
            counts = by_pk[drive_id].sit_out_counts_as_win
            grid[present[0]][game] = SIT_OUT_WIN if counts else SIT_OUT
            continue
        winner = winners.get(seat_id)
        for couple in present:
            if winner is None:
                grid[couple][game] = PENDING
            else:
                grid[couple][game] = WIN if winner == couple else LOSS
    records: dict[int, list[CoupleRecord]] = {pk: [] for pk in by_pk}
    for couple_id, games in grid.items():
        won = sorted(g for g, mark in games.items() if mark in (WIN, SIT_OUT_WIN))
        found = by_id[couple_id]
        records[found.drive_id].append(
            CoupleRecord(found, len(won), len(games), won, dict(sorted(games.items())))
        )
    return records


def standings_for_drive(drive: Drive) -> list[dict[str, Any]]:
    """Standings in order (wins, then couple number) with places (the drive's ranking);
    withdrawn couples keep their wins and take no place. Three queries."""
    return standings_for_drives([drive])[drive.pk]


def standings_for_drives(drives: list[Drive]) -> dict[int, list[dict[str, Any]]]:
    """:func:`standings_for_drive` of several drives at once (drive id → its rows): three
    queries, however many drives."""
    found = records_of_drives(drives)
    return {drive.pk: _standings_rows(drive, found[drive.pk]) for drive in drives}


def _standings_rows(drive: Drive, found: list[CoupleRecord]) -> list[dict[str, Any]]:
    records = {r.couple.number: r for r in found}
    rows = rank(
        {n: r.wins for n, r in records.items()},
        {n: r.played for n, r in records.items()},
        ranking=drive.ranking,  # type: ignore[arg-type]  # one of Drive.Ranking
        withdrawn=[n for n, r in records.items() if r.couple.withdrawn],
    )
    out = []
    for row in rows:
        couple = records[row.couple].couple
        out.append(
            {
                "place": row.place,
                "number": row.couple,
                "players": couple.players,
                "wins": row.wins,
                "played": row.played,
                "withdrawn": row.withdrawn,
                "eligible": not row.withdrawn,
            }
        )
    return out


def standings_counted(drives: Sequence[Drive]) -> dict[int, list[dict[str, Any]]]:
    """Drive id → its standings, as ``standings_for_drive`` gives them (and each row's
    ``couple``: the ``Couple``), for many drives at once: four queries whatever their number,
    the wins and games counted by the database (a club's page reads hundreds of nights)."""
    ids = [d.pk for d in drives]
    by_drive: dict[int, list[Couple]] = {i: [] for i in ids}
    for couple in Couple.objects.filter(drive_id__in=ids).order_by("drive_id", "number"):
        by_drive[couple.drive_id].append(couple)
    wins: dict[int, int] = defaultdict(int)
    played: dict[int, int] = defaultdict(int)
    accepted = (
        Result.objects.filter(game__drive_id__in=ids, state=Result.State.ACCEPTED)
        .order_by()
        .values("winner_id")
        .annotate(n=Count("id"))
    )
    for row in accepted:
        wins[row["winner_id"]] += row["n"]
    credits = {d.pk for d in drives if d.sit_out_counts_as_win}
    for side, other in (("stays", "arrives"), ("arrives", "stays")):
        seats = (
            Seat.objects.filter(game__drive_id__in=ids, **{f"{side}__isnull": False})
            .order_by()
            .values(f"{side}_id", "game__drive_id")
            .annotate(n=Count("id"), alone=Count("id", filter=Q(**{f"{other}__isnull": True})))
        )
        for row in seats:
            played[row[f"{side}_id"]] += row["n"]
            if row["game__drive_id"] in credits:
                wins[row[f"{side}_id"]] += row["alone"]
    out: dict[int, list[dict[str, Any]]] = {}
    for drive in drives:
        couples = {c.number: c for c in by_drive[drive.pk]}
        rows = rank(
            {n: wins[c.pk] for n, c in couples.items()},
            {n: played[c.pk] for n, c in couples.items()},
            ranking=drive.ranking,  # type: ignore[arg-type]  # one of Drive.Ranking
            withdrawn=[n for n, c in couples.items() if c.withdrawn],
        )
        out[drive.pk] = [
            {
                "place": row.place,
                "number": row.couple,
                "players": couples[row.couple].players,
                "wins": row.wins,
                "played": row.played,
                "withdrawn": row.withdrawn,
                "eligible": not row.withdrawn,
                "couple": couples[row.couple],
            }
            for row in rows
        ]
    return out


def current_tables(drive: Drive) -> list[dict[str, Any]]:
    """ "Couple → table" for the game in play, by couple number. One query, of plain columns
    (the game's seats as ``game_view`` reads them, written once a process)."""
    if drive.current_game == 0:
        return []
    seats = (
        (seat["table__number"], seat["stays__number"], seat["arrives__number"])
        for seat in _game_seats(drive.pk, drive.current_game)
    )
    out = []
    for table, stays, arrives in seats:
        for couple, other, deals in ((stays, arrives, False), (arrives, stays, True)):
            if couple is not None:
                out.append(
                    {
                        "number": couple,
                        "table": table,
                        "opponents": other,
                        "deals": deals or other is None,
                        "sit_out": other is None,
                    }
                )
    return sorted(out, key=lambda r: r["number"])


def win_grid(drive: Drive) -> list[dict[str, Any]]:
    """Per couple, game by game: W won, L lost, S a sit-out credited as a win, - a sit-out
    not credited, ? no accepted result yet; games a couple did not play are left out. Three
    queries."""
    return [
        {
            "number": record.couple.number,
            "players": record.couple.players,
            "wins": record.wins,
            "played": record.played,
            "withdrawn": record.couple.withdrawn,
            "games": {str(game): mark for game, mark in record.grid.items()},
        }
        for record in couple_records(drive)
    ]


def drive_counts(drive: Drive) -> dict[str, int]:
    """Couples registered and withdrawn, and the tables of the game in play. Two queries."""
    counts = Couple.objects.filter(drive=drive).aggregate(
        couples=Count("id"), withdrawn=Count("id", filter=Q(withdrawn_game__isnull=False))
    )
    tables = (
        Seat.objects.filter(game__drive=drive, game__number=drive.current_game).count()
        if drive.current_game
        else 0
    )
    return {"couples": counts["couples"], "withdrawn": counts["withdrawn"], "tables": tables}


def reconciliation(drive: Drive) -> list[dict[str, Any]]:
    """Couples whose counted holes differ from their recorded wins, with the games they won
    (the holes to look for on the card). Couples without a count are left out."""
    out = []
    for record in couple_records(drive):
        holes = record.couple.holes
        if holes is not None and holes != record.wins:
            out.append(
                {
                    "number": record.couple.number,
                    "holes": holes,
                    "wins": record.wins,
                    "difference": holes - record.wins,
                    "won_games": record.won_games,
                }
            )
    return out


def _iso_or_none(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def drive_summary(drive: Drive) -> dict[str, Any]:
    return {
        "slug": drive.slug,
        "club": drive.club.name,
        "name": drive.name,
        "date": drive.date.isoformat(),
        "venue": drive.venue,
        "games": drive.games,
        "ruleset": drive.ruleset,
        "rules": dict(drive.rules),
        "rules_in_play": drive.rules_in_play().to_dict(),
        "movement": drive.movement,
        "first_seating": drive.first_seating,
        "seed": drive.seed,
        "sit_out_counts_as_win": drive.sit_out_counts_as_win,
        "sit_out_last": drive.sit_out_last,
        "ranking": drive.ranking,
        "entry_fee": str(drive.entry_fee),
        "entry_fee_per": drive.entry_fee_per,
        "currency": drive.currency,
        "confirm_by_other_couple": drive.confirm_by_other_couple,
        "scorers_may_advance": drive.scorers_may_advance,
        "slow_table_minutes": drive.slow_table_minutes,
        "published": drive.published,
        "language": drive.language,
        "registration_opens": _iso_or_none(drive.registration_opens),
        "registration_closes": _iso_or_none(drive.registration_closes),
        "capacity": drive.capacity,
        "state": drive.state,
        "current_game": drive.current_game,
        "created_at": drive.created_at.isoformat(),
        "closed_at": drive.closed_at.isoformat() if drive.closed_at else None,
    }


def couple_summary(couple: Couple) -> dict[str, Any]:
    return {
        "number": couple.number,
        "players": couple.players,
        "paid": couple.paid,
        "checked_in": couple.checked_in,
        "cookie_jar": couple.cookie_jar,
        "withdrawn": couple.withdrawn,
        "joined_game": couple.joined_game,
        "withdrawn_game": couple.withdrawn_game,
        "holes": couple.holes,
    }


# --- the advance button ---------------------------------------------------------------------------


def advance_state(drive: Drive, game: dict[str, Any] | None, role: str) -> dict[str, Any]:
    """The "Start the next game" button of the dashboard and the desk, for a member with
    ``role``: whether it is shown (``shown``: the night runs, a next game exists, and the role
    may start it, see ``Drive.advance_roles``), whether it works now (``possible``), and why
    not (``reason``). ``game``: the game in play as ``game_view`` gives it."""
    if drive.state != Drive.State.RUNNING or game is None:
        return {"shown": False, "possible": False, "reason": ""}
    if drive.current_game >= drive.games:
        return {
            "shown": False,
            "possible": False,
            "reason": _("This is the last game: when its results are in, close the night."),
        }
    if role not in drive.advance_roles():
        return {"shown": False, "possible": False, "reason": ""}
    reasons = []
    if game["missing"]:
        reasons.append(
            _("no result yet at table(s) %(tables)s") % {"tables": _listing(game["missing"])}
        )
    if game["conflicts"]:
        reasons.append(
            _("a conflict to settle at table(s) %(tables)s")
            % {"tables": _listing(game["conflicts"])}
        )
    if game["pending"]:
        reasons.append(
            _("waiting for the other couple at table(s) %(tables)s")
            % {"tables": _listing(game["pending"])}
        )
    if reasons:
        reason = _("Game %(game)s is not complete: %(reasons)s.") % {
            "game": game["number"],
            "reasons": "; ".join(reasons),
        }
        return {"shown": True, "possible": False, "reason": reason}
    return {"shown": True, "possible": True, "reason": ""}


def _listing(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers)


# --- the tables' calls to the desk ---------------------------------------------------------------


def calls_waiting(drive: Drive, *, now: Any = None) -> list[dict[str, Any]]:
    """The calls the desk has not closed yet (open, then answered), oldest first, with the
    seconds each table has waited since it called: one query."""
    now = now or timezone.now()
    rows = (
        TableCall.objects.filter(drive=drive)
        .exclude(state=TableCall.State.CLOSED)
        .order_by("opened_at", "id")
        .values(
            "id", "state", "reason", "opened_at", "answered_at", "table__number", "game__number"
        )
    )
    calls: list[dict[str, Any]] = [
        {
            "id": row["id"],
            "state": row["state"],
            "table": row["table__number"],
            "game": row["game__number"],
            "reason": row["reason"],
            "opened_at": row["opened_at"],
            "answered_at": row["answered_at"],
            "waited_s": max(0, int((now - row["opened_at"]).total_seconds())),
        }
        for row in rows
    ]
    for call in calls:
        call["waited_min"] = call["waited_s"] // 60
    return calls


def table_call(table_id: int) -> dict[str, Any] | None:
    """The table's call that is not closed yet, for its phone's page (None: no call)."""
    row = (
        TableCall.objects.filter(table_id=table_id)
        .exclude(state=TableCall.State.CLOSED)
        .values("id", "state", "reason", "opened_at")
        .first()
    )
    return dict(row) if row is not None else None


# --- slow tables ---------------------------------------------------------------------------------


def slow_tables(drive: Drive, view: dict[str, Any] | None, *, now: Any = None) -> dict[str, Any]:
    """The tables of the game in play still missing ``drive.slow_table_minutes`` after most
    tables (``drives.inputs.SLOW_SHARE``) reported: ``tables`` (their numbers, marked now) and
    ``at`` (the moment they are, or will be, marked; None when nothing is to be marked). The
    director still decides when to start the next game. One query while some tables have not
    reported (whatever the size of the night), none once all have."""
    nothing: dict[str, Any] = {"tables": [], "at": None}
    minutes = drive.slow_table_minutes
    if view is None or not minutes or not view["missing"] or view["number"] != drive.current_game:
        return nothing
    need = math.ceil(SLOW_SHARE * view["to_report"])
    # When each table reported: the first entry of its result (a correction does not move it).
    firsts = sorted(
        Result.objects.filter(game__drive=drive, game__number=view["number"])
        .exclude(state=Result.State.UNDONE)
        .annotate(first=Min("versions__at"))
        .values_list("first", flat=True)
    )
    firsts = [first for first in firsts if first is not None]
    if view["reported"] < need or len(firsts) < need:
        return nothing
    at = firsts[need - 1] + timedelta(minutes=minutes)
    now = now or timezone.now()
    return {"tables": list(view["missing"]) if now >= at else [], "at": at}
