"""``PUT …/games/{n}/tables/{t}/result`` and what follows it: every status code, the tokens
of tables and couples, the other couple's confirmation, resolving, and the advance."""

import pytest

from drives.models import AuditEntry
from drives.services import couples_register, drive_close
from scoring.models import Result, ResultVersion
from tests.api.helpers import DESK, couple_token, make_drive, play, table_token

pytestmark = pytest.mark.django_db


def result_url(drive, game, table):
    return f"drives/{drive.slug}/games/{game}/tables/{table}/result"


def test_stored_then_replayed_by_key_and_by_winner(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    url = result_url(drive, 1, 1)
    stored = api.put(url, {"winner": 2, "points": [50, 40], "key": "k1"}, token=ours.org_token)
    assert stored.status_code == 201, stored.json()
    assert stored.json() == {
        "game": 1,
        "table": 1,
        "winner": 2,
        "points": [50, 40],
        "state": "accepted",
        "verdict": "ok",
        "replayed": False,
    }
    again = api.put(url, {"winner": 2, "points": [50, 40], "key": "k1"}, token=ours.org_token)
    assert again.status_code == 200 and again.json()["replayed"] is True
    same_winner = api.put(url, {"winner": 2}, token=ours.scorer_token)
    assert same_winner.status_code == 200 and same_winner.json()["winner"] == 2
    assert ResultVersion.objects.count() == 1
    version = ResultVersion.objects.get()
    assert version.channel == AuditEntry.Channel.API and version.user == ours.organizer


def test_a_different_winner_is_a_conflict_kept_and_listed(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    url = result_url(drive, 1, 1)
    assert api.put(url, {"winner": 1}, token=ours.scorer_token).status_code == 201
    conflict = api.put(url, {"winner": 2, "key": "second"}, token=table_token(drive, 1))
    assert conflict.status_code == 409
    body = conflict.json()
    assert body["code"] == "result_conflict" and body["winner"] == 1 and body["table"] == 1
    assert Result.objects.get().state == "conflict"
    assert ResultVersion.objects.filter(kind="conflicting", winner__number=2).exists()
    game = api.get(f"drives/{drive.slug}/games/1", token=ours.org_token).json()
    assert game["conflicts"] == [1]
    assert game["tables"][0]["state"] == "conflict"
    # The same conflicting submission again (same key) is a replay, not a third version.
    replay = api.put(url, {"winner": 2, "key": "second"}, token=table_token(drive, 1))
    assert replay.status_code == 200
    assert ResultVersion.objects.count() == 2


def test_the_same_key_with_another_body_is_refused_not_replayed(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    url = result_url(drive, 1, 1)
    token = table_token(drive, 1)
    assert (
        api.put(url, {"winner": 2, "points": [50, 40], "key": "k1"}, token=token).status_code == 201
    )
    for body, differs in [
        ({"winner": 2, "points": [60, 30], "key": "k1"}, ["points"]),
        ({"winner": 2, "key": "k1"}, ["points"]),  # a retry sends the same body: points too
        ({"winner": 1, "points": [50, 40], "key": "k1"}, ["winner"]),
        ({"winner": 1, "points": [60, 30], "key": "k1"}, ["winner", "points"]),
    ]:
        refused = api.put(url, body, token=token)
        assert refused.status_code == 409, (body, refused.json())
        error = refused.json()
        assert error["code"] == "key_reused" and error["differs"] == differs, error
        assert error["winner"] == 2 and error["points"] == [50, 40] and error["key"] == "k1"
        assert "not stored" in error["message"]
    # The stored result is unchanged, no version was added, each refusal is in the audit.
    result = Result.objects.get()
    assert (result.winner.number, result.points, result.state) == (2, [50, 40], "accepted")
    assert ResultVersion.objects.count() == 1
    refusals = AuditEntry.objects.filter(drive=drive, action="result.key_reused").order_by("id")
    assert [entry.new for entry in refusals] == [
        {"winner": 2, "points": [60, 30]},
        {"winner": 2, "points": None},
        {"winner": 1, "points": [50, 40]},
        {"winner": 1, "points": [60, 30]},
    ]
    assert refusals[0].old == {"winner": 2, "points": [50, 40]}
    # The identical body again (points in either order) is a replay.
    for points in ([50, 40], [40, 50]):
        again = api.put(url, {"winner": 2, "points": points, "key": "k1"}, token=token)
        assert again.status_code == 200 and again.json()["replayed"] is True
        assert again.json()["points"] == [50, 40]


def test_a_key_first_sent_without_points_replays_only_without_points(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    url = result_url(drive, 1, 1)
    assert api.put(url, {"winner": 2, "key": "k1"}, token=ours.org_token).status_code == 201
    again = api.put(url, {"winner": 2, "key": "k1"}, token=ours.org_token)
    assert again.status_code == 200 and again.json()["replayed"] is True
    late = api.put(url, {"winner": 2, "points": [50, 40], "key": "k1"}, token=ours.org_token)
    assert late.status_code == 409 and late.json()["code"] == "key_reused"
    assert late.json()["differs"] == ["points"] and late.json()["points"] is None
    assert Result.objects.get().points is None


def test_the_same_winner_with_other_points_is_a_conflict_for_the_desk(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    url = result_url(drive, 1, 1)
    first = api.put(url, {"winner": 2, "points": [50, 40], "key": "phone"}, token=ours.org_token)
    assert first.status_code == 201
    # The winner alone, under another key, says nothing the stored result does not.
    agrees = api.put(url, {"winner": 2}, token=ours.scorer_token)
    assert agrees.status_code == 200 and agrees.json()["replayed"] is True
    other = api.put(url, {"winner": 2, "points": [60, 30], "key": "desk"}, token=ours.scorer_token)
    assert other.status_code == 409, other.json()
    error = other.json()
    assert error["code"] == "result_conflict" and error["differs"] == ["points"]
    assert error["winner"] == 2 and error["points"] == [50, 40]
    assert "50–40" in error["message"] and "60–30" in error["message"]
    result = Result.objects.get()
    assert result.state == "conflict" and result.points == [50, 40]
    kept = ResultVersion.objects.get(kind="conflicting")
    assert (kept.winner.number, kept.winner_points, kept.loser_points) == (2, 60, 30)
    game = api.get(f"drives/{drive.slug}/games/1", token=ours.org_token).json()
    assert game["conflicts"] == [1]
    blocked = api.post(f"drives/{drive.slug}/games/1/advance", token=ours.org_token)
    assert blocked.status_code == 409 and blocked.json()["conflicts"] == [1]
    # The desk settles it; the same settlement again is a replay that writes nothing.
    resolve = f"drives/{drive.slug}/games/1/tables/1/resolve"
    body = {"winner": 2, "points": [60, 30], "reason": "the score sheet says 60-30"}
    settled = api.post(resolve, body, token=ours.scorer_token)
    assert settled.status_code == 200, settled.json()
    assert settled.json()["replayed"] is False
    assert settled.json()["points"] == [60, 30] and settled.json()["state"] == "accepted"
    versions = ResultVersion.objects.count()
    again = api.post(resolve, body, token=ours.scorer_token)
    assert again.status_code == 200 and again.json()["replayed"] is True
    assert ResultVersion.objects.count() == versions
    assert AuditEntry.objects.filter(action="result.resolve").count() == 1
    other_reason = api.post(resolve, body | {"reason": "checked twice"}, token=ours.scorer_token)
    assert other_reason.json()["replayed"] is False
    assert api.get(f"drives/{drive.slug}/games/1", token=ours.org_token).json()["conflicts"] == []


@pytest.mark.parametrize(
    ("game", "table", "body", "code"),
    [
        (1, 2, {"winner": 1}, "wrong_couple"),
        (3, 1, {"winner": 1}, "game_not_started"),
        (1, 9, {"winner": 1}, "no_such_table"),
        (1, 2, {"winner": 3, "points": [45, 20]}, "not_whole_hands"),
        (1, 2, {"winner": 3, "points": [45, 30]}, "unusual_score"),
        (1, 2, {"winner": "3"}, "bad_winner"),
        (1, 2, {}, "bad_winner"),
        (1, 2, {"winner": 3, "points": [45]}, "bad_points"),
        (1, 2, {"winner": 3, "key": 12}, "bad_key"),
        (1, 2, {"winner": 3, "colour": "red"}, "unknown_field"),
    ],
)
def test_invalid_results_are_422_with_a_code(api, ours, game, table, body, code) -> None:
    drive = make_drive(ours.club, 4, start=True)
    answer = api.put(result_url(drive, game, table), body, token=ours.org_token)
    assert answer.status_code == 422, answer.json()
    assert answer.json()["code"] == code
    assert answer.json()["message"]
    assert not Result.objects.exists()


def test_illegal_score_carries_the_engines_verdict(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    answer = api.put(
        result_url(drive, 1, 2), {"winner": 3, "points": [45, 20]}, token=ours.org_token
    )
    assert answer.status_code == 422
    assert answer.json()["verdict"]["status"] == "impossible"
    assert answer.json()["verdict"]["code"] == "not_whole_hands"


def test_unusual_score_stored_once_confirmed(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    url = result_url(drive, 1, 2)
    refused = api.put(url, {"winner": 3, "points": [45, 30]}, token=ours.org_token)
    assert refused.status_code == 422
    assert refused.json()["verdict"]["status"] == "unusual"
    stored = api.put(
        url, {"winner": 3, "points": [30, 45], "confirm_unusual": True}, token=ours.org_token
    )
    assert stored.status_code == 201
    assert stored.json()["points"] == [45, 30] and stored.json()["verdict"] == "trumpless_hands"
    game = api.get(f"drives/{drive.slug}/games/1", token=ours.org_token).json()
    assert game["unusual"] == [2]


def test_a_game_no_longer_in_play_and_a_closed_drive(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    play(api, drive, 1, ours.org_token)
    assert api.post(f"drives/{drive.slug}/games/1/advance", token=ours.org_token).status_code == 201
    over = api.put(result_url(drive, 1, 1), {"winner": 2}, token=ours.org_token)
    assert over.status_code == 422 and over.json()["code"] == "game_not_in_play"
    # The same result as stored is still a replay after the advance.
    assert api.put(result_url(drive, 1, 1), {"winner": 1}, token=ours.org_token).status_code == 200
    drive_close(drive=drive, actor=DESK)
    closed = api.put(result_url(drive, 2, 1), {"winner": 1}, token=ours.org_token)
    assert closed.status_code == 422 and closed.json()["code"] == "drive_closed"


def test_malformed_bodies_are_400(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    url = result_url(drive, 1, 1)
    for raw, code in [
        ("{winner: 1", "bad_json"),
        ('{"winner": NaN}', "bad_json"),
        (b"\xff\xfe\x00", "bad_json"),
        ("[1, 2]", "bad_body"),
        ('"winner"', "bad_body"),
        ("", "missing_body"),
        ("[" * 100_000, "bad_json"),
    ]:
        answer = api.put(url, raw=raw, token=ours.org_token)
        assert answer.status_code == 400, (raw[:20], answer.content[:200])
        assert answer.json()["code"] == code
    nul = api.put(url, {"winner": 1, "key": "a\u0000b"}, token=ours.org_token)
    assert nul.status_code == 422 and nul.json()["code"] == "bad_text"
    assert not Result.objects.exists()


def test_a_body_over_one_megabyte_is_413(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    big = '{"winner": 1, "key": "' + "x" * 1_000_001 + '"}'
    answer = api.put(result_url(drive, 1, 1), raw=big, token=ours.org_token)
    assert answer.status_code == 413 and answer.json()["code"] == "body_too_large"


def test_huge_numbers_in_the_path_are_404_not_500(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    answer = api.put(result_url(drive, 10**30, 1), {"winner": 1}, token=ours.org_token)
    assert answer.status_code == 404 and answer.json()["code"] == "no_such_endpoint"
    zero = api.put(result_url(drive, 0, 1), {"winner": 1}, token=ours.org_token)
    assert zero.status_code == 422 and zero.json()["code"] == "bad_game"


# --- table and couple tokens -------------------------------------------------------------------


def test_a_table_token_enters_its_own_table_only(api, ours) -> None:
    drive = make_drive(ours.club, 6, start=True)
    token = table_token(drive, 2)
    own = api.put(result_url(drive, 1, 2), {"winner": 3}, token=token)
    assert own.status_code == 201
    version = ResultVersion.objects.get()
    assert version.channel == AuditEntry.Channel.TABLE and version.user is None
    other = api.put(result_url(drive, 1, 1), {"winner": 1}, token=token)
    assert other.status_code == 403 and other.json()["code"] == "wrong_table"
    # Reading the game and the standings is fine; the desk's work is not.
    assert api.get(f"drives/{drive.slug}/games/1", token=token).status_code == 200
    assert api.get(f"drives/{drive.slug}/standings", token=token).status_code == 200
    assert api.get(f"drives/{drive.slug}/tables", token=token).status_code == 200
    assert api.get(f"drives/{drive.slug}/grid", token=token).status_code == 200
    for method, path in [
        ("POST", "games/1/tables/1/resolve"),
        ("POST", "games/1/advance"),
        ("GET", "export"),
        ("GET", "couples"),
    ]:
        answer = api.call(method, f"drives/{drive.slug}/{path}", {}, token=token)
        assert answer.status_code == 403 and answer.json()["code"] == "token_not_allowed"


def test_a_token_of_another_drive_is_404(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    other = make_drive(ours.club, 4, start=True)
    answer = api.put(result_url(drive, 1, 1), {"winner": 1}, token=table_token(other, 1))
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    read = api.get(f"drives/{drive.slug}/games/1", token=couple_token(other, 1))
    assert read.status_code == 404
    missing = api.get("drives/no-such-drive/games/1", token=ours.org_token)
    assert missing.json() == read.json()  # the same answer: nothing revealed


def test_tokens_of_a_closed_drive_are_dead(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    table, couple = table_token(drive, 1), couple_token(drive, 1)
    drive_close(drive=drive, actor=DESK)
    for token in (table, couple):
        answer = api.put(result_url(drive, 1, 1), {"winner": 1}, token=token)
        assert answer.status_code == 403 and answer.json()["code"] == "token_expired"
        assert api.get(f"drives/{drive.slug}/standings", token=token).status_code == 403
        assert api.get("me", token=token).json()["code"] == "token_expired"


def test_a_couple_token_enters_its_own_tables_result(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    token = couple_token(drive, 4)  # couple 4 arrives at table 2 in game 1
    wrong = api.put(result_url(drive, 1, 1), {"winner": 1}, token=token)
    assert wrong.status_code == 403 and wrong.json()["code"] == "wrong_table"
    assert wrong.json()["table"] == 2
    answer = api.put(result_url(drive, 1, 2), {"winner": 3}, token=token)
    assert answer.status_code == 201 and answer.json()["state"] == "accepted"
    version = ResultVersion.objects.get()
    assert version.channel == AuditEntry.Channel.COUPLE and version.couple.number == 4
    later = api.put(result_url(drive, 2, 1), {"winner": 1}, token=token)
    assert later.status_code == 422 and later.json()["code"] == "game_not_started"


def test_a_withdrawn_couple_has_no_table(api, ours) -> None:
    drive = make_drive(ours.club, 5, start=True)
    api.patch(f"drives/{drive.slug}/couples/5", {"withdrawn": True}, token=ours.org_token)
    play(api, drive, 1, ours.org_token)
    assert api.post(f"drives/{drive.slug}/games/1/advance", token=ours.org_token).status_code == 201
    answer = api.put(result_url(drive, 2, 1), {"winner": 1}, token=couple_token(drive, 5))
    assert answer.status_code == 403 and answer.json()["code"] == "wrong_table"


# --- the other couple confirms -------------------------------------------------------------------


def confirm_url(drive, game, table):
    return f"drives/{drive.slug}/games/{game}/tables/{table}/confirm"


def test_the_other_couple_confirms(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True, confirm_by_other_couple=True)
    entered = api.put(result_url(drive, 1, 1), {"winner": 1}, token=couple_token(drive, 1))
    assert entered.status_code == 201 and entered.json()["state"] == "pending"
    game = api.get(f"drives/{drive.slug}/games/1", token=ours.org_token).json()
    assert game["pending"] == [1]
    blocked = api.post(f"drives/{drive.slug}/games/1/advance", token=ours.org_token)
    assert blocked.status_code == 409 and blocked.json()["pending"] == [1]
    own = api.post(confirm_url(drive, 1, 1), {"accept": True}, token=couple_token(drive, 1))
    assert own.status_code == 422 and own.json()["code"] == "other_couple_confirms"
    stranger = api.post(confirm_url(drive, 1, 1), {"accept": True}, token=couple_token(drive, 3))
    assert stranger.status_code == 403 and stranger.json()["code"] == "wrong_table"
    desk = api.post(confirm_url(drive, 1, 1), {"accept": True}, token=ours.org_token)
    assert desk.status_code == 403 and desk.json()["code"] == "couple_token_required"
    confirmed = api.post(confirm_url(drive, 1, 1), {"accept": True}, token=couple_token(drive, 2))
    assert confirmed.status_code == 200 and confirmed.json()["state"] == "accepted"
    assert confirmed.json()["replayed"] is False
    # The same answer again (a double tap, a retry) is a replay; another answer is too late.
    again = api.post(confirm_url(drive, 1, 1), {"accept": True}, token=couple_token(drive, 2))
    assert again.status_code == 200 and again.json()["replayed"] is True
    assert ResultVersion.objects.filter(kind="confirmed").count() == 1
    assert AuditEntry.objects.filter(action="result.confirm").count() == 1
    late = api.post(confirm_url(drive, 1, 1), {"accept": False}, token=couple_token(drive, 2))
    assert late.status_code == 409 and late.json()["code"] == "not_pending"
    # The desk's entries need no confirmation.
    desk_entry = api.put(result_url(drive, 1, 2), {"winner": 3}, token=ours.scorer_token)
    assert desk_entry.json()["state"] == "accepted"


def test_a_rejection_is_a_conflict_the_desk_resolves(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True, confirm_by_other_couple=True)
    api.put(result_url(drive, 1, 2), {"winner": 4}, token=table_token(drive, 2))
    no_result = api.post(confirm_url(drive, 1, 1), {"accept": True}, token=couple_token(drive, 1))
    assert no_result.status_code == 404 and no_result.json()["code"] == "no_result"
    bad = api.post(confirm_url(drive, 1, 2), {"accept": "no"}, token=couple_token(drive, 3))
    assert bad.status_code == 422
    rejected = api.post(confirm_url(drive, 1, 2), {"accept": False}, token=couple_token(drive, 3))
    assert rejected.status_code == 200 and rejected.json()["state"] == "conflict"
    assert rejected.json()["replayed"] is False
    again = api.post(confirm_url(drive, 1, 2), {"accept": False}, token=couple_token(drive, 3))
    assert again.status_code == 200 and again.json()["replayed"] is True
    game = api.get(f"drives/{drive.slug}/games/1", token=table_token(drive, 2)).json()
    assert game["conflicts"] == [2]
    resolve = f"drives/{drive.slug}/games/1/tables/2/resolve"
    no_reason = api.post(resolve, {"winner": 3}, token=ours.scorer_token)
    assert no_reason.status_code == 422 and no_reason.json()["code"] == "reason_required"
    resolved = api.post(
        resolve, {"winner": 3, "reason": "Both couples agree"}, token=ours.scorer_token
    )
    assert resolved.status_code == 200 and resolved.json()["replayed"] is False
    assert resolved.json()["winner"] == 3 and resolved.json()["state"] == "accepted"
    kinds = list(ResultVersion.objects.order_by("id").values_list("kind", flat=True))
    assert kinds == ["entered", "rejected", "resolved"]


# --- the advance ---------------------------------------------------------------------------------


def test_advance_409_then_201_then_200(api, ours) -> None:
    drive = make_drive(ours.club, 5, start=True)
    url = f"drives/{drive.slug}/games/1/advance"
    api.put(result_url(drive, 1, 1), {"winner": 1}, token=ours.org_token)
    api.put(result_url(drive, 1, 1), {"winner": 2}, token=ours.scorer_token)  # conflict
    incomplete = api.post(url, token=ours.org_token)
    assert incomplete.status_code == 409
    body = incomplete.json()
    assert body["code"] == "game_incomplete"
    assert body["missing"] == [2] and body["conflicts"] == [1] and body["pending"] == []
    api.post(
        f"drives/{drive.slug}/games/1/tables/1/resolve",
        {"winner": 1, "reason": "Table 1 says couple 1"},
        token=ours.org_token,
    )
    api.put(result_url(drive, 1, 2), {"winner": 3}, token=ours.org_token)
    started = api.post(url, token=ours.org_token)
    assert started.status_code == 201
    game2 = started.json()
    assert game2["number"] == 2 and game2["state"] == "playing"
    assert [(t["table"], t["stays"], t["arrives"]) for t in game2["tables"]] == [
        (1, 2, 5),
        (2, 4, 1),
        (3, None, 3),
    ]
    replay = api.post(url, token=ours.org_token)
    assert replay.status_code == 200 and replay.json() == game2
    current = api.get(f"drives/{drive.slug}/games/current", token=ours.scorer_token)
    assert current.json() == game2
    not_yet = api.post(f"drives/{drive.slug}/games/3/advance", token=ours.org_token)
    assert not_yet.status_code == 422 and not_yet.json()["code"] == "game_not_started"


def test_a_scorer_may_not_advance_start_close_or_patch(api, ours) -> None:
    """Nor advance, on a drive whose settings keep the advance to organizers."""
    drive = make_drive(ours.club, 4, scorers_may_advance=False)
    token = ours.scorer_token
    for method, path, body in [
        ("POST", "start", {}),
        ("POST", "games/1/advance", {}),
        ("POST", "close", {}),
        ("PATCH", "", {"venue": "Hall"}),
    ]:
        answer = api.call(method, f"drives/{drive.slug}/{path}".rstrip("/"), body, token=token)
        assert answer.status_code == 403, (path, answer.json())
        assert answer.json()["code"] == "forbidden"


def test_a_scorer_advances_unless_the_drive_keeps_it_to_organizers(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    assert api.get(f"drives/{drive.slug}", token=ours.scorer_token).json()["scorers_may_advance"]
    play(api, drive, 1, ours.scorer_token)
    answer = api.post(f"drives/{drive.slug}/games/1/advance", token=ours.scorer_token)
    assert answer.status_code == 201 and answer.json()["number"] == 2
    patched = api.patch(
        f"drives/{drive.slug}", {"scorers_may_advance": False}, token=ours.org_token
    )
    assert patched.status_code == 200 and patched.json()["scorers_may_advance"] is False
    play(api, drive, 2, ours.scorer_token)
    refused = api.post(f"drives/{drive.slug}/games/2/advance", token=ours.scorer_token)
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    bad = api.patch(f"drives/{drive.slug}", {"scorers_may_advance": "yes"}, token=ours.org_token)
    assert bad.status_code == 422 and bad.json()["field"] == "scorers_may_advance"


def test_resolve_after_the_advance_changes_wins_not_seating(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    play(api, drive, 1, ours.org_token)  # 1 and 3 win
    started = api.post(f"drives/{drive.slug}/games/1/advance", token=ours.org_token).json()
    before = {
        r["number"]: r["wins"]
        for r in api.get(f"drives/{drive.slug}/standings", token=ours.org_token).json()
    }
    assert before == {1: 1, 2: 0, 3: 1, 4: 0}
    answer = api.post(
        f"drives/{drive.slug}/games/1/tables/2/resolve",
        {"winner": 4, "reason": "Mis-keyed at the desk", "points": [60, 30]},
        token=ours.scorer_token,
    )
    assert answer.status_code == 200 and answer.json()["points"] == [60, 30]
    after = {
        r["number"]: r["wins"]
        for r in api.get(f"drives/{drive.slug}/standings", token=ours.org_token).json()
    }
    assert after == {1: 1, 2: 0, 3: 0, 4: 1}
    assert (
        api.get(f"drives/{drive.slug}/games/2", token=ours.org_token).json()["tables"]
        == started["tables"]
    )
    version = ResultVersion.objects.get(kind="resolved")
    assert version.after_advance and version.channel == AuditEntry.Channel.API
    entry = AuditEntry.objects.get(action="result.resolve")
    assert "the seating already played does not" in entry.note
    grid = {
        r["number"]: r["games"]
        for r in api.get(f"drives/{drive.slug}/grid", token=ours.org_token).json()
    }
    assert grid[4] == {"1": "W", "2": "?"} and grid[3] == {"1": "L", "2": "?"}


def test_late_arrival_and_withdrawal_apply_from_the_next_game(api, ours) -> None:
    drive = make_drive(ours.club, 6, start=True)
    slug = drive.slug
    play(api, drive, 1, ours.org_token)
    late = api.post(
        f"drives/{slug}/couples", {"players": ["Late", "Comer"]}, token=ours.scorer_token
    )
    assert late.status_code == 201
    assert late.json() == [
        {
            "number": 7,
            "players": ["Late", "Comer"],
            "paid": False,
            "checked_in": False,
            "cookie_jar": False,
            "withdrawn": False,
            "joined_game": 2,
            "withdrawn_game": None,
            "holes": None,
        }
    ]
    gone = api.patch(f"drives/{slug}/couples/4", {"withdrawn": True}, token=ours.scorer_token)
    assert gone.status_code == 200 and gone.json()["withdrawn_game"] == 2
    # Game 1 is unchanged by either.
    tables_now = {
        r["number"] for r in api.get(f"drives/{slug}/tables", token=ours.org_token).json()
    }
    assert tables_now == {1, 2, 3, 4, 5, 6}
    game2 = api.post(f"drives/{slug}/games/1/advance", token=ours.org_token).json()
    seated = {c for t in game2["tables"] for c in (t["stays"], t["arrives"]) if c is not None}
    assert 7 in seated and 4 not in seated
    tables_then = {
        r["number"]: r for r in api.get(f"drives/{slug}/tables", token=ours.org_token).json()
    }
    assert 4 not in tables_then and tables_then[7]["table"] in {t["table"] for t in game2["tables"]}
    assert AuditEntry.objects.filter(action="couples.late", channel="api").exists()
    # A couple registered in setup is not "late".
    other = make_drive(ours.club, 0)
    couples_register(drive=other, couples=[{"players": ["X", "Y"]}])
    assert other.couples.get().joined_game == 1
