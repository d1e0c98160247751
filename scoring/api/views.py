"""The API's views: each parses the request, authorises the caller (``scoring.api.auth``),
calls one service or selector and renders JSON. No rule of the night is decided here.

Every answer is JSON. Errors are ``{"code", "message", ...details}`` with a 4xx status: a
:class:`~drives.errors.ServiceError` from a service keeps its status and body; a body that is
not JSON is 400 ``bad_json``; a body that is not the object (or list) expected is 400
``bad_body``; an unknown field is 422 ``unknown_field``; a body over 1 MB is 413; a method a
URL does not serve is 405 with ``Allow``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import FileResponse, HttpRequest, HttpResponse, JsonResponse
from django.http.request import RawPostDataException
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.views.decorators.csrf import csrf_exempt

from drives.errors import NotFound, ServiceError
from drives.models import Couple
from drives.services import (
    COUPLE_FLAGS,
    DRIVE_SETTINGS,
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
from scoring.api.auth import (
    MEMBERS,
    ORGANIZER,
    SAFE_METHODS,
    Caller,
    authenticate,
    check_csrf,
    club_for,
    drive_for,
    drives_visible_to,
    memberships_of,
    require_table,
    require_user,
)
from scoring.api.openapi import openapi_spec
from scoring.models import Document
from scoring.printing.rendering import DEFAULT_BASE_URL, document_filename
from scoring.printing.services import document_request, document_status
from scoring.prizes.selectors import cookie_jar_view, prize_table, setup_view, tie_view, ties_list
from scoring.prizes.services import (
    SETUP_FIELDS,
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
from scoring.selectors import (
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

Handler = Callable[..., JsonResponse]


# --- the frame every endpoint shares -------------------------------------------------------------


class BadRequest(ServiceError):
    status = 400


def _error_response(error: ServiceError) -> JsonResponse:
    response = JsonResponse(error.to_dict(), status=error.status)
    if error.status == 401:
        extra = ', error="invalid_token"' if error.code == "bad_token" else ""
        response["WWW-Authenticate"] = f'Bearer realm="api"{extra}'
    if error.status == 429 and "retry_after" in error.details:
        response["Retry-After"] = str(error.details["retry_after"])
    return response


def endpoint(*, public: bool = False, **handlers: Handler) -> Callable[..., JsonResponse]:
    """One URL's view: ``handlers`` by HTTP method, each called as ``handler(request, caller,
    **url_kwargs)``. Authentication (unless ``public``), the CSRF check of session requests,
    the body size limit and the translation of errors to JSON happen here once."""
    methods = sorted(handlers)

    @csrf_exempt
    def view(request: HttpRequest, **kwargs: Any) -> JsonResponse:
        handler = handlers.get(request.method or "")
        if handler is None:
            response = _error_response(
                ServiceError(
                    "method_not_allowed",
                    f"{request.method} is not allowed here; use {' or '.join(methods)}.",
                    status=405,
                    allowed=methods,
                )
            )
            response["Allow"] = ", ".join(methods)
            return response
        try:
            _check_length(request)
            caller = None if public else authenticate(request)
            if (
                caller is not None
                and caller.via == "session"
                and request.method not in SAFE_METHODS
            ):
                check_csrf(request)
            return handler(request, caller, **kwargs)
        except ServiceError as error:
            return _error_response(error)

    view.methods = methods  # type: ignore[attr-defined]
    return view


def _check_length(request: HttpRequest) -> None:
    declared = request.META.get("CONTENT_LENGTH") or "0"
    try:
        length = int(declared)
    except ValueError:
        raise BadRequest("bad_request", "Content-Length is not a number.") from None
    if length > MAX_BODY:
        raise _too_large()


def _too_large() -> ServiceError:
    return ServiceError(
        "body_too_large", f"The body is larger than {MAX_BODY:,} bytes.", status=413
    )


def _body(request: HttpRequest) -> bytes:
    try:
        body = request.body
    except RequestDataTooBig:
        raise _too_large() from None
    except RawPostDataException:  # pragma: no cover - the API never reads request.POST
        raise BadRequest("bad_body", "The body could not be read.") from None
    if len(body) > MAX_BODY:
        raise _too_large()
    return body


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _json(request: HttpRequest, *, optional: bool = False) -> Any:
    """The JSON body (``{}`` for an empty one when ``optional``); 400 if it is not JSON."""
    raw = _body(request)
    if not raw.strip():
        if optional:
            return {}
        raise BadRequest("missing_body", "Send a JSON body.")
    try:
        data = json.loads(raw, parse_constant=_reject_constant)
    except RecursionError:
        raise BadRequest("bad_json", "The body is not valid JSON: nested too deeply.") from None
    except ValueError as error:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise BadRequest("bad_json", f"The body is not valid JSON: {error}.") from None
    text_refuse_unstorable(data)  # NUL or a lone surrogate ("\udc00"): 422 bad_text
    return data


def _object(request: HttpRequest, allowed: Any, *, optional: bool = False) -> dict[str, Any]:
    """The body as a JSON object with only ``allowed`` fields."""
    data = _json(request, optional=optional)
    if not isinstance(data, dict):
        raise BadRequest("bad_body", "The body must be a JSON object.")
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise ServiceError("unknown_field", f"Unknown field {unknown[0]!r}.", field=unknown[0])
    return data


def _no_seed(data: dict[str, Any]) -> None:
    """A draw's seed is the server's to draw (``scoring.prizes.services.new_seed``), not the
    caller's."""
    if "seed" in data:
        raise ServiceError(
            "seed_not_accepted",
            "The seed of a draw is drawn by the server and recorded with it; it cannot be sent.",
            field="seed",
        )


def _ok(data: Any, status: int = 200) -> JsonResponse:
    return JsonResponse(data, status=status, safe=False, json_dumps_params={"ensure_ascii": False})


def _no_such_game(number: int) -> NotFound:
    return NotFound("no_such_game", f"Game {number} has not started.", game=number)


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


# --- drives -------------------------------------------------------------------------------------


def drives_list(request: HttpRequest, caller: Caller) -> JsonResponse:
    user = require_user(caller)
    return _ok([drive_summary(drive) for drive in drives_visible_to(user)])


def drives_create(request: HttpRequest, caller: Caller) -> JsonResponse:
    data = _object(request, {"club", *DRIVE_SETTINGS})
    club = club_for(caller, data.pop("club", None))
    drive = drive_create(club=club, actor=caller.actor, **data)
    return _ok(drive_summary(drive), 201)


def drive_detail(request: HttpRequest, caller: Caller, slug: str) -> JsonResponse:
    drive = drive_for(caller, slug, tokens=True)
    view = game_view(drive, drive.current_game) if drive.current_game else None
    progress = None if view is None else {key: view[key] for key in GAME_PROGRESS}
    return _ok(drive_summary(drive) | {"counts": drive_counts(drive), "game": progress})


def drive_patch(request: HttpRequest, caller: Caller, slug: str) -> JsonResponse:
    drive = drive_for(caller, slug, roles=(ORGANIZER,))
    data = _object(request, DRIVE_SETTINGS)
    drive = drive_update(drive=drive, actor=caller.actor, **data)
    return _ok(drive_summary(drive))


def drive_start_view(request: HttpRequest, caller: Caller, slug: str) -> JsonResponse:
    drive = drive_for(caller, slug, roles=(ORGANIZER,))
    data = _object(request, {"seating", "seed", "absent"}, optional=True)
    game = drive_start(drive=drive, actor=caller.actor, **data)
    return _game(drive, game.number, 201)


def drive_close_view(request: HttpRequest, caller: Caller, slug: str) -> JsonResponse:
    drive = drive_for(caller, slug, roles=(ORGANIZER,))
    _object(request, (), optional=True)
    return _ok(drive_summary(drive_close(drive=drive, actor=caller.actor)))


# --- couples ------------------------------------------------------------------------------------


def couples_list(request: HttpRequest, caller: Caller, slug: str) -> JsonResponse:
    drive = drive_for(caller, slug)
    return _ok([couple_summary(c) for c in drive.couples.order_by("number")])


def couples_add(request: HttpRequest, caller: Caller, slug: str) -> JsonResponse:
    drive = drive_for(caller, slug, roles=MEMBERS)
    data = _json(request)
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        raise BadRequest("bad_body", "The body must be a couple (an object) or a list of them.")
    couples = couples_register(
        drive=drive, couples=data, actor=caller.actor, allow_duplicates=False
    )
    return _ok([couple_summary(c) for c in couples], 201)


def couples_import(request: HttpRequest, caller: Caller, slug: str) -> JsonResponse:
    drive = drive_for(caller, slug, roles=MEMBERS)
    if request.content_type not in CSV_TYPES:
        raise ServiceError(
            "unsupported_media_type",
            "Send the file as text/csv (a header player1,player2, one couple a line).",
            status=415,
        )
    couples = couples_import_csv(
        drive=drive,
        data=_body(request),
        actor=caller.actor,
        allow_duplicates=_query_flag(request, "allow_duplicates"),
    )
    return _ok([couple_summary(c) for c in couples], 201)


def _query_flag(request: HttpRequest, name: str) -> bool:
    """A yes/no query parameter (``?name=true``): false when absent, 422 when not a yes/no."""
    value = request.GET.get(name, "false").strip().lower()
    if value not in ("true", "false", "1", "0"):
        raise ServiceError("bad_field", f"{name} must be true or false.", field=name)
    return value in ("true", "1")


def _couple(drive: Any, number: int) -> Couple:
    couple = Couple.objects.filter(drive=drive, number=number).first()
    if couple is None:
        raise NotFound("no_such_couple", f"There is no couple {number}.", couple=number)
    couple.drive = drive
    return couple


def couple_delete_view(request: HttpRequest, caller: Caller, slug: str, number: int) -> Any:
    drive = drive_for(caller, slug, roles=MEMBERS)
    couple_delete(couple=_couple(drive, number), actor=caller.actor)
    return HttpResponse(status=204)


def couple_patch(request: HttpRequest, caller: Caller, slug: str, number: int) -> JsonResponse:
    drive = drive_for(caller, slug, roles=MEMBERS)
    couple = _couple(drive, number)
    data = _object(request, {"players", "player1", "player2", "withdrawn", *COUPLE_FLAGS})
    couple = couple_update(couple=couple, actor=caller.actor, **data)
    return _ok(couple_summary(couple))


# --- games and results --------------------------------------------------------------------------


def game_detail(request: HttpRequest, caller: Caller, slug: str, n: int) -> JsonResponse:
    drive = drive_for(caller, slug, tokens=True)
    return _game(drive, n)


def game_current(request: HttpRequest, caller: Caller, slug: str) -> JsonResponse:
    drive = drive_for(caller, slug, tokens=True)
    if not drive.current_game:
        raise NotFound("not_started", "The night has not started.")
    return _game(drive, drive.current_game)


def result_put(request: HttpRequest, caller: Caller, slug: str, n: int, t: int) -> JsonResponse:
    drive = drive_for(caller, slug, tokens=True)
    require_table(caller, drive, n, t)
    data = _object(request, {"winner", "points", "key", "confirm_unusual"})
    recorded = result_record(
        drive=drive,
        game=n,
        table=t,
        winner=data.get("winner"),
        points=data.get("points"),
        key=data.get("key"),
        confirm_unusual=data.get("confirm_unusual", False),
        actor=caller.actor,
    )
    return _result(recorded, n, t)


def result_confirm_view(
    request: HttpRequest, caller: Caller, slug: str, n: int, t: int
) -> JsonResponse:
    drive = drive_for(caller, slug, tokens=True)
    if caller.kind != "couple":
        raise ServiceError(
            "couple_token_required",
            "The other couple confirms a result with the token of its punch card.",
            status=403,
        )
    require_table(caller, drive, n, t)
    data = _object(request, {"accept"})
    recorded = result_confirm(
        drive=drive,
        couple=caller.couple,  # type: ignore[arg-type]
        game=n,
        accept=data.get("accept"),
        actor=caller.actor,
    )
    return _result(recorded, n, t)


def result_resolve_view(
    request: HttpRequest, caller: Caller, slug: str, n: int, t: int
) -> JsonResponse:
    drive = drive_for(caller, slug, roles=MEMBERS)
    data = _object(request, {"winner", "reason", "points"})
    recorded = result_resolve(
        drive=drive,
        game=n,
        table=t,
        winner=data.get("winner"),
        reason=data.get("reason"),
        points=data.get("points"),
        actor=caller.actor,
    )
    return _result(recorded, n, t)


def game_advance_view(request: HttpRequest, caller: Caller, slug: str, n: int) -> JsonResponse:
    drive = drive_for(caller, slug)
    require_role(drive, caller.user, *drive.advance_roles())  # scorers too, if the drive says so
    _object(request, (), optional=True)
    status, game = game_advance(drive=drive, game=n, actor=caller.actor)
    return _game(drive, game.number, status)


# --- standings and the end of the night -----------------------------------------------------------


def standings(request: HttpRequest, caller: Caller, slug: str) -> JsonResponse:
    return _ok(standings_for_drive(drive_for(caller, slug, tokens=True)))


def grid(request: HttpRequest, caller: Caller, slug: str) -> JsonResponse:
    return _ok(win_grid(drive_for(caller, slug, tokens=True)))


def tables(request: HttpRequest, caller: Caller, slug: str) -> JsonResponse:
    return _ok(current_tables(drive_for(caller, slug, tokens=True)))


def export(request: HttpRequest, caller: Caller, slug: str) -> JsonResponse:
    """The drive's full record, as a file named after the drive: a browser following the
    dashboard's link saves ``<slug>.json`` instead of showing the text."""
    drive = drive_for(caller, slug)
    response = _ok(drive_export(drive))
    response["Content-Disposition"] = content_disposition_header(
        as_attachment=True, filename=f"{drive.slug}.json"
    )
    return response


def holes(request: HttpRequest, caller: Caller, slug: str) -> JsonResponse:
    drive = drive_for(caller, slug, roles=MEMBERS)
    data = _object(request, {"holes"})
    counted = data.get("holes")
    if not isinstance(counted, dict) or not counted:
        raise ServiceError(
            "bad_holes", 'holes maps couple numbers to counts, like {"12": 18}.', field="holes"
        )
    by_number: dict[int, Any] = {}
    for key, count in counted.items():
        if not (key.isascii() and key.isdigit() and 0 < len(key) <= 9):
            raise ServiceError("unknown_couple", f"{key!r} is not a couple number.", field="holes")
        by_number[int(key)] = count
    holes_record(drive=drive, holes=by_number, actor=caller.actor)
    return _ok({"recorded": len(by_number), "reconciliation": reconciliation(drive)})


def reconciliation_view(request: HttpRequest, caller: Caller, slug: str) -> JsonResponse:
    return _ok(reconciliation(drive_for(caller, slug)))


# --- who am I, and the description --------------------------------------------------------------


def me(request: HttpRequest, caller: Caller) -> JsonResponse:
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


def openapi(request: HttpRequest, caller: None) -> JsonResponse:
    return _ok(openapi_spec())


# --- prizes and ties ----------------------------------------------------------------------------


def prizes_view(request: HttpRequest, caller: Caller, slug: str) -> JsonResponse:
    return _ok(prize_table(drive_for(caller, slug)))


def prize_setup_get(request: HttpRequest, caller: Caller, slug: str) -> JsonResponse:
    return _ok(setup_view(drive_for(caller, slug)))


def prize_setup_patch(request: HttpRequest, caller: Caller, slug: str) -> JsonResponse:
    drive = drive_for(caller, slug, roles=(ORGANIZER,))
    data = _object(request, SETUP_FIELDS)
    prize_setup_update(drive=drive, actor=caller.actor, **data)
    return _ok(setup_view(drive))


def ties_get(request: HttpRequest, caller: Caller, slug: str) -> JsonResponse:
    return _ok(ties_list(drive_for(caller, slug)))


def ties_open(request: HttpRequest, caller: Caller, slug: str) -> JsonResponse:
    drive = drive_for(caller, slug, roles=(ORGANIZER,))
    data = _object(request, {"force"}, optional=True)
    force = data.get("force", False)
    if not isinstance(force, bool):
        raise ServiceError("bad_field", "force must be true or false.", field="force")
    prizes_open_ties(drive=drive, actor=caller.actor, force=force)
    return _ok(ties_list(drive))


def _couple_number(value: Any, field: str = "couple") -> int:
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 9:
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ServiceError("bad_couple", f"{value!r} is not a couple number.", field=field)


def tie_choice_view(request: HttpRequest, caller: Caller, slug: str, tie: int) -> JsonResponse:
    drive = drive_for(caller, slug)
    found = tie_get(drive, tie)
    data = _object(request, {"couple", "choice"})
    tie_choose(
        tie=found,
        couple=_couple_number(data.get("couple")),
        choice=data.get("choice"),
        actor=caller.actor,
    )
    return _ok(tie_view(tie_get(drive, tie)), 201)


def tie_decide_view(request: HttpRequest, caller: Caller, slug: str, tie: int) -> JsonResponse:
    drive = drive_for(caller, slug)
    _object(request, (), optional=True)
    tie_decide(tie=tie_get(drive, tie), actor=caller.actor)
    return _ok(tie_view(tie_get(drive, tie)))


def tie_cut_view(request: HttpRequest, caller: Caller, slug: str, tie: int) -> JsonResponse:
    drive = drive_for(caller, slug)
    found = tie_get(drive, tie)
    data = _object(request, {"cards", "draw", "seed"})
    _no_seed(data)
    if data.get("draw") is True:
        if "cards" in data:
            raise ServiceError("cards_or_draw", "Send the cards cut, or draw: true, not both.")
        outcome = tie_cut_draw(tie=found, actor=caller.actor)
    elif "draw" in data and data["draw"] is not False:
        raise ServiceError("bad_field", "draw must be true or false.", field="draw")
    else:
        cards = data.get("cards")
        if not isinstance(cards, dict) or not cards:
            raise ServiceError(
                "bad_cards", 'cards maps couple numbers to cards, like {"3": "7H"}.', field="cards"
            )
        by_number = {_couple_number(k, "cards"): v for k, v in cards.items()}
        outcome = tie_cut_record(tie=found, cards=by_number, actor=caller.actor)
    return _ok({"cut": outcome, "tie": tie_view(tie_get(drive, tie))}, 201)


def tie_playoff_view(request: HttpRequest, caller: Caller, slug: str, tie: int) -> JsonResponse:
    drive = drive_for(caller, slug)
    found = tie_get(drive, tie)
    data = _object(request, {"match", "winner", "points", "confirm_unusual"})
    outcome = tie_playoff_result(
        tie=found,
        match=data.get("match"),
        winner=data.get("winner"),
        points=data.get("points"),
        confirm_unusual=data.get("confirm_unusual", False),
        actor=caller.actor,
    )
    return _ok({"result": outcome, "tie": tie_view(tie_get(drive, tie))}, 201)


def cookie_jar_get(request: HttpRequest, caller: Caller, slug: str) -> JsonResponse:
    return _ok(cookie_jar_view(drive_for(caller, slug)))


def cookie_jar_draw_view(request: HttpRequest, caller: Caller, slug: str) -> JsonResponse:
    drive = drive_for(caller, slug, roles=(ORGANIZER,))
    data = _object(request, {"seed", "games"}, optional=True)
    _no_seed(data)
    cookie_jar_draw(drive=drive, games=data.get("games"), actor=caller.actor)
    return _ok(cookie_jar_view(drive), 201)


@csrf_exempt
def not_found(request: HttpRequest, path: str = "") -> JsonResponse:
    return _error_response(NotFound("no_such_endpoint", f"There is no API endpoint /{path}."))


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


def _document_of(drive: Any, pk: int) -> Document:
    document = Document.objects.select_related("drive").filter(drive=drive, pk=pk).first()
    if document is None:
        raise NotFound("no_such_document", f"There is no document {pk} of this drive.")
    return document


def documents_request(request: HttpRequest, caller: Caller, slug: str) -> JsonResponse:
    drive = drive_for(caller, slug)
    data = _object(request, {"document", "paper", "game", "couple", "filled", "base_url"})
    document = document_request(
        drive,
        data.get("document"),
        caller.actor,
        paper=data.get("paper", "letter"),
        game=data.get("game"),
        couple=data.get("couple"),
        filled=data.get("filled", False),
        # Given, it must be a URL (an empty one is refused); not given, this server's own.
        base_url=data["base_url"]
        if "base_url" in data
        else request.build_absolute_uri("/").rstrip("/") or DEFAULT_BASE_URL,
    )
    document.refresh_from_db()
    body = _document_view(request, document)
    response = _ok(body, 200 if document.up_to_date else 202)
    response["Location"] = body["status_url"]
    return response


def document_detail(request: HttpRequest, caller: Caller, slug: str, pk: int) -> JsonResponse:
    document = _document_of(drive_for(caller, slug), pk)
    return _ok(_document_view(request, document))


def document_file(request: HttpRequest, caller: Caller, slug: str, pk: int) -> FileResponse:
    document = _document_of(drive_for(caller, slug), pk)
    if not document.file.name or not document.file.storage.exists(document.file.name):
        raise ServiceError(
            "not_ready",
            f"The document is {document.status}: no PDF yet.",
            status=409,
            document_status=document.status,
        )
    return FileResponse(
        document.file.open("rb"),
        as_attachment=True,
        filename=document_filename(document),
        content_type="application/pdf",
    )
