"""``manage.py drive list``, ``drive show`` and ``drive close``."""

import pytest
from django.core.management.base import CommandError

from drives.models import Drive
from scoring.selectors import game_view
from tests.cli.helpers import run

pytestmark = pytest.mark.django_db


def test_list_shows_every_drive_and_filters_by_club(new_drive, write) -> None:
    assert run("drive", "list") == "No drives.\n"
    slug = new_drive(4)
    run(
        "drive",
        "create",
        "--club",
        "Legion Branch 12",
        "--name",
        "Legion 45s",
        "--date",
        "2026-12-01",
        "--couples",
        write("c.csv", "player1,player2\nA,B\nC,D\n"),
    )
    lines = run("drive", "list").splitlines()
    assert lines[0].split() == ["slug", "date", "state", "game", "couples", "club"]
    assert lines[1].startswith("legion-45s-2026-12-01")  # newest first
    assert slug in lines[2] and "setup" in lines[2] and "0/25" in lines[2]
    only = run("drive", "list", "--club", "St. Joseph's Parish").splitlines()
    assert len(only) == 2 and slug in only[1]


def test_show_gives_the_game_in_play_the_missing_tables_and_the_top_ten(new_drive, write) -> None:
    slug = new_drive(24)
    assert "No game has started." in run("drive", "show", slug)
    run("drive", "simulate", slug, "--seed", "3", "--until-game", "2")
    table_one = game_view(Drive.objects.get(slug=slug), 3)["tables"][0]
    path = write("r.csv", f"game,table,winner\n3,1,{table_one['stays']}\n")
    run("drive", "import-results", slug, path)
    out = run("drive", "show", slug)
    assert "game in play: 3 (1 of 12 tables reported)" in out
    assert "tables missing: 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12" in out
    top = out.split("standings (top 10):\n")[1].splitlines()
    assert len(top) == 10 and "2 wins in  3" in top[0]  # game 3 counts as played once seated


def test_close_makes_the_drive_read_only(new_drive) -> None:
    slug = new_drive(4)
    assert run("drive", "close", slug).startswith(f"Closed {slug}")
    assert Drive.objects.get(slug=slug).state == "closed"
    with pytest.raises(CommandError, match="closed"):
        run("drive", "close", slug)


def test_show_of_an_unknown_slug_and_a_missing_subcommand() -> None:
    with pytest.raises(CommandError, match="No drive with the slug 'nope'"):
        run("drive", "show", "nope")
    with pytest.raises(CommandError, match="required"):
        run("drive")
