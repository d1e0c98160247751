"""Odd text through the API: text no database can store (a lone UTF-16 surrogate, a NUL) in any
field of any body is a 422 ``bad_text`` naming the field, and nothing is written; names made
only of invisible characters are no names; bidi controls never reach a stored name; a currency
is three letters A–Z. Run on SQLite by default and on PostgreSQL with ``DATABASE_URL``."""

from typing import Any

import pytest

from drives.models import AuditEntry, Club, Couple, Drive
from scoring.models import Document, PrizeSetup, Result, ResultVersion
from tests.api.helpers import Api, ClubUsers, make_drive, table_token

pytestmark = pytest.mark.django_db

SURROGATE = "\udc00"
BAD_TEXTS = [pytest.param(SURROGATE, id="lone-surrogate"), pytest.param("\x00", id="NUL")]


def in_drive(odd: str) -> list[Any]:
    """(method, path under the drive, body, the place the error names): every free text of
    the API's bodies that belongs to a drive."""
    return [
        ("PUT", "games/1/tables/1/result", {"winner": 1, "key": f"k{odd}"}, "key"),
        ("POST", "games/1/tables/2/resolve", {"winner": 3, "reason": odd}, "reason"),
        ("POST", "couples", {"players": [f"Ann{odd}", "Joe"]}, "players[0]"),
        ("POST", "couples", {"player1": "Ann", "player2": odd}, "player2"),
        ("PATCH", "couples/1", {"player1": f"A{odd}n"}, "player1"),
        ("PATCH", "", {"name": f"Friday{odd}"}, "name"),
        ("PATCH", "", {"venue": f"Hall{odd}"}, "venue"),
        (
            "PATCH",
            "prizes/setup",
            {"prizes": [{"description": f"a ham{odd}"}]},
            "prizes[0].description",
        ),
        (
            "POST",
            "documents",
            {"document": "table-cards", "base_url": f"https://drives.example.org/{odd}"},
            "base_url",
        ),
        ("PATCH", "", {f"name{odd}": "Friday"}, ""),
    ]


def stored(drive: Drive) -> tuple[Any, ...]:
    drive.refresh_from_db()
    return (
        drive.name,
        drive.venue,
        sorted(tuple(c.players) for c in Couple.objects.filter(drive=drive)),
        Result.objects.count(),
        ResultVersion.objects.count(),
        PrizeSetup.objects.count(),
        Document.objects.count(),
        AuditEntry.objects.count(),
    )


@pytest.mark.parametrize("odd", BAD_TEXTS)
def test_text_that_cannot_be_stored_is_refused_in_every_field(
    api: Api, ours: ClubUsers, odd: str
) -> None:
    drive = make_drive(ours.club, 4, start=True)
    before = stored(drive)
    for method, rest, body, place in in_drive(odd):
        path = f"drives/{drive.slug}/{rest}".rstrip("/")
        answer = api.call(method, path, body, token=ours.org_token)
        assert answer.status_code == 422, (method, rest, answer.content[:300])
        error = answer.json()
        assert error["code"] == "bad_text", (method, rest, error)
        assert error["path"] == place if place else "path" not in error
        assert ("NUL" if odd == "\x00" else "surrogate") in error["message"]
    assert stored(drive) == before


@pytest.mark.parametrize("odd", BAD_TEXTS)
@pytest.mark.parametrize("field", ["name", "venue", "club"])
def test_a_new_drive_with_such_text_is_refused(
    api: Api, ours: ClubUsers, odd: str, field: str
) -> None:
    body = {"club": ours.club.slug, "name": "Friday 45s", "date": "2026-11-20"}
    body[field] = f"{body.get(field, '')}{odd}"
    answer = api.post("drives", body, token=ours.org_token)
    assert answer.status_code == 422, answer.content[:300]
    assert answer.json()["code"] == "bad_text" and answer.json()["path"] == field
    assert not Drive.objects.exists() and Club.objects.count() == 1


def test_a_table_token_cannot_store_a_surrogate_either(api: Api, ours: ClubUsers) -> None:
    drive = make_drive(ours.club, 4, start=True)
    url = f"drives/{drive.slug}/games/1/tables/1/result"
    answer = api.put(url, {"winner": 1, "key": f"phone-{SURROGATE}"}, token=table_token(drive, 1))
    assert answer.status_code == 422 and answer.json()["code"] == "bad_text"
    assert not Result.objects.exists()
    fine = api.put(url, {"winner": 1, "key": "phone-1"}, token=table_token(drive, 1))
    assert fine.status_code == 201


# --- names with nothing to see -----------------------------------------------------------------

INVISIBLE = [
    "\u200b",  # zero-width space
    "\u200c\u200d",  # zero-width non-joiner, joiner
    "\u2060",  # word joiner
    "\ufeff",  # byte-order mark
    "\u200e\u200f",  # left-to-right and right-to-left marks
    "\u202e",  # right-to-left override
    "\u2066\u2069",  # left-to-right isolate, pop
    " \u200b \u00ad ",  # spaces, a zero-width space and a soft hyphen (Cf)
]


@pytest.mark.parametrize("name", INVISIBLE)
def test_a_name_of_invisible_characters_is_no_name(api: Api, ours: ClubUsers, name: str) -> None:
    drive = make_drive(ours.club, 2)
    path = f"drives/{drive.slug}/couples"
    empty = api.post(path, {"players": ["", "Joe"]}, token=ours.org_token).json()["code"]
    answer = api.post(path, {"players": [name, "Joe"]}, token=ours.org_token)
    assert answer.status_code == 422 and answer.json()["code"] == empty == "missing_player"
    patched = api.patch(f"{path}/1", {"player2": name}, token=ours.org_token)
    assert patched.status_code == 422 and patched.json()["code"] == "missing_player"
    assert sorted(tuple(c.players) for c in drive.couples.all()) == [("A1", "B1"), ("A2", "B2")]


def test_bidi_controls_are_taken_out_of_names(api: Api, ours: ClubUsers) -> None:
    drive = make_drive(ours.club, 0)
    path = f"drives/{drive.slug}/couples"
    # An override would print "Joe" and everything after it backwards; an isolate, a mark and
    # a joiner inside a name are kept apart: the isolate goes, the others belong to the name.
    body = {"players": ["\u202eAnn\u202c MacNeil", "\u2067\u05d3\u05e0\u05d4\u2069 J\u200eoe"]}
    answer = api.post(path, body, token=ours.org_token)
    assert answer.status_code == 201, answer.json()
    assert answer.json()[0]["players"] == ["Ann MacNeil", "\u05d3\u05e0\u05d4 J\u200eoe"]
    assert Couple.objects.get(drive=drive).players == [
        "Ann MacNeil",
        "\u05d3\u05e0\u05d4 J\u200eoe",
    ]
    family = api.patch(
        f"{path}/1", {"player1": "Ann \u202dMac\u202cNeil 👨‍👩‍👧"}, token=ours.org_token
    )
    assert family.status_code == 200 and family.json()["players"][0] == "Ann MacNeil 👨‍👩‍👧"


@pytest.mark.parametrize("name", INVISIBLE)
def test_a_drive_named_with_invisible_characters_has_no_name(
    api: Api, ours: ClubUsers, name: str
) -> None:
    body = {"club": ours.club.slug, "name": name, "date": "2026-11-20"}
    answer = api.post("drives", body, token=ours.org_token)
    assert answer.status_code == 422
    assert (answer.json()["code"], answer.json()["field"]) == ("bad_field", "name")
    assert answer.json()["message"] == "A drive needs a name of at most 120 characters."
    assert not Drive.objects.exists()
    body = {"club": ours.club.slug, "name": "\u202eFriday 45s", "venue": "Hall\u2066 B\u2069"}
    made = api.post("drives", body | {"date": "2026-11-20"}, token=ours.org_token)
    assert made.status_code == 201 and (made.json()["name"], made.json()["venue"]) == (
        "Friday 45s",
        "Hall B",
    )


# --- currency ----------------------------------------------------------------------------------


@pytest.mark.parametrize("currency", ["ßab", "\u017fab", "CA\u212a", "ÇAD", "CA", "CADD", "C1D"])
def test_a_currency_is_three_letters_a_to_z(api: Api, ours: ClubUsers, currency: str) -> None:
    body = {"club": ours.club.slug, "name": "Friday 45s", "date": "2026-11-20"}
    created = api.post("drives", body | {"currency": currency}, token=ours.org_token)
    assert created.status_code == 422, created.json()
    error = created.json()
    assert (error["code"], error["field"]) == ("bad_field", "currency")
    assert "three letters A–Z, like CAD" in error["message"]
    assert not Drive.objects.exists()
    drive = make_drive(ours.club, 0)
    patched = api.patch(f"drives/{drive.slug}", {"currency": currency}, token=ours.org_token)
    assert patched.status_code == 422 and patched.json()["code"] == "bad_field"
    drive.refresh_from_db()
    assert drive.currency == "CAD"
    assert not AuditEntry.objects.filter(action="drive.update").exists()
    nzd = api.patch(f"drives/{drive.slug}", {"currency": "nzd"}, token=ours.org_token)
    assert nzd.status_code == 200 and nzd.json()["currency"] == "NZD"
