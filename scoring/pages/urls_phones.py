"""The table and couple pages, the addresses of the cards' QR codes (names in the "night"
namespace, through scoring/pages/urls_live.py).

A URL conf of their own as well: ``PhonePollMiddleware`` (scoring/pages/conditional.py) asks
only these two patterns whether a poll is a phone's, where the site's URL conf tried some 55
patterns before reaching them, a quarter of a phone's 304 in-process (BENCHMARKS.md, "The
night on a slower machine, and a phone's 304 resolved against its own two patterns")."""

from django.urls import path

from scoring.pages import phone

urlpatterns = [
    path("t/<str:token>/", phone.table_page, name="table"),
    path("c/<str:token>/", phone.couple_page, name="couple"),
]
