"""/drives/<slug>/ (night:dashboard): the night's state, the start and the advance (with the
409 of an incomplete game listing its tables), late arrivals and withdrawals, permissions and
query counts."""

import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from drives.models import AuditEntry, Couple, Drive
from drives.services import (
    couple_update,
    couples_register,
    drive_start,
    drive_update,
    holes_record,
)
from tests.pages.organizer_helpers import (
    DESK,
    a_conflict,
    a_drive,
    club_people,
    logged_in,
    play_game,
    text,
)

pytestmark = pytest.mark.django_db


def url(drive: Drive, name: str = "dashboard") -> str:
    return reverse(f"night:{name}", kwargs={"slug": drive.slug})


def button(page: str, testid: str) -> str:
    """The opening tag of the button with this data-testid."""
    found = re.search(rf'<button[^>]*data-testid="{testid}"[^>]*>', page)
    assert found is not None, testid
    return found.group(0)


def test_the_url_names() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club)
    assert url(drive) == f"/drives/{drive.slug}/"
    assert url(drive, "dashboard_advance") == f"/drives/{drive.slug}/advance"


def test_before_the_start_the_couples_count_and_the_start_button() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=5)
    couple_update(couple=Couple.objects.get(number=5), actor=DESK, withdrawn=True)
    response = logged_in(ours.organizer).get(url(drive))
    assert response.status_code == 200
    page = text(response)
    assert "4 couples ready" in page
    assert "1 withdrawn" in page
    assert "disabled" not in button(page, "start")
    assert 'value="shuffle"' in page
    assert reverse("drives:couples", kwargs={"slug": drive.slug}) in page
    assert reverse("drives:settings", kwargs={"slug": drive.slug}) in page
    assert f"/api/v1/drives/{drive.slug}/export" in page
    assert 'data-testid="advance"' not in page
    assert 'data-testid="close"' not in page


def test_the_start_is_disabled_with_its_reason_below_two_couples() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=1)
    client = logged_in(ours.organizer)
    page = text(client.get(url(drive)))
    assert "disabled" in button(page, "start")
    assert "At least two couples are needed to start." in page
    response = client.post(url(drive, "dashboard_start"), {"start-seating": "by-number"})
    assert response.status_code == 422
    assert "At least two couples are needed to start." in text(response)
    drive.refresh_from_db()
    assert drive.state == "setup"


def test_start_then_advance_through_the_dashboard() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=5)
    client = logged_in(ours.organizer)

    response = client.post(
        url(drive, "dashboard_start"), {"start-seating": "by-number", "start-absent": "seat"}
    )
    assert response.status_code == 302 and response["Location"] == url(drive)
    drive.refresh_from_db()
    assert (drive.state, drive.current_game) == ("running", 1)
    page = text(client.get(url(drive)))
    assert "The night has started: game 1 is seated at 2 tables. Couple 5 sits out." in page
    assert "Game 1 of 25 in play" in page
    assert "0 of 2 tables reported" in page
    assert "disabled" in button(page, "advance")
    assert "Game 1 is not complete: no result yet at table(s) 1, 2." in page
    assert re.search(r'data-testid="missing-tables">.*table 1.*table 2', page)
    assert "?game=1&amp;table=2#correct" in page

    play_game(drive, 1)
    page = text(client.get(url(drive)))
    assert "2 of 2 tables reported" in page
    assert "Every table has reported." in page
    assert "disabled" not in button(page, "advance")

    response = client.post(url(drive, "dashboard_advance"), {"game": "1"})
    assert response.status_code == 302
    drive.refresh_from_db()
    assert drive.current_game == 2
    page = text(client.get(url(drive)))
    assert "Game 2 has started" in page
    assert "Game 2 of 25 in play" in page

    # Pressed twice (a second tab, a double click): the advance happens once.
    response = client.post(url(drive, "dashboard_advance"), {"game": "1"}, follow=True)
    assert "Game 2 had already started" in text(response)
    drive.refresh_from_db()
    assert drive.current_game == 2


def test_an_incomplete_game_answers_409_listing_its_tables() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=8)
    drive_start(drive=drive, actor=DESK)
    play_game(drive, 1, skip=(2, 4))
    a_conflict(drive, 1, 3, 6)
    response = logged_in(ours.organizer).post(url(drive, "dashboard_advance"), {"game": "1"})
    assert response.status_code == 409
    page = text(response)
    error = re.search(r'data-testid="advance-error">(.*?)</div>', page, re.S)
    assert error is not None
    assert "Table 2: no result yet" in error.group(1)
    assert "Table 4: no result yet" in error.group(1)
    assert "Table 3: two different results entered" in error.group(1)
    assert "#conflict-1-3" in error.group(1)
    drive.refresh_from_db()
    assert drive.current_game == 1


def test_a_bad_advance_or_start_is_named_not_a_500() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=4, games=2)
    client = logged_in(ours.organizer)
    response = client.post(url(drive, "dashboard_advance"), {"game": "1"}, follow=True)
    assert "The night has not started." in text(response)
    response = client.post(url(drive, "dashboard_advance"), {"game": "x"}, follow=True)
    assert "Which game is over?" in text(response)
    response = client.post(url(drive, "dashboard_start"), {"start-seating": "sideways"})
    assert response.status_code == 422
    drive_start(drive=drive, actor=DESK)
    response = client.post(url(drive, "dashboard_start"), {"start-seating": "by-number"})
    assert response.status_code == 302
    assert "The night has already started." in text(client.get(url(drive)))
    play_game(drive, 1)
    client.post(url(drive, "dashboard_advance"), {"game": "1"})
    page = text(client.get(url(drive)))
    assert "This is the last game: when its results are in, close the night." in page
    assert 'data-testid="advance"' not in page
    response = client.post(url(drive, "dashboard_advance"), {"game": "2"}, follow=True)
    assert "Game 2 is the last of the night" in text(response)


def test_a_shuffled_start_records_its_seed() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=6)
    logged_in(ours.organizer).post(
        url(drive, "dashboard_start"),
        {"start-seating": "shuffle", "start-seed": "42", "start-absent": "seat"},
    )
    drive.refresh_from_db()
    assert (drive.first_seating, drive.seed, drive.current_game) == ("shuffle", 42, 1)


def test_late_arrivals_and_withdrawals_wait_for_the_next_game() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=6)
    drive_start(drive=drive, actor=DESK)
    couples_register(drive=drive, couples=[{"players": ["Late", "Comer"]}], actor=DESK)
    couple_update(couple=Couple.objects.get(number=2), actor=DESK, withdrawn=True)
    client = logged_in(ours.organizer)
    page = text(client.get(url(drive)))
    assert "Changes from game 2" in page
    assert re.search(r'data-testid="late-arrivals">.*7 \(Late &amp; Comer\)', page, re.S)
    assert re.search(r'data-testid="withdrawals">.*2 \(Ann 2 &amp; Joe 2\)', page, re.S)
    play_game(drive, 1)
    client.post(url(drive, "dashboard_advance"), {"game": "1"})
    page = text(client.get(url(drive)))
    assert "No late arrivals or withdrawals yet." in page


def test_a_scorer_sees_the_dashboard_but_may_not_start_publish_or_close() -> None:
    """Nor advance, on a drive whose settings keep the advance to organizers."""
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=4)
    scorer = logged_in(ours.scorer)
    page = text(scorer.get(url(drive)))
    assert 'data-testid="start"' not in page
    assert "An organizer starts the night." in page
    response = scorer.post(url(drive, "dashboard_start"), {"start-seating": "by-number"})
    assert response.status_code == 403
    assert "Only an organizer of St. Joseph" in text(response)

    drive_update(drive=drive, actor=DESK, scorers_may_advance=False)
    drive_start(drive=drive, actor=DESK)
    play_game(drive, 1)
    page = text(scorer.get(url(drive)))
    assert 'data-testid="advance"' not in page
    assert 'data-testid="close"' not in page
    assert 'data-testid="publish"' not in page
    assert 'data-testid="correct"' in page  # corrections are theirs too
    assert scorer.post(url(drive, "dashboard_advance"), {"game": "1"}).status_code == 403
    assert scorer.post(url(drive, "dashboard_publish"), {"published": "1"}).status_code == 403
    assert scorer.get(url(drive, "dashboard_close")).status_code == 403
    assert scorer.post(url(drive, "dashboard_close")).status_code == 403
    drive.refresh_from_db()
    assert (drive.current_game, drive.published, drive.state) == (1, False, "running")


def test_outsiders_get_a_404_and_anonymous_users_the_login_page() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    theirs = club_people("Legion Branch 12", "theirs")
    drive = a_drive(ours.club, couples=4)
    outsider = logged_in(theirs.organizer)
    for name in ("dashboard", "dashboard_close"):
        assert outsider.get(url(drive, name)).status_code == 404
        assert Client().get(url(drive, name))["Location"].startswith(reverse("login"))
    for name, data in (
        ("dashboard_start", {"start-seating": "by-number"}),
        ("dashboard_advance", {"game": "1"}),
        ("dashboard_resolve", {"fix-game": "1", "fix-table": "1", "fix-winner": "1"}),
        ("dashboard_holes", {"holes-1": "0"}),
        ("dashboard_publish", {"published": "1"}),
        ("dashboard_close", {}),
    ):
        assert outsider.post(url(drive, name), data).status_code == 404, name
        assert Client().post(url(drive, name), data).status_code == 302, name
    drive.refresh_from_db()
    assert (drive.state, drive.published) == ("setup", False)
    assert Client().get("/drives/no-such-drive/").status_code == 302
    assert outsider.get("/drives/no-such-drive/").status_code == 404


def test_actions_need_a_post() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=4)
    client = logged_in(ours.organizer)
    for name in ("dashboard_start", "dashboard_advance", "dashboard_resolve", "dashboard_publish"):
        assert client.get(url(drive, name)).status_code == 405, name


@pytest.mark.parametrize("size", [8, 80])
def test_the_dashboard_takes_a_fixed_number_of_queries(
    size: int, django_assert_num_queries: Callable[..., object]
) -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=size)
    drive_start(drive=drive, actor=DESK)
    play_game(drive, 1, skip=(1,))
    a_conflict(drive, 1, 2, 4)
    couples_register(drive=drive, couples=[{"players": ["Late", "Comer"]}], actor=DESK)
    client = logged_in(ours.organizer)
    client.get(url(drive))
    drive.refresh_from_db()
    # No punch card counted yet: the reconciliation reads nothing (and the tables waiting for
    # the desk, one statement).
    with django_assert_num_queries(13):
        response = client.get(url(drive))
    assert f"{size // 2 - 1} of {size // 2} tables reported" in text(response)
    # Once a card is counted, its three statements.
    holes_record(drive=drive, holes={3: 0}, actor=DESK)
    with django_assert_num_queries(16):
        response = client.get(url(drive))
    assert "1 counted" in text(response)


def test_a_scorer_starts_the_next_game_unless_the_settings_keep_it_to_organizers() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=4)
    assert drive.scorers_may_advance  # on by default
    drive_start(drive=drive, actor=DESK)
    play_game(drive, 1)
    scorer = logged_in(ours.scorer)
    assert 'data-testid="advance"' in text(scorer.get(url(drive)))
    assert scorer.post(url(drive, "dashboard_advance"), {"game": "1"}).status_code == 302
    drive.refresh_from_db()
    assert drive.current_game == 2
    entry = AuditEntry.objects.filter(drive=drive, action="game.advance").get()
    assert entry.user == ours.scorer

    drive_update(drive=drive, actor=DESK, scorers_may_advance=False)
    play_game(drive, 2)
    page = text(scorer.get(url(drive)))
    assert 'data-testid="advance"' not in page
    assert "An organizer starts the next game" in page
    assert scorer.post(url(drive, "dashboard_advance"), {"game": "2"}).status_code == 403
    drive.refresh_from_db()
    assert drive.current_game == 2


def test_the_export_link_downloads_a_file_named_after_the_drive() -> None:
    """The dashboard's "Export the night (JSON)" saves <slug>.json; it used to open as raw text
    in the browser."""
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=4)
    client = logged_in(ours.organizer)
    link = re.search(r'<a href="([^"]+)" data-testid="export"', text(client.get(url(drive))))
    assert link is not None
    response = client.get(link.group(1))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == f'attachment; filename="{drive.slug}.json"'
    assert response.json()["drive"]["slug"] == drive.slug
