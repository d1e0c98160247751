"""The organizer's setup pages: the user's clubs and drives, a new drive and its settings,
couples at the door (register, paid, checked in, cookie jar, withdraw) and a couples CSV.

Views parse a form, check who may act (``drives.services.require_role``: a 404 for anyone
outside the drive's club, a 403 page for a member without the role), call one service and
render. The night's rules are the services'; a :class:`~drives.errors.ServiceError` becomes a
form error or a message naming the problem. The night's own pages (the dashboard, the desk,
the projector) live in ``scoring``; this module links to them by URL name only.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.validators import slug_re
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils.functional import Promise
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from drives.errors import NotFound, ServiceError
from drives.forms import (
    ClubForm,
    CoupleForm,
    CoupleNamesForm,
    CouplesCsvForm,
    DriveCreateForm,
    DriveSettingsForm,
)
from drives.models import AuditEntry, Club, Couple, Drive, Membership
from drives.names import name_key
from drives.registrations import door_registrations, registration_state
from drives.services import (
    COUPLE_FLAGS,
    Actor,
    club_create,
    couple_delete,
    couple_update,
    couples_csv_read,
    couples_import_csv,
    couples_register,
    csv_max_bytes,
    drive_create,
    drive_update,
    require_role,
    role_in,
)
from drives.signals import PAID_WAYS

ORGANIZER = Membership.Role.ORGANIZER
SCORER = Membership.Role.SCORER
MEMBERS = (ORGANIZER, SCORER)

# A page of a drive: an HTML page, a JSON answer or a file (a FileResponse streams).
DriveView = Callable[..., HttpResponseBase]


# --- shared by the pages of one drive (scoring's organizer pages use them too) -----------------


def desk_actor(request: HttpRequest) -> Actor:
    """The audit's "who": the logged-in user at the desk."""
    return Actor(user=request.user, channel=AuditEntry.Channel.DESK)


def club_of_member(request: HttpRequest, slug: str, *, refusal: str = "") -> tuple[Club, str]:
    """A club page's club and the user's role in it: 404 for outsiders; with ``refusal`` (the
    page would change something), 403 saying it to a member who is no organizer."""
    club = Club.objects.filter(slug=slug).first()
    role = role_in(club, request.user) if club is not None else None
    if club is None or role is None:
        raise Http404(_("No such club."))
    if refusal and role != ORGANIZER:
        raise PermissionDenied(refusal)
    return club, role


def drive_page(*roles: str) -> Callable[[DriveView], DriveView]:
    """A page of one drive, for the members of its club: anonymous users go to the login page,
    anyone outside the club gets a 404 (no drive is revealed to them), a member without one of
    ``roles`` (any member when none are named) gets a 403 page saying who may. The view is
    called as ``view(request, drive, role, **kwargs)``."""

    def decorate(view: DriveView) -> DriveView:
        @login_required
        @wraps(view)
        def wrapper(request: HttpRequest, slug: str, **kwargs: Any) -> HttpResponseBase:
            drive = Drive.objects.select_related("club").filter(slug=slug).first()
            if drive is None:
                raise Http404(_("No such drive."))
            try:
                role = require_role(drive, request.user)
            except NotFound:
                raise Http404(_("No such drive.")) from None
            if roles and role not in roles:
                return forbidden(request, drive, roles)
            return view(request, drive, role, **kwargs)

        return wrapper

    return decorate


ROLE_NAMES: dict[str, str | Promise] = {
    ORGANIZER: gettext_lazy("an organizer"),
    SCORER: gettext_lazy("a scorer"),
}


def forbidden(request: HttpRequest, drive: Drive, roles: tuple[str, ...]) -> HttpResponse:
    who = _(" or ").join(str(ROLE_NAMES.get(r, r)) for r in roles)
    message = _("Only %(who)s of %(club)s can do this.") % {"who": who, "club": drive.club.name}
    return render(
        request,
        "drives/denied.html",
        {"drive": drive, "message": message, "links": drive_links(drive, "", SCORER)},
        status=403,
    )


# The pages of a drive, in the order of its navigation bar. Some belong to other engineers'
# modules (the desk, the projector, the standings): a name not (yet) wired is left out.
DRIVE_PAGES = (
    ("night:dashboard", gettext_lazy("Dashboard")),
    ("drives:couples", gettext_lazy("Couples")),
    ("night:desk", gettext_lazy("Desk grid")),
    ("night:projector", gettext_lazy("Projector")),
    ("night:standings", gettext_lazy("Standings")),
    ("night:grid", gettext_lazy("Win grid")),
    ("night:prizes", gettext_lazy("Prizes")),
    ("night:print", gettext_lazy("Print")),
    ("money:page", gettext_lazy("Money")),
    ("drives:settings", gettext_lazy("Settings")),
)


def url_or_none(name: str, **kwargs: Any) -> str | None:
    try:
        return reverse(name, kwargs=kwargs)
    except NoReverseMatch:
        return None


ORGANIZER_PAGES = frozenset({"drives:settings"})


def drive_links(drive: Drive, current: str, role: str = ORGANIZER) -> list[dict[str, Any]]:
    """The drive's navigation: label, URL and whether it is the page shown (a scorer is not
    offered the pages only an organizer may use)."""
    links = []
    for name, label in DRIVE_PAGES:
        if name in ORGANIZER_PAGES and role != ORGANIZER:
            continue
        url = url_or_none(name, slug=drive.slug)
        if url is not None:
            links.append({"name": name, "label": label, "url": url, "current": name == current})
    return links


def _posted(request: HttpRequest, *, files: bool = False) -> tuple[Any, ...]:
    """A form's data: what was posted (even nothing), or none for a GET (an unbound form)."""
    if request.method != "POST":
        return ()
    return (request.POST, request.FILES) if files else (request.POST,)


def error_text(error: ServiceError) -> str:
    return error.message


# --- clubs and drives -----------------------------------------------------------------------------


def _visible_clubs(user: Any) -> tuple[QuerySet[Club], dict[int, str]]:
    """The user's clubs (every club for a superuser) and the user's role in each."""
    roles = dict(Membership.objects.filter(user=user).values_list("club_id", "role"))
    clubs = Club.objects.order_by("name")
    if not user.is_superuser:
        clubs = clubs.filter(pk__in=list(roles))
    return clubs, roles


@login_required
@require_http_methods(["GET", "POST"])
def drive_list(request: HttpRequest) -> HttpResponse:
    """The user's clubs with their drives, a "New drive" button, and a club to create."""
    form = ClubForm(*_posted(request))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                club = club_create(
                    name=form.cleaned_data["name"],
                    actor=desk_actor(request),
                    organizer=request.user,
                )
            except ServiceError as error:
                form.add_error("name", error_text(error))
            else:
                messages.success(
                    request,
                    _("%(club)s is created and you are its organizer. Now set up a drive.")
                    % {"club": club.name},
                )
                return redirect(f"{reverse('drives:new')}?club={club.slug}")
        status = 422
    clubs, roles = _visible_clubs(request.user)
    clubs = clubs.prefetch_related("drives")
    rows = []
    for club in clubs:
        role = ORGANIZER if request.user.is_superuser else roles.get(club.pk)
        drives = sorted(club.drives.all(), key=lambda d: (d.date, d.name), reverse=True)
        rows.append({"club": club, "role": role, "drives": drives})
    may_create = any(row["role"] == ORGANIZER for row in rows)
    return render(
        request,
        "drives/drive_list.html",
        {"clubs": rows, "club_form": form, "may_create": may_create},
        status=status,
    )


def _organized_clubs(user: Any) -> QuerySet[Club]:
    clubs = Club.objects.order_by("name")
    if user.is_superuser:
        return clubs
    return clubs.filter(memberships__user=user, memberships__role=ORGANIZER)


@login_required
@require_http_methods(["GET", "POST"])
def drive_new(request: HttpRequest) -> HttpResponse:
    """A new drive in one of the clubs the user organizes."""
    clubs = _organized_clubs(request.user)
    if not clubs.exists():
        messages.info(request, _("Create your club first (or ask its organizer to add you)."))
        return redirect("drives:list")
    initial = {}
    asked = request.GET.get("club", "")
    # Only a slug is looked up: a NUL in the query string would be a 500 on PostgreSQL.
    chosen = clubs.filter(slug=asked).first() if slug_re.match(asked) else None
    if chosen is not None:
        initial["club"] = chosen
    form = DriveCreateForm(*_posted(request), clubs=clubs, initial=initial)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                drive = drive_create(
                    club=form.cleaned_data["club"], actor=desk_actor(request), **form.settings()
                )
            except ServiceError as error:
                _form_error(form, error)
            else:
                messages.success(
                    request,
                    _("The drive %(name)s is ready. Register the couples as they arrive.")
                    % {"name": drive.name},
                )
                return redirect("drives:couples", slug=drive.slug)
        status = 422
    return render(request, "drives/drive_form.html", {"form": form, "drive": None}, status=status)


def _form_error(form: Any, error: ServiceError) -> None:
    field = error.details.get("field")
    form.add_error(field if field in form.fields else None, error_text(error))


@drive_page(ORGANIZER)
@require_http_methods(["GET", "POST"])
def drive_settings(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    """A drive's settings; those the movement needs are fixed once the night started, and
    all of them but the hall's language once it is closed (the form disables them)."""
    form = DriveSettingsForm(*_posted(request), drive=drive)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            changes = form.changes()
            if not changes:
                messages.info(request, _("Nothing was changed."))
                return redirect("night:dashboard", slug=drive.slug)
            try:
                drive_update(drive=drive, actor=desk_actor(request), **changes)
            except ServiceError as error:
                _form_error(form, error)
            else:
                messages.success(request, _("The settings are saved."))
                return redirect("night:dashboard", slug=drive.slug)
        status = 422
    return render(
        request,
        "drives/drive_form.html",
        {"form": form, "drive": drive, "links": drive_links(drive, "drives:settings")},
        status=status,
    )


# --- couples ------------------------------------------------------------------------------------


FLAG_LABELS = {
    "paid": (gettext_lazy("✓ Paid"), gettext_lazy("Not paid")),
    "checked_in": (gettext_lazy("✓ Here"), gettext_lazy("Not here")),
    "cookie_jar": (gettext_lazy("✓ In"), gettext_lazy("Not in")),
}


def _couples_context(drive: Drive) -> dict[str, Any]:
    """The couples of the drive (one query) with their toggles, and the counts."""
    couples = list(
        Couple.objects.filter(drive=drive).select_related("member1", "member2").order_by("number")
    )
    next_game = drive.current_game + 1 if drive.state == Drive.State.RUNNING else 1
    ways = PAID_WAYS if drive.entry_fee > 0 else ()  # how the fee was paid (the night's money)
    rows = []
    for couple in couples:
        kwargs = {"slug": drive.slug, "number": couple.number}
        rows.append(
            {
                "couple": couple,
                "toggle_url": reverse("drives:couples_toggle", kwargs=kwargs),
                "withdraw_url": reverse("drives:couples_withdraw", kwargs=kwargs),
                "edit_url": reverse("drives:couples_edit", kwargs=kwargs),
                # members of the club pay the members' price where the drive has one
                "members": sum(1 for p in (couple.member1, couple.member2) if p and p.member),
                "delete_url": reverse("drives:couples_delete", kwargs=kwargs),
                "ways": ways,
                "before_start": couple.withdrawn_game is not None
                and couple.withdrawn_game <= couple.joined_game,
                "last_game": (couple.withdrawn_game or 1) - 1,
                "toggles": [
                    {
                        "flag": flag,
                        "on": getattr(couple, flag),
                        "label_on": FLAG_LABELS[flag][0],
                        "label_off": FLAG_LABELS[flag][1],
                    }
                    for flag in COUPLE_FLAGS
                ],
                "withdrawal_pending": couple.withdrawn_game is not None
                and couple.withdrawn_game >= next_game,
            }
        )
    return {
        "rows": rows,
        "counts": {
            "couples": len(couples),
            "playing": sum(1 for c in couples if not c.withdrawn),
            "paid": sum(1 for c in couples if c.paid),
            "checked_in": sum(1 for c in couples if c.checked_in),
            "cookie_jar": sum(1 for c in couples if c.cookie_jar),
            "withdrawn": sum(1 for c in couples if c.withdrawn),
        },
        "next_game": next_game,
        "late": drive.state == Drive.State.RUNNING,
        "night_over": drive.state == Drive.State.RUNNING and next_game > drive.games,
    }


@drive_page(*MEMBERS)
@require_http_methods(["GET", "POST"])
def couples(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    """Registration at the door and the list of couples with their toggles."""
    form = CoupleForm(*_posted(request), autofocus="after" not in request.GET)
    status = 200
    if request.method == "POST":
        status = 422
        if form.is_valid():
            try:
                (couple,) = couples_register(
                    drive=drive,
                    couples=[form.couple()],
                    actor=desk_actor(request),
                    allow_duplicates=False,
                )
            except ServiceError as error:
                status = error.status
                if error.code == "duplicate_couple":
                    form.duplicate_of = error.details["couple"]
                    error_message = _(
                        "%(p1)s & %(p2)s are already couple %(number)s — register anyway?"
                    ) % {
                        "p1": error.details["players"][0],
                        "p2": error.details["players"][1],
                        "number": form.duplicate_of,
                    }
                    form.add_error(None, error_message)
                elif error.code == "which_player":
                    form.which = _which(form, error.details)
                    form.add_error(None, error_text(error))
                else:
                    form.add_error(None, error_text(error))
            else:
                if _wants_json(request):
                    return _registered_json(request, drive, role, couple)
                messages.success(request, _registered_message(couple), extra_tags="couple-flash")
                return redirect("drives:couples", slug=drive.slug)
        if _wants_json(request):
            return _refused_json(request, drive, form, status)
    context = {
        "drive": drive,
        "role": role,
        "form": form,
        "links": drive_links(drive, "drives:couples", role),
        "registration_state": registration_state(drive),
        **door_registrations(drive),
        **_couples_context(drive),
    }
    return render(request, "drives/couple_list.html", context, status=status)


def _which(form: CoupleForm, details: dict[str, Any]) -> dict[str, Any]:
    """The question of which player a name is: the form's field that takes the answer (the
    first name of the key asked about without a player chosen) and the candidates."""
    key = name_key(details["name"])
    slot = "player1_id"
    for n in (1, 2):
        if name_key(form.cleaned_data[f"player{n}"]) == key and not form.cleaned_data.get(
            f"player{n}_id"
        ):
            slot = f"player{n}_id"
            break
    return {"slot": slot, "name": details["name"], "candidates": details["candidates"]}


# The page's script (static/js/register.js) sends the form with "Accept: application/json" and
# the page stays put, so nothing typed meanwhile is lost: it gets the number's flash and the
# list again, or, for a couple not registered, a panel saying why, to put above the form.


def _registered_json(request: HttpRequest, drive: Drive, role: str, couple: Couple) -> HttpResponse:
    context = {"drive": drive, "role": role, **_couples_context(drive)}
    return JsonResponse(
        {
            "number": couple.number,
            "players": couple.players,
            "flash": str(_registered_message(couple)),
            "list": render_to_string("drives/_couple_list_section.html", context, request=request),
        },
        status=201,
    )


def _refused_json(
    request: HttpRequest, drive: Drive, form: CoupleForm, status: int
) -> HttpResponse:
    flags = [flag for flag in COUPLE_FLAGS if form.data.get(flag)]
    problem = render_to_string(
        "drives/_register_problem.html",
        {"drive": drive, "form": form, "flags": flags},
        request=request,
    )
    return JsonResponse(
        {"message": " ".join(str(e) for e in form.non_field_errors()), "problem": problem},
        status=status,
    )


def _registered_message(couple: Couple) -> Any:
    """The flash after registering: the number to write on the card, in large type."""
    late = ""
    if couple.joined_game > 1:
        late = _("A late arrival: plays from game %(game)s.") % {"game": couple.joined_game}
    return format_html(
        '<span class="flash-number">{label} {number}</span>'
        '<span class="flash-names">{p1} &amp; {p2}</span>'
        '<span class="flash-late">{late}</span>',
        label=_("Couple"),
        number=couple.number,
        p1=couple.player1,
        p2=couple.player2,
        late=late,
    )


def _couple_or_404(drive: Drive, number: int) -> Couple:
    couple = Couple.objects.filter(drive=drive, number=number).first()
    if couple is None:
        raise Http404(_("There is no couple %(number)s.") % {"number": number})
    couple.drive = drive
    return couple


FLAG_NAMES = {
    "paid": gettext_lazy("paid"),
    "checked_in": gettext_lazy("checked in"),
    "cookie_jar": gettext_lazy("in the cookie jar"),
}


def _back_to_couple(drive: Drive, number: int) -> str:
    """The couples page at this couple's row (without stealing the focus for a new couple)."""
    url = reverse("drives:couples", kwargs={"slug": drive.slug})
    return f"{url}?after={number}#couple-{number}"


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@drive_page(*MEMBERS)
@require_POST
def couple_toggle(request: HttpRequest, drive: Drive, role: str, number: int) -> HttpResponse:
    """Set one flag of a couple (paid, checked in, cookie jar) to the value sent: pressing
    twice sets the same value twice, never flips it back."""
    couple = _couple_or_404(drive, number)
    flag, _sep, value = request.POST.get("set", "").partition(":")
    back = _back_to_couple(drive, number)
    if flag not in COUPLE_FLAGS or value not in ("0", "1"):
        error = _("Choose paid, checked in or cookie jar, and yes or no.")
        if _wants_json(request):
            return JsonResponse({"message": error}, status=422)
        messages.error(request, error)
        return redirect(back)
    try:
        changes: dict[str, Any] = {flag: value == "1"}
        # How they paid (the night's money): the row's picker, or "way" (a script, the tests).
        way = request.POST.get(f"way-{number}") or request.POST.get("way")
        if flag == "paid" and way:
            changes["paid_way"] = way
        couple = couple_update(couple=couple, actor=desk_actor(request), **changes)
    except ServiceError as error:
        if _wants_json(request):
            return JsonResponse(error.to_dict(), status=error.status)
        messages.error(request, error_text(error))
        return redirect(back)
    state = getattr(couple, flag)
    if _wants_json(request):
        return JsonResponse({"number": couple.number, "field": flag, "value": state})
    text = _("Couple %(number)s: %(flag)s.") if state else _("Couple %(number)s: not %(flag)s.")
    messages.success(request, text % {"number": couple.number, "flag": FLAG_NAMES[flag]})
    return redirect(back)


@drive_page(*MEMBERS)
@require_http_methods(["GET", "POST"])
def couple_withdraw(request: HttpRequest, drive: Drive, role: str, number: int) -> HttpResponse:
    """Withdraw a couple from the next game on (after a confirmation), or cancel a withdrawal
    that has not yet been applied."""
    couple = _couple_or_404(drive, number)
    next_game = drive.current_game + 1 if drive.state == Drive.State.RUNNING else 1
    if request.method == "POST":
        withdraw = request.POST.get("withdrawn", "1") != "0"
        try:
            couple = couple_update(couple=couple, actor=desk_actor(request), withdrawn=withdraw)
        except ServiceError as error:
            messages.error(request, error_text(error))
        else:
            if withdraw and drive.state == Drive.State.RUNNING:
                text = _("Couple %(number)s is withdrawn: not seated from game %(game)s on.")
            elif withdraw:
                text = _("Couple %(number)s is withdrawn: they will not be seated.")
            else:
                text = _("Couple %(number)s is back in: the withdrawal is cancelled.")
            messages.success(
                request, text % {"number": couple.number, "game": couple.withdrawn_game}
            )
        return redirect(_back_to_couple(drive, couple.number))
    return render(
        request,
        "drives/couple_withdraw.html",
        {
            "drive": drive,
            "couple": couple,
            "next_game": next_game,
            "running": drive.state == Drive.State.RUNNING,
            "links": drive_links(drive, "drives:couples", role),
        },
    )


@drive_page(*MEMBERS)
@require_http_methods(["GET", "POST"])
def couple_edit(request: HttpRequest, drive: Drive, role: str, number: int) -> HttpResponse:
    """Correct a couple's names (a spelling at the door); audited like every change."""
    couple = _couple_or_404(drive, number)
    form = CoupleNamesForm(
        *_posted(request), initial={"player1": couple.player1, "player2": couple.player2}
    )
    status = 200
    if request.method == "POST":
        status = 422
        if drive.is_closed:
            form.add_error(None, _("The drive is closed: nothing can change any more."))
        elif form.is_valid():
            names = {k: form.cleaned_data[k] for k in ("player1", "player2")}
            if [names["player1"], names["player2"]] == couple.players:
                messages.info(request, _("Nothing was changed."))
                return redirect(_back_to_couple(drive, number))
            try:
                couple = couple_update(couple=couple, actor=desk_actor(request), **names)
            except ServiceError as error:
                form.add_error(None, error_text(error))
            else:
                messages.success(
                    request,
                    _("Couple %(number)s is now %(p1)s & %(p2)s.")
                    % {"number": number, "p1": couple.player1, "p2": couple.player2},
                )
                return redirect(_back_to_couple(drive, number))
    return render(
        request,
        "drives/couple_edit.html",
        {
            "drive": drive,
            "couple": couple,
            "form": form,
            "links": drive_links(drive, "drives:couples", role),
        },
        status=status,
    )


@drive_page(*MEMBERS)
@require_http_methods(["GET", "POST"])
def couple_delete_page(request: HttpRequest, drive: Drive, role: str, number: int) -> HttpResponse:
    """Delete a couple registered by mistake, after a confirmation; only before the start
    (then it is withdrawn instead). The other couples keep their numbers."""
    couple = _couple_or_404(drive, number)
    if request.method == "POST":
        try:
            couple_delete(couple=couple, actor=desk_actor(request))
        except ServiceError as error:
            messages.error(request, error_text(error))
            return redirect(_back_to_couple(drive, number))
        messages.success(
            request,
            _("Couple %(number)s (%(p1)s & %(p2)s) is deleted.")
            % {"number": number, "p1": couple.player1, "p2": couple.player2},
        )
        return redirect("drives:couples", slug=drive.slug)
    return render(
        request,
        "drives/couple_delete.html",
        {
            "drive": drive,
            "couple": couple,
            "links": drive_links(drive, "drives:couples", role),
        },
    )


@drive_page(*MEMBERS)
@require_http_methods(["GET", "POST"])
def couples_import(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    """A couples CSV: every line or none; every bad line is listed with its number, and so is
    every couple already registered (or listed twice), imported only with "Add them again"."""
    form = CouplesCsvForm(*_posted(request, files=True))
    errors: list[dict[str, Any]] = []
    duplicates: list[dict[str, Any]] = []
    status = 200
    if request.method == "POST":
        if drive.is_closed:
            form.add_error(None, _("The drive is closed: nothing can change any more."))
        elif form.is_valid():
            upload = form.cleaned_data["file"]
            data = upload.read(csv_max_bytes() + 1)
            try:
                created = couples_import_csv(
                    drive=drive,
                    data=data,
                    actor=desk_actor(request),
                    allow_duplicates=form.cleaned_data["allow_duplicates"],
                )
            except ServiceError as error:
                errors = list(error.details.get("errors", []))
                duplicates = list(error.details.get("duplicates", []))
                if error.code == "bad_rows":
                    form.add_error(None, _bad_rows(errors))
                elif error.code == "duplicate_couples":
                    form.add_error(None, _duplicate_couples(duplicates))
                else:
                    form.add_error(None, error_text(error))
            else:
                messages.success(
                    request,
                    _("%(count)s couples imported: numbers %(first)s to %(last)s.")
                    % {
                        "count": len(created),
                        "first": created[0].number,
                        "last": created[-1].number,
                    }
                    + " "
                    + couples_csv_read(data).note,
                )
                return redirect("drives:couples", slug=drive.slug)
        status = 422
    return render(
        request,
        "drives/couple_import.html",
        {
            "drive": drive,
            "form": form,
            "errors": errors,
            "duplicates": duplicates,
            "links": drive_links(drive, "drives:couples", role),
        },
        status=status,
    )


def _duplicate_couples(duplicates: list[dict[str, Any]]) -> str:
    count = len(duplicates)
    if count == 1:
        text = _(
            "Nothing was imported: 1 couple of the file is already registered or listed twice "
            "(below)."
        )
    else:
        text = _(
            "Nothing was imported: %(count)s couples of the file are already registered or "
            "listed twice (below)."
        ) % {"count": count}
    return (
        text
        + " "
        + _("To register them again as new couples, tick “Add them again” and send the file again.")
    )


def _bad_rows(errors: list[dict[str, Any]]) -> str:
    count = len(errors)
    if count == 1:
        return _("Nothing was imported: 1 line needs fixing (below).")
    return _("Nothing was imported: %(count)s lines need fixing (below).") % {"count": count}
