"""The practice table's pages, under ``/practice/``."""

from django.urls import path

from practice import views

app_name = "practice"

urlpatterns = [
    path("", views.start, name="start"),
    path("<uuid:game_id>/", views.table_page, name="table"),
    path("<uuid:game_id>/play", views.play, name="play"),
    path("<uuid:game_id>/rob", views.rob, name="rob"),
    path("<uuid:game_id>/bid", views.bid, name="bid"),
    path("<uuid:game_id>/trump", views.trump, name="trump"),
    path("<uuid:game_id>/draw", views.draw, name="draw"),
]
