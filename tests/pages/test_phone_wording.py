"""What the phone pages and the couples' list say where the night is not the usual one: a
late couple's games before it arrived, the last game at a table, a couple withdrawn before
the start."""

import re

import pytest
from django.urls import reverse

from drives.models import Couple
from drives.services import couple_update, couples_register, drive_start
from tests.pages.live_helpers import DESK, advance, logged_in, night, people, play, text

pytestmark = pytest.mark.django_db


def spoken_holes(html: str) -> dict[int, str]:
    """Game → what a screen reader says of its hole on the punch card."""
    return {
        int(game): said.strip()
        for game, said in re.findall(
            r'data-game="(\d+)" data-mark="[^"]*">.*?<span class="visually-hidden">'
            r"Game \d+: (.*?)</span>",
            html,
            re.S,
        )
    }


def test_a_late_couples_card_says_the_games_before_it_arrived_were_not_played(client) -> None:
    drive = night(people().club, 4, games=5)
    (late,) = couples_register(drive=drive, couples=[{"players": ["Late", "Comer"]}], actor=DESK)
    assert late.joined_game == 2
    play(drive, 1)
    advance(drive, 1)
    said = spoken_holes(text(client.get(f"/c/{late.token}/")))
    assert said[1] == "not played: arrived at game 2"
    assert said[3] == "to play"
    on_time = spoken_holes(text(client.get(f"/c/{drive.couples.get(number=1).token}/")))
    assert on_time[1] == "won" and on_time[3] == "to play"


def test_a_withdrawn_couples_card_says_the_games_after_it_left_were_not_played(client) -> None:
    drive = night(people().club, 5, games=5)
    couple = drive.couples.get(number=5)
    couple_update(couple=couple, actor=DESK, withdrawn=True)
    play(drive, 1)
    advance(drive, 1)
    said = spoken_holes(text(client.get(f"/c/{couple.token}/")))
    assert said[1] == "sit-out, counts as a win"
    assert said[2] == "not played: withdrawn" and said[5] == "not played: withdrawn"


def test_the_table_page_says_the_night_ends_after_the_last_game(client) -> None:
    drive = night(people().club, 4, games=2)
    url = f"/t/{drive.tables.get(number=1).token}/"
    play(drive, 1)
    assert "Wait here for the next game" in text(client.get(url))
    advance(drive, 1)
    play(drive, 2)
    html = text(client.get(url))
    assert "Wait here for the next game" not in html
    assert "This is the last game: the night ends after it." in html


def test_the_couples_list_says_withdrawn_before_the_start() -> None:
    group = people()
    drive = night(group.club, 6, start=False, games=5)
    couple_update(couple=drive.couples.get(number=6), actor=DESK, withdrawn=True)
    drive_start(drive=drive, actor=DESK)
    drive.refresh_from_db()
    play(drive, 1)
    advance(drive, 1)
    couple_update(couple=drive.couples.get(number=5), actor=DESK, withdrawn=True)  # from game 3
    play(drive, 2)
    advance(drive, 2)
    couple_update(couple=drive.couples.get(number=4), actor=DESK, withdrawn=True)  # from game 4
    play(drive, 3)
    advance(drive, 3)
    client = logged_in(group.organizer)
    html = text(client.get(reverse("drives:couples", kwargs={"slug": drive.slug})))

    def played(number: int) -> str:
        row = re.search(rf'<tr id="couple-{number}".*?</tr>', html, re.S)
        assert row is not None
        cells = re.findall(r'<td class="plays">(.*?)</td>', row.group(0), re.S)
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", cells[0])).strip()

    assert Couple.objects.get(drive=drive, number=6).withdrawn_game == 1
    assert played(6) == "withdrawn before the start"
    assert played(5) == "games 1 to 2"
    assert played(4) == "games 1 to 3"
    assert played(1) == "from game 1"
    # The couple's own page says the same.
    page = text(client.get(f"/c/{drive.couples.get(number=6).token}/"))
    assert "You were withdrawn before the start" in page and "your wins so far" not in page
    assert "your wins so far stay on your record" in text(
        client.get(f"/c/{drive.couples.get(number=5).token}/")
    )
