"""/drives/new and /drives/<slug>/settings: a drive's settings, with the form's errors named
and the settings fixed once the night started shown read-only."""

from datetime import date
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from drives.models import Drive
from drives.services import drive_close, drive_start
from tests.factories import UserFactory
from tests.pages.organizer_helpers import DESK, a_drive, club_people, logged_in, text

pytestmark = pytest.mark.django_db
NEW = "/drives/new"


def settings_url(drive: Drive) -> str:
    return reverse("drives:settings", kwargs={"slug": drive.slug})


def form_data(club_pk: int | None = None, **changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "name": "Friday 45s",
        "date": "2026-11-20",
        "venue": "Parish hall",
        "games": "25",
        "ruleset": "cape-breton-45",
        "movement": "winners-move",
        "first_seating": "by-number",
        "seed": "",
        "sit_out_counts_as_win": "on",
        "ranking": "dense",
        "entry_fee": "10.00",
        "currency": "cad",
    }
    if club_pk is not None:
        data["club"] = club_pk
    data.update(changes)
    return data


def test_anonymous_users_go_to_the_login_page() -> None:
    assert Client().get(NEW)["Location"].startswith(reverse("login"))


def test_the_form_has_the_usual_defaults_and_a_line_on_each_ruleset() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    response = logged_in(ours.organizer).get(NEW)
    assert response.status_code == 200
    page = text(response)
    form = response.context["form"]
    assert form["date"].value() == timezone.localdate()
    assert form["games"].value() == 25
    assert form["currency"].value() == "CAD"
    assert 'value="cape-breton-45"' in page and "checked" in page
    assert "The Nova Scotia couples game" in page
    assert "53 cards" in page
    assert "first to 120 wins" in page
    assert 'data-testid="create-drive"' in page


def test_a_drive_is_created_with_its_settings() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    client = logged_in(ours.organizer)
    data = form_data(
        ours.club.pk,
        first_seating="shuffle",
        seed="1234",
        ruleset="irish-45-joker",
        ranking="competition",
        confirm_by_other_couple="on",
        games="20",
    )
    del data["sit_out_counts_as_win"]
    response = client.post(NEW, data)
    drive = Drive.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("drives:couples", kwargs={"slug": drive.slug})
    assert drive.club == ours.club
    assert (drive.name, drive.date, drive.venue, drive.games) == (
        "Friday 45s",
        date(2026, 11, 20),
        "Parish hall",
        20,
    )
    assert (drive.ruleset, drive.first_seating, drive.seed, drive.ranking) == (
        "irish-45-joker",
        "shuffle",
        1234,
        "competition",
    )
    assert drive.sit_out_counts_as_win is False
    assert drive.confirm_by_other_couple is True
    assert (drive.entry_fee, drive.currency) == (Decimal("10.00"), "CAD")
    assert "is ready" in text(client.get(response["Location"]))


def test_form_errors_are_named_and_nothing_is_created() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    client = logged_in(ours.organizer)
    response = client.post(
        NEW,
        form_data(ours.club.pk, name="", date="2026-13-45", games="99", currency="C1D"),
    )
    assert response.status_code == 422
    errors = response.context["form"].errors
    assert set(errors) == {"name", "date", "games", "currency"}
    page = text(response)
    assert "A drive needs a name of at most 120 characters." in page
    assert "The date is a day written YYYY-MM-DD." in page
    assert "The games are a whole number from 1 to 60." in page
    assert "The currency is three letters A–Z, like CAD." in page
    assert not Drive.objects.exists()


def test_a_currency_is_three_letters_a_to_z() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    client = logged_in(ours.organizer)
    for currency in ("ßab", "\u017fab", "ÇAD"):  # "ßab".upper() is "SSAB"
        response = client.post(NEW, form_data(ours.club.pk, currency=currency))
        assert response.status_code == 422
        message = "The currency is three letters A–Z, like CAD."
        assert response.context["form"].errors == {"currency": [message]}
        assert message in text(response)
    assert not Drive.objects.exists()
    drive = a_drive(ours.club)
    response = client.post(settings_url(drive), form_data(currency="ßab"))
    assert response.status_code == 422
    assert "The currency is three letters A–Z, like CAD." in text(response)
    drive.refresh_from_db()
    assert drive.currency == "CAD"


def test_only_clubs_the_user_organizes_are_offered() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    theirs = club_people("Legion Branch 12", "theirs")
    client = logged_in(ours.organizer)
    page = text(client.get(NEW))
    assert "Legion Branch 12" not in page
    response = client.post(NEW, form_data(theirs.club.pk))
    assert response.status_code == 422
    assert "Select a valid choice" in text(response)
    assert not Drive.objects.exists()


def test_the_club_asked_for_in_the_address_is_chosen_and_odd_text_there_is_ignored() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    client = logged_in(ours.organizer)
    chosen = client.get(f"{NEW}?club={ours.club.slug}").context["form"].initial["club"]
    assert chosen == ours.club
    for odd in ("%00", "a%00b", "%E2%80%8B", "%ED%B0%80", "x" * 300):  # PostgreSQL: no NUL
        response = client.get(f"{NEW}?club={odd}")
        assert response.status_code == 200, odd
        assert "club" not in response.context["form"].initial


def test_a_scorer_or_a_user_without_a_club_is_sent_to_the_list() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    for user in (ours.scorer, UserFactory(username="nobody")):
        response = logged_in(user).get(NEW)
        assert response.status_code == 302
        assert response["Location"] == reverse("drives:list")


def test_settings_are_shown_and_saved() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, venue="Hall")
    client = logged_in(ours.organizer)
    response = client.get(settings_url(drive))
    assert response.status_code == 200
    assert 'value="Hall"' in text(response)
    assert 'data-testid="save-settings"' in text(response)

    response = client.post(settings_url(drive), form_data(venue="Legion hall", games="30"))
    assert response.status_code == 302
    assert response["Location"] == reverse("night:dashboard", kwargs={"slug": drive.slug})
    drive.refresh_from_db()
    assert (drive.venue, drive.games) == ("Legion hall", 30)

    response = client.post(settings_url(drive), form_data(venue="Legion hall", games="30"))
    assert "Nothing was changed." in text(client.get(response["Location"]))


def test_settings_errors_are_named() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club)
    response = logged_in(ours.organizer).post(
        settings_url(drive), form_data(date="20/11/2026", name="  ")
    )
    assert response.status_code == 422
    assert set(response.context["form"].errors) == {"date", "name"}


def test_once_started_the_movement_settings_are_read_only() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=4)
    drive_start(drive=drive, actor=DESK)
    client = logged_in(ours.organizer)
    response = client.get(settings_url(drive))
    form = response.context["form"]
    for name in ("games", "movement", "first_seating", "seed"):
        assert form.fields[name].disabled, name
    assert not form.fields["venue"].disabled
    assert "fixed" in text(response)

    response = client.post(settings_url(drive), form_data(games="10", venue="Legion hall"))
    assert response.status_code == 302
    drive.refresh_from_db()
    assert (drive.games, drive.venue) == (25, "Legion hall")


def test_a_closed_drive_shows_its_settings_with_only_the_language_to_save() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club)
    drive_close(drive=drive, actor=DESK)
    client = logged_in(ours.organizer)
    response = client.get(settings_url(drive))
    fields = response.context["form"].fields
    assert [name for name, field in fields.items() if not field.disabled] == ["language"]
    assert "Save the language" in text(response)
    response = client.post(settings_url(drive), form_data(venue="elsewhere"), follow=True)
    assert "Nothing was changed." in text(response)
    drive.refresh_from_db()
    assert drive.venue == ""


def test_settings_permissions() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    theirs = club_people("Legion Branch 12", "theirs")
    drive = a_drive(ours.club)
    url = settings_url(drive)
    assert Client().get(url)["Location"].startswith(reverse("login"))
    assert logged_in(theirs.organizer).get(url).status_code == 404
    assert logged_in(theirs.organizer).post(url, form_data()).status_code == 404
    response = logged_in(ours.scorer).get(url)
    assert response.status_code == 403
    assert "Only an organizer of St. Joseph" in text(response)
    assert logged_in(ours.scorer).post(url, form_data(venue="x")).status_code == 403
    assert logged_in(ours.organizer).get("/drives/no-such-drive/settings").status_code == 404
