"""Standings and the per-game win grid for the club's organizers and scorers, and the public
results page once the organizer publishes the drive (a 404 until then, as for a drive that
does not exist). Tables are django-tables2 (``scoring.pages.tables``): sortable by their headers,
exported with ``?_export=csv`` or ``?_export=xlsx``.

Reads only: ``standings_for_drive`` and ``win_grid``, a fixed number of queries each.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_http_methods
from django_tables2 import RequestConfig

from drives.models import Drive
from scoring.pages.live_access import hall_language, hall_page, member_drive
from scoring.pages.prizes import prizes_summary
from scoring.pages.tables import EXPORT_PARAM, StandingsTable, standings_rows, win_grid_table
from scoring.selectors import standings_for_drive, win_grid


def _standings_table(request: HttpRequest, drive: Drive) -> StandingsTable:
    table = StandingsTable(standings_rows(standings_for_drive(drive)))
    RequestConfig(request, paginate=False).configure(table)
    return table


def _export_or_page(
    request: HttpRequest, table: Any, filename: str, template: str, context: dict[str, Any]
) -> HttpResponse:
    export: HttpResponse | None = table.export_response(request.GET.get(EXPORT_PARAM), filename)
    if export is not None:
        return export
    context.update(table=table, export_formats=table.export_formats)
    return render(request, template, context)


@gzip_page
@login_required
@require_http_methods(["GET", "HEAD"])
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    drive, role = member_drive(request, slug)
    table = _standings_table(request, drive)
    return _export_or_page(
        request,
        table,
        f"{drive.slug}-standings",
        "scoring/standings.html",
        {"drive": drive, "role": role, "here": "standings"},
    )


@gzip_page
@login_required
@require_http_methods(["GET", "HEAD"])
def grid(request: HttpRequest, slug: str) -> HttpResponse:
    drive, role = member_drive(request, slug)
    games = drive.current_game
    table = win_grid_table(win_grid(drive), games)
    RequestConfig(request, paginate=False).configure(table)
    return _export_or_page(
        request,
        table,
        f"{drive.slug}-grid",
        "scoring/standings_grid.html",
        {"drive": drive, "role": role, "here": "grid", "games": games},
    )


@gzip_page
@require_http_methods(["GET", "HEAD"])
@hall_page
def results(request: HttpRequest, slug: str) -> HttpResponse:
    """The public results, in the drive's language: anyone may read them once the organizer
    publishes the drive."""
    drive = Drive.objects.select_related("club").filter(slug=slug, published=True).first()
    if drive is None:
        raise Http404("No such results.")
    hall_language(request, drive)
    table = _standings_table(request, drive)
    return _export_or_page(
        request,
        table,
        f"{drive.slug}-results",
        "scoring/results.html",
        {"drive": drive, "prizes": prizes_summary(drive)},
    )
