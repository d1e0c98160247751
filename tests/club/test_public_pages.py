"""The club's public pages, for anyone: the club's page (upcoming drives, past nights with
their winners, the season's standings) and a player's page (nights, places, wins, prizes,
partners), names as the club chooses to show them; with no names, no player's page but the
player's own, reached from their couple's page. Their JSON twins say the same; the reads take
the same number of queries for a club of a few nights as for one of many."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from club.public import shown_name
from club.services import club_public_names
from drives.models import AuditEntry, Club, Couple, Drive, Seat
from drives.services import Change, drive_changed, drive_close, drive_create, drive_update
from scoring.models import Result
from scoring.selectors import standings_counted, standings_for_drive
from seasons.services import season_remove_drive
from tests.api.helpers import DESK, Api
from tests.club.world import World, club_world
from tests.pages.organizer_helpers import logged_in
from tests.prizes.helpers import night as finished_night

pytestmark = pytest.mark.django_db


def text(response: Any) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())).strip()


def names_shown(club: Club, setting: str) -> None:
    club_public_names(club=club, public_names=setting, actor=DESK)
    club.refresh_from_db()


@pytest.fixture
def world(ours: Any) -> World:
    return club_world(ours.club, players=40, nights=5)


def regular(world: World) -> Any:
    """The player at every night (club_world's first), and their latest partner."""
    couple = Couple.objects.filter(member1=world.players[0]).order_by("-drive__date").first()
    assert couple is not None
    return world.players[0], couple.player2


# --- names ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "initial"),
    [
        ("Mary MacDonald", "Mary M."),
        ("Mary Ann MacDonald", "Mary M."),
        ("thérèse macneil", "thérèse M."),
        ("John MacDonald (Judique)", "John M."),
        ("Cher", "Cher"),
        ("  Angus   Beaton ", "Angus B."),
    ],
)
def test_a_first_name_with_an_initial(name: str, initial: str) -> None:
    assert shown_name(name, "initial") == initial
    assert shown_name(name, "full") == name
    assert shown_name(name, "none") == ""


# --- the club's page ------------------------------------------------------------------------------


def test_the_club_page_by_default_first_names_with_an_initial(client: Client, world: World) -> None:
    player, partner = regular(world)
    page = client.get(f"/clubs/{world.club.slug}/")
    assert page.status_code == 200
    html = page.content.decode()
    words = text(page)
    assert "Past nights" in words and "Season: The season" in words
    # Newest first, each with its results page; the regular's name shortened, linked.
    assert html.index("Night 5") < html.index("Night 4")
    assert f"/results/{world.drives[-1].slug}/" in html
    assert shown_name(player.name, "initial") in words
    assert player.name not in words and partner not in words
    assert f'href="/clubs/{world.club.slug}/players/{player.pk}/"' in html


def test_full_names_when_the_club_says_so(client: Client, world: World) -> None:
    names_shown(world.club, "full")
    player, _partner = regular(world)
    words = text(client.get(f"/clubs/{world.club.slug}/"))
    assert player.name in words  # in the season's standings (at every night, so near the top)


def test_no_names_no_winners_no_standings_no_player_links(client: Client, world: World) -> None:
    names_shown(world.club, "none")
    page = client.get(f"/clubs/{world.club.slug}/")
    html, words = page.content.decode(), text(page)
    assert "The club shows no players' names on its public pages." in words
    assert "Winners" not in words and 'data-testid="season-standings"' not in html
    assert f"/clubs/{world.club.slug}/players/" not in html
    for player in world.players:
        assert player.name.split()[0] not in words, player.name
    # The nights and their results pages are still there.
    assert f"/results/{world.drives[0].slug}/" in html


def test_an_unpublished_night_shows_no_result(client: Client, world: World) -> None:
    hidden = world.drives[-1]
    Drive.objects.filter(pk=hidden.pk).update(published=False)
    html = client.get(f"/clubs/{world.club.slug}/").content.decode()
    row = re.search(rf'<tr data-drive="{hidden.slug}">(.*?)</tr>', html, re.S)
    assert row is not None
    assert "not published" in row.group(1) and "/players/" not in row.group(1)
    assert f"/results/{hidden.slug}/" not in html


def test_upcoming_drives_with_their_place_for_registration(client: Client, ours: Any) -> None:
    soon = drive_create(
        club=ours.club, name="Friday 45s", date=timezone.localdate() + timedelta(days=3)
    )
    drive_update(drive=soon, actor=DESK, venue="St. Joseph's hall")
    drive_create(club=ours.club, name="Long ago", date=timezone.localdate() - timedelta(days=30))
    html = client.get(f"/clubs/{ours.club.slug}/").content.decode()
    upcoming = html[html.index('data-testid="upcoming"') : html.index('data-testid="past"')]
    assert "Friday 45s" in upcoming and "St. Joseph&#x27;s hall" in upcoming
    assert f'data-registration="{soon.slug}"' in upcoming
    assert "Long ago" not in upcoming  # a night of the past never closed is not upcoming
    assert "No night has been played yet." in text(client.get(f"/clubs/{ours.club.slug}/"))


def test_past_nights_a_page_at_a_time(client: Client, ours: Any) -> None:
    world = club_world(ours.club, players=40, nights=25, couples=3, games=2)
    first = client.get(f"/clubs/{ours.club.slug}/").content.decode()
    assert first.count("<tr data-drive=") == 20 and "Page 1 of 2" in first
    second = client.get(f"/clubs/{ours.club.slug}/?page=2").content.decode()
    assert second.count("<tr data-drive=") == 5
    assert f'data-drive="{world.drives[0].slug}"' in second


def test_no_such_club(client: Client, db: None) -> None:
    assert client.get("/clubs/nobody/").status_code == 404
    assert client.get("/api/v1/clubs/nobody").status_code == 404


def test_the_club_page_in_french_when_its_drives_are(client: Client, world: World) -> None:
    Drive.objects.filter(club=world.club).update(language="fr")
    page = client.get(f"/clubs/{world.club.slug}/")
    assert '<html lang="fr">' in page.content.decode()
    assert "Soirées passées" in text(page)
    player, _partner = regular(world)
    assert "Partenaires" in text(client.get(f"/clubs/{world.club.slug}/players/{player.pk}/"))
    assert client.get(f"/api/v1/clubs/{world.club.slug}").json()["language"] == "fr"


# --- a player's page ------------------------------------------------------------------------------


def test_a_players_nights_places_wins_prizes_and_partners(client: Client, world: World) -> None:
    player, partner = regular(world)
    page = client.get(f"/clubs/{world.club.slug}/players/{player.pk}/")
    assert page.status_code == 200
    words = text(page)
    assert shown_name(player.name, "initial") in words
    assert player.name not in words and partner not in words
    html = page.content.decode()
    assert html.count("<tr data-drive=") == len(world.drives)
    # club_world gives the regular's couple a prize place each night.
    assert "place 1" in words
    totals = dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]+)</dd>", html))
    assert totals["Nights"] == str(len(world.drives)) and totals["Prizes"] == "5"
    api = Client().get(f"/api/v1/clubs/{world.club.slug}/players/{player.pk}").json()
    assert totals["Games won"] == str(api["wins"]) == str(sum(n["wins"] for n in api["nights"]))
    assert sum(p["nights"] for p in api["partners"]) == len(world.drives)
    for night in api["nights"]:
        assert night["couples"] == 13 and night["played"] == 6
    assert 'data-testid="partners"' in html


def test_places_are_the_nights_standings(world: World) -> None:
    together = standings_counted(world.drives)
    for drive in world.drives:
        one = [{k: v for k, v in row.items() if k != "couple"} for row in together[drive.pk]]
        assert one == standings_for_drive(drive)


def test_a_player_of_no_published_night_has_no_public_page(client: Client, world: World) -> None:
    player, _partner = regular(world)
    Drive.objects.filter(club=world.club).update(published=False)
    assert client.get(f"/clubs/{world.club.slug}/players/{player.pk}/").status_code == 404
    assert client.get(f"/api/v1/clubs/{world.club.slug}/players/{player.pk}").status_code == 404


def test_another_clubs_player_is_not_found(client: Client, world: World, theirs: Any) -> None:
    player, _partner = regular(world)
    assert client.get(f"/clubs/{theirs.club.slug}/players/{player.pk}/").status_code == 404


@pytest.mark.parametrize("setting", ["full", "initial", "none"])
def test_each_setting_on_the_players_pages(client: Client, world: World, setting: str) -> None:
    names_shown(world.club, setting)
    player, partner = regular(world)
    public = client.get(f"/clubs/{world.club.slug}/players/{player.pk}/")
    own = client.get(f"/clubs/{world.club.slug}/players/{player.pk}/{player.page_key()}/")
    # The player's own page: whatever the setting, names in full, never indexed.
    assert own.status_code == 200
    assert player.name in text(own) and partner in text(own)
    assert own["X-Robots-Tag"] == "noindex"
    if setting == "none":
        assert public.status_code == 404
        api = Client().get(f"/api/v1/clubs/{world.club.slug}/players/{player.pk}")
        assert api.status_code == 404 and api.json()["code"] == "not_found"
        return
    assert public.status_code == 200
    words = text(public)
    assert (player.name in words) == (setting == "full")
    assert (partner in words) == (setting == "full")
    assert shown_name(player.name, setting) in words


def test_a_wrong_or_another_players_key_opens_nothing(client: Client, world: World) -> None:
    names_shown(world.club, "none")
    one, two = world.players[0], world.players[1]
    base = f"/clubs/{world.club.slug}/players"
    assert client.get(f"{base}/{one.pk}/{two.page_key()}/").status_code == 404
    assert client.get(f"{base}/{one.pk}/{one.page_key()[:-1]}0/").status_code in (404,)
    assert client.get(f"{base}/{one.pk}/{'0' * 24}/").status_code == 404
    api = Client().get(f"/api/v1/clubs/{world.club.slug}/players/{one.pk}/{two.page_key()}")
    assert api.status_code == 404


def test_the_couple_page_leads_each_player_to_their_own_page(client: Client) -> None:
    drive = finished_night([3, 2, 1])
    drive_close(drive=drive, actor=DESK)
    names_shown(drive.club, "none")
    couple = Couple.objects.select_related("member1", "member2").get(drive=drive, number=1)
    html = client.get(f"/c/{couple.token}/").content.decode()
    links = re.findall(r'<a href="(/clubs/[^"]+)">([^<]+)</a>', html)
    assert [name for _url, name in links] == [
        f"{couple.player1}'s nights at the club",
        f"{couple.player2}'s nights at the club",
    ]
    own = client.get(links[0][0])
    assert own.status_code == 200
    # Not published: the night is the couple's, not yet on the player's page.
    assert "No published night yet." in text(own)
    drive_update(drive=drive, actor=DESK, published=True)
    own = client.get(links[0][0])
    assert couple.player1 in text(own) and "1 of 3" in text(own)


# --- the JSON twins -------------------------------------------------------------------------------


def test_the_club_pages_json_twin(client: Client, world: World) -> None:
    answer = client.get(f"/api/v1/clubs/{world.club.slug}")
    assert answer.status_code == 200
    body = answer.json()
    assert body["public_names"] == "initial" and body["nights_total"] == len(world.drives)
    assert [n["slug"] for n in body["nights"]] == [d.slug for d in reversed(world.drives)]
    page = client.get(f"/clubs/{world.club.slug}/").content.decode()
    for night in body["nights"]:
        assert night["results_url"] == f"/results/{night['slug']}/"
        for couple in night["winners"]:
            for one in couple:
                assert f'/players/{one["player"]}/">{one["name"]}</a>' in page
    season = body["season"]
    assert season["slug"] == "season" and season["drives"] == len(world.drives)
    assert (
        season["standings"] and season["url"] == f"/clubs/{world.club.slug}/seasons/season/results"
    )
    names_shown(world.club, "none")
    hidden = client.get(f"/api/v1/clubs/{world.club.slug}").json()
    assert hidden["public_names"] == "none" and hidden["season"]["standings"] == []
    assert all(n["winners"] == [] for n in hidden["nights"])


# --- the setting ----------------------------------------------------------------------------------


def test_the_organizer_sets_the_names_on_the_settings_page(ours: Any) -> None:
    client = logged_in(ours.organizer)
    page = client.get(f"/clubs/{ours.club.slug}/settings")
    assert page.status_code == 200 and 'value="initial" ' in page.content.decode()
    saved = client.post(f"/clubs/{ours.club.slug}/settings", {"public_names": "full"})
    assert saved.status_code == 302
    ours.club.refresh_from_db()
    assert ours.club.public_names == "full"
    entry = AuditEntry.objects.get(action="club.update")
    assert entry.old == {"public_names": "initial"} and entry.new == {"public_names": "full"}
    assert entry.user == ours.organizer and entry.channel == "desk"
    refused = client.post(f"/clubs/{ours.club.slug}/settings", {"public_names": "everything"})
    assert refused.status_code == 422
    assert logged_in(ours.scorer).get(f"/clubs/{ours.club.slug}/settings").status_code == 403


def test_the_setting_through_the_api(api: Api, ours: Any) -> None:
    path = f"/api/v1/clubs/{ours.club.slug}/settings"
    assert api.call("GET", path, token=ours.org_token).json() == {
        "club": ours.club.slug,
        "public_names": "initial",
    }
    bad = api.call("PATCH", path, {"public_names": "all"}, token=ours.org_token)
    assert bad.status_code == 422 and bad.json()["field"] == "public_names"
    assert not AuditEntry.objects.filter(action="club.update").exists()
    ok = api.call("PATCH", path, {"public_names": "none"}, token=ours.org_token)
    assert ok.status_code == 200 and ok.json()["public_names"] == "none"
    again = api.call("PATCH", path, {"public_names": "none"}, token=ours.org_token)
    assert again.status_code == 200
    assert AuditEntry.objects.filter(action="club.update", channel="api").count() == 1
    refused = api.call("PATCH", path, {"public_names": "full"}, token=ours.scorer_token)
    assert refused.status_code == 403


# --- queries --------------------------------------------------------------------------------------


def queries(client: Client, path: str) -> int:
    cache.clear()  # the season's standings counted afresh (kept under its fingerprint)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return len(captured)


def test_the_pages_queries_do_not_grow_with_the_club(
    client: Client, ours: Any, theirs: Any, django_assert_num_queries: Any
) -> None:
    small = club_world(ours.club, players=30, nights=3, couples=5, games=3)
    big = club_world(theirs.club, players=300, nights=45, couples=9, games=4, seed=2)
    drive_create(club=theirs.club, name="Next week", date=timezone.localdate() + timedelta(days=7))
    counts = {}
    for world in (small, big):
        player = world.players[0]
        base = f"/clubs/{world.club.slug}"
        counts[world.club.slug] = (
            queries(client, f"{base}/"),
            queries(client, f"{base}/?page=2"),
            queries(client, f"{base}/players/{player.pk}/"),
            queries(client, f"{base}/players/{player.pk}/{player.page_key()}/"),
            queries(client, f"/api/v1{base}"),
            queries(client, f"/api/v1{base}/players/{player.pk}"),
        )
    assert counts[ours.club.slug] == counts[theirs.club.slug], counts
    # The club page: the club, its language, upcoming, past nights (count, page), their
    # standings (4), the season (its row, its fingerprint; counted afresh: its drives, merges,
    # splits, prizes, standings (3)), and the players of the standings' names.
    cache.clear()
    with django_assert_num_queries(19):
        client.get(f"/clubs/{theirs.club.slug}/")
    # Again, the season unchanged: its standings from the cache.
    with django_assert_num_queries(12):
        client.get(f"/clubs/{theirs.club.slug}/")
    # A player's page: the club, its language, the player, the nights' fingerprint; counted
    # afresh: the couples, their nights' standings (4), the prizes.
    cache.clear()
    with django_assert_num_queries(10):
        client.get(f"/clubs/{theirs.club.slug}/players/{big.players[0].pk}/")
    with django_assert_num_queries(4):
        client.get(f"/clubs/{theirs.club.slug}/players/{big.players[0].pk}/")


def test_a_players_page_follows_each_change(client: Client, world: World) -> None:
    player, _partner = regular(world)
    path = f"/api/v1/clubs/{world.club.slug}/players/{player.pk}"
    assert len(client.get(path).json()["nights"]) == 5
    drive_update(drive=world.drives[0], actor=DESK, published=False)
    assert len(client.get(path).json()["nights"]) == 4
    names_shown(world.club, "full")
    assert client.get(path).json()["name"] == player.name


def test_the_season_on_the_club_page_follows_each_change(client: Client, world: World) -> None:
    path = f"/api/v1/clubs/{world.club.slug}"
    assert client.get(path).json()["season"]["drives"] == 5
    season_remove_drive(season=world.season, drive=world.drives[0], actor=DESK)
    assert client.get(path).json()["season"]["drives"] == 4
    before = client.get(path).json()["season"]["standings"]
    # A result of a night changed (and audited: the drive's version moves).
    seat = Seat.objects.filter(game__drive=world.drives[-1], arrives__isnull=False).first()
    assert seat is not None
    Result.objects.filter(seat=seat).update(
        winner=seat.stays if seat.result.winner_id == seat.arrives_id else seat.arrives
    )
    drive_changed(world.drives[-1].pk, Change.RESULT)
    assert client.get(path).json()["season"]["standings"] != before
