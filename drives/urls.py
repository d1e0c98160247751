"""Pages of the organizer's setup of a night: drives, settings, couples (see drives/views.py)."""

from django.urls import path

from drives import registration_pages, views

app_name = "drives"

D = "drives/<slug:slug>"

urlpatterns = [
    path("drives/", views.drive_list, name="list"),
    path("drives/new", views.drive_new, name="new"),
    path(f"{D}/settings", views.drive_settings, name="settings"),
    path(f"{D}/couples/", views.couples, name="couples"),
    path(f"{D}/couples/import", views.couples_import, name="couples_import"),
    path(f"{D}/couples/<int:number>/toggle", views.couple_toggle, name="couples_toggle"),
    path(f"{D}/couples/<int:number>/withdraw", views.couple_withdraw, name="couples_withdraw"),
    path(f"{D}/couples/<int:number>/edit", views.couple_edit, name="couples_edit"),
    path(f"{D}/couples/<int:number>/delete", views.couple_delete_page, name="couples_delete"),
    path(f"{D}/registrations/", registration_pages.registration_list, name="registrations"),
    path(
        f"{D}/registrations/<int:pk>/check-in",
        registration_pages.registration_check_in,
        name="registration_check_in",
    ),
    path(
        f"{D}/registrations/pair", registration_pages.registrations_pair, name="registrations_pair"
    ),
]
