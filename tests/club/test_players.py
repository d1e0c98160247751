"""The club keeps its players from one night to the next: every couple registered (at the
door, through the API, from a CSV file) is two of them, the door's type-ahead offers them,
and the organizer merges two found to be one."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from club.services import player_add, player_merge
from drives.errors import Conflict
from drives.models import AuditEntry, Couple, Player
from drives.services import couple_update, couples_import_csv, couples_register, drive_create
from scoring.records.export import drive_export
from scoring.records.restore import drive_restore
from tests.api.helpers import DESK
from tests.pages.organizer_helpers import logged_in

pytestmark = pytest.mark.django_db


def night(club: Any, day: int, *couples: tuple[str, str], **kw: Any) -> Any:
    drive = drive_create(club=club, name=f"Night {day}", date=date(2026, 11, day))
    if couples:
        couples_register(drive=drive, couples=[{"players": list(c)} for c in couples], **kw)
    return drive


def members(drive: Any) -> list[tuple[str, str]]:
    return [
        (c.member1.name, c.member2.name)
        for c in Couple.objects.filter(drive=drive).select_related("member1", "member2")
    ]


def test_the_same_person_on_two_nights_is_one_player(ours: Any) -> None:
    first = night(ours.club, 6, ("Thérèse MacNeil", "Angus MacDonald"))
    second = night(ours.club, 13, ("therese  macneil", "ANGUS MACDONALD"))
    one, two = Couple.objects.get(drive=first), Couple.objects.get(drive=second)
    assert (one.member1_id, one.member2_id) == (two.member1_id, two.member2_id)
    assert Player.objects.filter(club=ours.club).count() == 2
    # The night keeps its names as typed; the player keeps the name as first written.
    assert two.players == ["therese macneil", "ANGUS MACDONALD"]
    assert two.member1.name == "Thérèse MacNeil"


def test_a_new_name_makes_a_new_player_of_this_club_only(ours: Any, theirs: Any) -> None:
    night(ours.club, 6, ("Mary MacDonald", "Angus MacDonald"))
    night(theirs.club, 6, ("Mary MacDonald", "Flora Gillis"))
    assert Player.objects.filter(club=ours.club).count() == 2
    assert sorted(Player.objects.filter(club=theirs.club).values_list("name", flat=True)) == [
        "Flora Gillis",
        "Mary MacDonald",
    ]


def test_the_csv_import_links_its_couples_too(ours: Any) -> None:
    night(ours.club, 6, ("Mary MacDonald", "Angus MacDonald"))
    later = drive_create(club=ours.club, name="Later", date=date(2026, 11, 20))
    couples_import_csv(drive=later, data=b"player1,player2\nmary macdonald,Dan Gillis\n")
    assert members(later) == [("Mary MacDonald", "Dan Gillis")]


def test_a_corrected_spelling_keeps_the_player_and_a_new_name_changes_it(ours: Any) -> None:
    drive = night(ours.club, 6, ("Mary MacDonald", "Angus MacDonald"))
    couple = Couple.objects.get(drive=drive)
    mary = couple.member1
    couple_update(couple=couple, actor=DESK, player1="Mary Macdonald")
    couple.refresh_from_db()
    assert couple.member1 == mary
    couple_update(couple=couple, actor=DESK, player1="Flora Gillis")
    couple.refresh_from_db()
    assert couple.member1.name == "Flora Gillis"


# --- the API ------------------------------------------------------------------------------------


def test_type_ahead_finds_therese_from_ther_without_phone_or_email(api: Any, ours: Any) -> None:
    night(ours.club, 6, ("Thérèse MacNeil", "Angus MacDonald"), ("Mary Theriault", "Joe Ng"))
    therese = Player.objects.get(name="Thérèse MacNeil")
    therese.phone, therese.email = "902-555-0101", "therese@example.org"
    therese.save()
    found = api.get(f"clubs/{ours.club.slug}/players?q=ther", token=ours.scorer_token)
    assert found.status_code == 200
    assert found.json() == [
        {"id": therese.pk, "name": "Thérèse MacNeil", "nights": 1, "last_night": "2026-11-06"},
        {
            "id": Player.objects.get(name="Mary Theriault").pk,
            "name": "Mary Theriault",
            "nights": 1,
            "last_night": "2026-11-06",
        },
    ]
    assert "902-555" not in found.content.decode()
    assert "example.org" not in found.content.decode()
    assert api.get(f"clubs/{ours.club.slug}/players?q=", token=ours.scorer_token).json() == []


def test_type_ahead_of_another_club_is_a_404(api: Any, ours: Any, theirs: Any) -> None:
    night(ours.club, 6, ("Thérèse MacNeil", "Angus MacDonald"))
    answer = api.get(f"clubs/{ours.club.slug}/players?q=ther", token=theirs.org_token)
    assert answer.status_code == 404


def test_the_door_links_the_chosen_player(api: Any, ours: Any) -> None:
    night(ours.club, 6, ("Mary MacDonald", "Angus MacDonald"))
    other = player_add(club=ours.club, name="Mary MacDonald", actor=DESK)
    drive = night(ours.club, 13)
    answer = api.post(
        f"drives/{drive.slug}/couples",
        {"players": ["Mary MacDonald", "Dan Gillis"], "player_ids": [other.pk, None]},
        token=ours.org_token,
    )
    assert answer.status_code == 201, answer.json()
    assert Couple.objects.get(drive=drive).member1_id == other.pk


def test_another_clubs_player_id_is_refused_and_nothing_written(
    api: Any, ours: Any, theirs: Any
) -> None:
    night(theirs.club, 6, ("Flora Gillis", "Dan Gillis"))
    flora = Player.objects.get(club=theirs.club, name="Flora Gillis")
    drive = night(ours.club, 13)
    answer = api.post(
        f"drives/{drive.slug}/couples",
        {"players": ["Flora Gillis", "New Person"], "player_ids": [flora.pk, None]},
        token=ours.org_token,
    )
    assert answer.status_code == 422
    assert answer.json()["code"] == "unknown_player"
    assert not Couple.objects.filter(drive=drive).exists()
    assert not Player.objects.filter(club=ours.club).exists()


def test_two_players_of_one_name_are_asked_about_at_the_door(api: Any, ours: Any) -> None:
    night(ours.club, 6, ("Mary MacDonald", "Angus MacDonald"))
    first = Player.objects.get(name="Mary MacDonald")
    second = player_add(club=ours.club, name="Mary MacDonald", actor=DESK)
    drive = night(ours.club, 13)
    answer = api.post(
        f"drives/{drive.slug}/couples",
        {"players": ["mary macdonald", "Dan Gillis"]},
        token=ours.org_token,
    )
    assert answer.status_code == 409
    body = answer.json()
    assert body["code"] == "which_player"
    assert body["candidates"] == [
        {"id": first.pk, "name": "Mary MacDonald", "last_night": "2026-11-06"},
        {"id": second.pk, "name": "Mary MacDonald", "last_night": None},
    ]
    assert not Couple.objects.filter(drive=drive).exists()
    assert not Player.objects.filter(name="Dan Gillis").exists()
    # A script does not ask: the one seen most recently plays.
    couples_register(drive=drive, couples=[{"players": ["Mary MacDonald", "Dan Gillis"]}])
    assert Couple.objects.get(drive=drive).member1_id == first.pk


def test_the_door_page_asks_which_one_and_registers_the_answer(ours: Any) -> None:
    night(ours.club, 6, ("Mary MacDonald", "Angus MacDonald"))
    second = player_add(club=ours.club, name="Mary MacDonald", actor=DESK)
    drive = night(ours.club, 13)
    client = logged_in(ours.scorer)
    url = f"/drives/{drive.slug}/couples/"
    form = {"player1": "Dan Gillis", "player2": "Mary MacDonald", "checked_in": "on"}
    asked = client.post(url, form)
    assert asked.status_code == 409
    page = asked.content.decode()
    assert "Which Mary MacDonald plays?" in page
    assert f'name="player2_id" value="{second.pk}"' in page
    done = client.post(url, {**form, "player2_id": str(second.pk)})
    assert done.status_code == 302
    assert Couple.objects.get(drive=drive).member2_id == second.pk


# --- the players page ---------------------------------------------------------------------------


def test_the_merge_relinks_both_nights_and_is_audited(ours: Any) -> None:
    first = night(ours.club, 6, ("Mary MacDonald", "Angus MacDonald"))
    second = night(ours.club, 13, ("Mary McDonald", "Angus MacDonald"))
    mary = Player.objects.get(name="Mary MacDonald")
    typo = Player.objects.get(name="Mary McDonald")
    client = logged_in(ours.organizer)
    page = client.get(f"/clubs/{ours.club.slug}/players/")
    assert page.status_code == 200
    assert "Merge Mary McDonald into Mary MacDonald" in page.content.decode()
    merged = client.post(
        f"/clubs/{ours.club.slug}/players/", {"action": "merge", "keep": mary.pk, "gone": typo.pk}
    )
    assert merged.status_code == 302
    assert members(first) == [("Mary MacDonald", "Angus MacDonald")]
    assert members(second) == [("Mary MacDonald", "Angus MacDonald")]
    assert Couple.objects.get(drive=second).player1 == "Mary McDonald"  # as typed that night
    assert not Player.objects.filter(pk=typo.pk).exists()
    entry = AuditEntry.objects.get(action="player.merge")
    assert entry.old == {"id": typo.pk, "name": "Mary McDonald"}
    assert entry.new == {"id": mary.pk, "name": "Mary MacDonald"}
    assert entry.club_id == ours.club.pk and entry.user == ours.organizer
    listing = client.get(f"/clubs/{ours.club.slug}/players/?q=mary").content.decode()
    assert "Mary McDonald is now Mary MacDonald (1 couple relinked)." in listing
    assert listing.count("data-player=") == 1


def test_a_merge_across_clubs_is_refused(ours: Any, theirs: Any) -> None:
    night(ours.club, 6, ("Mary MacDonald", "Angus MacDonald"))
    night(theirs.club, 6, ("Mary MacDonald", "Angus MacDonald"))
    mary = Player.objects.get(club=ours.club, name="Mary MacDonald")
    theirs_mary = Player.objects.get(club=theirs.club, name="Mary MacDonald")
    client = logged_in(ours.organizer)
    answer = client.post(
        f"/clubs/{ours.club.slug}/players/",
        {"action": "merge", "keep": mary.pk, "gone": theirs_mary.pk},
    )
    assert answer.status_code == 404
    with pytest.raises(Exception, match="No such player"):
        player_merge(keep=mary, gone=theirs_mary, actor=DESK)
    assert Player.objects.filter(pk=theirs_mary.pk).exists()


def test_a_scorer_sees_the_players_but_not_their_phone_and_cannot_merge(ours: Any) -> None:
    night(ours.club, 6, ("Mary MacDonald", "Angus MacDonald"), ("M. MacDonald", "Joe Ng"))
    mary = Player.objects.get(name="Mary MacDonald")
    mary.phone = "902-555-0101"
    mary.save()
    client = logged_in(ours.scorer)
    page = client.get(f"/clubs/{ours.club.slug}/players/").content.decode()
    assert "Mary MacDonald" in page and "902-555-0101" not in page
    other = Player.objects.get(name="M. MacDonald")
    refused = client.post(
        f"/clubs/{ours.club.slug}/players/", {"action": "merge", "keep": mary.pk, "gone": other.pk}
    )
    assert refused.status_code == 403
    assert Player.objects.filter(pk=other.pk).exists()


def test_the_organizer_edits_a_players_contact(ours: Any) -> None:
    night(ours.club, 6, ("Mary MacDonald", "Angus MacDonald"))
    mary = Player.objects.get(name="Mary MacDonald")
    client = logged_in(ours.organizer)
    url = f"/clubs/{ours.club.slug}/players/{mary.pk}/edit"
    bad = client.post(url, {"name": "Mary MacDonald", "phone": "", "email": "not an address"})
    assert bad.status_code == 422
    assert "e-mail address" in bad.content.decode()
    good = client.post(url, {"name": "Mary MacDonald", "phone": "902-555-0101", "email": ""})
    assert good.status_code == 302
    mary.refresh_from_db()
    assert mary.phone == "902-555-0101"
    assert AuditEntry.objects.filter(action="player.update", club=ours.club).exists()


def test_a_restored_drive_links_its_couples_to_the_clubs_players(ours: Any) -> None:
    night(ours.club, 6, ("Thérèse MacNeil", "Angus MacDonald"))
    drive = night(ours.club, 13, ("therese macneil", "Flora Gillis"))
    data = drive_export(drive)
    players = Player.objects.filter(club=ours.club).count()
    drive_restore(data=data, replace=True)
    restored = Couple.objects.get(drive__slug=drive.slug)
    assert restored.member1 == Player.objects.get(name="Thérèse MacNeil")
    assert restored.member2.name == "Flora Gillis"
    assert Player.objects.filter(club=ours.club).count() == players


def queries_of(client_call: Any) -> int:
    with CaptureQueriesContext(connection) as captured:
        answer = client_call()
    assert answer.status_code == 200
    return len(captured)


def test_the_type_ahead_and_the_players_page_take_the_same_queries_for_more_players(
    api: Any, ours: Any
) -> None:
    client = logged_in(ours.organizer)
    night(ours.club, 6, ("Mary MacDonald", "Mary Gillis"))

    def ask() -> Any:
        return api.get(f"clubs/{ours.club.slug}/players?q=mary", token=ours.scorer_token)

    def page() -> Any:
        return client.get(f"/clubs/{ours.club.slug}/players/")

    queries_of(ask)  # the token's first use of the day is written down once
    few = queries_of(ask), queries_of(page)
    for day in (13, 20):
        night(ours.club, day, *[(f"Mary Ng{day}{i}", f"Joe Ng{day}{i}") for i in range(8)])
    assert (queries_of(ask), queries_of(page)) == few


def test_two_people_of_one_name_in_one_night_are_two_players(ours: Any) -> None:
    # Two John MacNeils came on the same night: they are two people, whatever the club
    # knew of the name before, and the older John keeps his history.
    night(ours.club, 6, ("John MacNeil", "Angus MacDonald"))
    john = Player.objects.get(name="John MacNeil")
    drive = night(ours.club, 13, ("John MacNeil", "Flora Gillis"))
    couples_register(drive=drive, couples=[{"players": ["john macneil", "Dan Gillis"]}])
    first, second = Couple.objects.filter(drive=drive).order_by("number")
    assert first.member1_id == john.pk
    assert second.member1_id != john.pk
    assert Player.objects.filter(club=ours.club, key="john macneil").count() == 2
    # Within one list (a CSV file, a couple of two Pat Smiths) each name is its own person.
    other = night(ours.club, 20, ("Pat Smith", "Pat Smith"))
    pair = Couple.objects.get(drive=other)
    assert pair.member1_id != pair.member2_id
    # The next week, one John MacNeil comes: the club asks which (both have played).
    later = night(ours.club, 27)
    with pytest.raises(Conflict) as asked:
        couples_register(
            drive=later,
            couples=[{"players": ["John MacNeil", "Dan Gillis"]}],
            allow_duplicates=False,
        )
    assert asked.value.code == "which_player"


def test_a_player_chosen_twice_in_one_night_is_refused(api: Any, ours: Any) -> None:
    drive = night(ours.club, 13, ("Mary MacDonald", "Angus MacDonald"))
    mary = Player.objects.get(name="Mary MacDonald")
    answer = api.post(
        f"drives/{drive.slug}/couples",
        {"players": ["Mary MacDonald", "Dan Gillis"], "player_ids": [mary.pk, None]},
        token=ours.org_token,
    )
    assert answer.status_code == 409
    body = answer.json()
    assert body["code"] == "player_playing"
    assert body["couple"] == 1
    assert Couple.objects.filter(drive=drive).count() == 1
    assert not Player.objects.filter(name="Dan Gillis").exists()


def test_renaming_a_couple_keeps_its_own_players(ours: Any) -> None:
    drive = night(ours.club, 13, ("Mary MacDonald", "Angus MacDonald"))
    couple = Couple.objects.get(drive=drive)
    before = (couple.member1_id, couple.member2_id)
    couple = couple_update(couple=couple, actor=DESK, players=["Mary Macdonald", "Angus MacDonald"])
    assert (couple.member1_id, couple.member2_id) == before
