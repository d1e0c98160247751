"""Registration before the night: couples (or single players looking for a partner) register
on the drive's public page or through the API, without an account, between the drive's
``registration_opens`` and ``registration_closes`` (the start of the night when none). The first
``capacity`` couples are registered, the next ones wait-listed in order; a cancel (the link given
at registration, an unguessable token) moves the first of the wait list up by itself.

At the door a registration is checked in with one tap: it becomes a couple of the night through
``drives.services.couples_register``, exactly as a walk-in (linked to the club's players, audited);
two singles are paired into one couple the same way, once the organizer confirms. A
registration not checked in is no couple, and so is never seated.

Each write is one transaction under the drive's lock (``drives.guards.lock_drive``), audited; the
reads (``registrations_of``) take one query whatever the number of registrations.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from drives import inputs
from drives.errors import Conflict, NotFound, ServiceError
from drives.guards import lock_drive, require_open
from drives.models import AuditEntry, Couple, Drive, Registration
from drives.names import couple_key, couples_matching, name_key
from drives.services import (
    SYSTEM,
    Actor,
    audit,
    couples_register,
    couples_registered_before,
    players_link,
    waitlist_move_up,
)

#: The audit's "who" of a registration made without an account (the public page, the API).
PUBLIC = Actor(channel=AuditEntry.Channel.SYSTEM)

Status = Registration.Status


class RegistrationState:
    """Where a drive's registration stands (``registration_state``)."""

    NONE = "none"  # the drive takes no registration (no opening time)
    NOT_YET = "not_yet"
    OPEN = "open"
    CLOSED = "closed"


def registration_state(drive: Drive, now: datetime | None = None) -> str:
    """``RegistrationState``: none without an opening time; closed once the night started or
    after the closing time; not yet before the opening."""
    now = now or timezone.now()
    if drive.registration_opens is None:
        return RegistrationState.NONE
    if drive.state != Drive.State.SETUP:
        return RegistrationState.CLOSED
    if drive.registration_closes is not None and now >= drive.registration_closes:
        return RegistrationState.CLOSED
    if now < drive.registration_opens:
        return RegistrationState.NOT_YET
    return RegistrationState.OPEN


def require_registration_open(drive: Drive) -> None:
    """409 ``registration_not_open`` (none, or not yet: the opening time named) or
    ``registration_closed``."""
    state = registration_state(drive)
    if state == RegistrationState.OPEN:
        return
    if state == RegistrationState.NONE:
        raise Conflict(
            "registration_not_open", gettext("This drive takes no registration before the night.")
        )
    if state == RegistrationState.NOT_YET:
        opens = timezone.localtime(drive.registration_opens)
        raise Conflict(
            "registration_not_open",
            gettext("The registration opens on %(when)s.")
            % {"when": opens.strftime("%Y-%m-%d %H:%M")},
            opens=opens.isoformat(),
        )
    raise Conflict("registration_closed", gettext("The registration for this drive is closed."))


def key_of(players: Sequence[str]) -> str:
    """The registration's key: the couple's two name keys in order, or the single's."""
    if len(players) == 1:
        return name_key(players[0])
    return "\n".join(couple_key(players[0], players[1]))


@dataclass(frozen=True)
class Listed:
    """A registration with its place: the n-th couple registered, the n-th on the wait list
    or the n-th single (None once cancelled)."""

    registration: Registration
    position: int | None


def _places(rows: Sequence[Registration]) -> dict[int, int]:
    """Each active registration's place among those of its kind (in order of arrival)."""
    counts: dict[tuple[str, bool], int] = {}
    places: dict[int, int] = {}
    for row in rows:
        if row.status == Status.CANCELLED:
            continue
        kind = (row.status, row.single)
        counts[kind] = counts.get(kind, 0) + 1
        places[row.pk] = counts[kind]
    return places


def registrations_of(drive: Drive) -> list[Listed]:
    """The drive's registrations in order of arrival with their places (one query)."""
    rows = list(
        Registration.objects.filter(drive=drive)
        .select_related("couple")
        .order_by("created_at", "id")
    )
    places = _places(rows)
    return [Listed(row, places.get(row.pk)) for row in rows]


def position_of(registration: Registration) -> int:
    """The registration's place (see :class:`Listed`); 0 once cancelled."""
    rows = Registration.objects.filter(drive_id=registration.drive_id).order_by("created_at", "id")
    return _places(list(rows)).get(registration.pk, 0)


def _couples_registered(drive: Drive) -> int:
    return (
        Registration.objects.filter(drive=drive, status=Status.REGISTERED)
        .exclude(player2="")
        .count()
    )


def _refuse_duplicate(drive: Drive, players: list[str], key: str) -> None:
    """409 ``duplicate_registration``: the same people (either order, case, accents and spaces
    ignored) already registered or wait-listed, or already a couple of the night."""
    same = (
        Registration.objects.filter(drive=drive, key=key)
        .exclude(status=Status.CANCELLED)
        .order_by("created_at", "id")
        .first()
    )
    names = " & ".join(players)
    if same is not None:
        raise Conflict(
            "duplicate_registration",
            gettext(
                "%(names)s are already registered for this drive. Register them again "
                "(duplicate_ok) only if they are other people of the same names."
            )
            % {"names": names},
            players=players,
            registered_as=same.status,
        )
    if len(players) == 2 and couples_matching(drive=drive, players=[(players[0], players[1])])[0]:
        raise Conflict(
            "duplicate_registration",
            gettext(
                "%(names)s are already a couple of this drive. Register them again "
                "(duplicate_ok) only if they are other people of the same names."
            )
            % {"names": names},
            players=players,
            registered_as="couple",
        )


def registration_create(
    *,
    drive: Drive,
    players: Any,
    contact: Any = "",
    duplicate_ok: bool = False,
    player_ids: Sequence[int | None] = (),
    actor: Actor = PUBLIC,
) -> tuple[Registration, int]:
    """Register one couple (two names) or one player looking for a partner (one name), with an
    optional contact; the registration and its place. The names by the rules of a player's name
    (``drives.inputs.PLAYER``: 422 ``missing_player``, ``name_too_long``), the contact by its
    rule; 409 when the registration is not open or closed, or for the same people registered
    again (``duplicate_registration``) unless ``duplicate_ok``. A couple past the drive's
    ``capacity`` is wait-listed (the answer says so: its place on the wait list); a single
    is listed for the organizer to pair, never wait-listed. Each name is linked to the club's
    players (``players_link``: the id chosen in the type-ahead, else the name's player, else a
    new one). All or nothing."""
    names = inputs.registration_players_of(players)
    contact = inputs.REGISTRATION_CONTACT.check(contact or "")
    ids = list(player_ids)[: len(names)] or [None] * len(names)
    ids += [None] * (len(names) - len(ids))
    key = key_of(names)
    with transaction.atomic():
        drive = lock_drive(drive)
        require_registration_open(drive)
        if not duplicate_ok:
            _refuse_duplicate(drive, names, key)
        members = players_link(club=drive.club, names=names, ids=ids, ask=False)
        status = Status.REGISTERED
        full = drive.capacity is not None and couples_registered_before(drive) >= drive.capacity
        if len(names) == 2 and full:
            status = Status.WAITLISTED
        registration = Registration.objects.create(
            drive=drive,
            player1=names[0],
            player2=names[1] if len(names) == 2 else "",
            member1=members[0],
            member2=members[1] if len(members) == 2 else None,
            contact=contact,
            key=key,
            status=status,
        )
        audit(
            drive,
            actor,
            "registration.create",
            subject=str(registration.pk),
            new={"players": names, "status": status},
            note="; ".join(filter(None, ["duplicate allowed" if duplicate_ok else ""])),
        )
        position = position_of(registration)
    return registration, position


def registration_by_token(token: str) -> Registration:
    """The registration of a cancel link: 404 ``not_found`` for a token that is nobody's."""
    found = (
        Registration.objects.select_related("drive", "drive__club").filter(token=token).first()
        if token and len(token) <= 32
        else None
    )
    if found is None:
        raise NotFound("not_found", gettext("No such registration: check the link."))
    return found


def registration_cancel(*, registration: Registration, actor: Actor = PUBLIC) -> list[Registration]:
    """Cancel a registration (its cancel link); the couples moved up from the wait list. 409
    ``already_cancelled`` for a link used again, ``already_checked_in`` once at the door,
    ``drive_closed`` after the close; nothing changes then."""
    with transaction.atomic():
        drive = lock_drive(registration.drive)
        require_open(drive)
        registration = Registration.objects.select_for_update().get(pk=registration.pk)
        if registration.status == Status.CANCELLED:
            raise Conflict("already_cancelled", gettext("This registration was already cancelled."))
        if registration.couple_id is not None:
            raise Conflict(
                "already_checked_in",
                gettext("This registration is checked in: see the organizer at the door."),
            )
        was = registration.status
        registration.status = Status.CANCELLED
        registration.cancelled_at = timezone.now()
        registration.save(update_fields=["status", "cancelled_at"])
        moved = waitlist_move_up(drive)
        audit(
            drive,
            actor,
            "registration.cancel",
            subject=str(registration.pk),
            old={"players": registration.players, "status": was},
            new={"moved_up": [r.pk for r in moved]},
        )
    return moved


def _door_registration(drive: Drive, pk: int) -> Registration:
    found = (
        Registration.objects.select_for_update()
        .filter(drive=drive, pk=pk)
        .exclude(status=Status.CANCELLED)
        .first()
    )
    if found is None:
        raise NotFound("not_found", gettext("No such registration for this drive."))
    if found.couple_id is not None:
        raise Conflict(
            "already_checked_in",
            gettext("%(names)s are already checked in.") % {"names": " & ".join(found.players)},
        )
    return found


def registration_check_in(*, drive: Drive, pk: int, actor: Actor = SYSTEM) -> Couple:
    """Check a registered (or wait-listed) couple in at the door: it becomes a couple of the
    night, checked in, linked to its two players, exactly as a walk-in registered at the door
    (a late arrival once the night runs). A single is paired instead (``registrations_pair``:
    422 ``single_registration``)."""
    with transaction.atomic():
        drive = lock_drive(drive)
        require_open(drive)
        registration = _door_registration(drive, pk)
        if registration.single:
            raise ServiceError(
                "single_registration",
                gettext("%(name)s is looking for a partner: pair them with another player first.")
                % {"name": registration.player1},
            )
        (couple,) = couples_register(
            drive=drive,
            couples=[
                {
                    "players": registration.players,
                    "player_ids": [registration.member1_id, registration.member2_id],
                    "checked_in": True,
                }
            ],
            actor=actor,
            note=f"registered before the night (registration {registration.pk})",
        )
        registration.couple = couple
        registration.save(update_fields=["couple"])
    return couple


def registrations_pair(*, drive: Drive, first: int, second: int, actor: Actor = SYSTEM) -> Couple:
    """Pair two players who registered looking for a partner into one couple of the night,
    checked in (the organizer confirmed). 422 ``not_single`` unless both are singles not yet
    checked in, and two of them."""
    with transaction.atomic():
        drive = lock_drive(drive)
        require_open(drive)
        one = _door_registration(drive, first)
        two = _door_registration(drive, second)
        if one.pk == two.pk or not one.single or not two.single:
            raise ServiceError(
                "not_single", gettext("Choose two players who are looking for a partner.")
            )
        (couple,) = couples_register(
            drive=drive,
            couples=[
                {
                    "players": [one.player1, two.player1],
                    "player_ids": [one.member1_id, two.member1_id],
                    "checked_in": True,
                }
            ],
            actor=actor,
            note=f"paired at the door (registrations {one.pk} and {two.pk})",
        )
        for row in (one, two):
            row.couple = couple
            row.save(update_fields=["couple"])
    return couple


def door_registrations(drive: Drive) -> dict[str, Any]:
    """The door's lists: the couples registered (and wait-listed) to check in, the singles to
    pair (one query)."""
    waiting = [
        r
        for r in registrations_of(drive)
        if r.registration.status != Status.CANCELLED and r.registration.couple_id is None
    ]
    return {
        "to_check_in": [r for r in waiting if not r.registration.single],
        "singles": [r for r in waiting if r.registration.single],
    }


def registration_answer(registration: Registration, position: int) -> dict[str, Any]:
    """What a registration is told: its status, its place and its cancel link's path."""
    return {
        "status": registration.status,
        "position": position,
        "cancel_url": reverse("drive-register-cancel", kwargs={"token": registration.token}),
    }


def registrations_receive(*, drive: Drive, rows: Sequence[Any], actor: Actor = SYSTEM) -> int:
    """The registrations of the club's site brought to the hall's laptop (``drive fetch``): each
    one the laptop lacks is added as the site took it (names, contact, status, time; the site
    keeps its cancel link), and one cancelled on the site since is cancelled here unless it was
    checked in. A registration is the same one by its names' key and its time. Nothing else of
    the drive changes. All or nothing; the number of registrations added or changed."""
    changed = 0
    with transaction.atomic():
        drive = lock_drive(drive)
        require_open(drive)
        known = {(r.key, r.created_at): r for r in Registration.objects.filter(drive=drive)}
        for row in rows:
            names = inputs.registration_players_of(row.get("players"))
            at = datetime.fromisoformat(str(row.get("created_at")))
            status = row.get("status")
            if status not in Status.values:
                raise ServiceError(
                    "bad_registration", gettext("A registration's status is unknown.")
                )
            here = known.get((key_of(names), at))
            if here is None:
                members = players_link(
                    club=drive.club, names=names, ids=[None] * len(names), ask=False
                )
                cancelled = row.get("cancelled_at")
                known[(key_of(names), at)] = Registration.objects.create(
                    drive=drive,
                    player1=names[0],
                    player2=names[1] if len(names) == 2 else "",
                    member1=members[0],
                    member2=members[1] if len(members) == 2 else None,
                    contact=inputs.REGISTRATION_CONTACT.check(row.get("contact") or ""),
                    key=key_of(names),
                    status=status,
                    created_at=at,
                    cancelled_at=datetime.fromisoformat(cancelled) if cancelled else None,
                )
                changed += 1
            elif status != here.status and here.couple_id is None:
                here.status = status
                if status == Status.CANCELLED:
                    here.cancelled_at = timezone.now()
                here.save(update_fields=["status", "cancelled_at"])
                changed += 1
        if changed:
            audit(
                drive,
                actor,
                "registration.fetch",
                subject=drive.slug,
                new={"changed": changed},
                note="from the club's site",
            )
    return changed
