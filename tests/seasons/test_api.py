"""The seasons' JSON API (/api/v1/clubs/{club}/seasons…): members read, organizers write,
outsiders get a 404, and every bad input a 4xx naming the problem."""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client

from drives.models import AuditEntry
from seasons.models import PlayerMerge, Season, SeasonDrive
from tests.api.helpers import Api, ClubUsers, make_club
from tests.seasons.helpers import make_drive, make_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def api() -> Api:
    return Api(Client())


@pytest.fixture
def ours() -> ClubUsers:
    return make_club("St. Joseph's Parish", "ours")


def test_a_season_made_filled_and_read_through_the_api(api: Api, ours: ClubUsers) -> None:
    world = make_season(ours.club)
    world.season.delete()
    token = ours.org_token
    made = api.post(
        "clubs/st-josephs-parish/seasons",
        {"name": "Fall 2026", "starts": "2026-09-01", "ends": "2026-12-20"},
        token=token,
    )
    assert made.status_code == 201, made.json()
    slug = made.json()["slug"]
    base = f"clubs/st-josephs-parish/seasons/{slug}"
    for drive in world.drives:
        added = api.post(f"{base}/drives", {"drive": drive.slug}, token=token)
        assert added.status_code == 200, added.json()
    assert [d["slug"] for d in added.json()["drives"]] == [d.slug for d in world.drives]
    listed = api.get("clubs/st-josephs-parish/seasons", token=ours.scorer_token)
    assert [s["slug"] for s in listed.json()] == [slug]

    merged = api.post(
        f"{base}/players/merge", {"name": "Teresa MacNeil", "into": "Thérèse MacNeil"}, token=token
    )
    assert merged.status_code == 200, merged.json()
    assert merged.json()["merges"] == [{"key": "teresa macneil", "into": "therese macneil"}]
    standings = api.get(f"{base}/standings", token=ours.scorer_token)
    assert standings.status_code == 200
    players = {p["player"]: p for p in standings.json()["players"]}
    therese = players["Thérèse MacNeil"]
    assert therese["drives"] == 3
    assert therese["spellings"] == ["Thérèse MacNeil", "therese macneil", "Teresa MacNeil"]
    assert "Teresa MacNeil" not in players
    assert (
        sum(p["wins"] for p in players.values()) == 2 * 3 * 2 * 3
    )  # 2 players, 3 drives, 2 tables, 3 games

    patched = api.patch(base, {"published": True, "name": "Fall and winter"}, token=token)
    assert patched.status_code == 200 and patched.json()["published"] is True
    removed = api.call("DELETE", f"{base}/drives/{world.drives[0].slug}", token=token)
    assert removed.status_code == 200 and len(removed.json()["drives"]) == 2
    jar = api.get(f"{base}/cookie-jar", token=token)
    assert jar.status_code == 200 and len(jar.json()["drives"]) == 2
    actions = set(AuditEntry.objects.values_list("action", flat=True))
    assert {"season.create", "season.add_drive", "season.merge", "season.update"} <= actions


def test_bad_input_gets_a_4xx_naming_the_problem(api: Api, ours: ClubUsers) -> None:
    world = make_season(ours.club, play=False)
    token = ours.org_token
    seasons = "clubs/st-josephs-parish/seasons"
    base = f"{seasons}/{world.season.slug}"

    reversed_ = api.post(
        seasons, {"name": "Backwards", "starts": "2027-05-01", "ends": "2026-09-01"}, token=token
    )
    assert reversed_.status_code == 422
    assert (reversed_.json()["code"], reversed_.json()["field"]) == ("dates_reversed", "ends")

    theirs = make_club("Legion Branch 12", "theirs")
    their_drive = make_drive(theirs.club, date(2026, 10, 2), [("A B", "C D")])
    # Another club's drive is no drive, as everywhere else: the same 404 as an unknown slug.
    other = api.post(f"{base}/drives", {"drive": their_drive.slug}, token=token)
    unknown = api.post(f"{base}/drives", {"drive": "no-such-drive"}, token=token)
    assert (other.status_code, other.json()["code"]) == (404, "no_such_drive")
    assert (unknown.status_code, unknown.json()["code"]) == (404, "no_such_drive")
    assert other.json()["message"] == f"No drive {their_drive.slug!r}."
    removed = api.call("DELETE", f"{base}/drives/{their_drive.slug}", token=token)
    assert (removed.status_code, removed.json()["code"]) == (404, "no_such_drive")

    second = api.post(
        seasons, {"name": "Winter", "starts": "2026-09-01", "ends": "2027-04-30"}, token=token
    ).json()["slug"]
    taken = api.post(f"{seasons}/{second}/drives", {"drive": world.drives[0].slug}, token=token)
    assert (taken.status_code, taken.json()["code"]) == (409, "drive_in_another_season")
    assert taken.json()["season"] == world.season.slug

    itself = api.post(
        f"{base}/players/merge", {"name": "Joe Boudreau", "into": "joe boudreau"}, token=token
    )
    assert (itself.status_code, itself.json()["code"]) == (422, "same_player")
    unknown = api.post(f"{base}/players/merge", {"name": "Joe Boudreau", "into": "X"}, token=token)
    assert (unknown.status_code, unknown.json()["code"]) == (404, "no_such_player")
    extra = api.post(f"{base}/drives", {"drive": world.drives[0].slug, "x": 1}, token=token)
    assert (extra.status_code, extra.json()["code"]) == (422, "unknown_field")
    bad_date = api.patch(base, {"starts": "the first of September"}, token=token)
    assert (bad_date.status_code, bad_date.json()["code"]) == (422, "bad_date")
    assert not PlayerMerge.objects.exists()
    assert SeasonDrive.objects.filter(season__slug=second).count() == 0


def test_who_may_do_what(api: Api, ours: ClubUsers) -> None:
    world = make_season(ours.club, play=False)
    base = f"clubs/st-josephs-parish/seasons/{world.season.slug}"
    # A scorer reads, and may not change.
    assert api.get(f"{base}/standings", token=ours.scorer_token).status_code == 200
    refused = api.patch(base, {"name": "Mine"}, token=ours.scorer_token)
    assert (refused.status_code, refused.json()["code"]) == (403, "forbidden")
    # Another club's organizer sees no such club; nobody at all is asked to log in.
    theirs = make_club("Legion Branch 12", "theirs")
    assert api.get(f"{base}/standings", token=theirs.org_token).status_code == 404
    assert api.get(f"{base}/standings").status_code == 401
    missing = api.get("clubs/st-josephs-parish/seasons/nope", token=ours.org_token)
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    deleted = api.call("DELETE", base, token=ours.org_token)
    assert deleted.status_code == 204 and not Season.objects.exists()
    assert SeasonDrive.objects.count() == 0 and len(world.drives) == 3


def test_split_and_unsplit_through_the_api(api: Api, ours: ClubUsers) -> None:
    world = make_season(ours.club)
    base = f"clubs/st-josephs-parish/seasons/{world.season.slug}"
    october = world.drives[1].slug
    body = {"drive": october, "name": "Joe Boudreau", "as_name": "Joe Boudreau (Arichat)"}
    split = api.post(f"{base}/players/split", body, token=ours.org_token)
    assert split.status_code == 200, split.json()
    assert split.json()["splits"] == [
        {"drive": october, "key": "joe boudreau", "as_name": "Joe Boudreau (Arichat)"}
    ]
    players = {
        p["player"]: p for p in api.get(f"{base}/standings", token=ours.org_token).json()["players"]
    }
    assert (
        players["Joe Boudreau"]["drives"] == 2 and players["Joe Boudreau (Arichat)"]["drives"] == 1
    )
    undone = api.post(
        f"{base}/players/unsplit", {"drive": october, "name": "joe boudreau"}, token=ours.org_token
    )
    assert undone.status_code == 200 and undone.json()["splits"] == []
    again = api.post(
        f"{base}/players/unsplit", {"drive": october, "name": "joe boudreau"}, token=ours.org_token
    )
    assert (again.status_code, again.json()["code"]) == (404, "not_split")
