"""The couple page (the QR code of a punch card, no login): the couple's table and opponents
in the game in play, who deals, wins so far and the punch card; confirming or rejecting the
other couple's entry when the drive asks for it; the next table after the advance; a closed
drive (410); and a fixed number of queries."""

import re

import pytest
from django.test import Client

from drives.models import AuditEntry
from drives.services import Actor, drive_close
from scoring.models import Result, ResultVersion
from scoring.pages.selectors_live import couple_card
from scoring.selectors import couple_records
from scoring.services import result_record
from tests.pages.live_helpers import DESK, advance, night, people, play, queries, status_line, text

pytestmark = pytest.mark.django_db
TABLE = Actor(channel=AuditEntry.Channel.TABLE)


def page(drive, number: int) -> str:
    return f"/c/{drive.couples.get(number=number).token}/"


def as_couple(drive, number: int) -> Actor:
    return Actor(channel=AuditEntry.Channel.COUPLE, couple=drive.couples.get(number=number))


def next_table(html: str) -> str:
    match = re.search(r'data-testid="next-table"[^>]*>(.*?)</p>', html, re.S)
    assert match is not None
    return re.sub(r"<[^>]+>", "", match.group(1)).strip()


def holes(html: str) -> dict[int, str]:
    return {
        int(game): mark for game, mark in re.findall(r'data-game="(\d+)" data-mark="([^"]*)"', html)
    }


@pytest.fixture
def drive():
    return night(people().club, 5)  # tables 1 (1 v 2), 2 (3 v 4), 3 (5 sits out)


def test_the_page_shows_the_couple_and_its_table(client, drive) -> None:
    html = text(client.get(page(drive, 1)))
    assert "Couple <span>1</span>" in html and "Ann 1 & Joe 1" in html
    assert next_table(html) == "Table 1"
    assert "Against couple <strong>2</strong> (Ann 2 & Joe 2)" in html
    assert "Couple 2 deals first." in html
    assert "0 wins so far" in html
    assert "You deal first." in text(client.get(page(drive, 2)))
    card = holes(html)
    assert len(card) == 25 and card[1] == "?" and card[2] == ""


def test_a_sit_out(client, drive) -> None:
    html = text(client.get(page(drive, 5)))
    assert next_table(html) == "Sits out"  # no table number: a sit-out is no table
    assert "You sit out this game." in html and "It counts as a win." in html
    assert holes(html)[1] == "S" and "1 win so far" in html


def test_after_the_advance_the_next_table_and_the_punched_card(client, drive) -> None:
    play(drive, 1)
    before = text(client.get(page(drive, 1) + "?partial=1"))
    assert before.strip().startswith('<section id="couple-live"')
    assert holes(before)[1] == "W" and "1 win so far" in before
    advance(drive, 1)
    html = text(client.get(page(drive, 1) + "?partial=1"))
    # Game 2: table 2 has couple 4 staying and couple 1 arriving (and dealing).
    assert next_table(html) == "Table 2" and "Game <strong>2</strong>" in html
    assert "Against couple <strong>4</strong>" in html and "You deal first." in html
    loser = text(client.get(page(drive, 2)))
    assert holes(loser)[1] == "L" and "0 wins so far" in loser


def test_the_punch_card_agrees_with_the_standings(drive) -> None:
    play(drive, 1)
    advance(drive, 1)
    play(drive, 2, skip=(1,))
    for record in couple_records(drive):
        card = couple_card(record.couple)
        assert (card["marks"], card["wins"], card["played"]) == (
            record.grid,
            record.wins,
            record.played,
        )


def test_confirm_the_other_couples_entry(client) -> None:
    drive = night(people().club, 4, confirm_by_other_couple=True)
    result_record(drive=drive, game=1, table=1, winner=1, actor=as_couple(drive, 1))
    entered_by = text(client.get(page(drive, 1)))
    assert 'data-testid="confirm"' not in entered_by
    assert "Waiting for the other couple to confirm it." in entered_by
    other = text(client.get(page(drive, 2)))
    assert 'data-testid="confirm"' in other and 'data-testid="reject"' in other
    assert "Couple 1 won" in other

    refused = client.post(page(drive, 1), {"action": "confirm", "game": "1"})
    assert refused.status_code == 422
    assert "other couple" in status_line(refused, "couple-status")
    response = client.post(page(drive, 2), {"action": "confirm", "game": "1"})
    assert response.status_code == 200
    assert "confirmed" in status_line(response, "couple-status")
    assert Result.objects.get().state == "accepted"
    version = ResultVersion.objects.get(kind="confirmed")
    assert version.channel == "couple" and version.couple.number == 2
    assert 'data-testid="confirm"' not in text(response)


def test_reject_an_entry_from_the_table(client) -> None:
    drive = night(people().club, 4, confirm_by_other_couple=True)
    # Entered with the table's token: the couple named as loser confirms or rejects.
    result_record(drive=drive, game=1, table=2, winner=3, actor=TABLE)
    assert 'data-testid="reject"' not in text(client.get(page(drive, 3)))
    assert 'data-testid="reject"' in text(client.get(page(drive, 4)))
    response = client.post(page(drive, 4), {"action": "reject", "game": "1"})
    assert response.status_code == 200
    assert "Rejected" in status_line(response, "couple-status")
    assert Result.objects.get().state == "conflict"
    assert "The desk is checking" in text(response)


def test_bad_posts_are_named(client, drive) -> None:
    response = client.post(page(drive, 1), {"action": "dance", "game": "1"})
    assert response.status_code == 422
    assert "Tap Confirm or Reject." in status_line(response, "couple-status")
    nothing = client.post(page(drive, 1), {"action": "confirm", "game": "1"})
    assert nothing.status_code == 404
    assert "no result to confirm" in status_line(nothing, "couple-status")


def test_unknown_token_is_404_and_a_closed_drive_410(client, drive) -> None:
    assert client.get("/c/not-a-token/").status_code == 404
    url = page(drive, 1)
    drive_close(drive=drive, actor=DESK)
    for response in (client.get(url + "?partial=1"), client.post(url, {})):
        assert response.status_code == 410
        assert "This drive is closed" in text(response)
    # The page itself keeps the couple's own record (tests/pages/test_couple_record.py).
    assert client.get(url).status_code == 200


def test_before_the_start(client) -> None:
    drive = night(people().club, 4, start=False)
    html = text(client.get(page(drive, 1)))
    assert "has not started yet" in html and 'data-testid="next-table"' not in html


def test_the_page_takes_the_same_queries_for_4_and_40_tables() -> None:
    counts = []
    for couples in (8, 80):
        drive = night(people().club, couples, confirm_by_other_couple=True)
        play(drive, 1)
        advance(drive, 1)
        result_record(drive=drive, game=2, table=1, winner=_stays(drive, 1), actor=TABLE)
        client = Client()
        seated = drive.tables.get(number=1).seats.get(game__number=2)
        counts.append(
            (
                queries(client, page(drive, seated.stays.number)),  # pending, entered by table
                queries(client, page(drive, seated.arrives.number)),  # asked to confirm
                queries(client, page(drive, 8) + "?partial=1"),
            )
        )
    assert counts[0] == counts[1], counts


def _stays(drive, table: int) -> int:
    return drive.tables.get(number=table).seats.get(game__number=drive.current_game).stays.number
