"""The live pages of the night (names in the "night" namespace): the desk grid, the table and
couple pages opened from the QR codes of their cards, the projector, the standings with their
exports, the per-game win grid, and the public results page."""

from django.urls import path

from scoring.pages import desk, projector, standings
from scoring.pages.urls_phones import urlpatterns as phones

urlpatterns = [
    path("drives/<slug:slug>/desk/", desk.desk, name="desk"),
    path("drives/<slug:slug>/projector/", projector.projector, name="projector"),
    path("drives/<slug:slug>/standings/", standings.standings, name="standings"),
    path("drives/<slug:slug>/grid/", standings.grid, name="grid"),
    path("results/<slug:slug>/", standings.results, name="results"),
    *phones,  # the table and couple pages (t/…, c/…)
]
