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
for text no database can store: a NUL or a lone surrogate). This module also deletes a drive
(with ``replace``, or for a test of the round trip): a drive's seats protect its couples
and tables, so the rows go in order.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import DataError, IntegrityError, connection, transaction
from django.utils.translation import gettext

from drives.errors import Conflict, ServiceError
from drives.models import AuditEntry, Couple, Drive, Game, Seat, Table
from drives.services import (
    DRIVE_SETTINGS,
    SYSTEM,
    Actor,
    audit,
    clean_settings,
    club_get_or_create,
)
from drives.text import text_refuse_unstorable
from scoring.models import (
    Award,
    CookieJarDraw,
    CutCard,
    PlayoffMatch,
    PrizePlace,
    PrizeSetup,
    Result,
    ResultVersion,
    Tie,
    TieChoice,
)
from scoring.records.parts import parts
from scoring.records.schema import FORMAT, check_export

MAX_EXPORT_BYTES = 200_000_000
_SLUG = re.compile(r"^[-a-zA-Z0-9_]{1,80}$")
_MISSING = object()
MAX_SMALL = 32767  # the largest game, table, couple or hole number any column can hold


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
    return ServiceError("bad_export", f"{path}: {message}.", path=path)


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


# --- reading the export, every value checked --------------------------------------------------


# Drive settings added after the format's first files: an older file without them restores
# with the setting's default (the drive's model field's).
# An export made before the rule switches has no "rules": its drive keeps the rules it was
# played under (Drive.RULES_BEFORE_SWITCHES).
LATER_SETTINGS = frozenset({"scorers_may_advance", "language", "rules", "entry_fee_per"})


def _get(obj: dict[str, Any], key: str, path: str, kinds: Any, *, null: bool = False) -> Any:
    value = obj.get(key, _MISSING)
    where = f"{path}.{key}" if path else key
    if value is _MISSING:
        raise bad(where, "missing")
    if value is None and null:
        return None
    if not isinstance(value, kinds) or (isinstance(value, bool) and kinds is int):
        names = {str: "text", int: "a whole number", bool: "true or false", list: "a list"}
        wanted = names.get(kinds, "an object") if not isinstance(kinds, tuple) else "a value"
        raise bad(
            where,
            gettext("expected %(wanted)s%(or_null)s, not %(value)s")
            % {"wanted": wanted, "or_null": " or null" if null else "", "value": f"{value!r:.40}"},
        )
    return value


def _int(obj: dict[str, Any], key: str, path: str, *, null: bool = False, low: int = 1) -> Any:
    value = _get(obj, key, path, int, null=null)
    if value is not None and not low <= value <= MAX_SMALL:
        raise bad(f"{path}.{key}", gettext("%(value)s is out of range") % {"value": value})
    return value


def _time(obj: dict[str, Any], key: str, path: str, *, null: bool = False) -> datetime | None:
    value = _get(obj, key, path, str, null=null)
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise bad(
            f"{path}.{key}", gettext("%(value)s is not an ISO 8601 time") % {"value": f"{value!r}"}
        ) from None
    if moment.tzinfo is None:
        raise bad(f"{path}.{key}", gettext("%(value)s has no UTC offset") % {"value": f"{value!r}"})
    return moment


def _choice(obj: dict[str, Any], key: str, path: str, choices: list[str]) -> str:
    value = _get(obj, key, path, str)
    if value not in choices:
        raise bad(
            f"{path}.{key}",
            gettext("%(value)s is not one of %(list)s")
            % {"value": f"{value!r}", "list": ", ".join(choices)},
        )
    return str(value)


def _text(obj: dict[str, Any], key: str, path: str, limit: int) -> str:
    value = _get(obj, key, path, str)
    if len(value) > limit:
        raise bad(f"{path}.{key}", gettext("at most %(limit)s characters") % {"limit": limit})
    return str(value)


def _couple_number(value: Any, path: str, numbers: set[int]) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value not in numbers:
        raise bad(
            path, gettext("%(value)s is not a couple of this drive") % {"value": f"{value!r}"}
        )
    return value


def _points(value: Any, path: str) -> tuple[int | None, int | None]:
    if value is None:
        return None, None
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(p, int) and not isinstance(p, bool) for p in value)
        or not all(-32768 <= p <= 32767 for p in value)
    ):
        raise bad(path, gettext("points are null or two whole numbers"))
    return value[0], value[1]


# --- the restore -------------------------------------------------------------------------------


def drive_restore(
    *, data: dict[str, Any], replace: bool = False, actor: Actor = SYSTEM
) -> RestoreReport:
    """Create the drive of an export (see the module's docstring). A drive with the same slug
    is a 409 ``drive_exists`` unless ``replace``, which deletes it first (in the same
    transaction). Every problem of the file is a 422 ``bad_export`` naming its place (text
    that cannot be stored: ``bad_text``)."""
    if not isinstance(data, dict):
        raise bad("the file", gettext("an export is a JSON object"))
    text_refuse_unstorable(data)  # NUL or a lone surrogate: 422 bad_text naming its place
    if data.get("format") != FORMAT:
        raise bad(
            "format",
            gettext("expected %(FORMAT)s, not %(value)s")
            % {"FORMAT": f"{FORMAT!r}", "value": f"{data.get('format')!r}"},
        )
    check_export(data)  # the published schema (scoring.records.schema): 422 bad_export
    info = _get(data, "drive", "", dict)
    slug = _get(info, "slug", "drive", str)
    if not _SLUG.match(slug):
        raise bad(
            "drive.slug",
            gettext("%(slug)s is not a slug (letters, digits, - and _)") % {"slug": f"{slug!r}"},
        )
    club_name = _text(info, "club", "drive", 120)
    if not club_name.strip():
        raise bad("drive.club", gettext("the club needs a name"))
    try:
        read = {
            key: _get(info, key, "drive", object, null=True)
            for key in DRIVE_SETTINGS
            if key in info or key not in LATER_SETTINGS
        }
        if "rules" not in read and isinstance(read.get("ruleset"), str):
            read["rules"] = dict(Drive.RULES_BEFORE_SWITCHES.get(read["ruleset"], {}))
        # Exports made before the choice charged the entry fee per couple.
        read.setdefault("entry_fee_per", Drive.FeePer.COUPLE)
        settings = clean_settings(read, partial=False)
    except ServiceError as error:
        raise bad(f"drive.{error.details.get('field', '')}".rstrip("."), error.message) from None
    # Exports made before the rule have no sit_out_last: their drives keep the old movement.
    sit_out_last = info.get("sit_out_last", False)
    if not isinstance(sit_out_last, bool):
        raise bad("drive.sit_out_last", gettext("must be true or false"))
    settings["sit_out_last"] = sit_out_last
    state = _choice(info, "state", "drive", Drive.State.values)
    current = _int(info, "current_game", "drive", low=0)
    if current > settings["games"]:
        raise bad(
            "drive.current_game",
            gettext("beyond the night's %(settings)s games") % {"settings": settings["games"]},
        )
    created_at = _time(info, "created_at", "drive")
    closed_at = _time(info, "closed_at", "drive", null=True)

    couples = _read_couples(_get(data, "couples", "", list))
    numbers = {c["number"] for c in couples}
    games = _read_games(_get(data, "games", "", list), numbers, current)
    closed_tables = _read_closed_tables(_get(data, "closed_tables", "", dict))
    entries = _read_audit(_get(data, "audit", "", list))
    prizes = _read_prizes(data, numbers)
    # The parts of the apps above scoring (scoring/records/parts.py), read before any write.
    extra = [(part, part.read(data[part.key], numbers)) for part in parts() if part.key in data]

    named = (
        [e["user"] for e in entries]
        + [v["user"] for g in games for t in g["tables"] for v in t["versions"]]
        + prizes["users"]
        + [name for part, read in extra for name in part.users(read)]
    )
    users = _users(named)
    report_unknown = sorted({name for name in named if name and name not in users})

    with transaction.atomic():
        existing = Drive.objects.filter(slug=slug).first()
        replaced = False
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
            replaced = True
        club = club_get_or_create(name=club_name, actor=actor)
        try:
            with transaction.atomic():
                report = _write(
                    club,
                    slug,
                    settings,
                    state,
                    current,
                    created_at,
                    closed_at,
                    couples,
                    games,
                    closed_tables,
                    entries,
                    users,
                )
                _write_prizes(report.drive, prizes, users)
                for part, read in extra:
                    part.write(report.drive, read, users)
        except (IntegrityError, DataError) as error:
            raise ServiceError(
                "bad_export", gettext("The export is inconsistent: %(error)s.") % {"error": error}
            ) from None
        report.replaced = replaced
        report.unknown_users = report_unknown
        note = "restored from an export: new table and couple tokens"
        if report_unknown:
            note += f"; users not found here: {', '.join(report_unknown)}"
        audit(
            report.drive,
            actor,
            "drive.restore",
            subject=slug,
            note=note,
            new={"couples": report.couples, "games": report.games, "results": report.results},
        )
    return report


def _read_couples(items: list[Any]) -> list[dict[str, Any]]:
    out = []
    seen: set[int] = set()
    for i, item in enumerate(items):
        path = f"couples[{i}]"
        if not isinstance(item, dict):
            raise bad(path, gettext("expected an object"))
        number = _int(item, "number", path)
        if number in seen:
            raise bad(
                f"{path}.number", gettext("couple %(number)s appears twice") % {"number": number}
            )
        seen.add(number)
        players = _get(item, "players", path, list)
        if len(players) != 2 or not all(isinstance(p, str) and 0 < len(p) <= 80 for p in players):
            raise bad(f"{path}.players", gettext("two names of 1 to 80 characters"))
        out.append(
            {
                "number": number,
                "player1": players[0],
                "player2": players[1],
                "paid": _get(item, "paid", path, bool),
                "checked_in": _get(item, "checked_in", path, bool),
                "cookie_jar": _get(item, "cookie_jar", path, bool),
                "joined_game": _int(item, "joined_game", path),
                "withdrawn_game": _int(item, "withdrawn_game", path, null=True),
                "holes": _int(item, "holes", path, null=True, low=0),
            }
        )
    return out


def _read_games(items: list[Any], numbers: set[int], current: int) -> list[dict[str, Any]]:
    out = []
    for i, item in enumerate(items):
        path = f"games[{i}]"
        if not isinstance(item, dict):
            raise bad(path, gettext("expected an object"))
        number = _int(item, "number", path)
        if number != i + 1:
            raise bad(
                f"{path}.number",
                gettext("expected game %(value)s, not %(number)s")
                % {"value": i + 1, "number": number},
            )
        tables = []
        seated: set[int] = set()
        table_numbers: set[int] = set()
        for j, row in enumerate(_get(item, "tables", path, list)):
            where = f"{path}.tables[{j}]"
            if not isinstance(row, dict):
                raise bad(where, gettext("expected an object"))
            table = _int(row, "table", where)
            if table in table_numbers:
                raise bad(
                    f"{where}.table",
                    gettext("table %(table)s appears twice in game %(number)s")
                    % {"table": table, "number": number},
                )
            table_numbers.add(table)
            stays = _couple_number(
                _get(row, "stays", where, object, null=True), f"{where}.stays", numbers
            )
            arrives = _couple_number(
                _get(row, "arrives", where, object, null=True), f"{where}.arrives", numbers
            )
            present = [c for c in (stays, arrives) if c is not None]
            if not present:
                raise bad(where, gettext("a table with nobody at it"))
            for couple in present:
                if couple in seated:
                    raise bad(
                        where,
                        gettext("couple %(couple)s sits at two tables in game %(number)s")
                        % {"couple": couple, "number": number},
                    )
                seated.add(couple)
            winner = _couple_number(
                _get(row, "winner", where, object, null=True), f"{where}.winner", numbers
            )
            result = None
            if winner is not None:
                if len(present) < 2 or winner not in present:
                    raise bad(
                        f"{where}.winner",
                        gettext("couple %(winner)s is not at this table") % {"winner": winner},
                    )
                result = {
                    "winner": winner,
                    "points": _points(_get(row, "points", where, object, null=True), where),
                    "state": _choice(row, "state", where, Result.State.values),
                    "verdict": _text(row, "verdict", where, 32),
                }
            versions = [
                _read_version(v, f"{where}.versions[{k}]", numbers)
                for k, v in enumerate(_get(row, "versions", where, list))
            ]
            if versions and result is None:
                raise bad(f"{where}.versions", gettext("versions without a result"))
            tables.append(
                {
                    "table": table,
                    "stays": stays,
                    "arrives": arrives,
                    "result": result,
                    "versions": versions,
                }
            )
        out.append(
            {
                "number": number,
                "started_at": _time(item, "started_at", path),
                "finished_at": _time(item, "finished_at", path, null=True),
                "tables": tables,
            }
        )
    if len(out) != current:
        raise bad(
            "games",
            gettext("%(count)s games, but the drive says game %(current)s is in play")
            % {"count": len(out), "current": current},
        )
    return out


def _read_version(item: Any, path: str, numbers: set[int]) -> dict[str, Any]:
    if not isinstance(item, dict):
        raise bad(path, gettext("expected an object"))
    winner = _couple_number(_get(item, "winner", path, object), f"{path}.winner", numbers)
    if winner is None:
        raise bad(f"{path}.winner", "missing")
    win_pts, lose_pts = _points(_get(item, "points", path, object, null=True), f"{path}.points")
    return {
        "kind": _choice(item, "kind", path, ResultVersion.Kind.values),
        "winner": winner,
        "winner_points": win_pts,
        "loser_points": lose_pts,
        "previous_winner": _couple_number(
            _get(item, "previous_winner", path, object, null=True),
            f"{path}.previous_winner",
            numbers,
        ),
        "key": _text(item, "key", path, 80),
        "channel": _choice(item, "channel", path, AuditEntry.Channel.values),
        "user": _get(item, "user", path, str, null=True),
        "couple": _couple_number(
            _get(item, "couple", path, object, null=True), f"{path}.couple", numbers
        ),
        "reason": _get(item, "reason", path, str),
        "after_advance": _get(item, "after_advance", path, bool),
        "at": _time(item, "at", path),
    }


def _read_closed_tables(items: dict[str, Any]) -> dict[int, int]:
    out = {}
    for key, game in items.items():
        if (
            not str(key).isdigit()
            or not isinstance(game, int)
            or isinstance(game, bool)
            or not 1 <= game <= MAX_SMALL
            or not 1 <= int(key) <= MAX_SMALL
        ):
            raise bad(
                f"closed_tables.{key}", gettext("table number → first game with nobody there")
            )
        out[int(key)] = game
    return out


def _read_audit(items: list[Any]) -> list[dict[str, Any]]:
    out = []
    for i, item in enumerate(items):
        path = f"audit[{i}]"
        if not isinstance(item, dict):
            raise bad(path, gettext("expected an object"))
        out.append(
            {
                "at": _time(item, "at", path),
                "user": _get(item, "user", path, str, null=True),
                "channel": _choice(item, "channel", path, AuditEntry.Channel.values),
                "action": _text(item, "action", path, 40),
                "subject": _text(item, "subject", path, 80),
                "old": item.get("old"),
                "new": item.get("new"),
                "note": _get(item, "note", path, str),
            }
        )
    return out


# --- prizes: the set-up, ties (choices, cut cards, play-off matches), awards, the cookie jar ---

MAX_SEED = 2**63 - 1


def _money(obj: dict[str, Any], key: str, path: str, *, null: bool = False) -> Decimal | None:
    value = _get(obj, key, path, str, null=null)
    if value is None:
        return None
    try:
        amount = Decimal(value)
    except InvalidOperation:
        raise bad(
            f"{path}.{key}", gettext("%(value)s is not an amount") % {"value": f"{value!r}"}
        ) from None
    if not amount.is_finite() or amount != amount.quantize(Decimal("0.01")) or abs(amount) >= 10**8:
        raise bad(
            f"{path}.{key}",
            gettext("%(value)s is not an amount to the cent") % {"value": f"{value!r}"},
        )
    return amount.quantize(Decimal("0.01"))


def _who_of(obj: dict[str, Any], key: str, path: str) -> str | None:
    value = _get(obj, key, path, str, null=True)
    return str(value) if value is not None else None


def _numbers_of(
    obj: dict[str, Any], key: str, path: str, numbers: set[int] | None = None
) -> list[int]:
    """A list of distinct numbers (couples of the drive when ``numbers`` is given)."""
    values = _get(obj, key, path, list)
    for value in values:
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_SMALL:
            raise bad(
                f"{path}.{key}",
                gettext("%(value)s is not a number from 1 to %(MAX_SMALL)s")
                % {"value": f"{value!r}", "MAX_SMALL": MAX_SMALL},
            )
        if numbers is not None and value not in numbers:
            raise bad(
                f"{path}.{key}",
                gettext("%(value)s is not a couple of this drive") % {"value": f"{value!r}"},
            )
    if len(set(values)) != len(values):
        raise bad(f"{path}.{key}", gettext("a number appears twice"))
    return list(values)


def _seed(obj: dict[str, Any], key: str, path: str) -> int | None:
    value = _get(obj, key, path, int, null=True)
    if value is not None and not -MAX_SEED - 1 <= value <= MAX_SEED:
        raise bad(f"{path}.{key}", gettext("%(value)s is out of range") % {"value": value})
    return int(value) if value is not None else None


def _optional_channel(obj: dict[str, Any], key: str, path: str) -> str:
    value = _get(obj, key, path, str, null=True)
    if value is None:
        return ""
    if value not in AuditEntry.Channel.values:
        raise bad(
            f"{path}.{key}",
            gettext("%(value)s is not one of %(list)s")
            % {"value": f"{value!r}", "list": ", ".join(AuditEntry.Channel.values)},
        )
    return str(value)


def _objects(data: dict[str, Any], key: str, path: str) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for i, item in enumerate(_get(data, key, path, list)):
        where = f"{path}.{key}[{i}]" if path else f"{key}[{i}]"
        if not isinstance(item, dict):
            raise bad(where, gettext("expected an object"))
        out.append((where, item))
    return out


def _read_prizes(data: dict[str, Any], numbers: set[int]) -> dict[str, Any]:
    """The prize set-up, ties, awards and cookie-jar draw of the export, every value checked.
    An export made before these were carried (no ``awards`` key) restores no prizes."""
    out: dict[str, Any] = {"setup": None, "ties": [], "awards": [], "draw": None, "users": []}
    if "awards" not in data and "prize_setup" not in data:
        return out
    users: list[str | None] = out["users"]
    info = _get(data, "prize_setup", "", dict, null=True)
    if info is not None:
        path = "prize_setup"
        places = []
        seen_places: set[int] = set()
        for where, row in _objects(info, "places", path):
            place = _int(row, "place", where)
            if place in seen_places:
                raise bad(
                    f"{where}.place", gettext("place %(place)s appears twice") % {"place": place}
                )
            seen_places.add(place)
            places.append(
                {
                    "place": place,
                    "amount": _money(row, "amount", where, null=True),
                    "description": _text(row, "description", where, 200),
                }
            )
        out["setup"] = {
            "prize_places": _int(info, "prize_places", path, low=0),
            "booby": _get(info, "booby", path, bool),
            "booby_amount": _money(info, "booby_amount", path, null=True),
            "booby_description": _text(info, "booby_description", path, 200),
            # Exports from before the option have no such key: only who played every game.
            "booby_late_couples": _get(
                {"booby_late_couples": False} | info, "booby_late_couples", path, bool
            ),
            "cookie_jar": _get(info, "cookie_jar", path, bool),
            "cookie_jar_k": _int(info, "cookie_jar_k", path, low=0),
            "buy_in": _money(info, "buy_in", path),
            "jackpot_threshold": _int(info, "jackpot_threshold", path, null=True, low=0),
            "jackpot_amount": _money(info, "jackpot_amount", path, null=True),
            "cut_ace_high": _get(info, "cut_ace_high", path, bool),
            # Exports from before the highest-card cut have no such key: the lowest card won.
            "cut_high_wins": _get({"cut_high_wins": False} | info, "cut_high_wins", path, bool),
            "house_rule": _choice(info, "house_rule", path, PrizeSetup.HouseRule.values),
            "updated_at": _time(info, "updated_at", path),
            "places": places,
        }
    keys: set[str] = set()
    ids: set[int] = set()
    for path, item in _objects(data, "ties", ""):
        tie_id = _get(item, "id", path, int)
        if tie_id < 1 or tie_id > MAX_SEED or tie_id in ids:
            raise bad(f"{path}.id", gettext("%(tie_id)s is not a new tie id") % {"tie_id": tie_id})
        ids.add(tie_id)
        key = _text(item, "key", path, 20)
        if not key or key in keys:
            raise bad(
                f"{path}.key", gettext("%(key)s is empty or appears twice") % {"key": f"{key!r}"}
            )
        keys.add(key)
        tied = _numbers_of(item, "couples", path, numbers)
        members = set(tied)
        winner = _couple_number(
            _get(item, "winner", path, object, null=True), f"{path}.winner", members
        )
        method = _get(item, "method", path, str, null=True) or ""
        if len(method) > 10:
            raise bad(f"{path}.method", gettext("at most 10 characters"))
        users.append(_who_of(item, "decided_by", path))
        choices = []
        for where, row in _objects(item, "choices", path):
            users.append(_who_of(row, "by", where))
            choices.append(
                {
                    "couple": _couple_number(
                        _get(row, "couple", where, object), f"{where}.couple", members
                    ),
                    "asked": _text(row, "asked", where, 10),
                    "choice": _text(row, "choice", where, 10),
                    "user": users[-1],
                    "channel": _choice(row, "channel", where, AuditEntry.Channel.values),
                    "at": _time(row, "at", where),
                }
            )
        cards = []
        cut: set[tuple[int, int]] = set()
        for where, row in _objects(item, "cut_cards", path):
            couple = _couple_number(_get(row, "couple", where, object), f"{where}.couple", members)
            rnd = _int(row, "round", where)
            if couple is None or (rnd, couple) in cut:
                raise bad(
                    where,
                    gettext("couple %(couple)s cuts twice in round %(rnd)s")
                    % {"couple": couple, "rnd": rnd},
                )
            cut.add((rnd, couple))
            users.append(_who_of(row, "by", where))
            cards.append(
                {
                    "round": rnd,
                    "couple": couple,
                    "card": _text(row, "card", where, 3),
                    "seed": _seed(row, "seed", where),
                    "user": users[-1],
                    "channel": _choice(row, "channel", where, AuditEntry.Channel.values),
                    "at": _time(row, "at", where),
                }
            )
        matches = []
        played: set[tuple[int, int]] = set()
        for where, row in _objects(item, "matches", path):
            pair = _numbers_of(row, "match", where, members)
            rnd = _int(row, "round", where)
            if not 1 <= len(pair) <= 2 or (rnd, pair[0]) in played:
                raise bad(f"{where}.match", gettext("one or two couples, once a round"))
            played.add((rnd, pair[0]))
            win_pts, lose_pts = _points(
                _get(row, "points", where, object, null=True), f"{where}.points"
            )
            verdict = _get(row, "verdict", where, str, null=True) or ""
            if len(verdict) > 32:
                raise bad(f"{where}.verdict", gettext("at most 32 characters"))
            users.append(_who_of(row, "by", where))
            matches.append(
                {
                    "round": rnd,
                    "a": pair[0],
                    "b": pair[1] if len(pair) == 2 else None,
                    "winner": _couple_number(
                        _get(row, "winner", where, object, null=True),
                        f"{where}.winner",
                        set(pair),
                    ),
                    "winner_points": win_pts,
                    "loser_points": lose_pts,
                    "verdict": verdict,
                    "user": users[-1],
                    "channel": _optional_channel(row, "channel", where),
                    "at": _time(row, "at", where, null=True),
                }
            )
        out["ties"].append(
            {
                "id": tie_id,
                "key": key,
                "kind": _choice(item, "kind", path, Tie.Kind.values),
                "places": _numbers_of(item, "places", path),
                "couples": tied,
                "state": _choice(item, "state", path, Tie.State.values),
                "method": method,
                "playing": _numbers_of(item, "playing", path, members),
                "forfeits": _numbers_of(item, "forfeits", path, members),
                "winner": winner,
                "decided_by": _who_of(item, "decided_by", path),
                "decided_channel": _optional_channel(item, "decided_channel", path),
                "decided_at": _time(item, "decided_at", path, null=True),
                "created_at": _time(item, "created_at", path),
                "choices": choices,
                "cut_cards": cards,
                "matches": matches,
            }
        )
    for path, item in _objects(data, "awards", ""):
        tie_key = _get(item, "tie", path, str, null=True)
        if tie_key is not None and tie_key not in keys:
            raise bad(
                f"{path}.tie",
                gettext("%(tie_key)s is not a tie of this drive") % {"tie_key": f"{tie_key!r}"},
            )
        users.append(_who_of(item, "by", path))
        out["awards"].append(
            {
                "kind": _choice(item, "kind", path, Award.Kind.values),
                "place": _int(item, "place", path, null=True),
                "couple": _couple_number(
                    _get(item, "couple", path, object), f"{path}.couple", numbers
                ),
                "amount": _money(item, "amount", path, null=True),
                "description": _text(item, "description", path, 200),
                "how": _choice(item, "how", path, Award.How.values),
                "tie": tie_key,
                "user": users[-1],
                "channel": _optional_channel(item, "channel", path),
                "at": _time(item, "at", path),
            }
        )
    jar = _get(data, "cookie_jar", "", dict)
    drawn = _get(jar, "drawn", "cookie_jar", dict, null=True) if jar.get("enabled") else None
    if drawn is not None:
        if out["setup"] is None or not out["setup"]["cookie_jar"]:
            raise bad("cookie_jar.drawn", gettext("a draw, but the prize set-up has no cookie jar"))
        path = "cookie_jar.drawn"
        users.append(_who_of(drawn, "by", path))
        out["draw"] = {
            "method": _choice(drawn, "method", path, CookieJarDraw.Method.values),
            "seed": _seed(drawn, "seed", path),
            "games": _numbers_of(drawn, "games", path),
            "entrants": _numbers_of(jar, "entrants", "cookie_jar", numbers),
            "pot": _money(jar, "pot", "cookie_jar"),
            "carried_in": _money(jar, "carried_in", "cookie_jar"),
            "winners": _numbers_of(jar, "winners", "cookie_jar", numbers),
            "user": users[-1],
            "channel": _choice(drawn, "channel", path, AuditEntry.Channel.values),
            "at": _time(drawn, "at", path),
        }
    return out


def _write_prizes(drive: Drive, prizes: dict[str, Any], users: dict[str, Any]) -> None:
    def user(name: str | None) -> Any:
        return users.get(name) if name else None

    couples = {c.number: c for c in Couple.objects.filter(drive=drive)}
    setup = prizes["setup"]
    if setup is not None:
        fields = {k: v for k, v in setup.items() if k != "places"}
        PrizeSetup.objects.create(drive=drive, **fields)
        PrizePlace.objects.bulk_create([PrizePlace(drive=drive, **p) for p in setup["places"]])
    ties: dict[str, Tie] = {}
    kept_ids = False
    for t in prizes["ties"]:
        free = not Tie.objects.filter(pk=t["id"]).exists()  # the same id when it is free here
        kept_ids = kept_ids or free
        tie = Tie.objects.create(
            pk=t["id"] if free else None,
            drive=drive,
            key=t["key"],
            kind=t["kind"],
            places=t["places"],
            couples=t["couples"],
            state=t["state"],
            method=t["method"],
            playing=t["playing"],
            forfeits=t["forfeits"],
            winner=t["winner"],
            decided_by=user(t["decided_by"]),
            decided_channel=t["decided_channel"],
            decided_at=t["decided_at"],
            created_at=t["created_at"],
        )
        ties[tie.key] = tie
        TieChoice.objects.bulk_create(
            TieChoice(
                tie=tie,
                couple=couples[c["couple"]],
                asked=c["asked"],
                choice=c["choice"],
                user=user(c["user"]),
                channel=c["channel"],
                at=c["at"],
            )
            for c in t["choices"]
        )
        CutCard.objects.bulk_create(
            CutCard(
                tie=tie,
                round=c["round"],
                couple=couples[c["couple"]],
                card=c["card"],
                seed=c["seed"],
                user=user(c["user"]),
                channel=c["channel"],
                at=c["at"],
            )
            for c in t["cut_cards"]
        )
        PlayoffMatch.objects.bulk_create(
            PlayoffMatch(
                tie=tie,
                round=m["round"],
                a=couples[m["a"]],
                b=couples[m["b"]] if m["b"] is not None else None,
                winner=couples[m["winner"]] if m["winner"] is not None else None,
                winner_points=m["winner_points"],
                loser_points=m["loser_points"],
                verdict=m["verdict"],
                user=user(m["user"]),
                channel=m["channel"],
                at=m["at"],
            )
            for m in t["matches"]
        )
    if kept_ids and connection.vendor == "postgresql":
        _sequence_past_max(Tie)
    Award.objects.bulk_create(
        Award(
            drive=drive,
            kind=a["kind"],
            place=a["place"],
            couple=couples[a["couple"]],
            amount=a["amount"],
            description=a["description"],
            how=a["how"],
            tie=ties[a["tie"]] if a["tie"] else None,
            user=user(a["user"]),
            channel=a["channel"],
            at=a["at"],
        )
        for a in prizes["awards"]
    )
    draw = prizes["draw"]
    if draw is not None:
        CookieJarDraw.objects.create(
            drive=drive, **{k: v for k, v in draw.items() if k != "user"}, user=user(draw["user"])
        )


def _sequence_past_max(model: Any) -> None:
    """Rows written with their ids: the id sequence moved past the largest id of the table,
    by Django's own ``sequence_reset_sql`` (PostgreSQL; nothing to do on SQLite)."""
    statements = connection.ops.sequence_reset_sql(no_style(), [model])
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def _users(names: list[str | None]) -> dict[str, Any]:
    model = get_user_model()
    wanted = {n for n in names if n}
    field_name = model.USERNAME_FIELD
    return {
        getattr(u, field_name): u
        for u in model.objects.filter(**{f"{field_name}__in": sorted(wanted)})
    }


def _write(
    club: Any,
    slug: str,
    settings: dict[str, Any],
    state: str,
    current: int,
    created_at: Any,
    closed_at: Any,
    couples: list[dict[str, Any]],
    games: list[dict[str, Any]],
    closed_tables: dict[int, int],
    entries: list[dict[str, Any]],
    users: dict[str, Any],
) -> RestoreReport:
    drive = Drive.objects.create(
        club=club,
        slug=slug,
        state=state,
        current_game=current,
        created_at=created_at,
        closed_at=closed_at,
        **settings,
    )
    couple_rows = Couple.objects.bulk_create([Couple(drive=drive, **c) for c in couples])
    by_number = {c.number: c for c in couple_rows}
    table_numbers = sorted({t["table"] for g in games for t in g["tables"]} | set(closed_tables))
    Table.objects.bulk_create(
        [Table(drive=drive, number=n, closed_game=closed_tables.get(n)) for n in table_numbers]
    )
    tables = {t.number: t for t in Table.objects.filter(drive=drive)}
    game_rows = Game.objects.bulk_create(
        [
            Game(
                drive=drive,
                number=g["number"],
                started_at=g["started_at"],
                finished_at=g["finished_at"],
            )
            for g in games
        ]
    )
    seats = []
    for game, row in zip(game_rows, games, strict=True):
        for t in row["tables"]:
            seats.append(
                Seat(
                    game=game,
                    table=tables[t["table"]],
                    stays=by_number.get(t["stays"]) if t["stays"] is not None else None,
                    arrives=by_number.get(t["arrives"]) if t["arrives"] is not None else None,
                )
            )
    seats = Seat.objects.bulk_create(seats, batch_size=2000)
    flat = [t for row in games for t in row["tables"]]
    results: list[Result] = []
    version_rows: list[tuple[int, dict[str, Any]]] = []
    for seat, t in zip(seats, flat, strict=True):
        if t["result"] is None:
            continue
        r = t["result"]
        last = t["versions"][-1]["at"] if t["versions"] else seat.game.started_at
        results.append(
            Result(
                game=seat.game,
                seat=seat,
                winner=by_number[r["winner"]],
                winner_points=r["points"][0],
                loser_points=r["points"][1],
                verdict=r["verdict"],
                state=r["state"],
                updated_at=last,
            )
        )
        version_rows.extend((len(results) - 1, v) for v in t["versions"])
    results = Result.objects.bulk_create(results, batch_size=2000)
    versions = [
        ResultVersion(
            result=results[index],
            kind=v["kind"],
            winner=by_number[v["winner"]],
            winner_points=v["winner_points"],
            loser_points=v["loser_points"],
            previous_winner=by_number.get(v["previous_winner"]) if v["previous_winner"] else None,
            key=v["key"],
            channel=v["channel"],
            user=users.get(v["user"]) if v["user"] else None,
            couple=by_number.get(v["couple"]) if v["couple"] else None,
            reason=v["reason"],
            after_advance=v["after_advance"],
            at=v["at"],
        )
        for index, v in version_rows
    ]
    ResultVersion.objects.bulk_create(versions, batch_size=2000)
    AuditEntry.objects.bulk_create(
        [
            AuditEntry(
                club=club,
                drive=drive,
                at=e["at"],
                channel=e["channel"],
                action=e["action"],
                subject=e["subject"],
                old=e["old"],
                new=e["new"],
                note=e["note"],
                user=users.get(e["user"]) if e["user"] else None,
            )
            for e in entries
        ],
        batch_size=2000,
    )
    return RestoreReport(
        drive=drive,
        couples=len(couple_rows),
        games=len(game_rows),
        results=len(results),
        versions=len(versions),
        audit=len(entries),
    )


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
