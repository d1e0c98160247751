"""Play the rest of a night with the engine's bots: for every table of the game in play that
has no result yet, a seeded bot game (``engine.simulate.simulate_table_game``) decides the
winner and the points; the result goes through ``result_record`` and the game through
``game_advance``, exactly as if a scorer had typed them in.

Reproducible: the bot game at a table is seeded from the night's seed, the game, the table and
the two couples (not from a generator shared across the night), so the same seed gives the
same night whether it is simulated in one run or in several (``until_game``), and whatever
other tables were already entered by hand. This module does not close the drive, settle
conflicts or pending confirmations (the advance refuses while there are any), nor touch
seatings other than through the advance.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from django.utils.translation import gettext

from drives.errors import ServiceError
from drives.models import AuditEntry, Drive
from drives.services import Actor, drive_start
from engine.bots import BOTS
from engine.simulate import SimulationError, simulate_table_game
from scoring.selectors import game_view
from scoring.services import game_advance, result_record

CLI = Actor(channel=AuditEntry.Channel.CLI)


@dataclass
class GamePlayed:
    """What the simulation did to one game: results it recorded, tables that already had one,
    sit-outs, and the game that followed (None if the game stayed in play)."""

    game: int
    recorded: int = 0
    already: int = 0
    sit_outs: int = 0
    advanced_to: int | None = None


@dataclass
class SimulationReport:
    seed: int
    bot: str
    started: bool = False
    games: list[GamePlayed] = field(default_factory=list)
    current_game: int = 0


def table_rng(seed: int, game: int, table: int, stays: int, arrives: int) -> random.Random:
    """The generator of one table's bot game (a string seed is hashed the same way on every
    platform and Python run)."""
    return random.Random(f"fortyfives/{seed}/{game}/{table}/{stays}/{arrives}")


def game_simulate(
    *,
    drive: Drive,
    game: int,
    seed: int,
    bot: str = "heuristic",
    tables: Iterable[int] | None = None,
    actor: Actor = CLI,
) -> GamePlayed:
    """Record a bot-played result at every table of ``game`` still without one (or only at
    ``tables``). The game must be the one in play."""
    if bot not in BOTS:
        raise ServiceError(
            "unknown_bot",
            gettext("No bot called %(bot)s; choose %(list)s.")
            % {"bot": f"{bot!r}", "list": " or ".join(BOTS)},
        )
    view = game_view(drive, game)
    if view is None:
        raise ServiceError(
            "game_not_started", gettext("Game %(game)s has not started.") % {"game": game}
        )
    wanted = None if tables is None else set(tables)
    rules = drive.rules_in_play()
    played = GamePlayed(game=game)
    for row in view["tables"]:
        if row["sit_out"]:
            played.sit_outs += 1
            continue
        if row["winner"] is not None:
            played.already += 1
            continue
        if wanted is not None and row["table"] not in wanted:
            continue
        stays, arrives = row["stays"], row["arrives"]
        rng = table_rng(seed, game, row["table"], stays, arrives)
        try:
            outcome = simulate_table_game(rules, rng, stays, arrives, bot)
        except SimulationError as error:
            raise ServiceError(
                error.code,
                gettext("Table %(table)s: %(message)s")
                % {"table": row["table"], "message": error.message},
            ) from None
        result_record(
            drive=drive,
            game=game,
            table=row["table"],
            winner=outcome.winner,
            points=list(outcome.points),
            confirm_unusual=True,  # the engine played it: an unusual score really happened
            actor=actor,
        )
        played.recorded += 1
    return played


def drive_simulate(
    *,
    drive: Drive,
    seed: int | None = None,
    until_game: int | None = None,
    bot: str = "heuristic",
    actor: Actor = CLI,
    on_game: Callable[[GamePlayed], None] | None = None,
) -> SimulationReport:
    """Play the night from the game in play up to ``until_game`` (default: the last game),
    starting the drive if it is still being set up. After each complete game that is not the
    last of the night the next game is started, so after ``until_game=6`` game 7 is in play
    with no results. ``seed`` None draws one (returned in the report, to replay the night).
    ``on_game`` is called after each game (the command prints a line)."""
    if bot not in BOTS:
        raise ServiceError(
            "unknown_bot",
            gettext("No bot called %(bot)s; choose %(list)s.")
            % {"bot": f"{bot!r}", "list": " or ".join(BOTS)},
        )
    if seed is None:
        seed = secrets.randbits(32)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ServiceError("bad_seed", gettext("The seed is a whole number from 0."))
    drive.refresh_from_db()
    if drive.state == Drive.State.CLOSED:
        raise ServiceError(
            ("drive_closed"), gettext("The drive is closed: nothing can change any more.")
        )
    last = drive.games if until_game is None else until_game
    if not isinstance(last, int) or isinstance(last, bool) or not 1 <= last <= drive.games:
        raise ServiceError(
            "bad_game",
            gettext("until_game must be a game of this night, from 1 to %(games)s.")
            % {"games": drive.games},
        )
    report = SimulationReport(seed=seed, bot=bot)
    if drive.state == Drive.State.SETUP:
        drive_start(drive=drive, actor=actor)
        report.started = True
        drive.refresh_from_db()
    while drive.current_game <= last:
        number = drive.current_game
        played = game_simulate(drive=drive, game=number, seed=seed, bot=bot, actor=actor)
        if number < drive.games:
            _, following = game_advance(drive=drive, game=number, actor=actor)
            played.advanced_to = following.number
        report.games.append(played)
        if on_game is not None:
            on_game(played)
        drive.refresh_from_db()
        if played.advanced_to is None:
            break
    report.current_game = drive.current_game
    return report
