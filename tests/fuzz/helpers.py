"""Helpers of the fuzz tests: a seeded club with drives in every state (so generated requests
reach real drives, games, tables, couples, ties and documents), a snapshot of what the
database holds (to show that a refused request changed nothing), and the project's WSGI
application called in-process inside the test's transaction.

The seeded world (``seed_world``):

- ``running``: 9 couples (one sits out each game), 4 games, game 1 played and advanced, table
  1 of game 2 reported;
- ``pending``: 4 couples, confirmation by the other couple, a result entered by couple 1's
  token waiting for couple 2;
- ``setup``: 4 couples, not started;
- ``over``: the last game complete, a cookie jar, ties opened for place 1 (couples 1 and 2,
  decided: a cut), place 2 (3 and 4, decided: a play-off), place 3 (5 and 6, one choice made)
  and the booby prize (7 and 8);
- ``closed``: started and closed, its results published (its players have public pages);
- ``theirs``: a drive of another club (the organizer of ours must get a 404 there).
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from django.apps import apps
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, Phase, settings

from drives.models import AuditEntry, Couple, Drive, Player
from drives.services import Actor, drive_close
from money.services import line_record, pot_open, raffle_add, setup_update
from practice.models import PracticeGame
from practice.table import start as practice_start
from scoring.models import Document, TableCall, Tie
from scoring.printing.rendering import document_run
from scoring.printing.services import document_request
from scoring.prizes.services import prizes_open_ties, tie_choose, tie_decide
from scoring.selectors import game_view
from scoring.services import game_advance, result_record
from seasons.services import season_add_drive, season_create
from tests.api.helpers import ClubUsers, couple_token, make_club, make_drive, table_token
from tests.prizes.helpers import night

DESK = Actor(channel=AuditEntry.Channel.DESK)


def fuzzing(examples: int) -> settings:
    """The suite's Hypothesis settings: ``examples`` cases, the same ones on every run
    (derandomized, no example database), explicit examples then generated ones, no deadline
    (a request may wait for the database) and no health check (the strategies filter hard)."""
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )


NO_SUCH = 999_999_999


@dataclass
class World:
    ours: ClubUsers
    theirs: ClubUsers
    drives: dict[str, Drive]
    ties: list[int]
    documents: list[int]
    tokens: dict[str, str] = field(default_factory=dict)
    practice: list[str] = field(default_factory=list)  # practice games' ids
    seasons: list[str] = field(default_factory=list)  # our club's seasons' slugs
    lines: list[int] = field(default_factory=list)  # the running drive's ledger lines
    raffles: list[int] = field(default_factory=list)  # the running drive's raffle items
    pots: list[int] = field(default_factory=list)  # our club's pots, and one of theirs

    def slug(self, name: str) -> str:
        return self.drives[name].slug

    def path_values(self) -> dict[str, list[Any]]:
        """For each path parameter of the API, values that reach something real (and one
        that does not), each on its own."""
        slugs = [drive.slug for drive in self.drives.values()]
        return {
            "slug": [*slugs, "no-such-drive"],
            "n": [1, 2, 3, 4, 5, NO_SUCH],
            "t": [1, 2, 3, 4, 5, NO_SUCH],
            "number": [1, 2, 3, 5, 9, NO_SUCH],
            "tie": [*self.ties, NO_SUCH],
            "pk": [*self.documents, NO_SUCH],
            "game_id": [*self.practice, "00000000-0000-4000-8000-000000000000"],
            "club": [self.ours.club.slug, self.theirs.club.slug, "no-such-club"],
            "season": [*self.seasons, "no-such-season"],
            "line": [*self.lines, NO_SUCH],
            "raffle": [*self.raffles, NO_SUCH],
            "pot": [*self.pots, NO_SUCH],
            "call": [*TableCall.objects.values_list("pk", flat=True), NO_SUCH],
            "player": [*(p.pk for p in self.public_players()), NO_SUCH],
            "key": [*(p.page_key() for p in self.public_players()), "0" * 24],
        }

    def public_players(self) -> list[Player]:
        """The players of the closed (published) drive: their pages are public."""
        couples = Couple.objects.filter(drive=self.drives["closed"]).order_by("number")
        return [p for c in couples.select_related("member1") if (p := c.member1) is not None]

    def targets(self, names: Iterable[str]) -> list[list[dict[str, Any]]]:
        """Path parameters ``names`` that belong together, drive by drive: a drive's slug with
        its games (and the one after), tables, couples, ties and documents (and one past the
        last)."""
        wanted = sorted(names)
        if "player" in wanted:  # a player of the club with their own page's key
            club = self.ours.club.slug
            return [
                [
                    {k: v for k, v in one.items() if k in wanted}
                    for p in self.public_players()
                    if (one := {"club": club, "player": p.pk, "key": p.page_key()})
                ]
            ]
        by_drive = []
        for drive in self.drives.values():
            found = []
            values: dict[str, list[Any]] = {
                "slug": [drive.slug],
                "n": list(range(1, drive.current_game + 2)),
                "t": list(range(1, drive.tables.count() + 2)),
                "number": list(range(1, drive.couples.count() + 2)),
                "tie": list(Tie.objects.filter(drive=drive).values_list("pk", flat=True)),
                "pk": document_ids(drive),
                "call": list(TableCall.objects.filter(drive=drive).values_list("pk", flat=True)),
            }
            for combination in itertools.product(*(values.get(name, []) for name in wanted)):
                found.append(dict(zip(wanted, combination, strict=True)))
            if found:
                by_drive.append(found)
        return by_drive


def play_game(drive: Drive, number: int) -> None:
    """Every table of game ``number`` won by the couple staying."""
    view = game_view(drive, number)
    assert view is not None
    for row in view["tables"]:
        if not row["sit_out"] and row["state"] == "missing":
            result_record(
                drive=drive, game=number, table=row["table"], winner=row["stays"], actor=DESK
            )


def seed_world() -> World:
    ours = make_club("St. Joseph's Parish", "ours")
    theirs = make_club("Legion Branch 12", "theirs")

    running = make_drive(ours.club, 9, start=True, games=4)
    play_game(running, 1)
    game_advance(drive=running, game=1, actor=DESK)
    running.refresh_from_db()
    first = game_view(running, 2)["tables"][0]
    result_record(drive=running, game=2, table=first["table"], winner=first["stays"], actor=DESK)

    pending = make_drive(ours.club, 4, start=True, confirm_by_other_couple=True)
    result_record(
        drive=pending,
        game=1,
        table=1,
        winner=1,
        actor=Actor(channel=AuditEntry.Channel.COUPLE, couple=pending.couples.get(number=1)),
    )

    # Not started, and taking registrations before the night (its public POST is fuzzed).
    setup = make_drive(ours.club, 4, registration_opens=datetime(2026, 1, 1, tzinfo=UTC))
    over = night(
        [3, 3, 2, 2, 1, 1, 0, 0],
        games=3,
        club=ours.club,
        cookie_jar=[1, 2, 3],
        prizes={
            "prize_places": 3,
            "prizes": [{"amount": "50.00"}, {"amount": "30.00"}, {"description": "a ham"}],
            "cookie_jar": True,
            "buy_in": "2.00",
        },
    )
    cut, playoff, *_open = prizes_open_ties(drive=over, actor=DESK)
    for tie, choice in ((cut, "cut"), (playoff, "play-off")):
        for number in tie.couples:
            tie_choose(tie=tie, couple=number, choice=choice, actor=DESK)
        tie_decide(tie=tie, actor=DESK)
    tie_choose(tie=_open[0], couple=_open[0].couples[0], choice="split", actor=DESK)
    closed = make_drive(ours.club, 4, start=True)
    drive_close(drive=closed, actor=DESK)
    # Its results public: its players have public pages (the club's pages, club/api.py).
    Drive.objects.filter(pk=closed.pk).update(published=True)
    other = make_drive(theirs.club, 4, start=True)

    drives = {
        "running": running,
        "pending": pending,
        "setup": setup,
        "over": over,
        "closed": closed,
        "theirs": other,
    }
    for drive in drives.values():
        drive.refresh_from_db()
    queued = document_request(running, "table-cards", DESK)
    done = document_request(running, "movement", DESK)
    document_run(done.pk)
    world = World(
        ours=ours,
        theirs=theirs,
        drives=drives,
        ties=list(Tie.objects.filter(drive=over).order_by("pk").values_list("pk", flat=True)),
        documents=[queued.pk, done.pk],
    )
    world.practice = [
        str(PracticeGame.objects.create(state=practice_start(ruleset, seed=seed)).pk)
        for ruleset, seed in (("cape-breton-45", 5), ("cape-breton-45", 12), ("auction-120", 1))
    ]  # you to play a card; you may rob; an auction
    season = season_create(
        club=ours.club, name="Fall 2026", starts=date(2026, 9, 1), ends=date(2026, 12, 31)
    )
    for drive in (running, over, closed):
        season_add_drive(season=season, drive=drive)
    world.seasons = [season.slug]
    world.lines = [line_record(drive=running, actor=DESK, kind="donation", amount="5.00").pk]
    world.raffles = [raffle_add(drive=running, actor=DESK, name="A ham").pk]
    world.pots = [
        pot_open(club=club, actor=DESK, name=name, kind=kind, opening="50.00").pk
        for club, name, kind in (
            (ours.club, "Catch the ace", "ace"),
            (ours.club, "Jackpot", "jackpot"),
            (ours.club, "Cookie jar", "jar"),
            (theirs.club, "Their jar", "jar"),
        )
    ]
    # The licence's report needs its licence's number.
    setup_update(drive=running, actor=DESK, licence_number="NS-AGLC 2026-0417")
    world.tokens = {
        "table": table_token(running, 2),
        "couple": couple_token(running, 3),
        "pending_other": couple_token(pending, 2),
        "closed_table": table_token(closed, 1),
    }
    return world


# --- what the database holds ------------------------------------------------------------------


def snapshot() -> dict[str, Any]:
    """Every row of the project's own models (drives and scoring), as comparable values: a
    request that was refused must leave this unchanged."""
    state: dict[str, Any] = {}
    for label in ("drives", "scoring", "seasons", "money"):
        for model in apps.get_app_config(label).get_models():
            rows = model.objects.order_by("pk").values()
            state[model._meta.label] = [_plain(row) for row in rows]
    return state


def _plain(row: dict[str, Any]) -> dict[str, Any]:
    # last_used_at of an API token is bookkeeping of the authentication, not the request's.
    return {k: v for k, v in row.items() if k != "last_used_at"}


def changed_tables(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    return [name for name in before if before[name] != after.get(name)]


@contextmanager
def rolled_back() -> Iterator[None]:
    """Whatever happens inside is undone (a savepoint inside the test's transaction)."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


# --- the WSGI application, in-process ---------------------------------------------------------


class InProcessApp:
    """The project's WSGI handler for in-process calls (schemathesis' WSGI transport) inside
    the test's transaction: Django's per-request connection clean-up is switched off, as the
    test client does, and an exception a view lets through is re-raised with its traceback
    instead of becoming an anonymous 500 page."""

    def __init__(self) -> None:
        self.handler = WSGIHandler()
        self.errors: list[BaseException] = []

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        return self.handler(environ, start_response)

    def _record(self, **kwargs: Any) -> None:
        error = sys.exc_info()[1]
        if error is not None:
            self.errors.append(error)

    def raise_errors(self) -> None:
        if self.errors:
            error = self.errors[0]
            self.errors.clear()
            raise error

    @contextmanager
    def active(self) -> Iterator[InProcessApp]:
        signals.request_started.disconnect(close_old_connections)
        signals.request_finished.disconnect(close_old_connections)
        signals.got_request_exception.connect(self._record)
        try:
            yield self
        finally:
            signals.got_request_exception.disconnect(self._record)
            signals.request_started.connect(close_old_connections)
            signals.request_finished.connect(close_old_connections)


def document_ids(drive: Drive) -> list[int]:
    return list(Document.objects.filter(drive=drive).values_list("pk", flat=True))
