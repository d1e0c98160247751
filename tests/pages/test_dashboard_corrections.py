"""The dashboard's corrections: conflicts shown with both versions and settled with a reason,
any table of any game corrected (with the audit's note for a game already over), and the
punch-card reconciliation."""

import re

import pytest
from django.urls import reverse

from drives.models import AuditEntry, Couple, Drive
from drives.services import drive_start
from scoring.models import Result, ResultVersion
from scoring.services import game_advance, result_record
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


def fix(game: int, table: int, winner: int, reason: str = "asked both couples") -> dict[str, str]:
    return {
        "fix-game": str(game),
        "fix-table": str(table),
        "fix-winner": str(winner),
        "fix-reason": reason,
    }


@pytest.fixture
def night(db: None) -> tuple[object, Drive]:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=8)
    drive_start(drive=drive, actor=DESK)
    return ours, drive


def test_a_conflict_shows_both_versions_and_is_settled_with_a_reason(night) -> None:
    ours, drive = night
    result_record(drive=drive, game=1, table=2, winner=3, actor=DESK)
    a_conflict(drive, 1, 2, 4)
    client = logged_in(ours.organizer)
    page = text(client.get(url(drive)))
    block = re.search(r'<article class="conflict" id="conflict-1-2">(.*?)</article>', page, re.S)
    assert block is not None
    article = block.group(1)
    assert "Game 1, table 2" in article
    assert "in conflict" in article
    assert "entered" in article and "a different winner entered" in article
    assert "couple 3" in article and "couple 4" in article
    assert article.count("desk") >= 2
    assert 'data-testid="settle-1-2-3"' in article and 'data-testid="settle-1-2-4"' in article

    response = client.post(url(drive, "dashboard_resolve"), fix(1, 2, 4, reason="  "))
    assert response.status_code == 422
    assert "Say why: a correction needs a reason." in text(response)
    assert Result.objects.get(seat__table__number=2).state == "conflict"

    response = client.post(url(drive, "dashboard_resolve"), fix(1, 2, 4))
    assert response.status_code == 302
    assert response["Location"] == f"{url(drive)}#correct"
    result = Result.objects.get(seat__table__number=2)
    assert (result.state, result.winner.number) == ("accepted", 4)
    version = result.versions.get(kind=ResultVersion.Kind.RESOLVED)
    assert (version.reason, version.user, version.channel) == (
        "asked both couples",
        ours.organizer,
        "desk",
    )
    page = text(client.get(url(drive)))
    assert "Game 1, table 2: couple 4 won" in page
    assert 'id="conflict-1-2"' not in page


def test_a_scorer_settles_and_corrects_too(night) -> None:
    ours, drive = night
    client = logged_in(ours.scorer)
    response = client.post(url(drive, "dashboard_resolve"), fix(1, 1, 2, "entered late"))
    assert response.status_code == 302
    assert Result.objects.get(seat__table__number=1).winner.number == 2


def test_a_correction_the_night_refuses_is_named(night) -> None:
    ours, drive = night
    client = logged_in(ours.organizer)
    response = client.post(url(drive, "dashboard_resolve"), fix(1, 1, 7))
    assert response.status_code == 422
    page = text(response)
    assert "Couple 7 is not at table 1 in this game (it seats 1 and 2)." in page
    assert 'data-testid="correction-error"' in page
    response = client.post(url(drive, "dashboard_resolve"), fix(3, 1, 1))
    assert response.status_code == 422
    assert "Game 3 has not started." in text(response)
    response = client.post(url(drive, "dashboard_resolve"), fix(1, 9, 1))
    assert "Nobody plays at table 9 in game 1." in text(response)
    response = client.post(url(drive, "dashboard_resolve"), {"fix-game": "one"})
    assert response.status_code == 422
    assert set(response.context["correction_form"].errors) == {"game", "table", "winner", "reason"}
    assert not Result.objects.exists()


def test_correcting_a_past_game_says_what_it_changes_and_the_audit_notes_it(night) -> None:
    ours, drive = night
    play_game(drive, 1)
    game_advance(drive=drive, game=1, actor=DESK)
    client = logged_in(ours.organizer)
    page = text(client.get(f"{url(drive)}?game=1&table=1"))
    assert 'data-testid="past-game-note"' in page
    assert "not the seating already played" in page
    assert 'name="fix-table" value="1"' in page

    response = client.post(url(drive, "dashboard_resolve"), fix(1, 1, 2, "card was misread"))
    page = text(client.get(response["Location"]))
    assert "Game 1 was already over: wins and standings change" in page
    entry = AuditEntry.objects.filter(drive=drive, action="result.resolve").get()
    assert entry.note.startswith("card was misread (after game 2 started")
    assert "card was misread (after game 2 started" in page  # in the recent changes
    assert Result.objects.get(game__number=1, seat__table__number=1).winner.number == 2


def test_reconciliation_lists_the_cards_that_do_not_match(night) -> None:
    ours, drive = night
    play_game(drive, 1)  # 1, 3, 5, 7 win game 1
    game_advance(drive=drive, game=1, actor=DESK)
    play_game(drive, 2)
    client = logged_in(ours.organizer)
    page = text(client.get(url(drive)))
    assert 'name="holes-1"' in page and 'name="holes-8"' in page
    assert 'data-testid="holes"' in page
    assert 'data-testid="mismatches"' not in page

    wins = {r["number"]: r["wins"] for r in _standings(drive)}
    counted = {f"holes-{n}": str(w) for n, w in wins.items()}
    counted["holes-1"] = str(wins[1] + 1)
    counted["holes-8"] = ""  # not counted yet
    response = client.post(url(drive, "dashboard_holes"), counted)
    assert response.status_code == 302
    assert response["Location"] == f"{url(drive)}#reconciliation"
    assert Couple.objects.get(number=1).holes == wins[1] + 1
    assert Couple.objects.get(number=8).holes is None
    page = text(client.get(response["Location"]))
    assert "Holes recorded for 7 couples. 1 cards do not match the results" in page
    table = re.search(r'data-testid="mismatches">(.*?)</table>', page, re.S)
    assert table is not None
    row = re.search(r'<th scope="row" class="num">1</th>(.*?)</tr>', table.group(1), re.S)
    assert row is not None
    assert "1 hole too many" in row.group(1)
    assert "1, 2" in row.group(1)  # the games won: the holes to look for
    assert '<th scope="row" class="num">3</th>' not in table.group(1)


def test_holes_out_of_range_are_named(night) -> None:
    ours, drive = night
    client = logged_in(ours.organizer)
    response = client.post(url(drive, "dashboard_holes"), {"holes-1": "40", "holes-2": "x"})
    assert response.status_code == 422
    page = text(response)
    assert "Couple 1: Ensure this value is less than or equal to 25." in page
    assert "Couple 2: The holes are a whole number from 0." in page
    assert not Couple.objects.filter(holes__isnull=False).exists()
    response = client.post(url(drive, "dashboard_holes"), {}, follow=True)
    assert "No holes were entered." in text(response)


def _standings(drive: Drive) -> list[dict[str, object]]:
    from scoring.selectors import standings_for_drive

    return standings_for_drive(drive)
