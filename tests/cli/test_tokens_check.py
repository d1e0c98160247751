"""``manage.py drive tokens`` (the links to send to the tables and couples) and ``drive check``
(the stored night against docs/rules.md §7, e.g. after a crash or a restore)."""

import json
import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from drives.models import AuditEntry, Drive, Game, Seat
from drives.services import Actor
from scoring.models import Result
from scoring.services import result_resolve
from tests.api.helpers import Api
from tests.cli.helpers import run
from tests.scoring.nights import (
    advance,
    lower_number,
    play_and_check,
    play_game,
    register,
    seeded,
    start,
    stored_tables,
    withdraw,
)

pytestmark = pytest.mark.django_db

DESK = Actor(channel=AuditEntry.Channel.DESK)


# --- drive tokens ------------------------------------------------------------------------------


def test_tokens_as_json_give_a_working_link_for_every_table_and_couple(new_drive) -> None:
    slug = new_drive(7)
    run("drive", "simulate", slug, "--seed", "1", "--until-game", "1")
    data = json.loads(run("drive", "tokens", slug, "--json", "--base-url", "https://45s.ca/"))
    assert data["drive"] == slug
    assert [t["number"] for t in data["tables"]] == [1, 2, 3, 4]
    assert [c["number"] for c in data["couples"]] == list(range(1, 8))
    assert data["couples"][0]["players"] == ["Anne 1", "Joe 1"]
    table = data["tables"][2]
    assert table["url"] == f"https://45s.ca/t/{table['token']}/"
    assert data["couples"][4]["url"] == f"https://45s.ca/c/{data['couples'][4]['token']}/"
    api = Api(Client())
    assert api.get("me", token=table["token"]).json()["table"] == 3
    assert api.get("me", token=data["couples"][4]["token"]).json()["couple"]["number"] == 5
    # The table's page answers at its link.
    assert Client().get(f"/t/{table['token']}/").status_code == 200


def test_tokens_as_text_list_the_links_with_the_players(new_drive) -> None:
    slug = new_drive(3)
    before = run("drive", "tokens", slug)
    assert "tables: none yet (the tables are set when the night starts)" in before
    drive = Drive.objects.get(slug=slug)
    start(drive)
    withdraw(drive, 2)
    out = run("drive", "tokens", slug).splitlines()
    token = drive.tables.get(number=2).token
    assert out[0] == "Friday 45s (2026-11-20): pages for phones"
    assert f"     2  http://127.0.0.1:8000/t/{token}/" in out
    couple = drive.couples.get(number=2)
    assert f"     2  http://127.0.0.1:8000/c/{couple.token}/  Anne 2 & Joe 2  (withdrawn)" in out


def test_tokens_of_a_closed_drive_are_refused(new_drive) -> None:
    slug = new_drive(4)
    run("drive", "close", slug)
    with pytest.raises(CommandError, match="closed: its table and couple tokens no longer work"):
        run("drive", "tokens", slug)
    with pytest.raises(CommandError, match="No drive with the slug"):
        run("drive", "tokens", "nope")


# --- drive check -------------------------------------------------------------------------------


def test_check_passes_a_simulated_night_and_one_not_started(new_drive) -> None:
    slug = new_drive(9, "--games", "6")
    assert run("drive", "check", slug) == (
        f"{slug}: the night holds together (0 games, 0 seats, 0 results checked).\n"
    )
    run("drive", "simulate", slug, "--seed", "4")
    assert run("drive", "check", slug) == (
        f"{slug}: the night holds together (6 games, 30 seats, 24 results checked).\n"
    )


def test_check_passes_late_arrivals_withdrawals_and_corrections_after_the_advance(
    new_drive,
) -> None:
    drive = Drive.objects.get(slug=new_drive(11, "--games", "8"))
    start(drive)

    def between(game: int) -> None:
        if game == 2:
            register(drive, 2)
        if game == 4:
            withdraw(drive, 3, 8)

    play_and_check(drive, 6, seeded(random.Random(5)), between=between)
    # A correction of game 1 after game 6 started: wins change, the seating played does not.
    seat = Seat.objects.get(game__drive=drive, game__number=1, table__number=2)
    loser = seat.arrives if seat.result.winner == seat.stays else seat.stays
    result_resolve(
        drive=drive, game=1, table=2, winner=loser.number, reason="sheet misread", actor=DESK
    )
    assert "the night holds together" in run("drive", "check", drive.slug)


def test_check_passes_the_demo_night_and_a_restored_export(tmp_path) -> None:
    call_command("demo", stdout=StringIO())
    slug = Drive.objects.get().slug
    assert "the night holds together (7 games" in run("drive", "check", slug)
    path = str(tmp_path / "demo.json")
    run("drive", "export", slug, "--output", path)
    run("drive", "restore", path, "--replace")
    assert "the night holds together (7 games" in run("drive", "check", slug)


@pytest.fixture
def played(new_drive) -> Drive:
    """A night of 8 couples (4 tables), games 1 and 2 played, game 3 in play."""
    drive = Drive.objects.get(slug=new_drive(8, "--games", "5"))
    start(drive)
    play_and_check(drive, 2, lower_number)
    advance(drive, 2)
    return drive


def check_problems(drive: Drive) -> list[str]:
    """The problems ``drive check`` lists on stdout; it must refuse the night (exit 1)."""
    out = StringIO()
    with pytest.raises(CommandError, match="problem\\(s\\) with the stored night"):
        call_command("drive", "check", drive.slug, stdout=out)
    return out.getvalue().splitlines()


def test_check_names_a_half_written_next_game(played: Drive) -> None:
    tables = stored_tables(played, 3)
    unseated = sorted([*tables[3], *tables[4]])
    Seat.objects.filter(game__drive=played, game__number=3, table__number__in=[3, 4]).delete()
    problems = check_problems(played)
    assert f"game 3: active couples without a table: {unseated}" in problems
    assert any(p.startswith("game 3 table 3: seats nobody (no such table)") for p in problems)


def test_check_names_a_game_advanced_with_a_result_missing(played: Drive) -> None:
    Result.objects.filter(game__drive=played, game__number=2, seat__table__number=4).delete()
    problems = check_problems(played)
    assert "game 2: game 3 started without an accepted result at table(s) 4" in problems
    # The seating of game 3 cannot be checked without the winner of table 4.
    assert any("game 3: cannot be seated from game 2" in p for p in problems)


def test_check_names_a_game_started_twice_and_a_game_missing(played: Drive) -> None:
    AuditEntry.objects.create(
        club=played.club, drive=played, channel="api", action="game.advance", subject="game 3"
    )
    assert check_problems(played) == ["game 3: started 2 times according to the audit"]
    Game.objects.filter(drive=played, number=3).delete()
    problems = check_problems(played)
    assert problems[0] == "the games stored are [1, 2], expected 1 to 3 (the game in play)"


def test_check_names_a_seating_the_movement_does_not_give(played: Drive) -> None:
    tables = stored_tables(played, 3)
    first = Seat.objects.get(game__drive=played, game__number=3, table__number=1)
    second = Seat.objects.get(game__drive=played, game__number=3, table__number=2)
    first.arrives_id, second.arrives_id = second.arrives_id, first.arrives_id
    first.save()
    second.save()
    problems = check_problems(played)
    stays1, arrives1 = tables[1]
    stays2, arrives2 = tables[2]
    assert problems == [
        f"game 3 table 1: seats {stays1} staying and {arrives2} arriving, the movement from "
        f"game 2 gives {stays1} staying and {arrives1} arriving",
        f"game 3 table 2: seats {stays2} staying and {arrives1} arriving, the movement from "
        f"game 2 gives {stays2} staying and {arrives2} arriving",
    ]


def test_check_names_a_winner_not_at_the_table_and_a_couple_seated_twice(played: Drive) -> None:
    play_game(played, 3, lower_number)
    result = Result.objects.get(game__drive=played, game__number=3, seat__table__number=1)
    stranger = Seat.objects.get(game__drive=played, game__number=3, table__number=2).stays
    result.winner = stranger
    result.save()
    problems = check_problems(played)
    assert f"game 3 table 1: the winner, couple {stranger.number}, is not at the table" in problems
    Seat.objects.filter(game__drive=played, game__number=3, table__number=1).update(stays=stranger)
    problems = check_problems(played)
    assert any(f"game 3: couple {stranger.number} sits at tables 1 and 2" in p for p in problems)
