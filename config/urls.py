"""The site's URLs: the home page, health check, accounts, admin and the JSON API."""

from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _
from django.views.i18n import JavaScriptCatalog, set_language

from . import login, views

admin.site.site_header = _("Forty-Fives Card Drives: administration")
admin.site.site_title = _("Forty-Fives Card Drives")
admin.site.login_form = login.AdminLoginForm

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("livez", views.livez, name="livez"),
    # Each person's language: the header's switch posts here (Django's set_language, kept in
    # its cookie); the scripts' words come from the djangojs catalog.
    path("i18n/setlang/", set_language, name="set_language"),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    # The login pages limit failed attempts, the reset page the e-mails asked for, and says
    # the administrator resets passwords where no e-mail is sent (config/login.py); the rest
    # are Django's own.
    path("accounts/login/", login.RateLimitedLoginView.as_view(), name="login"),
    path(
        "accounts/password_reset/",
        login.RateLimitedPasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "accounts/password_reset/done/",
        login.PasswordResetDone.as_view(),
        name="password_reset_done",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/login/", login.admin_login),
    path("admin/", admin.site.urls),
    path("api/v1/", include("scoring.api.urls")),
    path("practice/", include("practice.urls")),
    path("", include("money.urls")),  # the night's money
    path("", include("drives.urls")),
    path("", include("scoring.pages.urls")),
    path("", include("seasons.urls")),
]
