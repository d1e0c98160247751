"""The site's URLs: the home page, health check, accounts, admin and the JSON API (its apps'
routers mounted on ``api.site.api`` here)."""

from pathlib import Path

import django
from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest
from django.urls import include, path
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import cache_control, cache_page
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import etag
from django.views.i18n import JavaScriptCatalog, set_language

from api.site import api
from api.urls import api_urls
from club.api import router as club_api
from money.api import router as money_api
from practice.api import router as practice_api
from scoring.api.views import router as scoring_api
from seasons.api import router as seasons_api

from . import firstrun, login, views

admin.site.site_header = _("Forty-Fives Card Drives: administration")
admin.site.site_title = _("Forty-Fives Card Drives")
admin.site.login_form = login.AdminLoginForm


# The scripts' words (djangojs catalog) change only with the code: once built, a language's
# catalog is kept in the cache (the key names the language, as Django's cache_page does), and
# each page load only asks whether it changed (ETag: the code's version and the language, so
# a language switched since gets the new words), answered 304 without building anything.
def _catalogs_version() -> str:
    """Django's version and when the project's catalogs were last compiled: the same in every
    worker, new with new words."""
    times = [
        compiled.stat().st_mtime_ns
        for folder in settings.LOCALE_PATHS
        for compiled in Path(folder).glob("*/LC_MESSAGES/djangojs.mo")
    ]
    return f"{django.get_version()}.{max(times, default=0)}"


CATALOG_BUILT = _catalogs_version()


def _catalog_etag(request: HttpRequest) -> str:
    return f"{CATALOG_BUILT}.{get_language()}"


catalog = cache_control(no_cache=True)(
    etag(_catalog_etag)(
        gzip_page(
            cache_page(24 * 3600, key_prefix=f"jsi18n-{CATALOG_BUILT}")(JavaScriptCatalog.as_view())
        )
    )
)

# The API's endpoints: each app's router, mounted here and nowhere else, before its URLs are
# read below (django-ninja takes no router afterwards). The order is the description's.
api.add_router("/", scoring_api)
api.add_router("/", practice_api)
api.add_router("/", seasons_api)
api.add_router("/", money_api)  # the night's money
api.add_router("/", club_api)  # the club's players

# A full disk that fails a request after its view (config/storage.py); else Django's 500 page.
handler500 = "config.storage.server_error"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("livez", views.livez, name="livez"),
    path("favicon.ico", views.favicon),
    # The hall's first start: the club and the organizer's account (config/firstrun.py).
    path("first-run/", firstrun.first_run, name="first_run"),
    # Each person's language: the header's switch posts here (Django's set_language, kept in
    # its cookie); the scripts' words come from the djangojs catalog.
    path("i18n/setlang/", set_language, name="set_language"),
    path("jsi18n/", catalog, name="javascript-catalog"),
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
    path("api/v1/", include(api_urls(api))),
    path("practice/", include("practice.urls")),
    path("", include("money.urls")),  # the night's money
    path("", include("drives.urls")),
    path("", include("drives.registration_urls")),  # registration before the night (public)
    path("", include("scoring.pages.urls")),
    path("", include("seasons.urls")),
    path("", include("club.urls")),  # the club's players
]
