"""The club's players page (``/clubs/<club>/players/``): the players with their nights, a
search (accents and case ignored), the possible duplicates each with a merge form, a new
player of a name already there, and a player's edit page (name, phone, e-mail); the club's
settings page (what its public pages show of the players' names).

Members of the club read (a scorer sees no phone or e-mail); organizers change. Every change
goes through ``club.services``; a refusal comes back as a form error (status 422).

The club's public pages, for anyone and in the club's language (``club.public.club_language``):
the club's page (``/clubs/<club>/``: upcoming drives, past nights, the season) and a player's
page (``/clubs/<club>/players/<id>/``; a 404 when the club shows no names), and the player's
own page reached from their couple's page (``…/players/<id>/<key>/``, whatever the setting).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_http_methods

from club import public, selectors, services
from club.forms import ClubSettingsForm, ClubSiteForm, PlayerForm, PlayerNameForm
from drives.errors import ServiceError
from drives.models import Club, Membership, Player
from drives.views import club_of_member, desk_actor

ORGANIZER = Membership.Role.ORGANIZER


def _club(request: HttpRequest, slug: str, *, write: bool = False) -> tuple[Club, str]:
    """The club and the user's role: 404 for outsiders, 403 for a scorer who would change."""
    return club_of_member(
        request,
        slug,
        refusal=_("Only the club's organizers can change its players.") if write else "",
    )


def _player(club: Club, pk: Any) -> Player:
    player = Player.objects.filter(club=club, pk=pk).first() if str(pk).isdigit() else None
    if player is None:
        raise Http404(_("No such player at this club."))
    return player


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def player_list(request: HttpRequest, club: str) -> HttpResponse:
    """The players; POST ``action`` = add (``name``) or merge (``keep``, ``gone``)."""
    found, role = _club(request, club, write=request.method == "POST")
    query = request.GET.get("q", "")[:80]
    add_form = PlayerNameForm()
    status, problem = 200, ""
    if request.method == "POST":
        status = 422
        action = request.POST.get("action")
        try:
            if action == "add":
                add_form = PlayerNameForm(request.POST)
                if add_form.is_valid():
                    player = services.player_add(
                        club=found, name=add_form.cleaned_data["name"], actor=desk_actor(request)
                    )
                    messages.success(request, _("%(name)s was added.") % {"name": player.name})
                    return redirect("club:players", club=found.slug)
            elif action == "merge":
                keep = _player(found, request.POST.get("keep", ""))
                gone = _player(found, request.POST.get("gone", ""))
                count = services.player_merge(keep=keep, gone=gone, actor=desk_actor(request))
                messages.success(
                    request,
                    ngettext(
                        "%(gone)s is now %(keep)s (%(count)s couple relinked).",
                        "%(gone)s is now %(keep)s (%(count)s couples relinked).",
                        count,
                    )
                    % {"gone": gone.name, "keep": keep.name, "count": count},
                )
                return redirect("club:players", club=found.slug)
            else:
                problem = _("Unknown action.")
                status = 400
        except ServiceError as error:
            status, problem = error.status, error.message
    context = {
        "club": found,
        "role": role,
        "query": query,
        "rows": selectors.players_search(found, query),
        "duplicates": selectors.players_possible_duplicates(found),
        "add_form": add_form,
        "problem": problem,
    }
    return render(request, "club/player_list.html", context, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def player_edit(request: HttpRequest, club: str, player: int) -> HttpResponse:
    """A player's name, phone and e-mail, for the club's organizers."""
    found, _role = _club(request, club, write=True)
    one = _player(found, player)
    initial = {"name": one.name, "phone": one.phone, "email": one.email, "member": one.member}
    form = PlayerForm(request.POST if request.method == "POST" else None, initial=initial)
    status = 200
    if request.method == "POST":
        status = 422
        if form.is_valid():
            try:
                services.player_update(player=one, actor=desk_actor(request), **form.cleaned_data)
            except ServiceError as error:
                form.add_error(error.details.get("field"), error.message)
            else:
                messages.success(request, _("The player was saved."))
                return redirect("club:players", club=found.slug)
    context = {"club": found, "player": one, "form": form}
    return render(request, "club/player_edit.html", context, status=status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def club_settings(request: HttpRequest, club: str) -> HttpResponse:
    """The club's settings, for its organizers: what its public pages show of the names, and
    the club's site (where the hall's laptop publishes its nights: docs/club-site.md)."""
    found, _role = club_of_member(
        request, club, refusal=_("Only the club's organizers can change its settings.")
    )
    posted = request.POST if request.method == "POST" else None
    which = posted.get("form", "names") if posted is not None else ""
    form = ClubSettingsForm(
        posted if which == "names" else None, initial={"public_names": found.public_names}
    )
    site_form = ClubSiteForm(
        posted if which == "site" else None,
        initial={"site_url": found.site_url, "publish_at_close": found.publish_at_close},
    )
    status = 200
    if posted is not None:
        status = 422
        chosen = site_form if which == "site" else form
        if chosen.is_valid():
            try:
                if which == "site":
                    data = site_form.cleaned_data
                    services.club_site_update(
                        club=found,
                        actor=desk_actor(request),
                        site_url=data["site_url"],
                        site_token=None if data["forget_token"] else data["site_token"],
                        publish_at_close=data["publish_at_close"],
                    )
                else:
                    services.club_public_names(
                        club=found, actor=desk_actor(request), **form.cleaned_data
                    )
            except ServiceError as error:
                field = error.details.get("field")
                chosen.add_error(field if field in chosen.fields else None, error.message)
            else:
                messages.success(request, _("The club's settings were saved."))
                return redirect("club:settings", club=found.slug)
    context = {"club": found, "form": form, "site_form": site_form}
    return render(request, "club/club_settings.html", context, status=status)


def _public_club(request: HttpRequest, slug: str) -> Club:
    """The club of a public page, the rest of the request in its language (404: no club)."""
    found = Club.objects.filter(slug=slug).first()
    if found is None:
        raise Http404(_("No such club."))
    language = public.club_language(found)
    translation.activate(language)
    request.LANGUAGE_CODE = language
    return found


def public_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A public page of the club: gzipped, GET only, its language restored afterwards."""

    @gzip_page
    @require_http_methods(["GET", "HEAD"])
    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        with translation.override(translation.get_language()):
            return view(request, *args, **kwargs)

    return wrapper


@public_page
def club_home(request: HttpRequest, club: str) -> HttpResponse:
    """The club's public page: upcoming drives, past nights (a page of them), the season."""
    found = _public_club(request, club)
    page = public.club_page(found, request.GET.get("page", 1))
    return render(request, "club/club_home.html", {"club": found, "page": page})


@public_page
def player_page(request: HttpRequest, club: str, player: int) -> HttpResponse:
    """A player's public page: a 404 when the club shows no names (nor lists its players)."""
    found = _public_club(request, club)
    one = public.public_player(found, player)
    if one is None:
        raise Http404(_("No such player at this club."))
    history = public.player_history(found, one)
    context = {"club": found, "history": history, "own": False}
    return render(request, "club/player_page.html", context)


@public_page
def player_own(request: HttpRequest, club: str, player: int, key: str) -> HttpResponse:
    """The player's own page, reached from their couple's page: names in full, never indexed."""
    found = _public_club(request, club)
    one = public.own_player(found, player, key)
    if one is None:
        raise Http404(_("No such player at this club."))
    history = public.player_history(found, one, own=True)
    context = {"club": found, "history": history, "own": True}
    response = render(request, "club/player_page.html", context)
    response["X-Robots-Tag"] = "noindex"
    response["Referrer-Policy"] = "no-referrer"
    return response
