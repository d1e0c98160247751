"""Who is calling the API and what they may reach, for every app's router.

A caller is a user (by ``Authorization: Bearer <API token>`` or by the browser session), a
table (its table card's token) or a couple (its punch card's token). The rules:

The classes ``BearerToken`` and ``Session`` are django-ninja's auth of every endpoint
(``AUTH``); what a caller may reach is decided per endpoint by ``drive_for`` and friends.

- no credentials: 401 ``not_authenticated`` (with ``WWW-Authenticate: Bearer``); a bearer token
  that is nobody's: 401 ``bad_token``; too many of those from one address: 429
  ``rate_limited`` with ``Retry-After`` (``drives.ratelimit``), whatever token it sends next;
- a table or couple token of a closed drive: 403 ``token_expired``, whatever it asks for;
- a drive that does not exist, a drive of another club, a token of another drive: the same 404
  ``not_found`` (nothing is revealed to outsiders);
- a member without the role an action needs (a scorer starting the night): 403 ``forbidden``;
- tokens read a game, the standings, the grid and the tables of their own drive, and write
  only their own table's result: another table is 403 ``wrong_table``;
- unsafe requests authenticated by the session must pass Django's CSRF check (403
  ``csrf_failed``); bearer requests carry no cookie and are exempt.

The night's own rules (a closed drive, a game not in play) are the services' to judge.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.utils.translation import gettext, gettext_lazy
from ninja.security import APIKeyCookie, HttpBearer

from drives import inputs, ratelimit
from drives.errors import Forbidden, NotFound, ServiceError
from drives.models import AuditEntry, Club, Couple, Drive, Membership, Seat, Table
from drives.services import Actor, require_role, role_in
from drives.tokens import token_owner

ORGANIZER = Membership.Role.ORGANIZER
SCORER = Membership.Role.SCORER
MEMBERS = (ORGANIZER, SCORER)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})


class NotAuthenticated(ServiceError):
    status = 401


class RateLimited(ServiceError):
    """Too many unknown tokens from one address (``drives.ratelimit``); ``retry_after``
    seconds go in the body and the ``Retry-After`` header."""

    status = 429


@dataclass(frozen=True)
class Caller:
    """An authenticated caller. ``kind``: user, table or couple; ``via``: session or bearer."""

    kind: str
    via: str
    user: Any = None
    table: Table | None = None
    couple: Couple | None = None

    @property
    def is_token(self) -> bool:
        return self.kind in ("table", "couple")

    @property
    def token_drive(self) -> Drive:
        owner = self.table if self.table is not None else self.couple
        assert owner is not None, "only table and couple tokens belong to a drive"
        return owner.drive

    @property
    def actor(self) -> Actor:
        """Who the audit names: the desk for a session, the API for a user's token, the table
        or the couple for theirs."""
        if self.kind == "table":
            return Actor(channel=AuditEntry.Channel.TABLE)
        if self.kind == "couple":
            return Actor(channel=AuditEntry.Channel.COUPLE, couple=self.couple)
        channel = AuditEntry.Channel.DESK if self.via == "session" else AuditEntry.Channel.API
        return Actor(user=self.user, channel=channel)


NO_SUCH_DRIVE = ("not_found", gettext_lazy("No such drive."))


class BearerToken(HttpBearer):
    """``Authorization: Bearer <token>``: an organizer's or scorer's API token
    (``manage.py apitoken``), a table's token (its table card) or a couple's (its punch card).
    One header for all three: the token says whose it is (``drives.tokens.token_owner``).
    A bearer header wins over the session: once sent, it is the answer (a caller, or 401/403/
    429), never a fall-through to the session."""

    def __call__(self, request: HttpRequest) -> Caller | None:
        header = request.META.get("HTTP_AUTHORIZATION", "")
        if not header:
            return None
        scheme, _, raw = header.strip().partition(" ")
        if scheme.lower() != "bearer" or not raw.strip():
            raise NotAuthenticated(
                "bad_authorization", gettext("Send the token as: Authorization: Bearer <token>.")
            )
        return self.authenticate(request, raw.strip())

    def authenticate(self, request: HttpRequest, token: str) -> Caller:
        owner = token_owner(token)
        if owner is None:
            # A good token is always served (a hall's phones share one address); unknown
            # ones are counted, and past the limit refused with 429 instead of 401.
            wait = ratelimit.token_blocked(request)
            if wait is not None:
                raise RateLimited(
                    "rate_limited",
                    gettext(
                        "Too many unknown tokens from this address: try again in %(wait)s seconds."
                    )
                    % {"wait": wait},
                    retry_after=wait,
                )
            ratelimit.token_failed(request)
            raise NotAuthenticated("bad_token", gettext("This token is not valid."))
        drive = owner.drive
        if drive is not None and drive.is_closed:
            raise Forbidden(
                "token_expired",
                gettext("The drive is closed: its table and couple tokens no longer work."),
            )
        return Caller(owner.kind, "bearer", user=owner.user, table=owner.table, couple=owner.couple)


class Session(APIKeyCookie):
    """The browser session of a logged-in member (Django's session middleware has read the
    cookie); an unsafe method must pass Django's CSRF check (403 ``csrf_failed``)."""

    param_name = settings.SESSION_COOKIE_NAME

    def __call__(self, request: HttpRequest) -> Caller | None:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated or not user.is_active:
            return None
        if self.csrf and request.method not in SAFE_METHODS:
            check_csrf(request)
        return Caller("user", "session", user=user)

    def authenticate(self, request: HttpRequest, key: str | None) -> Any:  # pragma: no cover
        raise NotImplementedError("the session middleware has read the cookie")


# Every endpoint but the description: a bearer token first, then the session. Neither: 401
# not_authenticated (api.site turns ninja's AuthenticationError into it).
AUTH = [BearerToken(), Session(csrf=True)]


class _CsrfCheck(CsrfViewMiddleware):
    """Django's own CSRF check, answering with the reason instead of an HTML page."""

    def _reject(self, request: HttpRequest, reason: str) -> Any:
        return reason


def check_csrf(request: HttpRequest) -> None:
    """Django's CSRF check for a session-authenticated unsafe request (the API's views are
    exempt from the middleware because bearer requests need no token)."""
    check = _CsrfCheck(lambda request: HttpResponse())
    check.process_request(request)
    reason = check.process_view(request, None, (), {})  # type: ignore[arg-type]  # no view: only the check
    if reason:
        raise Forbidden(
            "csrf_failed",
            gettext(
                "CSRF check failed: %(reason)s. Send the csrftoken cookie's value as X-CSRFToken."
            )
            % {"reason": reason},
        )


def caller_of(request: HttpRequest) -> Caller:
    """The caller ninja's auth (``AUTH``) found for this request."""
    return request.auth  # type: ignore[attr-defined, no-any-return]  # set by ninja's auth: a Caller


def require_user(caller: Caller) -> Any:
    """The caller's user account; tokens of tables and couples are refused."""
    if caller.kind != "user":
        raise Forbidden(
            "token_not_allowed",
            gettext("A %(kind)s's token cannot do this: use an organizer's or scorer's account.")
            % {"kind": caller.kind},
        )
    return caller.user


def drive_for(
    caller: Caller, slug: str, *, roles: tuple[str, ...] = MEMBERS, tokens: bool = False
) -> Drive:
    """The drive ``slug`` if the caller may use this endpoint on it: a member with one of
    ``roles``, or (when ``tokens``) a table or couple token of that very drive."""
    if caller.is_token:
        drive = caller.token_drive
        if drive.slug != slug:
            raise NotFound(NO_SUCH_DRIVE[0], str(NO_SUCH_DRIVE[1]))
        if not tokens:
            require_user(caller)
        return drive
    found = Drive.objects.select_related("club").filter(slug=slug).first()
    if found is None:
        raise NotFound(NO_SUCH_DRIVE[0], str(NO_SUCH_DRIVE[1]))
    require_role(found, caller.user, *roles)
    return found


def club_for(caller: Caller, slug: Any, *, roles: tuple[str, ...] = (ORGANIZER,)) -> Club:
    """A club the user has one of ``roles`` in (404 for outsiders, 403 without the role)."""
    user = require_user(caller)
    slug = inputs.CLUB_SLUG.check(slug)
    club = Club.objects.filter(slug=slug).first()
    role = role_in(club, user) if club is not None else None
    if club is None or role is None:
        raise NotFound("not_found", gettext("No such club."))
    if role not in roles:
        raise Forbidden(
            "forbidden", gettext("This needs the role of %(list)s.") % {"list": " or ".join(roles)}
        )
    return club


def require_table(caller: Caller, drive: Drive, game: int, table: int) -> None:
    """A table token reaches only its own table; a couple token only the table it plays at
    in that game. Users pass (their role was checked with the drive). Whether the game is the
    one in play is the result services' to say (a replay of the last game stays a 200)."""
    if caller.kind == "table":
        assert caller.table is not None
        if caller.table.number != table:
            raise Forbidden(
                "wrong_table",
                gettext("This is table %(number)s's token: it enters that table's result only.")
                % {"number": caller.table.number},
                table=caller.table.number,
            )
    elif caller.kind == "couple":
        couple = caller.couple
        assert couple is not None
        seat = (
            Seat.objects.filter(game__drive=drive, game__number=game)
            .filter(Q(stays=couple) | Q(arrives=couple))
            .select_related("table")
            .first()
        )
        if seat is None:
            if game > drive.current_game:
                return  # not started: the service answers 422 game_not_started
            raise Forbidden(
                "wrong_table",
                gettext("Couple %(number)s has no table in game %(game)s.")
                % {"number": couple.number, "game": game},
                table=None,
            )
        if seat.table.number != table:
            raise Forbidden(
                "wrong_table",
                gettext("Couple %(couple)s plays at table %(table)s in game %(game)s.")
                % {"couple": couple.number, "table": seat.table.number, "game": game},
                table=seat.table.number,
            )


def drives_visible_to(user: Any) -> QuerySet[Drive]:
    """The drives of the user's clubs (every drive for a superuser)."""
    drives = Drive.objects.select_related("club").order_by("-date", "name", "pk")
    if user.is_superuser:
        return drives
    return drives.filter(club__memberships__user=user)


def memberships_of(user: Any) -> list[dict[str, Any]]:
    return [
        {"slug": m.club.slug, "name": m.club.name, "role": m.role}
        for m in Membership.objects.filter(user=user).select_related("club").order_by("club__name")
    ]
