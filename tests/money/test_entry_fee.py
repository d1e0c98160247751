"""The entry fee as the hall charges it: per person (new drives: "$5 a person", a couple
pays 10) or per couple. The door's paid tick takes what a couple pays; the accounts, the
money page, the treasurer's page, the drive's settings (API and form), the export and its
restore all say which. Drives stored before the choice keep what they meant: per couple."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse

from drives.models import Drive
from drives.services import couple_update, drive_update
from money import selectors
from money.models import Line
from scoring.records.export import drive_export
from scoring.records.restore import drive_delete, drive_restore
from tests.api.helpers import DESK, Api, ClubUsers, make_drive
from tests.drives.test_migration_sit_out_last import migrate
from tests.money.conftest import Sheet
from tests.pages.test_drives_new import form_data

pytestmark = pytest.mark.django_db


def paid(drive: Drive, number: int) -> None:
    couple_update(couple=drive.couples.get(number=number), actor=DESK, paid=True)


def test_a_new_drive_charges_a_person_and_a_couple_pays_twice(ours: ClubUsers) -> None:
    drive = make_drive(ours.club, 2, entry_fee=Decimal("5.00"))
    assert drive.entry_fee_per == "person"
    paid(drive, 1)
    drive_update(drive=drive, actor=DESK, entry_fee_per="couple")
    drive.refresh_from_db()
    paid(drive, 2)
    assert list(Line.objects.order_by("id").values_list("couple__number", "amount")) == [
        (1, Decimal("10.00")),
        (2, Decimal("5.00")),
    ]
    accounts = selectors.accounts(drive)
    assert (accounts["entry_fee"], accounts["entry_fee_per"]) == (Decimal("5.00"), "couple")
    assert accounts["couple_fee"] == Decimal("5.00")


def test_the_api_sets_and_shows_the_fees_unit(api: Api, ours: ClubUsers) -> None:
    tok = ours.org_token
    made = api.post(
        "drives",
        {"club": ours.club.slug, "name": "Friday 45s", "date": "2026-11-27", "entry_fee": "5"},
        token=tok,
    )
    assert made.status_code == 201 and made.json()["entry_fee_per"] == "person", made.content
    slug = made.json()["slug"]
    changed = api.patch(f"drives/{slug}", {"entry_fee_per": "couple"}, token=tok)
    assert changed.status_code == 200 and changed.json()["entry_fee_per"] == "couple"
    bad = api.patch(f"drives/{slug}", {"entry_fee_per": "family"}, token=tok)
    assert bad.status_code == 422, bad.content
    assert (bad.json()["code"], bad.json()["field"]) == ("bad_field", "entry_fee_per")
    money = api.get(f"drives/{slug}/accounts", token=tok).json()
    assert (money["entry_fee"], money["entry_fee_per"], money["couple_fee"]) == (
        "5.00",
        "couple",
        "5.00",
    )


def test_the_drives_form_offers_the_choice(ours: ClubUsers) -> None:
    desk = Client()
    desk.force_login(ours.organizer)
    form = desk.get("/drives/new")
    page = form.content.decode()
    assert "a person" in page and "a couple" in page
    assert form.context["form"]["entry_fee_per"].value() == "person"
    drive = make_drive(ours.club, 0, entry_fee=Decimal("5"))
    settings = reverse("drives:settings", kwargs={"slug": drive.slug})
    saved = desk.post(settings, form_data(entry_fee="6.00", entry_fee_per="couple"))
    assert saved.status_code == 302, saved.context["form"].errors if saved.context else saved
    drive.refresh_from_db()
    assert (drive.entry_fee, drive.entry_fee_per) == (Decimal("6.00"), "couple")


def test_the_money_page_and_the_treasurers_page_say_per_what(
    ours: ClubUsers, treasurers_sheet: Sheet
) -> None:
    drive = make_drive(ours.club, 2, entry_fee=Decimal("5.00"))
    desk = Client()
    desk.force_login(ours.organizer)
    page = desk.get(reverse("money:page", kwargs={"slug": drive.slug})).content.decode()
    assert "Entry: 5.00 CAD a person, 10.00 CAD a couple" in page
    assert "Entry fee: 5.00 CAD a person (10.00 CAD a couple)" in treasurers_sheet(desk, drive)
    drive_update(drive=drive, actor=DESK, entry_fee_per="couple", language="fr")
    page = desk.get(
        reverse("money:page", kwargs={"slug": drive.slug}), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "Entrée : 5,00 CAD par couple." in page
    assert "Prix d'entrée : 5.00 CAD par couple" in treasurers_sheet(desk, drive)


def test_the_export_carries_the_fees_unit_and_older_exports_meant_a_couple(
    ours: ClubUsers,
) -> None:
    drive = make_drive(ours.club, 2, entry_fee=Decimal("5.00"), entry_fee_per="couple")
    record = drive_export(drive)
    assert record["drive"]["entry_fee_per"] == "couple"
    drive_delete(drive=drive)
    assert drive_restore(data=record).drive.entry_fee_per == "couple"
    older = drive_export(make_drive(ours.club, 2, entry_fee=Decimal("5.00")))
    assert older["drive"].pop("entry_fee_per") == "person"
    drive_delete(drive=Drive.objects.get(slug=older["drive"]["slug"]))
    assert drive_restore(data=older).drive.entry_fee_per == "couple"


@pytest.mark.django_db(transaction=True)
def test_drives_stored_before_the_choice_keep_a_fee_per_couple() -> None:
    before = [("drives", "0010_games_rule_in_inputs")]
    try:
        old = migrate(before).loader.project_state(before).apps
        club = old.get_model("drives", "Club").objects.create(name="St. Joseph's", slug="sj")
        old.get_model("drives", "Drive").objects.create(
            club=club, slug="old-friday", name="Friday 45s", date=date(2026, 11, 13), entry_fee=5
        )
        latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
        migrate(latest)
        assert Drive.objects.get(slug="old-friday").entry_fee_per == "couple"
        fresh = Drive.objects.create(
            club_id=club.pk, slug="new-friday", name="Friday 45s", date=date(2026, 11, 20)
        )
        assert fresh.entry_fee_per == "person"
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
