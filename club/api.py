"""The club's players in the JSON API (docs/api.md, "Players" and "The club's public pages"):
a router that ``config.urls`` mounts on the site's API, as it mounts the seasons'. The door's
type-ahead reads it: the players whose name has a word starting with what was typed, with their
nights, never their phone or e-mail. The club's public pages have their twins here, for anyone
(``club.public``, names as the club shows them), and the club's settings for its organizers.
Registration before the night (``drives.registrations``): anyone registers a couple, or a player
looking for a partner, while a drive's registration is open; the club's organizers list them.
And a night published from the hall's laptop (``scoring.records.publish``).
"""

from __future__ import annotations

import zlib
from datetime import datetime
from typing import Annotated, Literal

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext as _
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
from club import public, selectors, services
from drives import inputs, ratelimit, registrations
from drives.errors import Forbidden, NotFound, ServiceError
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
    try:
        return load_export(raw)
    except ServiceError as error:  # not JSON: 400, as every other body of the API
        if error.code != "bad_json":
            raise
        raise BadRequest("bad_json", error.message) from None


@router.post(
    "/clubs/{club}/nights",
    response=answers(
        {200: NightPublishedOut, 201: NightPublishedOut}, 400, 403, 404, 409, 413, 422
    ),
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


def public_answers(ok: dict[int, object], *errors: int) -> dict[int, object]:
    """The responses of an endpoint open to anyone: no credentials, so no 401 or 403."""
    return ok | {status: Error for status in sorted(errors)}


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
    response=public_answers({201: RegisteredOut}, 400, 404, 409, 413, 422, 429),
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
    response=public_answers({200: list[RegistrationPlayerOut]}, 404),
    tags=["registration"],
    url_name="drive-registration-players",
    operation_id="registration_players",
    summary="The club's players for the registration page's type-ahead (no login)",
    description="Anyone, while the drive's registration is open and the club shows its "
    "players' full names publicly (its public_names setting; none otherwise): up to 5 players "
    "whose name has a word starting with q, at least 3 letters typed; the name and id only, "
    "never a phone, an e-mail or their nights.",
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
    # The club's list of players is shown to anyone only when the club shows full names.
    shown = drive.club.public_names == Club.PublicNames.FULL
    if open_now and shown and len(typed) >= 3:
        found = [
            {"id": r.player.pk, "name": r.player.name, "nights": 0, "last_night": None}
            for r in selectors.players_suggest(drive.club, typed)[:5]
        ]
    return JsonResponse(found, safe=False, json_dumps_params={"ensure_ascii": False})


# --- the club's public pages and its settings ---------------------------------------------------

PublicNames = Literal["full", "initial", "none"]  # drives.models.Club.PublicNames
NAMES_WORDS = (
    "What the club's public pages show of its players' names: `full`, `initial` (a first "
    'name with the last name\'s initial, "Mary M."; the default) or `none` (no names: no '
    "winners nor standings, and no player's page but the player's own)."
)


class NameOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(description="The name as the club shows it.")
    player: int | None = Field(
        description="The player's id (their page), or null: no page is listed."
    )


class UpcomingOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    slug: str
    name: str
    date: str = Field(description="YYYY-MM-DD")
    venue: str = Field(description="The hall (may be empty).")
    state: Literal["setup", "running"]


class NightOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    slug: str
    name: str
    date: str = Field(description="YYYY-MM-DD")
    venue: str
    published: bool = Field(description="Whether the night's results are public.")
    results_url: str | None = Field(description="The night's public results page, once published.")
    couples: int | None = Field(description="Couples that played (null: not published).")
    winners: list[list[NameOut]] = Field(
        description="The couples in first place (two names each; several on a tie); none "
        "when not published or when the club shows no names."
    )


class StandingOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    place: int | None
    name: NameOut
    drives: int
    wins: int
    prizes: int


class SeasonPartOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    slug: str
    name: str
    starts: str
    ends: str
    drives: int
    players: int
    url: str = Field(description="The season's public standings, every player.")
    standings: list[StandingOut] = Field(
        description="Its first players (none when the club shows no names)."
    )


class ClubPageOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    club: str = Field(description="The club's slug.")
    name: str
    language: str = Field(description="The club's language (that of its latest drive).")
    public_names: PublicNames = Field(description=NAMES_WORDS)
    upcoming: list[UpcomingOut]
    nights: list[NightOut] = Field(description="One page of the past nights, newest first.")
    page: int
    pages: int
    nights_total: int
    season: SeasonPartOut | None = Field(
        description="The published season under way, else the last one begun; null: none."
    )


class PlayerNightOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    drive: str = Field(description="The drive's slug.")
    name: str
    date: str
    number: int = Field(description="The couple's number that night.")
    partner: NameOut
    place: int | None = Field(description="null: withdrawn.")
    withdrawn: bool
    wins: int
    played: int
    couples: int
    prizes: list[str]


class PartnerOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    partner: NameOut
    nights: int


class PlayerPageOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: int
    name: str = Field(description="As the club shows it (in full on the player's own page).")
    nights: list[PlayerNightOut] = Field(description="The published nights, newest first.")
    wins: int
    firsts: int
    prizes: int
    best_place: int | None
    partners: list[PartnerOut] = Field(description="By nights together, most first.")


class ClubSettingsOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    club: str
    public_names: PublicNames = Field(description=NAMES_WORDS)


class ClubSettingsIn(Body):
    public_names: PublicNames = Field(description=NAMES_WORDS)


PUBLIC = ["club pages"]  # the tag of the public pages' twins (no credentials)


def _json(data: BaseModel) -> JsonResponse:
    return JsonResponse(data.model_dump(mode="json"), json_dumps_params={"ensure_ascii": False})


def _public_club(slug: str) -> Club:
    found = Club.objects.filter(slug=inputs.CLUB_SLUG.check(slug)).first()
    if found is None:
        raise NotFound("not_found", _("No such club."))
    return found


def _name(name: public.Name) -> NameOut:
    return NameOut(name=name.text, player=name.player)


def _page_out(found: Club, page: public.ClubPage, language: str) -> ClubPageOut:
    season = page.season
    return ClubPageOut(
        club=found.slug,
        name=found.name,
        language=language,
        public_names=page.names,  # type: ignore[arg-type]  # one of Club.PublicNames
        upcoming=[
            UpcomingOut(
                slug=d.slug,
                name=d.name,
                date=d.date.isoformat(),
                venue=d.venue,
                state=d.state,  # type: ignore[arg-type]  # not closed: setup or running
            )
            for d in page.upcoming
        ],
        nights=[
            NightOut(
                slug=n.drive.slug,
                name=n.drive.name,
                date=n.drive.date.isoformat(),
                venue=n.drive.venue,
                published=n.drive.published,
                results_url=reverse("night:results", args=[n.drive.slug])
                if n.drive.published
                else None,
                couples=n.couples if n.drive.published else None,
                winners=[[_name(one) for one in couple] for couple in n.winners],
            )
            for n in page.nights
        ],
        page=page.page.number,
        pages=page.page.paginator.num_pages,
        nights_total=page.page.paginator.count,
        season=None
        if season is None
        else SeasonPartOut(
            slug=season.slug,
            name=season.name,
            starts=season.starts.isoformat(),
            ends=season.ends.isoformat(),
            drives=season.drives,
            players=season.players,
            url=reverse("seasons:season_public", args=[found.slug, season.slug]),
            standings=[
                StandingOut(
                    place=r.place, name=_name(r.name), drives=r.drives, wins=r.wins, prizes=r.prizes
                )
                for r in page.standings
            ],
        ),
    )


def _player_out(history: public.PlayerHistory) -> PlayerPageOut:
    return PlayerPageOut(
        id=history.player.pk,
        name=history.name,
        nights=[
            PlayerNightOut(
                drive=n.drive.slug,
                name=n.drive.name,
                date=n.drive.date.isoformat(),
                number=n.number,
                partner=_name(n.partner),
                place=n.place,
                withdrawn=n.withdrawn,
                wins=n.wins,
                played=n.played,
                couples=n.couples,
                prizes=n.prizes,
            )
            for n in history.nights
        ],
        wins=history.wins,
        firsts=history.firsts,
        prizes=history.prizes,
        best_place=history.best_place,
        partners=[PartnerOut(partner=_name(p.name), nights=p.nights) for p in history.partners],
    )


@router.get(
    "/clubs/{club}",
    auth=None,
    tags=PUBLIC,
    response=public_answers({200: ClubPageOut}, 404, 422),
    url_name="club-page",
    operation_id="club_page",
    summary="The club's public page: upcoming drives, past nights, the season's standings",
    description="Anyone, no login (the twin of /clubs/{club}/). Names as the club shows them "
    "(public_names). 404 not_found: no such club.",
)
def club_page(
    request: HttpRequest,
    club: str,
    page: int = Query(1, ge=1, le=100_000, description="The page of past nights (20 a page)."),
) -> JsonResponse:
    found = _public_club(club)
    language = public.club_language(found)
    with translation.override(language):
        return _json(_page_out(found, public.club_page(found, page), language))


@router.get(
    "/clubs/{club}/players/{player}",
    auth=None,
    tags=PUBLIC,
    response=public_answers({200: PlayerPageOut}, 404, 422),
    url_name="club-player",
    operation_id="club_player",
    summary="A player's public page: nights, places, wins, prizes and partners",
    description="Anyone, no login (the twin of /clubs/{club}/players/{id}/). 404 not_found: no "
    "such player, or the club shows no names (then only the player's own page exists).",
)
def club_player(request: HttpRequest, club: str, player: int) -> JsonResponse:
    found = _public_club(club)
    one = public.public_player(found, player)
    if one is None:
        raise NotFound("not_found", _("No such player at this club."))
    with translation.override(public.club_language(found)):
        return _json(_player_out(public.player_history(found, one)))


@router.get(
    "/clubs/{club}/players/{player}/{key}",
    auth=None,
    tags=PUBLIC,
    response=public_answers({200: PlayerPageOut}, 404, 422),
    url_name="club-player-own",
    operation_id="club_player_own",
    summary="A player's own page (its address from their couple's page), names in full",
    description="Anyone holding the address, whatever the club shows publicly. 404 not_found: "
    "no such player or a wrong key.",
)
def club_player_own(request: HttpRequest, club: str, player: int, key: str) -> JsonResponse:
    found = _public_club(club)
    one = public.own_player(found, player, key)
    if one is None:
        raise NotFound("not_found", _("No such player at this club."))
    with translation.override(public.club_language(found)):
        return _json(_player_out(public.player_history(found, one, own=True)))


@router.get(
    "/clubs/{club}/settings",
    response=answers({200: ClubSettingsOut}, 404),
    url_name="club-settings",
    operation_id="club_settings",
    summary="The club's settings: what its public pages show of the names",
    description="Organizer of the club.",
)
def club_settings(request: HttpRequest, club: str) -> JsonResponse:
    found = club_for(caller_of(request), club, roles=(ORGANIZER,))
    return _json(ClubSettingsOut(club=found.slug, public_names=found.public_names))  # type: ignore[arg-type]


@router.patch(
    "/clubs/{club}/settings",
    response=answers({200: ClubSettingsOut}, 404, 422, body=True),
    url_name="club-settings",
    operation_id="club_settings_patch",
    summary="Change what the club's public pages show of the names (audited)",
    description="Organizer of the club. 422 for a value not among full, initial, none.",
)
def club_settings_patch(request: HttpRequest, club: str, payload: ClubSettingsIn) -> JsonResponse:
    caller = caller_of(request)
    found = club_for(caller, club, roles=(ORGANIZER,))
    found = services.club_public_names(
        club=found, public_names=payload.public_names, actor=caller.actor
    )
    return _json(ClubSettingsOut(club=found.slug, public_names=found.public_names))  # type: ignore[arg-type]
