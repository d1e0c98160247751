"""The club's players in the JSON API (docs/api.md, "Players"): a router that
``config.urls`` mounts on the site's API, as it mounts the seasons'. The door's type-ahead reads
it: the players whose name has a word starting with what was typed, with their nights, never
their phone or e-mail.
"""

from __future__ import annotations

import zlib
from typing import Literal

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext
from ninja import Router
from ninja.params.functions import Query
from pydantic import BaseModel, ConfigDict

from api.auth import AUTH, MEMBERS, ORGANIZER, Caller, caller_of, club_for
from api.errors import BadRequest, too_large
from api.schemas import answers
from club import selectors
from drives import inputs
from drives.errors import Forbidden, NotFound
from drives.models import Club
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
