"""``manage.py drive simulate``: the rest of the night played by the engine's bots, through the
services; the same seed gives the same night."""

import pytest
from django.core.management.base import CommandError

from drives.models import AuditEntry, Drive
from scoring.models import Result, ResultVersion
from scoring.selectors import standings_for_drive
from tests.cli.helpers import run

pytestmark = pytest.mark.django_db


def night_of(slug: str) -> list[tuple[int, int, int, list[int] | None]]:
    return [
        (r.game.number, r.seat.table.number, r.winner.number, r.points)
        for r in Result.objects.filter(game__drive__slug=slug)
        .select_related("game", "seat__table", "winner")
        .order_by("game__number", "seat__table__number")
    ]


def test_a_whole_night_from_setup_prints_a_line_per_game(new_drive) -> None:
    slug = new_drive(9, "--games", "5")
    out = run("drive", "simulate", slug, "--seed", "7")
    lines = out.splitlines()
    assert lines[0].startswith("game 1: 4 results simulated, 0 already in, 1 sit-out(s); game 2")
    assert len([line for line in lines if line.startswith("game ")]) == 5
    assert "the last game" in lines[4]
    assert lines[-1] == "seed 7 (heuristic bots); game 5."
    drive = Drive.objects.get(slug=slug)
    assert (drive.state, drive.current_game) == ("running", 5)
    assert Result.objects.filter(game__drive=drive).count() == 5 * 4
    assert set(ResultVersion.objects.values_list("channel", flat=True)) == {"cli"}
    assert set(
        AuditEntry.objects.filter(
            drive=drive, action__in=["result.enter", "game.advance"]
        ).values_list("channel", flat=True)
    ) == {"cli"}
    assert all(r.points is not None for r in Result.objects.all())
    # Every couple played every game (a sit-out counts as played), and the wins add up.
    table = standings_for_drive(drive)
    assert all(row["played"] == 5 for row in table)
    assert sum(row["wins"] for row in table) == 5 * 5


def test_the_same_seed_gives_the_same_night(new_drive) -> None:
    first = new_drive(11, "--games", "6", name="One")
    second = new_drive(11, "--games", "6", name="Two")
    other = new_drive(11, "--games", "6", name="Three")
    run("drive", "simulate", first, "--seed", "2026")
    run("drive", "simulate", second, "--seed", "2026")
    run("drive", "simulate", other, "--seed", "2027")
    assert night_of(first) == night_of(second)
    assert night_of(first) != night_of(other)


def test_until_game_stops_with_the_next_game_in_play_and_the_rest_follows(new_drive) -> None:
    whole = new_drive(8, "--games", "6", name="Whole")
    halves = new_drive(8, "--games", "6", name="Halves")
    run("drive", "simulate", whole, "--seed", "5", "--bot", "random")
    out = run("drive", "simulate", halves, "--seed", "5", "--bot", "random", "--until-game", "3")
    assert out.splitlines()[-1] == "seed 5 (random bots); game 4."
    drive = Drive.objects.get(slug=halves)
    assert drive.current_game == 4
    assert not Result.objects.filter(game__drive=drive, game__number=4).exists()
    run("drive", "simulate", halves, "--seed", "5", "--bot", "random")
    assert night_of(halves) == night_of(whole)


def test_tables_already_reported_are_kept(new_drive, write) -> None:
    slug = new_drive(6, "--games", "3")
    run("drive", "import-results", slug, write("r.csv", "game,table,winner\n1,2,4\n"))
    out = run("drive", "simulate", slug, "--seed", "1", "--until-game", "1")
    assert out.startswith("game 1: 2 results simulated, 1 already in, 0 sit-out(s); game 2 started")
    assert Result.objects.get(game__number=1, seat__table__number=2).winner.number == 4


def test_nothing_to_play_and_errors(new_drive) -> None:
    slug = new_drive(4, "--games", "4")
    run("drive", "simulate", slug, "--seed", "1", "--until-game", "2")
    out = run("drive", "simulate", slug, "--seed", "1", "--until-game", "2")
    assert "Nothing to play: game 3 is already in play." in out
    with pytest.raises(CommandError, match="from 1 to 4"):
        run("drive", "simulate", slug, "--until-game", "9")
    with pytest.raises(CommandError, match="No drive"):
        run("drive", "simulate", "nope")
    with pytest.raises(CommandError, match="invalid choice"):
        run("drive", "simulate", slug, "--bot", "clever")
    run("drive", "close", slug)
    with pytest.raises(CommandError, match="closed"):
        run("drive", "simulate", slug)


def test_a_conflict_stops_the_simulation_with_a_message(new_drive, write) -> None:
    from drives.services import Actor
    from scoring.services import result_record

    slug = new_drive(4, "--games", "3")
    run("drive", "import-results", slug, write("r.csv", "game,table,winner\n1,1,1\n"))
    drive = Drive.objects.get(slug=slug)
    with pytest.raises(Exception, match="already has"):
        result_record(drive=drive, game=1, table=1, winner=2, actor=Actor())
    with pytest.raises(CommandError, match="conflict at table"):
        run("drive", "simulate", slug, "--seed", "1")
