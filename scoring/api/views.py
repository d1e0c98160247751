"""The API's endpoints on django-ninja: each authorises the caller (``scoring.api.auth``), calls
one service or selector and answers with what it returned. No rule of the night is decided
here; the bodies are the models of ``scoring.api.schemas``, and ``/api/v1/openapi.json`` is
built from them.

Every answer is JSON. Errors are ``{"code", "message", ...details}`` with a 4xx status: a
:class:`~drives.errors.ServiceError` from a service keeps its status and body; a body that is
not JSON is 400 ``bad_json``; a body that is not the object (or list) expected is 400
``bad_body``; an unknown field is 422 ``unknown_field``; text no database stores is 422
``bad_text``; a body over 1 MB is 413; a method a URL does not serve is 405 with ``Allow``
(``scoring.api.urls``).
"""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache
from http import HTTPStatus
from typing import Any, cast

from csp.decorators import csp_update
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import RequestDataTooBig
from django.http import FileResponse, HttpRequest, HttpResponse, JsonResponse
from django.urls import register_converter, reverse
from django.utils import timezone
from django.utils.http import content_disposition_header
from django.utils.translation import gettext
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.openapi.docs import Swagger

# ninja.Body(...) and ninja.Query(...) are these functions at run time; for a type checker
# ninja names Annotated aliases instead (Body[T]), which take no call.
from ninja.params.functions import Body, Query
from ninja.parser import Parser

from drives import inputs
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
from drives.text import text_refuse_unstorable
from scoring.api import schemas as s
from scoring.api.auth import (
    AUTH,
    MEMBERS,
    ORGANIZER,
    Caller,
    NotAuthenticated,
    club_for,
    drive_for,
    drives_visible_to,
    memberships_of,
    require_table,
    require_user,
)
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

MAX_BODY = 1_000_000
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


class NumberConverter:
    """A game, table or couple number: 1 to 9 digits (a longer one is no number of ours, and
    would overflow the database's integers)."""

    regex = "[0-9]{1,9}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(NumberConverter, "num")


# --- the frame every endpoint shares -------------------------------------------------------------


class BadRequest(ServiceError):
    status = 400


def _too_large() -> ServiceError:
    return ServiceError(
        "body_too_large",
        gettext("The body is larger than %(MAX_BODY)s bytes.") % {"MAX_BODY": f"{MAX_BODY:,}"},
        status=413,
    )


def _body(request: HttpRequest) -> bytes:
    try:
        body = request.body
    except RequestDataTooBig:
        raise _too_large() from None
    if len(body) > MAX_BODY:
        raise _too_large()
    return body


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


class JsonBody(Parser):
    """The body as JSON: 413 over 1 MB, 400 ``bad_json`` (NaN and Infinity too), and 422
    ``bad_text`` for text no database stores, wherever it is; then the endpoint's model."""

    def parse_body(self, request: HttpRequest) -> Any:
        raw = _body(request)
        if not raw.strip():
            raise BadRequest("missing_body", "Send a JSON body.")
        try:
            data = json.loads(raw, parse_constant=_reject_constant)
        except RecursionError:
            raise BadRequest("bad_json", "The body is not valid JSON: nested too deeply.") from None
        except ValueError as error:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
            raise BadRequest("bad_json", f"The body is not valid JSON: {error}.") from None
        text_refuse_unstorable(data)  # NUL or a lone surrogate ("\udc00"): 422 bad_text
        return data


def error_response(error: ServiceError) -> JsonResponse:
    response = JsonResponse(error.to_dict(), status=error.status)
    if error.status == 401:
        extra = ', error="invalid_token"' if error.code == "bad_token" else ""
        response["WWW-Authenticate"] = f'Bearer realm="api"{extra}'
    if error.status == 429 and "retry_after" in error.details:
        response["Retry-After"] = str(error.details["retry_after"])
    return response


def refusal(errors: list[dict[str, Any]]) -> ServiceError:
    """The refusal of what ninja could not read (``drives.inputs.refusal``, each error's place
    taken from inside the body or the query): a body that is not the object expected is 400."""
    inside = [
        {**e, "loc": tuple(e["loc"][2:] if e["loc"][:1] == ("body",) else e["loc"][1:])}
        for e in errors
    ]
    first = inside[0]
    whole_body = (
        errors[0]["loc"][:1] == ("body",)
        and not first["loc"]
        and inputs.REFUSAL not in (first.get("ctx") or {})
        and not any(e["type"] == "extra_forbidden" for e in inside)
    )
    if whole_body and first["type"] == "missing":
        return BadRequest("missing_body", "Send a JSON body.")
    if whole_body:
        return BadRequest("bad_body", "The body must be a JSON object.")
    return inputs.refusal(inside)


class Api(NinjaAPI):
    """The API: one description, built from the schemas once per process, with paths
    relative to its server (``/api/v1``) as they have always been."""

    @cache  # noqa: B019 - one API object, alive as long as the process
    def _schema(self) -> dict[str, Any]:
        schema = dict(super().get_openapi_schema(path_prefix=""))
        for item in schema["paths"].values():
            for operation in item.values():
                for parameter in operation["parameters"]:
                    if parameter["in"] == "path":
                        parameter.update(PATH_PARAMETERS[parameter["name"]])
                for status, answer in operation["responses"].items():
                    if (
                        int(status) >= 400
                        and answer["description"] == HTTPStatus(int(status)).phrase
                    ):
                        answer["description"] = ERRORS.get(int(status), answer["description"])
        for name, text in SECURITY.items():
            schema["components"]["securitySchemes"][name]["description"] = text
        served: dict[str, Any] = json.loads(json.dumps(schema))  # as served: codes as strings
        return served

    def get_openapi_schema(self, **kwargs: Any) -> Any:
        return self._schema()


NUMBER = {"type": "integer", "minimum": 1, "maximum": 999_999_999}
PATH_PARAMETERS: dict[str, dict[str, Any]] = {
    "slug": {
        "description": "The drive's slug.",
        "schema": {"type": "string", "pattern": "^[-a-zA-Z0-9_]+$"},
    },
    "n": {"description": "The game's number (1 = the first game).", "schema": NUMBER},
    "t": {"description": "The table's number.", "schema": NUMBER},
    "number": {"description": "The couple's number.", "schema": NUMBER},
    "call": {"description": "The call's id (from GET …/calls).", "schema": NUMBER},
    "tie": {"description": "The tie's id (from GET …/prizes/ties).", "schema": NUMBER},
    "pk": {"description": "The document's id (from POST …/documents).", "schema": NUMBER},
    "club": {"description": "The club's slug.", "schema": {"type": "string"}},
    "season": {"description": "The season's slug (within its club).", "schema": {"type": "string"}},
    # the night's money (money/api.py)
    "line": {"description": "The ledger line's id (from GET …/accounts).", "schema": NUMBER},
    "raffle": {"description": "The raffle item's id (from POST …/raffles).", "schema": NUMBER},
    "game_id": {
        "description": "The practice game's id (from POST /practice).",
        "schema": {"type": "string", "format": "uuid"},
    },
}
SECURITY = {
    "BearerToken": "An organizer's or scorer's API token (manage.py apitoken), a table's token "
    "or a couple's token.",
    "Session": "The browser session; unsafe methods need the CSRF token in X-CSRFToken.",
}
ERRORS = {
    400: "The body is not JSON (`bad_json`), not the object or list expected (`bad_body`), or "
    "missing (`missing_body`).",
    401: "No credentials (`not_authenticated`) or a token that is nobody's (`bad_token`).",
    403: "Not allowed: a member without the role (`forbidden`), a closed drive's token "
    "(`token_expired`), another table (`wrong_table`), a token where an account is needed "
    "(`token_not_allowed`), a failed CSRF check of a session request (`csrf_failed`).",
    404: "No such drive, or a drive of another club, or a token of another drive "
    "(`not_found`); no such game or couple.",
    409: "In the way of something already there.",
    413: "The body is larger than 1 MB (`body_too_large`).",
    415: "The body is not text/csv (`unsupported_media_type`).",
    422: "Invalid: the `code` names the problem (an engine code for a score, e.g. "
    "`not_whole_hands`; `unusual_score`; `wrong_couple`; `drive_closed`; `unknown_field`; "
    "`bad_text`: a NUL or a lone surrogate, its place in `path`).",
    429: "Too many unknown tokens from this address (`rate_limited`): wait `retry_after` "
    "seconds (also in the `Retry-After` header).",
    503: "The print queue (the broker) is not reachable (`print_queue_down`): the document is "
    "marked failed; try again in a moment.",
}


class MembersOnlySwagger(Swagger):
    """Swagger UI from ninja's own static files (no CDN: the hall may be offline), for a
    logged-in member; anyone else is sent to the login page first."""

    def render_page(self, request: HttpRequest, api: Any, **kwargs: Any) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        render = super().render_page

        def page(request: HttpRequest) -> HttpResponse:
            return render(request, api, **kwargs)

        # The decorator hands back the page's own response, its policy updated.
        return cast(HttpResponse, _swagger_csp(page)(request))


# Swagger UI draws its icons from data: URIs: allowed on its page alone (django-csp's per-view
# update; the site's policy, the description's included, stays img-src 'self').
_swagger_csp = csp_update({"img-src": ["data:"]})


api = Api(
    title="Forty-Fives Card Drives API",
    version="1",
    description="Every action of a 45 card drive. Errors are JSON "
    '{"code", "message", …details} with a 4xx status. See docs/api.md.',
    urls_namespace="api",
    auth=AUTH,
    parser=JsonBody(),
    docs=MembersOnlySwagger(),
    docs_url="/docs",
    openapi_url="/openapi.json",
    servers=[{"url": "/api/v1"}],
)


@api.exception_handler(ServiceError)
def _service_error(request: HttpRequest, error: ServiceError) -> HttpResponse:
    return error_response(error)


@api.exception_handler(ValidationError)
def _validation_error(request: HttpRequest, error: ValidationError) -> HttpResponse:
    return error_response(refusal(error.errors))


@api.exception_handler(AuthenticationError)
def _no_credentials(request: HttpRequest, error: AuthenticationError) -> HttpResponse:
    return error_response(
        NotAuthenticated(
            "not_authenticated", "Log in, or send an API token: Authorization: Bearer <token>."
        )
    )


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, error: HttpError) -> HttpResponse:
    # ninja wraps what the parser raised ("Cannot parse request body"): answer with that.
    cause = error.__cause__
    if isinstance(cause, ServiceError):
        return error_response(cause)
    return error_response(ServiceError("bad_request", str(error), status=error.status_code))


@api.exception_handler(RequestDataTooBig)
def _too_big(request: HttpRequest, error: RequestDataTooBig) -> HttpResponse:
    return error_response(_too_large())


def answers(ok: dict[int, Any], *errors: int, body: bool = False) -> dict[int, Any]:
    """The responses an operation documents: ``ok`` and the errors, with those every
    authenticated endpoint may give (401, 403, 429) and those of a body (400, 413)."""
    shown = set(errors) | {401, 403, 429} | ({400, 413} if body else set())
    return ok | {status: s.Error for status in sorted(shown)}


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


def _caller(request: HttpRequest) -> Caller:
    return request.auth  # type: ignore[attr-defined, no-any-return]  # set by ninja's auth: a Caller


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


@api.get(
    "/me",
    response=answers({200: s.Me}),
    url_name="me",
    operation_id="me",
    tags=[WHO],
    summary="Who the session or token is",
    description="A user with their clubs and roles, or a token's table or couple and drive.",
)
def me(request: HttpRequest) -> JsonResponse:
    caller = _caller(request)
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


@api.get(
    "/drives",
    response=answers({200: list[s.Drive]}),
    url_name="drives",
    operation_id="drives_list",
    tags=[DRIVES],
    summary="The drives of the caller's clubs",
    description="Drives, newest first.",
)
def drives_list(request: HttpRequest) -> JsonResponse:
    user = require_user(_caller(request))
    return _ok([drive_answer(drive) for drive in drives_visible_to(user)])


@api.post(
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
    caller = _caller(request)
    data = payload.sent()
    club = club_for(caller, data.pop("club", None))
    drive = drive_create(club=club, actor=caller.actor, **data)
    return _ok(drive_answer(drive), 201)


@api.get(
    D,
    response=answers({200: s.DriveDetail}, 404),
    url_name="drive",
    operation_id="drive_get",
    tags=[DRIVES],
    summary="A drive, its counts and the game in play",
    description=READERS,
)
def drive_detail(request: HttpRequest, slug: str) -> JsonResponse:
    drive = drive_for(_caller(request), slug, tokens=True)
    view = game_view(drive, drive.current_game) if drive.current_game else None
    progress = None if view is None else {key: view[key] for key in GAME_PROGRESS}
    return _ok(drive_answer(drive) | {"counts": drive_counts(drive), "game": progress})


@api.patch(
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
    caller = _caller(request)
    drive = drive_for(caller, slug, roles=(ORGANIZER,))
    drive = drive_update(drive=drive, actor=caller.actor, **payload.sent())
    return _ok(drive_answer(drive))


@api.post(
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
    caller = _caller(request)
    drive = drive_for(caller, slug, roles=(ORGANIZER,))
    data = payload.sent() if payload is not None else {}
    game = drive_start(drive=drive, actor=caller.actor, **data)
    return _game(drive, game.number, 201)


@api.post(
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
    caller = _caller(request)
    drive = drive_for(caller, slug, roles=(ORGANIZER,))
    return _ok(drive_answer(drive_close(drive=drive, actor=caller.actor)))


# --- couples ------------------------------------------------------------------------------------


@api.get(
    D + "/couples",
    response=answers({200: list[s.Couple]}, 404),
    url_name="couples",
    operation_id="couples_list",
    tags=[COUPLES],
    summary="The couples, by number",
    description=MEMBERS_,
)
def couples_list(request: HttpRequest, slug: str) -> JsonResponse:
    drive = drive_for(_caller(request), slug)
    return _ok([couple_summary(c) for c in drive.couples.order_by("number")])


@api.post(
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
    caller = _caller(request)
    drive = drive_for(caller, slug, roles=MEMBERS)
    data = [payload] if isinstance(payload, dict) else payload
    if not isinstance(data, list):
        raise BadRequest("bad_body", "The body must be a couple (an object) or a list of them.")
    couples = couples_register(
        drive=drive, couples=data, actor=caller.actor, allow_duplicates=False
    )
    return _ok([couple_summary(c) for c in couples], 201)


@api.post(
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
    caller = _caller(request)
    drive = drive_for(caller, slug, roles=MEMBERS)
    if request.content_type not in CSV_TYPES:
        raise ServiceError(
            "unsupported_media_type",
            gettext("Send the file as text/csv (a header player1,player2, one couple a line)."),
            status=415,
        )
    couples = couples_import_csv(
        drive=drive, data=_body(request), actor=caller.actor, allow_duplicates=allow_duplicates
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


@api.patch(
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
    caller = _caller(request)
    drive = drive_for(caller, slug, roles=MEMBERS)
    couple = couple_update(couple=_couple(drive, number), actor=caller.actor, **payload.sent())
    return _ok(couple_summary(couple))


@api.delete(
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
    caller = _caller(request)
    drive = drive_for(caller, slug, roles=MEMBERS)
    couple_delete(couple=_couple(drive, number), actor=caller.actor)
    return HttpResponse(status=204)


# --- games and results --------------------------------------------------------------------------


@api.get(
    D + "/games/current",
    response=answers({200: s.Game}, 404),
    url_name="game-current",
    operation_id="game_current",
    tags=[GAMES],
    summary="The game in play",
    description=READERS,
)
def game_current(request: HttpRequest, slug: str) -> JsonResponse:
    drive = drive_for(_caller(request), slug, tokens=True)
    if not drive.current_game:
        raise NotFound("not_started", gettext("The night has not started."))
    return _game(drive, drive.current_game)


@api.get(
    GAME,
    response=answers({200: s.Game}, 404),
    url_name="game",
    operation_id="game_get",
    tags=[GAMES],
    summary="A game: seating, who deals, results, missing tables",
    description=READERS,
)
def game_detail(request: HttpRequest, slug: str, n: int) -> JsonResponse:
    return _game(drive_for(_caller(request), slug, tokens=True), n)


@api.post(
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
    caller = _caller(request)
    drive = drive_for(caller, slug)
    require_role(drive, caller.user, *drive.advance_roles())  # scorers too, if the drive says so
    status, game = game_advance(drive=drive, game=n, actor=caller.actor)
    return _game(drive, game.number, status)


@api.put(
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
    caller = _caller(request)
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


@api.post(
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
    caller = _caller(request)
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


@api.post(
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
    caller = _caller(request)
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


@api.post(
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
    caller = _caller(request)
    drive = drive_for(caller, slug, tokens=True)
    require_table(caller, drive, n, t)
    reason = payload.reason if payload is not None else None
    call = call_open(drive=drive, game=n, table=t, reason=reason, actor=caller.actor)
    return _call(call, 201)


@api.get(
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
    drive = drive_for(_caller(request), slug)
    calls = calls_waiting(drive)
    keys = ("id", "state", "table", "game", "reason", "waited_s")
    return _ok([{key: call[key] for key in keys} for call in calls])


@api.post(
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
    caller = _caller(request)
    drive = drive_for(caller, slug)
    return _call(call_answer(drive=drive, call=call, actor=caller.actor))


@api.post(
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
    caller = _caller(request)
    drive = drive_for(caller, slug)
    return _call(call_close(drive=drive, call=call, actor=caller.actor))


# --- standings and the end of the night -----------------------------------------------------------


@api.get(
    D + "/standings",
    response=answers({200: list[s.Standing]}, 404),
    url_name="standings",
    operation_id="standings",
    tags=[END],
    summary="Standings with places",
    description=READERS,
)
def standings(request: HttpRequest, slug: str) -> JsonResponse:
    return _ok(standings_for_drive(drive_for(_caller(request), slug, tokens=True)))


@api.get(
    D + "/grid",
    response=answers({200: list[s.GridRow]}, 404),
    url_name="grid",
    operation_id="grid",
    tags=[END],
    summary="The win grid: per couple, game by game",
    description=READERS,
)
def grid(request: HttpRequest, slug: str) -> JsonResponse:
    return _ok(win_grid(drive_for(_caller(request), slug, tokens=True)))


@api.get(
    D + "/tables",
    response=answers({200: list[s.CurrentTable]}, 404),
    url_name="tables",
    operation_id="tables",
    tags=[GAMES],
    summary="Couple → table in the game in play",
    description=READERS,
)
def tables(request: HttpRequest, slug: str) -> JsonResponse:
    return _ok(current_tables(drive_for(_caller(request), slug, tokens=True)))


@api.get(
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
    drive = drive_for(_caller(request), slug)
    response = _ok(drive_export(drive))
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=f"{drive.slug}.json"
    )
    return response


@api.get(
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


@api.post(
    D + "/holes",
    response=answers({200: s.HolesRecorded}, 404, 422, body=True),
    url_name="holes",
    operation_id="holes",
    tags=[END],
    summary="Record the holes counted on punch cards",
    description=MEMBERS_,
)
def holes(request: HttpRequest, slug: str, payload: s.Holes) -> JsonResponse:
    caller = _caller(request)
    drive = drive_for(caller, slug, roles=MEMBERS)
    holes_record(drive=drive, holes=payload.holes, actor=caller.actor)
    return _ok({"recorded": len(payload.holes), "reconciliation": reconciliation(drive)})


@api.get(
    D + "/reconciliation",
    response=answers({200: list[s.Mismatch]}, 404),
    url_name="reconciliation",
    operation_id="reconciliation",
    tags=[END],
    summary="Punch cards against recorded wins",
    description=f"{MEMBERS_} Couples whose holes differ from their wins.",
)
def reconciliation_view(request: HttpRequest, slug: str) -> JsonResponse:
    return _ok(reconciliation(drive_for(_caller(request), slug)))


# --- prizes and ties ----------------------------------------------------------------------------


@api.get(
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
    return _ok(prize_table(drive_for(_caller(request), slug)))


@api.get(
    PRIZES + "/setup",
    response=answers({200: s.PrizeSetup}, 404),
    url_name="prize-setup",
    operation_id="prize_setup_get",
    tags=[PRIZE],
    summary="The prize set-up",
    description=MEMBERS_,
)
def prize_setup_get(request: HttpRequest, slug: str) -> JsonResponse:
    return _ok(setup_view(drive_for(_caller(request), slug)))


@api.patch(
    PRIZES + "/setup",
    response=answers({200: s.PrizeSetup}, 404, 409, 422, body=True),
    url_name="prize-setup",
    operation_id="prize_setup_patch",
    tags=[PRIZE],
    summary="Change the prize set-up",
    description=f"{ORGANIZERS} Fixed once the ties are opened (409 prizes_opened); the cookie "
    "jar once drawn (409 cookie_jar_drawn).",
)
def prize_setup_patch(request: HttpRequest, slug: str, payload: s.PrizeSetupIn) -> JsonResponse:
    caller = _caller(request)
    drive = drive_for(caller, slug, roles=(ORGANIZER,))
    prize_setup_update(drive=drive, actor=caller.actor, **payload.sent())
    return _ok(setup_view(drive))


@api.get(
    PRIZES + "/ties",
    response=answers({200: list[s.Tie]}, 404),
    url_name="ties",
    operation_id="ties_list",
    tags=[PRIZE],
    summary="The ties and how each went",
    description=MEMBERS_,
)
def ties_get(request: HttpRequest, slug: str) -> JsonResponse:
    return _ok(ties_list(drive_for(_caller(request), slug)))


@api.post(
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
    caller = _caller(request)
    drive = drive_for(caller, slug, roles=(ORGANIZER,))
    force = payload.force if payload is not None else False
    prizes_open_ties(drive=drive, actor=caller.actor, force=force)
    return _ok(ties_list(drive))


@api.post(
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
    caller = _caller(request)
    drive = drive_for(caller, slug)
    found = tie_get(drive, tie)
    tie_choose(tie=found, couple=payload.couple, choice=payload.choice, actor=caller.actor)
    return _ok(tie_view(tie_get(drive, tie)), 201)


@api.post(
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
    caller = _caller(request)
    drive = drive_for(caller, slug)
    tie_decide(tie=tie_get(drive, tie), actor=caller.actor)
    return _ok(tie_view(tie_get(drive, tie)))


@api.post(
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
    caller = _caller(request)
    drive = drive_for(caller, slug)
    found = tie_get(drive, tie)
    if payload.draw is True:
        outcome = tie_cut_draw(tie=found, actor=caller.actor)
    else:
        outcome = tie_cut_record(tie=found, cards=payload.cards or {}, actor=caller.actor)
    return _ok({"cut": outcome, "tie": tie_view(tie_get(drive, tie))}, 201)


@api.post(
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
    caller = _caller(request)
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


@api.get(
    PRIZES + "/cookie-jar",
    response=answers({200: s.CookieJar}, 404),
    url_name="cookie-jar",
    operation_id="cookie_jar",
    tags=[PRIZE],
    summary="The cookie jar",
    description=MEMBERS_,
)
def cookie_jar_get(request: HttpRequest, slug: str) -> JsonResponse:
    return _ok(cookie_jar_view(drive_for(_caller(request), slug)))


@api.post(
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
    caller = _caller(request)
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


@api.post(
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
    caller = _caller(request)
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


@api.get(
    DOCUMENTS + "/{num:pk}",
    response=answers({200: s.Document}, 404),
    url_name="document",
    operation_id="document_status",
    tags=[PRINT],
    summary="A document's status and progress",
    description=MEMBERS_,
)
def document_detail(request: HttpRequest, slug: str, pk: int) -> JsonResponse:
    caller = _caller(request)
    document = _document_of(drive_for(caller, slug), pk, caller.user)
    return _ok(_document_view(request, document))


@api.get(
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
    caller = _caller(request)
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


# --- anything else ------------------------------------------------------------------------------


def not_found(request: HttpRequest, path: str = "") -> JsonResponse:
    return error_response(
        NotFound(
            "no_such_endpoint", gettext("There is no API endpoint /%(path)s.") % {"path": path}
        )
    )


not_found.csrf_exempt = True  # type: ignore[attr-defined]  # what csrf_exempt sets
