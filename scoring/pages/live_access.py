"""Who may open the live pages, shared by the desk, projector, standings, table and couple
pages: a drive for its club's organizers and scorers (404 for everyone else, as the API),
a table or a couple by the token of its card (a 410 page once the drive is closed; a 429
page while the address has tried too many unknown tokens), and
whether a request comes from the pages' own scripts (which want JSON or a fragment).

The night's rules stay in the services; this module only finds the drive and refuses.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, Subquery
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _

from drives import ratelimit
from drives.errors import ServiceError
from drives.models import Couple, Drive, Membership, Table
from drives.services import require_role
from drives.tokens import token_possible

MEMBERS = (Membership.Role.ORGANIZER, Membership.Role.SCORER)
# Tokens are 22 characters; anything much longer is none of ours (no query for it).
MAX_TOKEN = 64


def member_drive(request: HttpRequest, slug: str, *roles: str) -> tuple[Drive, str]:
    """The drive ``slug`` (its club and version loaded on it) and the user's role in its club,
    for a member with one of ``roles`` (organizer or scorer by default): 404 for outsiders, 403
    without the role. One query. (It was written once a process and its instances assembled
    by hand while the desk and the projector polled every 3 s; told of changes now
    (drives/pagehub.py), they ask only after one, and the ORM's own query is kept.)"""
    user = request.user
    signed_in = user is not None and user.is_authenticated
    role_of = Membership.objects.filter(
        club=OuterRef("club"), user_id=(user.pk or 0) if signed_in else 0
    )
    drive = (
        Drive.objects.select_related("club", "live")
        .annotate(member_role=Subquery(role_of.values("role")[:1]))
        .filter(slug=slug)
        .first()
    )
    if drive is None:
        raise Http404("No such drive.")
    found: str | None = drive.member_role
    role = (Membership.Role.ORGANIZER if user.is_superuser else found) if signed_in else None
    if role is None:
        raise Http404(_("No such drive."))
    if role not in (roles or MEMBERS):
        try:  # the services' own refusal, in their words
            role = require_role(drive, user, *(roles or MEMBERS))
        except ServiceError as error:
            if error.status == 403:
                raise PermissionDenied(error.message) from None
            raise Http404(error.message) from None
    return drive, role


def hall_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A page read in the hall (projector, table and couple pages, public results): the view
    calls ``hall_language`` once it has the drive; the language active before is restored
    when the view returns (Django's ``translation.override``)."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        with translation.override(translation.get_language()):
            return view(request, *args, **kwargs)

    return wrapper


def hall_language(request: HttpRequest, drive: Drive) -> None:
    """The rest of the request speaks the drive's language (the hall's), whoever reads it."""
    translation.activate(drive.language)
    request.LANGUAGE_CODE = drive.language


class _TooManyUnknownTokens(Exception):
    def __init__(self, wait: int) -> None:
        super().__init__(wait)
        self.wait = wait


def token_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A page whose address carries a card's token. A good token is always served (a hall's
    phones share one address); an unknown one is counted, and once this address has tried too
    many (``drives.ratelimit``) the answer is a 429 page instead of the 404."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except _TooManyUnknownTokens as refused:
            response = render(
                request,
                "scoring/token_rate_limited.html",
                {"minutes": ratelimit.minutes(refused.wait)},
                status=429,
            )
            response["Retry-After"] = str(refused.wait)
            return response

    return wrapper


def _unknown_token(request: HttpRequest, message: str) -> Http404:
    wait = ratelimit.token_blocked(request)
    if wait is not None:
        raise _TooManyUnknownTokens(wait)
    ratelimit.token_failed(request)
    return Http404(message)


def table_by_token(request: HttpRequest, token: str) -> Table:
    """The table whose card has ``token``, its drive loaded on it (one query)."""
    table = None
    if token_possible(token, MAX_TOKEN):
        table = Table.objects.select_related("drive").filter(token=token).first()
    if table is None:
        raise _unknown_token(request, "No such table.")
    return table


def couple_by_token(request: HttpRequest, token: str) -> Couple:
    """The couple whose card has ``token``, its drive loaded on it (one query)."""
    couple = None
    if token_possible(token, MAX_TOKEN):
        couple = Couple.objects.select_related("drive").filter(token=token).first()
    if couple is None:
        raise _unknown_token(request, "No such couple.")
    return couple


def closed_page(request: HttpRequest, drive: Drive) -> HttpResponse:
    """What a table or couple card's QR code shows once the night is closed: 410 Gone."""
    return render(request, "scoring/table_page_closed.html", {"drive": drive}, status=410)


def wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def wants_fragment(request: HttpRequest) -> bool:
    return request.GET.get("partial") not in (None, "", "0")


def int_or_none(value: Any) -> int | None:
    """A whole number typed in a form, or None (the services then name the problem)."""
    if value is None:
        return None
    text = str(value).strip()
    if not text or len(text) > 9:
        return None
    try:
        return int(text)
    except ValueError:
        return None


_POINTS = re.compile(r"^\s*(-?\d{1,4})(?:\s+|\s*[-–—/,:;]\s*)(-?\d{1,4})\s*$")


def parse_points(text: Any) -> list[int] | None:
    """Final points typed as "50-40", "50 40" or "50/40" (winner's first; an auction loser
    may be below zero: "120 -20"), or None when left empty. ValueError for anything else."""
    text = str(text or "").strip()
    if not text:
        return None
    match = _POINTS.match(text)
    if match is None:
        raise ValueError(text)
    return [int(match.group(1)), int(match.group(2))]
