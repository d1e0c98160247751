"""The organizer's dashboard of a night, and its actions: start, advance, corrections and
conflict resolution with a reason, the punch-card reconciliation, publish, close.

Organizers and scorers see the dashboard; scorers may correct and resolve results and enter
counted holes, only organizers start, advance, publish and close (a 403 page otherwise). Each
action calls one service and comes back to the dashboard with a message; a
:class:`~drives.errors.ServiceError` is shown naming the problem (an incomplete game's 409
lists its tables), never a 500. The reads are the selectors' (``scoring.selectors``), in a
fixed number of queries whatever the size of the night.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib import messages
from django.db.models import Count, Prefetch, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from drives.errors import ServiceError
from drives.models import AuditEntry, Couple, Drive
from drives.services import drive_close, drive_start, drive_update, holes_record
from drives.views import (
    MEMBERS,
    ORGANIZER,
    desk_actor,
    drive_links,
    drive_page,
    forbidden,
    url_or_none,
)
from scoring.models import Result, ResultVersion
from scoring.pages.forms import CorrectionForm, HolesForm, StartForm
from scoring.selectors import advance_state, calls_waiting, game_view, reconciliation
from scoring.services import game_advance, result_resolve

RECENT_CHANGES = 12

# The audit's actions in words for the "recent changes" list (others are shown as they are).
ACTIONS = {
    "drive.create": gettext_lazy("drive created"),
    "drive.update": gettext_lazy("settings changed"),
    "drive.start": gettext_lazy("night started"),
    "drive.close": gettext_lazy("night closed"),
    "drive.restore": gettext_lazy("drive restored from an export"),
    "drive.publish": gettext_lazy("night published from the hall's laptop"),
    "site.publish": gettext_lazy("night sent to the club's site"),
    "club.site": gettext_lazy("the club's site changed"),
    "registration.fetch": gettext_lazy("registrations brought from the club's site"),
    "results.import": gettext_lazy("results imported"),
    "call.open": gettext_lazy("a table called the desk"),
    "call.answer": gettext_lazy("the desk on its way to a table"),
    "call.close": gettext_lazy("a table's call closed"),
    "couples.register": gettext_lazy("couples registered"),
    "couples.late": gettext_lazy("late couples registered"),
    "tables.prepare": gettext_lazy("tables set out for printing"),
    "couple.update": gettext_lazy("couple changed"),
    "couple.delete": gettext_lazy("couple deleted (registered by mistake)"),
    "holes.record": gettext_lazy("punch cards counted"),
    "result.enter": gettext_lazy("result entered"),
    "result.conflict": gettext_lazy("a different result entered"),
    "result.key_reused": gettext_lazy("a result refused: its key was sent before with another"),
    "result.confirm": gettext_lazy("result confirmed"),
    "result.reject": gettext_lazy("result rejected"),
    "result.undo": gettext_lazy("result undone at once by whoever entered it"),
    "result.correct": gettext_lazy("result corrected at once by the scorer who entered it"),
    "result.resolve": gettext_lazy("result settled or corrected"),
    "game.advance": gettext_lazy("next game started"),
    "prizes.setup": gettext_lazy("prizes set up"),
    "prizes.open": gettext_lazy("prizes settled, ties opened"),
    "tie.choice": gettext_lazy("tie: a couple's choice"),
    "tie.decide": gettext_lazy("tie: how it is settled"),
    "tie.cut": gettext_lazy("tie: a card cut"),
    "tie.playoff": gettext_lazy("tie: a play-off game"),
    "tie.settle": gettext_lazy("tie settled"),
    "cookie_jar.draw": gettext_lazy("cookie jar drawn"),
    "document.print": gettext_lazy("printing asked for"),
    "registration.create": gettext_lazy("registered before the night"),
    "registration.cancel": gettext_lazy("a registration cancelled"),
}


# --- reading the night --------------------------------------------------------------------------


def _couple_counts(drive: Drive) -> dict[str, int]:
    """Registered, playing, withdrawn, paid, checked in and cookie-jar couples. One query."""
    counts = Couple.objects.filter(drive=drive).aggregate(
        # First: the aliases below (checked_in…) would hide the fields of the same names.
        absent=Count("id", filter=Q(checked_in=False, withdrawn_game__isnull=True)),
        couples=Count("id"),
        withdrawn=Count("id", filter=Q(withdrawn_game__isnull=False)),
        paid=Count("id", filter=Q(paid=True)),
        checked_in=Count("id", filter=Q(checked_in=True)),
        cookie_jar=Count("id", filter=Q(cookie_jar=True)),
    )
    counts["playing"] = counts["couples"] - counts["withdrawn"]
    return counts


def _next_game_changes(drive: Drive) -> dict[str, list[Couple]]:
    """Late arrivals and withdrawals recorded since the game in play started: they apply
    when the next game is seated (as ``scoring.services.game_advance`` reads them)."""
    if drive.state != Drive.State.RUNNING or drive.current_game >= drive.games:
        return {"late": [], "withdrawn": []}
    following = drive.current_game + 1
    changes = list(
        Couple.objects.filter(drive=drive)
        .filter(Q(joined_game=following) | Q(withdrawn_game=following))
        .order_by("number")
    )
    return {
        "late": [c for c in changes if c.joined_game == following and c.withdrawn_game is None],
        "withdrawn": [
            c for c in changes if c.withdrawn_game == following and c.joined_game < following
        ],
    }


def _who(version: ResultVersion) -> str:
    if version.user is not None:
        return version.user.get_username()
    if version.couple is not None:
        return _("couple %(number)s") % {"number": version.couple.number}
    return version.get_channel_display()


def _open_results(drive: Drive) -> list[dict[str, Any]]:
    """Results in conflict or waiting for the other couple, with every version (who entered
    what, when, through which channel). Two queries."""
    versions = ResultVersion.objects.select_related("winner", "user", "couple").order_by("at", "id")
    results = (
        Result.objects.filter(
            game__drive=drive, state__in=[Result.State.CONFLICT, Result.State.PENDING]
        )
        .select_related("game", "seat__table", "seat__stays", "seat__arrives", "winner")
        .prefetch_related(Prefetch("versions", queryset=versions))
        .order_by("game__number", "seat__table__number")
    )
    out = []
    for result in results:
        seat = result.seat
        out.append(
            {
                "game": result.game.number,
                "table": seat.table.number,
                "couples": [c.number for c in (seat.stays, seat.arrives) if c is not None],
                "winner": result.winner.number,
                "state": result.state,
                "state_label": result.get_state_display(),
                "versions": [
                    {
                        "kind": v.get_kind_display(),
                        "winner": v.winner.number,
                        "points": (
                            f"{v.winner_points}–{v.loser_points}"
                            if v.winner_points is not None
                            else ""
                        ),
                        "who": _who(v),
                        "channel": v.get_channel_display(),
                        "at": v.at,
                        "reason": v.reason,
                    }
                    for v in result.versions.all()
                ],
            }
        )
    return out


def _recent_changes(drive: Drive) -> list[dict[str, Any]]:
    """The last changes of the night, newest first, from the audit. One query."""
    entries = AuditEntry.objects.filter(drive=drive).select_related("user").order_by("-at", "-id")
    return [
        {
            "at": entry.at,
            "action": ACTIONS.get(entry.action, entry.action),
            "subject": entry.subject,
            "user": entry.user.get_username() if entry.user else "",
            "channel": entry.get_channel_display(),
            "note": entry.note,
        }
        for entry in entries[:RECENT_CHANGES]
    ]


def _holes_digest(couples: list[Couple], games: int) -> str:
    """What the holes boxes show (each couple's number and holes counted, the most holes a
    card can have), in short: the key of their cached markup."""
    shown = ",".join(f"{c.number}:{c.holes}" for c in couples)
    return hashlib.blake2b(f"{games}|{shown}".encode(), digest_size=16).hexdigest()


def _correction_initial(request: HttpRequest, drive: Drive) -> dict[str, Any]:
    initial: dict[str, Any] = {"game": drive.current_game or None}
    for name in ("game", "table", "winner"):
        value = request.GET.get(name, "")
        if value.isascii() and value.isdigit():
            initial[name] = int(value)
    return initial


def _render(
    request: HttpRequest,
    drive: Drive,
    role: str,
    *,
    status: int = 200,
    start_form: StartForm | None = None,
    correction_form: CorrectionForm | None = None,
    holes_form: HolesForm | None = None,
    advance_error: dict[str, Any] | None = None,
) -> HttpResponse:
    organizer = role == ORGANIZER
    running = drive.state == Drive.State.RUNNING
    game = game_view(drive, drive.current_game) if drive.current_game else None
    counts = _couple_counts(drive)
    if correction_form is None:
        correction_form = CorrectionForm(initial=_correction_initial(request, drive))
    fix_game = correction_form["game"].value()
    try:
        fix_game_past = running and int(fix_game) < drive.current_game
    except (TypeError, ValueError):
        fix_game_past = False
    # The holes boxes need each couple's number and holes only.
    couples = (
        list(Couple.objects.filter(drive=drive).order_by("number").only("number", "holes"))
        if game
        else []
    )
    if holes_form is None and running:
        holes_form = HolesForm(couples=couples, games=drive.games)
    holes_counted = sum(1 for c in couples if c.holes is not None)
    # The reconciliation compares counted cards with the results: nothing to compare (and
    # nothing read) until a card is counted.
    mismatches = (
        [m | {"size": abs(m["difference"])} for m in reconciliation(drive)]
        if game and holes_counted
        else []
    )
    context = {
        "drive": drive,
        "role": role,
        "organizer": organizer,
        "running": running,
        "setup": drive.state == Drive.State.SETUP,
        "closed": drive.is_closed,
        "links": drive_links(drive, "night:dashboard", role),
        "export_url": reverse("api:export", kwargs={"slug": drive.slug}),
        "results_url": url_or_none("night:results", slug=drive.slug) if drive.published else None,
        "counts": counts,
        "game": game,
        "tables_left": (game["to_report"] - game["reported"]) if game else 0,
        "advance": advance_state(drive, game, role),
        "advance_error": advance_error,
        "start_form": start_form
        or StartForm(drive=drive, absent=_absent_couples(drive) if counts["absent"] else None),
        "start_possible": counts["playing"] >= 2,
        "changes": _next_game_changes(drive),
        "open_results": _open_results(drive) if running else [],
        "correction_form": correction_form,
        "fix_game_past": fix_game_past,
        "holes_form": holes_form,
        "holes_counted": holes_counted,
        # The unchanged boxes are drawn once (the template's cache, under what they show).
        "holes_digest": _holes_digest(couples, drive.games),
        "mismatches": mismatches,
        "last_game": drive.current_game == drive.games,
        "recent": _recent_changes(drive),
        "api_url": reverse("api:drive", kwargs={"slug": drive.slug}),
        # The tables waiting for the desk (the page's script asks for them every few seconds).
        "calls": calls_waiting(drive) if running else [],
        "calls_url": reverse("api:calls", kwargs={"slug": drive.slug}),
    }
    return render(request, "scoring/organizer_dashboard.html", context, status=status)


def _form_gone(drive: Drive) -> bool:
    """Whether the night has left the running state (closed meanwhile, by another organizer
    or another tab): the dashboard no longer shows the form that was sent."""
    drive.refresh_from_db()
    return drive.state != Drive.State.RUNNING


def _refused(request: HttpRequest, drive: Drive, error: ServiceError) -> HttpResponse:
    messages.error(request, error.message)
    return _back(drive)


def _back(drive: Drive, anchor: str = "") -> HttpResponse:
    url = reverse("night:dashboard", kwargs={"slug": drive.slug})
    return redirect(f"{url}#{anchor}" if anchor else url)


# --- the pages and actions ----------------------------------------------------------------------


@gzip_page
@drive_page(*MEMBERS)
@require_GET
def dashboard(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    """The night at a glance, with what to do next."""
    return _render(request, drive, role)


@drive_page(ORGANIZER)
@require_POST
def start(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    """Seat game 1, by number or shuffled; the couples not checked in are seated or left out
    (withdrawn before game 1), as the organizer answers."""
    form = StartForm(request.POST, drive=drive, absent=_absent_couples(drive))
    if not form.is_valid():
        return _render(request, drive, role, status=422, start_form=form)
    try:
        game = drive_start(
            drive=drive,
            actor=desk_actor(request),
            seating=form.cleaned_data["seating"],
            seed=form.cleaned_data["seed"],
            absent=form.cleaned_data.get("absent") or "seat",
        )
    except ServiceError as error:
        drive.refresh_from_db()
        if drive.state != Drive.State.SETUP:  # started meanwhile, or closed: no start form
            return _refused(request, drive, error)
        form.add_error(None, error.message)
        return _render(request, drive, role, status=error.status, start_form=form)
    seats = list(game.seats.select_related("stays", "arrives"))
    tables = sum(1 for seat in seats if not seat.is_sit_out)
    started = _("The night has started: game 1 is seated at %(tables)s tables.") % {
        "tables": tables
    }
    for seat in seats:
        if seat.is_sit_out:
            sitting_out = seat.stays or seat.arrives
            if sitting_out is not None:
                started += " " + _("Couple %(n)s sits out.") % {"n": sitting_out.number}
    messages.success(request, started)
    if form.cleaned_data.get("absent") == "withdraw":
        messages.info(
            request,
            _("Left out, not checked in (withdrawn before game 1): couples %(numbers)s.")
            % {"numbers": ", ".join(str(c.number) for c in form.not_checked_in)},
        )
    return _back(drive)


def _absent_couples(drive: Drive) -> list[Couple]:
    """The couples not checked in and not withdrawn, before the start (none after it)."""
    if drive.state != Drive.State.SETUP:
        return []
    return list(
        Couple.objects.filter(drive=drive, checked_in=False, withdrawn_game__isnull=True)
        .only("number")
        .order_by("number")
    )


@drive_page(*MEMBERS)
@require_POST
def advance(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    """Seat the next game once the game in play is complete (the 409 lists its tables). Scorers
    too, unless the drive's settings keep it to organizers."""
    if role not in drive.advance_roles():
        return forbidden(request, drive, drive.advance_roles())
    raw = request.POST.get("game", "")
    if not (raw.isascii() and raw.isdigit()):
        messages.error(request, _("Which game is over? The form did not say."))
        return _back(drive)
    number = int(raw)
    try:
        status, game = game_advance(drive=drive, game=number, actor=desk_actor(request))
    except ServiceError as error:
        if error.code == "game_incomplete":
            problem = {
                "message": error.message,
                "missing": error.details.get("missing", []),
                "conflicts": error.details.get("conflicts", []),
                "pending": error.details.get("pending", []),
                "game": number,
            }
            return _render(request, drive, role, status=409, advance_error=problem)
        messages.error(request, error.message)
        return _back(drive)
    if status == 201:
        messages.success(
            request,
            _("Game %(game)s has started: the projector shows the new tables.")
            % {"game": game.number},
        )
    else:
        messages.info(
            request,
            _("Game %(game)s had already started (the advance happens only once).")
            % {"game": game.number},
        )
    return _back(drive)


@drive_page(*MEMBERS)
@require_POST
def resolve(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    """Settle a conflict or correct a table's result, with a reason."""
    form = CorrectionForm(request.POST)
    if not form.is_valid():
        return _render(request, drive, role, status=422, correction_form=form)
    data = form.cleaned_data
    try:
        result_resolve(
            drive=drive,
            game=data["game"],
            table=data["table"],
            winner=data["winner"],
            reason=data["reason"],
            actor=desk_actor(request),
        )
    except ServiceError as error:
        if _form_gone(drive):
            return _refused(request, drive, error)
        form.add_error(None, error.message)
        return _render(request, drive, role, status=error.status, correction_form=form)
    text = _("Game %(game)s, table %(table)s: couple %(winner)s won (recorded with the reason).")
    messages.success(request, text % data)
    if data["game"] < drive.current_game:
        messages.info(
            request,
            _(
                "Game %(game)s was already over: wins and standings change, the seating "
                "already played does not. The audit says so."
            )
            % data,
        )
    return _back(drive, "correct")


@drive_page(*MEMBERS)
@require_POST
def holes(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    """Record the holes counted on the punch cards; the mismatches show on the dashboard."""
    couples = list(Couple.objects.filter(drive=drive).order_by("number"))
    form = HolesForm(request.POST, couples=couples, games=drive.games)
    if not form.is_valid():
        return _render(request, drive, role, status=422, holes_form=form)
    counted = form.holes()
    if not counted:
        messages.info(request, _("No holes were entered."))
        return _back(drive, "reconciliation")
    try:
        holes_record(drive=drive, holes=counted, actor=desk_actor(request))
    except ServiceError as error:
        if _form_gone(drive):
            return _refused(request, drive, error)
        form.add_error(None, error.message)
        return _render(request, drive, role, status=error.status, holes_form=form)
    mismatches = len(reconciliation(drive))
    text = _("Holes recorded for %(count)s couples.") % {"count": len(counted)}
    if mismatches:
        text += " " + _("%(n)s cards do not match the results: see below.") % {"n": mismatches}
    else:
        text += " " + _("Every counted card matches the results.")
    messages.success(request, text)
    return _back(drive, "reconciliation")


@drive_page(ORGANIZER)
@require_POST
def publish(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    """Open the public results page, or close it again."""
    published = request.POST.get("published", "1") != "0"
    try:
        drive_update(drive=drive, actor=desk_actor(request), published=published)
    except ServiceError as error:
        messages.error(request, error.message)
        return _back(drive)
    if published:
        messages.success(request, _("The results are public now."))
    else:
        messages.success(request, _("The results are no longer public."))
    return _back(drive, "publish")


@drive_page(ORGANIZER)
@require_http_methods(["GET", "POST"])
def close(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    """Close the night after a confirmation: read-only from then on; the table links say the
    night is over, the couple links show each couple its own record."""
    if request.method == "POST":
        try:
            drive_close(drive=drive, actor=desk_actor(request))
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(
                request,
                _(
                    "The night is closed: nothing can change any more. The table links only "
                    "say the night is over; the couple links still show each couple its own "
                    "record of the night."
                ),
            )
        return _back(drive)
    if drive.is_closed:
        messages.info(request, _("The night is already closed."))
        return _back(drive)
    game = game_view(drive, drive.current_game) if drive.current_game else None
    return render(
        request,
        "scoring/organizer_close.html",
        {
            "drive": drive,
            "game": game,
            "mismatches": reconciliation(drive) if game else [],
            "links": drive_links(drive, "night:dashboard"),
        },
    )
