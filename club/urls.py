"""The club's players pages, its settings and its public pages (club/views.py), in the
namespace "club"."""

from django.urls import path

from club import views

app_name = "club"

P = "clubs/<slug:club>/players/<int:player>"

urlpatterns = [
    path("clubs/<slug:club>/", views.club_home, name="home"),
    path("clubs/<slug:club>/settings", views.club_settings, name="settings"),
    path("clubs/<slug:club>/players/", views.player_list, name="players"),
    path(f"{P}/edit", views.player_edit, name="player_edit"),
    path(f"{P}/", views.player_page, name="player"),
    path(f"{P}/<str:key>/", views.player_own, name="player_own"),
]
