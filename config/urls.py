"""The site's URLs: the home page, health check, accounts, admin and the JSON API."""

from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

from . import views

admin.site.site_header = _("Forty-Fives Card Drives: administration")
admin.site.site_title = _("Forty-Fives Card Drives")

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("livez", views.livez, name="livez"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("api/v1/", include("scoring.api.urls")),
    path("", include("drives.urls")),
    path("", include("scoring.urls")),
]
