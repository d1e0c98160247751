"""The projector: for the club's organizers and scorers; the game in play, how many tables
have reported, every couple's table (rows data-couple / data-table), the new tables after the
advance, the standings mode, the fragment it polls, and a fixed number of queries."""

import re

import pytest

from drives.services import drive_close, drive_update
from scoring.selectors import current_tables
from tests.pages.live_helpers import DESK, advance, logged_in, night, people, play, queries, text

pytestmark = pytest.mark.django_db


def url(drive, extra: str = "") -> str:
    return f"/drives/{drive.slug}/projector/{extra}"


def listed(html: str) -> dict[int, int]:
    """couple → table as the projector lists it."""
    block = re.search(r'data-testid="projector-list">(.*?)</ol>', html, re.S)
    assert block is not None, "no projector list"
    rows = re.findall(r'data-couple="(\d+)" data-table="(\d+)"', block.group(1))
    return {int(c): int(t) for c, t in rows}


@pytest.fixture
def ours():
    return people()


@pytest.fixture
def drive(ours):
    return night(ours.club, 5)


def test_who_may_open_it(client, ours, drive) -> None:
    response = client.get(url(drive))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert logged_in(people().organizer).get(url(drive)).status_code == 404
    assert logged_in(ours.scorer).get(url(drive)).status_code == 200
    assert logged_in(ours.organizer).get(url(drive)).status_code == 200


def test_the_game_the_count_and_every_couples_table(ours, drive) -> None:
    client = logged_in(ours.scorer)
    html = text(client.get(url(drive)))
    assert "Friday 45s" in html and "Game <strong>1</strong> of 25" in html
    assert "<strong>0</strong> of 2 tables reported" in html
    assert listed(html) == {1: 1, 2: 1, 3: 2, 4: 2, 5: 3}
    assert "sit-out" in html
    play(drive, 1, skip=(2,))
    assert "<strong>1</strong> of 2 tables reported" in text(client.get(url(drive)))


def test_after_the_advance_the_new_tables(ours, drive) -> None:
    client = logged_in(ours.scorer)
    before = text(client.get(url(drive, "?partial=1")))
    assert before.strip().startswith('<section id="projector-live"')
    assert 'data-game="1"' in before
    play(drive, 1)
    advance(drive, 1)
    after = text(client.get(url(drive, "?partial=1")))
    assert 'data-game="2"' in after
    assert listed(after) == {r["number"]: r["table"] for r in current_tables(drive)}
    assert listed(after) == {1: 2, 2: 1, 3: 3, 4: 2, 5: 1}


def test_the_kept_list_is_the_seatings_in_the_language_shown(ours, drive) -> None:
    client = logged_in(ours.scorer)
    english = text(client.get(url(drive, "?partial=1")))
    assert '<span class="t sits-out">sits out</span>' in english
    assert '<span class="visually-hidden">at table</span>' in english
    drive_update(drive=drive, actor=DESK, language="fr")
    french = text(client.get(url(drive, "?partial=1")))
    assert '<span class="t sits-out">au repos</span>' in french
    assert '<span class="visually-hidden">à la table</span>' in french
    assert listed(french) == listed(english) == {1: 1, 2: 1, 3: 2, 4: 2, 5: 3}
    drive_update(drive=drive, actor=DESK, language="en")
    assert text(client.get(url(drive, "?partial=1"))) == english  # from the cache, as it was


def test_the_fragment_changes_only_with_the_night(ours, drive) -> None:
    client = logged_in(ours.scorer)

    def version() -> str:
        return re.search(
            r'data-version="([^"]+)"', text(client.get(url(drive, "?partial=1")))
        ).group(1)

    first = version()
    assert version() == first
    play(drive, 1, skip=(2,))
    assert version() != first


def test_standings_mode(ours, drive) -> None:
    play(drive, 1)
    client = logged_in(ours.scorer)
    html = text(client.get(url(drive, "?show=standings")))
    assert 'data-testid="projector-standings"' in html
    places = re.findall(r'data-couple="(\d+)" data-place="(\d+)"', html)
    assert places[:3] == [("1", "1"), ("3", "1"), ("5", "1")]
    fragment = text(client.get(url(drive, "?show=standings&partial=1")))
    assert "show=standings" in re.search(r'data-poll-url="([^"]+)"', fragment).group(1)


def test_before_the_start_and_after_the_close(ours) -> None:
    client = logged_in(ours.scorer)
    waiting = night(ours.club, 4, start=False)
    assert "has not started yet" in text(client.get(url(waiting)))
    done = night(ours.club, 4)
    drive_close(drive=done, actor=DESK)
    assert "The night is over" in text(client.get(url(done)))
    assert "Final standings" in text(client.get(url(done, "?show=standings")))


def test_the_same_queries_for_4_and_40_tables(ours) -> None:
    counts = []
    for couples in (8, 80):
        drive = night(ours.club, couples)
        play(drive, 1)
        advance(drive, 1)
        play(drive, 2, skip=(1,))
        client = logged_in(ours.scorer)
        counts.append(
            (
                queries(client, url(drive)),
                queries(client, url(drive, "?partial=1")),
                queries(client, url(drive, "?show=standings&partial=1")),
            )
        )
    assert counts[0] == counts[1], counts
