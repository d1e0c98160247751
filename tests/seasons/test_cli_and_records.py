"""``manage.py drive season …`` and the season's part of a drive's export and restore: a
season made, filled, merged, split and read from the command line, refusals as one line and
exit code 1, and a drive restored into the season it was exported from."""

from __future__ import annotations

import json
from datetime import date

import pytest
from django.core.management.base import CommandError

from drives.services import club_create
from scoring.records.export import drive_export
from scoring.records.restore import drive_delete, drive_restore
from seasons import selectors
from seasons.models import PlayerMerge, PlayerSplit, Season, SeasonDrive
from tests.cli.helpers import run
from tests.seasons.helpers import make_drive, make_season

pytestmark = pytest.mark.django_db


def test_a_season_from_the_command_line() -> None:
    world = make_season()
    world.season.delete()
    club = world.club.slug
    slug = run(
        "drive",
        "season",
        "create",
        club,
        "--name",
        "Fall 2026",
        "--from",
        "2026-09-01",
        "--to",
        "2026-12-20",
    ).strip()
    assert Season.objects.get(slug=slug).name == "Fall 2026"
    out = run("drive", "season", "add", club, slug, *[d.slug for d in world.drives])
    assert "3 drive(s)" in out
    run("drive", "season", "merge", club, slug, "Teresa MacNeil", "Thérèse MacNeil")
    run(
        "drive",
        "season",
        "split",
        club,
        slug,
        world.drives[1].slug,
        "Rita Doucet",
        "Rita Doucet (Mabou)",
    )
    data = json.loads(run("drive", "season", "standings", club, slug, "--json"))
    players = {p["player"]: p for p in data["players"]}
    assert players["Thérèse MacNeil"]["drives"] == 3
    assert players["Rita Doucet (Mabou)"]["drives"] == 1
    table = run("drive", "season", "standings", club, slug)
    assert "Thérèse MacNeil" in table and "3 drive(s)" in table
    assert slug in run("drive", "season", "list", club)
    assert "no cookie jar" in run("drive", "season", "jar", club, slug)
    run("drive", "season", "edit", club, slug, "--publish")
    assert Season.objects.get(slug=slug).published


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (
            (
                "create",
                "st-josephs-parish",
                "--name",
                "X",
                "--from",
                "2027-01-01",
                "--to",
                "2026-01-01",
            ),
            "cannot end",
        ),
        (
            ("merge", "st-josephs-parish", "fall-2026", "Joe Boudreau", "JOE BOUDREAU"),
            "already one player",
        ),
        (("add", "st-josephs-parish", "fall-2026", "no-such-drive"), "No drive"),
        (("remove", "nowhere", "fall-2026", "x"), "No club 'nowhere'"),
        (("jar", "st-josephs-parish", "spring"), "No season 'spring'"),
    ],
)
def test_refusals_are_one_line(args: tuple[str, ...], words: str) -> None:
    make_season(play=False)
    with pytest.raises(CommandError) as caught:
        run("drive", "season", *args)
    assert words in str(caught.value)


def test_another_clubs_drive_is_no_drive() -> None:
    make_season(play=False)
    theirs = make_drive(club_create(name="Legion"), date(2026, 10, 2), [("A B", "C D")])
    for action in ("add", "remove"):
        with pytest.raises(CommandError) as caught:
            run("drive", "season", action, "st-josephs-parish", "fall-2026", theirs.slug)
        assert str(caught.value) == f"No drive {theirs.slug!r}."


def test_a_restored_drive_joins_its_season_again() -> None:
    world = make_season()
    october = world.drives[1]
    from seasons.services import player_merge, player_split

    player_merge(season=world.season, name="Teresa MacNeil", into="Thérèse MacNeil")
    player_split(
        season=world.season, drive=october, name="Rita Doucet", as_name="Rita Doucet (Mabou)"
    )
    before = selectors.standings_rows(selectors.season_view(world.season))
    record = drive_export(october)
    assert record["season"]["slug"] == world.season.slug
    assert record["season"]["splits"] == [{"key": "rita doucet", "as_name": "Rita Doucet (Mabou)"}]
    drive_delete(drive=october)
    assert not PlayerSplit.objects.exists()
    drive_restore(data=json.loads(json.dumps(record)))
    assert selectors.standings_rows(selectors.season_view(world.season)) == before
    assert PlayerMerge.objects.count() == 1
    # Into a database without the season: it is made again from the record.
    Season.objects.all().delete()
    drive_restore(data=json.loads(json.dumps(record)), replace=True)
    season = Season.objects.get()
    assert (season.slug, season.name) == (world.season.slug, world.season.name)
    assert SeasonDrive.objects.get().drive.slug == october.slug


def test_a_drive_in_no_season_exports_null_and_a_bad_part_is_refused() -> None:
    world = make_season(play=False)
    SeasonDrive.objects.all().delete()
    record = drive_export(world.drives[0])
    assert record["season"] is None
    record["season"] = {
        "slug": "x",
        "name": "X",
        "starts": "2027-01-01",
        "ends": "2026-01-01",
        "merges": [],
        "splits": [],
    }
    from drives.errors import ServiceError

    with pytest.raises(ServiceError) as caught:
        drive_restore(data=record, replace=True)
    assert caught.value.code == "bad_export" and "season.ends" in caught.value.message
    assert SeasonDrive.objects.count() == 0
