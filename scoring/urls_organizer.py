"""The organizer's dashboard of a night and its actions (scoring/views/organizer.py); part
of the "night" URL namespace (scoring/urls.py)."""

from django.urls import path

from scoring.views import organizer

D = "drives/<slug:slug>"

urlpatterns = [
    path(f"{D}/", organizer.dashboard, name="dashboard"),
    path(f"{D}/start", organizer.start, name="dashboard_start"),
    path(f"{D}/advance", organizer.advance, name="dashboard_advance"),
    path(f"{D}/resolve", organizer.resolve, name="dashboard_resolve"),
    path(f"{D}/holes", organizer.holes, name="dashboard_holes"),
    path(f"{D}/publish", organizer.publish, name="dashboard_publish"),
    path(f"{D}/close", organizer.close, name="dashboard_close"),
]
