"""The season pages: the user's clubs and their seasons (a new season for organizers), one
season (its players' standings, sortable and exported as CSV/XLSX, its drives, the cookie jar
from drive to drive), its edit page, its players (merge two spellings, split two people of
one name), the projector, and the public standings once the organizer publishes the season
(a 404 until then, as for a season that does not exist).

Members of the club read; organizers change. Every change goes through ``seasons.services``;
a refusal comes back as a form error (status 422), never half-done.
"""

from __future__ import annotations

from typing import Any, ClassVar

import django_tables2 as tables
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST
from django_tables2 import RequestConfig

from drives.errors import ServiceError
from drives.models import Club, Drive, Membership
from drives.views import club_of_member, desk_actor
from scoring.pages.tables import EXPORT_PARAM, NO_PLACE, BaseTable
from seasons import selectors, services
from seasons.forms import AddDriveForm, MergeForm, SeasonForm, SeasonRulesForm, SplitForm
from seasons.models import Season

ORGANIZER = Membership.Role.ORGANIZER
PAGE_SECONDS = 10  # the projector turns its screens of players this often


class SeasonTable(BaseTable):
    """The players' season standings (rows from ``selectors.standings_rows``)."""

    place = tables.Column(verbose_name=gettext_lazy("Place"), attrs={"td": {"class": "num"}})
    player = tables.Column(verbose_name=gettext_lazy("Player"))
    drives = tables.Column(verbose_name=gettext_lazy("Drives"), attrs={"td": {"class": "num"}})
    wins = tables.Column(verbose_name=gettext_lazy("Total wins"), attrs={"td": {"class": "num"}})
    score = tables.Column(
        verbose_name=gettext_lazy("Season score"), attrs={"td": {"class": "num score"}}
    )
    nights_won = tables.Column(
        verbose_name=gettext_lazy("Nights won"), attrs={"td": {"class": "num"}}
    )
    best = tables.Column(verbose_name=gettext_lazy("Best night"), attrs={"td": {"class": "num"}})
    best_drive_name = tables.Column(verbose_name=gettext_lazy("Best night's drive"))
    average = tables.Column(
        verbose_name=gettext_lazy("Average wins per drive"), attrs={"td": {"class": "num"}}
    )
    prizes = tables.Column(verbose_name=gettext_lazy("Prizes won"), attrs={"td": {"class": "num"}})

    class Meta(BaseTable.Meta):
        row_attrs: ClassVar[dict[str, Any]] = {"data-player": lambda record: record["key"]}

    def order_average(self, queryset: Any, is_descending: bool) -> tuple[Any, bool]:
        ordered = sorted(queryset, key=lambda r: float(r["average"]), reverse=is_descending)
        return ordered, True

    def order_place(self, queryset: Any, is_descending: bool) -> tuple[Any, bool]:
        ordered = sorted(queryset, key=lambda r: r["place"] or NO_PLACE, reverse=is_descending)
        return ordered, True


def _club(request: HttpRequest, slug: str, *, write: bool = False) -> tuple[Club, str]:
    """The club and the user's role: 404 for outsiders, 403 for a scorer who would change."""
    return club_of_member(
        request,
        slug,
        refusal=_("Only the club's organizers can change its seasons.") if write else "",
    )


def _season(
    request: HttpRequest, club: str, season: str, *, write: bool = False
) -> tuple[Season, str]:
    found, role = _club(request, club, write=write)
    try:
        return selectors.season_get(found, season), role
    except ServiceError:
        raise Http404(_("No such season.")) from None


def _here(season: Season, name: str = "season_detail") -> str:
    return reverse(f"seasons:{name}", args=[season.club.slug, season.slug])


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def season_list(request: HttpRequest) -> HttpResponse:
    """The user's clubs and their seasons; an organizer makes a new season here (POST with
    ``club``)."""
    user: Any = request.user  # signed in (login_required)
    memberships = Membership.objects.filter(user=user).select_related("club")
    roles = {m.club_id: m.role for m in memberships}
    clubs = list(Club.objects.filter(pk__in=roles).order_by("name"))
    status, failed, form_club = 200, None, None
    if request.method == "POST":
        club, _role = _club(request, request.POST.get("club", ""), write=True)
        form = SeasonForm(request.POST)
        if form.is_valid():
            try:
                season = services.season_create(
                    club=club, actor=desk_actor(request), **form.cleaned_data
                )
            except ServiceError as error:
                form.add_error(error.details.get("field") or None, error.message)
            else:
                messages.success(
                    request,
                    _("The season %(name)s is made: now add its drives.") % {"name": season.name},
                )
                return redirect(_here(season))
        status, failed, form_club = 422, form, club.pk
    rows = []
    for club in clubs:
        rows.append(
            {
                "club": club,
                "role": roles[club.pk],
                "seasons": selectors.seasons_of(club),
                "form": failed if form_club == club.pk else SeasonForm(),
            }
        )
    return render(request, "seasons/season_list.html", {"clubs": rows}, status=status)


def _money(drives: list[Drive], role: str) -> dict[str, Any]:
    """The night's money of each drive, for the organizers only (as its money pages are);
    ``money_currency`` when the drives share one (then the sums are shown without it)."""
    if role != ORGANIZER or not drives:
        return {"money": None, "money_currency": None}
    money = selectors.season_money(drives)
    currencies = [total["currency"] for total in money["totals"]]
    return {"money": money, "money_currency": currencies[0] if len(currencies) == 1 else None}


def _standings(
    request: HttpRequest, found: Season
) -> tuple[Any, SeasonTable, HttpResponse | None, dict[str, Any]]:
    """The season's view and its standings table (the qualified), sorted as the request asks,
    with the file the request asks for (``?_export=csv``…: every player, those not qualified
    yet without a place) when it asks for one, and what the page says of the rules: their
    words, the players not qualified yet (a table of their own), most improved, the final."""
    view = selectors.season_view(found)
    rows = selectors.standings_rows(view)
    table = SeasonTable([r for r in rows if r["qualified"]])
    RequestConfig(request, paginate=False).configure(table)
    everyone = SeasonTable(rows)
    RequestConfig(request, paginate=False).configure(everyone)
    export = everyone.export_response(request.GET.get(EXPORT_PARAM), f"{found.slug}-season")
    apart = None
    if view.apart:
        apart = SeasonTable([r for r in rows if not r["qualified"]], prefix="apart-")
        RequestConfig(request, paginate=False).configure(apart)
    rules = {
        "rules_words": selectors.rules_words(found),
        "apart_table": apart,
        "improved": selectors.improved_rows(view),
        "finalists": view.final,
    }
    return view, table, export, rules


@login_required
@require_http_methods(["GET", "HEAD"])
def season_detail(request: HttpRequest, club: str, season: str) -> HttpResponse:
    found, role = _season(request, club, season)
    view, table, export, rules = _standings(request, found)
    if export is not None:
        return export
    return render(
        request,
        "seasons/season_detail.html",
        {
            "season": found,
            "role": role,
            "view": view,
            "table": table,
            "export_formats": table.export_formats,
            "clashes": [p for p in view.players if p.clashes],
            "jar": selectors.season_jar(view.drives),
            **_money(view.drives, role),
            "pots": selectors.season_pots(found.club, view.drives),
            "add_form": AddDriveForm(drives=selectors.drives_free(found)),
            "by_slug": view.by_slug,
            **rules,
        },
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def season_edit(request: HttpRequest, club: str, season: str) -> HttpResponse:
    found, _role = _season(request, club, season, write=True)
    initial = {f: getattr(found, f) for f in services.SEASON_FIELDS}
    initial["place_points"] = ", ".join(str(p) for p in found.place_points)
    form = SeasonRulesForm(request.POST if request.method == "POST" else None, initial=initial)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.season_update(season=found, actor=desk_actor(request), **form.cleaned_data)
            except ServiceError as error:
                form.add_error(
                    error.details.get("field")
                    if error.details.get("field") in form.fields
                    else None,
                    error.message,
                )
            else:
                messages.success(request, _("The season is saved."))
                return redirect(_here(found))
        status = 422
        found.refresh_from_db()
    return render(
        request, "seasons/season_edit.html", {"season": found, "form": form}, status=status
    )


@login_required
@require_POST
def season_add_drive(request: HttpRequest, club: str, season: str) -> HttpResponse:
    found, _role = _season(request, club, season, write=True)
    form = AddDriveForm(request.POST, drives=selectors.drives_free(found))
    if form.is_valid():
        drive = Drive.objects.get(slug=form.cleaned_data["drive"])
        try:
            services.season_add_drive(season=found, drive=drive, actor=desk_actor(request))
        except ServiceError as error:
            form.add_error("drive", error.message)
        else:
            messages.success(request, _("%(drive)s is in the season.") % {"drive": drive.name})
            return redirect(_here(found))
    errors = "; ".join(str(e) for errors in form.errors.values() for e in errors)
    messages.error(request, _("The drive was not added: %(why)s") % {"why": errors})
    return redirect(_here(found), status=303)


@login_required
@require_POST
def season_remove_drive(request: HttpRequest, club: str, season: str, drive: str) -> HttpResponse:
    found, _role = _season(request, club, season, write=True)
    entry = Drive.objects.filter(slug=drive, season_entry__season=found).first()
    if entry is None:
        raise Http404(_("No such drive in this season."))
    services.season_remove_drive(season=found, drive=entry, actor=desk_actor(request))
    messages.success(request, _("%(drive)s is no longer in the season.") % {"drive": entry.name})
    return redirect(_here(found))


def _players_context(found: Season, view: selectors.SeasonView) -> dict[str, Any]:
    spellings = sorted({s for p in view.players for s in p.spellings}, key=str.casefold)
    return {
        "season": found,
        "view": view,
        "merge_form": MergeForm(names=spellings),
        "split_form": SplitForm(drives=view.drives),
        "merged": [p for p in view.players if len(p.spellings) > 1],
        "splits": found.splits.select_related("drive").order_by("drive__date", "key"),
        "clashes": [
            (p.name, [view.by_slug[d].name for d in p.clashes]) for p in view.players if p.clashes
        ],
        "by_slug": view.by_slug,
    }


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def season_players(request: HttpRequest, club: str, season: str) -> HttpResponse:
    """The season's players: merge two spellings, split two people of one name, and undo
    either. POST with ``action`` = merge, unmerge, split or unsplit."""
    found, role = _season(request, club, season, write=request.method == "POST")
    view = selectors.season_view(found)
    context = _players_context(found, view) | {"role": role}
    if request.method != "POST":
        return render(request, "seasons/season_players.html", context)
    action = request.POST.get("action")
    spellings = [c for c, _label in context["merge_form"].fields["name"].choices if c]
    actor = desk_actor(request)
    form: Any
    try:
        if action == "merge":
            form = MergeForm(request.POST, names=spellings)
            context["merge_form"] = form
            if form.is_valid():
                if form.cleaned_data["name"] == form.cleaned_data["into"]:
                    form.add_error(
                        "into",
                        _(
                            "Choose two different spellings: a player is always the same "
                            "person as themselves."
                        ),
                    )
                else:
                    services.player_merge(season=found, actor=actor, **form.cleaned_data)
                    messages.success(
                        request, _("%(name)s now counts as %(into)s.") % form.cleaned_data
                    )
                    return redirect(_here(found, "season_players"))
        elif action == "split":
            form = SplitForm(request.POST, drives=view.drives)
            context["split_form"] = form
            if form.is_valid():
                drive = view.by_slug[form.cleaned_data["drive"]]
                services.player_split(
                    season=found,
                    drive=drive,
                    name=form.cleaned_data["name"],
                    as_name=form.cleaned_data["as_name"],
                    actor=actor,
                )
                messages.success(
                    request,
                    _("At %(drive)s, %(name)s now counts as %(as_name)s.")
                    % {"drive": drive.name, **form.cleaned_data},
                )
                return redirect(_here(found, "season_players"))
        elif action == "unmerge":
            services.player_unmerge(season=found, name=request.POST.get("name", ""), actor=actor)
            messages.success(request, _("The spellings count as different players again."))
            return redirect(_here(found, "season_players"))
        elif action == "unsplit":
            split_at = view.by_slug.get(request.POST.get("drive", ""))
            if split_at is None:
                raise Http404(_("No such drive in this season."))
            services.player_unsplit(
                season=found, drive=split_at, name=request.POST.get("name", ""), actor=actor
            )
            messages.success(request, _("The split is undone."))
            return redirect(_here(found, "season_players"))
        else:
            messages.error(request, _("Nothing was changed: choose merge or split."))
    except ServiceError as error:
        target = context["split_form"] if action == "split" else context["merge_form"]
        field = error.details.get("field")
        if action in ("merge", "split") and target.is_bound:
            target.add_error(field if field in target.fields else None, error.message)
        else:
            messages.error(request, error.message)
    return render(request, "seasons/season_players.html", context, status=422)


@login_required
@require_http_methods(["GET", "HEAD"])
def season_projector(request: HttpRequest, club: str, season: str) -> HttpResponse:
    found, _role = _season(request, club, season)
    view = selectors.season_view(found)
    return render(
        request,
        "seasons/season_projector.html",
        {"season": found, "view": view, "page_seconds": PAGE_SECONDS},
    )


@require_http_methods(["GET", "HEAD"])
def season_public(request: HttpRequest, club: str, season: str) -> HttpResponse:
    """The season standings for anyone, once the organizer publishes the season."""
    found = (
        Season.objects.select_related("club")
        .filter(club__slug=club, slug=season, published=True)
        .first()
    )
    if found is None:
        raise Http404(_("No such season."))
    view, table, export, rules = _standings(request, found)
    if export is not None:
        return export
    return render(
        request,
        "seasons/season_public.html",
        {
            "season": found,
            "view": view,
            "table": table,
            "export_formats": table.export_formats,
            **rules,
        },
    )
