"""The hand-written statements of the result path (drives/rows.py) read and write exactly what
the ORM would: the same instances from the same rows, the same stored columns from the same
instance, on SQLite and on PostgreSQL (prepared there once per connection)."""

from __future__ import annotations

import random
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.db.models import Model
from django.db.models.signals import post_init, post_save, pre_init, pre_save
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from drives import rows
from drives.errors import ServiceError
from drives.models import AuditEntry, Club, Couple, Drive, Seat, Table
from drives.services import _lock
from drives.tokens import token_owner
from scoring.models import Result, ResultVersion
from scoring.services import _result_at, _seat_for, result_record
from tests.scoring.nights import DESK, advance, new_drive, play_game, seeded, start, withdraw

pytestmark = pytest.mark.django_db


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
        locked = _lock(drive, shared=shared)
        stored = Drive.objects.select_related("club").get(pk=drive.pk)
        assert values(locked) == values(stored)
        assert values(locked.club) == values(stored.club)


def test_a_missing_drive_is_an_orm_does_not_exist(drive: Drive) -> None:
    gone = Drive(pk=drive.pk + 1000)
    with pytest.raises(Drive.DoesNotExist):
        _lock(gone)


def test_every_seat_of_a_game_reads_as_the_orm_does_sit_outs_included(drive: Drive) -> None:
    play_game(drive, 1, seeded(random.Random(3)))
    advance(drive, 1)
    seen_sit_out = False
    for number in (1, 2):
        expected = Seat.objects.select_related("game", "table", "stays", "arrives").filter(
            game__drive=drive, game__number=number
        )
        for seat in expected:
            game, found = _seat_for(drive, number, seat.table.number, lock=True)
            assert values(found) == values(seat)
            assert values(game) == values(seat.game)
            for field in ("table", "stays", "arrives"):
                assert values(getattr(found, field)) == values(getattr(seat, field)), field
            seen_sit_out |= found.stays is None or found.arrives is None
    assert seen_sit_out, "the withdrawal was meant to leave a couple sitting out"


def test_a_tables_result_reads_as_the_orm_does(drive: Drive) -> None:
    play_game(drive, 1, seeded(random.Random(5)))
    for result in Result.objects.select_related("seat", "winner").filter(game__drive=drive):
        found = _result_at(result.seat)
        assert values(found) == values(result)
        assert found is not None and values(found.winner) == values(result.winner)
    empty_seat = Seat(pk=0)
    assert _result_at(empty_seat) is None


def test_an_insert_stores_what_save_would(drive: Drive) -> None:
    """The same instance saved by the ORM and by rows.insert: the same columns stored (JSON,
    datetimes, foreign keys, blanks and NULLs included)."""
    at = timezone.now() - timedelta(minutes=3)
    made = []
    for save in (lambda e: e.save(), rows.insert):
        entry = AuditEntry(
            club_id=drive.club_id, drive=drive, at=at, channel="table", action="result.enter",
            subject="game 1 table 2", old=None, new={"winner": 3, "points": [60, 30], "é": "ü"},
        )  # fmt: skip
        save(entry)
        assert entry.pk is not None and entry._state.adding is False
        made.append(entry.pk)
    first, second = (values(AuditEntry.objects.get(pk=pk)) for pk in made)
    assert first is not None and second is not None
    assert first.pop("id") != second.pop("id")
    assert first == second
    assert second["new"] == {"winner": 3, "points": [60, 30], "é": "ü"}
    assert second["old"] is None  # SQL NULL, as the ORM stores None, not JSON null


def test_the_result_paths_models_have_no_save_signals() -> None:
    """rows.insert sends no signals; if a receiver is ever added for these models, it must
    use save() (this fails to say so)."""
    for model in (Result, ResultVersion, AuditEntry):
        for signal in (pre_save, post_save, pre_init, post_init):
            assert not signal.has_listeners(model), (model.__name__, signal)


def test_a_recorded_result_is_stored_whole(drive: Drive) -> None:
    seat = Seat.objects.select_related("stays", "table").filter(game__drive=drive).first()
    assert seat is not None and seat.stays is not None
    recorded = result_record(
        drive=drive, game=1, table=seat.table.number, winner=seat.stays.number,
        points=[60, 30], key="k-1", actor=DESK,
    )  # fmt: skip
    stored = Result.objects.get(pk=recorded.result.pk)
    assert values(stored) == values(recorded.result)
    version = ResultVersion.objects.get(result=stored)
    assert (version.kind, version.key, version.winner_id) == ("entered", "k-1", seat.stays.pk)
    assert AuditEntry.objects.filter(drive=drive, action="result.enter").count() == 1


def test_numbers_past_a_columns_range_find_no_seat(drive: Drive) -> None:
    for game, table, code in ((2**70, 1, "game_not_started"), (1, 2**70, "no_such_table")):
        with pytest.raises(ServiceError) as caught:
            _seat_for(drive, game, table)
        assert caught.value.code == code


@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared statements: PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_postgresql_prepares_each_statement_once_per_connection(drive: Drive) -> None:
    table = Table.objects.filter(drive=drive).first()
    assert table is not None

    def prepared() -> set[str]:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT name FROM pg_prepared_statements WHERE name LIKE 'fortyfives_%%'"
            )
            return {name for (name,) in cursor.fetchall()}

    assert token_owner(table.token) is not None
    before = prepared()
    assert before
    with CaptureQueriesContext(connection) as queries:
        for _ in range(3):
            assert token_owner(table.token) is not None
    assert prepared() == before  # nothing prepared again
    assert all(q["sql"].startswith("EXECUTE fortyfives_") for q in queries)
    # A new connection (after a restart of the server, say) prepares them afresh.
    connection.close()
    assert token_owner(table.token) is not None
    assert prepared() <= before and prepared()
    connection.close()


def test_a_statement_is_made_once_per_vendor_and_variant(drive: Drive) -> None:
    made = []

    def make(sql: rows.Sql, lock: bool) -> str:
        made.append(lock)
        return f"SELECT 1 FROM {sql.table(Club)} x" + (sql.lock("x") if lock else "")

    statement = rows.Statement(make)
    first = statement.text(connection, False)
    assert statement.text(connection, False) is first
    locked = statement.text(connection, True)
    assert made == [False, True]
    assert locked.endswith(" FOR UPDATE OF x") == (connection.vendor == "postgresql")
    assert statement.one([], True) == (1,)  # one club: the drive's


def test_each_statement_text_has_a_name_of_its_own() -> None:
    """A connection that had prepared one text under a name would run that plan for any
    other text given the same name: the names never repeat (drawn from one counter, so
    not even two threads naming two texts at once can share one)."""
    texts = [f"SELECT {n} AS test_name" for n in range(50)]
    try:
        names = [rows._name_of(text) for text in texts]
        assert len(set(names)) == len(names)
        assert [rows._name_of(text) for text in reversed(texts)] == names[::-1]
        assert not set(names) & {rows._name_of("SELECT 'another'")}
    finally:
        for text in [*texts, "SELECT 'another'"]:
            rows._names.pop(text, None)
