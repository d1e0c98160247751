"""POST D/couples/import with couples already registered or listed twice: the whole file is
refused with 409 ``duplicate_couples`` naming every such row, unless ``?allow_duplicates=true``,
which registers them and says so in the audit."""

import pytest

from drives.models import AuditEntry, Couple
from drives.services import couple_update
from tests.api.helpers import DESK, make_drive

pytestmark = pytest.mark.django_db

FILE = (
    "player1,player2,paid\n"
    "Mary MacDonald,Angus MacDonald,yes\n"
    "Thérèse Aucoin,Joe Aucoin,no\n"
    "Flora Gillis,Dan Gillis,yes\n"
)


def post(api, drive, ours, data: str, query: str = ""):
    url = f"drives/{drive.slug}/couples/import{query}"
    return api.post(url, raw=data.encode(), content_type="text/csv", token=ours.org_token)


def test_importing_the_same_file_twice_is_refused_naming_every_couple(api, ours) -> None:
    drive = make_drive(ours.club, 2)  # A1 & B1, A2 & B2
    assert post(api, drive, ours, FILE).status_code == 201
    again = post(api, drive, ours, FILE)
    assert again.status_code == 409
    body = again.json()
    assert body["code"] == "duplicate_couples"
    assert body["duplicates"] == [
        {
            "line": 2,
            "players": ["Mary MacDonald", "Angus MacDonald"],
            "couple": 3,
            "same_as_line": None,
        },
        {"line": 3, "players": ["Thérèse Aucoin", "Joe Aucoin"], "couple": 4, "same_as_line": None},
        {"line": 4, "players": ["Flora Gillis", "Dan Gillis"], "couple": 5, "same_as_line": None},
    ]
    assert "line 2: Mary MacDonald & Angus MacDonald is already couple 3" in body["message"]
    assert "Nothing was imported" in body["message"]
    assert Couple.objects.filter(drive=drive).count() == 5
    assert AuditEntry.objects.filter(drive=drive, action="couples.register").count() == 2


def test_allowed_the_file_is_registered_again_and_the_audit_says_so(api, ours) -> None:
    drive = make_drive(ours.club, 0)
    post(api, drive, ours, FILE)
    again = post(api, drive, ours, FILE, "?allow_duplicates=true")
    assert again.status_code == 201, again.json()
    assert [c["number"] for c in again.json()] == [4, 5, 6]
    assert [c.players for c in Couple.objects.filter(drive=drive).order_by("number")][3:] == [
        ["Mary MacDonald", "Angus MacDonald"],
        ["Thérèse Aucoin", "Joe Aucoin"],
        ["Flora Gillis", "Dan Gillis"],
    ]
    entry = AuditEntry.objects.filter(action="couples.register").latest("pk")
    assert entry.channel == "api" and entry.subject == "4-6"
    assert entry.note.startswith("duplicates allowed: ")
    assert "line 2: Mary MacDonald & Angus MacDonald is already couple 1" in entry.note
    assert "line 4: Flora Gillis & Dan Gillis is already couple 3" in entry.note


def test_allowed_without_duplicates_the_audit_has_no_note(api, ours) -> None:
    drive = make_drive(ours.club, 0)
    assert post(api, drive, ours, FILE, "?allow_duplicates=true").status_code == 201
    assert AuditEntry.objects.get(action="couples.register").note == ""


def test_names_in_the_other_order_case_accents_and_spacing_are_the_same_couple(api, ours) -> None:
    drive = make_drive(ours.club, 0)
    post(api, drive, ours, FILE)
    variants = (
        "player1,player2\n"
        "ANGUS MACDONALD,mary macdonald\n"
        "Ann Beaton,Hugh Beaton\n"
        "Joe  Aucoin,Therese AUCOIN\n"
    )
    answer = post(api, drive, ours, variants)
    assert answer.status_code == 409
    assert [(d["line"], d["couple"]) for d in answer.json()["duplicates"]] == [(2, 1), (4, 2)]
    assert answer.json()["duplicates"][1]["players"] == ["Joe Aucoin", "Therese AUCOIN"]
    assert Couple.objects.filter(drive=drive).count() == 3


def test_a_couple_listed_twice_in_one_file_is_a_duplicate(api, ours) -> None:
    drive = make_drive(ours.club, 0)
    data = "player1,player2\nAnn Beaton,Hugh Beaton\nCy,Di\nhugh beaton,Ann Béaton\n"
    answer = post(api, drive, ours, data)
    assert answer.status_code == 409 and answer.json()["code"] == "duplicate_couples"
    assert answer.json()["duplicates"] == [
        {"line": 4, "players": ["hugh beaton", "Ann Béaton"], "couple": None, "same_as_line": 2}
    ]
    assert (
        "line 4: hugh beaton & Ann Béaton is the same couple as line 2"
        in (answer.json()["message"])
    )
    assert not Couple.objects.exists()
    allowed = post(api, drive, ours, data, "?allow_duplicates=1")
    assert allowed.status_code == 201 and len(allowed.json()) == 3


def test_a_withdrawn_couple_may_be_registered_again(api, ours) -> None:
    drive = make_drive(ours.club, 0)
    post(api, drive, ours, "player1,player2\nAnn,Bob\nCy,Di\n")
    couple_update(couple=Couple.objects.get(drive=drive, number=1), actor=DESK, withdrawn=True)
    answer = post(api, drive, ours, "player1,player2\nAnn,Bob\nCy,Di\n")
    assert answer.status_code == 409
    assert [(d["line"], d["couple"]) for d in answer.json()["duplicates"]] == [(3, 2)]


@pytest.mark.parametrize("value", ["yes", "2", ""])
def test_allow_duplicates_must_be_true_or_false(api, ours, value: str) -> None:
    drive = make_drive(ours.club, 0)
    answer = post(api, drive, ours, FILE, f"?allow_duplicates={value}")
    assert answer.status_code == 422
    assert answer.json()["code"] == "bad_field"
    assert answer.json()["field"] == "allow_duplicates"
    assert not Couple.objects.exists()
    assert post(api, drive, ours, FILE, "?allow_duplicates=false").status_code == 201


# --- POST D/couples: one couple (or a list) already registered ------------------------------


def add(api, drive, ours, body):
    return api.post(f"drives/{drive.slug}/couples", body, token=ours.org_token)


@pytest.mark.parametrize(
    "players",
    [
        ["Mary MacDonald", "Angus MacDonald"],
        ["angus macdonald", "mary macdonald"],
        ["Mary  Macdonald ", "ÁNGUS MACDONALD"],
    ],
)
def test_a_couple_already_registered_is_a_409_naming_it(api, ours, players) -> None:
    drive = make_drive(ours.club, 1)
    assert (
        add(api, drive, ours, {"players": ["Mary MacDonald", "Angus MacDonald"]}).json()[0][
            "number"
        ]
        == 2
    )
    again = add(api, drive, ours, {"players": players, "paid": True})
    assert again.status_code == 409
    body = again.json()
    assert body["code"] == "duplicate_couple"
    assert body["couple"] == 2
    assert "already couple 2" in body["message"]
    assert Couple.objects.filter(drive=drive).count() == 2

    anyway = add(api, drive, ours, {"players": players, "duplicate_ok": True})
    assert anyway.status_code == 201
    assert anyway.json()[0]["number"] == 3
    entry = AuditEntry.objects.filter(drive=drive, action="couples.register").latest("pk")
    assert entry.channel == "api" and "already couple 2" in entry.note


def test_a_list_naming_one_couple_twice_is_refused_whole(api, ours) -> None:
    drive = make_drive(ours.club, 0)
    body = [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}, {"players": ["bob", "ann"]}]
    refused = add(api, drive, ours, body)
    assert refused.status_code == 409
    assert refused.json()["code"] == "duplicate_couple"
    assert refused.json()["couple"] is None and refused.json()["same_as"] == 1
    assert refused.json()["item"] == 3
    assert not Couple.objects.filter(drive=drive).exists()
    body[2]["duplicate_ok"] = True
    assert add(api, drive, ours, body).status_code == 201


def test_duplicate_ok_must_be_true_or_false(api, ours) -> None:
    drive = make_drive(ours.club, 0)
    bad = add(api, drive, ours, {"players": ["Ann", "Bob"], "duplicate_ok": "yes"})
    assert bad.status_code == 422
    assert bad.json()["field"] == "duplicate_ok"
