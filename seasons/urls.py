"""The season pages (seasons/views.py), in the namespace "seasons"."""

from django.urls import path

from seasons import views

app_name = "seasons"

S = "clubs/<slug:club>/seasons/<slug:season>"

urlpatterns = [
    path("seasons/", views.season_list, name="list"),
    path(f"{S}/", views.season_detail, name="season_detail"),
    path(f"{S}/edit", views.season_edit, name="season_edit"),
    path(f"{S}/drives", views.season_add_drive, name="season_add_drive"),
    path(f"{S}/drives/<slug:drive>/remove", views.season_remove_drive, name="season_remove_drive"),
    path(f"{S}/players", views.season_players, name="season_players"),
    path(f"{S}/projector", views.season_projector, name="season_projector"),
    path(f"{S}/results", views.season_public, name="season_public"),
]
