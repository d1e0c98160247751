"""Writes of the night before the results: clubs and members, drives and their settings,
couples (one, many, or a CSV file, all or nothing, a couple already registered refused unless
allowed), names, check-in and withdrawal, deleting a couple before the start, starting the
night (the couples not checked in seated or left out), opening a game's seating, closing the
drive, punch-card holes, API tokens.

Every service owns its transaction, locks the drive row it changes (so two desks never
interleave), checks its input and writes an audit entry. Results, the advance from one game to
the next and standings live in ``scoring`` (which builds on this); this module never reads
results.
"""

from __future__ import annotations

import csv
import io
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date as Date
from decimal import Decimal
from enum import StrEnum
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, models, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext, gettext_lazy

from drives import inputs, race
from drives.backup import backup_after_commit
from drives.errors import Conflict, Forbidden, NotFound, ServiceError
from drives.guards import lock_drive, require_open
from drives.models import (
    ApiToken,
    AuditEntry,
    Club,
    Couple,
    Drive,
    DriveVersion,
    Game,
    Membership,
    Player,
    Registration,
    Seat,
    Table,
)
from drives.names import couple_key, couples_matching, name_key
from drives.pageboard import drive_forget
from drives.signals import couple_deleted, couple_paid, drive_closed
from drives.text import name_strip_bidi, text_refuse_unstorable
from engine.movement import Seating, first_seating
from engine.rules import DEFAULT_PRESET, RulesetError, get_ruleset, make_ruleset

User = AbstractBaseUser | AnonymousUser | None

MAX_NAME = inputs.MAX_NAME
MAX_COUPLES = 2000
MAX_CSV_BYTES = 1_000_000  # the default of settings.CSV_MAX_BYTES


def csv_max_bytes() -> int:
    """The largest CSV file imported (couples, results): ``settings.CSV_MAX_BYTES``."""
    return int(getattr(settings, "CSV_MAX_BYTES", MAX_CSV_BYTES))


@dataclass(frozen=True)
class Actor:
    """Who makes a change, and through which channel (for the audit)."""

    user: Any = None
    channel: str = AuditEntry.Channel.DESK
    couple: Couple | None = None
    # The phone that asks (``drives.devices``), for a card's channel; "" when unknown.
    device: str = ""

    @property
    def account(self) -> Any:
        return self.user if getattr(self, "user", None) and self.user.is_authenticated else None


SYSTEM = Actor(channel=AuditEntry.Channel.SYSTEM)


class Change(StrEnum):
    """What a write changed of what a drive's live pages show (``drive_changed``)."""

    #: The night around the results: the settings, the couples, check-ins and withdrawals,
    #: the tables and seating, the game in play, prizes, money, the close.
    STRUCTURE = "structure"
    #: One table's result only (entered, confirmed, undone, settled), kept as a
    #: ``ResultVersion`` that the table's and its couples' pages read.
    RESULT = "result"


def audit(
    drive: Drive | None,
    actor: Actor,
    action: str,
    *,
    club: Club | None = None,
    subject: str = "",
    old: Any = None,
    new: Any = None,
    note: str = "",
    changed: Change = Change.STRUCTURE,
) -> AuditEntry:
    """The audit entry of a change, written in the caller's transaction; a drive's entry also
    moves the drive's version (``drive_changed``) by what the service says it ``changed``: the
    night's structure unless it says a table's result only."""
    entry = AuditEntry.objects.create(
        club_id=club.pk if club is not None else drive.club_id,  # type: ignore[union-attr]  # callers give a club or a drive
        drive=drive,
        user=actor.account,
        channel=actor.channel,
        action=action,
        subject=subject,
        old=old,
        new=new,
        note=note,
    )
    if drive is not None:
        drive_changed(drive.pk, changed)
    return entry


def drive_changed(drive_id: int, changed: Change = Change.STRUCTURE) -> None:
    """What the drive's live pages show may have changed: its version goes up by one, in the
    caller's transaction (``audit`` calls this; a write that is not audited must call it),
    and its ``structure`` too unless only a table's result changed (``Change.RESULT``: the
    change is then kept as a ``ResultVersion``, which the table's and couples' pages read).
    The row is created by the first change (a drive restored or made before it had one)."""
    bump: dict[str, Any] = {"version": F("version") + 1}
    if changed != Change.RESULT:
        bump["structure"] = F("structure") + 1
        # The phones' poll keys of the drive, once committed (a result's change forgets its
        # own table's and couples': scoring.apps).
        drive_forget(drive_id)
    rows = DriveVersion.objects.filter(drive_id=drive_id)
    if rows.update(**bump):
        return
    _row, created = DriveVersion.objects.get_or_create(
        drive_id=drive_id, defaults={"version": 1, "structure": 1}
    )
    if not created:
        rows.update(**bump)


# --- clubs, members, tokens -----------------------------------------------------------------


def club_create(*, name: str, actor: Actor = SYSTEM, organizer: Any = None) -> Club:
    name = inputs.CLUB_NAME.check(name)
    with transaction.atomic():
        existing = Club.objects.filter(name=name).first()
        if existing:
            raise Conflict(
                "club_exists",
                gettext("There is already a club called %(name)s.") % {"name": f"{name!r}"},
            )
        club = Club.objects.create(name=name, slug=_unique_slug(Club, slugify(name) or "club"))
        if organizer is not None:
            Membership.objects.create(club=club, user=organizer, role=Membership.Role.ORGANIZER)
        audit(None, actor, "club.create", club=club, subject=club.slug, new={"name": name})
    return club


def club_get_or_create(*, name: str, actor: Actor = SYSTEM) -> Club:
    text_refuse_unstorable(name, "club")
    club = Club.objects.filter(name=name_strip_bidi(name).strip()).first()
    return club or club_create(name=name, actor=actor)


def member_add(*, club: Club, user: Any, role: str, actor: Actor = SYSTEM) -> Membership:
    if role not in Membership.Role.values:
        raise ServiceError("bad_role", gettext("A member is an organizer or a scorer."))
    with transaction.atomic():
        membership, _ = Membership.objects.update_or_create(
            club=club, user=user, defaults={"role": role}
        )
        audit(None, actor, "member.set", club=club, subject=user.get_username(), new=role)
    return membership


def api_token_create(*, user: Any) -> str:
    """A new API token for ``user``; the raw value is returned once and never stored."""
    raw = secrets.token_urlsafe(32)
    ApiToken.objects.create(user=user, digest=ApiToken.digest_of(raw))
    return raw


def role_in(club: Club, user: Any) -> str | None:
    """The user's role in the club (superusers count as organizers), or None."""
    if user is None or not user.is_authenticated:
        return None
    if user.is_superuser:
        return Membership.Role.ORGANIZER
    return Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()


def require_role(drive_or_club: Drive | Club, user: Any, *roles: str) -> str:
    """The user's role if it is one of ``roles``; a 404 for outsiders (no club is revealed to
    someone who is not in it), a 403 for members without the role."""
    club = drive_or_club.club if isinstance(drive_or_club, Drive) else drive_or_club
    role = role_in(club, user)
    if role is None:
        raise NotFound("not_found", gettext("No such drive."))
    if roles and role not in roles:
        raise Forbidden(
            "forbidden", gettext("This needs the role of %(list)s.") % {"list": " or ".join(roles)}
        )
    return role


# --- drives -------------------------------------------------------------------------------------

DRIVE_SETTINGS = (
    "name",
    "date",
    "venue",
    "games",
    "ruleset",
    "rules",
    "movement",
    "first_seating",
    "seed",
    "sit_out_counts_as_win",
    "ranking",
    "entry_fee",
    "entry_fee_per",
    "currency",
    "confirm_by_other_couple",
    "scorers_may_advance",
    "slow_table_minutes",
    "published",
    "language",
    "registration_opens",
    "registration_closes",
    "capacity",
)


def _clean_rules(rules: Any, preset: str) -> dict[str, Any]:
    """The hall's switches, checked against the preset: only those that differ from it are
    kept (``{}``: the preset as it is). Every option of ``engine.rules.Ruleset`` but its name."""
    rules = inputs.HOUSE_SWITCHES.check(rules)
    if "name" in rules:
        raise _bad("rules", "rules name the switches; the preset is the ruleset setting.")
    try:
        chosen = make_ruleset(preset, **rules)
    except RulesetError as error:
        raise _bad("rules", error.message) from None
    base = get_ruleset(preset).to_dict()
    return {k: v for k, v in chosen.to_dict().items() if k != "name" and v != base[k]}


def clean_settings(
    data: dict[str, Any], *, partial: bool, drive: Drive | None = None
) -> dict[str, Any]:
    """Check and normalise drive settings; every problem is named."""
    inputs.refuse_unknown(data, DRIVE_SETTINGS)
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key != "rules":
            out[key] = _clean_setting(key, value)
    if "rules" in data or ("ruleset" in out and drive is not None and drive.rules):
        # The switches are checked against the preset chosen (a new preset keeps the
        # switches that still make sense for it only if they all do).
        preset = out.get("ruleset", drive.ruleset if drive is not None else DEFAULT_PRESET)
        rules = data["rules"] if "rules" in data else dict(drive.rules if drive else {})
        out["rules"] = _clean_rules(rules, preset)
    _require_closes_after_opens(out, drive)
    if not partial:
        for required in ("name", "date"):
            if required not in out:
                raise ServiceError(
                    "missing_field",
                    gettext("A drive needs a %(required)s.") % {"required": required},
                    field=required,
                )
    return out


def _require_closes_after_opens(values: dict[str, Any], drive: Drive | None) -> None:
    """The registration closes after it opens (422 ``bad_field`` naming the closing)."""
    if "registration_opens" not in values and "registration_closes" not in values:
        return
    opens = values.get("registration_opens", drive.registration_opens if drive else None)
    closes = values.get("registration_closes", drive.registration_closes if drive else None)
    if opens is not None and closes is not None and closes <= opens:
        raise _bad("registration_closes", gettext("The registration closes after it opens."))


def _bad(field: str, message: str) -> ServiceError:
    return ServiceError("bad_field", message, field=field)


def _clean_setting(key: str, value: Any) -> Any:
    """A setting's value tidied, by its rule (``drives.inputs.SETTINGS``)."""
    if key not in inputs.SETTINGS:
        raise _bad(key, gettext("Unknown setting %(key)s.") % {"key": key})
    return inputs.SETTINGS[key].check(value)


def drive_create(*, club: Club, actor: Actor = SYSTEM, **settings: Any) -> Drive:
    values = clean_settings(settings, partial=False)
    with transaction.atomic():
        base = slugify(f"{values['name']}-{values['date']}")[:70] or "drive"
        drive = _create_with_slug(Drive, base, club=club, **values)
        audit(drive, actor, "drive.create", subject=drive.slug, new=_jsonable(values))
    return drive


# The settings a closed drive still takes.
AFTER_CLOSE = frozenset({"published", "language"})


def drive_update(*, drive: Drive, actor: Actor, **settings: Any) -> Drive:
    values = clean_settings(settings, partial=True, drive=drive)
    with transaction.atomic():
        drive = lock_drive(drive)
        # After the close, the results are still published (or withdrawn), and the hall's
        # language may still change: it changes the words of the pages, not the results.
        if not set(values) <= AFTER_CLOSE:
            require_open(drive)
        if drive.state != Drive.State.SETUP:
            fixed = {"games", "first_seating", "seed", "movement"} & set(values)
            if fixed:
                field = sorted(fixed)[0]
                raise Conflict(
                    "drive_started",
                    gettext("%(field)s cannot change once the night started.") % {"field": field},
                    field=field,
                )
        _require_rules_open(drive, values)
        old = {k: _jsonable(getattr(drive, k)) for k in values}
        for key, value in values.items():
            setattr(drive, key, value)
        drive.save(update_fields=list(values))
        note = ""
        if "capacity" in values:  # more room: the wait list moves up by itself
            moved = waitlist_move_up(drive)
            note = f"moved up from the wait list: {[r.pk for r in moved]}" if moved else ""
        audit(
            drive,
            actor,
            "drive.update",
            subject=drive.slug,
            old=old,
            new=_jsonable(values),
            note=note,
        )
    return drive


def couples_registered_before(drive: Drive) -> int:
    """The couples registered before the night (``drives.registrations``), not wait-listed."""
    registered = Registration.objects.filter(drive=drive, status=Registration.Status.REGISTERED)
    return registered.exclude(player2="").count()


def waitlist_move_up(drive: Drive) -> list[Registration]:
    """The first wait-listed couples registered while the drive's capacity has room (in order
    of arrival), in the caller's transaction: after a cancel, or a capacity raised."""
    waiting = list(
        Registration.objects.filter(drive=drive, status=Registration.Status.WAITLISTED).order_by(
            "created_at", "id"
        )
    )
    if not waiting:
        return []
    room = len(waiting)
    if drive.capacity is not None:
        room = max(0, drive.capacity - couples_registered_before(drive))
    moved = waiting[:room]
    for row in moved:
        row.status = Registration.Status.REGISTERED
    Registration.objects.bulk_update(moved, ["status"])
    return moved


def _require_rules_open(drive: Drive, values: dict[str, Any]) -> None:
    """The rules stay as they are once a result is recorded: the results entered were judged
    under them, and are not judged again (docs/rules.md). 409 ``rules_fixed``."""
    now = {"ruleset": drive.ruleset, "rules": drive.rules or {}}
    changed = [k for k in now if k in values and values[k] != now[k]]
    if not changed:
        return
    # A result taken back at once ("undone") is no result (scoring.models.Result.State).
    recorded = Seat.objects.filter(game__drive=drive, result__isnull=False).exclude(
        result__state="undone"
    )
    if recorded.exists():
        raise Conflict(
            "rules_fixed",
            gettext(
                "The rules cannot change once a result is recorded: the results already "
                "entered were judged under these rules."
            ),
            field=changed[0],
        )


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, Date | Decimal):
        return str(value)
    return value


def _unique_slug(model: Any, base: str) -> str:
    slug, n = base, 1
    while model.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


SLUG_TRIES = 20
SLUG_CHECKED = "slug.checked"  # drives/race.py


def _create_with_slug(model: type[Drive], base: str, **fields: Any) -> Drive:
    """Insert a row with the first free slug among ``base``, ``base-2``, ``base-3`` …

    The slug is checked, then inserted in a savepoint. Two organizers creating the same drive
    at the same instant both find the same slug free; on PostgreSQL the unique index makes the
    second insert wait for the first writer's commit and then refuses it. That writer then
    takes the next free slug (at most ``SLUG_TRIES`` times: a 409 after that), so both drives
    are created. On SQLite the IMMEDIATE transaction already keeps the writers apart. Not
    retried in a test's control run (``SERVICES_LOCKING``, drives/race.py).
    """
    slug = _unique_slug(model, base)
    for _ in range(SLUG_TRIES):
        race.pause(SLUG_CHECKED)
        try:
            with transaction.atomic():
                return model.objects.create(slug=slug, **fields)
        except IntegrityError:
            # Another writer's row has this slug now; anything else is not ours to retry.
            if not race.locking() or not model.objects.filter(slug=slug).exists():
                raise
        slug = _unique_slug(model, base)
    raise Conflict(
        "slug_taken",
        gettext("Too many drives of that name and date are being created at once; try again."),
    )


# --- couples ----------------------------------------------------------------------------------


def _clean_players(p1: Any, p2: Any, where: str = "") -> tuple[str, str]:
    """Two names, each by the rules of a player's name (``drives.inputs.PLAYER``): runs of
    spaces made one, no bidi controls, something to see, at most ``MAX_NAME`` characters."""
    return inputs.check_field(inputs.PLAYER, p1, where), inputs.check_field(
        inputs.PLAYER, p2, where
    )


def couples_register(
    *,
    drive: Drive,
    couples: Sequence[dict[str, Any]],
    actor: Actor = SYSTEM,
    note: str = "",
    allow_duplicates: bool = True,
) -> list[Couple]:
    """Register couples in order (numbers follow the highest one registered). Each item has
    ``players`` (two names) or ``player1``/``player2``, and optionally ``paid`` (with
    ``paid_way``: how they paid, for the hook ``couple_paid``), ``checked_in``,
    ``cookie_jar`` and ``duplicate_ok``. All or nothing. Once the night runs
    they are late arrivals: seated from the next game. ``note`` is added to the audit entry's.

    A couple whose two people are already an active couple of the drive (either order,
    ignoring case, accents and spaces: ``drives.names.couples_matching``), or an earlier item
    of the same list, is refused with 409 ``duplicate_couple`` naming that ``couple`` (or the
    ``same_as`` item) when the caller asks for it (``allow_duplicates=False``: the door's
    page and the API), unless the item says ``duplicate_ok: true``; registered anyway, the
    audit entry's note says so. Scripts, the demo and the CSV import (which checks the whole
    file itself, ``couples_import_csv``) register without asking.

    Each name is one of the club's players (``players_link``): the one of ``player_ids`` when
    the item gives it (the door's type-ahead), else the one of the same key, else a new one.
    A key shared by several players is asked about (409 ``which_player``) when the caller
    asks about duplicates, else taken as the one seen most recently."""
    cleaned = _couples_cleaned(couples)
    with transaction.atomic():
        drive = lock_drive(drive)
        require_open(drive)
        # Under the drive's lock: two desks registering the same couple cannot both pass.
        allowed = []
        if not allow_duplicates:
            allowed = _refuse_duplicates(
                drive, [c.players for c in cleaned], [c.duplicate_ok for c in cleaned]
            )
        if allowed:
            note = "; ".join(filter(None, [note, "duplicates allowed: " + "; ".join(allowed)]))
        last = _last_number(drive, len(cleaned))
        joined = _joining_game(drive)
        members = players_link(
            club=drive.club,
            names=[n for new in cleaned for n in new.players],
            ids=[i for new in cleaned for i in new.player_ids],
            ask=not allow_duplicates,
            drive=drive,
        )
        created = Couple.objects.bulk_create(
            [
                Couple(
                    drive=drive,
                    number=last + i,
                    player1=new.players[0],
                    player2=new.players[1],
                    member1=members[2 * i - 2],
                    member2=members[2 * i - 1],
                    joined_game=joined,
                    **new.flags,
                )
                for i, new in enumerate(cleaned, start=1)
            ]
        )
        audit(
            drive,
            actor,
            "couples.register" if joined == 1 else "couples.late",
            subject=f"{last + 1}-{last + len(created)}",
            new=[{"number": c.number, "players": c.players} for c in created],
            note="; ".join(filter(None, ["" if joined == 1 else f"from game {joined}", note])),
        )
        for couple, new in zip(created, cleaned, strict=True):
            if couple.paid:  # the night's money records the entry fee (drives/signals.py)
                couple_paid.send(
                    Couple, drive=drive, couple=couple, paid=True, actor=actor, way=new.paid_way
                )
    return created


# --- the club's players ---------------------------------------------------------------------


def players_link(
    *,
    club: Club,
    names: Sequence[str],
    ids: Sequence[int | None],
    ask: bool,
    drive: Drive | None = None,
    couple: Couple | None = None,
) -> list[Player]:
    """The club's player of each name, in the caller's transaction: the player whose id is
    given (another club's or an unknown id: 422 ``unknown_player``, nothing written), else
    one of the players of the name's key, else a new player of that name. Several players of
    one key: 409 ``which_player`` listing them when ``ask`` (the door and the API), else the
    one whose last night is the latest. A fixed number of queries, whatever the number of names.

    One person plays once a night: a player already in an active couple of ``drive`` (other
    than ``couple``, the one being renamed) is never taken for a name, nor twice within the
    names (two people of one name in one night are two players: the second occurrence takes
    the next player of the key, else a new one); chosen by id, it is refused with 409
    ``player_playing`` naming the couple."""
    wanted = {i for i in ids if i is not None}
    chosen = {p.pk: p for p in Player.objects.filter(club=club, pk__in=wanted)}
    unknown = sorted(wanted - set(chosen))
    if unknown:
        raise ServiceError(
            "unknown_player",
            gettext("No player %(id)s at this club: choose the player again.") % {"id": unknown[0]},
            field="player_ids",
            player=unknown[0],
        )
    playing = _playing_tonight(drive, couple)
    for player_id in ids:
        if player_id is not None and player_id in playing:
            raise Conflict(
                "player_playing",
                gettext("%(name)s already plays tonight, in couple %(couple)s.")
                % {"name": chosen[player_id].name, "couple": playing[player_id]},
                field="player_ids",
                player=player_id,
                couple=playing[player_id],
            )
    keys = {name_key(n)[:160] for n, i in zip(names, ids, strict=True) if i is None}
    by_key: dict[str, list[Player]] = {}
    for player in Player.objects.filter(club=club, key__in=keys):
        by_key.setdefault(player.key, []).append(player)
    several = [p for found in by_key.values() if len(found) > 1 for p in found]
    last = players_last_night(several)
    used = set(playing) | wanted
    members: list[Player] = []
    new: list[Player] = []
    for name, player_id in zip(names, ids, strict=True):
        if player_id is not None:
            members.append(chosen[player_id])
            continue
        key = name_key(name)[:160]
        free = [p for p in by_key.get(key, []) if p.pk not in used]
        if len(free) > 1 and ask:
            raise Conflict(
                "which_player",
                gettext("The club has %(count)s players named %(name)s: choose which one plays.")
                % {"count": len(free), "name": name},
                name=name,
                candidates=[
                    {"id": p.pk, "name": p.name, "last_night": _iso(last.get(p.pk))} for p in free
                ],
            )
        if free:
            member = max(free, key=lambda p: (last.get(p.pk) or Date.min, p.pk))
            used.add(member.pk)
        else:
            member = Player(club=club, name=name, key=key)
            new.append(member)
        members.append(member)
    Player.objects.bulk_create(new)  # one query for the new players, with their ids
    return members


def _playing_tonight(drive: Drive | None, couple: Couple | None) -> dict[int, int]:
    """The players of the drive's active couples (other than ``couple``), with their couple's
    number: one query, none without a drive."""
    if drive is None:
        return {}
    rows = Couple.objects.filter(drive=drive, withdrawn_game__isnull=True)
    if couple is not None:
        rows = rows.exclude(pk=couple.pk)
    return {
        m: number
        for m1, m2, number in rows.values_list("member1_id", "member2_id", "number")
        for m in (m1, m2)
        if m is not None
    }


def _iso(day: Date | None) -> str | None:
    return day.isoformat() if day is not None else None


def players_last_night(players: Sequence[Player]) -> dict[int, Date]:
    """The date of each player's latest drive (players who never played are left out)."""
    if not players:
        return {}
    ids = [p.pk for p in players]
    last: dict[int, Date] = {}
    rows = Couple.objects.filter(models.Q(member1__in=ids) | models.Q(member2__in=ids)).values_list(
        "member1_id", "member2_id", "drive__date"
    )
    for m1, m2, day in rows:
        for member in (m1, m2):
            if member in ids and (member not in last or last[member] < day):
                last[member] = day
    return last


@dataclass(frozen=True)
class _NewCouple:
    """A couple to register, checked: its two names, its flags (``COUPLE_FLAGS``), whether it
    may be registered again (``duplicate_ok``), and how it paid (None: the hook's default)."""

    players: tuple[str, str]
    flags: dict[str, Any]
    duplicate_ok: bool
    paid_way: Any
    # The club's players chosen for the two names (the door's type-ahead), None: by name.
    player_ids: tuple[int | None, int | None] = (None, None)


def _couples_cleaned(couples: Sequence[dict[str, Any]]) -> list[_NewCouple]:
    """Every item checked, in order (the first bad one refused, named "Couple i" in a list of
    more than one); none at all is refused too (``no_couples``)."""
    cleaned = [
        _couple_cleaned(item, f"Couple {i}: " if len(couples) > 1 else "")
        for i, item in enumerate(couples, start=1)
    ]
    if not cleaned:
        raise ServiceError("no_couples", gettext("No couples were given."))
    return cleaned


def _couple_cleaned(item: Any, where: str) -> _NewCouple:
    """One item of ``couples_register``: ``players`` or ``player1``/``player2``, the flags,
    ``duplicate_ok`` and ``paid_way``, nothing else; ``where`` begins its refusals."""
    inputs.couple_named_once(item, where)
    players = item.get("players")
    if players is not None:
        p1, p2 = inputs.COUPLE_PLAYERS.check(players, where)
    else:
        p1, p2 = item.get("player1"), item.get("player2")
    flags = {
        flag: inputs.FLAGS[flag].check(item[flag], where) for flag in COUPLE_FLAGS if flag in item
    }
    ok = inputs.FLAGS["duplicate_ok"].check(item.get("duplicate_ok", False), where)
    inputs.refuse_unknown(item, COUPLE_FIELDS, where)
    return _NewCouple(
        _clean_players(p1, p2, where),
        flags,
        ok,
        item.get("paid_way") or None,
        _player_ids(item.get("player_ids"), where),
    )


def _player_ids(value: Any, where: str) -> tuple[int | None, int | None]:
    """``player_ids``: two ids of the club's players, or null for a name to link by itself."""
    if value is None:
        return None, None
    if (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(v is None or (isinstance(v, int) and not isinstance(v, bool)) for v in value)
    ):
        return value[0], value[1]
    raise ServiceError(
        "bad_player_ids",
        where + gettext("player_ids must be two player ids (or null for a name to look up)."),
        field="player_ids",
    )


def _last_number(drive: Drive, adding: int) -> int:
    """The highest number registered (0: none yet), the new couples numbered after it; a
    drive holds at most ``MAX_COUPLES`` (``too_many_couples``)."""
    last = (
        Couple.objects.filter(drive=drive)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
        or 0
    )
    if last + adding > MAX_COUPLES:
        raise ServiceError(
            "too_many_couples",
            gettext("A drive has at most %(MAX_COUPLES)s couples.") % {"MAX_COUPLES": MAX_COUPLES},
        )
    return last


def _joining_game(drive: Drive) -> int:
    """The first game a couple registered now plays: game 1 before the start, else the next
    one (a late arrival); none once the last game has started (``night_over``)."""
    joined = drive.current_game + 1 if drive.state == Drive.State.RUNNING else 1
    if joined > drive.games:
        raise ServiceError(
            "night_over", gettext("The last game has started: no more couples can join.")
        )
    return joined


def _refuse_duplicates(
    drive: Drive, players: Sequence[tuple[str, str]], duplicate_ok: Sequence[bool]
) -> list[str]:
    """Refuse the first couple of ``players`` that is already registered or listed earlier,
    unless its ``duplicate_ok``; the duplicates allowed, described for the audit's note."""
    registered = couples_matching(drive=drive, players=players)
    first: dict[tuple[str, str], int] = {}
    allowed = []
    for i, ((p1, p2), couple, ok) in enumerate(
        zip(players, registered, duplicate_ok, strict=True), start=1
    ):
        same_as = first.setdefault(couple_key(p1, p2), i)
        if couple is None and same_as == i:
            continue
        if couple is not None:
            text = f"{p1} & {p2} are already couple {couple.number}"
        else:
            text = f"{p1} & {p2} are listed twice (couples {same_as} and {i} of the list)"
        if ok:
            allowed.append(text)
            continue
        where = f"Couple {i}: " if len(players) > 1 else ""
        raise Conflict(
            "duplicate_couple",
            gettext(
                "%(where)s%(text)s. Register them anyway (duplicate_ok) if they are another couple."
            )
            % {"where": where, "text": text},
            couple=couple.number if couple is not None else None,
            players=[p1, p2],
            **({"item": i, "same_as": same_as if couple is None else None} if where else {}),
        )
    return allowed


def couples_import_csv(
    *, drive: Drive, data: bytes, actor: Actor = SYSTEM, allow_duplicates: bool = False
) -> list[Couple]:
    """Register the couples of a CSV file with a header ``player1,player2`` (more columns
    ``paid``, ``checked_in``, ``cookie_jar`` as yes/no are allowed): every row or none; every
    bad row is named with its line number.

    A row whose couple is already registered (a couple of the drive, not withdrawn, with the
    same two people: ``drives.names.couples_matching``) or is listed on an earlier line is a
    duplicate. Unless ``allow_duplicates``, a file with any refuses whole: 409
    ``duplicate_couples`` whose ``duplicates`` name each such row (``couples_duplicates``).
    Allowed, they are registered like the others and the audit entry's note lists them."""
    parsed = parse_couples_csv(data)
    with transaction.atomic():
        # Looked for under the drive's lock, so two imports of one file cannot both pass.
        drive = lock_drive(drive)
        require_open(drive)
        duplicates = couples_duplicates(drive=drive, parsed=parsed)
        race.pause("couples.checked")
        if duplicates and not allow_duplicates:
            listed = "; ".join(_duplicate_text(d) for d in duplicates[:20])
            more = f" (and {len(duplicates) - 20} more)" if len(duplicates) > 20 else ""
            raise Conflict(
                "duplicate_couples",
                gettext(
                    "Nothing was imported: %(count)s of the file's couples %(value)s already "
                    "registered or listed twice. %(listed)s%(more)s. Allow duplicates to "
                    "register them again."
                )
                % {
                    "count": len(duplicates),
                    "value": "is" if len(duplicates) == 1 else "are",
                    "listed": listed,
                    "more": more,
                },
                duplicates=duplicates,
            )
        note = ""
        if duplicates:
            note = "duplicates allowed: " + "; ".join(_duplicate_text(d) for d in duplicates)
        return couples_register(
            drive=drive,
            couples=[item for _, item in parsed],
            actor=actor,
            note=note,
        )


def couples_duplicates(
    *, drive: Drive, parsed: Sequence[tuple[int, dict[str, Any]]]
) -> list[dict[str, Any]]:
    """The rows of a parsed couples file (``parse_couples_csv``) that are duplicates, in file
    order: ``{"line", "players", "couple", "same_as_line"}`` with ``couple`` the number of the
    registered couple it matches and ``same_as_line`` the first line listing the same couple
    (either may be null, never both)."""
    players = [(item["player1"], item["player2"]) for _, item in parsed]
    registered = couples_matching(drive=drive, players=players)
    first_line: dict[tuple[str, str], int] = {}
    duplicates = []
    for (line, _), (p1, p2), couple in zip(parsed, players, registered, strict=True):
        first = first_line.setdefault(couple_key(p1, p2), line)
        if couple is not None or first != line:
            duplicates.append(
                {
                    "line": line,
                    "players": [p1, p2],
                    "couple": couple.number if couple is not None else None,
                    "same_as_line": first if first != line else None,
                }
            )
    return duplicates


def _duplicate_text(duplicate: dict[str, Any]) -> str:
    who = " & ".join(duplicate["players"])
    if duplicate["couple"] is not None:
        return gettext("line %(line)s: %(who)s is already couple %(couple)s") % {
            "line": duplicate["line"],
            "who": who,
            "couple": duplicate["couple"],
        }
    return gettext("line %(line)s: %(who)s is the same couple as line %(first)s") % {
        "line": duplicate["line"],
        "who": who,
        "first": duplicate["same_as_line"],
    }


_TRUE = {"yes", "y", "true", "1", "x", "oui"}
_FALSE = {"no", "n", "false", "0", "", "non"}


# The separators a couples file may use: a comma, the semicolon of Excel set to French (or any
# language whose decimal mark is a comma), or a tab.
SEPARATORS = {
    ",": gettext_lazy("commas"),
    ";": gettext_lazy("semicolons"),
    "\t": gettext_lazy("tabs"),
}
# Control characters no text file has: a file that decodes as Windows-1252 only with these
# is no spreadsheet's CSV (a picture, a UTF-16 file) and keeps the "not UTF-8" answer.
_BINARY = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


@dataclass(frozen=True)
class CsvRead:
    """A couples file's text, how it was decoded (``UTF-8`` or ``Windows-1252``) and the
    separator of its columns (found in its first line)."""

    text: str
    encoding: str
    separator: str

    @property
    def note(self) -> str:
        """What a volunteer should know of how the file was read."""
        note = gettext("Columns separated by %(separator)s.") % {
            "separator": SEPARATORS[self.separator]
        }
        if self.encoding != "UTF-8":
            note += " " + gettext(
                "The file is not UTF-8: it was read as %(encoding)s (what Excel's plain “CSV” "
                "writes); check the accents of the names."
            ) % {"encoding": self.encoding}
        return note


def couples_csv_read(data: bytes) -> CsvRead:
    """Decode a couples file: UTF-8 (with or without a byte order mark), else Windows-1252,
    which Excel's plain "CSV" writes on a Western European Windows; the separator is a comma,
    a semicolon or a tab, whichever the header line uses (``csv.Sniffer``). A file that is
    neither (a picture, UTF-16) is refused: 422 ``not_utf8`` naming its first bad line."""
    try:
        text, encoding = data.decode("utf-8-sig"), "UTF-8"
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        try:
            text, encoding = data.decode("cp1252"), "Windows-1252"
        except UnicodeDecodeError:
            text = ""
        if not text or _BINARY.search(text):
            raise ServiceError(
                "not_utf8",
                gettext(
                    "Line %(line)s: the file is not UTF-8 text, nor Windows-1252 (save it as "
                    "CSV UTF-8)."
                )
                % {"line": line},
                errors=[{"line": line, "message": "not UTF-8"}],
            ) from None
    first = text.split("\n", 1)[0]
    try:
        separator = csv.Sniffer().sniff(first, delimiters="".join(SEPARATORS)).delimiter
    except csv.Error:
        separator = ","
    return CsvRead(text=text, encoding=encoding, separator=separator)


def parse_couples_csv(data: bytes) -> list[tuple[int, dict[str, Any]]]:
    """The couples of a CSV file as ``(line, couple)``, each couple a ``couples_register``
    item; every bad line refused at once (422 ``bad_rows`` with ``errors``). A couple listed
    twice is no bad line: ``couples_import_csv`` decides about duplicates. The file is read
    by ``couples_csv_read`` (UTF-8 or Windows-1252; commas, semicolons or tabs)."""
    limit = csv_max_bytes()
    if len(data) > limit:
        raise ServiceError(
            "file_too_large",
            gettext("The file is larger than %(limit)s bytes.") % {"limit": f"{limit:,}"},
        )
    read = couples_csv_read(data)
    reader = csv.reader(io.StringIO(read.text, newline=""), delimiter=read.separator)
    try:
        header = [h.strip().lower() for h in next(reader)]
    except StopIteration:
        raise ServiceError("empty_file", gettext("The file is empty.")) from None
    except csv.Error as error:
        raise ServiceError("bad_csv", gettext("Line 1: %(error)s.") % {"error": error}) from None
    if header[:2] != ["player1", "player2"]:
        raise ServiceError(
            "bad_header",
            gettext("Line 1: the header must start with player1,player2 (or player1;player2)."),
            errors=[{"line": 1, "message": "header must start with player1,player2"}],
        )
    flags = header[2:]
    bad_flags = [f for f in flags if f not in ("paid", "checked_in", "cookie_jar")]
    if bad_flags or len(set(flags)) != len(flags):
        raise ServiceError(
            "bad_header",
            gettext("Line 1: unknown or repeated column %(value)s.")
            % {"value": bad_flags[:1] or flags},
        )
    rows: list[tuple[int, dict[str, Any]]] = []
    errors: list[dict[str, Any]] = []
    try:
        for record in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in record):
                continue
            if len(record) != len(header):
                errors.append(
                    {"line": line, "message": f"{len(record)} columns, expected {len(header)}"}
                )
                continue
            try:
                p1, p2 = _clean_players(record[0], record[1])
            except ServiceError as error:
                errors.append({"line": line, "message": error.message})
                continue
            item: dict[str, Any] = {"player1": p1, "player2": p2}
            for flag, cell in zip(flags, record[2:], strict=True):
                value = cell.strip().lower()
                if value not in _TRUE | _FALSE:
                    errors.append(
                        {"line": line, "message": f"{flag} must be yes or no, not {cell!r}"}
                    )
                    break
                item[flag] = value in _TRUE
            else:
                rows.append((line, item))
            if len(rows) + len(errors) > MAX_COUPLES:
                raise ServiceError(
                    "too_many_couples",
                    gettext("A drive has at most %(MAX_COUPLES)s couples.")
                    % {"MAX_COUPLES": MAX_COUPLES},
                )
    except csv.Error as error:
        errors.append({"line": reader.line_num, "message": str(error)})
    if errors:
        listed = "; ".join(f"line {e['line']}: {e['message']}" for e in errors[:20])
        more = f" (and {len(errors) - 20} more)" if len(errors) > 20 else ""
        raise ServiceError(
            "bad_rows",
            gettext("Nothing was imported. %(listed)s%(more)s.") % {"listed": listed, "more": more},
            errors=errors,
        )
    if not rows:
        raise ServiceError("no_couples", gettext("The file has a header but no couples."))
    return rows


COUPLE_FLAGS = inputs.COUPLE_FLAGS
# What a couple is registered with (``couples_register``); ``couple_update`` takes the same but
# ``duplicate_ok``, and ``withdrawn``.
COUPLE_FIELDS = (
    "players",
    "player1",
    "player2",
    "player_ids",
    "duplicate_ok",
    "paid_way",
    *COUPLE_FLAGS,
)


def couple_update(*, couple: Couple, actor: Actor, **changes: Any) -> Couple:
    """Change a couple's names or flags (``paid``, ``checked_in``, ``cookie_jar``), or withdraw
    it (``withdrawn=True``: from the next game). A withdrawal cannot be undone once applied.
    ``paid_way`` (with ``paid``) says how the couple paid, for the hook ``couple_paid``. New
    names are linked to the club's players (``players_link``), the player kept when only the
    spelling changed; ``player_ids`` chooses them."""
    inputs.refuse_unknown(changes, {*COUPLE_FIELDS, "withdrawn"} - {"duplicate_ok"})
    with transaction.atomic():
        drive = lock_drive(couple.drive)
        require_open(drive)
        couple = Couple.objects.select_for_update().get(pk=couple.pk)
        old: dict[str, Any] = {}
        new: dict[str, Any] = {}
        if "players" in changes:
            inputs.couple_named_once(changes)
            changes["player1"], changes["player2"] = inputs.COUPLE_PLAYERS.check(
                changes.pop("players")
            )
        if "player1" in changes or "player2" in changes:
            p1, p2 = _clean_players(
                changes.pop("player1", couple.player1), changes.pop("player2", couple.player2)
            )
            old["players"], new["players"] = couple.players, [p1, p2]
            couple.player1, couple.player2 = p1, p2
        if new.get("players") or "player_ids" in changes:
            # The names stay the same players when only their spelling changed.
            ids = list(_player_ids(changes.pop("player_ids", None), ""))
            for i, (name, member) in enumerate(
                [(couple.player1, couple.member1), (couple.player2, couple.member2)]
            ):
                if ids[i] is None and member is not None and member.key == name_key(name)[:160]:
                    ids[i] = member.pk
            couple.member1, couple.member2 = players_link(
                club=drive.club,
                names=couple.players,
                ids=ids,
                ask=False,
                drive=drive,
                couple=couple,
            )
        for flag in COUPLE_FLAGS:
            if flag in changes:
                value = inputs.FLAGS[flag].check(changes[flag])
                old[flag], new[flag] = getattr(couple, flag), value
                setattr(couple, flag, value)
        if "withdrawn" in changes:
            value = inputs.FLAGS["withdrawn"].check(changes["withdrawn"])
            _withdraw(drive, couple, value, old, new)
        couple.save()
        audit(drive, actor, "couple.update", subject=f"couple {couple.number}", old=old, new=new)
        if "paid" in new and new["paid"] != old["paid"]:  # drives/signals.py
            way = changes.get("paid_way")
            couple_paid.send(
                Couple, drive=drive, couple=couple, paid=new["paid"], actor=actor, way=way
            )
    return couple


def couple_delete(*, couple: Couple, actor: Actor) -> None:
    """Delete a couple registered by mistake, before the night starts (409 ``started``
    after: a couple who was seated is withdrawn instead, so the night's record stays whole).
    The audit entry names the couple and its players.

    The other couples keep their numbers: they may already be written on the punch cards.
    The next couple registered takes the number after the highest one left
    (``couples_register``), not the lowest free one: the cards go out in order from the door's
    stack, so a hole in the middle stays a hole rather than a later couple jumping back among
    the early numbers; deleting the last couple (the usual mistake: the same couple entered
    twice) frees its number for the next one, so no hole is left at the end.

    A couple who paid is deleted all the same: ``couple_deleted`` lets the night's money
    write the entry fee's refund in this transaction."""
    with transaction.atomic():
        drive = lock_drive(couple.drive)
        require_open(drive)
        if drive.state != Drive.State.SETUP:
            raise Conflict(
                "started",
                gettext(
                    "The night has started: couple %(number)s cannot be deleted any more. "
                    "Withdraw them instead."
                )
                % {"number": couple.number},
                couple=couple.number,
            )
        found = Couple.objects.select_for_update().filter(pk=couple.pk).first()
        if found is None:  # deleted meanwhile, from another desk
            raise NotFound(
                "no_such_couple",
                gettext("There is no couple %(number)s.") % {"number": couple.number},
            )
        old = {"number": found.number, "players": found.players}
        couple_deleted.send(Couple, drive=drive, couple=found, actor=actor)  # drives/signals.py
        found.delete()
        audit(drive, actor, "couple.delete", subject=f"couple {old['number']}", old=old)


def _withdraw(
    drive: Drive, couple: Couple, value: bool, old: dict[str, Any], new: dict[str, Any]
) -> None:
    next_game = drive.current_game + 1 if drive.state == Drive.State.RUNNING else 1
    if value:
        if couple.withdrawn_game is not None:
            return
        if next_game > drive.games:
            raise ServiceError(
                "night_over", gettext("The last game has started: nobody can withdraw now.")
            )
        old["withdrawn_game"], new["withdrawn_game"] = None, next_game
        couple.withdrawn_game = next_game
        return
    if couple.withdrawn_game is None:
        return
    if couple.withdrawn_game < next_game:
        raise Conflict(
            "withdrawal_applied",
            gettext(
                "Couple %(number)s left before game %(withdrawn_game)s; register them again "
                "as a late arrival."
            )
            % {"number": couple.number, "withdrawn_game": couple.withdrawn_game},
        )
    old["withdrawn_game"], new["withdrawn_game"] = couple.withdrawn_game, None
    couple.withdrawn_game = None


def holes_record(*, drive: Drive, holes: dict[int, int], actor: Actor) -> None:
    """Record the holes counted on punch cards at the end (couple number → holes)."""
    with transaction.atomic():
        drive = lock_drive(drive)
        require_open(drive)
        couples = {c.number: c for c in Couple.objects.filter(drive=drive, number__in=list(holes))}
        for number, count in holes.items():
            if number not in couples:
                raise ServiceError(
                    "unknown_couple", gettext("There is no couple %(number)s.") % {"number": number}
                )
            if (
                not isinstance(count, int)
                or isinstance(count, bool)
                or not 0 <= count <= drive.games
            ):
                raise ServiceError(
                    "bad_holes",
                    gettext("Couple %(number)s: holes must be 0 to %(games)s.")
                    % {"number": number, "games": drive.games},
                )
        for number, count in holes.items():
            couples[number].holes = count
        Couple.objects.bulk_update(list(couples.values()), ["holes"])
        audit(drive, actor, "holes.record", new={str(k): v for k, v in holes.items()})


# --- the night ---------------------------------------------------------------------------------


def drive_start(
    *,
    drive: Drive,
    actor: Actor,
    seating: str | None = None,
    seed: Any = None,
    absent: str = "seat",
) -> Game:
    """Seat game 1: by number, or shuffled from ``seed`` (drawn and recorded if not given).

    ``absent`` says what happens to the couples not checked in: ``"seat"`` them anyway (the
    default), or ``"withdraw"`` them before game 1 (they keep their numbers, are not seated,
    and take no place; the audit entry lists them)."""
    if seating is not None:
        inputs.FIRST_SEATING.check(seating, field="seating")
    absent = inputs.ABSENT.check(absent)
    if seed is not None:
        seed = _clean_setting("seed", seed)
    with transaction.atomic():
        drive = lock_drive(drive)
        require_open(drive)
        if drive.state != Drive.State.SETUP:
            raise Conflict("already_started", gettext("The night has already started."))
        method = seating or drive.first_seating
        if method == Drive.FirstSeating.SHUFFLE:
            seed = (
                seed
                if seed is not None
                else (drive.seed if drive.seed is not None else secrets.randbits(48))
            )
        left_out: list[int] = []
        if absent == "withdraw":
            away = Couple.objects.filter(drive=drive, withdrawn_game__isnull=True, checked_in=False)
            left_out = list(away.order_by("number").values_list("number", flat=True))
        numbers = list(
            Couple.objects.filter(drive=drive, withdrawn_game__isnull=True)
            .exclude(number__in=left_out)
            .values_list("number", flat=True)
        )
        if len(numbers) < 2:
            raise ServiceError(
                "too_few_couples", gettext("At least two couples are needed to start.")
            )
        first = first_seating(
            numbers, shuffle_seed=seed if method == Drive.FirstSeating.SHUFFLE else None
        )
        drive.first_seating = method
        drive.seed = seed if method == Drive.FirstSeating.SHUFFLE else drive.seed
        drive.state = Drive.State.RUNNING
        if left_out:
            Couple.objects.filter(drive=drive, number__in=left_out).update(withdrawn_game=1)
        Couple.objects.filter(drive=drive, withdrawn_game__isnull=True).update(joined_game=1)
        game = game_open(drive=drive, number=1, seating=first)
        audit(
            drive,
            actor,
            "drive.start",
            subject="game 1",
            new={"seating": method, "seed": drive.seed, "couples": len(numbers)}
            | ({"withdrawn_not_checked_in": left_out} if left_out else {}),
            note=f"not checked in, left out: {', '.join(map(str, left_out))}" if left_out else "",
        )
    return game


def tables_prepare(*, drive: Drive, actor: Actor) -> int:
    """Before the night starts, the tables its first game will play at (one for every two
    couples registered and not withdrawn; a lone couple sits out at no table), so that their
    cards and score sheets, with the QR codes of their tokens, can be printed before people
    arrive. Game 1 seats at these same tables (``game_open`` keeps the tables it finds).
    Returns how many there are; audited (``tables.prepare``) when any is added. Once the
    night has started the movement opens the tables and this changes nothing. Fewer than two
    couples: 409 ``no_tables`` saying why the cards must wait."""
    with transaction.atomic():
        drive = lock_drive(drive)
        require_open(drive)
        if drive.state != Drive.State.SETUP:
            return Table.objects.filter(drive=drive, closed_game__isnull=True).count()
        couples = Couple.objects.filter(drive=drive, withdrawn_game__isnull=True).count()
        needed = couples // 2
        if needed == 0:
            raise Conflict(
                "no_tables",
                gettext(
                    "No couples yet: the table cards and score sheets wait until at least "
                    "two couples are registered (one table for every two couples)."
                ),
                couples=couples,
            )
        have = set(Table.objects.filter(drive=drive).values_list("number", flat=True))
        missing = [n for n in range(1, needed + 1) if n not in have]
        if missing:
            Table.objects.bulk_create([Table(drive=drive, number=n) for n in missing])
            audit(
                drive,
                actor,
                "tables.prepare",
                subject=f"tables {missing[0]}–{missing[-1]}",
                new={"tables": needed, "couples": couples},
            )
        return needed


def game_open(*, drive: Drive, number: int, seating: Seating) -> Game:
    """Store a game's seating (inside the caller's transaction, drive locked): new tables are
    created, closed ones marked, the drive's current game moves on. Three writes and two reads
    whatever the number of tables."""
    tables = {t.number: t for t in Table.objects.filter(drive=drive)}
    new_tables = [
        Table(drive=drive, number=t.table) for t in seating.tables if t.table not in tables
    ]
    if new_tables:
        for table in Table.objects.bulk_create(new_tables):
            tables[table.number] = table
        tables = {t.number: t for t in Table.objects.filter(drive=drive)}
    newly_closed = [n for n in seating.closed if tables[n].closed_game is None]
    if newly_closed:
        Table.objects.filter(drive=drive, number__in=newly_closed).update(closed_game=number)
    couples = dict(Couple.objects.filter(drive=drive).values_list("number", "id"))
    game = Game.objects.create(drive=drive, number=number)
    Seat.objects.bulk_create(
        [
            Seat(
                game=game,
                table=tables[t.table],
                stays_id=couples[t.stays] if t.stays is not None else None,
                arrives_id=couples[t.arrives] if t.arrives is not None else None,
            )
            for t in seating.tables
        ]
    )
    drive.current_game = number
    drive.save(update_fields=["current_game", "state", "first_seating", "seed"])
    return game


def drive_close(*, drive: Drive, actor: Actor) -> Drive:
    """Close the night: read-only from now on, every table and couple token dead."""
    with transaction.atomic():
        drive = lock_drive(drive)
        require_open(drive)
        old = drive.state
        drive.state = Drive.State.CLOSED
        drive.closed_at = timezone.now()
        Game.objects.filter(drive=drive, finished_at__isnull=True).update(
            finished_at=drive.closed_at
        )
        drive.save(update_fields=["state", "closed_at"])
        audit(drive, actor, "drive.close", old=old, new=drive.state)
        backup_after_commit(f"{drive.slug}-closed")  # the hall server's copy of the night
        drive_closed.send(Drive, drive=drive, actor=actor)  # published to the club's site
    return drive
