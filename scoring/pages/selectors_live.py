"""Reads of the live pages, beside ``scoring.selectors``: who entered each result of a game
(the desk grid), the game in play at one table (the table page), and one couple's table,
pending confirmation and punch card (the couple page).

Each takes a fixed number of queries whatever the size of the night, and reads only what one
page needs: a phone polling its table or its couple every few seconds reads a handful of
rows, not the whole night. Who may see what is the views' business; the night's rules (what
counts as a win) are those of ``scoring.selectors``, restated here for one couple.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Q

from drives.models import Couple, Seat, Table
from scoring.models import Result, ResultVersion
from scoring.prizes.selectors import prize_table
from scoring.selectors import LOSS, PENDING, SIT_OUT, SIT_OUT_WIN, WIN, standings_for_drive
from scoring.services import undo_open_until


def result_versions(drive: Any, game: int) -> dict[int, list[dict[str, Any]]]:
    """Table number → every submission and decision about its result in ``game``, oldest
    first: kind, winner, points, channel, user name, couple, reason, time. One query, of plain
    columns (no model instances: the desk grid reads it after every result)."""
    labels = {kind: str(label) for kind, label in ResultVersion.Kind.choices}
    rows = (
        ResultVersion.objects.filter(result__game__drive=drive, result__game__number=game)
        .order_by("at", "id")
        .values_list(
            "result__seat__table__number",
            "kind",
            "winner__number",
            "previous_winner__number",
            "winner_points",
            "loser_points",
            "channel",
            f"user__{get_user_model().USERNAME_FIELD}",
            "couple__number",
            "reason",
            "after_advance",
            "at",
        )
    )
    out: dict[int, list[dict[str, Any]]] = {}
    for table, kind, winner, previous, won, lost, channel, user, couple, reason, late, at in rows:
        out.setdefault(table, []).append(
            {
                "kind": kind,
                "kind_label": labels.get(kind, kind),
                "winner": winner,
                "previous_winner": previous,
                "points": [won, lost] if won is not None else None,
                "channel": channel,
                "user": user,
                "couple": couple,
                "reason": reason,
                "after_advance": late,
                "at": at,
            }
        )
    return out


def _result_of(seat: Seat) -> Result | None:
    try:
        return seat.result
    except ObjectDoesNotExist:
        return None


def _result_row(result: Result | None) -> dict[str, Any] | None:
    if result is None or result.state == Result.State.UNDONE:
        return None
    return {
        "id": result.pk,
        "winner": result.winner.number,
        "points": result.points,
        "state": result.state,
        "unusual": result.verdict == "trumpless_hands",
    }


def table_now(table: Table) -> dict[str, Any] | None:
    """The game in play at ``table`` (its drive loaded on it): the game number, the couple
    that stays and the one that arrives (and deals), whether it is a sit-out, and the result.
    None before the night starts or when nobody sits at this table in the game. One query."""
    drive = table.drive
    if not drive.current_game:
        return None
    seat = (
        Seat.objects.filter(table=table, game__drive=drive, game__number=drive.current_game)
        .select_related("game", "stays", "arrives", "result__winner")
        .order_by()
        .first()
    )
    if seat is None:
        return None
    couples = [c for c in (seat.stays, seat.arrives) if c is not None]
    return {
        "game": seat.game.number,
        "table": table.number,
        "stays": seat.stays,
        "arrives": seat.arrives,
        "deals": seat.arrives or seat.stays,
        "couples": couples,
        "sit_out": len(couples) < 2,
        "result": _result_row(_result_of(seat)),
    }


def couple_now(couple: Couple) -> dict[str, Any] | None:
    """The couple's seat in the game in play (its drive loaded on it): table, opponents, who
    deals, the result, and whether the result waits for *this* couple's confirmation (entered
    from the other side on a drive with ``confirm_by_other_couple``). None before the start
    or when the couple has no seat in this game. One query, two when a result is pending."""
    drive = couple.drive
    if not drive.current_game:
        return None
    seat = (
        Seat.objects.filter(game__drive=drive, game__number=drive.current_game)
        .filter(Q(stays=couple) | Q(arrives=couple))
        .select_related("game", "table", "stays", "arrives", "result__winner")
        .order_by()
        .first()
    )
    if seat is None:
        return None
    opponent = seat.arrives if seat.stays_id == couple.pk else seat.stays
    result = _result_of(seat)
    awaits_us = False
    if result is not None and result.state == Result.State.PENDING:
        # Who confirms is scoring.services.result_confirm's rule: not the couple that entered
        # it; when a table's token entered it (no couple named), the couple named as loser.
        first = result.versions.order_by("at", "id").only("couple_id").first()
        entered_by = first.couple_id if first is not None else None
        awaits_us = entered_by != couple.pk and (
            entered_by is not None or result.winner_id != couple.pk
        )
    return {
        "game": seat.game.number,
        "table": seat.table.number,
        "opponent": opponent,
        "deals": (seat.arrives or seat.stays) == couple,
        "sit_out": opponent is None,
        "result": _result_row(result),
        "awaits_confirmation": awaits_us,
    }


def couple_card(couple: Couple) -> dict[str, Any]:
    """One couple's punch card: game → mark (W won, L lost, S sit-out credited as a win, -
    sit-out not credited, ? no accepted result yet), wins and games played, by the rules of
    ``scoring.selectors.couple_records``. One query."""
    drive = couple.drive
    # (game, stays, arrives, its result's state, winner): no couple arrives at a sit-out's seat
    seats: Iterable[tuple[int, int | None, int | None, str | None, int | None]] = (
        Seat.objects.filter(game__drive=drive)
        .filter(Q(stays=couple) | Q(arrives=couple))
        .order_by()
        .values_list("game__number", "stays_id", "arrives_id", "result__state", "result__winner")
    )
    marks: dict[int, str] = {}
    for game, stays, arrives, state, winner in seats:
        if stays is None or arrives is None:
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


def undo_until(now: dict[str, Any] | None, channel: str, couple: Couple | None) -> datetime | None:
    """Until when the card (``channel``, and ``couple`` for a punch card) that entered the
    result of ``now`` (``table_now``/``couple_now``) may still undo it, by the rules of
    ``scoring.services.result_undo``; None if it may not. One query when there is a result."""
    result = now["result"] if now else None
    if result is None:
        return None
    versions = list(ResultVersion.objects.filter(result_id=result["id"]).order_by("at", "id"))
    until: datetime | None = undo_open_until(result["state"], versions)
    entry = versions[-1] if versions else None
    if until is None or entry is None or entry.channel != channel:
        return None
    if entry.couple_id != (couple.pk if couple is not None else None):
        return None
    return until


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

    def take(kind: str, place: int | None, entry: dict[str, Any]) -> None:
        for award in entry.get("awards", []):
            if award["couple"] == couple.number:
                prizes.append(
                    {
                        "kind": kind,
                        "place": place,
                        "amount": award["amount"],
                        "description": award["description"],
                        "how": award["how"],
                        "tied": False,
                    }
                )
        if entry.get("status") == "tie" and couple.number in entry.get("couples", []):
            prizes.append({"kind": kind, "place": place, "tied": True})

    for place in table["places"]:
        take("place", place["place"], place)
    if table["booby"].get("enabled"):
        take("booby", None, table["booby"])
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
