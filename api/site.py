"""The site's API, one ``NinjaAPI`` for every app's endpoints: its description
(``/api/v1/openapi.json``, built once per process), its Swagger page for members, its
credentials (``api.auth.AUTH``), its parser (``api.errors.JsonBody``) and the exception
handlers that answer every error as JSON (``api.errors.error_response``).

Each app keeps its endpoints on a ``ninja.Router`` of its own (``scoring.api.views``,
``practice.api``, ``seasons.api``, ``money.api``); ``config.urls`` mounts them all on ``api``
and only then builds the URLs (``api.urls.api_urls``): django-ninja takes no router once its
URLs have been read.
"""

from __future__ import annotations

import json
from functools import cache
from http import HTTPStatus
from typing import Any, cast

from csp.decorators import csp_update
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import get_resolver, register_converter
from django.utils.translation import gettext
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.openapi.docs import Swagger

from api.auth import AUTH, NotAuthenticated
from api.errors import JsonBody, error_response, refusal, too_large
from drives.errors import NotFound, ServiceError


class NumberConverter:
    """A game, table or couple number: 1 to 9 digits (a longer one is no number of ours, and
    would overflow the database's integers)."""

    regex = "[0-9]{1,9}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(NumberConverter, "num")


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
        # The routers are mounted where the site's URLs are built (config.urls): read those
        # first, so that a description asked for before any request has every endpoint.
        get_resolver().url_patterns  # noqa: B018 - the property imports the URLconf
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
    # the club's players and public pages (club/api.py)
    "player": {"description": "The player's id (within its club).", "schema": NUMBER},
    "key": {
        "description": "The player's own page's key (its address, from their couple's page).",
        "schema": {"type": "string", "pattern": "^[0-9a-f]{1,64}$"},
    },
    # the night's money (money/api.py)
    "line": {"description": "The ledger line's id (from GET …/accounts).", "schema": NUMBER},
    "raffle": {"description": "The raffle item's id (from POST …/raffles).", "schema": NUMBER},
    "pot": {"description": "The club's pot's id (from GET …/pots).", "schema": NUMBER},
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
    429: "Too many unknown tokens, or registrations before the night, from this address "
    "(`rate_limited`): wait `retry_after` seconds (also in the `Retry-After` header).",
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
    return error_response(too_large())


# --- anything else --------------------------------------------------------------------------------


def not_found(request: HttpRequest, path: str = "") -> JsonResponse:
    return error_response(
        NotFound(
            "no_such_endpoint", gettext("There is no API endpoint /%(path)s.") % {"path": path}
        )
    )


not_found.csrf_exempt = True  # type: ignore[attr-defined]  # what csrf_exempt sets
