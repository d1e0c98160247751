"""The admin for rare repairs: staff of one club see and reach only their club's rows."""

from datetime import date

import pytest
from django.test import Client

from drives.models import Membership
from drives.services import club_create, couples_register, drive_create, member_add
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_clubs():  # type: ignore[no-untyped-def]
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


def test_staff_see_only_their_clubs_drives(two_clubs) -> None:  # type: ignore[no-untyped-def]
    client, _, _ = two_clubs
    page = client.get("/admin/drives/drive/")
    assert page.status_code == 200
    assert "Our Friday" in page.text and "Their Friday" not in page.text
    couples = client.get("/admin/drives/couple/")
    assert "MacNeil" in couples.text and "Secret" not in couples.text


def test_staff_cannot_open_another_clubs_drive(two_clubs) -> None:  # type: ignore[no-untyped-def]
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


def test_tokens_are_read_only_in_the_admin(two_clubs) -> None:  # type: ignore[no-untyped-def]
    client, ours, _ = two_clubs
    couple = ours.couples.get()
    page = client.get(f"/admin/drives/couple/{couple.pk}/change/")
    assert page.status_code == 200
    assert 'name="token"' not in page.text
