"""The API's answer to whatever goes wrong, for every router alike: the body read as JSON (the
parser, ``JsonBody``), a :class:`~drives.errors.ServiceError` as its JSON answer
(``error_response``), and the one translation of what ninja could not read into a refusal of
``drives.inputs`` (``refusal``).

Errors are ``{"code", "message", ...details}`` with a 4xx status: a ``ServiceError`` from a
service keeps its status and body; a body that is not JSON is 400 ``bad_json``; a body that is
not the object (or list) expected is 400 ``bad_body``; an unknown field is 422
``unknown_field``; text no database stores is 422 ``bad_text``; a body over 1 MB is 413; a
method a URL does not serve is 405 with ``Allow`` (``api.urls``).
"""

from __future__ import annotations

import json
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext
from ninja.parser import Parser

from drives import inputs
from drives.errors import ServiceError
from drives.text import text_refuse_unstorable

MAX_BODY = 1_000_000


class BadRequest(ServiceError):
    status = 400


def too_large() -> ServiceError:
    return ServiceError(
        "body_too_large",
        gettext("The body is larger than %(MAX_BODY)s bytes.") % {"MAX_BODY": f"{MAX_BODY:,}"},
        status=413,
    )


def request_body(request: HttpRequest) -> bytes:
    """The request's body, refused with 413 ``body_too_large`` over ``MAX_BODY`` bytes."""
    try:
        body = request.body
    except RequestDataTooBig:
        raise too_large() from None
    if len(body) > MAX_BODY:
        raise too_large()
    return body


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


class JsonBody(Parser):
    """The body as JSON: 413 over 1 MB, 400 ``bad_json`` (NaN and Infinity too), and 422
    ``bad_text`` for text no database stores, wherever it is; then the endpoint's model."""

    def parse_body(self, request: HttpRequest) -> Any:
        raw = request_body(request)
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
