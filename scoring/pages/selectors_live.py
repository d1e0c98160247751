"""Reads of the live pages, beside ``scoring.selectors``: who entered each result of a game
(the desk grid), the game in play at one table (the table page), and one couple's table,
pending confirmation and punch card (the couple page).

Each takes a fixed number of queries whatever the size of the night, and reads only what one
page needs: a phone polling its table or its couple every few seconds reads a handful of
rows, not the whole night. The phones' reads are plain values (no model instances), in
queries the ORM writes once per process (``scoring.prepared``): rendering a phone's page
after a change costs the web process far less than building the same queries at every poll.
Who may see what is the views' business; the night's rules (what counts as a win) are those
of ``scoring.selectors``, restated here for one couple.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, F, Max, Q, QuerySet

from drives.models import Couple, Seat, Table
from scoring.models import Result, ResultVersion
from scoring.prepared import prepared
from scoring.prizes.selectors import prize_table
from scoring.selectors import LOSS, PENDING, SIT_OUT, SIT_OUT_WIN, WIN, standings_for_drive
from scoring.services import undo_open_until

# A result's history as the desk grid shows it, by column; the first is the table's number.
_VERSION_COLUMNS = (
    "result__seat__table__number",
    "kind",
    "winner__number",
    "previous_winner__number",
    "winner_points",
    "loser_points",
    "channel",
    "user_name",
    "couple__number",
    "reason",
    "after_advance",
    "at",
)


def _versions(found: QuerySet[ResultVersion]) -> QuerySet[Any, Any]:
    written: QuerySet[Any, Any] = (
        found.order_by("at", "id")
        .annotate(user_name=F(f"user__{get_user_model().USERNAME_FIELD}"))
        .values(*_VERSION_COLUMNS)
    )
    return written


# The tables whose histories one read asks for at most (the desk's rows rendered again after
# a few results: the three desks poll every 3 s, a few results a second come in).
FEW_TABLES = 16


@prepared
def _tables_versions(drive_id: int, game: int, *tables: int) -> QuerySet[Any, Any]:
    """The histories of the results at ``tables`` (``FEW_TABLES`` of them, a table repeated to
    make up the number) in game ``game`` of drive ``drive_id``."""
    return _versions(
        ResultVersion.objects.filter(
            result__game__drive_id=drive_id,
            result__game__number=game,
            result__seat__table__number__in=tables,
        )
    )


@prepared
def _stamps(drive_id: int, game: int) -> QuerySet[Any, Any]:
    """Each table's count of versions and newest version's id in game ``game`` of drive
    ``drive_id``."""
    return (
        ResultVersion.objects.filter(result__game__drive_id=drive_id, result__game__number=game)
        .order_by()
        .values("result__seat__table__number")
        .annotate(count=Count("id"), last=Max("id"))
    )


def result_versions(
    drive: Any, game: int, tables: list[int] | None = None
) -> dict[int, list[dict[str, Any]]]:
    """Table number → every submission and decision about its result in ``game`` (at
    ``tables`` only, when given), oldest first: kind, winner, points, channel, user name,
    couple, reason, time. Of plain columns (no model instances: the desk grid reads it after
    every result): one query, for a few tables (the desk's rows rendered again after a few
    results) written by the ORM once a process (``scoring.prepared``)."""
    labels = {kind: str(label) for kind, label in ResultVersion.Kind.choices}
    if tables is not None and not tables:
        return {}
    if tables is not None and len(tables) <= FEW_TABLES:
        asked = [*tables, *[tables[-1]] * (FEW_TABLES - len(tables))]
        rows = _tables_versions(drive.pk, game, *asked)
    else:
        rows = list(
            _versions(
                ResultVersion.objects.filter(result__game__drive=drive, result__game__number=game)
            )
        )
        if tables is not None:
            wanted = set(tables)
            rows = [row for row in rows if row["result__seat__table__number"] in wanted]
    out: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        kind, won = row["kind"], row["winner_points"]
        out.setdefault(row["result__seat__table__number"], []).append(
            {
                "kind": kind,
                "kind_label": labels.get(kind, kind),
                "winner": row["winner__number"],
                "previous_winner": row["previous_winner__number"],
                "points": [won, row["loser_points"]] if won is not None else None,
                "channel": row["channel"],
                "user": row["user_name"],
                "couple": row["couple__number"],
                "reason": row["reason"],
                "after_advance": row["after_advance"],
                "at": row["at"],
            }
        )
    return out


def result_stamps(drive: Any, game: int) -> dict[int, tuple[int, int]]:
    """Table number → a stamp of its result's history in ``game``: how many versions, and the
    newest one's id. The versions are never changed once written, only added (a drive's
    restore writes them all again, in the same order), so the stamp changes whenever
    ``result_versions`` would read anything new at that table. One
    query, grouped in the database and written by the ORM once a process: the desk grid reads
    it at every change of the night, and reads the versions themselves only of the tables
    whose row it must render again."""
    return {
        row["result__seat__table__number"]: (row["count"], row["last"])
        for row in _stamps(drive.pk, game)
    }


# What a phone's page shows of its seat in the game in play, read as plain values (no model
# instances, only these columns): the game, the table, the two couples, the result.
_COUPLE_COLUMNS = ("number", "player1", "player2")
_SEAT_COLUMNS = (
    "game__number",
    "table__number",
    "stays_id",
    *(f"stays__{column}" for column in _COUPLE_COLUMNS),
    "arrives_id",
    *(f"arrives__{column}" for column in _COUPLE_COLUMNS),
    "result__id",
    "result__state",
    "result__winner_id",
    "result__winner__number",
    "result__winner_points",
    "result__loser_points",
    "result__verdict",
)


def _seat(seats: QuerySet[Seat]) -> QuerySet[Any, Any]:
    seat: QuerySet[Any, Any] = seats.order_by().values(*_SEAT_COLUMNS)[:1]
    return seat


@prepared
def _table_seat(table_id: int, drive_id: int, game: int) -> QuerySet[Any, Any]:
    """The seat of table ``table_id`` in game ``game`` of drive ``drive_id``."""
    return _seat(Seat.objects.filter(table_id=table_id, game__drive_id=drive_id, game__number=game))


@prepared
def _couple_seat(couple_id: int, drive_id: int, game: int) -> QuerySet[Any, Any]:
    """The seat of couple ``couple_id`` in game ``game`` of drive ``drive_id``."""
    return _seat(
        Seat.objects.filter(game__drive_id=drive_id, game__number=game).filter(
            Q(stays_id=couple_id) | Q(arrives_id=couple_id)
        )
    )


@prepared
def _couple_seats(couple_id: int, drive_id: int) -> QuerySet[Any, Any]:
    """Every seat of couple ``couple_id`` in drive ``drive_id``: the game, the two couples,
    its result's state and winner (no couple arrives at a sit-out's seat)."""
    return (
        Seat.objects.filter(game__drive_id=drive_id)
        .filter(Q(stays_id=couple_id) | Q(arrives_id=couple_id))
        .order_by()
        .values("game__number", "stays_id", "arrives_id", "result__state", "result__winner_id")
    )


@prepared
def _first_entry(result_id: int) -> QuerySet[Any, Any]:
    """The couple (None for a table or the desk) that entered result ``result_id`` first."""
    return (
        ResultVersion.objects.filter(result_id=result_id)
        .order_by("at", "id")
        .values("couple_id")[:1]
    )


@prepared
def _entries(result_id: int) -> QuerySet[Any, Any]:
    """Every version of result ``result_id``, oldest first: what ``undo_open_until`` reads, and
    who entered it."""
    return (
        ResultVersion.objects.filter(result_id=result_id)
        .order_by("at", "id")
        .values("kind", "channel", "couple_id", "device", "at")
    )


def _one_row(rows: list[dict[str, Any]]) -> dict[str, Any] | None:
    return rows[0] if rows else None


def _couple_of(row: dict[str, Any], side: str) -> dict[str, Any] | None:
    """The couple that ``side`` ("stays" or "arrives") of a seat row names: number and names."""
    if row[f"{side}_id"] is None:
        return None
    return {column: row[f"{side}__{column}"] for column in _COUPLE_COLUMNS}


def _result_row(row: dict[str, Any]) -> dict[str, Any] | None:
    if row["result__id"] is None or row["result__state"] == Result.State.UNDONE:
        return None
    winner_points, loser_points = row["result__winner_points"], row["result__loser_points"]
    return {
        "id": row["result__id"],
        "winner": row["result__winner__number"],
        # Result.points
        "points": (
            None if winner_points is None or loser_points is None else [winner_points, loser_points]
        ),
        "state": row["result__state"],
        "unusual": row["result__verdict"] == "trumpless_hands",
    }


def table_now(table: Table) -> dict[str, Any] | None:
    """The game in play at ``table`` (its drive loaded on it): the game number, the couple
    that stays and the one that arrives (and deals), each as its number and names, whether it
    is a sit-out, and the result. None before the night starts or when nobody sits at this
    table in the game. One query."""
    drive = table.drive
    if not drive.current_game:
        return None
    row = _one_row(_table_seat(table.pk, drive.pk, drive.current_game))
    if row is None:
        return None
    stays, arrives = _couple_of(row, "stays"), _couple_of(row, "arrives")
    couples = [c for c in (stays, arrives) if c is not None]
    return {
        "game": row["game__number"],
        "table": table.number,
        "stays": stays,
        "arrives": arrives,
        "deals": arrives or stays,
        "couples": couples,
        "sit_out": len(couples) < 2,
        "result": _result_row(row),
    }


def couple_now(couple: Couple) -> dict[str, Any] | None:
    """The couple's seat in the game in play (its drive loaded on it): table, opponents (number
    and names), who deals, the result, and whether the result waits for *this* couple's
    confirmation (entered from the other side on a drive with ``confirm_by_other_couple``).
    None before the start or when the couple has no seat in this game. One query, two when a
    result is pending."""
    drive = couple.drive
    if not drive.current_game:
        return None
    row = _one_row(_couple_seat(couple.pk, drive.pk, drive.current_game))
    if row is None:
        return None
    ours_stays = row["stays_id"] == couple.pk
    opponent = _couple_of(row, "arrives" if ours_stays else "stays")
    result = _result_row(row)
    awaits_us = False
    if result is not None and result["state"] == Result.State.PENDING:
        # Who confirms is scoring.services.result_confirm's rule: not the couple that entered
        # it; when a table's token entered it (no couple named), the couple named as loser.
        first = _one_row(_first_entry(result["id"]))
        entered_by = first["couple_id"] if first is not None else None
        awaits_us = entered_by != couple.pk and (
            entered_by is not None or row["result__winner_id"] != couple.pk
        )
    return {
        "game": row["game__number"],
        "table": row["table__number"],
        "opponent": opponent,
        "deals": (row["arrives_id"] or row["stays_id"]) == couple.pk,
        "sit_out": opponent is None,
        "result": result,
        "awaits_confirmation": awaits_us,
    }


def couple_card(couple: Couple) -> dict[str, Any]:
    """One couple's punch card: game → mark (W won, L lost, S sit-out credited as a win, -
    sit-out not credited, ? no accepted result yet), wins and games played, by the rules of
    ``scoring.selectors.couple_records``. One query."""
    drive = couple.drive
    marks: dict[int, str] = {}
    for seat in _couple_seats(couple.pk, drive.pk):
        game, state, winner = seat["game__number"], seat["result__state"], seat["result__winner_id"]
        if seat["stays_id"] is None or seat["arrives_id"] is None:
            marks[game] = SIT_OUT_WIN if drive.sit_out_counts_as_win else SIT_OUT
        elif state != Result.State.ACCEPTED:
            marks[game] = PENDING
        else:
            marks[game] = WIN if winner == couple.pk else LOSS
    marks = dict(sorted(marks.items()))
    return {
        "marks": marks,
        "wins": sum(1 for mark in marks.values() if mark in (WIN, SIT_OUT_WIN)),
        "played": len(marks),
    }


def undo_until(
    now: dict[str, Any] | None, channel: str, couple: Couple | None
) -> tuple[datetime | None, str]:
    """Until when the card (``channel``, and ``couple`` for a punch card) that entered the
    result of ``now`` (``table_now``/``couple_now``) may still undo it, by the rules of
    ``scoring.services.result_undo``, and from which phone (its ``device``); (None, "") if it
    may not. One query when there is a result."""
    result = now["result"] if now else None
    if result is None:
        return None, ""
    versions = [ResultVersion(**entry) for entry in _entries(result["id"])]
    until: datetime | None = undo_open_until(result["state"], versions)
    entry = versions[-1] if versions else None
    if until is None or entry is None or entry.channel != channel:
        return None, ""
    if entry.couple_id != (couple.pk if couple is not None else None):
        return None, ""
    return until, entry.device


def couple_night(couple: Couple) -> dict[str, Any]:
    """A couple's own record of a night that is over (the couple page after the close): its
    place (None when withdrawn), games won and played, the punch card, and the prizes it won
    or is tied for, from the standings and the prize table. A handful of queries, read once
    (the page does not poll)."""
    drive = couple.drive
    row = next(r for r in standings_for_drive(drive) if r["number"] == couple.number)
    table = prize_table(drive)
    currency = table["currency"]
    prizes: list[dict[str, Any]] = []

    def take(kind: str, place: int | None, entry: dict[str, Any], name: str = "") -> None:
        for award in entry.get("awards", []):
            if award["couple"] == couple.number:
                prizes.append(
                    {
                        "kind": kind,
                        "name": name,
                        "place": place,
                        "amount": award["amount"],
                        "description": award["description"],
                        "how": award["how"],
                        "tied": False,
                    }
                )
        if entry.get("status") == "tie" and couple.number in entry.get("couples", []):
            prizes.append({"kind": kind, "name": name, "place": place, "tied": True})

    for place in table["places"]:
        take("place", place["place"], place)
    if table["booby"].get("enabled"):
        take("booby", None, table["booby"])
    if table["half_time"].get("enabled"):
        take("half-time", None, table["half_time"])
    for named in table.get("categories", []):
        take("category", named["position"], named, named["name"])
    share = table["jackpot"]["shares"].get(str(couple.number))
    if share is not None:
        prizes.append(
            {
                "kind": "jackpot",
                "place": None,
                "amount": share,
                "description": "",
                "how": "split",
                "tied": False,
            }
        )
    jar = table["cookie_jar"]
    if jar.get("enabled"):
        take("cookie-jar", None, jar)
    return {
        "place": None if row["withdrawn"] else row["place"],
        "wins": row["wins"],
        "played": row["played"],
        "withdrawn": row["withdrawn"],
        "prizes": prizes,
        "currency": currency,
    }
