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
table's own results, the couple's own games. A result at table 7 leaves the other tables'
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

from django.db.models import Max, Q
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import parse_etags
from django.utils.translation import get_language

from drives.models import Couple, Drive, DriveVersion, Table
from scoring.models import ResultVersion

UNTIL = "~"


def drive_version(drive: Drive) -> int:
    """The drive's version; 0 before its first change. No query when the drive was read with
    ``select_related("live")`` (scoring.pages.live_access does)."""
    try:
        return drive.live.version
    except DriveVersion.DoesNotExist:
        return 0


def structure_version(drive: Drive) -> int:
    """The drive's version less its tables' results (``DriveVersion.structure``); no query
    when the drive was read with ``select_related("live")``."""
    try:
        return drive.live.structure
    except DriveVersion.DoesNotExist:
        return 0


def table_results_version(table: Table) -> int:
    """The latest change of the table's results (any game): one query."""
    versions = ResultVersion.objects.filter(result__seat__table_id=table.pk)
    return versions.aggregate(latest=Max("id"))["latest"] or 0


def couple_results_version(couple: Couple) -> int:
    """The latest change of the results of the couple's games (any table): one query."""
    versions = ResultVersion.objects.filter(
        Q(result__seat__stays_id=couple.pk) | Q(result__seat__arrives_id=couple.pk)
    )
    return versions.aggregate(latest=Max("id"))["latest"] or 0


def poll_key(page: str, drive: Drive, *parts: Any, version: int | None = None) -> str:
    """What a polled fragment depends on, in short: the page, the drive and its version (the
    drive's, or ``version``), the language, and ``parts`` (the card, the user, the game shown
    ...)."""
    seen = drive_version(drive) if version is None else version
    fields = (page, drive.pk, seen, get_language() or "", *parts)
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
        if until and not (until.isdigit() and now < int(until)):
            continue
        response = get_conditional_response(request, etag=tag)
        if response is not None:
            response["ETag"] = tag
            patch_cache_control(response, private=True, no_cache=True)
        return response
    return None


def tagged(response: HttpResponse, key: str, until: datetime | None = None) -> HttpResponse:
    """``response`` (a rendered fragment) with its ETag, to be revalidated at every poll."""
    if response.status_code == 200:
        opaque = key if until is None else f"{key}{UNTIL}{int(until.timestamp())}"
        response["ETag"] = f'W/"{opaque}"'
    patch_cache_control(response, private=True, no_cache=True)
    return response
