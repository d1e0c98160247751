"""The look-ups of the result path (a card's token, the drive's lock, the table's seat and
result) find what is stored, with their related rows and no further query, on SQLite and on
PostgreSQL (where the drive is locked FOR SHARE for a result, FOR UPDATE otherwise)."""

from __future__ import annotations

import random
import threading
from decimal import Decimal
from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.models import Model
from django.test.utils import CaptureQueriesContext

from drives.errors import ServiceError
from drives.guards import lock_drive
from drives.models import AuditEntry, Couple, Drive, Seat, Table
from drives.tokens import token_owner
from scoring.models import Result, ResultVersion
from scoring.services import result_at, result_record, seat_for
from tests.scoring.nights import DESK, advance, new_drive, play_game, seeded, start, withdraw

pytestmark = pytest.mark.django_db

TIMEOUT = 10


def values(instance: Model | None) -> dict[str, Any] | None:
    """Every concrete column's value, as the instance holds it."""
    if instance is None:
        return None
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


@pytest.fixture
def drive() -> Drive:
    """A started night of 5 tables whose drive has a value in every sort of column (a date,
    a decimal, booleans, a datetime) and a withdrawn couple, so that game 2 seats a sit-out."""
    drive = new_drive(10, entry_fee=Decimal("5.50"), confirm_by_other_couple=True)
    start(drive)
    withdraw(drive, 4)
    Drive.objects.filter(pk=drive.pk).update(published=True)
    drive.refresh_from_db()
    return drive


def test_a_table_token_reads_its_table_drive_and_club_as_the_orm_does(drive: Drive) -> None:
    for table in Table.objects.filter(drive=drive):
        owner = token_owner(table.token)
        assert owner is not None and owner.kind == "table"
        expected = Table.objects.select_related("drive__club").get(pk=table.pk)
        assert values(owner.table) == values(expected)
        assert values(owner.table.drive) == values(expected.drive)
        assert values(owner.table.drive.club) == values(expected.drive.club)
        assert isinstance(owner.table.drive.entry_fee, Decimal)  # SQLite's converters applied
        assert owner.table.drive.published is True


def test_a_couple_token_reads_its_couple_and_drive_with_no_further_query(drive: Drive) -> None:
    couple = Couple.objects.filter(drive=drive).order_by("number")[2]
    with CaptureQueriesContext(connection) as queries:
        owner = token_owner(couple.token)
        assert owner is not None and owner.couple is not None
        slug, club = owner.couple.drive.slug, owner.couple.drive.club.name
    # One look-up for table tokens (none matched), one for couples; the drive and club came
    # with it.
    assert len(queries) == 2
    assert (slug, club) == (drive.slug, drive.club.name)
    assert values(owner.couple) == values(Couple.objects.get(pk=couple.pk))


def test_an_unknown_token_is_nobodys() -> None:
    assert token_owner("x" * 22) is None


def test_the_locked_drive_is_the_stored_one(drive: Drive) -> None:
    for shared in (False, True):
        locked = lock_drive(drive, shared=shared)
        stored = Drive.objects.select_related("club").get(pk=drive.pk)
        assert values(locked) == values(stored)
        assert values(locked.club) == values(stored.club)


def test_a_missing_drive_is_an_orm_does_not_exist(drive: Drive) -> None:
    gone = Drive(pk=drive.pk + 1000)
    with pytest.raises(Drive.DoesNotExist):
        lock_drive(gone)


def test_every_seat_of_a_game_reads_as_the_orm_does_sit_outs_included(drive: Drive) -> None:
    play_game(drive, 1, seeded(random.Random(3)))
    advance(drive, 1)
    seen_sit_out = False
    for number in (1, 2):
        expected = Seat.objects.select_related("game", "table", "stays", "arrives").filter(
            game__drive=drive, game__number=number
        )
        for seat in expected:
            game, found = seat_for(drive, number, seat.table.number, lock=True)
            assert values(found) == values(seat)
            assert values(game) == values(seat.game)
            for field in ("table", "stays", "arrives"):
                assert values(getattr(found, field)) == values(getattr(seat, field)), field
            seen_sit_out |= found.stays is None or found.arrives is None
    assert seen_sit_out, "the withdrawal was meant to leave a couple sitting out"


def test_a_tables_result_reads_as_the_orm_does(drive: Drive) -> None:
    play_game(drive, 1, seeded(random.Random(5)))
    for result in Result.objects.select_related("seat", "winner").filter(game__drive=drive):
        found = result_at(result.seat)
        assert values(found) == values(result)
        assert found is not None and values(found.winner) == values(result.winner)
    empty_seat = Seat(pk=0)
    assert result_at(empty_seat) is None


def test_a_recorded_result_is_stored_whole(drive: Drive) -> None:
    seat = Seat.objects.select_related("stays", "table").filter(game__drive=drive).first()
    assert seat is not None and seat.stays is not None
    recorded = result_record(
        drive=drive,
        game=1,
        table=seat.table.number,
        winner=seat.stays.number,
        points=[60, 30],
        key="k-1",
        actor=DESK,
    )
    stored = Result.objects.get(pk=recorded.result.pk)
    assert values(stored) == values(recorded.result)
    version = ResultVersion.objects.get(result=stored)
    assert (version.kind, version.key, version.winner_id) == ("entered", "k-1", seat.stays.pk)
    assert AuditEntry.objects.filter(drive=drive, action="result.enter").count() == 1


def test_numbers_past_a_columns_range_find_no_seat(drive: Drive) -> None:
    for game, table, code in ((2**70, 1, "bad_game"), (1, 2**70, "bad_table")):
        with pytest.raises(ServiceError) as caught:
            seat_for(drive, game, table)
        assert caught.value.code == code


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_results_share_the_drive_lock_and_an_exclusive_writer_waits(
    drive: Drive,
) -> None:
    """While one result's transaction holds the drive (FOR SHARE), another result's lock is
    granted at once (tables are recorded side by side), and an exclusive lock (an advance's,
    FOR UPDATE) waits for it."""
    held, release = threading.Event(), threading.Event()

    def one_result() -> None:
        try:
            with transaction.atomic():
                lock_drive(drive, shared=True)
                held.set()
                release.wait(TIMEOUT)
        finally:
            connection.close()

    thread = threading.Thread(target=one_result)
    thread.start()
    try:
        assert held.wait(TIMEOUT)
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '2s'")
            assert lock_drive(drive, shared=True).pk == drive.pk
        with pytest.raises(DatabaseError, match="lock timeout"), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '200ms'")
            lock_drive(drive)
    finally:
        release.set()
        thread.join(TIMEOUT)
