"""A phone's poll that finds nothing new, answered before Django: a plain WSGI layer in front
of Django's application (config/wsgi.py, when ``POLL_GATE`` is on: the hall's one process).

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
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import parse_qs

from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import parse_etags

from drives.pageboard import BOARD
from scoring.pages.conditional import MAX_TOKEN, UNTIL, moment_ahead

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

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


def poll_gate(app: WSGIApp) -> WSGIApp:
    """``app`` behind the gate (see the module's docstring); the process serves: its board
    learns."""
    BOARD.serving = True
    BOARD.outside_changes()
    common = common_headers()
    allowed = settings.ALLOWED_HOSTS
    forwarded = settings.USE_X_FORWARDED_HOST

    def unchanged(environ: dict[str, Any]) -> str | None:
        """The ETag of the 304 to send, or None (Django answers)."""
        if environ.get("REQUEST_METHOD") not in ("GET", "HEAD") or forwarded:
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
        if not host or not validate_host(host, allowed):
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

    def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        tag = unchanged(environ)
        if tag is None:
            return app(environ, start_response)
        start_response("304 Not Modified", [("ETag", tag), *common])
        return []

    return application
