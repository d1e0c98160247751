"""Drives and couples through the API: create, list, settings, couples one by one, in a list
or from a CSV file, check-in and withdrawal, the start, the end of the night."""

import pytest

from drives.models import AuditEntry, Couple, Drive
from tests.api.helpers import make_drive, play

pytestmark = pytest.mark.django_db

NEW_DRIVE = {"name": "Friday 45s", "date": "2026-11-20", "venue": "Parish Hall", "games": 12}


def test_create_list_and_read_a_drive(api, ours, theirs) -> None:
    created = api.post("drives", {"club": ours.club.slug, **NEW_DRIVE}, token=ours.org_token)
    assert created.status_code == 201, created.json()
    body = created.json()
    assert body["slug"] == "friday-45s-2026-11-20" and body["games"] == 12
    assert body["state"] == "setup" and body["club"] == ours.club.name
    assert AuditEntry.objects.get(action="drive.create").channel == "api"
    make_drive(theirs.club, 2)
    listed = api.get("drives", token=ours.scorer_token).json()
    assert [d["slug"] for d in listed] == [body["slug"]]
    detail = api.get(f"drives/{body['slug']}", token=ours.scorer_token).json()
    assert detail["counts"] == {"couples": 0, "withdrawn": 0, "tables": 0}
    assert detail["game"] is None


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"name": "X", "date": "2026-11-20"}, 422, "missing_field"),
        ({"club": "no-such-club", "name": "X", "date": "2026-11-20"}, 404, "not_found"),
        ({"club": "CLUB", "name": "X"}, 422, "missing_field"),
        ({"club": "CLUB", "name": "X", "date": "20/11/2026"}, 422, "bad_field"),
        ({"club": "CLUB", "name": "X", "date": "2026-11-20", "games": 0}, 422, "bad_field"),
        (
            {"club": "CLUB", "name": "X", "date": "2026-11-20", "ruleset": "bridge"},
            422,
            "bad_field",
        ),
        ({"club": "CLUB", "name": "X", "date": "2026-11-20", "actor": 1}, 422, "unknown_field"),
        (
            {"club": "CLUB", "name": "X", "date": "2026-11-20", "state": "closed"},
            422,
            "unknown_field",
        ),
        ({"club": ["CLUB"], "name": "X", "date": "2026-11-20"}, 422, "missing_field"),
    ],
)
def test_bad_drive_settings_are_named(api, ours, body, status, code) -> None:
    if body.get("club") == "CLUB":
        body = body | {"club": ours.club.slug}
    answer = api.post("drives", body, token=ours.org_token)
    assert answer.status_code == status, answer.json()
    assert answer.json()["code"] == code
    assert not Drive.objects.exists()


def test_only_an_organizer_creates_a_drive(api, ours) -> None:
    answer = api.post("drives", {"club": ours.club.slug, **NEW_DRIVE}, token=ours.scorer_token)
    assert answer.status_code == 403 and answer.json()["code"] == "forbidden"


def test_patch_settings(api, ours) -> None:
    drive = make_drive(ours.club, 4)
    url = f"drives/{drive.slug}"
    patched = api.patch(url, {"venue": "Legion Hall", "games": 20}, token=ours.org_token)
    assert patched.status_code == 200
    assert patched.json()["venue"] == "Legion Hall" and patched.json()["games"] == 20
    api.post(f"{url}/start", {}, token=ours.org_token)
    fixed = api.patch(url, {"games": 25}, token=ours.org_token)
    assert fixed.status_code == 409 and fixed.json()["code"] == "drive_started"
    fine = api.patch(url, {"confirm_by_other_couple": True}, token=ours.org_token)
    assert fine.status_code == 200
    assert api.patch(url, {"drive": 1}, token=ours.org_token).json()["code"] == "unknown_field"
    assert api.patch(url, [1], token=ours.org_token).status_code == 400


def test_couples_one_and_many_numbered_in_order(api, ours) -> None:
    drive = make_drive(ours.club, 0)
    url = f"drives/{drive.slug}/couples"
    one = api.post(
        url, {"players": ["Mary MacNeil", "Joe MacNeil"], "paid": True}, token=ours.scorer_token
    )
    assert one.status_code == 201
    assert [(c["number"], c["players"], c["paid"]) for c in one.json()] == [
        (1, ["Mary MacNeil", "Joe MacNeil"], True)
    ]
    many = api.post(
        url,
        [{"player1": "Ann", "player2": "Bob"}, {"players": ["Cy", "Di"], "cookie_jar": True}],
        token=ours.org_token,
    )
    assert [c["number"] for c in many.json()] == [2, 3]
    bad = api.post(url, [{"players": ["Ed", "Flo"]}, {"players": ["Gus"]}], token=ours.org_token)
    assert bad.status_code == 422 and bad.json()["code"] == "bad_couple"
    assert "Couple 2" in bad.json()["message"]
    assert api.post(url, [], token=ours.org_token).json()["code"] == "no_couples"
    assert api.post(url, "Ann & Bob", token=ours.org_token).status_code == 400
    assert api.post(url, [["Ann", "Bob"]], token=ours.org_token).json()["code"] == "bad_couple"
    # The names once: players, or player1 and player2, never both (as the patch says).
    for extra in ({"player1": "Ed"}, {"player2": "Flo"}, {"player1": "Ed", "player2": "Flo"}):
        both = api.post(url, {"players": ["Cy", "Di"], **extra}, token=ours.org_token)
        assert both.status_code == 422 and both.json()["code"] == "bad_couple"
        assert both.json()["message"] == "Send players, or player1 and player2, not both."
    listed = [{"players": ["Ed", "Flo"]}, {"players": ["Gus", "Hal"], "player1": "Ian"}]
    both = api.post(url, listed, token=ours.org_token)
    assert both.json()["message"] == "Couple 2: send players, or player1 and player2, not both."
    assert Couple.objects.count() == 3
    listed = api.get(url, token=ours.scorer_token).json()
    assert [c["number"] for c in listed] == [1, 2, 3]


def test_csv_import_all_or_nothing_with_bad_lines_named(api, ours) -> None:
    drive = make_drive(ours.club, 0)
    url = f"drives/{drive.slug}/couples/import"
    bad = "player1,player2,paid\nMary,Joe,yes\n,Bob,no\nCy,Di,maybe\nMary,Joe\n"
    answer = api.post(url, raw=bad, content_type="text/csv", token=ours.org_token)
    assert answer.status_code == 422
    body = answer.json()
    assert body["code"] == "bad_rows"
    assert [e["line"] for e in body["errors"]] == [3, 4, 5]
    assert "line 3" in body["message"]
    assert not Couple.objects.exists()
    good = "player1,player2,paid\nMary,Joe,yes\nAnn,Bob,no\n"
    stored = api.post(url, raw=good, content_type="text/csv", token=ours.org_token)
    assert stored.status_code == 201
    assert [(c["number"], c["paid"]) for c in stored.json()] == [(1, True), (2, False)]
    header = api.post(url, raw="name,other\nA,B\n", content_type="text/csv", token=ours.org_token)
    assert header.status_code == 422 and header.json()["errors"][0]["line"] == 1
    binary = api.post(
        url,
        raw=b"player1,player2\nJos\x81\x00,Ana\n",
        content_type="text/csv",
        token=ours.org_token,
    )
    assert binary.status_code == 422 and binary.json()["code"] == "not_utf8"
    as_json = api.post(url, {"players": ["A", "B"]}, token=ours.org_token)
    assert as_json.status_code == 415
    assert Couple.objects.count() == 2
    # Excel set to French: semicolons, Windows-1252.
    french = api.post(
        url,
        raw="player1;player2\nJosé;Thérèse\n".encode("cp1252"),
        content_type="text/csv",
        token=ours.org_token,
    )
    assert french.status_code == 201
    assert [c["players"] for c in french.json()] == [["José", "Thérèse"]]


def test_couple_patch(api, ours) -> None:
    drive = make_drive(ours.club, 3)
    url = f"drives/{drive.slug}/couples/2"
    answer = api.patch(
        url,
        {"paid": True, "checked_in": True, "cookie_jar": True, "players": ["Ann", "Bob"]},
        token=ours.scorer_token,
    )
    assert answer.status_code == 200
    body = answer.json()
    assert body["paid"] and body["checked_in"] and body["cookie_jar"]
    assert body["players"] == ["Ann", "Bob"]
    entry = AuditEntry.objects.get(action="couple.update")
    assert entry.old["paid"] is False and entry.new["paid"] is True and entry.channel == "api"
    assert api.patch(url, {"paid": "yes"}, token=ours.scorer_token).status_code == 422
    assert api.patch(url, {"couple": 3}, token=ours.scorer_token).json()["code"] == "unknown_field"
    both = api.patch(url, {"players": ["C", "D"], "player1": "E"}, token=ours.scorer_token)
    assert both.status_code == 422 and "not both" in both.json()["message"]
    assert Couple.objects.get(drive=drive, number=2).players == ["Ann", "Bob"]
    missing = api.patch(f"drives/{drive.slug}/couples/9", {"paid": True}, token=ours.scorer_token)
    assert missing.status_code == 404 and missing.json()["code"] == "no_such_couple"


def test_start_by_number_and_shuffled(api, ours) -> None:
    drive = make_drive(ours.club, 5)
    url = f"drives/{drive.slug}/start"
    too_few = make_drive(ours.club, 1)
    refused = api.post(f"drives/{too_few.slug}/start", token=ours.org_token)
    assert refused.status_code == 422 and refused.json()["code"] == "too_few_couples"
    bad = api.post(url, {"seating": "random"}, token=ours.org_token)
    assert bad.status_code == 422
    game = api.post(url, {"seating": "by-number"}, token=ours.org_token)
    assert game.status_code == 201
    assert [(t["table"], t["stays"], t["arrives"], t["deals"]) for t in game.json()["tables"]] == [
        (1, 1, 2, 2),
        (2, 3, 4, 4),
        (3, 5, None, 5),
    ]
    again = api.post(url, {}, token=ours.org_token)
    assert again.status_code == 409 and again.json()["code"] == "already_started"
    detail = api.get(f"drives/{drive.slug}", token=ours.org_token).json()
    assert detail["counts"] == {"couples": 5, "withdrawn": 0, "tables": 3}
    assert detail["game"]["number"] == 1 and detail["game"]["missing"] == [1, 2]
    shuffled = make_drive(ours.club, 8)
    first = api.post(
        f"drives/{shuffled.slug}/start", {"seating": "shuffle", "seed": 45}, token=ours.org_token
    )
    assert first.status_code == 201
    shuffled.refresh_from_db()
    assert shuffled.seed == 45 and shuffled.first_seating == "shuffle"


def test_holes_reconciliation_close_and_export(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    slug = drive.slug
    play(api, drive, 1, ours.org_token)  # couples 1 and 3 win
    answer = api.post(f"drives/{slug}/holes", {"holes": {"1": 1, "3": 0}}, token=ours.scorer_token)
    assert answer.status_code == 200
    assert answer.json() == {
        "recorded": 2,
        "reconciliation": [
            {"number": 3, "holes": 0, "wins": 1, "difference": -1, "won_games": [1]}
        ],
    }
    assert (
        api.get(f"drives/{slug}/reconciliation", token=ours.org_token).json()
        == answer.json()["reconciliation"]
    )
    for body, code in [
        ({"holes": {"9": 1}}, "unknown_couple"),
        ({"holes": {"one": 1}}, "unknown_couple"),
        ({"holes": {"1": 99}}, "bad_holes"),
        ({"holes": []}, "bad_holes"),
        ({"holes": {"99999999999999999999": 1}}, "unknown_couple"),
    ]:
        bad = api.post(f"drives/{slug}/holes", body, token=ours.scorer_token)
        assert bad.status_code == 422 and bad.json()["code"] == code, body
    export = api.get(f"drives/{slug}/export", token=ours.scorer_token).json()
    assert export["format"] == "fortyfives-drive/1"
    assert export["games"][0]["tables"][0]["winner"] == 1
    assert {c["number"]: c["holes"] for c in export["couples"]} == {1: 1, 2: None, 3: 0, 4: None}
    closed = api.post(f"drives/{slug}/close", token=ours.org_token)
    assert closed.status_code == 200 and closed.json()["state"] == "closed"
    after = api.post(f"drives/{slug}/couples", {"players": ["A", "B"]}, token=ours.org_token)
    assert after.status_code == 422 and after.json()["code"] == "drive_closed"
    again = api.post(f"drives/{slug}/close", token=ours.org_token)
    assert again.status_code == 422 and again.json()["code"] == "drive_closed"
    # Reading stays open to the members.
    assert api.get(f"drives/{slug}/standings", token=ours.scorer_token).status_code == 200


def test_games_that_do_not_exist(api, ours) -> None:
    drive = make_drive(ours.club, 4)
    current = api.get(f"drives/{drive.slug}/games/current", token=ours.org_token)
    assert current.status_code == 404 and current.json()["code"] == "not_started"
    assert api.get(f"drives/{drive.slug}/tables", token=ours.org_token).json() == []
    api.post(f"drives/{drive.slug}/start", token=ours.org_token)
    missing = api.get(f"drives/{drive.slug}/games/2", token=ours.org_token)
    assert missing.status_code == 404 and missing.json()["code"] == "no_such_game"
