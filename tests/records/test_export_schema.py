"""The export's one schema (scoring/records/schema.py): published in docs/ and by the API, met
by every export, checked by every restore, and a night of any shape comes back identical."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, get_args

import jsonschema_rs
import pytest
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drives.errors import ServiceError
from drives.models import AuditEntry, Drive
from scoring.records.export import drive_export
from scoring.records.restore import drive_delete, drive_restore
from scoring.records.schema import VERSION, Channel, json_schema
from scoring.services import result_record
from tests.api.helpers import Api, make_club
from tests.scoring.nights import (
    DESK,
    advance,
    lower_number,
    new_drive,
    play_game,
    seeded,
    start,
    withdraw,
)

pytestmark = pytest.mark.django_db

DOCS = Path(__file__).resolve().parents[2] / "docs" / "export.schema.json"


def test_the_published_schema_is_the_one_the_code_checks() -> None:
    assert json.loads(DOCS.read_text(encoding="utf-8")) == json_schema(), (
        "docs/export.schema.json is out of date: write json_schema() to it"
    )


def test_the_channels_are_the_audits() -> None:
    assert set(get_args(Channel)) == {"", *AuditEntry.Channel.values}


def played_night(seed: int, couples: int, games: int, played: int, **options: Any) -> Drive:
    drive = new_drive(couples, games=games, name=f"Night {seed}", **options)
    start(drive)
    rng = random.Random(seed)
    for game in range(1, played + 1):
        play_game(drive, game, seeded(rng))
        if game < games:
            advance(drive, game)
    return drive


def restored_again(drive: Drive) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the export, the export of the drive restored from it into a database without it)."""
    first = drive_export(drive)
    drive_delete(drive=drive)
    assert not Drive.objects.exists()
    drive_restore(data=json.loads(json.dumps(first)))
    second = drive_export(Drive.objects.get(slug=first["drive"]["slug"]))
    restore_entry = second["audit"].pop()
    assert restore_entry["action"] == "drive.restore"
    return first, second


@settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 10_000),
    couples=st.integers(2, 11),
    games=st.integers(1, 4),
    played=st.integers(0, 4),
    withdrawn=st.booleans(),
    points=st.booleans(),
)
def test_any_night_exported_and_restored_exports_the_same(
    seed: int, couples: int, games: int, played: int, withdrawn: bool, points: bool
) -> None:
    with transaction.atomic():
        drive = played_night(seed, couples, games, min(played, games))
        if withdrawn and 0 < drive.current_game < games and couples > 2:
            withdraw(drive, couples)
        if points and drive.current_game:
            # A result with points, entered loser first, at the first table of the game in play.
            game = drive.current_game
            seat = drive_export(drive)["games"][game - 1]["tables"][0]
            if seat["stays"] and seat["arrives"] and seat["winner"] is None:
                result_record(
                    drive=drive,
                    game=game,
                    table=seat["table"],
                    winner=seat["arrives"],
                    points=[40, 45],
                    confirm_unusual=True,
                    actor=DESK,
                )
        first, second = restored_again(drive)
        assert first["version"] == VERSION
        assert second == first
        transaction.set_rollback(True)


def test_a_night_whose_table_closed_exports_and_comes_back() -> None:
    """A drive stored before the sit-out rule closes a table that two withdrawals empty: its
    export names the table and the game it closed at, and the drive comes back with it."""
    drive = new_drive(8)
    Drive.objects.filter(pk=drive.pk).update(sit_out_last=False)
    drive.refresh_from_db()
    start(drive)
    play_game(drive, 1, lower_number)
    withdraw(drive, 3, 5)
    advance(drive, 1)
    first, second = restored_again(drive)
    assert json.loads(json.dumps(first))["closed_tables"] == {"4": 2}
    assert second == first


def test_the_exports_match_the_published_json_schema() -> None:
    api, ours = Api(Client()), make_club("St. Joseph's Parish", "ours")
    drive = played_night(7, 9, 3, 2, club=ours.club)
    answer = api.get("export-schema", token=ours.scorer_token)
    assert answer.status_code == 200
    published = answer.json()
    assert published == json_schema()
    export = api.get(f"drives/{drive.slug}/export", token=ours.scorer_token).json()
    jsonschema_rs.validate(published, export)
    export["couples"][0]["players"] = ["Solo"]
    with pytest.raises(jsonschema_rs.ValidationError):
        jsonschema_rs.validate(published, export)


def test_a_file_of_another_version_is_refused_and_one_without_it_is_version_1() -> None:
    drive = played_night(3, 6, 2, 1)
    data = drive_export(drive)
    drive_delete(drive=drive)
    with pytest.raises(ServiceError) as info:
        drive_restore(data=data | {"version": 2})
    assert info.value.code == "bad_export" and info.value.message.startswith("version: ")
    assert not Drive.objects.exists()
    older = {key: value for key, value in data.items() if key != "version"}
    drive_restore(data=older)
    assert drive_export(Drive.objects.get())["version"] == 1
