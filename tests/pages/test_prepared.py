"""The phone pages' reads written once (scoring/pages/prepared.py) give what the ORM gives:
the same rows with the same values (dates converted, JSON read), the same card and drive, and
a query whose argument would not reach the SQL is refused."""

import pytest
from django.test import RequestFactory

from drives.models import AuditEntry, Table
from drives.services import Actor
from scoring.models import ResultVersion
from scoring.pages.live_access import couple_by_token, table_by_token
from scoring.pages.prepared import prepared
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
