"""The club's site receiving a night from the hall's laptop (POST /api/v1/clubs/{club}/nights,
scoring.records.publish): the whole night or nothing, the same night twice changes nothing, a
corrected night replaces the earlier one (audited), and what is refused says why."""

from __future__ import annotations

import copy
import gzip
import json
from datetime import date
from typing import Any

import pytest

from drives.models import AuditEntry, Couple, Drive
from drives.services import drive_close
from scoring.records.export import drive_export
from scoring.records.restore import drive_delete
from scoring.simulation import drive_simulate
from seasons.models import SeasonDrive
from seasons.services import season_create
from tests.api.helpers import DESK, make_drive

pytestmark = pytest.mark.django_db


def laptop_night(club: Any) -> dict[str, Any]:
    """A night played and closed on the laptop, as its export; then gone from this database,
    as the site has never seen it."""
    drive = make_drive(club, 8, start=True, games=3)
    drive_simulate(drive=drive, seed=1945)
    drive = drive_close(drive=Drive.objects.get(pk=drive.pk), actor=DESK)
    data = json.loads(json.dumps(drive_export(drive)))
    drive_delete(drive=drive)
    return data


def publish(api: Any, club: Any, data: Any, token: str, **kw: Any) -> Any:
    return api.post(f"clubs/{club.slug}/nights", data, token=token, **kw)


def test_a_night_is_published_once_and_a_correction_replaces_it(api: Any, ours: Any) -> None:
    season = season_create(
        club=ours.club, name="Fall", starts=date(2026, 9, 1), ends=date(2026, 12, 31)
    )
    data = laptop_night(ours.club)
    slug = data["drive"]["slug"]
    first = publish(api, ours.club, data, ours.org_token)
    assert first.status_code == 201, first.json()
    assert first.json()["status"] == "created"
    drive = Drive.objects.get(slug=slug)
    assert drive.club == ours.club and drive.state == Drive.State.CLOSED
    assert SeasonDrive.objects.get(drive=drive).season == season  # counts in the season
    assert Couple.objects.filter(drive=drive).count() == 8

    again = publish(api, ours.club, data, ours.org_token)
    assert again.status_code == 200 and again.json()["status"] == "unchanged"
    assert Drive.objects.get(slug=slug).pk == drive.pk  # nothing rewritten

    corrected = copy.deepcopy(data)
    corrected["couples"][0]["players"] = ["Mary MacDonald", "Angus MacDonald"]
    replaced = publish(api, ours.club, corrected, ours.org_token)
    assert replaced.status_code == 200 and replaced.json()["status"] == "replaced"
    drive = Drive.objects.get(slug=slug)
    assert Couple.objects.get(drive=drive, number=1).players == [
        "Mary MacDonald",
        "Angus MacDonald",
    ]
    entry = AuditEntry.objects.filter(drive=drive, action="drive.publish").get()
    assert entry.old == {"digest": first.json()["digest"]}
    assert entry.new["digest"] == replaced.json()["digest"] != first.json()["digest"]
    assert SeasonDrive.objects.filter(drive=drive).exists()


def test_a_gzipped_night_is_taken(api: Any, ours: Any) -> None:
    data = laptop_night(ours.club)
    body = gzip.compress(json.dumps(data).encode())
    answer = publish(api, ours.club, None, ours.org_token, raw=body, HTTP_CONTENT_ENCODING="gzip")
    assert answer.status_code == 201, answer.json()


def test_what_is_refused_says_why_and_writes_nothing(api: Any, ours: Any, theirs: Any) -> None:
    data = laptop_night(ours.club)
    slug = data["drive"]["slug"]
    other = publish(api, ours.club, data, theirs.org_token)
    assert other.status_code == 403 and other.json()["code"] == "another_club"
    scorer = publish(api, ours.club, data, ours.scorer_token)
    assert scorer.status_code == 403
    nobody = publish(api, ours.club, data, None)
    assert nobody.status_code == 401
    newer = publish(api, ours.club, {**data, "format": "fortyfives-drive/2"}, ours.org_token)
    assert newer.status_code == 422
    assert newer.json()["code"] == "other_version"
    assert "fortyfives-drive/2" in newer.json()["message"]
    broken = copy.deepcopy(data)
    broken["games"][0]["tables"][0]["winner"] = 99
    bad = publish(api, ours.club, broken, ours.org_token)
    assert bad.status_code == 422 and bad.json()["code"] == "bad_export"
    not_gzip = publish(
        api, ours.club, None, ours.org_token, raw=b"not gzip", HTTP_CONTENT_ENCODING="gzip"
    )
    assert not_gzip.status_code == 400
    assert not Drive.objects.filter(slug=slug).exists()
    assert not AuditEntry.objects.filter(action="drive.publish").exists()
    # A slug the site has for another club's drive.
    theirs_drive = make_drive(theirs.club, 0)
    clash = publish(
        api,
        ours.club,
        {**data, "drive": {**data["drive"], "slug": theirs_drive.slug}},
        ours.org_token,
    )
    assert clash.status_code == 409 and clash.json()["code"] == "drive_exists"
    assert Drive.objects.get(slug=theirs_drive.slug).club == theirs.club
