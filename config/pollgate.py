"""A phone's poll that finds nothing new, answered before Django: a plain layer in front of
Django's application (the hall's, config/asgi.py, as ASGI; as WSGI, config/wsgi.py, when
``POLL_GATE`` is on: the hall's one process).

A conditional GET or HEAD of a table's or couple's page fragment (``/t/<token>/?partial=1``,
``/c/<token>/?partial=1``) whose ``If-None-Match`` names the poll key Django computed for that
card the last time it answered (drives/pageboard.py: forgotten at every change of what the page
shows), with an Undo moment not yet passed when the tag has one, gets the very 304 Django
would give (scoring.pages.conditional: ``PhonePollMiddleware``, then SecurityMiddleware's
headers), with no query and no middleware. Anything else (a key the board does not know, a
host not allowed, another conditional header) goes to Django unchanged, which answers it as
before and teaches the board the key it read.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any
from urllib.parse import parse_qs

from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import parse_etags

from drives.pageboard import BOARD
from scoring.pages.conditional import MAX_TOKEN, UNTIL, moment_ahead

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
ASGIApp = Callable[[dict[str, Any], Any, Any], Awaitable[None]]

PAGES = {"t": "table", "c": "couple"}
# Headers Django may weigh beside If-None-Match (get_conditional_response): those requests go
# to Django.
OTHER_CONDITIONS = ("HTTP_IF_MATCH", "HTTP_IF_UNMODIFIED_SINCE")


def common_headers() -> list[tuple[str, str]]:
    """What Django's 304 of a phone's poll carries beside its ETag: the fragment's cache
    control and Vary (conditional.py), and SecurityMiddleware's headers (the hall serves
    plain HTTP: no HSTS)."""
    headers = [
        ("Cache-Control", "private, no-cache"),
        ("Vary", "Accept-Encoding, Accept-Language"),
    ]
    if settings.SECURE_CONTENT_TYPE_NOSNIFF:
        headers.append(("X-Content-Type-Options", "nosniff"))
    if settings.SECURE_REFERRER_POLICY:
        policy = settings.SECURE_REFERRER_POLICY
        value = policy if isinstance(policy, str) else ",".join(policy)
        headers.append(("Referrer-Policy", value))
    if settings.SECURE_CROSS_ORIGIN_OPENER_POLICY:
        headers.append(("Cross-Origin-Opener-Policy", settings.SECURE_CROSS_ORIGIN_OPENER_POLICY))
    return headers


class Gate:
    """The gate's decision (see the module's docstring); the process serves: its board
    learns."""

    def __init__(self) -> None:
        BOARD.serving = True
        BOARD.outside_changes()
        self.common = common_headers()
        self.allowed = settings.ALLOWED_HOSTS
        self.forwarded = settings.USE_X_FORWARDED_HOST

    def unchanged(self, environ: Mapping[str, Any]) -> str | None:
        """The ETag of the 304 to send for the request ``environ`` (WSGI's names), or None
        (Django answers)."""
        if environ.get("REQUEST_METHOD") not in ("GET", "HEAD") or self.forwarded:
            return None
        header = environ.get("HTTP_IF_NONE_MATCH")
        if not header or any(name in environ for name in OTHER_CONDITIONS):
            return None
        path = environ.get("PATH_INFO", "")
        parts = path.split("/")
        # "/t/<token>/" → ["", "t", token, ""]
        if len(parts) != 4 or parts[0] or parts[3] or parts[1] not in PAGES:
            return None
        token = parts[2]
        if not token or len(token) > MAX_TOKEN or not token.isascii():
            return None
        partial = parse_qs(environ.get("QUERY_STRING", ""), keep_blank_values=True).get("partial")
        if not partial or partial[-1] in ("", "0"):
            return None
        host, _port = split_domain_port(environ.get("HTTP_HOST", ""))
        if not host or not validate_host(host, self.allowed):
            return None
        BOARD.outside_changes()
        key = BOARD.key(PAGES[parts[1]], token)
        if key is None:
            return None
        now = time.time()
        for tag in parse_etags(header):
            opaque = tag.removeprefix("W/").strip('"')
            seen, _sep, until = opaque.partition(UNTIL)
            if seen == key and (not until or moment_ahead(until, now)):
                return str(tag)
        return None


def poll_gate(app: WSGIApp) -> WSGIApp:
    """The WSGI application ``app`` behind the gate."""
    gate = Gate()

    def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        tag = gate.unchanged(environ)
        if tag is None:
            return app(environ, start_response)
        start_response("304 Not Modified", [("ETag", tag), *gate.common])
        return []

    return application


def scope_environ(scope: Mapping[str, Any]) -> dict[str, Any]:
    """What the gate reads of an ASGI request, under WSGI's names."""
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope.get("method", ""),
        "PATH_INFO": scope.get("path", ""),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
    }
    for name, value in scope.get("headers", ()):
        key = "HTTP_" + name.decode("latin-1").upper().replace("-", "_")
        text = value.decode("latin-1")
        environ[key] = f"{environ[key]},{text}" if key in environ else text
    return environ


def asgi_poll_gate(app: ASGIApp) -> ASGIApp:
    """The ASGI application ``app`` behind the gate (the hall's: config/asgi.py)."""
    gate = Gate()
    common = [(name.encode(), value.encode()) for name, value in gate.common]

    async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope.get("method") in ("GET", "HEAD"):
            tag = gate.unchanged(scope_environ(scope))
            if tag is not None:
                await send(
                    {
                        "type": "http.response.start",
                        "status": 304,
                        "headers": [(b"etag", tag.encode("latin-1")), *common],
                    }
                )
                await send({"type": "http.response.body", "body": b""})
                return
        await app(scope, receive, send)

    return application
