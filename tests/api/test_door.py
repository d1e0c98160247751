"""The door through the API: deleting a couple registered by mistake (before the start
only), and what the start does with the couples not checked in."""

import pytest

from drives.models import AuditEntry, Couple
from drives.services import couple_update, drive_start
from tests.api.helpers import DESK, make_drive

pytestmark = pytest.mark.django_db


def delete(api, drive, number, token):
    return api.call("DELETE", f"drives/{drive.slug}/couples/{number}", token=token)


def test_a_couple_is_deleted_before_the_start_and_audited(api, ours) -> None:
    drive = make_drive(ours.club, 4)
    response = delete(api, drive, 2, ours.scorer_token)
    assert response.status_code == 204
    assert response.content == b""
    assert list(Couple.objects.filter(drive=drive).values_list("number", flat=True)) == [1, 3, 4]
    entry = AuditEntry.objects.get(drive=drive, action="couple.delete")
    assert entry.channel == "api" and entry.subject == "couple 2"
    assert entry.old["number"] == 2 and len(entry.old["players"]) == 2
    added = api.post(
        f"drives/{drive.slug}/couples", {"players": ["New", "Pair"]}, token=ours.org_token
    )
    assert added.json()[0]["number"] == 5
    assert delete(api, drive, 2, ours.org_token).status_code == 404


def test_after_the_start_a_delete_is_409_started(api, ours) -> None:
    drive = make_drive(ours.club, 4)
    drive_start(drive=drive, actor=DESK)
    response = delete(api, drive, 2, ours.org_token)
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "started"
    assert "withdraw" in body["message"].lower()
    assert Couple.objects.filter(drive=drive).count() == 4


def start(api, drive, ours, body=None):
    return api.post(f"drives/{drive.slug}/start", body, token=ours.org_token)


def test_the_start_seats_the_couples_not_checked_in_by_default(api, ours) -> None:
    drive = make_drive(ours.club, 4)
    assert start(api, drive, ours).status_code == 201
    assert not Couple.objects.filter(drive=drive, withdrawn_game__isnull=False).exists()


def test_the_start_may_leave_out_the_couples_not_checked_in(api, ours) -> None:
    drive = make_drive(ours.club, 6)
    for couple in Couple.objects.filter(drive=drive, number__in=[1, 2, 4, 5]):
        couple_update(couple=couple, actor=DESK, checked_in=True)
    response = start(api, drive, ours, {"absent": "withdraw"})
    assert response.status_code == 201
    seated = {n for t in response.json()["tables"] for n in (t["stays"], t["arrives"]) if n}
    assert seated == {1, 2, 4, 5}
    assert dict(Couple.objects.filter(drive=drive).values_list("number", "withdrawn_game")) == {
        1: None,
        2: None,
        3: 1,
        4: None,
        5: None,
        6: 1,
    }
    entry = AuditEntry.objects.get(drive=drive, action="drive.start")
    assert entry.new["withdrawn_not_checked_in"] == [3, 6]


def test_a_bad_absent_is_422_naming_it(api, ours) -> None:
    drive = make_drive(ours.club, 4)
    response = start(api, drive, ours, {"absent": "send-home"})
    assert response.status_code == 422
    assert response.json()["field"] == "absent"
    assert "absent" in response.json()["message"]
    drive.refresh_from_db()
    assert drive.state == "setup"
