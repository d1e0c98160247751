"""The drive's full export (format ``fortyfives-drive/1``, its schema in
``scoring.records.schema``; PRODUCT.md): the drive, its couples
with wins and places, its games with every table's seating, result and result versions, the
tables closed, the prizes (set-up, prize table, ties, awards, cookie jar) and the audit.

``manage.py drive export`` and ``GET /api/v1/drives/{slug}/export`` serve it;
``scoring.records.restore`` brings a drive back from it. It builds on the reads of the night
(``scoring.selectors``) and of the prizes (``scoring.prizes.selectors.prizes_export``), which
know nothing of it.
"""

from __future__ import annotations

from typing import Any

from drives.models import AuditEntry, Couple, Drive, Game, Table
from scoring.models import Result
from scoring.prizes.selectors import prizes_export
from scoring.records.parts import parts
from scoring.records.schema import FORMAT, VERSION, check_export
from scoring.selectors import (
    couple_number,
    couple_summary,
    drive_summary,
    seats_by_game,
    standings_for_drive,
)


def drive_export(drive: Drive) -> dict[str, Any]:
    """The drive's full record (PRODUCT.md): drive, couples with wins and places, games with
    every table's seating and result, and the audit. A fixed number of queries."""
    standings = {row["number"]: row for row in standings_for_drive(drive)}
    couples = []
    for couple in Couple.objects.filter(drive=drive).order_by("number"):
        row = standings[couple.number]
        couples.append(
            couple_summary(couple)
            | {"wins": row["wins"], "played": row["played"], "place": row["place"]}
        )
    results = {
        r.seat_id: r
        for r in Result.objects.filter(game__drive=drive)
        .select_related("winner")
        .prefetch_related(
            "versions__winner", "versions__previous_winner", "versions__user", "versions__couple"
        )
    }
    games = []
    game_rows = {g.number: g for g in Game.objects.filter(drive=drive)}
    for number, seats in sorted(seats_by_game(drive).items()):
        tables = []
        for seat in seats:
            result = results.get(seat.pk)
            tables.append(
                {
                    "table": seat.table.number,
                    "stays": couple_number(seat.stays),
                    "arrives": couple_number(seat.arrives),
                    "winner": result.winner.number if result else None,
                    "points": result.points if result else None,
                    "state": result.state if result else None,
                    "verdict": result.verdict if result else None,
                    "versions": [
                        {
                            "kind": v.kind,
                            "winner": v.winner.number,
                            "points": (
                                [v.winner_points, v.loser_points]
                                if v.winner_points is not None
                                else None
                            ),
                            "previous_winner": couple_number(v.previous_winner),
                            "key": v.key,
                            "channel": v.channel,
                            "user": v.user.get_username() if v.user else None,
                            "couple": couple_number(v.couple),
                            "reason": v.reason,
                            "after_advance": v.after_advance,
                            "at": v.at.isoformat(),
                        }
                        for v in (result.versions.all() if result else [])
                    ],
                }
            )
        game = game_rows[number]
        games.append(
            {
                "number": number,
                "state": "finished" if game.finished_at else "playing",
                "started_at": game.started_at.isoformat(),
                "finished_at": game.finished_at.isoformat() if game.finished_at else None,
                "tables": tables,
            }
        )
    tables_closed = {
        t.number: t.closed_game
        for t in Table.objects.filter(drive=drive, closed_game__isnull=False)
    }
    audit_rows = AuditEntry.objects.filter(drive=drive).select_related("user").order_by("at", "id")
    prizes = prizes_export(drive)
    record = {
        "format": FORMAT,
        "version": VERSION,
        "drive": drive_summary(drive),
        "couples": couples,
        "games": games,
        "closed_tables": tables_closed,
        "prize_setup": prizes["prize_setup"],
        "prizes": prizes["prizes"],
        "ties": prizes["ties"],
        "awards": prizes["awards"],
        "cookie_jar": prizes["cookie_jar"],
        "audit": [entry.to_dict() for entry in audit_rows],
    }
    # The parts kept by the apps above scoring (seasons, the night's money: records/parts.py).
    for part in parts():
        record[part.key] = part.export(drive)
    check_export(record)  # what leaves matches the published schema (schema.py)
    return record
