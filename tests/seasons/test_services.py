"""The season's services and selectors against the database: drives joined and refused,
players matched by name across the drives, merged and split, the standings they make, and the
cookie jar from drive to drive."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from drives.errors import ServiceError
from drives.names import name_key
from drives.services import club_create
from scoring.models import Award
from scoring.prizes.services import cookie_jar_draw, prize_setup_update, prizes_open_ties
from seasons import selectors
from seasons.models import PlayerMerge
from seasons.services import (
    player_merge,
    player_split,
    player_unmerge,
    player_unsplit,
    season_add_drive,
    season_create,
    season_remove_drive,
    season_update,
)
from tests.seasons.helpers import World, expected_wins, make_drive

pytestmark = pytest.mark.django_db


def rows_by_name(world: World) -> dict[str, dict]:
    view = selectors.season_view(world.season)
    return {row["player"]: row for row in selectors.standings_rows(view)}


def test_players_are_matched_by_name_across_drives(world: World) -> None:
    wins = expected_wins(world.drives)
    rows = rows_by_name(world)
    # "Thérèse MacNeil" and "therese macneil" are one player (case, accents, spaces).
    therese = rows["Thérèse MacNeil"]
    assert therese["drives"] == 2
    assert therese["wins"] == wins["Thérèse MacNeil"] + wins["therese macneil"]
    assert therese["spellings"] == ["Thérèse MacNeil", "therese macneil"]
    # "Teresa" is another spelling: a player of her own until merged.
    assert rows["Teresa MacNeil"]["wins"] == wins["Teresa MacNeil"]
    joe = rows["Joe Boudreau"]
    assert joe["drives"] == 3 and joe["wins"] == wins["Joe Boudreau"]
    assert sum(r["wins"] for r in rows.values()) == sum(wins.values())
    assert [r["place"] for r in rows.values()] == sorted(r["place"] for r in rows.values())


def test_merge_two_spellings_then_undo(world: World) -> None:
    before = rows_by_name(world)
    player_merge(season=world.season, name="Teresa MacNeil", into="THERESE MACNEIL")
    after = rows_by_name(world)
    assert "Teresa MacNeil" not in after
    merged = after["Thérèse MacNeil"]
    assert merged["drives"] == 3
    assert merged["wins"] == before["Thérèse MacNeil"]["wins"] + before["Teresa MacNeil"]["wins"]
    assert merged["best"] == max(
        before["Thérèse MacNeil"]["best"], before["Teresa MacNeil"]["best"]
    )
    player_unmerge(season=world.season, name="Teresa MacNeil")
    assert rows_by_name(world) == before


@pytest.mark.parametrize(
    ("name", "into", "code", "status"),
    [
        ("Ann Cormier", "ann  CORMIER", "same_player", 422),
        ("Nobody Here", "Ann Cormier", "no_such_player", 404),
        # Joe and Lou played the same night (November, as a couple): two people.
        ("Joe Boudreau", "Lou Samson", "played_together", 409),
    ],
)
def test_merges_refused(world: World, name: str, into: str, code: str, status: int) -> None:
    with pytest.raises(ServiceError) as caught:
        player_merge(season=world.season, name=name, into=into)
    assert (caught.value.code, caught.value.status) == (code, status)
    assert not PlayerMerge.objects.exists()


def test_merging_again_what_is_merged_is_the_same_player(world: World) -> None:
    player_merge(season=world.season, name="Teresa MacNeil", into="Thérèse MacNeil")
    with pytest.raises(ServiceError) as caught:
        player_merge(season=world.season, name="therese macneil", into="Teresa MacNeil")
    assert caught.value.code == "same_player"


def test_split_two_people_of_one_name_by_drive(world: World) -> None:
    before = rows_by_name(world)
    october = world.drives[1]
    player_split(
        season=world.season,
        drive=october,
        name="Therese MacNeil",
        as_name="Thérèse MacNeil (Chéticamp)",
    )
    after = rows_by_name(world)
    other = after["Thérèse MacNeil (Chéticamp)"]
    assert other["drives"] == 1 and other["best_drive"] == october.slug
    assert other["wins"] + after["Thérèse MacNeil"]["wins"] == before["Thérèse MacNeil"]["wins"]
    with pytest.raises(ServiceError) as caught:
        player_split(season=world.season, drive=october, name="Rita Doucet", as_name="rita doucet")
    assert caught.value.code == "same_player"
    player_unsplit(season=world.season, drive=october, name="therese macneil")
    assert rows_by_name(world) == before


def test_a_drive_joins_one_season_of_its_own_club_within_the_dates(world: World) -> None:
    club = world.club
    other = season_create(club=club, name="Winter", starts=date(2026, 9, 1), ends=date(2027, 5, 1))
    with pytest.raises(ServiceError) as caught:
        season_add_drive(season=other, drive=world.drives[0])
    assert (caught.value.code, caught.value.status) == ("drive_in_another_season", 409)
    # Adding it again to its own season changes nothing.
    season_add_drive(season=world.season, drive=world.drives[0])
    late = make_drive(club, date(2027, 1, 8), [("A B", "C D")])
    with pytest.raises(ServiceError) as caught:
        season_add_drive(season=world.season, drive=late)
    assert caught.value.code == "drive_outside_season"
    theirs = make_drive(club_create(name="Legion Branch 12"), date(2026, 10, 1), [("E F", "G H")])
    with pytest.raises(ServiceError) as caught:
        season_add_drive(season=world.season, drive=theirs)
    assert (caught.value.code, caught.value.status) == ("no_such_drive", 404)
    assert caught.value.message == f"No drive {theirs.slug!r}."
    season_remove_drive(season=world.season, drive=world.drives[0])
    season_add_drive(season=other, drive=world.drives[0])
    assert [d.pk for d in selectors.season_drives(other)] == [world.drives[0].pk]


def test_dates_reversed_and_dates_that_would_leave_a_drive_out(world: World) -> None:
    with pytest.raises(ServiceError) as caught:
        season_create(club=world.club, name="Backwards", starts="2027-05-01", ends="2026-09-01")
    assert (caught.value.code, caught.value.details["field"]) == ("dates_reversed", "ends")
    with pytest.raises(ServiceError) as caught:
        season_update(season=world.season, ends="2026-11-01")
    assert caught.value.code == "drive_outside_season" and caught.value.status == 409
    world.season.refresh_from_db()
    assert world.season.ends == date(2026, 12, 20)
    with pytest.raises(ServiceError) as caught:
        season_create(club=world.club, name="No date", starts="soon", ends="2027-01-01")
    assert caught.value.code == "bad_date"


def test_the_standings_take_a_fixed_number_of_queries_whatever_the_drives(world: World) -> None:
    counts = []
    for drives in (1, 3):
        world.season.entries.all().delete()
        for drive in world.drives[:drives]:
            season_add_drive(season=world.season, drive=drive)
        with CaptureQueriesContext(connection) as queries:
            selectors.standings_rows(selectors.season_view(world.season))
        counts.append(len(queries))
    # The drives' standings in three for all of them, and a fixed few for the season
    # (drives, merges, splits, prizes): not one more a drive.
    assert counts[1] == counts[0] == 3 + 4, counts


def test_prizes_won_are_counted(world: World) -> None:
    for drive in world.drives:
        prize_setup_update(drive=drive, prize_places=1, prizes=[{"amount": 20}], booby=True)
        prizes_open_ties(drive=drive)
    won: dict[str, int] = {}
    for award in Award.objects.filter(drive__in=world.drives).select_related("couple"):
        for name in award.couple.players:
            key = name_key(name)
            won[key] = won.get(key, 0) + 1
    assert sum(won.values()) >= 2 * len(world.drives)  # at least a booby prize each night
    rows = rows_by_name(world)
    assert {r["key"]: r["prizes"] for r in rows.values() if r["prizes"]} == won


def test_the_cookie_jar_carried_from_drive_to_drive(world: World) -> None:
    first, _october, third = world.drives
    for drive in (first, third):
        prize_setup_update(drive=drive, cookie_jar=True, buy_in="2.00")
        drive.couples.update(cookie_jar=True)
    jar = selectors.season_jar(world.drives)
    rows = jar["drives"]
    assert [row["drive"] for row in rows] == [d.slug for d in world.drives]
    # Not drawn yet: the first night's four buy-ins go on; October has no jar and passes
    # them on; November adds its own.
    assert (rows[0]["carried_in"], rows[0]["pot"], rows[0]["carried_out"]) == (
        "0.00",
        "8.00",
        "8.00",
    )
    assert (rows[1]["enabled"], rows[1]["carried_in"], rows[1]["carried_out"]) == (
        False,
        "8.00",
        "8.00",
    )
    assert (rows[2]["carried_in"], rows[2]["pot"]) == ("8.00", "16.00")
    assert jar["gaps"] == []
    # The first night drawn and won: nothing goes on to November.
    cookie_jar_draw(drive=first, games=[1, 2, 3])
    rows = selectors.season_jar(world.drives)["drives"]
    if rows[0]["status"] == "carried-over":
        assert rows[2]["carried_in"] == rows[0]["pot"]
    else:
        assert rows[0]["carried_out"] == "0.00" and rows[2]["carried_in"] == "0.00"
    # A drive of the club between two of the season's drives, outside it, shows as a gap.
    between = make_drive(world.club, date(2026, 10, 23), [("A B", "C D"), ("E F", "G H")])
    prize_setup_update(drive=between, cookie_jar=True, buy_in="5.00")
    between.couples.update(cookie_jar=True)
    assert selectors.season_jar(world.drives)["gaps"] == [third.slug]
