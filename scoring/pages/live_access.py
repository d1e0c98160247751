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
from typing import Any, TypeVar

from django.core.exceptions import PermissionDenied
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _

from drives import ratelimit
from drives.errors import ServiceError
from drives.models import Club, Couple, Drive, DriveVersion, Membership, Table
from drives.services import require_role
from drives.tokens import token_possible
from scoring.prepared import columns, instance, prepared

Card = TypeVar("Card", Table, Couple)
# Every column of a card and of its drive, for ``_card``.
TABLE, COUPLE, DRIVE = columns(Table), columns(Couple), columns(Drive, "drive__")
# Every column of a drive, of its club and of its version, for ``member_drive``.
DRIVE_ROW, CLUB, LIVE = columns(Drive), columns(Club, "club__"), columns(DriveVersion, "live__")
MEMBERS = (Membership.Role.ORGANIZER, Membership.Role.SCORER)
# Tokens are 22 characters; anything much longer is none of ours (no query for it).
MAX_TOKEN = 64


def member_drive(request: HttpRequest, slug: str, *roles: str) -> tuple[Drive, str]:
    """The drive ``slug`` (its club and version loaded on it, as ``select_related("club",
    "live")`` gives them) and the user's role in its club, for a member with one of ``roles``
    (organizer or scorer by default): 404 for outsiders, 403 without the role. One query,
    written once a process (``scoring.prepared``): every poll of the desk and the projector
    asks it (BENCHMARKS.md, "The desk's poll: the rows that changed")."""
    user = request.user
    signed_in = user is not None and user.is_authenticated
    rows = _member(slug, user.pk if signed_in else 0)
    if not rows:
        raise Http404("No such drive.")
    row = rows[0]
    drive = instance(Drive, row)
    drive.club = instance(Club, row, "club__")
    if row["live__drive_id"] is None:
        Drive.live.related.set_cached_value(drive, None)  # drive.live: DoesNotExist, as the ORM
    else:
        Drive.live.related.set_cached_value(drive, instance(DriveVersion, row, "live__"))
    role = (Membership.Role.ORGANIZER if user.is_superuser else row["role"]) if signed_in else None
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


@prepared
def _member(slug: str, user_id: int) -> QuerySet[Any, Any]:
    """The drive ``slug`` with every column of it, of its club and of its version (none: no
    change yet), and the role of the user ``user_id`` in its club (None: not a member)."""
    role = Membership.objects.filter(club=OuterRef("club"), user_id=user_id).values("role")
    found: QuerySet[Any, Any] = (
        Drive.objects.filter(slug=slug)
        .order_by()
        .values(*DRIVE_ROW, *CLUB, *LIVE, role=Subquery(role[:1]))
    )
    return found[:1]


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


@prepared
def _table(token: str) -> QuerySet[Any, Any]:
    """The table whose card has ``token``, and its drive: every column of both."""
    card: QuerySet[Any, Any] = Table.objects.filter(token=token).order_by().values(*TABLE, *DRIVE)
    return card[:1]


@prepared
def _couple(token: str) -> QuerySet[Any, Any]:
    """The couple whose card has ``token``, and its drive: every column of both."""
    card: QuerySet[Any, Any] = Couple.objects.filter(token=token).order_by().values(*COUPLE, *DRIVE)
    return card[:1]


def _card(model: type[Card], rows: list[dict[str, Any]]) -> Card | None:
    """The card (table or couple) of ``rows`` (none or one), its drive loaded on it: as
    ``select_related("drive")`` gives it, in a query written once (``scoring.prepared``)."""
    if not rows:
        return None
    card = instance(model, rows[0])
    card.drive = instance(Drive, rows[0], "drive__")
    return card


def table_by_token(request: HttpRequest, token: str) -> Table:
    table = None
    if token_possible(token, MAX_TOKEN):
        table = _card(Table, _table(token))
    if table is None:
        raise _unknown_token(request, "No such table.")
    return table


def couple_by_token(request: HttpRequest, token: str) -> Couple:
    couple = None
    if token_possible(token, MAX_TOKEN):
        couple = _card(Couple, _couple(token))
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
