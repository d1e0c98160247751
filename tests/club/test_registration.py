"""Registration before the night: couples (or a player looking for a partner) register on the
drive's public page or through the API without an account, while the registration is open; past
the capacity they are wait-listed and move up by themselves when a couple cancels (the cancel
link, once); at the door a registered couple is checked in with one tap and becomes a couple
of the night, linked to the club's players; one not checked in is never seated; two singles
are paired once the organizer confirms. Bad input: a clear 4xx and nothing written."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from drives.models import AuditEntry, Club, Couple, Drive, Player, Registration, Seat
from drives.registrations import registration_create
from drives.services import couples_register, drive_create, drive_start, drive_update
from scoring.records.export import drive_export
from scoring.records.restore import drive_restore
from tests.api.helpers import DESK, Api, ClubUsers
from tests.pages.organizer_helpers import logged_in

pytestmark = pytest.mark.django_db

MARY, ANGUS = "Mary MacDonald", "Angus MacDonald"


def open_drive(club: Any, *, capacity: int | None = None, **settings: Any) -> Drive:
    """A drive of next week whose registration opened an hour ago."""
    now = timezone.now()
    return drive_create(
        club=club,
        name="Friday 45s",
        date=date.today() + timedelta(days=7),
        registration_opens=now - timedelta(hours=1),
        capacity=capacity,
        **settings,
    )


def path(drive: Drive) -> str:
    return f"drives/{drive.slug}/registrations"


def register(api: Api, drive: Drive, *players: str, **body: Any) -> Any:
    return api.post(path(drive), {"players": list(players), **body})


def nothing_written(drive: Drive) -> bool:
    return not Registration.objects.filter(drive=drive).exists()


# --- the API ------------------------------------------------------------------------------------


def test_a_couple_registers_without_a_login(api: Api, ours: ClubUsers) -> None:
    drive = open_drive(ours.club)
    answer = register(api, drive, MARY, ANGUS, contact="902-555-0101")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["status"] == "registered" and body["position"] == 1
    assert body["cancel_url"].startswith("http://testserver/register/cancel/")
    row = Registration.objects.get(drive=drive)
    assert row.players == [MARY, ANGUS] and row.contact == "902-555-0101"
    assert len(row.token) >= 22 and row.token in body["cancel_url"]
    # Its two names are the club's players, as at the door.
    assert {row.member1.name, row.member2.name} == {MARY, ANGUS}
    entry = AuditEntry.objects.get(action="registration.create")
    assert entry.drive_id == drive.pk and entry.channel == "api"
    second = register(api, drive, "Flora Gillis", "Joe Gillis").json()
    assert second["position"] == 2


def test_past_the_capacity_couples_are_wait_listed_in_order(api: Api, ours: ClubUsers) -> None:
    drive = open_drive(ours.club, capacity=2)
    for p1, p2 in [("A1", "B1"), ("A2", "B2")]:
        assert register(api, drive, p1, p2).json()["status"] == "registered"
    third = register(api, drive, "A3", "B3").json()
    fourth = register(api, drive, "A4", "B4").json()
    assert (third["status"], third["position"]) == ("waitlisted", 1)
    assert (fourth["status"], fourth["position"]) == ("waitlisted", 2)
    # A single looking for a partner is listed for the door, never wait-listed.
    single = register(api, drive, "Flora Gillis").json()
    assert (single["status"], single["position"]) == ("registered", 1)
    assert Registration.objects.get(player1="Flora Gillis").single


def test_a_cancel_moves_the_wait_list_up_by_itself(ours: ClubUsers) -> None:
    drive = open_drive(ours.club, capacity=1)
    client = Client()
    first = registration_create(drive=drive, players=["A1", "B1"])[0]
    waiting = registration_create(drive=drive, players=["A2", "B2"])[0]
    last = registration_create(drive=drive, players=["A3", "B3"])[0]
    url = reverse("drive-register-cancel", kwargs={"token": first.token})
    page = client.get(url)
    assert page.status_code == 200 and "A1 &amp; B1" in page.content.decode()
    assert client.post(url).status_code == 200
    first.refresh_from_db()
    waiting.refresh_from_db()
    last.refresh_from_db()
    assert first.status == "cancelled" and first.cancelled_at is not None
    assert waiting.status == "registered"
    assert last.status == "waitlisted"
    # The link used again: a clear answer, and nothing moves.
    again = client.post(url)
    assert again.status_code == 410
    assert "already cancelled" in again.content.decode()
    last.refresh_from_db()
    assert last.status == "waitlisted"
    assert AuditEntry.objects.filter(action="registration.cancel").count() == 1


def test_an_unknown_cancel_link_is_404(ours: ClubUsers) -> None:
    url = reverse("drive-register-cancel", kwargs={"token": "x" * 22})
    assert Client().post(url).status_code == 404


@pytest.mark.parametrize(
    ("players", "code", "status"),
    [
        ([], "bad_players", 422),
        (["A", "B", "C"], "bad_players", 422),
        ([""], "missing_player", 422),
        (["\u200b\u200c", ANGUS], "missing_player", 422),
        ([MARY, "   "], "missing_player", 422),
        (["x" * 81, ANGUS], "name_too_long", 422),
        ("Mary", "bad_players", 422),
    ],
)
def test_bad_names_are_refused_and_nothing_is_written(
    api: Api, ours: ClubUsers, players: Any, code: str, status: int
) -> None:
    drive = open_drive(ours.club)
    answer = api.post(path(drive), {"players": players})
    assert answer.status_code == status, answer.content
    assert answer.json()["code"] == code
    assert nothing_written(drive)
    assert not Player.objects.filter(club=ours.club).exists()


def test_a_contact_too_long_and_an_unknown_field_are_refused(api: Api, ours: ClubUsers) -> None:
    drive = open_drive(ours.club)
    long = register(api, drive, MARY, ANGUS, contact="x" * 121)
    assert long.status_code == 422 and long.json()["field"] == "contact"
    other = register(api, drive, MARY, ANGUS, paid=True)
    assert other.status_code == 422 and other.json()["code"] == "unknown_field"
    assert nothing_written(drive)


def test_registration_not_open_yet_closed_or_none(api: Api, ours: ClubUsers) -> None:
    now = timezone.now()
    drive = open_drive(ours.club)
    drive_update(drive=drive, actor=DESK, registration_opens=now + timedelta(days=1))
    answer = register(api, drive, MARY, ANGUS)
    assert answer.status_code == 409 and answer.json()["code"] == "registration_not_open"
    drive_update(
        drive=drive,
        actor=DESK,
        registration_opens=now - timedelta(days=2),
        registration_closes=now - timedelta(days=1),
    )
    answer = register(api, drive, MARY, ANGUS)
    assert answer.status_code == 409 and answer.json()["code"] == "registration_closed"
    plain = drive_create(club=ours.club, name="No registration", date=date(2026, 12, 4))
    answer = register(api, plain, MARY, ANGUS)
    assert answer.status_code == 409 and answer.json()["code"] == "registration_not_open"
    assert not Registration.objects.exists()
    unknown = api.post("drives/nobody/registrations", {"players": [MARY, ANGUS]})
    assert unknown.status_code == 404


def test_registration_closes_when_the_night_starts(api: Api, ours: ClubUsers) -> None:
    drive = open_drive(ours.club)
    couples_register(drive=drive, couples=[{"players": [f"A{i}", f"B{i}"]} for i in range(4)])
    drive_start(drive=drive, actor=DESK)
    answer = register(api, drive, MARY, ANGUS)
    assert answer.status_code == 409 and answer.json()["code"] == "registration_closed"


def test_the_same_couple_twice_is_asked_about(api: Api, ours: ClubUsers) -> None:
    drive = open_drive(ours.club)
    assert register(api, drive, MARY, ANGUS).status_code == 201
    again = register(api, drive, "angus  MACDONALD", "Mary Macdonald")
    assert again.status_code == 409
    assert again.json()["code"] == "duplicate_registration"
    assert again.json()["players"] == ["angus MACDONALD", "Mary Macdonald"]
    assert Registration.objects.filter(drive=drive).count() == 1
    anyway = register(api, drive, MARY, ANGUS, duplicate_ok=True)
    assert anyway.status_code == 201
    assert Registration.objects.filter(drive=drive).count() == 2


def test_a_couple_already_at_the_door_is_asked_about_too(api: Api, ours: ClubUsers) -> None:
    drive = open_drive(ours.club)
    couples_register(drive=drive, couples=[{"players": [MARY, ANGUS]}])
    answer = register(api, drive, ANGUS, MARY)
    assert answer.status_code == 409 and answer.json()["code"] == "duplicate_registration"


@override_settings(RATELIMIT_REGISTRATIONS=5)
def test_twenty_an_hour_from_one_address_always_pass(api: Api, ours: ClubUsers) -> None:
    cache.clear()
    drive = open_drive(ours.club)
    for i in range(20):  # a family, or a hall's one shared connection
        assert register(api, drive, f"A{i}", f"B{i}").status_code == 201
    refused = register(api, drive, "A20", "B20")
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert int(refused["Retry-After"]) > 0
    assert Registration.objects.filter(drive=drive).count() == 20
    # Another address is not held back.
    other = api.post(path(drive), {"players": ["C1", "D1"]}, REMOTE_ADDR="10.0.0.9")
    assert other.status_code == 201


def test_refused_registrations_do_not_count(api: Api, ours: ClubUsers) -> None:
    cache.clear()
    drive = open_drive(ours.club)
    for _ in range(40):
        assert register(api, drive, "", ANGUS).status_code == 422
    assert register(api, drive, MARY, ANGUS).status_code == 201


def test_only_organizers_list_the_registrations(api: Api, ours: ClubUsers, theirs: Any) -> None:
    drive = open_drive(ours.club, capacity=1)
    registration_create(drive=drive, players=[MARY, ANGUS], contact="mary@example.org")
    registration_create(drive=drive, players=["A2", "B2"])
    listed = api.get(path(drive), token=ours.org_token)
    assert listed.status_code == 200
    rows = listed.json()
    assert [(r["players"], r["status"], r["position"]) for r in rows] == [
        ([MARY, ANGUS], "registered", 1),
        (["A2", "B2"], "waitlisted", 1),
    ]
    assert rows[0]["contact"] == "mary@example.org" and rows[0]["couple"] is None
    assert api.get(path(drive), token=ours.scorer_token).status_code == 403
    assert api.get(path(drive), token=theirs.org_token).status_code == 404
    assert api.get(path(drive)).status_code == 401


def test_the_public_type_ahead_only_while_open(api: Api, ours: ClubUsers) -> None:
    drive = open_drive(ours.club)
    Club.objects.filter(pk=ours.club.pk).update(public_names=Club.PublicNames.FULL)
    couples_register(
        drive=drive_create(club=ours.club, name="Before", date=date(2026, 1, 9)),
        couples=[{"players": ["Thérèse MacNeil", ANGUS]}],
    )
    Player.objects.filter(name=ANGUS).update(phone="902-555-0199")
    found = api.get(f"{path(drive)}/players?q=ther").json()
    assert [p["name"] for p in found] == ["Thérèse MacNeil"]
    assert set(found[0]) == {"id", "name", "nights", "last_night"}
    assert api.get(f"{path(drive)}/players?q=th").json() == []  # at least 3 letters
    # A club that shows only first names with an initial (the default), or no names, does
    # not show its list of players to anyone.
    for names in (Club.PublicNames.INITIAL, Club.PublicNames.NONE):
        Club.objects.filter(pk=ours.club.pk).update(public_names=names)
        assert api.get(f"{path(drive)}/players?q=ther").json() == []
    Club.objects.filter(pk=ours.club.pk).update(public_names=Club.PublicNames.FULL)
    drive_update(drive=drive, actor=DESK, registration_opens=None)
    assert api.get(f"{path(drive)}/players?q=ther").json() == []


def test_a_player_chosen_in_the_type_ahead_is_that_player(api: Api, ours: ClubUsers) -> None:
    drive = open_drive(ours.club)
    one = Player.objects.create(club=ours.club, name=MARY, key="mary macdonald")
    Player.objects.create(club=ours.club, name=MARY, key="mary macdonald")
    answer = register(api, drive, MARY, ANGUS, player_ids=[one.pk, None])
    assert answer.status_code == 201
    assert Registration.objects.get().member1_id == one.pk


# --- the drive's settings ------------------------------------------------------------------------


def test_the_settings_through_the_api_and_the_export(api: Api, ours: ClubUsers) -> None:
    drive = drive_create(club=ours.club, name="Friday 45s", date=date(2026, 11, 20))
    body = {
        "registration_opens": "2026-11-01T09:00:00-04:00",
        "registration_closes": "2026-11-20T17:00:00-04:00",
        "capacity": 30,
    }
    answer = api.patch(f"drives/{drive.slug}", body, token=ours.org_token)
    assert answer.status_code == 200, answer.content
    shown = answer.json()
    assert shown["capacity"] == 30
    opens = datetime.fromisoformat(shown["registration_opens"])
    assert opens == datetime(2026, 11, 1, 13, 0, tzinfo=UTC)
    reversed_ = api.patch(
        f"drives/{drive.slug}",
        {"registration_closes": "2026-10-01T09:00:00-04:00"},
        token=ours.org_token,
    )
    assert reversed_.status_code == 422 and reversed_.json()["field"] == "registration_closes"
    bad = api.patch(f"drives/{drive.slug}", {"capacity": 0}, token=ours.org_token)
    assert bad.status_code == 422 and bad.json()["field"] == "capacity"
    stored = Drive.objects.get(pk=drive.pk)
    record = drive_export(stored)
    assert record["drive"]["capacity"] == 30
    drive_restore(data=json.loads(json.dumps(record)), replace=True)
    copy = Drive.objects.get(slug=drive.slug)
    assert copy.pk != stored.pk and copy.capacity == 30
    assert copy.registration_opens == stored.registration_opens
    assert copy.registration_closes == stored.registration_closes


def test_the_settings_page_takes_them(ours: ClubUsers) -> None:
    drive = drive_create(club=ours.club, name="Friday 45s", date=date(2026, 11, 20))
    client = logged_in(ours.organizer)
    page = client.get(reverse("drives:settings", kwargs={"slug": drive.slug}))
    form = page.context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None and not isinstance(v, dict)}
    data |= {
        "date": "2026-11-20",
        "registration_opens": "2026-11-01T09:00",
        "registration_closes": "2026-11-20T17:00",
        "capacity": "24",
    }
    data = {k: v for k, v in data.items() if not isinstance(v, bool) or v}
    answer = client.post(reverse("drives:settings", kwargs={"slug": drive.slug}), data)
    assert answer.status_code == 302, answer.context["form"].errors
    drive.refresh_from_db()
    assert drive.capacity == 24
    assert timezone.localtime(drive.registration_opens).hour == 9


# --- the public page ----------------------------------------------------------------------------


def test_the_public_page_registers_and_gives_the_cancel_link(ours: ClubUsers) -> None:
    drive = open_drive(ours.club)
    client = Client()
    url = reverse("drive-register", kwargs={"slug": drive.slug})
    page = client.get(url)
    assert page.status_code == 200
    assert 'name="player1"' in page.content.decode()
    answer = client.post(url, {"player1": MARY, "player2": ANGUS, "contact": ""})
    assert answer.status_code == 201
    text = answer.content.decode()
    assert "You are registered" in text
    token = Registration.objects.get().token
    assert reverse("drive-register-cancel", kwargs={"token": token}) in text


def test_the_public_page_says_what_is_wrong(ours: ClubUsers) -> None:
    drive = open_drive(ours.club)
    client = Client()
    url = reverse("drive-register", kwargs={"slug": drive.slug})
    no_partner = client.post(url, {"player1": MARY, "player2": ""})
    assert no_partner.status_code == 422
    assert "looking for a partner" in no_partner.content.decode()
    invisible = client.post(url, {"player1": "\u200b", "player2": ANGUS})
    assert invisible.status_code == 422
    assert nothing_written(drive)
    single = client.post(url, {"player1": MARY, "single": "on"})
    assert single.status_code == 201 and "looking for a partner" in single.content.decode()
    assert client.post(url, {"player1": MARY, "single": "on"}).status_code == 409
    asked = client.post(url, {"player1": MARY, "single": "on"})
    assert 'data-testid="register-anyway"' in asked.content.decode()


def test_the_public_page_when_full_says_wait_list(ours: ClubUsers) -> None:
    drive = open_drive(ours.club, capacity=1)
    registration_create(drive=drive, players=["A1", "B1"])
    answer = Client().post(
        reverse("drive-register", kwargs={"slug": drive.slug}),
        {"player1": MARY, "player2": ANGUS},
    )
    assert answer.status_code == 201
    assert "wait list: number 1" in answer.content.decode()


def test_the_public_page_in_french_for_a_french_hall(ours: ClubUsers) -> None:
    drive = open_drive(ours.club, language="fr")
    page = Client().get(reverse("drive-register", kwargs={"slug": drive.slug}))
    text = page.content.decode()
    assert "Inscription à Friday 45s" in text and "Votre nom" in text


def test_a_closed_registration_page_says_so(ours: ClubUsers) -> None:
    drive = open_drive(ours.club)
    drive_update(drive=drive, actor=DESK, registration_closes=timezone.now() - timedelta(minutes=1))
    url = reverse("drive-register", kwargs={"slug": drive.slug})
    page = Client().get(url)
    assert page.status_code == 200 and 'name="player1"' not in page.content.decode()
    assert "closed: come to the door" in page.content.decode()
    posted = Client().post(url, {"player1": MARY, "player2": ANGUS})
    assert posted.status_code == 409 and nothing_written(drive)


def test_a_drive_taking_no_registration_has_no_public_page(ours: ClubUsers) -> None:
    drive = drive_create(club=ours.club, name="Friday 45s", date=date(2026, 11, 20))
    url = reverse("drive-register", kwargs={"slug": drive.slug})
    assert Client().get(url).status_code == 404
    assert Client().post(url, {"player1": MARY, "player2": ANGUS}).status_code == 404
    assert nothing_written(drive)


# --- at the door --------------------------------------------------------------------------------


def test_check_in_makes_a_couple_of_the_night(ours: ClubUsers) -> None:
    drive = open_drive(ours.club)
    registration = registration_create(drive=drive, players=[MARY, ANGUS])[0]
    client = logged_in(ours.scorer)
    door = client.get(reverse("drives:couples", kwargs={"slug": drive.slug}))
    assert f'data-testid="check-in-{registration.pk}"' in door.content.decode()
    url = reverse(
        "drives:registration_check_in", kwargs={"slug": drive.slug, "pk": registration.pk}
    )
    assert client.post(url).status_code == 302
    couple = Couple.objects.get(drive=drive)
    assert couple.players == [MARY, ANGUS] and couple.checked_in
    assert (couple.member1_id, couple.member2_id) == (
        registration.member1_id,
        registration.member2_id,
    )
    registration.refresh_from_db()
    assert registration.couple_id == couple.pk
    # A second tap changes nothing.
    client.post(url)
    assert Couple.objects.filter(drive=drive).count() == 1
    door = client.get(reverse("drives:couples", kwargs={"slug": drive.slug}))
    assert f'data-testid="check-in-{registration.pk}"' not in door.content.decode()
    # The cancel link no longer cancels a couple at its table.
    cancel = Client().post(reverse("drive-register-cancel", kwargs={"token": registration.token}))
    assert cancel.status_code == 409


def test_a_registered_couple_not_checked_in_is_never_seated(ours: ClubUsers) -> None:
    drive = open_drive(ours.club)
    registration_create(drive=drive, players=[MARY, ANGUS])
    couples_register(drive=drive, couples=[{"players": [f"A{i}", f"B{i}"]} for i in range(4)])
    drive_start(drive=drive, actor=DESK)
    seated = Seat.objects.filter(game__drive=drive)
    names = {
        name
        for seat in seated.select_related("stays", "arrives")
        for couple in (seat.stays, seat.arrives)
        if couple is not None
        for name in couple.players
    }
    assert MARY not in names and len(names) == 8


def test_two_singles_are_paired_once_the_organizer_confirms(ours: ClubUsers) -> None:
    drive = open_drive(ours.club)
    one = registration_create(drive=drive, players=[MARY])[0]
    two = registration_create(drive=drive, players=["Flora Gillis"])[0]
    client = logged_in(ours.organizer)
    url = reverse("drives:registrations_pair", kwargs={"slug": drive.slug})
    question = client.get(url, {"first": one.pk, "second": two.pk})
    assert question.status_code == 200
    assert "Mary MacDonald &amp; Flora Gillis" in question.content.decode()
    assert not Couple.objects.filter(drive=drive).exists()  # asked, not done
    assert client.post(url, {"first": one.pk, "second": two.pk}).status_code == 302
    couple = Couple.objects.get(drive=drive)
    assert couple.players == [MARY, "Flora Gillis"] and couple.checked_in
    assert set(Registration.objects.values_list("couple", flat=True)) == {couple.pk}
    same = client.get(url, {"first": one.pk, "second": one.pk})
    assert same.status_code == 302


def test_walk_ins_are_registered_as_before(ours: ClubUsers) -> None:
    drive = open_drive(ours.club, capacity=1)
    registration_create(drive=drive, players=["A1", "B1"])
    client = logged_in(ours.organizer)
    answer = client.post(
        reverse("drives:couples", kwargs={"slug": drive.slug}),
        {"player1": MARY, "player2": ANGUS},
    )
    assert answer.status_code == 302
    assert Couple.objects.get(drive=drive).players == [MARY, ANGUS]


def test_the_members_list_of_registrations(ours: ClubUsers, theirs: Any) -> None:
    drive = open_drive(ours.club, capacity=1)
    for i in range(5):
        registration_create(drive=drive, players=[f"A{i}", f"B{i}"], contact=f"90255501{i:02}")
    url = reverse("drives:registrations", kwargs={"slug": drive.slug})
    page = logged_in(ours.organizer).get(url)
    text = page.content.decode()
    assert page.status_code == 200 and "A0 &amp; B0" in text and "9025550104" in text
    scorer = logged_in(ours.scorer).get(url).content.decode()
    assert "A0 &amp; B0" in scorer and "9025550104" not in scorer  # contacts: organizers
    assert logged_in(theirs.organizer).get(url).status_code == 404
    assert Client().get(url).status_code == 302


def test_the_door_and_the_list_take_a_fixed_number_of_queries(ours: ClubUsers) -> None:
    drive = open_drive(ours.club)
    client = logged_in(ours.organizer)
    url = reverse("drives:registrations", kwargs={"slug": drive.slug})
    door = reverse("drives:couples", kwargs={"slug": drive.slug})
    registration_create(drive=drive, players=["A", "B"])
    counts = []
    for size in (1, 30):
        for i in range(size):
            registration_create(drive=drive, players=[f"A{size}-{i}", f"B{size}-{i}"])
        with CaptureQueriesContext(connection) as list_queries:
            client.get(url)
        with CaptureQueriesContext(connection) as door_queries:
            client.get(door)
        counts.append((len(list_queries), len(door_queries)))
    assert counts[0] == counts[1]


def test_a_capacity_raised_moves_the_wait_list_up(ours: ClubUsers) -> None:
    drive = open_drive(ours.club, capacity=1)
    for i in range(4):
        registration_create(drive=drive, players=[f"A{i}", f"B{i}"])
    drive_update(drive=drive, actor=DESK, capacity=3)
    statuses = list(
        Registration.objects.order_by("created_at", "id").values_list("status", flat=True)
    )
    assert statuses == ["registered", "registered", "registered", "waitlisted"]
    entry = AuditEntry.objects.filter(action="drive.update").latest("pk")
    assert "moved up from the wait list" in entry.note


@override_settings(RATELIMIT_REGISTRATIONS=20)
def test_the_public_page_is_limited_with_the_api_past_twenty(ours: ClubUsers) -> None:
    cache.clear()
    drive = open_drive(ours.club)
    client = Client()
    url = reverse("drive-register", kwargs={"slug": drive.slug})
    for i in range(20):
        assert client.post(url, {"player1": f"A{i}", "player2": f"B{i}"}).status_code == 201
    refused = client.post(url, {"player1": "A20", "player2": "B20"})
    assert refused.status_code == 429
    assert "Too many registrations from this address" in refused.content.decode()
    assert Registration.objects.filter(drive=drive).count() == 20
