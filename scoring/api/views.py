"""Scoring's endpoints in the site's API (``api.site``): a router that ``config.urls`` mounts on
it. Each endpoint authorises the caller (``api.auth``), calls one service or selector and
answers with what it returned. No rule of the night is decided here; the bodies are the models
of ``scoring.api.schemas``, and ``/api/v1/openapi.json`` is built from them. Errors are the
API's own (``api.errors``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.http import FileResponse, HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.translation import gettext
from ninja import Router

# ninja.Body(...) and ninja.Query(...) are these functions at run time; for a type checker
# ninja names Annotated aliases instead (Body[T]), which take no call.
from ninja.params.functions import Body, Query

from api.auth import (
    MEMBERS,
    ORGANIZER,
    caller_of,
    club_for,
    drive_for,
    drives_visible_to,
    memberships_of,
    require_table,
    require_user,
)
from api.errors import BadRequest, request_body
from api.schemas import answers
from drives.devices import device_of
from drives.errors import NotFound, ServiceError
from drives.models import Couple
from drives.services import (
    couple_delete,
    couple_update,
    couples_import_csv,
    couples_register,
    drive_close,
    drive_create,
    drive_start,
    drive_update,
    holes_record,
    require_role,
)
from scoring.api import schemas as s
from scoring.models import Document, TableCall
from scoring.printing.rendering import (
    DEFAULT_BASE_URL,
    document_allowed,
    document_filename,
)
from scoring.printing.services import document_request, document_status, qr_base_url
from scoring.prizes.selectors import cookie_jar_view, prize_table, setup_view, tie_view, ties_list
from scoring.prizes.services import (
    cookie_jar_draw,
    prize_setup_update,
    prizes_open_ties,
    tie_choose,
    tie_cut_draw,
    tie_cut_record,
    tie_decide,
    tie_get,
    tie_playoff_result,
)
from scoring.records.export import drive_export
from scoring.records.schema import json_schema
from scoring.selectors import (
    calls_waiting,
    couple_summary,
    current_tables,
    drive_counts,
    drive_summary,
    game_view,
    reconciliation,
    standings_for_drive,
    win_grid,
)
from scoring.services import (
    Recorded,
    call_answer,
    call_close,
    call_open,
    game_advance,
    result_confirm,
    result_record,
    result_resolve,
)

router = Router()  # the API's credentials (api.auth.AUTH) and tags per endpoint
CSV_TYPES = frozenset({"text/csv", "text/plain", "application/csv"})

# What GET /drives/{slug} says of the game in play (the rest is at /games/current).
GAME_PROGRESS = (
    "number",
    "state",
    "reported",
    "to_report",
    "missing",
    "conflicts",
    "pending",
    "unusual",
)


def drive_answer(drive: Any) -> dict[str, Any]:
    """A drive as the API shows it: its summary, which its export also writes."""
    return drive_summary(drive)


def _ok(data: Any, status: int = 200) -> JsonResponse:
    return JsonResponse(data, status=status, safe=False, json_dumps_params={"ensure_ascii": False})


def _no_such_game(number: int) -> NotFound:
    return NotFound(
        "no_such_game",
        gettext("Game %(number)s has not started.") % {"number": number},
        game=number,
    )


def _game(drive: Any, number: int, status: int = 200) -> JsonResponse:
    view = game_view(drive, number)
    if view is None:
        raise _no_such_game(number)
    return _ok(view, status)


def _result(recorded: Recorded, game: int, table: int) -> JsonResponse:
    """A result as the service left it; ``replayed`` is the service's word (nothing written
    because the same thing had already been done)."""
    result = recorded.result
    return _ok(
        {
            "game": game,
            "table": table,
            "winner": result.winner.number,
            "points": result.points,
            "state": result.state,
            "verdict": result.verdict or None,
            "replayed": recorded.replayed,
        },
        recorded.status,
    )


D = "/drives/{slug:slug}"
GAME = D + "/games/{num:n}"
TABLE = GAME + "/tables/{num:t}"
PRIZES = D + "/prizes"
TIE = PRIZES + "/ties/{num:tie}"
DOCUMENTS = D + "/documents"
WHO, DRIVES, COUPLES, GAMES, END, PRIZE, PRINT = (
    "who",
    "drives",
    "couples",
    "games and results",
    "standings",
    "prizes",
    "printing",
)
ORGANIZERS = "Organizer of the drive's club."
MEMBERS_ = "Organizer or scorer of the drive's club."
READERS = "Members of the drive's club, and the drive's table and couple tokens."


# --- who am I ------------------------------------------------------------------------------------


@router.get(
    "/me",
    response=answers({200: s.Me}),
    url_name="me",
    operation_id="me",
    tags=[WHO],
    summary="Who the session or token is",
    description="A user with their clubs and roles, or a token's table or couple and drive.",
)
def me(request: HttpRequest) -> JsonResponse:
    caller = caller_of(request)
    if caller.kind == "user":
        user = caller.user
        return _ok(
            {
                "kind": "user",
                "via": caller.via,
                "user": {
                    "username": user.get_username(),
                    "name": user.get_full_name(),
                    "superuser": user.is_superuser,
                },
                "clubs": memberships_of(user),
            }
        )
    drive = caller.token_drive
    body: dict[str, Any] = {
        "kind": caller.kind,
        "via": caller.via,
        "drive": {
            "slug": drive.slug,
            "name": drive.name,
            "club": drive.club.name,
            "date": drive.date.isoformat(),
            "state": drive.state,
            "current_game": drive.current_game,
        },
    }
    if caller.table is not None:
        body["table"] = caller.table.number
    if caller.couple is not None:
        body["couple"] = couple_summary(caller.couple)
        body["seat"] = next(
            (row for row in current_tables(drive) if row["number"] == caller.couple.number),
            None,
        )
    return _ok(body)


# --- drives -------------------------------------------------------------------------------------


@router.get(
    "/drives",
    response=answers({200: list[s.Drive]}),
    url_name="drives",
    operation_id="drives_list",
    tags=[DRIVES],
    summary="The drives of the caller's clubs",
    description="Drives, newest first.",
)
def drives_list(request: HttpRequest) -> JsonResponse:
    user = require_user(caller_of(request))
    return _ok([drive_answer(drive) for drive in drives_visible_to(user)])


@router.post(
    "/drives",
    response=answers({201: s.Drive}, 404, 409, 422, body=True),
    url_name="drives",
    operation_id="drives_create",
    tags=[DRIVES],
    summary="Create a drive",
    description=f"{ORGANIZERS} The club is named by its slug. Drives of the same name and "
    "date get slugs ending -2, -3 …, also when created at the same instant; 409 slug_taken "
    "only when too many are created at once (try again).",
)
def drives_create(request: HttpRequest, payload: s.DriveCreate) -> JsonResponse:
    caller = caller_of(request)
    data = payload.sent()
    club = club_for(caller, data.pop("club", None))
    drive = drive_create(club=club, actor=caller.actor, **data)
    return _ok(drive_answer(drive), 201)


@router.get(
    D,
    response=answers({200: s.DriveDetail}, 404),
    url_name="drive",
    operation_id="drive_get",
    tags=[DRIVES],
    summary="A drive, its counts and the game in play",
    description=READERS,
)
def drive_detail(request: HttpRequest, slug: str) -> JsonResponse:
    drive = drive_for(caller_of(request), slug, tokens=True)
    view = game_view(drive, drive.current_game) if drive.current_game else None
    progress = None if view is None else {key: view[key] for key in GAME_PROGRESS}
    return _ok(drive_answer(drive) | {"counts": drive_counts(drive), "game": progress})


@router.patch(
    D,
    response=answers({200: s.Drive}, 404, 409, 422, body=True),
    url_name="drive",
    operation_id="drive_patch",
    tags=[DRIVES],
    summary="Change a drive's settings",
    description=f"{ORGANIZERS} games, first_seating, seed and movement are fixed once the "
    "night started (409 drive_started).",
)
def drive_patch(request: HttpRequest, slug: str, payload: s.DriveSettings) -> JsonResponse:
    caller = caller_of(request)
    drive = drive_for(caller, slug, roles=(ORGANIZER,))
    drive = drive_update(drive=drive, actor=caller.actor, **payload.sent())
    return _ok(drive_answer(drive))


@router.post(
    D + "/start",
    response=answers({201: s.Game}, 404, 409, 422, body=True),
    url_name="start",
    operation_id="drive_start",
    tags=[GAMES],
    summary="Seat game 1",
    description=f"{ORGANIZERS} By number, or shuffled from a seed (drawn and recorded if not "
    "given). absent: the couples not checked in are seated (seat, the default) or withdrawn "
    "before game 1 (withdraw); another value is 422 bad_field naming absent. 409 "
    "already_started.",
)
def drive_start_view(
    request: HttpRequest, slug: str, payload: s.DriveStart = Body(None)
) -> JsonResponse:
    caller = caller_of(request)
    drive = drive_for(caller, slug, roles=(ORGANIZER,))
    data = payload.sent() if payload is not None else {}
    game = drive_start(drive=drive, actor=caller.actor, **data)
    return _game(drive, game.number, 201)


@router.post(
    D + "/close",
    response=answers({200: s.Drive}, 404, 422, body=True),
    url_name="close",
    operation_id="drive_close",
    tags=[END],
    summary="Close the night",
    description=f"{ORGANIZERS} Read-only from then on; table and couple tokens die.",
)
def drive_close_view(
    request: HttpRequest, slug: str, payload: s.Empty = Body(None)
) -> JsonResponse:
    caller = caller_of(request)
    drive = drive_for(caller, slug, roles=(ORGANIZER,))
    return _ok(drive_answer(drive_close(drive=drive, actor=caller.actor)))


# --- couples ------------------------------------------------------------------------------------


@router.get(
    D + "/couples",
    response=answers({200: list[s.Couple]}, 404),
    url_name="couples",
    operation_id="couples_list",
    tags=[COUPLES],
    summary="The couples, by number",
    description=MEMBERS_,
)
def couples_list(request: HttpRequest, slug: str) -> JsonResponse:
    drive = drive_for(caller_of(request), slug)
    return _ok([couple_summary(c) for c in drive.couples.order_by("number")])


@router.post(
    D + "/couples",
    response=answers({201: list[s.Couple]}, 404, 409, 422, body=True),
    url_name="couples",
    operation_id="couples_add",
    tags=[COUPLES],
    summary="Register one couple or a list (numbers assigned in order)",
    description=f"{MEMBERS_} All or nothing. Once the night runs they are late arrivals, "
    "seated from the next game. The same two people as an active couple (either order, "
    "ignoring case, accents and spaces) or an earlier item is 409 duplicate_couple naming the "
    "couple, unless duplicate_ok is true.",
)
def couples_add(request: HttpRequest, slug: str, payload: s.COUPLES_IN = Body(...)) -> JsonResponse:
    caller = caller_of(request)
    drive = drive_for(caller, slug, roles=MEMBERS)
    data = [payload] if isinstance(payload, dict) else payload
    if not isinstance(data, list):
        raise BadRequest("bad_body", "The body must be a couple (an object) or a list of them.")
    couples = couples_register(
        drive=drive, couples=data, actor=caller.actor, allow_duplicates=False
    )
    return _ok([couple_summary(c) for c in couples], 201)


@router.post(
    D + "/couples/import",
    response=answers({201: list[s.Couple]}, 404, 409, 415, 422, body=True),
    url_name="couples-import",
    operation_id="couples_import",
    tags=[COUPLES],
    summary="Import couples from a CSV file",
    description=f"{MEMBERS_} Header player1,player2 (and optionally paid, checked_in, "
    "cookie_jar as yes/no). All rows or none: 422 bad_rows lists errors=[{line, message}]. A "
    "couple already registered (the same two people, not withdrawn, in either order, ignoring "
    "case, accents and spaces) or listed twice in the file refuses the whole file with 409 "
    "duplicate_couples, whose duplicates=[{line, players, couple, same_as_line}] name them, "
    "unless allow_duplicates=true.",
    openapi_extra={
        "requestBody": {"required": True, "content": {"text/csv": {"schema": {"type": "string"}}}}
    },
)
def couples_import(
    request: HttpRequest,
    slug: str,
    allow_duplicates: s.AllowDuplicates = Query(
        False,
        description="Register the file's couples even those already registered or listed "
        "twice (409 duplicate_couples otherwise); the audit entry names them.",
    ),
) -> JsonResponse:
    caller = caller_of(request)
    drive = drive_for(caller, slug, roles=MEMBERS)
    if request.content_type not in CSV_TYPES:
        raise ServiceError(
            "unsupported_media_type",
            gettext("Send the file as text/csv (a header player1,player2, one couple a line)."),
            status=415,
        )
    couples = couples_import_csv(
        drive=drive,
        data=request_body(request),
        actor=caller.actor,
        allow_duplicates=allow_duplicates,
    )
    return _ok([couple_summary(c) for c in couples], 201)


def _couple(drive: Any, number: int) -> Couple:
    couple = Couple.objects.filter(drive=drive, number=number).first()
    if couple is None:
        raise NotFound(
            "no_such_couple",
            gettext("There is no couple %(number)s.") % {"number": number},
            couple=number,
        )
    couple.drive = drive
    return couple


@router.patch(
    D + "/couples/{num:number}",
    response=answers({200: s.Couple}, 404, 409, 422, body=True),
    url_name="couple",
    operation_id="couple_patch",
    tags=[COUPLES],
    summary="Check in, paid, cookie jar, names, withdraw",
    description=MEMBERS_,
)
def couple_patch(
    request: HttpRequest, slug: str, number: int, payload: s.CouplePatch
) -> JsonResponse:
    caller = caller_of(request)
    drive = drive_for(caller, slug, roles=MEMBERS)
    couple = couple_update(couple=_couple(drive, number), actor=caller.actor, **payload.sent())
    return _ok(couple_summary(couple))


@router.delete(
    D + "/couples/{num:number}",
    response=answers({204: None}, 404, 409, 422),
    url_name="couple",
    operation_id="couple_delete",
    tags=[COUPLES],
    summary="Delete a couple registered by mistake (before the start)",
    description=f"{MEMBERS_} Only before the night starts; after, 409 started (withdraw the "
    "couple instead). The other couples keep their numbers; the next couple registered takes "
    "the number after the highest left. Audited.",
)
def couple_delete_view(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    caller = caller_of(request)
    drive = drive_for(caller, slug, roles=MEMBERS)
    couple_delete(couple=_couple(drive, number), actor=caller.actor)
    return HttpResponse(status=204)


# --- games and results --------------------------------------------------------------------------


@router.get(
    D + "/games/current",
    response=answers({200: s.Game}, 404),
    url_name="game-current",
    operation_id="game_current",
    tags=[GAMES],
    summary="The game in play",
    description=READERS,
)
def game_current(request: HttpRequest, slug: str) -> JsonResponse:
    drive = drive_for(caller_of(request), slug, tokens=True)
    if not drive.current_game:
        raise NotFound("not_started", gettext("The night has not started."))
    return _game(drive, drive.current_game)


@router.get(
    GAME,
    response=answers({200: s.Game}, 404),
    url_name="game",
    operation_id="game_get",
    tags=[GAMES],
    summary="A game: seating, who deals, results, missing tables",
    description=READERS,
)
def game_detail(request: HttpRequest, slug: str, n: int) -> JsonResponse:
    return _game(drive_for(caller_of(request), slug, tokens=True), n)


@router.post(
    GAME + "/advance",
    response=answers({201: s.Game, 200: s.Game}, 404, 409, 422, body=True),
    url_name="advance",
    operation_id="game_advance",
    tags=[GAMES],
    summary="Start the next game",
    description=f"{MEMBERS_} (scorers only if the drive's scorers_may_advance is true, the "
    "default). Only when every table has an accepted result (409 "
    "game_incomplete: missing, conflicts and pending list the tables in the way). Computed "
    "once: pressing again answers 200 with the same game.",
)
def game_advance_view(
    request: HttpRequest, slug: str, n: int, payload: s.Empty = Body(None)
) -> JsonResponse:
    caller = caller_of(request)
    drive = drive_for(caller, slug)
    require_role(drive, caller.user, *drive.advance_roles())  # scorers too, if the drive says so
    status, game = game_advance(drive=drive, game=n, actor=caller.actor)
    return _game(drive, game.number, status)


@router.put(
    TABLE + "/result",
    response=answers({201: s.Result, 200: s.Result}, 404, 409, 422, body=True),
    url_name="result",
    operation_id="result_put",
    tags=[GAMES],
    summary="Enter a table's result",
    description=f"{MEMBERS_} (channel desk by session, api by token); a table token for its "
    "own table (another table: 403 wrong_table); a couple token for the table it plays at. "
    "Only the game in play takes new results. 201 stored; 200 a replay (replayed: true), "
    "nothing written: the same key with the same winner and points, or the same winner with "
    "the same points or none. 409 key_reused: the same key came with another body (winner or "
    "points; differs names them): refused, nothing stored. 409 result_conflict: another "
    "winner, or the same winner with other points, is already there (differs says which); "
    "both are kept and the table is in conflict.",
)
def result_put(
    request: HttpRequest, slug: str, n: int, t: int, payload: s.ResultIn
) -> JsonResponse:
    caller = caller_of(request)
    drive = drive_for(caller, slug, tokens=True)
    require_table(caller, drive, n, t)
    actor = caller.actor
    if caller.is_token:
        # The table page's script sends the phone's device cookie: its tap is its own to undo.
        actor = replace(actor, device=device_of(request))
    recorded = result_record(
        drive=drive,
        game=n,
        table=t,
        winner=payload.winner,
        points=payload.points,
        key=payload.key,
        confirm_unusual=payload.confirm_unusual,
        actor=actor,
    )
    return _result(recorded, n, t)


@router.post(
    TABLE + "/confirm",
    response=answers({200: s.Result}, 404, 409, 422, body=True),
    url_name="confirm",
    operation_id="result_confirm",
    tags=[GAMES],
    summary="The other couple confirms or rejects a pending result",
    description="A couple token of the table's other couple, on a drive with "
    "confirm_by_other_couple. A rejection puts the table in conflict; the same answer again "
    "is replayed.",
)
def result_confirm_view(
    request: HttpRequest, slug: str, n: int, t: int, payload: s.Confirm
) -> JsonResponse:
    caller = caller_of(request)
    drive = drive_for(caller, slug, tokens=True)
    if caller.kind != "couple":
        raise ServiceError(
            "couple_token_required",
            gettext("The other couple confirms a result with the token of its punch card."),
            status=403,
        )
    require_table(caller, drive, n, t)
    recorded = result_confirm(
        drive=drive,
        couple=caller.couple,  # type: ignore[arg-type]  # require_table: a couple's token
        game=n,
        accept=payload.accept,
        actor=caller.actor,
    )
    return _result(recorded, n, t)


@router.post(
    TABLE + "/resolve",
    response=answers({200: s.Result}, 404, 422, body=True),
    url_name="resolve",
    operation_id="result_resolve",
    tags=[GAMES],
    summary="Settle a conflict or correct a result",
    description=f"{MEMBERS_} Until the drive is closed; after the next game started it "
    "changes wins and standings, not the seating played. The same settlement again, by the "
    "same person, is replayed (nothing written).",
)
def result_resolve_view(
    request: HttpRequest, slug: str, n: int, t: int, payload: s.Resolve
) -> JsonResponse:
    caller = caller_of(request)
    drive = drive_for(caller, slug, roles=MEMBERS)
    recorded = result_resolve(
        drive=drive,
        game=n,
        table=t,
        winner=payload.winner,
        reason=payload.reason,
        points=payload.points,
        actor=caller.actor,
    )
    return _result(recorded, n, t)


# --- a table's call to the desk ----------------------------------------------------------------

CALLS = "calls to the desk"


def _call(call: TableCall, status: int = 200) -> JsonResponse:
    waited = max(0, int((timezone.now() - call.opened_at).total_seconds()))
    return _ok(
        {
            "id": call.pk,
            "state": call.state,
            "table": call.table.number,
            "game": call.game.number,
            "reason": call.reason,
            "waited_s": waited,
        },
        status,
    )


@router.post(
    TABLE + "/call",
    response=answers({201: s.Call}, 404, 409, 422, body=True),
    url_name="call",
    operation_id="call_open",
    tags=[CALLS],
    summary="Call the desk to a table",
    description="The table's token, or the token of a couple seated at the table in that "
    "game (another table: 403 wrong_table); members too. The desk grid and the dashboard "
    "show the call at once. 201 the call, open. 409 call_open: the table's last call is "
    "still open or answered (nothing written). 422 no_such_table: nobody plays at that table "
    "in that game; game_not_started; game_not_in_play: only the game in play; bad_reason: "
    "the reason is longer than its rule allows; drive_closed.",
)
def call_open_view(
    request: HttpRequest, slug: str, n: int, t: int, payload: s.CallIn = Body(None)
) -> JsonResponse:
    caller = caller_of(request)
    drive = drive_for(caller, slug, tokens=True)
    require_table(caller, drive, n, t)
    reason = payload.reason if payload is not None else None
    call = call_open(drive=drive, game=n, table=t, reason=reason, actor=caller.actor)
    return _call(call, 201)


@router.get(
    D + "/calls",
    response=answers({200: list[s.Call]}, 404),
    url_name="calls",
    operation_id="calls_list",
    tags=[CALLS],
    summary="The tables waiting for the desk",
    description=f"{MEMBERS_} The calls not closed yet (open, then answered), oldest first, "
    "with the seconds each table has waited.",
)
def calls_list(request: HttpRequest, slug: str) -> JsonResponse:
    drive = drive_for(caller_of(request), slug)
    calls = calls_waiting(drive)
    keys = ("id", "state", "table", "game", "reason", "waited_s")
    return _ok([{key: call[key] for key in keys} for call in calls])


@router.post(
    D + "/calls/{num:call}/answer",
    response=answers({200: s.Call}, 404, 409, 422, body=True),
    url_name="call-answer",
    operation_id="call_answer",
    tags=[CALLS],
    summary="Say the desk is on its way",
    description=f'{MEMBERS_} The table\'s phone shows "on my way". Answering an answered '
    "call again writes nothing. 404 no_such_call; 409 call_closed: the call is closed; 422 "
    "drive_closed.",
)
def call_answer_view(
    request: HttpRequest, slug: str, call: int, payload: s.Empty = Body(None)
) -> JsonResponse:
    caller = caller_of(request)
    drive = drive_for(caller, slug)
    return _call(call_answer(drive=drive, call=call, actor=caller.actor))


@router.post(
    D + "/calls/{num:call}/close",
    response=answers({200: s.Call}, 404, 422, body=True),
    url_name="call-close",
    operation_id="call_close",
    tags=[CALLS],
    summary="Close a call: the desk has been to the table",
    description=f"{MEMBERS_} The table may call again. Closing a closed call again writes "
    "nothing. 404 no_such_call; 422 drive_closed.",
)
def call_close_view(
    request: HttpRequest, slug: str, call: int, payload: s.Empty = Body(None)
) -> JsonResponse:
    caller = caller_of(request)
    drive = drive_for(caller, slug)
    return _call(call_close(drive=drive, call=call, actor=caller.actor))


# --- standings and the end of the night -----------------------------------------------------------


@router.get(
    D + "/standings",
    response=answers({200: list[s.Standing]}, 404),
    url_name="standings",
    operation_id="standings",
    tags=[END],
    summary="Standings with places",
    description=READERS,
)
def standings(request: HttpRequest, slug: str) -> JsonResponse:
    return _ok(standings_for_drive(drive_for(caller_of(request), slug, tokens=True)))


@router.get(
    D + "/grid",
    response=answers({200: list[s.GridRow]}, 404),
    url_name="grid",
    operation_id="grid",
    tags=[END],
    summary="The win grid: per couple, game by game",
    description=READERS,
)
def grid(request: HttpRequest, slug: str) -> JsonResponse:
    return _ok(win_grid(drive_for(caller_of(request), slug, tokens=True)))


@router.get(
    D + "/tables",
    response=answers({200: list[s.CurrentTable]}, 404),
    url_name="tables",
    operation_id="tables",
    tags=[GAMES],
    summary="Couple → table in the game in play",
    description=READERS,
)
def tables(request: HttpRequest, slug: str) -> JsonResponse:
    return _ok(current_tables(drive_for(caller_of(request), slug, tokens=True)))


@router.get(
    D + "/export",
    response=answers({200: s.Export}, 404),
    url_name="export",
    operation_id="export",
    tags=[END],
    summary="The drive's full record",
    description=MEMBERS_,
)
def export(request: HttpRequest, slug: str) -> JsonResponse:
    """The drive's full record, as a file named after the drive: a browser following the
    dashboard's link saves ``<slug>.json`` instead of showing the text."""
    drive = drive_for(caller_of(request), slug)
    response = _ok(drive_export(drive))
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=f"{drive.slug}.json"
    )
    return response


@router.get(
    "/export-schema",
    response=answers({200: dict[str, Any]}),
    url_name="export_schema",
    operation_id="export_schema",
    tags=[END],
    summary="The JSON Schema of a drive's export",
    description="The schema every export matches and every restore checks "
    "(docs/export.schema.json): its version field says which version of the format a file is.",
)
def export_schema(request: HttpRequest) -> JsonResponse:
    return _ok(json_schema())


@router.post(
    D + "/holes",
    response=answers({200: s.HolesRecorded}, 404, 422, body=True),
    url_name="holes",
    operation_id="holes",
    tags=[END],
    summary="Record the holes counted on punch cards",
    description=MEMBERS_,
)
def holes(request: HttpRequest, slug: str, payload: s.Holes) -> JsonResponse:
    caller = caller_of(request)
    drive = drive_for(caller, slug, roles=MEMBERS)
    holes_record(drive=drive, holes=payload.holes, actor=caller.actor)
    return _ok({"recorded": len(payload.holes), "reconciliation": reconciliation(drive)})


@router.get(
    D + "/reconciliation",
    response=answers({200: list[s.Mismatch]}, 404),
    url_name="reconciliation",
    operation_id="reconciliation",
    tags=[END],
    summary="Punch cards against recorded wins",
    description=f"{MEMBERS_} Couples whose holes differ from their wins.",
)
def reconciliation_view(request: HttpRequest, slug: str) -> JsonResponse:
    return _ok(reconciliation(drive_for(caller_of(request), slug)))


# --- prizes and ties ----------------------------------------------------------------------------


@router.get(
    PRIZES,
    response=answers({200: s.PrizeTable}, 404),
    url_name="prizes",
    operation_id="prizes",
    tags=[PRIZE],
    summary="Every prize: places, booby, jackpot, cookie jar",
    description=f"{MEMBERS_} A preview from the standings until the ties are opened; then the "
    "stored ties and awards.",
)
def prizes_view(request: HttpRequest, slug: str) -> JsonResponse:
    return _ok(prize_table(drive_for(caller_of(request), slug)))


@router.get(
    PRIZES + "/setup",
    response=answers({200: s.PrizeSetup}, 404),
    url_name="prize-setup",
    operation_id="prize_setup_get",
    tags=[PRIZE],
    summary="The prize set-up",
    description=MEMBERS_,
)
def prize_setup_get(request: HttpRequest, slug: str) -> JsonResponse:
    return _ok(setup_view(drive_for(caller_of(request), slug)))


@router.patch(
    PRIZES + "/setup",
    response=answers({200: s.PrizeSetup}, 404, 409, 422, body=True),
    url_name="prize-setup",
    operation_id="prize_setup_patch",
    tags=[PRIZE],
    summary="Change the prize set-up",
    description=f"{ORGANIZERS} Fixed once the ties are opened (409 prizes_opened); the cookie "
    "jar once drawn (409 cookie_jar_drawn). The hall's named prizes: `categories`, each "
    '`{"name": "Hard luck", "rule": "most_lost_in_a_row", "amount": "10.00"}` (a rule unknown: '
    "422 unknown_rule; no name or one too long: 422 bad_field; two of one name: 422 "
    "category_twice); the shares of every prize together at most 100 % (422 shares_over_100); "
    "nothing is written when any is refused.",
)
def prize_setup_patch(request: HttpRequest, slug: str, payload: s.PrizeSetupIn) -> JsonResponse:
    caller = caller_of(request)
    drive = drive_for(caller, slug, roles=(ORGANIZER,))
    prize_setup_update(drive=drive, actor=caller.actor, **payload.sent())
    return _ok(setup_view(drive))


@router.get(
    PRIZES + "/ties",
    response=answers({200: list[s.Tie]}, 404),
    url_name="ties",
    operation_id="ties_list",
    tags=[PRIZE],
    summary="The ties and how each went",
    description=MEMBERS_,
)
def ties_get(request: HttpRequest, slug: str) -> JsonResponse:
    return _ok(ties_list(drive_for(caller_of(request), slug)))


@router.post(
    PRIZES + "/ties",
    response=answers({200: list[s.Tie]}, 404, 409, 422, body=True),
    url_name="ties",
    operation_id="ties_open",
    tags=[PRIZE],
    summary="Award the unshared prizes and open the ties",
    description=f'{ORGANIZERS} After the last game (409 night_not_over; {{"force": true}} to '
    "open earlier). Again: no change; 409 standings_changed if the standings moved since.",
)
def ties_open(request: HttpRequest, slug: str, payload: s.TiesOpen = Body(None)) -> JsonResponse:
    caller = caller_of(request)
    drive = drive_for(caller, slug, roles=(ORGANIZER,))
    force = payload.force if payload is not None else False
    prizes_open_ties(drive=drive, actor=caller.actor, force=force)
    return _ok(ties_list(drive))


@router.post(
    TIE + "/choices",
    response=answers({201: s.Tie}, 404, 409, 422, body=True),
    url_name="tie-choices",
    operation_id="tie_choice",
    tags=[PRIZE],
    summary="Record a tied couple's choice",
    description=f"{MEMBERS_} split, cut, play-off or forfeit; a house rule replaces it. 409 "
    "tie_decided once decided.",
)
def tie_choice_view(request: HttpRequest, slug: str, tie: int, payload: s.Choice) -> JsonResponse:
    caller = caller_of(request)
    drive = drive_for(caller, slug)
    found = tie_get(drive, tie)
    tie_choose(tie=found, couple=payload.couple, choice=payload.choice, actor=caller.actor)
    return _ok(tie_view(tie_get(drive, tie)), 201)


@router.post(
    TIE + "/decide",
    response=answers({200: s.Tie}, 404, 409, 422, body=True),
    url_name="tie-decide",
    operation_id="tie_decide",
    tags=[PRIZE],
    summary="Apply the choice rule",
    description=f"{MEMBERS_} 409 answer_needed names the couples still to choose (or to play "
    "or forfeit); 422 cannot_split for a prize in kind.",
)
def tie_decide_view(
    request: HttpRequest, slug: str, tie: int, payload: s.Empty = Body(None)
) -> JsonResponse:
    caller = caller_of(request)
    drive = drive_for(caller, slug)
    tie_decide(tie=tie_get(drive, tie), actor=caller.actor)
    return _ok(tie_view(tie_get(drive, tie)))


@router.post(
    TIE + "/cut",
    response=answers({201: s.CutDone}, 404, 409, 422, body=True),
    url_name="tie-cut",
    operation_id="tie_cut",
    tags=[PRIZE],
    summary="A cut: cards cut at the table, or a system draw",
    description=f'{MEMBERS_} {{"cards": {{"3": "7H", "5": "2C"}}}} for one round (equal '
    'lowest cut again), or {"draw": true}: the server draws the seed and records it '
    "(cut.seed, the tie's cut_rounds, the export); a seed sent is refused with 422 "
    "seed_not_accepted.",
)
def tie_cut_view(request: HttpRequest, slug: str, tie: int, payload: s.Cut) -> JsonResponse:
    caller = caller_of(request)
    drive = drive_for(caller, slug)
    found = tie_get(drive, tie)
    if payload.draw is True:
        outcome = tie_cut_draw(tie=found, actor=caller.actor)
    else:
        outcome = tie_cut_record(tie=found, cards=payload.cards or {}, actor=caller.actor)
    return _ok({"cut": outcome, "tie": tie_view(tie_get(drive, tie))}, 201)


@router.post(
    TIE + "/playoff",
    response=answers({201: s.PlayoffDone}, 404, 409, 422, body=True),
    url_name="tie-playoff",
    operation_id="tie_playoff",
    tags=[PRIZE],
    summary="A play-off game's result",
    description=f"{MEMBERS_} Validated like any game (the engine's code for an impossible "
    "score; unusual_score needs confirm_unusual).",
)
def tie_playoff_view(request: HttpRequest, slug: str, tie: int, payload: s.Playoff) -> JsonResponse:
    caller = caller_of(request)
    drive = drive_for(caller, slug)
    found = tie_get(drive, tie)
    outcome = tie_playoff_result(
        tie=found,
        match=payload.match,
        winner=payload.winner,
        points=payload.points,
        confirm_unusual=payload.confirm_unusual,
        actor=caller.actor,
    )
    return _ok({"result": outcome, "tie": tie_view(tie_get(drive, tie))}, 201)


@router.get(
    PRIZES + "/cookie-jar",
    response=answers({200: s.CookieJar}, 404),
    url_name="cookie-jar",
    operation_id="cookie_jar",
    tags=[PRIZE],
    summary="The cookie jar",
    description=MEMBERS_,
)
def cookie_jar_get(request: HttpRequest, slug: str) -> JsonResponse:
    return _ok(cookie_jar_view(drive_for(caller_of(request), slug)))


@router.post(
    PRIZES + "/cookie-jar/draw",
    response=answers({201: s.CookieJar}, 404, 409, 422, body=True),
    url_name="cookie-jar-draw",
    operation_id="cookie_jar_draw",
    tags=[PRIZE],
    summary="Draw the cookie jar's games",
    description=f"{ORGANIZERS} {{}} (or no body): the system draws, from a seed the server "
    'draws and records (drawn.seed); or {"games": [3, 7, …]} as drawn from a hat. After the '
    "last game. A seed sent is refused with 422 seed_not_accepted; couples bought in with no "
    "buy-in set, 422 no_buy_in.",
)
def cookie_jar_draw_view(
    request: HttpRequest, slug: str, payload: s.CookieJarDraw = Body(None)
) -> JsonResponse:
    caller = caller_of(request)
    drive = drive_for(caller, slug, roles=(ORGANIZER,))
    games = payload.games if payload is not None else None
    cookie_jar_draw(drive=drive, games=games, actor=caller.actor)
    return _ok(cookie_jar_view(drive), 201)


# --- printed documents ----------------------------------------------------------------------------


def _document_view(request: HttpRequest, document: Document) -> dict[str, Any]:
    kwargs = {"slug": document.drive.slug, "pk": document.pk}
    status = document_status(document)
    return status | {
        "status_url": request.build_absolute_uri(reverse("api:document", kwargs=kwargs)),
        "download_url": request.build_absolute_uri(reverse("api:document-file", kwargs=kwargs))
        if status["ready"]
        else None,
    }


def _document_of(drive: Any, pk: int, user: Any) -> Document:
    """The drive's document ``pk``; 404 when there is none, or the caller may not see it
    (the treasurer's sheet, for a scorer where the organizer keeps the money)."""
    document = Document.objects.select_related("drive").filter(drive=drive, pk=pk).first()
    if document is None or not document_allowed(drive, document.kind, user):
        raise NotFound(
            "no_such_document", gettext("There is no document %(pk)s of this drive.") % {"pk": pk}
        )
    return document


@router.post(
    DOCUMENTS,
    response=answers({200: s.Document, 202: s.Document}, 403, 404, 422, 503, body=True),
    url_name="documents",
    operation_id="document_request",
    tags=[PRINT],
    summary="Print a document",
    description=f"{MEMBERS_} Renders the document in the background (a worker, or in-process "
    "without a broker): 202 with its status URL (Location). A document already rendered from "
    "the same data: 200, download at once. game: the movement sheet's (default: the game in "
    "play) or the score sheets'; couple: one punch card; filled: punch cards with the "
    "recorded wins; accounts: the treasurer's sheet, for the organizers and, where they take "
    "money, the scorers (403 not_allowed for the others). 422 bad_document, bad_paper, "
    "bad_game, no_game, game_not_started, bad_couple, bad_filled, bad_base_url. 503 "
    "print_queue_down: the broker cannot be reached (after a few seconds of retries); the "
    "document (its id in `document`) is marked failed.",
)
def documents_request(request: HttpRequest, slug: str, payload: s.DocumentIn) -> JsonResponse:
    caller = caller_of(request)
    drive = drive_for(caller, slug)
    sent = payload.model_fields_set
    document = document_request(
        drive,
        payload.document,
        caller.actor,
        paper=payload.paper,
        game=payload.game,
        couple=payload.couple,
        filled=payload.filled,
        # Given, it must be a URL (an empty one is refused); not given, this server's own.
        base_url=payload.base_url
        if "base_url" in sent
        else qr_base_url(request) or DEFAULT_BASE_URL,
    )
    document.refresh_from_db()
    body = _document_view(request, document)
    response = _ok(body, 200 if document.up_to_date else 202)
    response["Location"] = body["status_url"]
    return response


@router.get(
    DOCUMENTS + "/{num:pk}",
    response=answers({200: s.Document}, 404),
    url_name="document",
    operation_id="document_status",
    tags=[PRINT],
    summary="A document's status and progress",
    description=MEMBERS_,
)
def document_detail(request: HttpRequest, slug: str, pk: int) -> JsonResponse:
    caller = caller_of(request)
    document = _document_of(drive_for(caller, slug), pk, caller.user)
    return _ok(_document_view(request, document))


@router.get(
    DOCUMENTS + "/{num:pk}/file",
    response=answers({200: None}, 404, 409),
    url_name="document-file",
    operation_id="document_file",
    tags=[PRINT],
    summary="The document's PDF",
    description=f"{MEMBERS_} 409 not_ready until it has been rendered.",
    openapi_extra={
        "responses": {
            200: {
                "description": "The PDF (an attachment)",
                "content": {"application/pdf": {"schema": {"type": "string", "format": "binary"}}},
            }
        }
    },
)
def document_file(request: HttpRequest, slug: str, pk: int) -> FileResponse:
    caller = caller_of(request)
    document = _document_of(drive_for(caller, slug), pk, caller.user)
    if not document.file.name or not document.file.storage.exists(document.file.name):
        raise ServiceError(
            "not_ready",
            gettext("The document is %(status)s: no PDF yet.") % {"status": document.status},
            status=409,
            document_status=document.status,
        )
    return FileResponse(
        document.file.open("rb"),
        as_attachment=True,
        filename=document_filename(document),
        content_type="application/pdf",
    )
