"""The login pages (the site's and the admin's) with a limit on failed attempts
(``drives.ratelimit``): once a browser has failed too often for a username (its own device
cookie's count: the one for that user of a browser that has logged in as them before, else
the one the login page gave it; a request with neither, its address's), or an unknown
browser's address too often altogether, the page answers 429 with the form and a message
saying when to try again, and the password is not even checked. Showing the page gives a
browser its device cookie; a successful login gives it a device cookie for that user.

The password-reset page likewise limits the e-mails an address may ask for; where this
installation sends no e-mail (``PASSWORD_RESET_BY_EMAIL`` off: production without
``EMAIL_URL``/``EMAIL_HOST``) it offers no form and says that the club's administrator
resets passwords."""

from __future__ import annotations

from typing import Any, TypeGuard

from django import forms
from django.conf import settings
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView, PasswordResetDoneView, PasswordResetView
from django.core.exceptions import ValidationError
from django.forms.utils import ErrorList
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import View

from drives import ratelimit

RATE_LIMITED = "rate_limited"


class RateLimitedLogin(forms.Form):
    """A login form's check, refused without looking at the password while the address is
    over its limit; a wrong password counts as a failure, a right one clears its count."""

    request: HttpRequest | None

    def clean(self) -> dict[str, Any]:
        username = str(self.data.get("username", ""))
        request = self.request
        if request is not None:
            wait = ratelimit.login_blocked(request, username)
            if wait is not None:
                raise ValidationError(too_many_message(wait), code=RATE_LIMITED)
        try:
            cleaned = super().clean() or self.cleaned_data
        except ValidationError as error:
            if request is not None and error.code == "invalid_login":
                ratelimit.login_failed(request, username)
            raise
        if request is not None:
            ratelimit.login_succeeded(request, username)
        return cleaned


def too_many_message(seconds: int) -> str:
    count = ratelimit.minutes(seconds)
    return ngettext(
        "Too many failed logins from here. Try again in %(count)d minute.",
        "Too many failed logins from here. Try again in %(count)d minutes.",
        count,
    ) % {"count": count}


class LoginForm(RateLimitedLogin, AuthenticationForm):
    pass


class AdminLoginForm(RateLimitedLogin, AdminAuthenticationForm):
    pass


def rate_limited(form: Any) -> TypeGuard[forms.BaseForm]:
    return bool(form is not None and form.is_bound and form.has_error("__all__", RATE_LIMITED))


def _limited(response: HttpResponse, form: Any, request: HttpRequest) -> HttpResponse:
    """429 with ``Retry-After`` when the form was refused for too many failures."""
    if rate_limited(form):
        username = str(form.data.get("username", ""))
        wait = ratelimit.login_blocked(request, username) or 1
        response.status_code = 429
        response["Retry-After"] = str(wait)
    return response


class RateLimitedLoginView(LoginView):
    """django.contrib.auth's login view with :class:`LoginForm`."""

    form_class = LoginForm

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        form = context.get("form")
        if rate_limited(form):
            errors: ErrorList = form.non_field_errors()
            context["rate_limited"] = errors[0] if errors else _("Too many failed logins.")
        return context

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().get(request, *args, **kwargs)
        ratelimit.browser_remember(request, response)
        return response

    def form_invalid(self, form: Any) -> HttpResponse:
        return _limited(super().form_invalid(form), form, self.request)

    def form_valid(self, form: Any) -> HttpResponse:
        return ratelimit.remember_device(self.request, super().form_valid(form))


def admin_login(request: HttpRequest, extra_context: Any = None) -> HttpResponse:
    """The admin's login page (its form is :class:`AdminLoginForm`, set in ``config.urls``),
    429 when refused for too many failures; a successful login remembers the browser."""
    response = admin.site.login(request, extra_context)
    if request.method == "GET":
        ratelimit.browser_remember(request, response)
    form = (getattr(response, "context_data", None) or {}).get("form")
    return ratelimit.remember_device(request, _limited(response, form, request))


BY_ADMINISTRATOR = "registration/password_reset_by_administrator.html"


class ResetByEmailOnly(View):
    """Where this installation sends no e-mail (``PASSWORD_RESET_BY_EMAIL`` off), the page
    says that the club's administrator resets passwords, whatever was asked (GET or POST);
    nothing is sent and no form is offered."""

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not settings.PASSWORD_RESET_BY_EMAIL:
            return render(request, BY_ADMINISTRATOR)
        return super().dispatch(request, *args, **kwargs)


class PasswordResetDone(ResetByEmailOnly, PasswordResetDoneView):
    """ "Check your e-mail", only where e-mail is sent."""


class RateLimitedPasswordResetView(ResetByEmailOnly, PasswordResetView):
    """django.contrib.auth's password-reset page, answering 429 (the form again, with when to
    try again) once an address has asked for too many reset e-mails; no e-mail is sent then."""

    def form_valid(self, form: Any) -> HttpResponse:
        email = str(form.cleaned_data.get("email", ""))
        wait = ratelimit.reset_blocked(self.request, email)
        if wait is not None:
            count = ratelimit.minutes(wait)
            form.add_error(
                "email",
                ValidationError(
                    ngettext(
                        "Too many reset e-mails asked for from here. Try again in %(count)d "
                        "minute.",
                        "Too many reset e-mails asked for from here. Try again in %(count)d "
                        "minutes.",
                        count,
                    )
                    % {"count": count},
                    code=RATE_LIMITED,
                ),
            )
            response = self.form_invalid(form)
            response.status_code = 429
            response["Retry-After"] = str(wait)
            return response
        ratelimit.reset_requested(self.request, email)
        return super().form_valid(form)
