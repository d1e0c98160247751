"""Bodies sent in chunks (``Transfer-Encoding: chunked``, no ``Content-Length``): the servers
(granian for the hall, gunicorn for production) decode the chunks and hand the body on
without a ``CONTENT_LENGTH``, and Django reads a body of that length, so it would take the
body as empty. :func:`chunked_bodies` wraps the WSGI application: it reads such a body (at
most ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes and one more) and gives Django its length, so that
it is read as any other body and refused past the same cap (Django's ``RequestDataTooBig``:
413 ``body_too_large`` on the API, 400 on a page).

What a body may hold is left to the views (the API's own 1 MB, the CSV files' cap)."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings

# Django's default, when the setting is None (no limit): a chunked body is still read whole
# into memory here, so it gets one.
DEFAULT_CAP = 2_621_440

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def chunked_bodies(app: WSGIApp) -> WSGIApp:
    """``app`` that reads a chunked body before it (see the module's docstring)."""

    def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if chunked and not environ.get("CONTENT_LENGTH"):
            cap = settings.DATA_UPLOAD_MAX_MEMORY_SIZE or DEFAULT_CAP
            body = environ["wsgi.input"].read(cap + 1)
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
        return app(environ, start_response)

    return application
