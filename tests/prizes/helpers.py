"""Build finished nights with chosen wins quickly, for the prize tests.

``night`` stores games, seats and accepted results directly (as ``tests.scoring.nights``'
``fill_results`` does): a seating that gives each couple exactly the games it should win, not
one the movement would produce. The prizes only read wins, games played and won games
(``scoring.selectors.couple_records``), so this is all they need; nights played through the
real services are in the Hypothesis test.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db import transaction

from drives.models import AuditEntry, Club, Couple, Drive, Game, Seat, Table
from drives.services import Actor
from scoring.models import Result, ResultVersion
from scoring.prizes.services import prize_setup_update
from tests.scoring.nights import new_drive

DESK = Actor(channel=AuditEntry.Channel.DESK)


def night(
    wins: Sequence[int] | Mapping[int, Iterable[int]],
    *,
    games: int | None = None,
    club: Club | None = None,
    withdrawn: Iterable[int] = (),
    cookie_jar: Iterable[int] = (),
    prizes: Mapping[str, Any] | None = None,
    **settings: Any,
) -> Drive:
    """A drive whose last game is complete, couple i winning ``wins[i-1]`` games (games 1..w)
    or, given a mapping, exactly the games listed (a game nobody wins goes to the lowest
    number present). Withdrawn couples miss the last game."""
    if isinstance(wins, Mapping):
        won = {c: set(g) for c, g in wins.items()}
    else:
        won = {i: set(range(1, w + 1)) for i, w in enumerate(wins, 1)}
    count = max(won)
    games = games or max([max(g, default=1) for g in won.values()] + [1])
    drive = new_drive(count, club=club, games=games, **settings)
    gone = set(withdrawn)
    with transaction.atomic():
        couples = {c.number: c for c in Couple.objects.filter(drive=drive)}
        Couple.objects.filter(drive=drive, number__in=gone).update(withdrawn_game=games)
        Couple.objects.filter(drive=drive, number__in=list(cookie_jar)).update(cookie_jar=True)
        tables = {n: Table.objects.create(drive=drive, number=n) for n in range(1, count + 1)}
        for g in range(1, games + 1):
            game = Game.objects.create(drive=drive, number=g)
            present = [c for c in sorted(couples) if not (c in gone and g == games)]
            winners = [c for c in present if g in won.get(c, set())]
            losers = [c for c in present if c not in winners]
            if losers and not winners:  # only withdrawn couples won it: the lowest other wins
                winners = [losers.pop(0)]
            used = set()
            for i, loser in enumerate(losers):
                winner = winners[i % len(winners)]
                used.add(winner)
                seat = Seat.objects.create(
                    game=game, table=tables[loser], stays=couples[winner], arrives=couples[loser]
                )
                result = Result.objects.create(game=game, seat=seat, winner=couples[winner])
                ResultVersion.objects.create(
                    result=result, kind=ResultVersion.Kind.ENTERED, winner=couples[winner]
                )
            for winner in winners:
                if winner not in used:  # a sit-out, credited as a win
                    Seat.objects.create(game=game, table=tables[winner], stays=couples[winner])
        Drive.objects.filter(pk=drive.pk).update(state=Drive.State.RUNNING, current_game=games)
    drive.refresh_from_db()
    if prizes:
        prize_setup_update(drive=drive, actor=DESK, **prizes)
    return drive


def arrived_late(drive: Drive, couple: int, missed: int = 1) -> None:
    """Couple ``couple`` arrived for game ``missed`` + 1: its games before are taken away (the
    couple it met sits out instead) and it is marked as joining late."""
    with transaction.atomic():
        for seat in Seat.objects.filter(game__drive=drive, game__number__lte=missed):
            if couple not in (seat.arrives and seat.arrives.number, seat.stays.number):
                continue
            Result.objects.filter(seat=seat).delete()
            if seat.stays.number == couple:
                if seat.arrives is None:
                    seat.delete()
                    continue
                seat.stays = seat.arrives
            seat.arrives = None
            seat.save()
        Couple.objects.filter(drive=drive, number=couple).update(joined_game=missed + 1)
