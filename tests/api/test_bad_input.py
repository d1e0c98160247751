"""Bad input gets a clear answer, never a 500: odd values in every field of every body (the
test client re-raises any exception a view lets through)."""

from typing import Any

import pytest

from tests.api.helpers import make_drive

pytestmark = pytest.mark.django_db

ODD: list[Any] = [
    None,
    True,
    0,
    -1,
    2**70,
    1.5,
    1e308,
    "",
    "x" * 5000,
    "1",
    [],
    [1],
    [1, 2, 3],
    ["a", "b"],
    {},
    {"a": 1},
    [2**70, 0],
    [50, -10],
    [0, 0],
]
DRIVE_FIELDS = [
    "name",
    "date",
    "venue",
    "games",
    "ruleset",
    "movement",
    "first_seating",
    "seed",
    "sit_out_counts_as_win",
    "ranking",
    "entry_fee",
    "entry_fee_per",
    "currency",
    "confirm_by_other_couple",
]
COUPLE_FIELDS = ["players", "player1", "player2", "paid", "checked_in", "cookie_jar", "withdrawn"]


@pytest.mark.parametrize("ruleset", ["cape-breton-45", "auction-120"])
def test_odd_values_never_make_a_500(api, ours, ruleset) -> None:
    drive = make_drive(ours.club, 4, start=True, ruleset=ruleset)
    slug, token = drive.slug, ours.org_token
    for value in ODD:
        requests: list[tuple[str, str, Any]] = [
            ("POST", f"drives/{slug}/holes", {"holes": {"1": value}}),
            ("POST", f"drives/{slug}/holes", {"holes": value}),
            ("POST", f"drives/{slug}/start", {"seating": "shuffle", "seed": value}),
            ("POST", f"drives/{slug}/start", {"seating": value}),
            ("POST", f"drives/{slug}/games/1/advance", value),
            ("POST", f"drives/{slug}/couples", value),
        ]
        for field in ("winner", "points", "key", "confirm_unusual"):
            body = {"winner": 1, "points": [50, 40], "confirm_unusual": True} | {field: value}
            requests.append(("PUT", f"drives/{slug}/games/1/tables/1/result", body))
        for field in ("winner", "reason", "points"):
            body = {"winner": 2, "reason": "why", "points": [50, 40]} | {field: value}
            requests.append(("POST", f"drives/{slug}/games/1/tables/2/resolve", body))
        for field in DRIVE_FIELDS:
            requests.append(("PATCH", f"drives/{slug}", {field: value}))
            body = {"club": ours.club.slug, "name": "n", "date": "2026-01-01", field: value}
            requests.append(("POST", "drives", body))
        for field in COUPLE_FIELDS:
            requests.append(("PATCH", f"drives/{slug}/couples/3", {field: value}))
            requests.append(
                ("POST", f"drives/{slug}/couples", {"players": ["a", "b"], field: value})
            )
        for method, path, body in requests:
            answer = api.call(method, path, body, token=token)
            assert answer.status_code < 500, (method, path, body)
            if answer.status_code >= 400:
                assert set(answer.json()) >= {"code", "message"}


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        (b"player1,player2\na\x00b,c\n", "bad_rows"),
        (b'player1,player2\n"a,b\n', "bad_rows"),
        (b"player1\n", "bad_header"),
        (b"player1,player2,paid,paid\n", "bad_header"),
        (b"player1,player2\n", "no_couples"),
        (b"\n", "bad_header"),
    ],
)
def test_bad_csv_files_are_named(api, ours, raw, code) -> None:
    drive = make_drive(ours.club, 0)
    answer = api.post(
        f"drives/{drive.slug}/couples/import",
        raw=raw,
        content_type="text/csv",
        token=ours.org_token,
    )
    assert answer.status_code == 422, answer.json()
    assert answer.json()["code"] == code
    assert not drive.couples.exists()
