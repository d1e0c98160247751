"""The pages of registration before the night (``drives.registrations``): the drive's public
registration page and its cancel page (no login, in the hall's language, phone first), the
members' list of registrations, and the door's check-in of a registered couple and pairing of
two players looking for a partner (the organizer confirms).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from drives import inputs, ratelimit, registrations
from drives.errors import ServiceError
from drives.forms import PlainForm
from drives.models import Drive, Registration
from drives.views import MEMBERS, ORGANIZER, desk_actor, drive_links, drive_page

STATE_WORDS = {
    registrations.RegistrationState.NONE: gettext_lazy(
        "This drive takes no registration before the night: come to the door."
    ),
    registrations.RegistrationState.NOT_YET: gettext_lazy("The registration is not open yet."),
    registrations.RegistrationState.CLOSED: gettext_lazy(
        "The registration is closed: come to the door."
    ),
}


class RegistrationForm(PlainForm):
    """Two names (or one, looking for a partner) and an optional contact; the names' rules are
    the service's (``drives.inputs.PLAYER``), the contact's its own."""

    player1 = forms.CharField(
        label=gettext_lazy("Your name"),
        max_length=200,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "words"}),
        error_messages={"required": gettext_lazy("Write your name.")},
    )
    player2 = forms.CharField(
        label=gettext_lazy("Your partner's name"),
        max_length=200,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "words"}),
    )
    single = forms.BooleanField(
        label=gettext_lazy("I have no partner: I am looking for one"),
        required=False,
    )
    contact = forms.CharField(
        label=gettext_lazy("Phone or e-mail (optional, for the club only)"),
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "tel"}),
        **inputs.REGISTRATION_CONTACT.form_options(),
    )
    player1_id = forms.IntegerField(required=False, widget=forms.HiddenInput)
    player2_id = forms.IntegerField(required=False, widget=forms.HiddenInput)
    duplicate_ok = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("single") and not (data.get("player2") or "").strip():
            self.add_error(
                "player2",
                _("Write your partner's name, or tick “looking for a partner”."),
            )
        return data

    def players(self) -> list[str]:
        data = self.cleaned_data
        return [data["player1"]] if data.get("single") else [data["player1"], data["player2"]]

    def player_ids(self) -> list[int | None]:
        data = self.cleaned_data
        ids = [data.get("player1_id"), data.get("player2_id")]
        return ids[:1] if data.get("single") else ids


def _public_drive(slug: str) -> Drive:
    drive = Drive.objects.select_related("club").filter(slug=slug).first()
    if drive is None:
        raise Http404(_("No such drive."))
    return drive


@require_http_methods(["GET", "HEAD", "POST"])
def register(request: HttpRequest, slug: str) -> HttpResponse:
    """The drive's public registration page: the form while the registration is open, the
    answer (registered or wait-listed, the place, the cancel link) after it."""
    drive = _public_drive(slug)
    if registrations.registration_state(drive) == registrations.RegistrationState.NONE:
        raise Http404(_("No such drive."))  # a drive that takes no registration is not public
    with translation.override(drive.language):
        return _register(request, drive)


def _register(request: HttpRequest, drive: Drive) -> HttpResponse:
    state = registrations.registration_state(drive)
    form = RegistrationForm(request.POST if request.method == "POST" else None)
    status, done, duplicate = 200, None, False
    if request.method == "POST":
        status = 422
        wait = ratelimit.registration_blocked(request)
        if wait is not None:
            status = 429
            form.add_error(
                None,
                _("Too many registrations from this address: try again in %(minutes)s minutes.")
                % {"minutes": ratelimit.minutes(wait)},
            )
        elif form.is_valid():
            try:
                registration, position = registrations.registration_create(
                    drive=drive,
                    players=form.players(),
                    contact=form.cleaned_data.get("contact") or "",
                    duplicate_ok=bool(form.cleaned_data.get("duplicate_ok")),
                    player_ids=form.player_ids(),
                )
            except ServiceError as error:
                status = error.status
                duplicate = error.code == "duplicate_registration"
                field = error.details.get("field")
                form.add_error(
                    "player1" if field == "players" else None,
                    _duplicate_words(error) if duplicate else error.message,
                )
            else:
                ratelimit.registration_made(request)
                status = 201
                done = {
                    "registration": registration,
                    "position": position,
                    "cancel_url": request.build_absolute_uri(
                        reverse("drive-register-cancel", kwargs={"token": registration.token})
                    ),
                }
    context = {
        "drive": drive,
        "form": form,
        "state": state,
        "open": state == registrations.RegistrationState.OPEN,
        "state_words": STATE_WORDS.get(state, ""),
        "done": done,
        "duplicate": duplicate,
    }
    return render(request, "drives/register.html", context, status=status)


def _duplicate_words(error: ServiceError) -> str:
    names = " & ".join(error.details.get("players", []))
    if error.details.get("registered_as") == "couple":
        return _("%(names)s are already a couple of this drive.") % {"names": names}
    return _("%(names)s are already registered for this drive.") % {"names": names}


@require_http_methods(["GET", "HEAD", "POST"])
def register_cancel(request: HttpRequest, token: str) -> HttpResponse:
    """The cancel link: a question, then the cancel (once: a second use says it was done)."""
    try:
        registration = registrations.registration_by_token(token)
    except ServiceError:
        raise Http404(_("No such registration: check the link.")) from None
    drive = registration.drive
    with translation.override(drive.language):
        status, problem, cancelled = 200, "", False
        if registration.status == Registration.Status.CANCELLED:
            status, problem = 410, _("This registration was already cancelled.")
        elif request.method == "POST":
            try:
                registrations.registration_cancel(registration=registration)
            except ServiceError as error:
                status, problem = error.status, error.message
            else:
                cancelled = True
        context = {
            "drive": drive,
            "registration": registration,
            "problem": problem,
            "cancelled": cancelled,
        }
        return render(request, "drives/register_cancel.html", context, status=status)


# --- the members' pages ---------------------------------------------------------------------


@drive_page(*MEMBERS)
@require_http_methods(["GET", "HEAD"])
def registration_list(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    """Every registration in order of arrival with its place (the contact: organizers only)."""
    rows = registrations.registrations_of(drive)
    active = [r for r in rows if r.registration.status != Registration.Status.CANCELLED]
    counts = {
        "registered": sum(
            1
            for r in active
            if r.registration.status == Registration.Status.REGISTERED and not r.registration.single
        ),
        "waitlisted": sum(
            1 for r in active if r.registration.status == Registration.Status.WAITLISTED
        ),
        "singles": sum(1 for r in active if r.registration.single),
        "checked_in": len({r.registration.couple_id for r in active} - {None}),  # couples
    }
    context = {
        "drive": drive,
        "role": role,
        "rows": rows,
        "counts": counts,
        "organizer": role == ORGANIZER,
        "state_words": STATE_WORDS.get(registrations.registration_state(drive), ""),
        "links": drive_links(drive, "drives:couples", role),  # the door's own list
    }
    return render(request, "drives/registration_list.html", context)


@drive_page(*MEMBERS)
@require_POST
def registration_check_in(request: HttpRequest, drive: Drive, role: str, pk: int) -> HttpResponse:
    """One tap at the door: the registered couple becomes a couple of the night, checked in."""
    try:
        couple = registrations.registration_check_in(drive=drive, pk=pk, actor=desk_actor(request))
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("%(p1)s & %(p2)s are checked in: couple %(number)s.")
            % {"p1": couple.player1, "p2": couple.player2, "number": couple.number},
        )
    return redirect(reverse("drives:couples", kwargs={"slug": drive.slug}) + "#registered")


@drive_page(*MEMBERS)
@require_http_methods(["GET", "HEAD", "POST"])
def registrations_pair(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    """Two players looking for a partner made one couple: the question (GET, ``first`` and
    ``second``), then the pairing once confirmed (POST)."""
    source = request.POST if request.method == "POST" else request.GET
    ids = [source.get("first", ""), source.get("second", "")]
    if not all(i.isdigit() for i in ids):
        messages.error(request, _("Choose two players who are looking for a partner."))
        return redirect(reverse("drives:couples", kwargs={"slug": drive.slug}) + "#singles")
    first, second = int(ids[0]), int(ids[1])
    if request.method == "POST":
        try:
            couple = registrations.registrations_pair(
                drive=drive, first=first, second=second, actor=desk_actor(request)
            )
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(
                request,
                _("%(p1)s & %(p2)s are paired and checked in: couple %(number)s.")
                % {"p1": couple.player1, "p2": couple.player2, "number": couple.number},
            )
        return redirect(reverse("drives:couples", kwargs={"slug": drive.slug}) + "#singles")
    found = {
        r.pk: r
        for r in Registration.objects.filter(drive=drive, pk__in=[first, second], player2="")
        .exclude(status=Registration.Status.CANCELLED)
        .filter(couple__isnull=True)
    }
    if first == second or len(found) != 2:
        messages.error(request, _("Choose two players who are looking for a partner."))
        return redirect(reverse("drives:couples", kwargs={"slug": drive.slug}) + "#singles")
    context = {
        "drive": drive,
        "first": found[first],
        "second": found[second],
        "links": drive_links(drive, "drives:couples", role),
    }
    return render(request, "drives/registration_pair.html", context)
