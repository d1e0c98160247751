"""Who reads which language: the hall's pages (projector, table and couple pages, public
results, printed documents) in the drive's language whoever opens them; the organizer's own
pages in each person's choice (the header's switch, kept in Django's language cookie), else
the browser's; the drive's form and the API carry the drive's language."""

from __future__ import annotations

from datetime import date

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from drives.services import drive_update
from scoring.printing.data import build
from tests.pages.live_helpers import DESK, logged_in, night, people, play, text

pytestmark = pytest.mark.django_db

FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr-CA,fr;q=0.9"}
ENGLISH = {"HTTP_ACCEPT_LANGUAGE": "en-CA,en;q=0.9"}


@pytest.fixture
def ours():
    return people()


@pytest.fixture
def hall(ours):
    """A French hall's night: game 1 played."""
    drive = night(ours.club, 6, language="fr")
    play(drive, 1)
    return drive


def test_the_hall_pages_speak_the_drives_language_to_an_english_browser(ours, hall) -> None:
    table = hall.tables.get(number=1)
    couple = hall.couples.get(number=1)
    phone = Client()
    table_page = phone.get(f"/t/{table.token}/", **ENGLISH)
    assert 'lang="fr"' in text(table_page)
    assert "Partie" in text(table_page) and "Game 1" not in text(table_page)
    couple_page = phone.get(f"/c/{couple.token}/", **ENGLISH)
    assert 'lang="fr"' in text(couple_page)
    assert "Table" in text(couple_page) and "Partie" in text(couple_page)
    projector = logged_in(ours.organizer).get(f"/drives/{hall.slug}/projector/", **ENGLISH)
    assert 'lang="fr"' in text(projector) and "Projecteur" in text(projector)
    assert "Projector" not in text(projector)
    drive_update(drive=hall, actor=DESK, published=True)
    results = Client().get(f"/results/{hall.slug}/", **ENGLISH)
    assert 'lang="fr"' in text(results) and "Rang" in text(results)
    # The hall's pages have no switch: the hall's language is the drive's.
    assert 'data-testid="language-switch"' not in text(table_page) + text(results)
    # What was active before the page is back after it (the test's thread is English again).
    assert translation.get_language() == settings.LANGUAGE_CODE


def test_an_english_hall_stays_english_for_a_french_phone(ours) -> None:
    drive = night(ours.club, 4)
    page = Client().get(f"/t/{drive.tables.get(number=1).token}/", **FRENCH)
    assert 'lang="en"' in text(page) and "Who won?" in text(page)


def test_the_organizers_pages_follow_the_browser_then_the_switch(ours, hall) -> None:
    organizer = logged_in(ours.organizer)
    english = organizer.get(f"/drives/{hall.slug}/", **ENGLISH)
    assert 'lang="en"' in text(english) and "Dashboard" in text(english)
    french = organizer.get(f"/drives/{hall.slug}/", **FRENCH)
    assert 'lang="fr"' in text(french) and "Tableau de bord" in text(french)
    # The switch in the header: one button, to the other language, in its own words.
    assert 'name="language" value="fr"' in text(english) and "Français" in text(english)
    assert 'name="language" value="en"' in text(french) and ">English<" in text(french)
    answer = organizer.post(
        "/i18n/setlang/", {"language": "fr", "next": f"/drives/{hall.slug}/"}, **ENGLISH
    )
    assert answer.status_code == 302 and answer["Location"] == f"/drives/{hall.slug}/"
    assert answer.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    # Remembered: an English browser now reads the organizer's pages in French...
    again = organizer.get(f"/drives/{hall.slug}/", **ENGLISH)
    assert 'lang="fr"' in text(again) and "Tableau de bord" in text(again)
    # ...and switching back to English is remembered the same way.
    organizer.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert "Dashboard" in text(organizer.get(f"/drives/{hall.slug}/", **FRENCH))


def test_a_refusal_reaches_a_french_organizer_in_french(ours) -> None:
    organizer = logged_in(ours.organizer)
    answer = organizer.post(
        "/api/v1/drives",
        {"club": ours.club.slug, "name": "Soirée", "date": "2026-13-40"},
        content_type="application/json",
        **FRENCH,
    )
    assert answer.status_code == 422
    body = answer.json()
    assert body["code"] == "bad_field"  # codes stay English
    assert "AAAA-MM-JJ" in body["message"]


def test_the_drives_form_and_the_api_carry_the_language(ours) -> None:
    organizer = logged_in(ours.organizer)
    form = organizer.get("/drives/new")
    assert 'name="language"' in text(form)
    made = organizer.post(
        "/drives/new",
        {
            "club": ours.club.pk,
            "name": "Soirée du vendredi",
            "date": "2026-11-27",
            "language": "fr",
            "games": 25,
            "ruleset": "cape-breton-45",
            "movement": "winners-move",
            "first_seating": "by-number",
            "ranking": "dense",
            "entry_fee": "0",
            "currency": "CAD",
            "scorers_may_advance": "on",
        },
    )
    assert made.status_code == 302, text(made)
    drive = ours.club.drives.get(name="Soirée du vendredi")
    assert drive.language == "fr"
    api = organizer.get(f"/api/v1/drives/{drive.slug}")
    assert api.json()["language"] == "fr"
    changed = organizer.patch(
        f"/api/v1/drives/{drive.slug}", {"language": "en"}, content_type="application/json"
    )
    assert changed.status_code == 200 and changed.json()["language"] == "en"
    refused = organizer.patch(
        f"/api/v1/drives/{drive.slug}", {"language": "de"}, content_type="application/json"
    )
    assert refused.status_code == 422 and refused.json()["code"] in {"bad_field", "bad_request"}
    drive.refresh_from_db()
    assert drive.language == "en"
    schema = organizer.get("/api/v1/openapi.json").json()
    assert "language" in schema["components"]["schemas"]["Drive"]["properties"]


def test_printed_documents_are_in_the_drives_language(ours, hall) -> None:
    with translation.override("en"):
        data = build(hall, "score-sheets")
    assert data["language"] == "fr"
    assert data["labels"]["score_sheet"] == "Feuille de pointage"
    assert data["labels"]["game"] == "Partie" and data["suits"]["H"] == "cœur"
    assert data["drive"]["date_text"] == "20 novembre 2026"
    english = night(ours.club, 4, date=date(2026, 11, 20))
    with translation.override("fr"):
        data = build(english, "score-sheets")
    assert data["labels"]["score_sheet"] == "Score sheet"
    assert data["drive"]["date_text"] == "November 20, 2026"


def test_the_command_line_speaks_the_language_asked_for(ours) -> None:
    import io

    from django.core.management import CommandError, call_command

    out = io.StringIO()
    call_command("drive", "--language", "fr", "list", stdout=out)
    assert out.getvalue().strip() == "Aucune soirée."
    with pytest.raises(CommandError, match="Aucune soirée avec l'identifiant"):
        call_command("drive", "--language", "fr", "show", "nowhere")
    out = io.StringIO()
    call_command("drive", "list", stdout=out)  # English unless asked
    assert out.getvalue().strip() == "No drives."


def test_a_french_punch_card_reads_each_hole_the_french_way(ours, hall) -> None:
    """The screen reader's words for a hole: "Partie 1 : gagnée" (a space before the colon)."""
    couple = hall.couples.get(number=1)
    page = text(Client().get(f"/c/{couple.token}/", **ENGLISH))
    assert "Partie 1\u00a0: " in page and "Partie 1: " not in page
    english = night(ours.club, 6)
    play(english, 1)
    page = text(Client().get(f"/c/{english.couples.get(number=1).token}/", **FRENCH))
    assert "Game 1: " in page


def test_a_closed_drives_language_can_still_change_and_nothing_else(ours, hall) -> None:
    """The language changes the words, not the results: the settings page of a closed drive
    says so and offers the language alone; the change is audited; the API lets the language
    through and refuses anything else with drive_closed."""
    import re

    from drives.models import AuditEntry
    from drives.services import drive_close

    drive_close(drive=hall, actor=DESK)
    organizer = logged_in(ours.organizer)
    url = f"/drives/{hall.slug}/settings"
    page = text(organizer.get(url, **ENGLISH))
    assert "except the language of the hall" in page
    select = re.search(r"<select[^>]*name=\"language\"[^>]*>", page).group(0)
    assert "disabled" not in select
    assert re.search(r'<input[^>]*name="name"[^>]*disabled', page)
    assert 'data-testid="save-settings"' in page
    saved = organizer.post(url, {"language": "en", "name": "Changed"}, **ENGLISH)
    assert saved.status_code == 302
    hall.refresh_from_db()
    assert (hall.language, hall.name) == ("en", "Friday 45s")
    entry = AuditEntry.objects.filter(action="drive.update").latest("id")
    assert entry.old == {"language": "fr"} and entry.new == {"language": "en"}

    api = f"/api/v1/drives/{hall.slug}"
    back = organizer.patch(api, {"language": "fr"}, content_type="application/json")
    assert back.status_code == 200 and back.json()["language"] == "fr"
    refused = organizer.patch(api, {"name": "Changed"}, content_type="application/json")
    assert refused.status_code == 422 and refused.json()["code"] == "drive_closed"
