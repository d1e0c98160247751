"""Which phone asks: a table card's page is opened by both couples' phones with one token, so
the token cannot tell the phone that tapped a result from the other couple's. The table page
gives each phone a device cookie (a random name, signed, HttpOnly, SameSite=Lax, kept for a
year); a result entered from a phone keeps that name, and only that phone may undo it.

The cookie grants nothing else: the token stays the credential, and a phone without the
cookie (dropped, or never set) still enters results; it is only another phone for the undo.
"""

from __future__ import annotations

import re
import uuid

from django.conf import settings
from django.http import HttpRequest, HttpResponse

COOKIE = "fortyfives_device"
SALT = "fortyfives.device"
MAX_AGE = 365 * 24 * 3600
_NAME = re.compile("[0-9a-f]{32}")


def device_of(request: HttpRequest) -> str:
    """The name the request's device cookie carries, or "" (no cookie, a forged or a bad one)."""
    name = request.get_signed_cookie(COOKIE, default="", salt=SALT)
    return name if isinstance(name, str) and _NAME.fullmatch(name) else ""


def device_new() -> str:
    """A new device's name."""
    return uuid.uuid4().hex


def device_remember(response: HttpResponse, name: str) -> HttpResponse:
    """Give the phone its device cookie (``name``, from ``device_new``)."""
    response.set_signed_cookie(
        COOKIE,
        name,
        salt=SALT,
        max_age=MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )
    return response
