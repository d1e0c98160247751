"""The hall's first start, in the laptop's browser: a new data folder, with nobody who can log
in yet, opens the first-run page (``/first-run/``) instead of asking questions in a terminal
window an older volunteer may never look at.

The page asks for the club's name, the organizer's username and password (twice, checked by
Django's password validators, ``AUTH_PASSWORD_VALIDATORS``) and the hall's language (English
or French). Sent, in one transaction: the club (or the club of that name already made, e.g.
by ``fortyfives manage drive create``), the organizer as a superuser (the organizer of every
club on this laptop, as ``createsuperuser`` made) and a member organizer of the club; the
language goes to the data folder's ``hall.json`` (``config.paths.hall_choose``, read as the
hall's ``LANGUAGE_CODE`` at the next start). The organizer is then logged in and lands on the
home page, already in the chosen language: the language cookie (Django's ``set_language``
own) makes it this browser's language at once, since the running server read its
``LANGUAGE_CODE`` when it started. A form error keeps what was typed (not the passwords) and
says what to change; nothing is written until every box is right.

Only on the hall (``HALL_FIRST_RUN``, on in ``config.settings.hall`` alone), only while no
active account exists, and only for the laptop itself (the request's address a loopback
one: 127.0.0.1, ::1): while set-up is pending, :class:`FirstRunMiddleware`

- sends the laptop's requests for any page (home, login, admin, …) to the first-run page;
- answers every other address (a phone on the hall's Wi-Fi that comes early) with a plain
  503 page saying that the hall is being set up on its laptop, in that phone's language;
- lets through the static files, ``/livez``, ``/healthz``, the icon, the scripts' catalog
  and the language switch.

Once an account exists the page is a 404 and nothing is redirected. What that costs a phone's
poll: nothing. The middleware asks the database only while nobody can log in; the first time
it finds an account it remembers so in the process's memory (:func:`account_exists`), and
from then on each request is one flag read (tests/config/test_first_run.py counts the
queries). Deactivating every account during a night does not bring the page back until the
server restarts.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from pathlib import Path
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.forms import UserCreationForm
from django.core.signals import setting_changed
from django.db import transaction
from django.dispatch import receiver
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve, reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from config.paths import hall_choose
from drives import inputs, ratelimit
from drives.errors import ServiceError
from drives.models import AuditEntry, Membership
from drives.services import Actor, club_get_or_create, member_add

# --- whether anybody can log in: asked of the database until the answer is yes --------------

_found = False


def account_exists() -> bool:
    """Whether an active account exists: asked of the database until it does, then
    remembered for the life of the process (an account made stays made)."""
    global _found
    if not _found:
        _found = get_user_model().objects.filter(is_active=True).exists()
    return _found


def forget() -> None:
    """Ask the database again at the next request (the tests, when the settings change)."""
    global _found
    _found = False


@receiver(setting_changed)
def _settings_changed(*, setting: str, **kwargs: Any) -> None:
    if setting == "HALL_FIRST_RUN":
        forget()


def pending() -> bool:
    """Whether the hall is waiting for its first-run page: the hall's settings, no account."""
    return bool(getattr(settings, "HALL_FIRST_RUN", False)) and not account_exists()


def from_laptop(request: HttpRequest) -> bool:
    """Whether the request comes from the laptop itself (a loopback address; an IPv4 one
    written as IPv6 too). The hall's server has no proxy in front of it, so the address is
    the browser's own."""
    try:
        address = ipaddress.ip_address((request.META.get("REMOTE_ADDR") or "").split("%")[0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback
    return address.is_loopback


# --- the middleware: the laptop to the page, the phones to "being set up" ---------------------

# What keeps working while the hall is being set up: the health checks (fortyfives hall waits
# for /livez), the icon, and what the first-run page itself loads or posts to; and what needs
# no account: the JSON API (its tokens: a table's, a couple's, or an API token made with
# fortyfives manage apitoken) and the pages a table's or a couple's card opens, and the
# published results, for a drive made with `fortyfives manage drive create` before anyone
# set up the web account.
OPEN_PATHS = ("/livez", "/healthz", "/favicon.ico")
OPEN_NAMES = ("first_run", "javascript-catalog", "set_language")
OPEN_PAGES = ("table", "couple", "results")


def _open(path: str) -> bool:
    if path in OPEN_PATHS:
        return True
    static = "/" + settings.STATIC_URL.lstrip("/") if settings.STATIC_URL else ""
    if static and path.startswith(static):
        return True
    if path.startswith("/api/"):
        return True
    if any(path == reverse(name) for name in OPEN_NAMES):
        return True
    try:
        return resolve(path).url_name in OPEN_PAGES
    except Resolver404:
        return False


def being_set_up(request: HttpRequest) -> HttpResponse:
    """The plain page a phone gets while the laptop is being set up (503), in the phone's
    language (its cookie or its browser's): the locale middleware has not run yet."""
    language = translation.get_language_from_request(request)
    with translation.override(language):
        body = render_to_string(
            "first_run_elsewhere.html", {"LANGUAGE_CODE": translation.get_language()}
        )
    response = HttpResponse(body, status=503)
    response["Retry-After"] = "60"
    response["Cache-Control"] = "no-store"
    # Not a fault of the server: Django's own mark of a response already logged, so that
    # each phone's visit prints no error line in the laptop's window.
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response


class FirstRunMiddleware:
    """While the hall is being set up (:func:`pending`): the laptop's pages go to the
    first-run page, other addresses get :func:`being_set_up`. Once an account exists, one
    flag read a request, and no query."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if _found or not getattr(settings, "HALL_FIRST_RUN", False) or _open(request.path):
            return self.get_response(request)
        if account_exists():
            return self.get_response(request)
        if not from_laptop(request):
            return being_set_up(request)
        return redirect("first_run")


# --- the page ---------------------------------------------------------------------------------


def language_choices() -> list[tuple[str, str]]:
    """Each language in its own name (English, Français), as the header's switch names it."""
    choices = []
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            choices.append((code, pgettext("the language's own name, on the switch", "English")))
    return choices


class FirstRunForm(UserCreationForm):  # type: ignore[type-arg]
    """The club, the organizer's account (Django's own checks of a new username and
    password) and the hall's language."""

    club = forms.CharField(
        label=gettext_lazy("Club name"),
        help_text=gettext_lazy(
            "Your parish, legion branch, fire hall or club, e.g. St. Joseph's Parish."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "organization", "autofocus": True}),
        **inputs.CLUB_NAME.form_options(),
    )
    language = forms.ChoiceField(
        label=gettext_lazy("Language of the hall"),
        help_text=gettext_lazy(
            "The pages, the projector and the printed cards are in this language. Each "
            "person can still switch on their own screen."
        ),
        choices=language_choices,
        widget=forms.RadioSelect,
    )

    field_order = ("club", "username", "password1", "password2", "language")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        username = self.fields["username"]
        username.label = _("Your username")
        username.help_text = _(
            "The name you log in with, e.g. marie. Letters, digits and @ . + - _ only."
        )
        username.widget.attrs.pop("autofocus", None)  # the club's name comes first
        self.fields["password1"].label = _("Password")
        self.fields["password2"].label = _("The same password again")
        self.fields["password2"].help_text = _("Type it once more, to be sure of it.")
        self.order_fields(self.field_order)

    def full_clean(self) -> None:
        """After a mistake, the page opens on the first box to correct, not on the club's."""
        super().full_clean()
        wrong = [name for name in self.field_order if name in self.errors]
        if wrong:
            for field in self.fields.values():
                field.widget.attrs.pop("autofocus", None)
            self.fields[wrong[0]].widget.attrs["autofocus"] = True

    def clean_club(self) -> str:
        try:
            return str(inputs.CLUB_NAME.check(self.cleaned_data["club"]))
        except ServiceError as error:
            raise forms.ValidationError(error.message, code=error.code) from None


def _make(form: FirstRunForm, data_dir: Path | None) -> Any:
    """The organizer, the club and the membership, and the hall's language in hall.json, all
    or nothing. None if an account was made meanwhile (another tab of the same page)."""
    with transaction.atomic():
        if get_user_model().objects.filter(is_active=True).exists():
            return None
        user = form.save(commit=False)
        user.is_staff = True
        user.is_superuser = True
        user.save()
        actor = Actor(user=user, channel=AuditEntry.Channel.DESK)
        club = club_get_or_create(name=form.cleaned_data["club"], actor=actor)
        member_add(club=club, user=user, role=Membership.Role.ORGANIZER, actor=actor)
        if data_dir is not None:  # last: an error here leaves nothing in the database
            hall_choose(data_dir, language=form.cleaned_data["language"])
    return user


def _refused() -> None:
    """The page exists only on the hall, and only until an account exists."""
    if not pending():
        raise Http404("The hall is set up.")


@never_cache
@require_http_methods(["GET", "POST"])
def first_run(request: HttpRequest) -> HttpResponse:
    _refused()
    if not from_laptop(request):
        return being_set_up(request)
    current = translation.get_language()
    form = FirstRunForm(
        request.POST if request.method == "POST" else None,
        initial={"language": current if current in dict(settings.LANGUAGES) else "en"},
    )
    if request.method == "POST" and form.is_valid():
        data_dir = getattr(settings, "HALL_DATA_DIR", None)
        try:
            user = _make(form, Path(data_dir) if data_dir else None)
        except ServiceError as error:
            form.add_error(None, error.message)
        except OSError as error:
            form.add_error(
                None,
                _("The hall's data folder could not be written (%(error)s): nothing was made.")
                % {"error": error.strerror or error},
            )
        else:
            if user is None:  # made meanwhile: log in as usual
                return redirect("login")
            return _welcome(request, user, form)
    return render(request, "first_run.html", {"form": form}, status=422 if form.is_bound else 200)


def _welcome(request: HttpRequest, user: Any, form: FirstRunForm) -> HttpResponse:
    """Log the organizer in and open the home page in the hall's language."""
    language = form.cleaned_data["language"]
    account_exists()  # remembered now: the next requests go their way
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    ratelimit.login_succeeded(request, user.get_username())
    translation.activate(language)
    messages.success(
        request,
        _(
            "The hall is ready: %(club)s, and you are its organizer. Create the night's "
            "drive from My drives."
        )
        % {"club": form.cleaned_data["club"]},
    )
    response = redirect("home")
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return ratelimit.remember_device(request, response)
