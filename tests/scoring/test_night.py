"""A night through the services: register, start, results, conflicts, corrections, late
arrivals and withdrawals, the advance, standings and reconciliation."""

from datetime import date

import pytest

from drives.errors import Conflict, ServiceError
from drives.models import AuditEntry, Drive
from drives.services import (
    Actor,
    club_create,
    couple_update,
    couples_register,
    drive_close,
    drive_create,
    drive_start,
    holes_record,
)
from scoring.models import Result, ResultVersion
from scoring.selectors import current_tables, game_view, reconciliation, standings_for_drive
from scoring.services import game_advance, result_record, result_resolve

pytestmark = pytest.mark.django_db
DESK = Actor(channel=AuditEntry.Channel.DESK)


def a_drive(couples: int, **settings: object) -> Drive:
    club = club_create(name="St. Joseph's Parish")
    drive = drive_create(club=club, name="Friday 45s", date=date(2026, 11, 20), **settings)
    couples_register(
        drive=drive, couples=[{"players": [f"A{i}", f"B{i}"]} for i in range(1, couples + 1)]
    )
    return drive


def play_game(drive: Drive, n: int, pick=min) -> None:
    view = game_view(drive, n)
    assert view is not None
    for table in view["tables"]:
        if not table["sit_out"]:
            result_record(
                drive=drive,
                game=n,
                table=table["table"],
                winner=pick(table["stays"], table["arrives"]),
                actor=DESK,
            )


def test_a_small_night_end_to_end() -> None:
    drive = a_drive(5)
    drive_start(drive=drive, actor=DESK)
    view = game_view(drive, 1)
    assert [(t["table"], t["stays"], t["arrives"]) for t in view["tables"]] == [
        (1, 1, 2),
        (2, 3, 4),
        (3, 5, None),
    ]
    assert view["missing"] == [1, 2]
    with pytest.raises(Conflict) as info:
        game_advance(drive=drive, game=1, actor=DESK)
    assert info.value.details["missing"] == [1, 2]
    play_game(drive, 1)
    status, game2 = game_advance(drive=drive, game=1, actor=DESK)
    assert status == 201 and game2.number == 2
    again, same = game_advance(drive=drive, game=1, actor=DESK)
    assert again == 200 and same.pk == game2.pk
    view2 = game_view(drive, 2)
    assert [(t["table"], t["stays"], t["arrives"]) for t in view2["tables"]] == [
        (1, 2, 5),
        (2, 4, 1),
        (3, None, 3),
    ]
    standings = standings_for_drive(drive)
    # Couple 3 sits out game 2: the sit-out is credited as soon as the game starts.
    assert [(r["number"], r["wins"]) for r in standings][:3] == [(3, 2), (1, 1), (5, 1)]
    drive.refresh_from_db()
    assert {r["number"]: r["table"] for r in current_tables(drive)}[1] == 2


def test_results_replay_conflict_and_resolution() -> None:
    drive = a_drive(4)
    drive_start(drive=drive, actor=DESK)
    first = result_record(drive=drive, game=1, table=1, winner=2, key="k1", actor=DESK)
    assert first.status == 201
    assert result_record(drive=drive, game=1, table=1, winner=2, key="k1", actor=DESK).status == 200
    assert result_record(drive=drive, game=1, table=1, winner=2, actor=DESK).status == 200
    with pytest.raises(Conflict):
        result_record(drive=drive, game=1, table=1, winner=1, actor=DESK)
    result = Result.objects.get(seat=first.result.seat)
    assert result.state == "conflict" and result.versions.count() == 2
    with pytest.raises(ServiceError) as info:
        result_record(drive=drive, game=1, table=2, winner=1, actor=DESK)
    assert info.value.code == "wrong_couple"
    with pytest.raises(ServiceError) as info:
        result_record(drive=drive, game=1, table=2, winner=3, points=[45, 20], actor=DESK)
    assert info.value.code == "not_whole_hands"
    with pytest.raises(ServiceError) as info:
        result_record(drive=drive, game=1, table=2, winner=3, points=[45, 30], actor=DESK)
    assert info.value.code == "unusual_score"
    stored = result_record(
        drive=drive, game=1, table=2, winner=3, points=[30, 45], confirm_unusual=True, actor=DESK
    )
    assert stored.result.points == [45, 30]
    with pytest.raises(Conflict) as advance:
        game_advance(drive=drive, game=1, actor=DESK)
    assert advance.value.details["conflicts"] == [1]
    result_resolve(drive=drive, game=1, table=1, winner=1, reason="Table says 1 won", actor=DESK)
    game_advance(drive=drive, game=1, actor=DESK)
    result_resolve(drive=drive, game=1, table=2, winner=4, reason="Mis-keyed", actor=DESK)
    version = ResultVersion.objects.filter(kind="resolved").latest("id")
    assert version.after_advance
    wins = {r["number"]: r["wins"] for r in standings_for_drive(drive)}
    assert wins == {1: 1, 2: 0, 3: 0, 4: 1}


def test_a_replay_is_only_a_call_that_changes_nothing() -> None:
    """Every channel (API, pages, CSV import) goes through these: none drops points silently."""
    drive = a_drive(4)
    drive_start(drive=drive, actor=DESK)
    first = result_record(
        drive=drive, game=1, table=1, winner=2, points=[50, 40], key="k1", actor=DESK
    )
    assert first.status == 201 and not first.replayed
    with pytest.raises(Conflict) as reused:
        result_record(drive=drive, game=1, table=1, winner=2, points=[60, 30], key="k1", actor=DESK)
    assert reused.value.code == "key_reused" and reused.value.details["differs"] == ["points"]
    assert AuditEntry.objects.filter(action="result.key_reused").count() == 1
    again = result_record(
        drive=drive, game=1, table=1, winner=2, points=[50, 40], key="k1", actor=DESK
    )
    assert again.status == 200 and again.replayed
    with pytest.raises(Conflict) as other:
        result_record(drive=drive, game=1, table=1, winner=2, points=[60, 30], actor=DESK)
    assert other.value.code == "result_conflict" and other.value.details["differs"] == ["points"]
    assert game_view(drive, 1)["conflicts"] == [1]
    settled = result_resolve(
        drive=drive, game=1, table=1, winner=2, points=[60, 30], reason="the sheet", actor=DESK
    )
    assert settled.status == 200 and not settled.replayed
    assert (settled.result.points, settled.result.state) == ([60, 30], "accepted")
    same = result_resolve(
        drive=drive, game=1, table=1, winner=2, points=[60, 30], reason="the sheet", actor=DESK
    )
    assert same.replayed
    assert ResultVersion.objects.filter(kind="resolved").count() == 1
    assert Result.objects.get(pk=first.result.pk).points == [60, 30]


def test_late_arrival_withdrawal_and_reconciliation() -> None:
    drive = a_drive(6)
    drive_start(drive=drive, actor=DESK)
    play_game(drive, 1)
    couples_register(drive=drive, couples=[{"players": ["Late", "Comer"]}], actor=DESK)
    couple_4 = drive.couples.get(number=4)
    couple_update(couple=couple_4, withdrawn=True, actor=DESK)
    game_advance(drive=drive, game=1, actor=DESK)
    drive.refresh_from_db()
    seated = {r["number"] for r in current_tables(drive)}
    assert 7 in seated and 4 not in seated
    holes_record(drive=drive, holes={1: 1, 3: 0}, actor=DESK)
    assert reconciliation(drive) == [
        {"number": 3, "holes": 0, "wins": 1, "difference": -1, "won_games": [1]}
    ]
    drive_close(drive=drive, actor=DESK)
    with pytest.raises(ServiceError) as info:
        result_record(drive=drive, game=2, table=1, winner=1, actor=DESK)
    assert info.value.code == "drive_closed"
