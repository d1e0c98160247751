"""A table calls the desk: ``POST …/games/{n}/tables/{t}/call`` with the table's token (or a
couple's seated there), ``GET …/calls``, ``POST …/calls/{id}/answer`` and ``…/close`` by the
members; every code the API promises, every write audited, nothing half-written."""

import pytest

from drives.inputs import CALL_REASON_MAX
from drives.models import AuditEntry
from scoring.models import TableCall
from tests.api.helpers import couple_token, make_drive, table_token

pytestmark = pytest.mark.django_db


def call_url(drive, game, table):
    return f"drives/{drive.slug}/games/{game}/tables/{table}/call"


def test_a_table_calls_the_desk_which_answers_and_closes(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    opened = api.post(
        call_url(drive, 1, 2), {"reason": "a renege claim"}, token=table_token(drive, 2)
    )
    assert opened.status_code == 201, opened.json()
    body = opened.json()
    assert body["state"] == "open" and body["table"] == 2 and body["game"] == 1
    call_id = body["id"]

    listed = api.get(f"drives/{drive.slug}/calls", token=ours.scorer_token)
    assert listed.status_code == 200
    [call] = listed.json()
    assert call["id"] == call_id and call["table"] == 2 and call["game"] == 1
    assert call["reason"] == "a renege claim" and call["waited_s"] >= 0

    answered = api.post(f"drives/{drive.slug}/calls/{call_id}/answer", token=ours.scorer_token)
    assert answered.status_code == 200 and answered.json()["state"] == "answered"
    # Still listed, now answered: the desk is on its way.
    assert [
        c["state"] for c in api.get(f"drives/{drive.slug}/calls", token=ours.org_token).json()
    ] == ["answered"]
    closed = api.post(f"drives/{drive.slug}/calls/{call_id}/close", token=ours.org_token)
    assert closed.status_code == 200 and closed.json()["state"] == "closed"
    assert api.get(f"drives/{drive.slug}/calls", token=ours.org_token).json() == []
    # Closed again: a replay, nothing written.
    again = api.post(f"drives/{drive.slug}/calls/{call_id}/close", token=ours.org_token)
    assert again.status_code == 200
    actions = list(
        AuditEntry.objects.filter(action__startswith="call.").values_list("action", "channel")
    )
    assert actions == [
        ("call.open", AuditEntry.Channel.TABLE),
        ("call.answer", AuditEntry.Channel.API),
        ("call.close", AuditEntry.Channel.API),
    ]
    # The table may call again once the call is closed; no body at all is fine.
    assert api.post(call_url(drive, 1, 2), token=table_token(drive, 2)).status_code == 201


def test_a_second_open_call_from_the_same_table_is_409(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    first = api.post(call_url(drive, 1, 1), {"reason": "a misdeal"}, token=table_token(drive, 1))
    assert first.status_code == 201
    second = api.post(call_url(drive, 1, 1), {}, token=couple_token(drive, 1))
    assert second.status_code == 409 and second.json()["code"] == "call_open"
    # Answered is not closed: still one call at a time.
    api.post(f"drives/{drive.slug}/calls/{first.json()['id']}/answer", token=ours.org_token)
    third = api.post(call_url(drive, 1, 1), token=table_token(drive, 1))
    assert third.status_code == 409 and third.json()["code"] == "call_open"
    assert TableCall.objects.count() == 1
    assert AuditEntry.objects.filter(action="call.open").count() == 1
    # Another table calls freely.
    assert api.post(call_url(drive, 1, 2), token=table_token(drive, 2)).status_code == 201


def test_a_couple_seated_at_the_table_may_call_another_may_not(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    seated = api.post(call_url(drive, 1, 1), token=couple_token(drive, 2))
    assert seated.status_code == 201
    call = TableCall.objects.get()
    assert call.channel == AuditEntry.Channel.COUPLE and call.couple.number == 2
    elsewhere = api.post(call_url(drive, 1, 1), token=couple_token(drive, 3))
    assert elsewhere.status_code == 403 and elsewhere.json()["code"] == "wrong_table"
    other_token = api.post(call_url(drive, 1, 1), token=table_token(drive, 2))
    assert other_token.status_code == 403 and other_token.json()["code"] == "wrong_table"


def test_a_table_not_seated_that_game_is_422(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    nobody = api.post(call_url(drive, 1, 9), token=ours.org_token)
    assert nobody.status_code == 422 and nobody.json()["code"] == "no_such_table"
    later = api.post(call_url(drive, 2, 1), token=ours.org_token)
    assert later.status_code == 422 and later.json()["code"] == "game_not_started"
    assert not TableCall.objects.exists()
    assert not AuditEntry.objects.filter(action__startswith="call.").exists()


def test_bad_bodies_are_refused_and_name_the_problem(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    token = table_token(drive, 1)
    long = api.post(call_url(drive, 1, 1), {"reason": "x" * (CALL_REASON_MAX + 1)}, token=token)
    assert long.status_code == 422 and long.json()["code"] == "bad_reason"
    assert long.json()["field"] == "reason"
    number = api.post(call_url(drive, 1, 1), {"reason": 12}, token=token)
    assert number.status_code == 422 and number.json()["code"] == "bad_reason"
    extra = api.post(call_url(drive, 1, 1), {"reason": "ok", "urgent": True}, token=token)
    assert extra.status_code == 422
    assert not TableCall.objects.exists()
    # The longest reason allowed is stored whole, spaces around it tidied away.
    fits = api.post(call_url(drive, 1, 1), {"reason": f"  {'y' * CALL_REASON_MAX} "}, token=token)
    assert fits.status_code == 201 and fits.json()["reason"] == "y" * CALL_REASON_MAX


def test_members_only_list_answer_and_close(api, ours, theirs) -> None:
    drive = make_drive(ours.club, 4, start=True)
    call_id = api.post(call_url(drive, 1, 1), token=table_token(drive, 1)).json()["id"]
    table = table_token(drive, 1)
    assert api.get(f"drives/{drive.slug}/calls", token=table).status_code == 403
    refused = api.post(f"drives/{drive.slug}/calls/{call_id}/answer", token=table)
    assert refused.status_code == 403
    outsider = api.post(f"drives/{drive.slug}/calls/{call_id}/close", token=theirs.org_token)
    assert outsider.status_code == 404
    unknown = api.post(f"drives/{drive.slug}/calls/{call_id + 99}/answer", token=ours.org_token)
    assert unknown.status_code == 404 and unknown.json()["code"] == "no_such_call"
    assert TableCall.objects.get().state == "open"


def test_a_closed_call_cannot_be_answered(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    call_id = api.post(call_url(drive, 1, 1), token=table_token(drive, 1)).json()["id"]
    api.post(f"drives/{drive.slug}/calls/{call_id}/close", token=ours.org_token)
    late = api.post(f"drives/{drive.slug}/calls/{call_id}/answer", token=ours.org_token)
    assert late.status_code == 409 and late.json()["code"] == "call_closed"
    assert TableCall.objects.get().answered_at is None


def test_the_calls_are_in_the_openapi_description(api, ours) -> None:
    schema = api.get("openapi.json").json()
    opened = schema["paths"]["/drives/{slug}/games/{n}/tables/{t}/call"]["post"]
    assert {"201", "409", "422"} <= set(opened["responses"])
    for code in ("call_open", "no_such_table", "bad_reason"):
        assert code in opened["description"]
    assert "/drives/{slug}/calls" in schema["paths"]
    assert "post" in schema["paths"]["/drives/{slug}/calls/{call}/answer"]
    assert "post" in schema["paths"]["/drives/{slug}/calls/{call}/close"]
