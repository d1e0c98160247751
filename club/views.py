"""The club's players page (``/clubs/<club>/players/``): the players with their nights, a
search (accents and case ignored), the possible duplicates each with a merge form, a new
player of a name already there, and a player's edit page (name, phone, e-mail).

Members of the club read (a scorer sees no phone or e-mail); organizers change. Every change
goes through ``club.services``; a refusal comes back as a form error (status 422).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from club import selectors, services
from club.forms import PlayerForm, PlayerNameForm
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
