"""The prize endpoints: set-up, the prize table, the tie procedure, cuts, play-offs and the
cookie jar through ``/api/v1/drives/{slug}/prizes…``, with their permissions and errors."""

import pytest

from drives.models import AuditEntry
from engine.prizes import draw_cookie_jar_games, draw_cut
from scoring.models import CookieJarDraw, CutCard, Tie
from tests.api.helpers import Api, ClubUsers, couple_token
from tests.prizes.helpers import night

pytestmark = pytest.mark.django_db


def path(drive, rest=""):
    return f"drives/{drive.slug}/prizes{rest}"


def test_a_night_settled_through_the_api(api: Api, ours: ClubUsers) -> None:
    drive = night([18, 18, 16, 15, 15, 9], club=ours.club)
    org, scorer = ours.org_token, ours.scorer_token
    setup = {
        "prizes": [{"amount": "60.00"}, {"amount": "30.00"}, {"description": "a ham"}],
        "booby_prize": {"amount": "5"},
        "cut_ace_high": True,
    }
    assert api.patch(path(drive, "/setup"), setup, token=scorer).status_code == 403
    answer = api.patch(path(drive, "/setup"), setup, token=org)
    assert answer.status_code == 200, answer.json()
    assert answer.json()["prizes"][2] == {"amount": None, "description": "a ham"}
    assert answer.json()["booby_prize"]["amount"] == "5.00"
    bad = api.patch(path(drive, "/setup"), {"prize_places": "three"}, token=org)
    assert bad.status_code == 422 and bad.json()["field"] == "prize_places"
    assert api.patch(path(drive, "/setup"), {"x": 1}, token=org).json()["code"] == "unknown_field"

    table = api.get(path(drive), token=scorer).json()
    assert [(p["couples"], p["status"]) for p in table["places"]] == [
        ([1, 2], "tie"),
        ([3], "awarded"),
        ([4, 5], "tie"),
    ]
    assert api.get(path(drive), token=couple_token(drive, 1)).status_code == 403

    assert api.post(path(drive, "/ties"), token=scorer).status_code == 403
    ties = api.post(path(drive, "/ties"), token=org).json()
    assert [t["couples"] for t in ties] == [[1, 2], [4, 5]]
    first, third = ties[0]["id"], ties[1]["id"]

    # First: a play-off asked by one, the other must answer; an impossible score is refused.
    answer = api.post(
        path(drive, f"/ties/{first}/choices"), {"couple": 1, "choice": "play-off"}, token=scorer
    )
    assert answer.status_code == 201 and answer.json()["choices"][0]["by"] == "ours-scorer"
    api.post(path(drive, f"/ties/{first}/choices"), {"couple": "2", "choice": "split"}, token=org)
    answer = api.post(path(drive, f"/ties/{first}/decide"), token=org)
    assert answer.status_code == 409 and answer.json()["couples"] == [2]
    api.post(path(drive, f"/ties/{first}/choices"), {"couple": 2, "choice": "play-off"}, token=org)
    decided = api.post(path(drive, f"/ties/{first}/decide"), token=org).json()
    assert decided["method"] == "play-off" and decided["matches"][0]["match"] == [1, 2]
    bad = api.post(
        path(drive, f"/ties/{first}/playoff"),
        {"match": [1, 2], "winner": 2, "points": [45, 50]},
        token=org,
    )
    assert bad.status_code == 422 and bad.json()["code"] not in ("", "unusual_score")
    done = api.post(
        path(drive, f"/ties/{first}/playoff"),
        {"match": [1, 2], "winner": 2, "points": [45, 15]},
        token=org,
    )
    assert done.status_code == 201, done.json()
    assert done.json()["result"]["champion"] == 2

    # Third: a prize in kind, cut at the table with equal lowest cards, aces high.
    for couple in (4, 5):
        api.post(
            path(drive, f"/ties/{third}/choices"), {"couple": couple, "choice": "cut"}, token=org
        )
    api.post(path(drive, f"/ties/{third}/decide"), token=org)
    one = api.post(path(drive, f"/ties/{third}/cut"), {"cards": {"4": "AS", "5": "AH"}}, token=org)
    assert one.status_code == 201 and one.json()["cut"]["lowest"] == [4, 5]
    bad = api.post(path(drive, f"/ties/{third}/cut"), {"cards": {"4": "ZZ", "5": "2H"}}, token=org)
    assert bad.status_code == 422
    two = api.post(path(drive, f"/ties/{third}/cut"), {"draw": True}, token=org).json()
    assert isinstance(two["cut"]["seed"], int) and two["tie"]["state"] == "settled"

    table = api.get(path(drive), token=org).json()
    assert [p["status"] for p in table["places"]] == ["awarded"] * 3
    assert table["places"][0]["awards"][0] == {
        "couple": 2,
        "amount": "60.00",
        "description": "",
        "how": "play-off",
        "tie": first,
    }
    assert table["places"][2]["awards"][0]["description"] == "a ham"
    assert table["booby"]["awards"][0]["couple"] == 6

    export = api.get(f"drives/{drive.slug}/export", token=org).json()
    assert len(export["ties"]) == 2 and export["prizes"][0]["awards"][0]["how"] == "play-off"
    assert export["ties"][1]["cut_rounds"][0]["cards"] == {"4": "AS", "5": "AH"}
    actions = set(AuditEntry.objects.filter(drive=drive).values_list("action", flat=True))
    assert {
        "prizes.setup",
        "prizes.open",
        "tie.choice",
        "tie.decide",
        "tie.cut",
        "tie.playoff",
        "tie.settle",
    } <= actions


def test_ties_and_the_jar_refuse_what_they_cannot_do(api: Api, ours: ClubUsers, theirs) -> None:
    drive = night({1: {1, 2}, 2: {1, 2}, 3: {3}, 4: {3}}, club=ours.club, cookie_jar=[1, 2])
    org = ours.org_token
    assert api.get(path(drive, "/ties/999999"), token=org).status_code == 404
    assert api.post(path(drive, "/ties/999999/decide"), token=org).json()["code"] == "no_such_tie"
    assert api.get(path(drive), token=theirs.org_token).status_code == 404
    # Couples 1 and 2 bought in: the jar is on, but the draw asks for the buy-in first.
    assert api.get(path(drive, "/setup"), token=org).json()["cookie_jar"] is True
    jar = api.post(path(drive, "/cookie-jar/draw"), {}, token=org)
    assert jar.status_code == 422 and jar.json()["code"] == "no_buy_in"
    assert jar.json()["field"] == "buy_in" and "2 couple(s) bought in" in jar.json()["message"]
    assert api.get(path(drive, "/cookie-jar"), token=org).json()["needs_buy_in"] is True
    off = api.patch(path(drive, "/setup"), {"cookie_jar": False}, token=org)
    assert off.status_code == 422 and off.json()["code"] == "couples_bought_in"
    nobody = night([3, 2, 1], club=ours.club)
    jar = api.post(path(nobody, "/cookie-jar/draw"), {}, token=org)
    assert jar.status_code == 422 and jar.json()["code"] == "cookie_jar_off"
    api.patch(
        path(drive, "/setup"), {"cookie_jar": True, "cookie_jar_k": 2, "buy_in": 3}, token=org
    )
    bad = api.post(path(drive, "/cookie-jar/draw"), {"games": [1, 1]}, token=org)
    assert bad.status_code == 422 and bad.json()["code"] == "bad_games"
    assert api.post(path(drive, "/cookie-jar/draw"), token=ours.scorer_token).status_code == 403
    drawn = api.post(path(drive, "/cookie-jar/draw"), {"games": [2, 1]}, token=org)
    assert drawn.status_code == 201, drawn.json()
    jar = api.get(path(drive, "/cookie-jar"), token=org).json()
    assert (jar["winners"], jar["pot"], jar["status"]) == ([1, 2], "6.00", "tie")
    again = api.post(path(drive, "/cookie-jar/draw"), token=org)
    assert again.status_code == 409
    tie_id = jar["tie"]
    for couple in (1, 2):
        api.post(
            path(drive, f"/ties/{tie_id}/choices"), {"couple": couple, "choice": "split"}, token=org
        )
    assert api.post(path(drive, f"/ties/{tie_id}/decide"), token=org).status_code == 200
    jar = api.get(path(drive, "/cookie-jar"), token=org).json()
    assert [a["amount"] for a in jar["awards"]] == ["3.00", "3.00"]
    wrong = api.post(path(drive, f"/ties/{tie_id}/cut"), {"draw": True}, token=org)
    assert wrong.status_code == 409 and wrong.json()["code"] == "not_a_cut"


def test_the_server_draws_the_seed_of_a_cut_and_of_the_cookie_jar(
    api: Api, ours: ClubUsers
) -> None:
    """A caller may not choose a draw's seed (422 seed_not_accepted, nothing drawn); without
    one the server draws it, records it, and the engine replays the same draw from it."""
    wins = {1: {1, 2, 3}, 2: {1, 2, 3}, 3: {1, 2}, 4: {3}}
    drive = night(
        wins,
        club=ours.club,
        cookie_jar=[1, 2, 3],
        prizes={
            "prize_places": 1,
            "prizes": [{"amount": "40"}],
            "cookie_jar": True,
            "cookie_jar_k": 2,
            "buy_in": "2",
        },
    )
    org = ours.org_token
    (tie,) = api.post(path(drive, "/ties"), token=org).json()
    for couple in (1, 2):
        api.post(
            path(drive, f"/ties/{tie['id']}/choices"),
            {"couple": couple, "choice": "cut"},
            token=org,
        )
    api.post(path(drive, f"/ties/{tie['id']}/decide"), token=org)
    audited = AuditEntry.objects.filter(drive=drive).count()

    for body in ({"draw": True, "seed": 5}, {"draw": True, "seed": None}, {"seed": 5}):
        refused = api.post(path(drive, f"/ties/{tie['id']}/cut"), body, token=org)
        assert refused.status_code == 422, refused.json()
        assert (refused.json()["code"], refused.json()["field"]) == ("seed_not_accepted", "seed")
        assert "drawn by the server" in refused.json()["message"]
    for body in ({"seed": 5}, {"seed": 5, "games": [1, 2]}):
        refused = api.post(path(drive, "/cookie-jar/draw"), body, token=org)
        assert refused.status_code == 422 and refused.json()["code"] == "seed_not_accepted"
    assert not CutCard.objects.filter(tie_id=tie["id"]).exists()
    assert Tie.objects.get(pk=tie["id"]).state == "decided"
    assert not CookieJarDraw.objects.filter(drive=drive).exists()
    assert AuditEntry.objects.filter(drive=drive).count() == audited

    cut = api.post(path(drive, f"/ties/{tie['id']}/cut"), {"draw": True}, token=org)
    assert cut.status_code == 201, cut.json()
    seed = cut.json()["cut"]["seed"]
    assert isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0
    assert set(CutCard.objects.filter(tie_id=tie["id"]).values_list("seed", flat=True)) == {seed}
    (shown,) = api.get(path(drive, "/ties"), token=org).json()
    assert {r["seed"] for r in shown["cut_rounds"]} == {seed}
    replay = draw_cut([1, 2], seed)  # the engine's draw again, from the recorded seed
    assert cut.json()["cut"]["rounds"] == [{str(c): str(k) for c, k in r.cards} for r in replay]
    assert cut.json()["cut"]["winner"] == replay[-1].lowest[0]
    assert shown["awards"][0]["couple"] == replay[-1].lowest[0]

    jar = api.post(path(drive, "/cookie-jar/draw"), {}, token=org)
    assert jar.status_code == 201, jar.json()
    drawn = jar.json()["drawn"]
    assert drawn["method"] == "system" and isinstance(drawn["seed"], int)
    assert drawn["games"] == list(draw_cookie_jar_games(3, 2, drawn["seed"]))
    export = api.get(f"drives/{drive.slug}/export", token=org).json()
    assert export["cookie_jar"]["drawn"]["seed"] == drawn["seed"]
    assert {r["seed"] for r in export["ties"][0]["cut_rounds"]} == {seed}


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"draw": True, "cards": {"1": "7H"}}, "cards_or_draw", None),
        ({"draw": "x"}, "bad_field", "draw"),
        ({"draw": None}, "bad_field", "draw"),
        ({"cards": []}, "bad_cards", "cards"),
        ({}, "bad_cards", "cards"),
        ({"cards": {"x": "7H"}}, "bad_couple", "cards"),
        ({"seed": 7}, "seed_not_accepted", "seed"),
    ],
)
def test_a_cut_that_is_neither_cards_nor_a_draw_is_named(
    api: Api, ours: ClubUsers, body, code, field
) -> None:
    drive = night({1: {1, 2}, 2: {1, 2}, 3: {3}, 4: {3}}, club=ours.club, cookie_jar=[1, 2])
    org = ours.org_token
    tie = api.post(path(drive, "/ties"), token=org).json()[0]["id"]
    answer = api.post(path(drive, f"/ties/{tie}/cut"), body, token=org)
    assert answer.status_code == 422, answer.json()
    assert (answer.json()["code"], answer.json().get("field")) == (code, field)
    assert not CutCard.objects.exists()


@pytest.mark.parametrize("force", ["true", 1, 0, None])
def test_force_is_a_json_boolean(api: Api, ours: ClubUsers, force) -> None:
    drive = night({1: {1, 2}, 2: {1, 2}, 3: {3}, 4: {3}}, club=ours.club)
    answer = api.post(path(drive, "/ties"), {"force": force}, token=ours.org_token)
    assert answer.status_code == 422, answer.json()
    assert (answer.json()["code"], answer.json()["field"]) == ("bad_field", "force")
    assert not Tie.objects.exists()


def test_the_booby_prize_and_late_couples(api: Api, ours: ClubUsers) -> None:
    from tests.prizes.helpers import arrived_late

    drive = night([5, 4, 3, 2, 1, 0], club=ours.club, games=5)
    arrived_late(drive, 6)
    org = ours.org_token
    booby = api.get(path(drive), token=org).json()["booby"]
    assert booby["couples"] == [5] and booby["every_game"] is True
    assert [c["couple"] for c in booby["left_out"]] == [6] and booby["left_out"][0]["played"] == 4
    bad = api.patch(path(drive, "/setup"), {"booby_late_couples": "yes"}, token=org)
    assert bad.status_code == 422 and bad.json()["field"] == "booby_late_couples"
    answer = api.patch(path(drive, "/setup"), {"booby_late_couples": True}, token=org)
    assert answer.status_code == 200 and answer.json()["booby_late_couples"] is True
    booby = api.get(path(drive), token=org).json()["booby"]
    assert booby["couples"] == [6] and booby["left_out"] == []
    assert AuditEntry.objects.filter(drive=drive, action="prizes.setup").exists()
