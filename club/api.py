"""The club's players in the JSON API (docs/api.md, "Players"): a router that
``config.urls`` mounts on the site's API, as it mounts the seasons'. The door's type-ahead reads
it: the players whose name has a word starting with what was typed, with their nights, never
their phone or e-mail. And registration before the night (``drives.registrations``): anyone
registers a couple, or a player looking for a partner, while a drive's registration is open;
the club's organizers list them.
"""

from __future__ import annotations

import zlib
from datetime import datetime
from typing import Annotated, Any, Literal

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext
from ninja import Router
from ninja.params.functions import Query
from pydantic import BaseModel, ConfigDict, Field

from api.auth import (
    AUTH,
    MEMBERS,
    ORGANIZER,
    Caller,
    RateLimited,
    caller_of,
    club_for,
    drive_for,
)
from api.errors import BadRequest, too_large
from api.schemas import Error, answers
from club import selectors
from drives import inputs, ratelimit, registrations
from drives.errors import Forbidden, NotFound
from drives.inputs import Body
from drives.models import AuditEntry, Club, Drive
from drives.services import Actor
from scoring.records.publish import night_receive
from scoring.records.restore import load_export

router = Router(auth=AUTH, tags=["players"])


class ClubPlayerOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: int
    name: str
    nights: int
    last_night: str | None


def row_answer(row: selectors.PlayerRow) -> dict[str, object]:
    """A player as the door sees it: no phone, no e-mail."""
    last = row.last_night.isoformat() if row.last_night else None
    return {"id": row.player.pk, "name": row.player.name, "nights": row.nights, "last_night": last}


@router.get(
    "/clubs/{club}/players",
    response=answers({200: list[ClubPlayerOut]}, 404),
    url_name="club-players",
    operation_id="club_players",
    summary="The club's players whose name starts a word with q (the door's type-ahead)",
    description="Organizer or scorer of the club. Up to 10 players, by name; case, accents "
    "and spaces ignored (q=ther finds Thérèse MacNeil). Nothing typed: none.",
)
def club_players(
    request: HttpRequest,
    club: str,
    q: str = Query("", description="What was typed (its first 80 characters count)."),
) -> JsonResponse:
    found = club_for(caller_of(request), club, roles=MEMBERS)
    rows = selectors.players_suggest(found, q)
    return JsonResponse(
        [row_answer(r) for r in rows], safe=False, json_dumps_params={"ensure_ascii": False}
    )


class NightPublishedOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    status: Literal["created", "replaced", "unchanged"]
    slug: str
    digest: str


MAX_NIGHT_BYTES = 200_000_000  # a night's export, unpacked (scoring.records.restore's cap)


def night_body(request: HttpRequest) -> dict[str, object]:
    """The published night: the export as JSON, gzipped or not (a 250-table night is about
    2 MB; gzipped a tenth of that), unpacked to at most MAX_NIGHT_BYTES."""
    try:
        raw = request.body  # Django's own cap: DATA_UPLOAD_MAX_MEMORY_SIZE
    except RequestDataTooBig:
        raise too_large() from None
    if request.headers.get("Content-Encoding", "").lower() == "gzip":
        unpack = zlib.decompressobj(wbits=31)
        try:
            raw = unpack.decompress(raw, MAX_NIGHT_BYTES + 1)
        except zlib.error:
            raise BadRequest("bad_gzip", gettext("The body is not gzip.")) from None
        if len(raw) > MAX_NIGHT_BYTES or unpack.unconsumed_tail:
            raise too_large()
    return load_export(raw)


@router.post(
    "/clubs/{club}/nights",
    response=answers({200: NightPublishedOut, 201: NightPublishedOut}, 400, 403, 404, 409, 413),
    url_name="club-nights",
    operation_id="club_night_publish",
    summary="Publish a night from the hall's laptop to the club's site",
    description="An organizer of the club (another club's token: 403 another_club). The body is "
    "the night's export (GET /drives/{slug}/export on the laptop; Content-Encoding: gzip "
    "accepted), written in one transaction: 201 created; a corrected night replaces the one "
    "published before (200 replaced, audited); the same night again changes nothing (200 "
    "unchanged). An export of another version of the format: 422 other_version; a slug the "
    "site has for another club's drive: 409 drive_exists; a bad export: 422 bad_export naming "
    "its place. manage.py drive publish sends it.",
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/DriveExport"}}
            },
        }
    },
)
def club_night_publish(request: HttpRequest, club: str) -> JsonResponse:
    caller = caller_of(request)
    found = club_of_organizer(caller, club)
    received = night_receive(club=found, data=night_body(request), actor=caller.actor)
    answer = {"status": received.status, "slug": received.drive.slug, "digest": received.digest}
    return JsonResponse(answer, status=201 if received.status == "created" else 200)


def club_of_organizer(caller: Caller, slug: str) -> Club:
    """The club ``slug`` for one of its organizers: 404 for a club nobody has, 403
    ``another_club`` for a caller who is not its organizer (the club's public pages show that
    it exists)."""
    try:
        return club_for(caller, slug, roles=(ORGANIZER,))
    except NotFound:
        if Club.objects.filter(slug=inputs.CLUB_SLUG.check(slug)).exists():
            raise Forbidden(
                "another_club", gettext("This token is not an organizer's of this club.")
            ) from None
        raise


# --- registration before the night (drives.registrations) -------------------------------------

REGISTRATIONS = "/drives/{slug}/registrations"


def public(ok: dict[int, Any], *errors: int) -> dict[int, Any]:
    """The responses of an operation open to anyone: no credentials, so no 401 or 403."""
    return ok | dict.fromkeys(sorted(errors), Error)


class RegistrationIn(Body):
    players: Annotated[list[str], inputs.REGISTRATION_NAMES]
    contact: Annotated[str, inputs.REGISTRATION_CONTACT] = ""
    duplicate_ok: Annotated[bool, inputs.FLAGS["duplicate_ok"]] = False
    player_ids: list[Annotated[int, Field(ge=1, le=inputs.NUMBER_MAX)] | None] = Field(
        default_factory=list,
        max_length=2,
        description="The club's players chosen in the type-ahead, in the order of players "
        "(null: a name to look up).",
    )


class RegisteredOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    status: Literal["registered", "waitlisted"] = Field(
        description="registered: one of the drive's capacity; waitlisted: on the wait list, "
        "moved up by itself when a registered couple cancels."
    )
    position: int = Field(
        description="The place among the couples registered, on the wait list, or among the "
        "players looking for a partner."
    )
    cancel_url: str = Field(description="The link that cancels this registration (keep it).")


class RegistrationOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: int
    players: list[str] = Field(description="Two names, or one: a player looking for a partner.")
    contact: str
    status: Literal["registered", "waitlisted", "cancelled"]
    position: int | None = Field(description="As answered at registration; null: cancelled.")
    checked_in: bool
    couple: int | None = Field(description="The couple's number once checked in at the door.")
    created_at: datetime
    cancelled_at: datetime | None


class RegistrationPlayerOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: int
    name: str
    nights: int
    last_night: str | None = Field(description="Always null: the public are not told.")


@router.post(
    REGISTRATIONS,
    auth=None,
    response=public({201: RegisteredOut}, 400, 404, 409, 413, 422, 429),
    tags=["registration"],
    url_name="drive-registrations",
    operation_id="registrations_create",
    summary="Register for a drive before the night (no login)",
    description="Anyone, while the drive's registration is open. players: two names, or one "
    "for a player looking for a partner (the door pairs them). Past the drive's capacity a "
    "couple is wait-listed (status waitlisted, its place on the wait list) and moves up by "
    "itself when a registered couple cancels. 409 registration_not_open (none, or not yet), "
    "registration_closed, duplicate_registration (the same people again: send duplicate_ok "
    "true if they are others of the same names); 422 missing_player (an empty or invisible "
    "name), name_too_long, bad_players; 429 rate_limited once an address made "
    "RATELIMIT_REGISTRATIONS (at least 20) within an hour.",
)
def registrations_create(request: HttpRequest, slug: str, payload: RegistrationIn) -> JsonResponse:
    drive = Drive.objects.select_related("club").filter(slug=slug).first()
    if drive is None:
        raise NotFound("not_found", gettext("No such drive."))
    wait = ratelimit.registration_blocked(request)
    if wait is not None:
        raise RateLimited(
            "rate_limited",
            gettext("Too many registrations from this address: try again in %(minutes)s minutes.")
            % {"minutes": ratelimit.minutes(wait)},
            retry_after=wait,
        )
    registration, position = registrations.registration_create(
        drive=drive,
        players=payload.players,
        contact=payload.contact,
        duplicate_ok=payload.duplicate_ok,
        player_ids=payload.player_ids,
        actor=Actor(channel=AuditEntry.Channel.API),
    )
    ratelimit.registration_made(request)
    answer = registrations.registration_answer(registration, position)
    answer["cancel_url"] = request.build_absolute_uri(answer["cancel_url"])
    return JsonResponse(answer, status=201)


@router.get(
    REGISTRATIONS,
    response=answers({200: list[RegistrationOut]}, 404),
    tags=["registration"],
    url_name="drive-registrations",
    operation_id="registrations_list",
    summary="The drive's registrations before the night",
    description="Organizers of the drive's club. Every registration in order of arrival, "
    "cancelled ones too, with its place and, once checked in at the door, its couple.",
)
def registrations_list(request: HttpRequest, slug: str) -> JsonResponse:
    drive = drive_for(caller_of(request), slug, roles=(ORGANIZER,))
    rows = [
        {
            "id": r.registration.pk,
            "players": r.registration.players,
            "contact": r.registration.contact,
            "status": r.registration.status,
            "position": r.position,
            "checked_in": r.registration.couple_id is not None,
            "couple": r.registration.couple.number if r.registration.couple else None,
            "created_at": r.registration.created_at.isoformat(),
            "cancelled_at": (
                r.registration.cancelled_at.isoformat() if r.registration.cancelled_at else None
            ),
        }
        for r in registrations.registrations_of(drive)
    ]
    return JsonResponse(rows, safe=False, json_dumps_params={"ensure_ascii": False})


@router.get(
    REGISTRATIONS + "/players",
    auth=None,
    response=public({200: list[RegistrationPlayerOut]}, 404),
    tags=["registration"],
    url_name="drive-registration-players",
    operation_id="registration_players",
    summary="The club's players for the registration page's type-ahead (no login)",
    description="Anyone, while the drive's registration is open (none otherwise): up to 5 "
    "players whose name has a word starting with q, at least 3 letters typed; the name and "
    "id only, never a phone, an e-mail or their nights.",
)
def registration_players(
    request: HttpRequest,
    slug: str,
    q: str = Query("", description="What was typed (its first 80 characters count)."),
) -> JsonResponse:
    drive = Drive.objects.select_related("club").filter(slug=slug).first()
    if drive is None:
        raise NotFound("not_found", gettext("No such drive."))
    found = []
    typed = q.strip()[:80]
    open_now = registrations.registration_state(drive) == registrations.RegistrationState.OPEN
    if open_now and len(typed) >= 3:
        found = [
            {"id": r.player.pk, "name": r.player.name, "nights": 0, "last_night": None}
            for r in selectors.players_suggest(drive.club, typed)[:5]
        ]
    return JsonResponse(found, safe=False, json_dumps_params={"ensure_ascii": False})
