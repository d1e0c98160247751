"""The season pages (seasons/pages.py), in the namespace "seasons"."""

from django.urls import path

from seasons import pages

app_name = "seasons"

S = "clubs/<slug:club>/seasons/<slug:season>"

urlpatterns = [
    path("seasons/", pages.season_list, name="list"),
    path(f"{S}/", pages.season_detail, name="season_detail"),
    path(f"{S}/edit", pages.season_edit, name="season_edit"),
    path(f"{S}/drives", pages.season_add_drive, name="season_add_drive"),
    path(f"{S}/drives/<slug:drive>/remove", pages.season_remove_drive, name="season_remove_drive"),
    path(f"{S}/players", pages.season_players, name="season_players"),
    path(f"{S}/projector", pages.season_projector, name="season_projector"),
    path(f"{S}/results", pages.season_public, name="season_public"),
]
