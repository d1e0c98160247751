"""Every service that writes to a drive moves the version its live pages compare
(``DriveVersion``: the desk and the projector hear of the change, the phones' polls stop
answering 304), in its own transaction: the whole version for a table's result, the
``structure`` too for anything else, and the phones' poll keys of the drive forgotten with it
(``drives.pageboard.drive_forget``, which tells the pages). The service says which: a write
that forgot to would leave every page showing the old night until its minute's safety poll.

The services are walked, not listed by hand: a new public function in one of these modules
fails ``test_every_service_is_walked`` until it is put here, among the writes (with a call
that makes it write) or among the functions that write nothing of a drive.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from types import ModuleType
from typing import Any

import pytest
from django.utils import timezone

import drives.registrations
import drives.services
import scoring.prizes.services
import scoring.results_import
import scoring.services
from drives.models import AuditEntry, Couple, Drive, DriveVersion
from drives.registrations import (
    registration_cancel,
    registration_check_in,
    registration_create,
    registrations_pair,
    registrations_receive,
)
from drives.services import (
    Actor,
    club_create,
    couple_delete,
    couple_update,
    couples_import_csv,
    couples_register,
    drive_close,
    drive_create,
    drive_start,
    drive_update,
    holes_record,
    tables_prepare,
)
from scoring.models import Tie
from scoring.prizes.services import (
    cookie_jar_draw,
    prize_setup_update,
    prizes_open_ties,
    tie_choose,
    tie_cut_draw,
    tie_cut_record,
    tie_decide,
    tie_playoff_result,
)
from scoring.results_import import results_import_csv
from scoring.services import (
    call_answer,
    call_close,
    call_open,
    game_advance,
    result_confirm,
    result_record,
    result_resolve,
    result_undo,
)
from tests.prizes.helpers import night
from tests.scoring.nights import DESK, new_drive

pytestmark = pytest.mark.django_db

MODULES: list[ModuleType] = [
    drives.services,
    drives.registrations,
    scoring.services,
    scoring.prizes.services,
    scoring.results_import,
]

# What writes nothing a drive's pages show: reads and checks, a club's own rows (no drive's
# page shows them), the version's own machinery, and ``game_open``, which writes only inside
# the transaction of ``drive_start`` or ``game_advance`` (walked below), never alone.
WRITES_NO_DRIVE = {
    "drives.services": {
        "api_token_create",
        "audit",
        "clean_settings",
        "club_create",
        "club_get_or_create",
        "couples_by_number",
        "couples_csv_read",
        "couples_duplicates",
        "csv_max_bytes",
        "drive_changed",
        "game_open",
        "member_add",
        "parse_couples_csv",
        "players_last_night",
        "players_link",
        "require_role",
        "role_in",
        # In the caller's transaction (a cancel, a capacity raised), which audits.
        "couples_registered_before",
        "waitlist_move_up",
    },
    "drives.registrations": {
        "door_registrations",
        "key_of",
        "position_of",
        "registration_answer",
        "registration_by_token",
        "registration_state",
        "registrations_of",
        "require_registration_open",
    },
    "scoring.services": {"result_at", "seat_for", "stored_seating", "undo_open_until"},
    "scoring.prizes.services": {"new_seed", "tie_get"},
    "scoring.results_import": {"bad_rows", "parse_results_csv"},
}

TABLE = Actor(channel=AuditEntry.Channel.TABLE)
MONEY = {"prizes": [{"amount": "60.00"}, {"amount": "30.00"}]}


@dataclass
class Write:
    """A call that writes: ``drive`` is the drive whose pages watch it (None: the drive the
    call creates, which it returns)."""

    drive: Drive | None
    act: Callable[[], Any]
    result_only: bool = False


def started(couples: int = 4, **settings: Any) -> Drive:
    """A night in game 1: table 1 seats couples 1 and 2, table 2 couples 3 and 4."""
    drive = new_drive(couples, **settings)
    drive_start(drive=drive, actor=DESK)
    drive.refresh_from_db()
    return drive


def couple(drive: Drive, number: int) -> Couple:
    return Couple.objects.get(drive=drive, number=number)


def a_tie(choice: str, wins: list[int], **prizes: Any) -> Tie:
    """The first place tied between the couples with the most wins, each asking ``choice``."""
    drive = night(wins, prizes=MONEY | prizes)
    prizes_open_ties(drive=drive, actor=DESK)
    tie = Tie.objects.get(drive=drive, key="place:1")
    for number in tie.couples:
        tie_choose(tie=tie, couple=number, choice=choice, actor=DESK)
    return tie


def decided(choice: str, wins: list[int]) -> Tie:
    tie = a_tie(choice, wins)
    return tie_decide(tie=tie, actor=DESK)


# --- the writes, each made to write once -------------------------------------------------------


def write_drive_create() -> Write:
    club = club_create(name="St. Joseph's Parish")
    return Write(None, lambda: drive_create(club=club, name="Friday", date=date(2026, 11, 20)))


def write_drive_update() -> Write:
    drive = new_drive(4)
    return Write(drive, lambda: drive_update(drive=drive, actor=DESK, name="Saturday 45s"))


def write_couples_register() -> Write:
    drive = new_drive()
    couples = [{"players": ["Ann", "Bob"]}]
    return Write(drive, lambda: couples_register(drive=drive, couples=couples, actor=DESK))


def registering() -> Drive:
    """A drive of next week whose registration before the night is open."""
    return new_drive(registration_opens=timezone.now() - timedelta(hours=1))


def write_registration_create() -> Write:
    drive = registering()
    return Write(drive, lambda: registration_create(drive=drive, players=["Ann", "Bob"]))


def write_registration_cancel() -> Write:
    drive = registering()
    registration = registration_create(drive=drive, players=["Ann", "Bob"])[0]
    return Write(drive, lambda: registration_cancel(registration=registration))


def write_registration_check_in() -> Write:
    drive = registering()
    registration = registration_create(drive=drive, players=["Ann", "Bob"])[0]
    return Write(drive, lambda: registration_check_in(drive=drive, pk=registration.pk, actor=DESK))


def write_registrations_pair() -> Write:
    drive = registering()
    one = registration_create(drive=drive, players=["Ann"])[0]
    two = registration_create(drive=drive, players=["Bob"])[0]
    return Write(
        drive,
        lambda: registrations_pair(drive=drive, first=one.pk, second=two.pk, actor=DESK),
    )


def write_registrations_receive() -> Write:
    drive = registering()
    at = "2026-11-20T18:00:00+00:00"
    row = {"players": ["Ann", "Bob"], "status": "registered", "created_at": at}
    return Write(drive, lambda: registrations_receive(drive=drive, rows=[row]))


def write_couples_import_csv() -> Write:
    drive = new_drive()
    data = b"player1,player2\nAnn,Bob\nCid,Dee\n"
    return Write(drive, lambda: couples_import_csv(drive=drive, data=data, actor=DESK))


def write_couple_update() -> Write:
    drive = new_drive(4)
    return Write(drive, lambda: couple_update(couple=couple(drive, 1), actor=DESK, checked_in=True))


def write_couple_delete() -> Write:
    drive = new_drive(4)
    return Write(drive, lambda: couple_delete(couple=couple(drive, 4), actor=DESK))


def write_holes_record() -> Write:
    drive = new_drive(4)
    return Write(drive, lambda: holes_record(drive=drive, holes={1: 2}, actor=DESK))


def write_drive_start() -> Write:
    drive = new_drive(4)
    return Write(drive, lambda: drive_start(drive=drive, actor=DESK))


def write_tables_prepare() -> Write:
    drive = new_drive(4)
    return Write(drive, lambda: tables_prepare(drive=drive, actor=DESK))


def write_drive_close() -> Write:
    drive = started()
    return Write(drive, lambda: drive_close(drive=drive, actor=DESK))


def write_result_record() -> Write:
    drive = started()
    return Write(
        drive,
        lambda: result_record(drive=drive, game=1, table=1, winner=1, actor=DESK),
        result_only=True,
    )


def write_result_undo() -> Write:
    drive = started()
    result_record(drive=drive, game=1, table=1, winner=1, actor=TABLE)
    return Write(
        drive, lambda: result_undo(drive=drive, game=1, table=1, actor=TABLE), result_only=True
    )


def write_call_open() -> Write:
    drive = started()
    # A call is not the night's structure: the desk and the projector see it, the other
    # tables' and couples' phones keep their 304s.
    return Write(
        drive, lambda: call_open(drive=drive, game=1, table=1, actor=TABLE), result_only=True
    )


def write_call_answer() -> Write:
    drive = started()
    call = call_open(drive=drive, game=1, table=1, actor=TABLE)
    return Write(
        drive, lambda: call_answer(drive=drive, call=call.pk, actor=DESK), result_only=True
    )


def write_call_close() -> Write:
    drive = started()
    call = call_open(drive=drive, game=1, table=1, actor=TABLE)
    return Write(drive, lambda: call_close(drive=drive, call=call.pk, actor=DESK), result_only=True)


def write_result_confirm() -> Write:
    drive = started(confirm_by_other_couple=True)
    first = Actor(channel=AuditEntry.Channel.COUPLE, couple=couple(drive, 1))
    result_record(drive=drive, game=1, table=1, winner=1, actor=first)
    other = Actor(channel=AuditEntry.Channel.COUPLE, couple=couple(drive, 2))
    return Write(
        drive,
        lambda: result_confirm(
            drive=drive, couple=couple(drive, 2), game=1, accept=True, actor=other
        ),
        result_only=True,
    )


def write_result_resolve() -> Write:
    drive = started()
    return Write(
        drive,
        lambda: result_resolve(
            drive=drive, game=1, table=1, winner=2, reason="the score sheet", actor=DESK
        ),
        result_only=True,
    )


def write_game_advance() -> Write:
    drive = started()
    for table, winner in ((1, 1), (2, 3)):
        result_record(drive=drive, game=1, table=table, winner=winner, actor=DESK)
    return Write(drive, lambda: game_advance(drive=drive, game=1, actor=DESK))


def write_results_import_csv() -> Write:
    drive = new_drive(4)
    data = b"game,table,winner\n1,1,1\n1,2,3\n"
    return Write(drive, lambda: results_import_csv(drive=drive, data=data, actor=DESK))


def write_prize_setup_update() -> Write:
    drive = new_drive(4)
    return Write(drive, lambda: prize_setup_update(drive=drive, actor=DESK, **MONEY))


def write_prizes_open_ties() -> Write:
    drive = night([5, 5, 3], prizes=MONEY)
    return Write(drive, lambda: prizes_open_ties(drive=drive, actor=DESK))


def write_tie_choose() -> Write:
    drive = night([5, 5, 3], prizes=MONEY)
    prizes_open_ties(drive=drive, actor=DESK)
    tie = Tie.objects.get(drive=drive, key="place:1")
    return Write(drive, lambda: tie_choose(tie=tie, couple=1, choice="split", actor=DESK))


def write_tie_decide() -> Write:
    tie = a_tie("split", [5, 5, 3])
    return Write(tie.drive, lambda: tie_decide(tie=tie, actor=DESK))


def write_tie_cut_record() -> Write:
    tie = decided("cut", [5, 5, 3])
    return Write(tie.drive, lambda: tie_cut_record(tie=tie, cards={1: "5S", 2: "9H"}, actor=DESK))


def write_tie_cut_draw() -> Write:
    tie = decided("cut", [5, 5, 3])
    return Write(tie.drive, lambda: tie_cut_draw(tie=tie, actor=DESK))


def write_tie_playoff_result() -> Write:
    tie = decided("play-off", [5, 5, 3])
    return Write(tie.drive, lambda: tie_playoff_result(tie=tie, match=[1, 2], winner=1, actor=DESK))


def write_cookie_jar_draw() -> Write:
    won = {1: {1, 2, 3}, 2: {4}, 3: {1}, 4: {2, 3, 4}}
    jar = {"cookie_jar": True, "cookie_jar_k": 2, "buy_in": "2.00"}
    drive = night(won, games=4, cookie_jar=[1, 2, 3], prizes=jar)
    return Write(drive, lambda: cookie_jar_draw(drive=drive, games=[1, 3], actor=DESK))


WRITES: dict[str, Callable[[], Write]] = {
    name.removeprefix("write_"): found
    for name, found in dict(globals()).items()
    if name.startswith("write_")
}


def public_functions(module: ModuleType) -> set[str]:
    return {
        name
        for name, found in inspect.getmembers(module, inspect.isfunction)
        if found.__module__ == module.__name__ and not name.startswith("_")
    }


def test_every_service_is_walked() -> None:
    """Each public function of the services is either written through below or known to
    write nothing of a drive; nothing is listed that is gone."""
    for module in MODULES:
        found = public_functions(module)
        assert found - WRITES.keys() - WRITES_NO_DRIVE[module.__name__] == set(), module
    everything = set().union(*(public_functions(m) for m in MODULES))
    assert WRITES.keys() <= everything


def versions(drive: Drive) -> tuple[int, int]:
    row = DriveVersion.objects.filter(drive=drive).values_list("version", "structure").first()
    return row or (0, 0)


@pytest.mark.parametrize("name", sorted(WRITES))
def test_every_write_moves_the_version(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    write = WRITES[name]()
    forgotten: list[int] = []
    monkeypatch.setattr(drives.services, "drive_forget", forgotten.append)
    before = versions(write.drive) if write.drive is not None else (0, 0)
    made = write.act()
    drive = write.drive if write.drive is not None else made
    after = versions(drive)
    assert after[0] > before[0], "the pages' version did not move"
    if write.result_only:
        # A table's result: the other tables' and couples' phones keep their 304s.
        assert after[1] == before[1] and forgotten == []
    else:
        assert after[1] > before[1] and drive.pk in forgotten
