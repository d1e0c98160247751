"""Bring a drive back from its export (``scoring.records.export.drive_export``, format
``fortyfives-drive/1``): the same slug, settings and state, the same couples (numbers, names,
flags, late arrivals and withdrawals, holes), tables (and when each closed), games with their
times and seats, results with every version, the prizes (set-up and prize places, ties with
their choices, cut cards, play-off matches and decisions, awards, the cookie-jar draw; a tie
keeps its id when no other tie here has it), and the same audit entries (times, channels, and
users by username when such a user exists here).

What is not the same: the table and couple tokens, which the export never carries (they are
secrets), are new, so QR codes printed before must be printed again; a result's ``updated_at``
is the time of its last version; and one audit entry ``drive.restore`` is added at the end. A
second export is therefore the first plus that entry.

The input is checked before anything is written, and the restore is one transaction: a bad
file changes nothing and gets a message naming the place at fault (``bad_export``; ``bad_text``
for text no database can store: a NUL or a lone surrogate). The schema
(``scoring.records.schema``) checks every value and gives the restore a ``DriveExport`` to read;
this module checks what the schema cannot say (that a number names a couple of this drive, that
a couple sits at one table a game, ...) and writes the rows. This module also deletes a drive
(with ``replace``, or for a test of the round trip): a drive's seats protect its couples
and tables, so the rows go in order.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import DataError, IntegrityError, connection, transaction
from django.utils.translation import gettext
from pydantic import BaseModel

from drives.errors import Conflict, ServiceError
from drives.models import AuditEntry, Club, Couple, Drive, Game, Seat, Table
from drives.services import (
    DRIVE_SETTINGS,
    SYSTEM,
    Actor,
    audit,
    clean_settings,
    club_get_or_create,
    players_link,
)
from drives.text import text_refuse_unstorable
from scoring.models import (
    Award,
    CookieJarDraw,
    CutCard,
    PlayoffMatch,
    PrizeCategory,
    PrizePlace,
    PrizeSetup,
    Result,
    ResultVersion,
    Tie,
    TieChoice,
)
from scoring.records.parts import parts
from scoring.records.schema import FORMAT, DriveExport, ExportDrive, check_export

MAX_EXPORT_BYTES = 200_000_000


@dataclass
class RestoreReport:
    drive: Drive
    couples: int = 0
    games: int = 0
    results: int = 0
    versions: int = 0
    audit: int = 0
    replaced: bool = False
    unknown_users: list[str] = field(default_factory=list)


def bad(path: str, message: str) -> ServiceError:
    return ServiceError("bad_export", f"{path}: {message.rstrip('.')}.", path=path)


def load_export(data: bytes) -> dict[str, Any]:
    """The parsed export, or a ``bad_json`` error saying where the JSON is broken (or that it
    is nested deeper than Python's parser goes)."""
    if len(data) > MAX_EXPORT_BYTES:
        raise ServiceError(
            "file_too_large",
            gettext("The file is larger than %(MAX_EXPORT_BYTES)s bytes.")
            % {"MAX_EXPORT_BYTES": f"{MAX_EXPORT_BYTES:,}"},
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise ServiceError(
            "not_utf8", gettext("Line %(line)s: the file is not UTF-8 text.") % {"line": line}
        ) from None
    try:
        parsed = json.loads(text)
    except RecursionError:  # json's parser recurses: a file nested thousands deep
        raise ServiceError(
            "bad_json", gettext("The file is nested too deeply to be an export.")
        ) from None
    except json.JSONDecodeError as error:
        raise ServiceError(
            "bad_json",
            gettext("Line %(lineno)s, column %(colno)s: not JSON (%(msg)s).")
            % {"lineno": error.lineno, "colno": error.colno, "msg": error.msg},
        ) from None
    if not isinstance(parsed, dict):
        raise bad("the file", gettext("an export is a JSON object"))
    return parsed


def drive_restore(
    *, data: dict[str, Any], replace: bool = False, actor: Actor = SYSTEM, club: Club | None = None
) -> RestoreReport:
    """Create the drive of an export (see the module's docstring). A drive with the same slug
    is a 409 ``drive_exists`` unless ``replace``, which deletes it first (in the same
    transaction). Every problem of the file is a 422 ``bad_export`` naming its place (text
    that cannot be stored: ``bad_text``). ``club``: the club it goes to (a night published to
    the club's site), else the club of the export's name."""
    if not isinstance(data, dict):
        raise bad("the file", gettext("an export is a JSON object"))
    text_refuse_unstorable(data)  # NUL or a lone surrogate: 422 bad_text naming its place
    if data.get("format") != FORMAT:
        raise bad(
            "format",
            gettext("expected %(FORMAT)s, not %(value)s")
            % {"FORMAT": f"{FORMAT!r}", "value": f"{data.get('format')!r}"},
        )
    export = check_export(data, restoring=True)  # every value (records.schema): 422 bad_export
    settings = _settings(export.drive)
    numbers = _check(export)
    # The parts of the apps above scoring (scoring/records/parts.py), read before any write.
    extra = [(part, part.read(data[part.key], numbers)) for part in parts() if part.key in data]
    named = [*export.usernames(), *(name for p, read in extra for name in p.users(read))]
    users = _users(named)
    unknown = sorted({name for name in named if name and name not in users})
    slug = export.drive.slug

    with transaction.atomic():
        existing = Drive.objects.filter(slug=slug).first()
        if existing is not None:
            if not replace:
                raise Conflict(
                    "drive_exists",
                    gettext(
                        "A drive with the slug %(slug)s exists already (restore with "
                        "--replace to overwrite it)."
                    )
                    % {"slug": f"{slug!r}"},
                    slug=slug,
                )
            drive_delete(drive=existing, actor=actor, note="replaced by a restore")
        if club is None:
            club = club_get_or_create(name=export.drive.club, actor=actor)
        try:
            with transaction.atomic():
                report = _write(club, export, settings, users)
                for part, read in extra:
                    part.write(report.drive, read, users)
        except (IntegrityError, DataError) as error:
            raise ServiceError(
                "bad_export", gettext("The export is inconsistent: %(error)s.") % {"error": error}
            ) from None
        report.replaced = existing is not None
        report.unknown_users = unknown
        note = "restored from an export: new table and couple tokens"
        if unknown:
            note += f"; users not found here: {', '.join(unknown)}"
        audit(
            report.drive,
            actor,
            "drive.restore",
            subject=slug,
            note=note,
            new={"couples": report.couples, "games": report.games, "results": report.results},
        )
    return report


# --- what the schema cannot say ----------------------------------------------------------------


def _settings(info: ExportDrive) -> dict[str, Any]:
    """The drive's settings, checked by the drives' own rules (``clean_settings``). A setting
    added after the format's first files and absent from an older one takes the drive's
    default; an export made before the rule switches keeps the rules it was played under
    (``Drive.RULES_BEFORE_SWITCHES``) and one made before the choice, a fee per couple."""
    if not info.club.strip():
        raise bad("drive.club", gettext("the club needs a name"))
    read = info.model_dump(include=set(DRIVE_SETTINGS), exclude_unset=True)
    read["entry_fee_per"] = info.entry_fee_per
    if "rules" not in read:
        read["rules"] = dict(Drive.RULES_BEFORE_SWITCHES.get(info.ruleset, {}))
    try:
        settings = clean_settings(read, partial=False)
    except ServiceError as error:
        raise bad(f"drive.{error.details.get('field', '')}".rstrip("."), error.message) from None
    if info.current_game > settings["games"]:
        raise bad(
            "drive.current_game",
            gettext("beyond the night's %(settings)s games") % {"settings": settings["games"]},
        )
    return settings | {"sit_out_last": info.sit_out_last}


def _couples(values: Iterable[int | None], where: str, numbers: set[int]) -> None:
    """Refuse a number (null: nobody) that names no couple of ``numbers``."""
    for number in values:
        if number is not None and number not in numbers:
            raise bad(where, gettext("%(value)s is not a couple of this drive") % {"value": number})


def _once(seen: set[Any], value: Any, where: str, words: str) -> None:
    """``value`` noted in ``seen``; refused (in ``words``) when it was there already."""
    if value in seen:
        raise bad(where, words)
    seen.add(value)


def _check(export: DriveExport) -> set[int]:
    """Refuse what the schema cannot say: numbers that name no couple of this drive, a couple
    at two tables, games that do not end at the game in play, … Gives the couples' numbers."""
    numbers: set[int] = set()
    for i, c in enumerate(export.couples):
        words = gettext("couple %(number)s appears twice") % {"number": c.number}
        _once(numbers, c.number, f"couples[{i}].number", words)
    for i, game in enumerate(export.games):
        path = f"games[{i}]"
        if game.number != i + 1:
            raise bad(
                f"{path}.number",
                gettext("expected game %(value)s, not %(number)s")
                % {"value": i + 1, "number": game.number},
            )
        seated: set[int] = set()
        tables: set[int] = set()
        for j, row in enumerate(game.tables):
            where = f"{path}.tables[{j}]"
            words = gettext("table %(table)s appears twice in game %(number)s")
            _once(
                tables, row.table, f"{where}.table", words % {"table": row.table, "number": i + 1}
            )
            for name in ("stays", "arrives", "winner"):
                _couples([getattr(row, name)], f"{where}.{name}", numbers)
            for couple in (c for c in (row.stays, row.arrives) if c is not None):
                words = gettext("couple %(couple)s sits at two tables in game %(number)s")
                _once(seated, couple, where, words % {"couple": couple, "number": i + 1})
            pair = (row.stays, row.arrives)
            if row.winner is not None and (None in pair or row.winner not in pair):
                words = gettext("couple %(winner)s is not at this table")
                raise bad(f"{where}.winner", words % {"winner": row.winner})
            for k, version in enumerate(row.versions):
                for name in ("winner", "previous_winner", "couple"):
                    _couples([getattr(version, name)], f"{where}.versions[{k}].{name}", numbers)
    if len(export.games) != export.drive.current_game:
        raise bad(
            "games",
            gettext("%(count)s games, but the drive says game %(current)s is in play")
            % {"count": len(export.games), "current": export.drive.current_game},
        )
    _check_prizes(export, numbers)
    return numbers


def _check_prizes(export: DriveExport, numbers: set[int]) -> None:
    setup = export.prize_setup
    places: set[int] = set()
    for i, p in enumerate(setup.places if setup else []):
        words = gettext("place %(place)s appears twice") % {"place": p.place}
        _once(places, p.place, f"prize_setup.places[{i}].place", words)
    ids: set[int] = set()
    keys: set[str] = set()
    for i, tie in enumerate(export.ties):
        path = f"ties[{i}]"
        words = gettext("%(tie_id)s is not a new tie id") % {"tie_id": tie.id}
        _once(ids, tie.id, f"{path}.id", words)
        words = gettext("%(key)s is empty or appears twice") % {"key": f"{tie.key!r}"}
        if not tie.key:
            raise bad(f"{path}.key", words)
        _once(keys, tie.key, f"{path}.key", words)
        _couples(tie.couples, f"{path}.couples", numbers)
        members = set(tie.couples)
        _couples([tie.winner], f"{path}.winner", members)
        _couples(tie.playing, f"{path}.playing", members)
        _couples(tie.forfeits, f"{path}.forfeits", members)
        for j, choice in enumerate(tie.choices):
            _couples([choice.couple], f"{path}.choices[{j}].couple", members)
        cut: set[tuple[int, int]] = set()
        for j, card in enumerate(tie.cut_cards):
            where = f"{path}.cut_cards[{j}]"
            _couples([card.couple], f"{where}.couple", members)
            words = gettext("couple %(couple)s cuts twice in round %(rnd)s")
            words %= {"couple": card.couple, "rnd": card.round}
            _once(cut, (card.round, card.couple), where, words)
        played: set[tuple[int, int]] = set()
        for j, match in enumerate(tie.matches):
            where = f"{path}.matches[{j}]"
            _couples(match.match, f"{where}.match", members)
            words = gettext("one or two couples, once a round")
            if not 1 <= len(match.match) <= 2:
                raise bad(f"{where}.match", words)
            _once(played, (match.round, match.match[0]), f"{where}.match", words)
            _couples([match.winner], f"{where}.winner", set(match.match))
    for i, award in enumerate(export.awards):
        if award.tie is not None and award.tie not in keys:
            raise bad(
                f"awards[{i}].tie",
                gettext("%(tie_key)s is not a tie of this drive") % {"tie_key": f"{award.tie!r}"},
            )
        _couples([award.couple], f"awards[{i}].couple", numbers)
    jar = export.cookie_jar
    if jar.enabled and "drawn" not in jar.model_fields_set:
        raise bad("cookie_jar.drawn", "missing")
    if jar.enabled and jar.drawn is not None:
        if setup is None or not setup.cookie_jar:
            raise bad("cookie_jar.drawn", gettext("a draw, but the prize set-up has no cookie jar"))
        for name in ("entrants", "pot", "carried_in", "winners"):
            if getattr(jar, name) is None:
                raise bad(f"cookie_jar.{name}", "missing")
        _couples(jar.entrants or [], "cookie_jar.entrants", numbers)
        _couples(jar.winners or [], "cookie_jar.winners", numbers)


def _users(names: list[str | None]) -> dict[str, Any]:
    model = get_user_model()
    field_name = model.USERNAME_FIELD
    found = model.objects.filter(**{f"{field_name}__in": sorted({n for n in names if n})})
    return {getattr(user, field_name): user for user in found}


# --- writing the rows --------------------------------------------------------------------------


def _stored(row: BaseModel, *but: str) -> dict[str, Any]:
    """The fields of ``row`` that its table stores under the same names: all its model declares
    but ``but``, which the writer maps (couple numbers to couples, usernames to users, …)."""
    return row.model_dump(include=set(type(row).model_fields) - set(but))


def _points(points: list[int] | None) -> dict[str, int | None]:
    winner, loser = points or (None, None)
    return {"winner_points": winner, "loser_points": loser}


def _user(users: dict[str, Any], name: str | None) -> Any:
    return users.get(name) if name else None


def _write(
    club: Club, export: DriveExport, settings: dict[str, Any], users: dict[str, Any]
) -> RestoreReport:
    info = export.drive
    drive = Drive.objects.create(
        club=club,
        **info.model_dump(include={"slug", "state", "current_game", "created_at", "closed_at"}),
        **settings,
    )
    # Each name one of the club's players, as the door links them (drives.services).
    names = [name for c in export.couples for name in c.players]
    members = players_link(club=club, names=names, ids=[None] * len(names), ask=False)
    couples = Couple.objects.bulk_create(
        Couple(
            drive=drive,
            player1=c.players[0],
            player2=c.players[1],
            member1=members[2 * i],
            member2=members[2 * i + 1],
            **_stored(c, "players", "withdrawn", "wins", "played", "place"),
        )
        for i, c in enumerate(export.couples)
    )
    by_number: dict[int | None, Couple | None] = {c.number: c for c in couples} | {None: None}
    closed = export.closed_tables
    Table.objects.bulk_create(
        Table(drive=drive, number=number, closed_game=closed.get(number))
        for number in sorted({t.table for g in export.games for t in g.tables} | set(closed))
    )
    tables = {t.number: t for t in Table.objects.filter(drive=drive)}
    games = Game.objects.bulk_create(
        Game(drive=drive, **_stored(g, "state", "tables")) for g in export.games
    )
    rows = [(game, row) for game, g in zip(games, export.games, strict=True) for row in g.tables]
    seats = Seat.objects.bulk_create(
        (
            Seat(
                game=game,
                table=tables[t.table],
                stays=by_number[t.stays],
                arrives=by_number[t.arrives],
            )
            for game, t in rows
        ),
        batch_size=2000,
    )
    results: list[Result] = []
    versions: list[ResultVersion] = []
    for seat, (game, row) in zip(seats, rows, strict=True):
        if row.winner is None:
            continue
        result = Result(
            game=game,
            seat=seat,
            winner=by_number[row.winner],
            verdict=row.verdict or "",
            state=row.state or "",
            updated_at=row.versions[-1].at if row.versions else game.started_at,
            **_points(row.points),
        )
        results.append(result)
        versions += [
            ResultVersion(
                result=result,
                winner=by_number[v.winner],
                previous_winner=by_number[v.previous_winner],
                couple=by_number[v.couple],
                user=_user(users, v.user),
                **_points(v.points),
                **_stored(v, "winner", "previous_winner", "couple", "user", "points"),
            )
            for v in row.versions
        ]
    Result.objects.bulk_create(results, batch_size=2000)
    ResultVersion.objects.bulk_create(versions, batch_size=2000)
    AuditEntry.objects.bulk_create(
        (
            AuditEntry(club=club, drive=drive, user=_user(users, e.user), **_stored(e, "user"))
            for e in export.audit
        ),
        batch_size=2000,
    )
    _write_prizes(drive, export, users, by_number)
    return RestoreReport(
        drive=drive,
        couples=len(couples),
        games=len(games),
        results=len(results),
        versions=len(versions),
        audit=len(export.audit),
    )


def _write_prizes(
    drive: Drive, export: DriveExport, users: dict[str, Any], couples: dict[Any, Couple | None]
) -> None:
    setup = export.prize_setup
    if setup is not None:
        PrizeSetup.objects.create(drive=drive, **_stored(setup, "places", "categories"))
        PrizePlace.objects.bulk_create(PrizePlace(drive=drive, **_stored(p)) for p in setup.places)
        PrizeCategory.objects.bulk_create(
            PrizeCategory(drive=drive, **_stored(c)) for c in setup.categories
        )
    ties: dict[str | None, Tie | None] = {None: None}
    kept_ids = False
    mapped = ("id", "method", "decided_by", "decided_channel", "choices", "cut_cards", "matches")
    for t in export.ties:
        free = not Tie.objects.filter(pk=t.id).exists()  # the same id when it is free here
        kept_ids = kept_ids or free
        tie = ties[t.key] = Tie.objects.create(
            pk=t.id if free else None,
            drive=drive,
            method=t.method or "",
            decided_by=_user(users, t.decided_by),
            decided_channel=t.decided_channel or "",
            **_stored(t, *mapped),
        )
        TieChoice.objects.bulk_create(
            TieChoice(
                tie=tie,
                couple=couples[c.couple],
                user=_user(users, c.by),
                **_stored(c, "couple", "by"),
            )
            for c in t.choices
        )
        CutCard.objects.bulk_create(
            CutCard(
                tie=tie,
                couple=couples[c.couple],
                user=_user(users, c.by),
                **_stored(c, "couple", "by"),
            )
            for c in t.cut_cards
        )
        PlayoffMatch.objects.bulk_create(
            PlayoffMatch(
                tie=tie,
                a=couples[m.match[0]],
                b=couples[m.match[1]] if len(m.match) == 2 else None,
                winner=couples[m.winner],
                verdict=m.verdict or "",
                user=_user(users, m.by),
                channel=m.channel or "",
                **_points(m.points),
                **_stored(m, "match", "winner", "verdict", "by", "channel", "points"),
            )
            for m in t.matches
        )
    if kept_ids and connection.vendor == "postgresql":
        _sequence_past_max(Tie)
    Award.objects.bulk_create(
        Award(
            drive=drive,
            couple=couples[a.couple],
            tie=ties[a.tie],
            user=_user(users, a.by),
            channel=a.channel or "",
            **_stored(a, "couple", "tie", "by", "channel"),
        )
        for a in export.awards
    )
    jar, drawn = export.cookie_jar, export.cookie_jar.drawn
    if jar.enabled and drawn is not None:
        CookieJarDraw.objects.create(
            drive=drive,
            user=_user(users, drawn.by),
            **_stored(drawn, "by"),
            **_stored(jar, "enabled", "drawn"),
        )


def _sequence_past_max(model: Any) -> None:
    """Rows written with their ids: the id sequence moved past the largest id of the table,
    by Django's own ``sequence_reset_sql`` (PostgreSQL; nothing to do on SQLite)."""
    statements = connection.ops.sequence_reset_sql(no_style(), [model])
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def drive_delete(*, drive: Drive, actor: Actor = SYSTEM, note: str = "") -> None:
    """Delete a drive and everything of it (its seats protect couples and tables, so the rows
    go in order); a club-level audit entry keeps the fact."""
    with transaction.atomic():
        drive = Drive.objects.select_for_update().select_related("club").get(pk=drive.pk)
        ResultVersion.objects.filter(result__game__drive=drive).delete()
        Result.objects.filter(game__drive=drive).delete()
        Seat.objects.filter(game__drive=drive).delete()
        Game.objects.filter(drive=drive).delete()
        Table.objects.filter(drive=drive).delete()
        Couple.objects.filter(drive=drive).delete()
        AuditEntry.objects.filter(drive=drive).delete()
        club, slug = drive.club, drive.slug
        drive.delete()
        audit(None, actor, "drive.delete", club=club, subject=slug, note=note)
