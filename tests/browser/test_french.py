"""A French hall's night in the browser: the main pages walked in French and photographed for
the README (docs/screenshots/fr-*.png when SCREENSHOTS=1).

The drive's language is French: the projector, the table and couple pages and the public
results are French even on a phone set to English; the organizer's and the scorer's own pages
(desk, dashboard) follow their browser, French here, or the header's switch.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from drives.models import Couple, Drive, Table
from drives.services import drive_update
from scoring.selectors import game_view
from tests.browser.conftest import ContextFactory
from tests.browser.helpers import force_login, screenshot
from tests.browser.test_screenshots import (
    CONFLICT_TABLE,
    COUPLES,
    ENTERED_AT_THE_DESK,
    PHONE_TABLE,
    REPORTED,
    build_night,
    fits_the_phone,
)
from tests.factories import UserFactory
from tests.pages.live_helpers import DESK

# The page's look, not its data: run in CI's SQLite pass only (tests/conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.any_database]

FRENCH = {"locale": "fr-CA"}


def test_a_french_hall_runs_its_night_in_french(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    organizer = UserFactory(username="marie", first_name="Marie")
    scorer = UserFactory(username="omer", first_name="Omer")
    drive = build_night(organizer, scorer)
    drive_update(
        drive=drive, actor=DESK, language="fr", name="45 du vendredi", venue="Salle paroissiale"
    )
    drive.refresh_from_db()
    game = drive.current_game
    tables = (COUPLES + 1) // 2

    # The desk, in the scorer's French browser: a result typed, the answer in French.
    context = new_context(**FRENCH)
    force_login(context, scorer, live_server.url)
    desk = context.new_page()
    desk.goto(f"/drives/{drive.slug}/desk/")
    expect(desk.locator("html")).to_have_attribute("lang", "fr")
    row = game_view(drive, game)["tables"][ENTERED_AT_THE_DESK - 1]
    desk.keyboard.type(str(ENTERED_AT_THE_DESK))
    desk.keyboard.press("Enter")
    desk.keyboard.type(str(row["arrives"]))
    desk.keyboard.press("Enter")
    expect(desk.get_by_test_id("desk-status")).to_have_text(
        f"Table {ENTERED_AT_THE_DESK} : le couple {row['arrives']} a gagné (partie {game})."
    )
    expect(desk.get_by_test_id("desk-summary")).to_contain_text(
        f"{len(REPORTED) + 1} tables sur {tables} ont donné leur résultat"
    )
    screenshot(desk, "fr-desk")

    # A table page on a phone set to English: the hall's French all the same.
    phone = new_context(phone=True).new_page()
    phone.goto(f"/t/{Table.objects.get(drive=drive, number=PHONE_TABLE).token}/")
    expect(phone.locator("html")).to_have_attribute("lang", "fr")
    expect(phone.get_by_text("Qui a gagné?")).to_be_visible()
    expect(phone.locator("button.win")).to_have_count(2)
    expect(phone.locator("button.win").first).to_contain_text("Le couple")
    fits_the_phone(phone)
    screenshot(phone, "fr-table-phone")

    # The couple that deals at that table, on its punch card's page.
    seat = game_view(drive, game)["tables"][PHONE_TABLE - 1]
    couple = Couple.objects.get(drive=drive, number=seat["arrives"])
    phone.goto(f"/c/{couple.token}/")
    expect(phone.locator(".dealer")).to_have_text("Vous donnez en premier.")
    expect(phone.get_by_test_id("punch-card").locator("li")).to_have_count(drive.games)
    fits_the_phone(phone)
    screenshot(phone, "fr-couple-phone")

    # The organizer: the projector (the hall's French), then the dashboard (her own).
    context = new_context(**FRENCH)
    force_login(context, organizer, live_server.url)
    page = context.new_page()
    page.goto(f"/drives/{drive.slug}/projector/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_test_id("projector-list").locator("[data-couple]")).to_have_count(COUPLES)
    expect(page.locator("body")).to_contain_text("Partie")
    screenshot(page, "fr-projector")

    page.set_viewport_size({"width": 1280, "height": 1000})
    page.goto(f"/drives/{drive.slug}/")
    expect(page.get_by_test_id("conflict-tables")).to_contain_text(f"table {CONFLICT_TABLE}")
    expect(page.get_by_role("heading", name="Partie", exact=False).first).to_be_visible()
    expect(page.get_by_test_id("advance")).to_be_disabled()
    screenshot(page, "fr-dashboard")

    # The public results, for anyone once published: French, from an English browser.
    drive_update(drive=drive, actor=DESK, published=True)
    reader = new_context().new_page()
    reader.goto(f"/results/{drive.slug}/")
    expect(reader.locator("html")).to_have_attribute("lang", "fr")
    expect(reader.locator("table thead")).to_contain_text("Victoires")
    expect(reader.locator("table tbody tr")).to_have_count(COUPLES)
    screenshot(reader, "fr-results")


def test_the_header_switch_remembers_the_organizers_language(
    new_context: ContextFactory, live_server: LiveServer
) -> None:
    organizer = UserFactory(username="rita", first_name="Rita")
    scorer = UserFactory(username="leo", first_name="Leo")
    drive = build_night(organizer, scorer)
    assert Drive.objects.get(pk=drive.pk).language == "en"
    context = new_context()  # an English browser
    force_login(context, organizer, live_server.url)
    page = context.new_page()
    page.goto(f"/drives/{drive.slug}/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.get_by_test_id("language-switch").get_by_role("button", name="Français").click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert page.url.endswith(f"/drives/{drive.slug}/")
    expect(page.get_by_text("Tableau de bord").first).to_be_visible()
    # Remembered: the next page too, and the scripts' words (the desk's hint) in French.
    page.goto(f"/drives/{drive.slug}/desk/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.keyboard.type("99")
    expect(page.locator("#desk-hint")).to_contain_text("Pas de table 99")
    # The scripts' own words come from the djangojs catalog (/jsi18n/), French here.
    assert page.evaluate("gettext('Waiting for the printer…')") == "En attente de l'imprimante…"
    # The English drive's projector stays English: the hall's language, not hers.
    page.goto(f"/drives/{drive.slug}/projector/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.goto(f"/drives/{drive.slug}/")
    page.get_by_test_id("language-switch").get_by_role("button", name="English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
