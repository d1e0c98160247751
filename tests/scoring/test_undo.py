"""Undoing a wrong tap: the card that entered a result takes it back within a minute, while
its game is in play and nobody else has answered it. The table then has no result (the
advance waits for it, the desk sees it missing), a new tap enters one, and every step is a
result version and an audit entry. Refused, with the reason, once too late."""

from datetime import timedelta

import pytest

from drives.errors import Conflict, NotFound, ServiceError
from drives.models import AuditEntry, Couple
from drives.services import Actor, drive_close
from scoring.models import Result, ResultVersion
from scoring.selectors import couple_records, game_view
from scoring.services import (
    UNDO_SECONDS,
    game_advance,
    result_confirm,
    result_record,
    result_resolve,
    result_undo,
)
from tests.pages.live_helpers import DESK, night, people, play

pytestmark = pytest.mark.django_db
TABLE = Actor(channel=AuditEntry.Channel.TABLE)


def couple(drive, number: int) -> Couple:
    return drive.couples.get(number=number)


def as_couple(drive, number: int) -> Actor:
    return Actor(channel=AuditEntry.Channel.COUPLE, couple=couple(drive, number))


def entered_ago(seconds: int) -> None:
    """Move the entry of every result back in time (the clock of the hall moves on)."""
    for version in ResultVersion.objects.filter(kind="entered"):
        version.at -= timedelta(seconds=seconds)
        version.save(update_fields=["at"])


@pytest.fixture
def drive():
    return night(people().club, 4)  # table 1: 1 v 2, table 2: 3 v 4


def test_an_undo_leaves_the_table_without_a_result_and_is_kept(drive) -> None:
    result_record(drive=drive, game=1, table=1, winner=1, points=[70, 20], actor=TABLE)
    undone = result_undo(drive=drive, game=1, table=1, actor=TABLE)
    assert undone.status == 200 and not undone.replayed
    result = Result.objects.get()
    assert result.state == "undone"
    view = game_view(drive, 1)
    assert view["missing"] == [1, 2] and view["reported"] == 0
    assert view["tables"][0]["winner"] is None and view["tables"][0]["state"] == "missing"
    assert {r.couple.number: r.wins for r in couple_records(drive)}[1] == 0
    versions = list(result.versions.order_by("at", "id").values_list("kind", "channel"))
    assert versions == [("entered", "table"), ("undone", "table")]
    entry = AuditEntry.objects.get(action="result.undo")
    assert entry.subject == "game 1 table 1" and entry.channel == "table"
    assert entry.old == {"winner": 1, "points": [70, 20], "state": "accepted"}
    # The advance waits for the table, as for any table without a result.
    with pytest.raises(Conflict) as refused:
        game_advance(drive=drive, game=1, actor=DESK)
    assert refused.value.details["missing"] == [1, 2]
    # The same undo again changes nothing.
    again = result_undo(drive=drive, game=1, table=1, actor=TABLE)
    assert again.replayed and ResultVersion.objects.filter(kind="undone").count() == 1


def test_after_an_undo_a_new_tap_enters_the_right_winner(drive) -> None:
    result_record(drive=drive, game=1, table=1, winner=1, key="first", actor=TABLE)
    result_undo(drive=drive, game=1, table=1, actor=TABLE)
    recorded = result_record(drive=drive, game=1, table=1, winner=2, key="second", actor=TABLE)
    assert recorded.status == 201
    result = Result.objects.get()
    assert (result.state, result.winner.number) == ("accepted", 2)
    kinds = list(result.versions.order_by("at", "id").values_list("kind", flat=True))
    assert kinds == ["entered", "undone", "entered"]
    # The second entry can itself be undone; then the first submission arriving again (a
    # retry) is not stored behind the undo's back.
    result_undo(drive=drive, game=1, table=1, actor=TABLE)
    with pytest.raises(Conflict) as late:
        result_record(drive=drive, game=1, table=1, winner=1, key="first", actor=TABLE)
    assert late.value.code == "result_undone" and "enter who won again" in late.value.message
    assert Result.objects.get().state == "undone"


def test_too_late_after_the_window(drive) -> None:
    result_record(drive=drive, game=1, table=1, winner=1, actor=TABLE)
    entered_ago(UNDO_SECONDS + 1)
    with pytest.raises(Conflict) as refused:
        result_undo(drive=drive, game=1, table=1, actor=TABLE)
    assert refused.value.code == "undo_closed" and "Too late to undo" in refused.value.message
    assert Result.objects.get().state == "accepted"
    assert not AuditEntry.objects.filter(action="result.undo").exists()


def test_just_inside_the_window(drive) -> None:
    result_record(drive=drive, game=1, table=1, winner=1, actor=TABLE)
    entered_ago(UNDO_SECONDS - 5)
    assert result_undo(drive=drive, game=1, table=1, actor=TABLE).status == 200


def test_too_late_once_the_other_couple_confirmed() -> None:
    drive = night(people().club, 4, confirm_by_other_couple=True)
    result_record(drive=drive, game=1, table=1, winner=1, actor=TABLE)
    result_confirm(
        drive=drive, couple=couple(drive, 2), game=1, accept=True, actor=as_couple(drive, 2)
    )
    with pytest.raises(Conflict) as refused:
        result_undo(drive=drive, game=1, table=1, actor=TABLE)
    assert refused.value.code == "confirmed"
    assert Result.objects.get().state == "accepted"


def test_a_pending_result_can_be_undone_and_is_then_nothing_to_confirm() -> None:
    drive = night(people().club, 4, confirm_by_other_couple=True)
    result_record(drive=drive, game=1, table=1, winner=1, actor=TABLE)
    result_undo(drive=drive, game=1, table=1, actor=TABLE)
    with pytest.raises(NotFound):
        result_confirm(
            drive=drive, couple=couple(drive, 2), game=1, accept=True, actor=as_couple(drive, 2)
        )


def test_too_late_once_the_game_advanced(drive) -> None:
    result_record(drive=drive, game=1, table=1, winner=1, actor=TABLE)
    play(drive, 1)
    game_advance(drive=drive, game=1, actor=DESK)
    drive.refresh_from_db()
    with pytest.raises(Conflict) as refused:
        result_undo(drive=drive, game=1, table=1, actor=TABLE)
    assert refused.value.code == "game_advanced"
    assert Result.objects.get(seat__table__number=1).state == "accepted"


def test_only_the_card_that_entered_it_and_only_if_nobody_answered(drive) -> None:
    result_record(drive=drive, game=1, table=2, winner=3, actor=DESK)
    with pytest.raises(Conflict) as desk:
        result_undo(drive=drive, game=1, table=2, actor=TABLE)
    assert desk.value.code == "not_yours"
    result_record(drive=drive, game=1, table=1, winner=1, actor=TABLE)
    with pytest.raises(Conflict) as other:
        result_record(drive=drive, game=1, table=1, winner=2, actor=DESK)
    with pytest.raises(Conflict) as answered:
        result_undo(drive=drive, game=1, table=1, actor=TABLE)
    assert answered.value.code == "answered"
    assert other.value.code == "result_conflict"
    result_resolve(drive=drive, game=1, table=1, winner=2, reason="asked them", actor=DESK)
    with pytest.raises(Conflict):
        result_undo(drive=drive, game=1, table=1, actor=TABLE)
    assert Result.objects.get(seat__table__number=1).winner.number == 2


def test_nothing_to_undo_and_a_closed_drive(drive) -> None:
    with pytest.raises(NotFound) as nothing:
        result_undo(drive=drive, game=1, table=1, actor=TABLE)
    assert nothing.value.code == "no_result"
    result_record(drive=drive, game=1, table=1, winner=1, actor=TABLE)
    drive_close(drive=drive, actor=DESK)
    with pytest.raises(ServiceError) as closed:
        result_undo(drive=drive, game=1, table=1, actor=TABLE)
    assert closed.value.code == "drive_closed"
    assert Result.objects.get().state == "accepted"


def test_the_desk_may_still_settle_an_undone_table(drive) -> None:
    result_record(drive=drive, game=1, table=1, winner=1, actor=TABLE)
    result_undo(drive=drive, game=1, table=1, actor=TABLE)
    result_resolve(drive=drive, game=1, table=1, winner=2, reason="asked them", actor=DESK)
    assert Result.objects.get().state == "accepted"
    play(drive, 1)
    assert game_advance(drive=drive, game=1, actor=DESK)[0] == 201


def test_only_the_phone_that_entered_it_undoes_it(drive) -> None:
    """Both couples' phones hold the same table card: the card is not enough, the phone is."""
    tapper = Actor(channel=AuditEntry.Channel.TABLE, device="a" * 32)
    other = Actor(channel=AuditEntry.Channel.TABLE, device="b" * 32)
    result_record(drive=drive, game=1, table=1, winner=2, actor=tapper)
    assert ResultVersion.objects.get().device == "a" * 32
    with pytest.raises(Conflict) as refused:
        result_undo(drive=drive, game=1, table=1, actor=other)
    assert (refused.value.status, refused.value.code) == (409, "other_phone")
    assert Result.objects.get().state == "accepted"
    assert not AuditEntry.objects.filter(action="result.undo").exists()
    result_undo(drive=drive, game=1, table=1, actor=tapper)
    assert Result.objects.get().state == "undone"
