"""The site's URLs: the home page, health check, accounts and admin."""

from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

from . import views

admin.site.site_header = _("Forty-Fives Card Drives: administration")
admin.site.site_title = _("Forty-Fives Card Drives")

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
]
