"""What the phones and the organizer's laptop fetch on the hall's Wi-Fi is small and fetched
once: the scripts' words (/jsi18n/, Django's JavaScriptCatalog) are built once a language and
answered 304 at the next page load, in the reader's language; the big pages (dashboard,
standings, win grid, public results) are gzipped for who asks."""

from __future__ import annotations

import gzip

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.views.i18n import JavaScriptCatalog

from tests.pages.live_helpers import logged_in, night, people, play

pytestmark = pytest.mark.django_db

GZIP = {"Accept-Encoding": "gzip"}


def _in(language: str) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def test_the_scripts_words_are_built_once_and_then_not_fetched_again(monkeypatch) -> None:
    built: list[str] = []
    original = JavaScriptCatalog.get_catalog

    def counted(self: JavaScriptCatalog) -> dict[str, object]:
        built.append("catalog")
        return original(self)

    monkeypatch.setattr(JavaScriptCatalog, "get_catalog", counted)
    url = reverse("javascript-catalog")
    first = _in("fr").get(url, headers=GZIP)
    assert first.status_code == 200
    assert first["Content-Encoding"] == "gzip"
    words = gzip.decompress(first.content).decode()
    assert "django.catalog" in words or "django.gettext" in words
    assert "no-cache" in first["Cache-Control"]
    etag = first["ETag"]
    # A page load that has it: 304, nothing sent, nothing built.
    again = _in("fr").get(url, headers={"If-None-Match": etag, **GZIP})
    assert again.status_code == 304 and again.content == b""
    # Another phone without it: the same words, from the cache.
    other = _in("fr").get(url)
    assert other.status_code == 200 and other["ETag"] == etag
    built_for_french = len(built)
    assert built_for_french <= 1
    # A reader who switched to English gets the English words, not the French ones kept.
    english = _in("en").get(url, headers={"If-None-Match": etag})
    assert english.status_code == 200
    assert english["ETag"] != etag
    assert english.content != other.content


def test_the_organizers_big_pages_are_gzipped_for_who_asks() -> None:
    ours = people()
    drive = night(ours.club, 40)
    play(drive, 1)
    organizer = logged_in(ours.organizer)
    drive.published = True
    drive.save(update_fields=["published"])
    pages = {
        "dashboard": reverse("night:dashboard", args=[drive.slug]),
        "standings": reverse("night:standings", args=[drive.slug]),
        "grid": reverse("night:grid", args=[drive.slug]),
        "results": reverse("night:results", args=[drive.slug]),
    }
    for name, url in pages.items():
        plain = organizer.get(url)
        packed = organizer.get(url, headers=GZIP)
        assert plain.status_code == packed.status_code == 200, name
        assert "Content-Encoding" not in plain, name
        assert packed["Content-Encoding"] == "gzip", name
        assert len(packed.content) < len(plain.content) / 3, name
        # The same page, once unpacked (the CSRF token is masked afresh in every answer).
        unpacked = gzip.decompress(packed.content).decode()
        assert unpacked.count("<table") == plain.content.decode().count("<table"), name
