"""The end of the night on the dashboard: publish and unpublish the results, close the night
after a confirmation, and a closed night read-only."""

import re

import pytest
from django.urls import reverse

from drives.models import Couple, Drive
from drives.services import drive_start
from scoring.models import Result
from tests.pages.organizer_helpers import DESK, a_drive, club_people, logged_in, play_game, text

pytestmark = pytest.mark.django_db


def url(drive: Drive, name: str = "dashboard") -> str:
    return reverse(f"night:{name}", kwargs={"slug": drive.slug})


def running_night(couples: int = 6, **settings: object) -> tuple[object, Drive]:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=couples, **settings)
    drive_start(drive=drive, actor=DESK)
    return ours, drive


def test_publish_and_unpublish() -> None:
    ours, drive = running_night()
    client = logged_in(ours.organizer)
    page = text(client.get(url(drive)))
    assert 'data-testid="publish"' in page
    response = client.post(url(drive, "dashboard_publish"), {"published": "1"})
    assert response.status_code == 302
    drive.refresh_from_db()
    assert drive.published
    page = text(client.get(url(drive)))
    assert "The results are public now." in page
    assert 'data-testid="unpublish"' in page
    client.post(url(drive, "dashboard_publish"), {"published": "0"})
    drive.refresh_from_db()
    assert not drive.published


def test_closing_asks_for_a_confirmation_first() -> None:
    ours, drive = running_night()
    play_game(drive, 1, skip=(2,))
    client = logged_in(ours.organizer)
    page = text(client.get(url(drive)))
    close = re.search(
        r'<form method="get" action="([^"]+)">\s*<button[^>]*data-testid="close"', page
    )
    assert close is not None and close.group(1) == url(drive, "dashboard_close")

    response = client.get(url(drive, "dashboard_close"))
    assert response.status_code == 200
    page = text(response)
    assert "Close the night?" in page
    assert "Only 1 of 25 games have been played." in page
    assert "1 table(s) without a result" in page
    assert 'data-testid="close-confirm"' in page
    drive.refresh_from_db()
    assert drive.state == "running"  # looking at the question closes nothing

    response = client.post(url(drive, "dashboard_close"))
    assert response.status_code == 302
    drive.refresh_from_db()
    assert drive.state == "closed" and drive.closed_at is not None
    assert "The night is closed" in text(client.get(url(drive)))


def test_a_closed_night_is_read_only() -> None:
    ours, drive = running_night()
    play_game(drive, 1)
    client = logged_in(ours.organizer)
    client.post(url(drive, "dashboard_close"))
    page = text(client.get(url(drive)))
    for testid in ("start", "advance", "close", "correct", "holes", "register"):
        assert f'data-testid="{testid}"' not in page, testid
    assert "Nothing can change any more" in page

    response = client.post(
        url(drive, "dashboard_resolve"),
        {"fix-game": "1", "fix-table": "1", "fix-winner": "2", "fix-reason": "too late"},
        follow=True,
    )
    assert "The drive is closed: nothing can change any more." in text(response)
    assert Result.objects.get(seat__table__number=1).winner.number == 1

    response = client.post(url(drive, "dashboard_holes"), {"holes-1": "1"}, follow=True)
    assert "The drive is closed" in text(response)
    assert Couple.objects.get(number=1).holes is None
    response = client.post(url(drive, "dashboard_advance"), {"game": "1"}, follow=True)
    assert "The drive is closed" in text(response)
    response = client.post(url(drive, "dashboard_close"), follow=True)
    assert "The drive is closed" in text(response)
    response = client.get(url(drive, "dashboard_close"), follow=True)
    assert "The night is already closed." in text(response)
    drive.refresh_from_db()
    assert drive.current_game == 1


def test_the_results_of_a_closed_night_can_still_be_published() -> None:
    ours, drive = running_night()
    client = logged_in(ours.organizer)
    client.post(url(drive, "dashboard_close"))
    assert 'data-testid="publish"' in text(client.get(url(drive)))
    client.post(url(drive, "dashboard_publish"), {"published": "1"})
    drive.refresh_from_db()
    assert drive.published and drive.state == "closed"


def test_the_close_says_what_the_table_and_couple_links_do_afterwards() -> None:
    """The couple links keep working after the close (each couple's own record of the night),
    and the table links say the night is over: the close page, its message and the closed
    dashboard say so, and none says the couple links stop working."""
    ours, drive = running_night()
    play_game(drive, 1)
    client = logged_in(ours.organizer)
    said = "the couple links still show each couple its own record of the night"
    question = text(client.get(url(drive, "dashboard_close")))
    assert "The table links then only say the night is over;" in question
    assert said in question
    closed = text(client.post(url(drive, "dashboard_close"), follow=True))
    assert said in closed
    for page in (question, closed):
        assert "stop working" not in page and "links no longer work" not in page
    couple = drive.couples.get(number=1)
    record = client.get(reverse("night:couple", kwargs={"token": couple.token}))
    assert record.status_code == 200 and "Here is your night" in text(record)
