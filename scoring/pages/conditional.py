"""Polls that find nothing new cost almost nothing: the fragments the live pages poll (desk
grid, table and couple pages, projector; static/js/poll.js) carry an ETag made of the drive's
version (``drives.models.DriveVersion``, bumped in the transaction of every change) and of
what else the fragment depends on (the page, the card's table or couple, the user and role,
the language, the game shown). A poll that sends it back in ``If-None-Match`` while the version
is unchanged gets 304 Not Modified before anything is read or rendered, after the one query
that finds the drive (with its version) and checks who asks.

The phones' pages show one table's or one couple's own results, not the others': their ETag
is the drive's ``structure`` (every change but a table's result: advance, seating, couples,
check-ins, withdrawals, settings, prizes, publish) and the latest ``ResultVersion`` of the
results they show (every stored change of a result writes one, in its transaction): the
table's own results, the couple's own games; the table's page also shows its call to the desk
(the latest change of its ``TableCall``). A result at table 7 leaves the other tables'
and couples' polls at 304; a 304 costs one query more (that latest version). The desk and the
projector show every table: they keep the drive's version.

Some of what a page shows ends by itself, with no change in the database (the table page's
Undo button, open for a few seconds after a tap): its ETag then carries that moment
(``W/"<key>~<unix time>"``) and matches only until it passes. The ETags are weak: gzip (below)
changes the bytes, not what the page says.

The version is read before the fragment is rendered, so a fragment is never older than its
ETag: a change committed while it renders only costs the next poll a 200.

Gzip: the polled fragments are compressed (``gzip_page``, Django's GZipMiddleware) — the desk
grid of a big night is tens of kilobytes every 3 seconds per desk. BREACH needs a secret and
text an attacker chooses in the same compressed body: the desk grid's only secret is the CSRF
token, which Django masks afresh in every response, the pages reflect no free text from the
request (only numbers: the game, a tie), and Django adds its random padding ("Heal the
Breach") to every gzipped body.
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import Any

from django.db.models import DateTimeField, OuterRef, Q, Subquery, Value
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags
from django.utils.translation import get_language

from drives.models import Couple, Drive, DriveVersion, Table
from drives.pageboard import BOARD
from drives.tokens import token_possible
from scoring.models import ResultVersion, TableCall

UNTIL = "~"
# A moment is the unix time in seconds: ten digits until the year 2286. A longer one, or
# digits int() does not read ("²"), is no tag of ours: no match.
MAX_UNTIL = 12
# Tokens are 22 characters; anything much longer is none of ours (scoring.pages.live_access).
MAX_TOKEN = 64


def drive_version(drive: Drive) -> int:
    """The drive's version; 0 before its first change. No query when the drive was read with
    ``select_related("live")`` (scoring.pages.live_access does)."""
    try:
        return drive.live.version
    except DriveVersion.DoesNotExist:
        return 0


# The results a phone's page shows: the table's own (any game), the couple's own games (at
# any table). ``OuterRef("pk")`` is the card's table or couple.
PHONE_RESULTS = {
    "table": lambda: Q(result__seat__table_id=OuterRef("pk")),
    "couple": lambda: (
        Q(result__seat__stays_id=OuterRef("pk")) | Q(result__seat__arrives_id=OuterRef("pk"))
    ),
}
PHONE_CARDS: dict[str, type[Table] | type[Couple]] = {"table": Table, "couple": Couple}


def phone_key(page: str, token: str) -> str | None:
    """The poll key of a phone's page (``"table"`` or ``"couple"``) from its card's token, in
    one query of a few columns (the card, its drive's language, state and structure, and the
    latest change of the card's own results), before the card is read: a poll that finds
    nothing new is answered from it alone. None for a token that is nobody's or a closed
    drive's (the view answers those)."""
    if not token_possible(token, MAX_TOKEN):
        return None
    since = BOARD.epoch  # before the read: a change committed after it is not taught back
    latest = ResultVersion.objects.filter(PHONE_RESULTS[page]()).order_by("-id").values("id")[:1]
    cards = (
        PHONE_CARDS[page].objects.filter(token=token).order_by().annotate(latest=Subquery(latest))
    )
    if page == "table":
        # The table's call to the desk: its phone shows it open, answered ("on my way"), gone.
        called = TableCall.objects.filter(table_id=OuterRef("pk")).order_by("-updated_at")
        cards = cards.annotate(called=Subquery(called.values("updated_at")[:1]))
    else:
        cards = cards.annotate(called=Value(None, output_field=DateTimeField()))
    row = cards.values_list(
        "pk",
        "drive_id",
        "drive__language",
        "drive__state",
        "drive__live__structure",
        "latest",
        "called",
    ).first()
    if row is None:
        return None
    pk, drive_id, language, state, structure, results, called_at = row
    if state == Drive.State.CLOSED:
        return None
    # The language the view activates (``hall_language``), as ``get_language`` names it.
    with translation.override(language):
        parts: tuple[Any, ...] = (pk, results or 0)
        if called_at is not None:
            parts += (int(called_at.timestamp() * 1_000_000),)
        key = _key(page, drive_id, structure or 0, *parts)
    # What config/pollgate.py answers the next poll from, before Django.
    BOARD.learn(page, token, key, drive_id, pk, since)
    return key


def poll_key(page: str, drive: Drive, *parts: Any, version: int | None = None) -> str:
    """What a polled fragment depends on, in short: the page, the drive and its version (the
    drive's, or ``version``), the language, and ``parts`` (the card, the user, the game shown
    ...)."""
    seen = drive_version(drive) if version is None else version
    return _key(page, drive.pk, seen, *parts)


def _key(page: str, drive_id: int, version: int, *parts: Any) -> str:
    fields = (page, drive_id, version, get_language() or "", *parts)
    return ".".join(str(field) for field in fields)


def not_modified(request: HttpRequest, key: str) -> HttpResponse | None:
    """A 304 for a GET or HEAD whose ``If-None-Match`` names ``key`` (with a moment that has
    not passed, if it has one); None when the fragment must be rendered."""
    if request.method not in ("GET", "HEAD"):
        return None
    header = request.META.get("HTTP_IF_NONE_MATCH")
    if not header:
        return None
    now = time.time()
    for tag in parse_etags(header):
        opaque = tag.removeprefix("W/").strip('"')
        seen, _sep, until = opaque.partition(UNTIL)
        if seen != key:
            continue
        if until and not moment_ahead(until, now):
            continue
        response = get_conditional_response(request, etag=tag)
        if response is not None:
            response["ETag"] = tag
            patch_cache_control(response, private=True, no_cache=True)
        return response
    return None


def moment_ahead(until: str, now: float) -> bool:
    """Whether ``until`` (an ETag's moment) is one of ours and has not passed at ``now``."""
    return len(until) <= MAX_UNTIL and until.isascii() and until.isdigit() and now < int(until)


def tagged(response: HttpResponse, key: str, until: datetime | None = None) -> HttpResponse:
    """``response`` (a rendered fragment) with its ETag, to be revalidated at every poll."""
    if response.status_code == 200:
        opaque = key if until is None else f"{key}{UNTIL}{int(until.timestamp())}"
        response["ETag"] = f'W/"{opaque}"'
    patch_cache_control(response, private=True, no_cache=True)
    return response


# The phones' pages by their names in scoring/pages/urls_phones.py, the URL conf the
# middleware resolves against.
PHONE_URLCONF = "scoring.pages.urls_phones"
PHONE_PAGES = {"table": "table", "couple": "couple"}


class PhonePollMiddleware:
    """A phone's poll that finds nothing new, answered 304 before the rest of the middleware
    (sessions, CSRF, locale, messages, CSP, clickjacking: nothing of theirs is in a bodiless
    304 for a page that needs no login). Placed right after SecurityMiddleware and
    WhiteNoise. Only a conditional GET or HEAD of a table or couple page's fragment whose
    ``If-None-Match`` names the current key is answered here; every other request, and a poll
    that must be rendered, goes on as before (with the key it read, so the view does not read
    it again). BENCHMARKS.md ("What a 304 costs through the hall's server") has the figures
    side by side."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (
            request.method in ("GET", "HEAD")
            and "HTTP_IF_NONE_MATCH" in request.META
            and request.GET.get("partial") not in (None, "", "0")
        ):
            unchanged = self.unchanged(request)
            if unchanged is not None:
                return unchanged
        response: HttpResponse = self.get_response(request)
        return response

    def unchanged(self, request: HttpRequest) -> HttpResponse | None:
        try:
            match = resolve(request.path_info, urlconf=PHONE_URLCONF)
        except Resolver404:
            return None
        page = PHONE_PAGES.get(match.view_name)
        if page is None:
            return None
        request.get_host()  # ALLOWED_HOSTS, as CommonMiddleware would check it (400 if not)
        key = phone_key(page, match.kwargs.get("token", ""))
        setattr(request, PHONE_KEY, (page, key))
        if key is None:
            return None
        response = not_modified(request, key)
        if response is not None:
            # What the rendered fragment varies on (gzip_page, LocaleMiddleware).
            patch_vary_headers(response, ("Accept-Encoding", "Accept-Language"))
        return response


PHONE_KEY = "phone_poll_key"


def phone_poll_key(request: HttpRequest, page: str, token: str) -> str | None:
    """``phone_key``, or the one PhonePollMiddleware read for this request already."""
    read = getattr(request, PHONE_KEY, None)
    if read is not None and read[0] == page:
        return str(read[1]) if read[1] is not None else None
    return phone_key(page, token)
