"""The live pages' reads written once (scoring/prepared.py) give what the ORM gives: the same
rows with the same values under the same names (dates converted, JSON read, an annotation
among the fields, a grouped count), the same card and drive, and a query whose argument would
not reach the SQL is refused."""

import pytest
from django.db.models import Count, F, Max
from django.test import RequestFactory

from drives.errors import Conflict
from drives.models import AuditEntry, Table
from drives.services import Actor
from scoring.models import ResultVersion
from scoring.pages.live_access import couple_by_token, table_by_token
from scoring.pages.selectors_live import result_versions
from scoring.prepared import prepared
from scoring.services import result_record
from tests.pages.live_helpers import night, people

pytestmark = pytest.mark.django_db

TABLE = Actor(channel=AuditEntry.Channel.TABLE)


def test_rows_are_the_orms_own_with_their_values_converted() -> None:
    drive = night(people().club, 4)
    result_record(drive=drive, game=1, table=1, winner=2, key="k1", actor=TABLE)

    @prepared
    def versions(result_id: int):  # type: ignore[no-untyped-def]
        return (
            ResultVersion.objects.filter(result_id=result_id)
            .order_by("at", "id")
            .values("kind", "channel", "couple_id", "winner_id", "at")
        )

    result_id = ResultVersion.objects.get().result_id
    orm = list(versions.__wrapped__(result_id))  # type: ignore[attr-defined]
    assert versions(result_id) == orm and orm[0]["at"].tzinfo is not None
    assert versions(result_id + 1000) == []


def test_an_annotation_among_the_fields_and_a_grouping_keep_their_names() -> None:
    drive = night(people().club, 4)
    result_record(drive=drive, game=1, table=1, winner=2, key="k1", actor=TABLE)
    result_record(drive=drive, game=1, table=2, winner=3, key="k2", actor=TABLE)
    with pytest.raises(Conflict):  # both versions kept
        result_record(drive=drive, game=1, table=2, winner=4, key="k3", actor=TABLE)

    @prepared
    def named(drive_id: int):  # type: ignore[no-untyped-def]
        return (
            ResultVersion.objects.filter(result__game__drive_id=drive_id)
            .order_by("id")
            .annotate(table=F("result__seat__table__number"))
            .values("kind", "table", "winner__number", "at")
        )

    @prepared
    def grouped(drive_id: int):  # type: ignore[no-untyped-def]
        return (
            ResultVersion.objects.filter(result__game__drive_id=drive_id)
            .order_by("result__seat__table__number")
            .values("result__seat__table__number")
            .annotate(count=Count("id"), last=Max("id"))
        )

    for read in (named, grouped):
        orm = list(read.__wrapped__(drive.pk))  # type: ignore[attr-defined]
        assert read(drive.pk) == orm
    assert [row["table"] for row in named(drive.pk)] == [1, 2, 2]
    assert [(row["result__seat__table__number"], row["count"]) for row in grouped(drive.pk)] == [
        (1, 1),
        (2, 2),
    ]


def test_a_card_by_its_token_is_the_card_and_drive_the_orm_loads() -> None:
    drive = night(people().club, 4)
    table = drive.tables.get(number=1)
    couple = drive.couples.get(number=3)
    request = RequestFactory().get("/")
    for card, read in ((table, table_by_token), (couple, couple_by_token)):
        loaded = read(request, card.token)
        orm = type(card).objects.select_related("drive").get(pk=card.pk)
        assert loaded == orm and not loaded._state.adding and loaded._state.db == "default"
        for field in type(card)._meta.concrete_fields:
            assert getattr(loaded, field.attname) == getattr(orm, field.attname)
        for field in type(drive)._meta.concrete_fields:
            assert getattr(loaded.drive, field.attname) == getattr(orm.drive, field.attname)
            assert type(getattr(loaded.drive, field.attname)) is type(
                getattr(orm.drive, field.attname)
            ), field.name


def test_an_argument_that_does_not_reach_the_sql_is_refused() -> None:
    @prepared
    def tables(_number: int):  # type: ignore[no-untyped-def]
        return Table.objects.values("id")

    with pytest.raises(ValueError, match="not a parameter"):
        tables(1)


def test_a_few_tables_histories_are_the_whole_games_at_those_tables() -> None:
    drive = night(people().club, 40)  # 20 tables
    for table in range(1, 21):
        result_record(drive=drive, game=1, table=table, winner=2 * table, actor=TABLE)
    with pytest.raises(Conflict):
        result_record(drive=drive, game=1, table=3, winner=5, actor=TABLE)
    whole = result_versions(drive, 1)
    assert len(whole) == 20 and [v["kind"] for v in whole[3]] == ["entered", "conflicting"]
    for tables in ([3], [1, 3, 20], list(range(1, 17)), list(range(1, 18)), []):
        assert result_versions(drive, 1, tables) == {t: whole[t] for t in tables}, tables
