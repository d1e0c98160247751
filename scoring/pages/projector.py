"""The projector: a kiosk page in very large type for the hall's screen. It shows the game in
play, how many tables have reported, and every couple's table ("couple → table"), paged by
its script when the list does not fit; ``?show=standings`` pages the places instead. The page
polls its own fragment (``?partial=1``) every few seconds, so after each advance the new
tables appear by themselves.

Reads only: ``current_tables``, ``game_view`` and ``standings_for_drive``.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import get_template
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_http_methods

from scoring.pages.conditional import not_modified, poll_key, tagged
from scoring.pages.live_access import hall_language, hall_page, member_drive, wants_fragment
from scoring.pages.prizes import prizes_summary
from scoring.selectors import current_tables, game_view, slow_tables, standings_for_drive

POLL_SECONDS = 3
PAGE_SECONDS = 8
TABLES, STANDINGS, PRIZES = "tables", "standings", "prizes"


@login_required
@require_http_methods(["GET", "HEAD"])
@gzip_page
@hall_page
def projector(request: HttpRequest, slug: str) -> HttpResponse:
    drive, _role = member_drive(request, slug)
    hall_language(request, drive)
    shown = request.GET.get("show")
    mode = shown if shown in (STANDINGS, PRIZES) else TABLES
    tie = request.GET.get("tie", "")
    tie = tie if mode == PRIZES and tie.isascii() and tie.isdigit() else ""
    key = poll_key("projector", drive, mode, tie)
    if wants_fragment(request) and (unchanged := not_modified(request, key)):
        return unchanged
    context: dict[str, Any] = {
        "drive": drive,
        "mode": mode,
        "poll_seconds": POLL_SECONDS,
        "page_seconds": PAGE_SECONDS,
        "view": None,
        "rows": [],
    }
    marks_at = None
    if mode == TABLES:
        if drive.current_game:
            view = game_view(drive, drive.current_game)
            # "Waiting for tables 7, 12": the tables still playing well after most reported.
            slow = slow_tables(drive, view) if not drive.is_closed else {"tables": [], "at": None}
            marks_at = slow["at"] if slow["at"] is not None and not slow["tables"] else None
            context["view"] = view and {
                key: view[key] for key in ("number", "reported", "to_report", "state")
            } | {"slow": slow["tables"]}
            rows = current_tables(drive)
            context["rows"] = rows
            context["rows_key"] = _digest((TABLES_TEMPLATE, get_language(), rows))
            context["rows_html"] = _tables_html(rows, context["rows_key"])
    elif mode == PRIZES:
        summary = prizes_summary(drive)
        context["prizes"] = summary
        if summary and tie:
            context["cut_tie"] = summary["ties_by_id"].get(int(tie))
        context["tie_param"] = tie
        context["rows"] = summary and (summary["table"], summary["ties"])
    else:
        rows = [row for row in standings_for_drive(drive) if row["place"] is not None]
        # "3 wins", translated once for each number of wins rather than once a row.
        wins = {
            n: ngettext("%(wins)s win", "%(wins)s wins", n) % {"wins": n}
            for n in {row["wins"] for row in rows}
        }
        context["rows"] = [{**row, "wins_label": wins[row["wins"]]} for row in rows]
    shown = context.get("rows_key") or context["rows"]
    context["version"] = _digest((drive.state, drive.current_game, context["view"], shown))[:16]
    if wants_fragment(request):
        # Slow tables are marked when their time comes, with nothing written: the ETag ends then.
        return tagged(render(request, "scoring/projector_live.html", context), key, until=marks_at)
    return render(request, "scoring/projector.html", context)


# The couple → table list is cached under what it shows (in the language shown): it changes
# only at an advance or a new seating, while the count of tables reported above it changes with
# every result.
TABLES_TEMPLATE = "scoring/projector_tables.html"
TABLES_CACHE_SECONDS = 6 * 3600


def _tables_html(rows: list[dict[str, Any]], key: str) -> str:
    """The couple → table list as HTML, from the cache or rendered and kept there."""
    where = "projector-tables:" + key
    html = cache.get(where)
    if not isinstance(html, str):
        html = get_template(TABLES_TEMPLATE).render({"rows": rows}).rstrip()
        cache.set(where, html, TABLES_CACHE_SECONDS)
    return mark_safe(html)


def _digest(shown: Any) -> str:
    return hashlib.sha1(repr(shown).encode()).hexdigest()
