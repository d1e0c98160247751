"""The table page (the QR code of a table card, no login): the game in play at this table
only, its couples and who deals, the win buttons and the score picker, a submission with a key
stored once, what the page's script sends (the API with the table's token), sit-outs, the next
game after the advance, a closed drive (410), and a fixed number of queries."""

import re

import pytest
from django.test import Client

from drives.models import AuditEntry
from drives.services import Actor, drive_close
from engine.rules import get_ruleset
from engine.scores import legal_final_scores
from scoring.models import Result, ResultVersion
from scoring.pages.phone import score_choices
from scoring.services import result_record
from tests.pages.live_helpers import DESK, advance, night, people, play, queries, status_line, text

pytestmark = pytest.mark.django_db


def page(drive, table: int) -> str:
    return f"/t/{drive.tables.get(number=table).token}/"


def unusual() -> tuple[int, int]:
    rules = get_ruleset("cape-breton-45")
    ok = set(legal_final_scores(rules))
    return next(s for s in legal_final_scores(rules, include_unusual=True) if s not in ok)


@pytest.fixture
def drive():
    return night(people().club, 5)  # tables 1 (1 v 2), 2 (3 v 4), 3 (5 sits out)


def test_the_page_shows_this_tables_game(client, drive) -> None:
    response = client.get(page(drive, 1))
    html = text(response)
    assert response.status_code == 200
    assert "Friday 45s" in html and "Game <strong>1</strong> of 25" in html
    assert 'data-testid="win-1"' in html and 'data-testid="win-2"' in html
    assert "Couple 1 won" in html and "Ann 2 & Joe 2" in html
    # Couple 2 arrives and deals first.
    assert re.search(r"Couple <strong>2</strong>.*?deals first", html, re.S)
    assert f'data-api-url="/api/v1/drives/{drive.slug}/games/1/tables/1/result"' in html
    for score in score_choices(drive):
        assert f'<option value="{score}">' in html
    assert '<option value="other">' in html and 'name="confirm_unusual"' in html


def test_a_table_token_shows_only_its_own_table(client, drive) -> None:
    html = text(client.get(page(drive, 2)))
    assert 'data-testid="win-3"' in html and 'data-testid="win-4"' in html
    assert 'data-testid="win-1"' not in html and 'data-testid="win-2"' not in html
    assert "/tables/2/result" in html and "/tables/1/result" not in html


def test_a_table_token_writes_only_its_own_table(client, drive) -> None:
    # Couple 1 plays at table 1: table 2's token cannot name it the winner of anything.
    response = client.post(page(drive, 2), {"game": "1", "winner": "1"})
    assert response.status_code == 422
    assert "Couple 1 is not at table 2" in status_line(response, "table-status")
    assert not Result.objects.exists()
    # Even a table number in the form changes nothing: the token decides the table.
    response = client.post(page(drive, 2), {"game": "1", "winner": "3", "table": "1"})
    assert response.status_code == 201
    assert Result.objects.get().seat.table.number == 2


def test_unknown_tokens_are_404(client, drive) -> None:
    assert client.get("/t/not-a-token/").status_code == 404
    assert client.get("/t/" + "x" * 300 + "/").status_code == 404
    assert client.post("/t/not-a-token/", {"game": "1", "winner": "1"}).status_code == 404


def test_a_submission_with_a_key_twice_is_stored_once(client, drive) -> None:
    post = {"game": "1", "winner": "2", "points": "70-20", "key": "phone-1"}
    first = client.post(page(drive, 1), post)
    assert first.status_code == 201
    assert status_line(first, "table-status") == "Saved ✓ Couple 2 won."
    again = client.post(page(drive, 1), post)
    assert again.status_code == 200
    assert status_line(again, "table-status") == "Saved ✓ Couple 2 won."
    result = Result.objects.get()
    assert (result.winner.number, result.points) == (2, [70, 20])
    version = ResultVersion.objects.get()
    assert version.key == "phone-1" and version.channel == "table"
    # Now the page shows the result instead of the buttons.
    assert 'data-testid="table-result"' in text(again) and 'data-testid="win-1"' not in text(again)


def test_what_the_script_sends_is_stored_once(drive) -> None:
    """The page's script retries PUT …/result with the table's token and the same key."""
    html = text(Client().get(page(drive, 1)))
    url = re.search(r'data-api-url="([^"]+)"', html).group(1)
    token = drive.tables.get(number=1).token
    body = '{"winner": 1, "points": [65, 25], "key": "f3c1", "confirm_unusual": false}'
    statuses = [
        Client()
        .put(url, body, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}")
        .status_code
        for _ in range(3)
    ]
    assert statuses == [201, 200, 200]
    assert Result.objects.count() == 1 and ResultVersion.objects.count() == 1


def test_another_winner_is_a_conflict_for_the_desk(client, drive) -> None:
    result_record(drive=drive, game=1, table=1, winner=1, actor=DESK)
    response = client.post(page(drive, 1), {"game": "1", "winner": "2", "key": "other"})
    assert response.status_code == 409
    assert "the desk will sort it out" in status_line(response, "table-status")
    assert Result.objects.get().state == "conflict"
    assert "Two different results" in text(response)


def test_the_same_key_with_another_score_is_not_saved(client, drive) -> None:
    post = {"game": "1", "winner": "2", "points": "70-20", "key": "phone-1"}
    assert client.post(page(drive, 1), post).status_code == 201
    refused = client.post(page(drive, 1), post | {"points": "65-25"})
    assert refused.status_code == 409
    assert "was not saved" in status_line(refused, "table-status")
    result = Result.objects.get()
    assert (result.points, result.state) == ([70, 20], "accepted")
    assert ResultVersion.objects.count() == 1


def test_another_score_for_the_same_winner_is_a_conflict_for_the_desk(client, drive) -> None:
    result_record(drive=drive, game=1, table=1, winner=2, points=[70, 20], actor=DESK)
    post = {"game": "1", "winner": "2", "points": "65-25", "key": "other"}
    response = client.post(page(drive, 1), post)
    assert response.status_code == 409
    line = status_line(response, "table-status")
    assert "with another score" in line and "the desk will sort it out" in line
    result = Result.objects.get()
    assert (result.points, result.state) == ([70, 20], "conflict")
    assert ResultVersion.objects.get(kind="conflicting").winner_points == 65


def test_other_scores_and_the_unusual_tick(client, drive) -> None:
    winner, loser = unusual()
    post = {"game": "1", "winner": "1", "points": "other"}
    post |= {"points_winner": str(winner), "points_loser": str(loser)}
    refused = client.post(page(drive, 1), post)
    assert refused.status_code == 422
    assert "tick the box" in status_line(refused, "table-status")
    missing = client.post(page(drive, 1), post | {"points_loser": ""})
    assert missing.status_code == 422
    assert "Type both scores" in status_line(missing, "table-status")
    stored = client.post(page(drive, 1), post | {"confirm_unusual": "on"})
    assert stored.status_code == 201
    result = Result.objects.get()
    assert result.points == [winner, loser] and result.verdict == "trumpless_hands"


def test_a_sit_out_table(client, drive) -> None:
    html = text(client.get(page(drive, 3)))
    assert "No game at this table: a sit-out" in html  # the couple sits out, at no table
    assert "Couple 5 (Ann 5 & Joe 5) sits out this game." in html
    assert "win-5" not in html
    refused = client.post(page(drive, 3), {"game": "1", "winner": "5"})
    assert refused.status_code == 422 and not Result.objects.exists()


def test_after_the_advance_the_page_shows_the_next_game(client, drive) -> None:
    play(drive, 1)
    first = text(client.get(page(drive, 1) + "?partial=1"))
    assert first.strip().startswith('<section id="table-live"') and 'data-game="1"' in first
    advance(drive, 1)
    html = text(client.get(page(drive, 1) + "?partial=1"))
    assert 'data-game="2"' in html and "Game <strong>2</strong>" in html
    assert 'data-testid="win-2"' in html and 'data-testid="win-5"' in html  # 2 stays, 5 arrives
    # A late tap for game 1 is not entered into game 2.
    late = client.post(page(drive, 1), {"game": "1", "winner": "1"})
    assert late.status_code == 200  # the same winner as recorded: a replay
    late = client.post(page(drive, 1), {"game": "1", "winner": "2"})
    assert late.status_code == 422
    assert "Game 1 is over" in status_line(late, "table-status")


def test_the_fragment_changes_only_when_the_table_does(client, drive) -> None:
    def version() -> str:
        html = text(client.get(page(drive, 1) + "?partial=1"))
        return re.search(r'data-version="([^"]*)"', html).group(1)

    before = version()
    assert version() == before
    result_record(drive=drive, game=1, table=2, winner=3, actor=DESK)
    assert version() == before  # another table's result
    result_record(drive=drive, game=1, table=1, winner=1, actor=DESK)
    assert version() != before


def test_confirm_by_other_couple_leaves_it_pending(client) -> None:
    drive = night(people().club, 4, confirm_by_other_couple=True)
    response = client.post(page(drive, 1), {"game": "1", "winner": "1"})
    assert response.status_code == 201
    assert "The other couple confirms it" in status_line(response, "table-status")
    assert Result.objects.get().state == "pending"
    assert "Waiting for the other couple" in text(response)


def test_a_closed_drive_says_so_with_410(client, drive) -> None:
    url = page(drive, 1)
    drive_close(drive=drive, actor=DESK)
    for response in (client.get(url), client.get(url + "?partial=1"), client.post(url, {})):
        assert response.status_code == 410
        assert "This drive is closed" in text(response)
    assert not Result.objects.exists()


def test_the_page_takes_the_same_queries_for_4_and_40_tables() -> None:
    counts = []
    for couples in (8, 80):
        drive = night(people().club, couples)
        play(drive, 1)
        advance(drive, 1)
        result_record(
            drive=drive,
            game=2,
            table=2,
            winner=_winner(drive, 2),
            actor=Actor(channel=AuditEntry.Channel.TABLE),
        )
        client = Client()
        counts.append(
            (
                queries(client, page(drive, 1)),  # no result yet
                queries(client, page(drive, 2)),  # a result
                queries(client, page(drive, 2) + "?partial=1"),
            )
        )
    assert counts[0] == counts[1], counts


def _winner(drive, table: int) -> int:
    return drive.tables.get(number=table).seats.get(game__number=drive.current_game).stays.number
