"""Two writers at the same instant with the window between reading and writing held open, and
a control run without the locking that shows the race the locking prevents.

Two organizers press "advance" for the same game, two phones of one table (each couple
claiming the win) submit different winners, and two desks import the same couples file, in
two threads released together by a barrier, each on its own database connection.
``RACE_WINDOW_SECONDS`` (drives/race.py) makes each writer sleep 0.3 s between reading the
state and writing what follows from it:

* locked (as in production): one advance creates game 2, the other waits for it and answers
  200 with the same game; one phone's entry is stored (201), the other is a 409 conflict with
  both entries kept; one couples file is imported (201), the other refused as duplicates
  (409). On SQLite the second writer of each pair waits for the first (the IMMEDIATE
  transaction); on PostgreSQL the second advance and the second import wait for the drive row
  (FOR UPDATE), and the second phone for its table's seat row (FOR UPDATE; results take the
  drive row FOR SHARE, so that different tables are recorded side by side).
* control (``SERVICES_LOCKING = False``; on SQLite also DEFERRED instead of IMMEDIATE
  transactions, since there the transaction is the lock): both writers are in the window at
  once, both read the state before either wrote. The second advance crashes on the database
  (a duplicate game 2 on PostgreSQL, a write based on a stale read on SQLite) instead of the
  200 replay; on SQLite the second phone crashes too, while on PostgreSQL the unique
  constraint on a table's result, the last line of defence, still turns it into the conflict.
  Both imports find no couple of the file registered, and neither is refused as duplicates.
  If the pause did nothing, the writers would not meet in the window and the control would
  fail.

Each scenario runs through the services and through the HTTP API (Django's test client in each
thread: URL routing, bearer tokens, views). The tests commit for real (``transactional_db``),
run once per backend (the ``postgres`` variant needs DATABASE_URL=postgres://…) and need a file
SQLite test database (config/settings/test.py), as do tests/scoring/test_concurrency.py.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.db import DatabaseError, close_old_connections, connection
from django.db.backends.signals import connection_created
from django.test import Client

from drives import race
from drives.errors import ServiceError
from drives.models import AuditEntry, Couple, Drive, Game, Seat
from drives.services import Actor, couples_import_csv
from scoring.models import Result, ResultVersion
from scoring.services import game_advance, result_record
from tests.api.helpers import Api, couple_token, make_club, make_drive
from tests.scoring.nights import lower_number, play_game

pytestmark = pytest.mark.integration

WINDOW = 0.3
TIMEOUT = 30
COUPLES = 8  # four tables
TABLE = 2
RESULT_READ = "result.read"
ADVANCE_CHECKED = "advance.checked"
COUPLES_CHECKED = "couples.checked"
CRASH = 500


ON_POSTGRESQL = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))


@pytest.fixture(
    params=[
        pytest.param("postgresql", marks=pytest.mark.postgres, id="postgres"),
        pytest.param(
            "sqlite",
            # Skipped before the database is set up and emptied again for nothing.
            marks=pytest.mark.skipif(ON_POSTGRESQL, reason="this run's database is PostgreSQL"),
            id="sqlite",
        ),
    ]
)
def backend(request: pytest.FixtureRequest, transactional_db: None) -> str:
    """Committed data on this run's database, once per backend."""
    assert connection.vendor == request.param
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.skip(
            "the SQLite test database is in memory, where a second connection's write fails "
            "at once instead of waiting; give it a file (DATABASES['default']['TEST']['NAME'])"
        )
    return str(request.param)


Opener = Callable[[str], None]


@pytest.fixture
def window(settings: Any) -> Iterator[Opener]:
    """``window(point)``: from now on, every writer pauses WINDOW seconds at ``point``."""

    def open_at(point: str) -> None:
        settings.RACE_WINDOW_SECONDS = {point: WINDOW}
        race.reset()

    yield open_at
    race.reset()


def _deferred(sender: Any, connection: Any, **kwargs: Any) -> None:
    if connection.vendor == "sqlite":
        connection.transaction_mode = "DEFERRED"


@pytest.fixture
def unlocked(settings: Any) -> Iterator[None]:
    """The control: no drive row lock, and SQLite connections opened from now on (the
    writers' threads) begin DEFERRED transactions, which take no lock until they write."""
    settings.SERVICES_LOCKING = False
    connection_created.connect(_deferred)
    yield
    connection_created.disconnect(_deferred)


@dataclass
class Night:
    drive: Drive
    organizer: Any
    org_token: str
    stays: Couple
    arrives: Couple


@pytest.fixture
def night(backend: str) -> Night:
    """A night of four tables in game 1, nothing recorded yet."""
    users = make_club("St. Joseph's Parish", "race")
    drive = make_drive(users.club, COUPLES, start=True)
    seat = Seat.objects.select_related("stays", "arrives").get(
        game__drive=drive, game__number=1, table__number=TABLE
    )
    assert seat.stays is not None and seat.arrives is not None
    return Night(drive, users.organizer, users.org_token, seat.stays, seat.arrives)


@dataclass
class Outcome:
    """One writer's answer: the HTTP status (500 for a crash), the game or result it names,
    and the exception of a crash."""

    status: int
    number: int | None = None
    error: BaseException | None = None


def at_once(action: Callable[[int], Outcome], writers: int = 2) -> list[Outcome]:
    """``action(i)`` for each of ``writers`` threads released together, each on its own
    connection (closed when done)."""
    barrier = threading.Barrier(writers, timeout=TIMEOUT)
    outcomes: list[Outcome | None] = [None] * writers

    def run(i: int) -> None:
        try:
            close_old_connections()
            barrier.wait()
            outcomes[i] = action(i)
        except DatabaseError as error:  # the control's crash
            outcomes[i] = Outcome(CRASH, error=error)
        except ServiceError as error:
            outcomes[i] = Outcome(error.status, error=error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT)
    assert not any(thread.is_alive() for thread in threads), "a writer is stuck"
    assert all(outcome is not None for outcome in outcomes), outcomes
    return [outcome for outcome in outcomes if outcome is not None]


def statuses(outcomes: list[Outcome]) -> list[int]:
    return sorted(outcome.status for outcome in outcomes)


def http_client() -> Api:
    """A client per thread; a crash is answered 500, as a server would."""
    return Api(Client(raise_request_exception=False))


# --- the two scenarios --------------------------------------------------------------------------


def advance_twice(night: Night, layer: str, window: Opener) -> list[Outcome]:
    play_game(night.drive, 1, lower_number)
    path = f"drives/{night.drive.slug}/games/1/advance"
    if layer == "http":
        # The token's last use is written now, not by the two presses.
        assert http_client().get("me", token=night.org_token).status_code == 200

    def press(_i: int) -> Outcome:
        if layer == "http":
            answer = http_client().post(path, token=night.org_token)
            body = answer.json() if answer.status_code != CRASH else {}
            return Outcome(answer.status_code, body.get("number"))
        actor = Actor(user=night.organizer, channel=AuditEntry.Channel.API)
        status, game = game_advance(drive=night.drive, game=1, actor=actor)
        return Outcome(status, game.number)

    window(ADVANCE_CHECKED)
    return at_once(press)


def both_phones_claim_the_win(night: Night, layer: str, window: Opener) -> list[Outcome]:
    couples = (night.stays, night.arrives)
    path = f"drives/{night.drive.slug}/games/1/tables/{TABLE}/result"
    tokens = [couple_token(night.drive, couple.number) for couple in couples]

    def submit(i: int) -> Outcome:
        couple = couples[i]
        if layer == "http":
            answer = http_client().put(path, {"winner": couple.number}, token=tokens[i])
            body = answer.json() if answer.status_code != CRASH else {}
            return Outcome(answer.status_code, body.get("winner"))
        actor = Actor(channel=AuditEntry.Channel.COUPLE, couple=couple)
        recorded = result_record(
            drive=night.drive, game=1, table=TABLE, winner=couple.number, actor=actor
        )
        return Outcome(recorded.status, recorded.result.winner.number)

    window(RESULT_READ)
    return at_once(submit)


COUPLES_FILE = "player1,player2\nMary MacDonald,Angus MacDonald\nFlora Gillis,Dan Gillis\n"


def two_desks_import_one_file(night: Night, layer: str, window: Opener) -> list[Outcome]:
    path = f"drives/{night.drive.slug}/couples/import"
    if layer == "http":
        assert http_client().get("me", token=night.org_token).status_code == 200

    def send(_i: int) -> Outcome:
        if layer == "http":
            answer = http_client().post(
                path, raw=COUPLES_FILE, content_type="text/csv", token=night.org_token
            )
            body = answer.json() if answer.status_code != CRASH else {}
            return Outcome(answer.status_code, len(body) if answer.status_code == 201 else None)
        actor = Actor(user=night.organizer, channel=AuditEntry.Channel.API)
        created = couples_import_csv(drive=night.drive, data=COUPLES_FILE.encode(), actor=actor)
        return Outcome(201, len(created))

    window(COUPLES_CHECKED)
    return at_once(send)


def actions(drive: Drive, action: str) -> int:
    return AuditEntry.objects.filter(drive=drive, action=action).count()


def one_game_two(night: Night) -> None:
    """Whatever the writers were told, the night holds game 2 once, its seats once."""
    assert Game.objects.filter(drive=night.drive, number=2).count() == 1
    assert Seat.objects.filter(game__drive=night.drive, game__number=2).count() == COUPLES // 2
    assert actions(night.drive, "game.advance") == 1
    night.drive.refresh_from_db()
    assert night.drive.current_game == 2


LAYERS = pytest.mark.parametrize("layer", ["service", "http"])


# --- locked, as in production ---------------------------------------------------------------------


@LAYERS
def test_two_organizers_advancing_at_once_start_one_game(
    night: Night, layer: str, window: Opener
) -> None:
    outcomes = advance_twice(night, layer, window)
    assert statuses(outcomes) == [200, 201], outcomes
    assert [outcome.number for outcome in outcomes] == [2, 2]
    one_game_two(night)
    # The first held the window open alone; the second waited for it, found game 2 started
    # and answered with it without checking again.
    assert race.seen(ADVANCE_CHECKED).visits == 1
    assert race.seen(ADVANCE_CHECKED).most_at_once == 1


def one_result_in_conflict(night: Night, outcomes: list[Outcome]) -> None:
    """One phone's entry stored (201), the other a 409 conflict; both entries kept."""
    assert statuses(outcomes) == [201, 409], outcomes
    stored = next(outcome for outcome in outcomes if outcome.status == 201)
    result = Result.objects.select_related("winner").get(
        game__drive=night.drive, seat__table__number=TABLE
    )
    assert result.winner.number == stored.number
    assert result.state == Result.State.CONFLICT
    versions = list(ResultVersion.objects.filter(result=result).order_by("id"))
    assert [v.kind for v in versions] == ["entered", "conflicting"]
    assert {v.winner.number for v in versions} == {night.stays.number, night.arrives.number}
    assert actions(night.drive, "result.enter") == 1
    assert actions(night.drive, "result.conflict") == 1


@LAYERS
def test_two_phones_with_different_winners_at_once_store_one_and_a_conflict(
    night: Night, layer: str, backend: str, window: Opener
) -> None:
    outcomes = both_phones_claim_the_win(night, layer, window)
    one_result_in_conflict(night, outcomes)
    seen = race.seen(RESULT_READ)
    # The second phone waited (SQLite: the IMMEDIATE transaction; PostgreSQL: the table's seat
    # row), then read the first's result.
    assert (seen.visits, seen.most_at_once) == (2, 1)


@LAYERS
def test_two_desks_importing_one_couples_file_at_once_register_it_once(
    night: Night, layer: str, window: Opener
) -> None:
    outcomes = two_desks_import_one_file(night, layer, window)
    assert statuses(outcomes) == [201, 409], outcomes
    assert Couple.objects.filter(drive=night.drive).count() == COUPLES + 2
    refused = next(outcome for outcome in outcomes if outcome.status == 409)
    if layer == "service":
        assert isinstance(refused.error, ServiceError)
        assert refused.error.code == "duplicate_couples"
    # The second desk waited for the first's couples, then found them registered.
    assert (race.seen(COUPLES_CHECKED).visits, race.seen(COUPLES_CHECKED).most_at_once) == (2, 1)


# --- the control: the same without the locking ------------------------------------------------


@LAYERS
@pytest.mark.usefixtures("unlocked")
def test_control_without_locking_both_imports_find_no_duplicates(
    night: Night, layer: str, window: Opener
) -> None:
    outcomes = two_desks_import_one_file(night, layer, window)
    # The race: both desks looked for the file's couples before either registered them, so
    # neither is told they are duplicates (the second then crashes on the couples' numbers,
    # or registers the file a second time).
    assert race.seen(COUPLES_CHECKED).most_at_once == 2
    assert 409 not in statuses(outcomes), outcomes


@LAYERS
@pytest.mark.usefixtures("unlocked")
def test_control_without_locking_both_advances_pass_the_check(
    night: Night, layer: str, window: Opener
) -> None:
    outcomes = advance_twice(night, layer, window)
    # The race: both organizers' advances checked game 1 before either started game 2.
    assert race.seen(ADVANCE_CHECKED).most_at_once == 2
    # So the second does not get the 200 replay: it crashes on the database, which refuses a
    # second game 2 (PostgreSQL) or a write based on a stale read (SQLite).
    assert statuses(outcomes) == [201, CRASH], outcomes
    crash = next(outcome for outcome in outcomes if outcome.status == CRASH)
    if layer == "service":
        assert isinstance(crash.error, DatabaseError), crash
    one_game_two(night)


@LAYERS
@pytest.mark.usefixtures("unlocked")
def test_control_without_locking_both_phones_read_no_result(
    night: Night, layer: str, backend: str, window: Opener
) -> None:
    outcomes = both_phones_claim_the_win(night, layer, window)
    # The race: both phones found no result at the table and went on to store theirs.
    assert race.seen(RESULT_READ).most_at_once == 2
    if backend == "sqlite":
        # The second write, based on a stale read, is refused: that phone gets a crash, not
        # the 409 telling its couple that the desk will settle the table.
        assert statuses(outcomes) == [201, CRASH], outcomes
        assert Result.objects.filter(game__drive=night.drive).count() == 1
    else:
        # PostgreSQL: the unique constraint on a table's result refuses the second write; that
        # phone's submission is read again (a third pass) and reported as the conflict.
        one_result_in_conflict(night, outcomes)
        assert race.seen(RESULT_READ).visits == 3


# --- the knobs stay in the tests ------------------------------------------------------------------


@pytest.mark.parametrize("module", ["base", "dev", "test", "prod"])
def test_settings_never_set_the_race_knobs(
    module: str, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    name = f"config.settings.{module}"
    loaded = sys.modules.get(name)
    if loaded is None:
        # Executed here, with what production requires in the environment, and not kept.
        monkeypatch.setenv("SECRET_KEY", "x" * 50)
        monkeypatch.setenv("ALLOWED_HOSTS", "example.org")
        # The environment as the module reads it (through base's, read once at its import).
        import config.settings.base as base
        from config.settings.env import read

        monkeypatch.setattr(base, "environment", read())
        path = Path(settings.BASE_DIR) / "config" / "settings" / f"{module}.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        loaded = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(loaded)
    assert loaded.DATABASES  # the module did run
    assert not hasattr(loaded, "SERVICES_LOCKING")
    assert not hasattr(loaded, "RACE_WINDOW_SECONDS")


def test_services_lock_and_never_pause_by_default(settings: Any) -> None:
    race.reset()
    for name in ("SERVICES_LOCKING", "RACE_WINDOW_SECONDS"):
        if hasattr(settings, name):
            delattr(settings, name)
    assert race.locking() is True
    race.pause(RESULT_READ)
    assert race.seen(RESULT_READ).visits == 0
