"""drives 0005: the sit-out is no table for drives created from now on; drives stored by the
older migrations keep the movement they were played with (``sit_out_last`` False), so their
seatings stay what their movement gives and ``drive check`` still passes them."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("drives", "0004_drive_scorers_may_advance")]
AFTER = [("drives", "0005_drive_sit_out_last")]


def migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection)


def test_drives_stored_before_keep_their_movement_and_new_ones_sit_out_last() -> None:
    old = migrate(BEFORE).loader.project_state(BEFORE).apps
    Club = old.get_model("drives", "Club")
    Drive = old.get_model("drives", "Drive")
    club = Club.objects.create(name="St. Joseph's Parish", slug="st-josephs-parish")
    Drive.objects.create(club=club, slug="old-friday", name="Friday 45s", date=date(2026, 11, 13))
    try:
        new = migrate(AFTER).loader.project_state(AFTER).apps
        Drive = new.get_model("drives", "Drive")
        assert Drive.objects.get(slug="old-friday").sit_out_last is False
        fresh = Drive.objects.create(
            club_id=club.pk, slug="new-friday", name="Friday 45s", date=date(2026, 11, 20)
        )
        assert fresh.sit_out_last is True
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
