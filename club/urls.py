"""The club's players pages (club/views.py), in the namespace "club"."""

from django.urls import path

from club import views

app_name = "club"

urlpatterns = [
    path("clubs/<slug:club>/players/", views.player_list, name="players"),
    path("clubs/<slug:club>/players/<int:player>/edit", views.player_edit, name="player_edit"),
]
