"""/drives/: the user's clubs and their drives, a new club for a user in none."""

import pytest
from django.test import Client
from django.urls import reverse

from drives.models import Club, Membership
from drives.services import drive_close, drive_start
from tests.factories import UserFactory
from tests.pages.organizer_helpers import DESK, a_drive, club_people, logged_in, text

pytestmark = pytest.mark.django_db
URL = "/drives/"


def test_the_url_names() -> None:
    assert reverse("drives:list") == URL
    assert reverse("drives:new") == "/drives/new"


def test_anonymous_users_go_to_the_login_page() -> None:
    response = Client().get(URL)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_the_clubs_and_their_drives_with_state_and_game() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    setup = a_drive(ours.club, name="Setting up", couples=2)
    running = a_drive(ours.club, name="In play", couples=4)
    drive_start(drive=running, actor=DESK)
    closed = a_drive(ours.club, name="Last week")
    drive_close(drive=closed, actor=DESK)
    theirs = club_people("Legion Branch 12", "theirs")
    a_drive(theirs.club, name="Their secret night")

    response = logged_in(ours.organizer).get(URL)
    assert response.status_code == 200
    page = text(response)
    assert "St. Joseph&#x27;s Parish" in page
    for drive in (setup, running, closed):
        assert reverse("night:dashboard", kwargs={"slug": drive.slug}) in page
    assert "game 1 of 25" in page
    assert "not started" in page
    assert "Their secret night" not in page
    assert "Legion Branch 12" not in page
    assert 'data-testid="new-drive"' in page


def test_a_scorer_sees_the_drives_but_no_new_drive_button() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    a_drive(ours.club, name="Friday 45s")
    page = text(logged_in(ours.scorer).get(URL))
    assert "Friday 45s" in page
    assert "scorer" in page
    assert 'data-testid="new-drive"' not in page


def test_a_superuser_sees_every_club() -> None:
    club_people("St. Joseph's Parish", "ours")
    theirs = club_people("Legion Branch 12", "theirs")
    a_drive(theirs.club, name="Their night")
    admin = UserFactory(username="root", is_superuser=True, is_staff=True)
    page = text(logged_in(admin).get(URL))
    assert "St. Joseph&#x27;s Parish" in page and "Their night" in page


def test_a_user_in_no_club_creates_one_and_becomes_its_organizer() -> None:
    user = UserFactory(username="mary")
    client = logged_in(user)
    page = text(client.get(URL))
    assert "Start your club" in page
    assert 'data-testid="create-club"' in page

    response = client.post(URL, {"name": "Margaree Fire Hall"})
    club = Club.objects.get(name="Margaree Fire Hall")
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('drives:new')}?club={club.slug}"
    assert Membership.objects.get(club=club, user=user).role == "organizer"
    page = text(client.get(response["Location"]))
    assert "Margaree Fire Hall is created" in page
    assert f'<option value="{club.pk}" selected>' in page


def test_a_club_name_taken_or_empty_is_named() -> None:
    club_people("St. Joseph's Parish", "ours")
    client = logged_in(UserFactory(username="mary"))
    response = client.post(URL, {"name": "St. Joseph's Parish"})
    assert response.status_code == 422
    assert "There is already a club called" in text(response)
    response = client.post(URL, {"name": "  "})
    assert response.status_code == 422
    assert "A club needs a name of 1 to 120 characters." in text(response)
    response = client.post(URL, {"name": "\u200b\u2066\u2069"})  # nothing to see
    assert response.status_code == 422
    assert "A club needs a name of 1 to 120 characters." in text(response)
    response = client.post(URL, {"name": "St. Joseph's Parish\u202e"})  # the same name
    assert response.status_code == 422
    assert "There is already a club called" in text(response)
    assert Club.objects.count() == 1


def test_the_header_and_the_home_page_link_to_my_drives() -> None:
    client = logged_in(UserFactory(username="mary"))
    page = text(client.get("/"))
    assert page.count(f'href="{URL}"') == 2
    assert f'href="{URL}"' not in text(Client().get("/"))
