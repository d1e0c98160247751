"""After the night closes, a punch card's code still opens the couple's own record of it:
place, games won and played, the prize, the punch card. Read only (a POST or a poll is told
the drive is closed) and with no polling."""

import re

import pytest
from django.test import Client

from drives.models import Couple
from drives.services import drive_close, drive_update
from scoring.prizes.services import prize_setup_update, prizes_open_ties
from tests.pages.live_helpers import DESK, advance, night, people, play, text
from tests.prizes.helpers import night as finished_night

pytestmark = pytest.mark.django_db
MONEY = {"prizes": [{"amount": "60.00"}, {"amount": "30.00"}, {"amount": "10.00"}]}


def record(html: str) -> dict[str, str]:
    return {
        name: re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", value)).strip()
        for name, value in re.findall(r'data-testid="record-(\w+)">(.*?)</dd>', html, re.S)
    }


def url(couple: Couple) -> str:
    return f"/c/{couple.token}/"


def test_the_winners_record_after_the_close() -> None:
    drive = finished_night([5, 4, 3, 1], prizes=MONEY)
    prizes_open_ties(drive=drive, actor=DESK)
    drive_close(drive=drive, actor=DESK)
    client = Client()
    first = client.get(url(drive.couples.get(number=1)))
    assert first.status_code == 200
    html = text(first)
    assert record(html) == {
        "place": "1",
        "wins": "5",
        "played": "5",
        "prize": "Place 1: 60.00 " + drive.currency,
    }
    assert "data-poll-url" not in html and "poll.js" not in html
    assert "<form" not in html
    assert len(re.findall(r'data-mark="[WS]"', html)) == 5  # won, or sat out credited
    last = record(text(client.get(url(drive.couples.get(number=4)))))
    assert last["place"] == "4" and last["wins"] == "1"
    assert last["prize"] == "Booby prize: —"


def test_a_couple_without_a_prize_and_the_results_link(client) -> None:
    drive = night(people().club, 6, games=2)
    prize_setup_update(drive=drive, actor=DESK, prize_places=1, booby=False)
    play(drive, 1)
    advance(drive, 1)
    play(drive, 2)  # 1 and 3 win both games, 6 none
    drive_close(drive=drive, actor=DESK)
    drive_update(drive=drive, actor=DESK, published=True)
    response = client.get(url(drive.couples.get(number=6)))
    assert response.status_code == 200
    html = text(response)
    assert record(html) == {"place": "3", "wins": "0", "played": "2", "prize": "none this time"}
    tied = record(text(client.get(url(drive.couples.get(number=3)))))
    assert tied["prize"] == "Place 1: tied: the desk settles it with you"
    assert f'href="/results/{drive.slug}/"' in html


def test_still_read_only_after_the_close(client) -> None:
    drive = night(people().club, 4, games=2)
    drive_close(drive=drive, actor=DESK)
    couple = drive.couples.get(number=1)
    for response in (
        client.post(url(couple), {"action": "confirm", "game": "1"}),
        client.get(url(couple) + "?partial=1"),  # an open page polling: it reloads
    ):
        assert response.status_code == 410
        assert "This drive is closed" in text(response)
    assert client.get("/c/not-a-token/").status_code == 404
