"""Import a night's results from a CSV file (``game,table,winner[,points]``), as an organizer
who kept the night on a spreadsheet would type them in at the desk: game by game, through
``result_record``, with ``game_advance`` after each complete game, so the movement is checked
against the file (a row naming a couple that is not at that table in that game is refused).

All or nothing: the whole import runs in one transaction (the services' own atomic blocks nest
as savepoints), and any bad row rolls everything back, the start of the night included. Every
bad row is named with its line. A table where a couple sits out needs no row (a row naming the
couple sitting out is accepted and changes nothing). Rows of games already over are accepted
when they agree with what is stored, so an extended file can be imported again. This module
does not correct results (that is ``result_resolve``, with a reason) nor close the drive.
"""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from drives import inputs
from drives.errors import Conflict, ServiceError
from drives.models import AuditEntry, Couple, Drive
from drives.services import Actor, audit, csv_max_bytes, drive_start
from scoring.selectors import game_view
from scoring.services import game_advance, result_record

IMPORT = Actor(channel=AuditEntry.Channel.IMPORT)
MAX_ROWS = 60_000
MAX_SHOWN = 20
_POINTS = re.compile(r"^\s*(-?\d{1,4})\s*[-–:/]\s*(-?\d{1,4})\s*$")


@dataclass(frozen=True)
class Row:
    line: int
    game: int
    table: int
    winner: int
    points: tuple[int, int] | None


@dataclass
class ImportReport:
    rows: int = 0
    recorded: int = 0
    unchanged: int = 0
    started: bool = False
    games: list[int] = field(default_factory=list)
    advanced: list[int] = field(default_factory=list)
    current_game: int = 0


def bad_rows(errors: list[dict[str, Any]]) -> ServiceError:
    """One error naming every bad line (the first twenty in the message, all in details)."""
    errors = sorted(errors, key=lambda e: e["line"])
    listed = "; ".join(f"line {e['line']}: {e['message']}" for e in errors[:MAX_SHOWN])
    more = f" (and {len(errors) - MAX_SHOWN} more)" if len(errors) > MAX_SHOWN else ""
    return ServiceError(
        "bad_rows",
        gettext("Nothing was imported. %(listed)s%(more)s.") % {"listed": listed, "more": more},
        errors=errors,
    )


def _whole(cell: str, rule: inputs.Rule) -> int:
    """A cell's number by its rule (``drives.inputs``): its words name the line's fault."""
    value = cell.strip()
    number: Any = int(value) if value.isascii() and value.isdigit() and len(value) <= 18 else value
    try:
        checked: int = rule.check(number)
    except ServiceError as error:
        raise ValueError(error.message) from None
    return checked


def parse_results_csv(data: bytes) -> list[Row]:
    """The rows of a results file, or a ``bad_rows`` error naming every malformed line. Checks
    the form only (numbers, the points' shape, duplicates); the night checks the rest."""
    limit = csv_max_bytes()
    if len(data) > limit:
        raise ServiceError(
            "file_too_large",
            gettext("The file is larger than %(limit)s bytes.") % {"limit": f"{limit:,}"},
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise bad_rows(
            [{"line": line, "message": "the file is not UTF-8 text (save it as CSV UTF-8)"}]
        ) from None
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = [cell.strip().lower() for cell in next(reader)]
    except StopIteration:
        raise ServiceError("empty_file", gettext("The file is empty.")) from None
    except csv.Error as error:
        raise bad_rows([{"line": 1, "message": str(error)}]) from None
    if header not in (["game", "table", "winner"], ["game", "table", "winner", "points"]):
        raise bad_rows(
            [
                {
                    "line": 1,
                    "message": "the header must be game,table,winner or game,table,winner,points",
                }
            ]
        )
    rows: list[Row] = []
    errors: list[dict[str, Any]] = []
    seen: dict[tuple[int, int], Row] = {}
    try:
        for record in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in record):
                continue
            if len(rows) + len(errors) >= MAX_ROWS:
                raise ServiceError(
                    "too_many_rows",
                    gettext("A results file has at most %(MAX_ROWS)s rows.")
                    % {"MAX_ROWS": MAX_ROWS},
                )
            if len(record) not in (3, len(header)):
                errors.append(
                    {"line": line, "message": f"{len(record)} columns, expected {len(header)}"}
                )
                continue
            try:
                game = _whole(record[0], inputs.GAME)
                table = _whole(record[1], inputs.TABLE)
                winner = _whole(record[2], inputs.WINNER)
                points = _points(record[3]) if len(record) > 3 else None
            except ValueError as error:
                errors.append({"line": line, "message": str(error)})
                continue
            row = Row(line, game, table, winner, points)
            earlier = seen.get((game, table))
            if earlier is not None:
                if (earlier.winner, earlier.points) != (winner, points):
                    errors.append(
                        {
                            "line": line,
                            "message": f"game {game} table {table} already has a different "
                            f"result on line {earlier.line}",
                        }
                    )
                continue  # the same row twice: once is enough
            seen[(game, table)] = row
            rows.append(row)
    except csv.Error as error:
        errors.append({"line": reader.line_num, "message": str(error)})
    if errors:
        raise bad_rows(errors)
    if not rows:
        raise ServiceError("no_rows", gettext("The file has a header but no results."))
    return rows


def _points(cell: str) -> tuple[int, int] | None:
    if not cell.strip():
        return None
    match = _POINTS.match(cell)
    if match is None:
        raise ValueError(f"points are written like 50-40, not {cell!r}")
    return int(match.group(1)), int(match.group(2))


def results_import_csv(
    *, drive: Drive, data: bytes, actor: Actor = IMPORT, confirm_unusual: bool = False
) -> ImportReport:
    """Enter the results of a CSV file game by game (see the module's docstring): every row
    or none. Raises ``bad_rows`` (details ``errors``: line and message of each bad row)."""
    rows = parse_results_csv(data)
    by_game: dict[int, list[Row]] = defaultdict(list)
    for row in rows:
        by_game[row.game].append(row)
    report = ImportReport(rows=len(rows), games=sorted(by_game))
    with transaction.atomic():
        # A copy: if the import is rolled back, the caller's instance is not left half-moved.
        drive = Drive.objects.select_related("club").get(pk=drive.pk)
        too_late = [r for r in rows if r.game > drive.games]
        if too_late:
            raise bad_rows(
                [
                    {"line": r.line, "message": f"the night has {drive.games} games, not {r.game}"}
                    for r in too_late
                ]
            )
        # No game has more tables than half the couples registered: a row past that is refused
        # here, before any row is entered (a file of made-up tables is refused at once).
        most = (Couple.objects.filter(drive=drive).count() + 1) // 2
        no_table = [r for r in rows if r.table > most]
        if no_table:
            raise bad_rows(
                [
                    {
                        "line": r.line,
                        "message": f"Nobody plays at table {r.table} in game {r.game} "
                        f"(the drive has at most {most} tables)",
                    }
                    for r in no_table
                ]
            )
        if drive.state == Drive.State.SETUP:
            drive_start(drive=drive, actor=actor)
            report.started = True
        for number in report.games:
            drive.refresh_from_db()
            game_rows = by_game[number]
            # The game in play may be complete already (entered at the desk, say): move on.
            while number > drive.current_game and _advance(drive, actor, report):
                drive.refresh_from_db()
            if number > drive.current_game:
                raise bad_rows([{"line": game_rows[0].line, "message": _not_yet(drive, number)}])
            errors = _enter(drive, game_rows, actor, confirm_unusual, report)
            if errors:
                raise bad_rows(errors)
            if number == drive.current_game and number < drive.games:
                _advance(drive, actor, report)  # if incomplete, the next game's rows say so
        audit(
            drive,
            actor,
            "results.import",
            new={
                "rows": report.rows,
                "recorded": report.recorded,
                "games": [report.games[0], report.games[-1]],
            },
        )
        drive.refresh_from_db()
        report.current_game = drive.current_game
    return report


def _advance(drive: Drive, actor: Actor, report: ImportReport) -> bool:
    """Start the game after the one in play if that one is complete; False if it is not."""
    try:
        _, following = game_advance(drive=drive, game=drive.current_game, actor=actor)
    except Conflict as error:
        if error.code != "game_incomplete":
            raise
        return False
    report.advanced.append(following.number)
    return True


def _enter(
    drive: Drive, rows: list[Row], actor: Actor, confirm_unusual: bool, report: ImportReport
) -> list[dict[str, Any]]:
    errors: list[dict[str, Any]] = []
    view = game_view(drive, rows[0].game)
    sit_outs = {
        t["table"]: (t["stays"] if t["stays"] is not None else t["arrives"])
        for t in (view["tables"] if view else [])
        if t["sit_out"]
    }
    for row in rows:
        if sit_outs.get(row.table) == row.winner:
            report.unchanged += 1  # a sit-out needs no row; naming it changes nothing
            continue
        try:
            recorded = result_record(
                drive=drive,
                game=row.game,
                table=row.table,
                winner=row.winner,
                points=list(row.points) if row.points else None,
                confirm_unusual=confirm_unusual,
                actor=actor,
            )
        except ServiceError as error:
            errors.append({"line": row.line, "message": _why(error, row), "code": error.code})
            continue
        if recorded.status == 201:
            report.recorded += 1
        else:
            report.unchanged += 1
    return errors


def _not_yet(drive: Drive, number: int) -> str:
    current = drive.current_game
    view = game_view(drive, current)
    missing = view["missing"] if view else []
    blocked = (view["conflicts"] + view["pending"]) if view else []
    what = []
    if missing:
        what.append(
            gettext("no result for table(s) %(list)s") % {"list": ", ".join(map(str, missing))}
        )
    if blocked:
        what.append(
            gettext("table(s) %(list)s in conflict or unconfirmed")
            % {"list": ", ".join(map(str, blocked))}
        )
    return gettext(
        "game %(number)s cannot start: game %(current)s is in play and not complete (%(list)s)"
    ) % {"number": number, "current": current, "list": "; ".join(what)}


def _why(error: ServiceError, row: Row) -> str:
    """A row's problem in one phrase, with the service's or the engine's code."""
    if error.code == "result_conflict":
        winner = error.details.get("winner")
        if error.details.get("differs") == ["points"]:
            stored = error.details.get("points")
            said = (
                gettext("winning %(winner_points)s-%(loser_points)s")
                % {"winner_points": stored[0], "loser_points": stored[1]}
                if stored
                else gettext("without points")
            )
            sent = f"{row.points[0]}-{row.points[1]}" if row.points else gettext("no points")
            return gettext(
                "table %(table)s of game %(game)s already has couple %(winner)s %(said)s, "
                "not %(sent)s (result_conflict)"
            ) % {"table": row.table, "game": row.game, "winner": winner, "said": said, "sent": sent}
        return gettext(
            "table %(table)s of game %(game)s already has couple %(winner)s as the winner "
            "(result_conflict)"
        ) % {"table": row.table, "game": row.game, "winner": winner}
    if error.code == "unusual_score":
        verdict = error.details.get("verdict") or {}
        return gettext(
            "%(message)s (%(code)s: an unusual score, accepted only with confirm-unusual)"
        ) % {
            ("message"): verdict.get("message", error.message),
            "code": verdict.get("code", error.code),
        }
    return f"{error.message} ({error.code})"
