"""The admin for rare repairs: staff of one club see and reach only their club's rows; changes
go through the services (their refusals are form errors) and are audited with the channel
``admin``; what no service changes is read-only, and nothing is added or deleted."""

from datetime import date
from typing import Any

import pytest
from django.test import Client

import drives.admin
from drives.errors import ServiceError
from drives.models import AuditEntry, Couple, Drive, Membership
from drives.services import (
    club_create,
    couples_register,
    drive_close,
    drive_create,
    drive_update,
    member_add,
)
from scoring.models import Result
from tests.factories import UserFactory
from tests.scoring.nights import DESK, advance, lower_number, new_drive, play_game, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_clubs():
    ours = club_create(name="St. Mary's Parish Hall")
    theirs = club_create(name="Legion Branch 12")
    our_drive = drive_create(club=ours, name="Our Friday", date=date(2026, 11, 20))
    their_drive = drive_create(club=theirs, name="Their Friday", date=date(2026, 11, 20))
    couples_register(drive=our_drive, couples=[{"players": ["Mary MacNeil", "Joe MacNeil"]}])
    couples_register(drive=their_drive, couples=[{"players": ["Secret", "Couple"]}])
    staff = UserFactory(username="staffer", is_staff=True)
    member_add(club=ours, user=staff, role=Membership.Role.ORGANIZER)
    client = Client()
    client.force_login(staff)
    return client, our_drive, their_drive


def test_staff_see_only_their_clubs_drives(two_clubs) -> None:
    client, _, _ = two_clubs
    page = client.get("/admin/drives/drive/")
    assert page.status_code == 200
    assert "Our Friday" in page.text and "Their Friday" not in page.text
    couples = client.get("/admin/drives/couple/")
    assert "MacNeil" in couples.text and "Secret" not in couples.text


def test_staff_cannot_open_another_clubs_drive(two_clubs) -> None:
    client, ours, theirs = two_clubs
    assert client.get(f"/admin/drives/drive/{ours.pk}/change/").status_code == 200
    assert client.get(f"/admin/drives/drive/{theirs.pk}/change/").status_code in (302, 403, 404)
    response = client.post(f"/admin/drives/drive/{theirs.pk}/change/", {"name": "Hijacked"})
    assert response.status_code in (302, 403, 404)
    theirs.refresh_from_db()
    assert theirs.name == "Their Friday"


def test_staff_without_a_club_see_nothing() -> None:
    club_create(name="Somewhere")
    client = Client()
    client.force_login(UserFactory(username="loner", is_staff=True))
    assert client.get("/admin/drives/drive/").status_code == 403


def test_tokens_are_read_only_in_the_admin(two_clubs) -> None:
    client, ours, _ = two_clubs
    couple = ours.couples.get()
    page = client.get(f"/admin/drives/couple/{couple.pk}/change/")
    assert page.status_code == 200
    assert 'name="token"' not in page.text


# --- changes made in the admin go through the services and are audited ------------------------


@pytest.fixture
def superuser_client() -> tuple[Client, Any]:
    user = UserFactory(username="repairer", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(user)
    return client, user


@pytest.fixture
def running() -> Drive:
    """A drive of 8 couples, 5 games, with game 3 in play."""
    drive = new_drive(8, games=5, venue="Legion Hall")
    start(drive)
    for game in (1, 2):
        play_game(drive, game, lower_number)
        advance(drive, game)
    assert drive.current_game == 3
    return drive


def drive_form(drive: Drive, **changes: Any) -> dict[str, Any]:
    """What the admin's change form of ``drive`` posts (unchecked boxes are left out; the club
    too, which the admin shows read-only)."""
    fields = [
        "name",
        "date",
        "venue",
        "games",
        "ruleset",
        "movement",
        "first_seating",
        "sit_out_counts_as_win",
        "ranking",
        "entry_fee",
        "entry_fee_per",
        "currency",
        "confirm_by_other_couple",
        "scorers_may_advance",
        "slow_table_minutes",
        "published",
        "language",
    ]
    values = {name: getattr(drive, name) for name in fields} | {"club": drive.club_id} | changes
    return {
        name: "on" if value is True else value
        for name, value in values.items()
        if value is not False
    }


def couple_form(couple: Couple, **changes: Any) -> dict[str, Any]:
    fields = ["player1", "player2", "paid", "checked_in", "cookie_jar", "holes"]
    values = {name: getattr(couple, name) for name in fields} | changes
    return {
        name: "on" if value is True else ("" if value is None else value)
        for name, value in values.items()
        if value is not False
    }


def admin_entries(drive: Drive) -> Any:
    return AuditEntry.objects.filter(drive=drive, channel=AuditEntry.Channel.ADMIN)


def test_games_below_the_game_in_play_is_a_form_error(superuser_client, running) -> None:
    client, _ = superuser_client
    url = f"/admin/drives/drive/{running.pk}/change/"
    page = client.post(url, drive_form(running, games=2))
    assert page.status_code == 200
    assert page.context["adminform"].form.errors["games"] == [
        "games cannot change once the night started."
    ]
    assert "games cannot change once the night started." in page.text
    running.refresh_from_db()
    assert running.games == 5
    assert not admin_entries(running).exists()


def test_a_setting_the_services_refuse_is_an_error_on_its_field(superuser_client) -> None:
    client, _ = superuser_client
    drive = new_drive(0, currency="CAD")
    page = client.post(f"/admin/drives/drive/{drive.pk}/change/", drive_form(drive, currency="C4D"))
    assert page.status_code == 200
    assert "currency" in page.context["adminform"].form.errors
    drive.refresh_from_db()
    assert drive.currency == "CAD"
    assert not admin_entries(drive).exists()


def test_a_drive_edit_in_the_admin_is_audited(superuser_client, running) -> None:
    client, user = superuser_client
    url = f"/admin/drives/drive/{running.pk}/change/"
    answer = client.post(url, drive_form(running, name="Friday Night 45s", venue="Fire Hall"))
    assert answer.status_code == 302
    running.refresh_from_db()
    assert (running.name, running.venue) == ("Friday Night 45s", "Fire Hall")
    [entry] = admin_entries(running)
    assert entry.action == "drive.update"
    assert entry.user == user
    assert entry.old == {"name": "Friday 45s", "venue": "Legion Hall"}
    assert entry.new == {"name": "Friday Night 45s", "venue": "Fire Hall"}


def test_a_closed_drive_refuses_changes_in_the_admin(superuser_client, running) -> None:
    client, _ = superuser_client
    drive_close(drive=running, actor=DESK)
    running.refresh_from_db()
    url = f"/admin/drives/drive/{running.pk}/change/"
    page = client.post(url, drive_form(running, name="Renamed"))
    assert page.status_code == 200
    assert "The drive is closed" in page.text
    running.refresh_from_db()
    assert running.name == "Friday 45s"
    # Publishing the results stays possible after the close, as on the organizer's pages.
    assert client.post(url, drive_form(running, published=True)).status_code == 302
    [entry] = admin_entries(running)
    assert (entry.action, entry.old, entry.new) == (
        "drive.update",
        {"published": False},
        {"published": True},
    )


def test_a_couple_renamed_in_the_admin_is_audited(superuser_client, running) -> None:
    client, user = superuser_client
    couple = running.couples.get(number=3)
    url = f"/admin/drives/couple/{couple.pk}/change/"
    answer = client.post(url, couple_form(couple, player2="  Joe   MacNeil ", paid=True))
    assert answer.status_code == 302
    couple.refresh_from_db()
    assert couple.players == ["North 2", "Joe MacNeil"]  # cleaned as at the door
    assert couple.paid is True
    [entry] = admin_entries(running)
    assert (entry.action, entry.subject, entry.user) == ("couple.update", "couple 3", user)
    assert entry.old == {"players": ["North 2", "South 2"], "paid": False}
    assert entry.new == {"players": ["North 2", "Joe MacNeil"], "paid": True}


def test_holes_in_the_admin_are_checked_and_audited(superuser_client, running) -> None:
    client, _ = superuser_client
    couple = running.couples.get(number=1)
    url = f"/admin/drives/couple/{couple.pk}/change/"
    page = client.post(url, couple_form(couple, holes=9))
    assert page.status_code == 200
    assert "holes" in page.context["adminform"].form.errors
    assert client.post(url, couple_form(couple, holes=4)).status_code == 302
    couple.refresh_from_db()
    assert couple.holes == 4
    [entry] = admin_entries(running)
    assert (entry.action, entry.new) == ("holes.record", {"1": 4})


def test_a_role_changed_in_the_admin_is_audited(superuser_client) -> None:
    client, user = superuser_client
    club = club_create(name="Legion Branch 12")
    member = UserFactory(username="desk-helper")
    membership = member_add(club=club, user=member, role=Membership.Role.SCORER)
    url = f"/admin/drives/membership/{membership.pk}/change/"
    assert client.post(url, {"role": Membership.Role.ORGANIZER}).status_code == 302
    membership.refresh_from_db()
    assert membership.role == Membership.Role.ORGANIZER
    entry = AuditEntry.objects.filter(club=club, action="member.set").latest("id")
    assert (entry.channel, entry.user, entry.new) == ("admin", user, "organizer")


def test_the_admin_offers_no_unaudited_path_to_a_nights_rows(superuser_client, running) -> None:
    client, _ = superuser_client
    result = Result.objects.filter(game__drive=running).select_related("winner").first()
    assert result is not None
    winner = result.winner_id
    audit_before = AuditEntry.objects.count()
    objects = {
        "drives/drive": running.pk,
        "drives/couple": running.couples.get(number=1).pk,
        "drives/table": running.tables.get(number=1).pk,
        "drives/game": running.game_set.get(number=1).pk,
        "drives/seat": running.game_set.get(number=1).seats.first().pk,
        "drives/auditentry": AuditEntry.objects.filter(drive=running).first().pk,
        "drives/club": running.club_id,
        "scoring/result": result.pk,
    }
    for model, pk in objects.items():
        base = f"/admin/{model}/"
        assert client.get(f"{base}add/").status_code == 403, model
        assert client.post(f"{base}{pk}/delete/", {"post": "yes"}).status_code == 403, model
        bulk = {"action": "delete_selected", "_selected_action": [pk], "post": "yes"}
        client.post(base, bulk)
    for model in (
        "drives/table",
        "drives/game",
        "drives/seat",
        "drives/auditentry",
        "drives/club",
        "scoring/result",
    ):
        pk = objects[model]
        # Shown, without a form to save.
        page = client.get(f"/admin/{model}/{pk}/change/")
        assert page.status_code == 200, model
        assert 'name="_save"' not in page.text, model
        assert client.post(f"/admin/{model}/{pk}/change/", {}).status_code == 403, model
    result.refresh_from_db()
    assert result.winner_id == winner
    assert Result.objects.filter(pk=result.pk).exists()
    assert Drive.objects.filter(pk=running.pk).exists()
    assert running.couples.count() == 8
    assert AuditEntry.objects.count() == audit_before


def test_a_refusal_between_the_check_and_the_save_is_a_message(
    superuser_client, running, monkeypatch
) -> None:
    """Another desk closes the night between the form's check and the save: the service's
    refusal is told on the page, and nothing is written."""
    client, _ = superuser_client
    calls = []

    def closed_in_between(**kwargs: Any) -> Drive:
        calls.append(kwargs)
        if len(calls) == 2:  # the save, after the form's rehearsal passed
            raise ServiceError("drive_closed", "The drive is closed: nothing can change any more.")
        return drive_update(**kwargs)

    monkeypatch.setattr(drives.admin, "drive_update", closed_in_between)
    url = f"/admin/drives/drive/{running.pk}/change/"
    answer = client.post(url, drive_form(running, name="Renamed"), follow=True)
    assert answer.redirect_chain == [(url, 302)]
    assert "The drive is closed: nothing can change any more." in answer.text
    assert len(calls) == 2
    running.refresh_from_db()
    assert running.name == "Friday 45s"
    assert not admin_entries(running).exists()
