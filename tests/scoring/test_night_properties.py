"""Hypothesis over random nights through the services: random numbers of couples, winners,
movements, first seatings and, between games, late arrivals and withdrawals (several in one
break, a late couple withdrawn before it plays, a withdrawal taken back). After every game
the stored night must satisfy docs/rules.md §7 (tests/scoring/nights.py) and the next seating must
be exactly the movement's.

Each example runs inside a transaction that is rolled back at its end, so examples do not
see each other's drives (the test itself is a plain ``django_db`` test).
"""

import random

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drives.models import Couple
from drives.services import couple_update
from tests.scoring.nights import (
    DESK,
    advance,
    check_game,
    check_movement,
    new_drive,
    play_game,
    register,
    seeded,
    start,
    withdraw,
)

pytestmark = pytest.mark.django_db

MAX_GAMES = 8


class Rollback(Exception):
    """Raised at the end of an example to undo everything it stored."""


@st.composite
def nights(draw: st.DrawFn) -> dict[str, object]:
    games = draw(st.integers(2, MAX_GAMES))
    return {
        "couples": draw(st.integers(2, 13)),
        "games": games,
        "movement": draw(st.sampled_from(["winners-move", "losers-move"])),
        "shuffle": draw(st.one_of(st.none(), st.integers(0, 2**32))),
        "sit_out_counts_as_win": draw(st.booleans()),
        "seed": draw(st.integers(0, 2**32)),
        # Per break: (late arrivals, withdrawals as picks among the couples, take one back?)
        "breaks": draw(
            st.lists(
                st.tuples(
                    st.integers(0, 3),
                    st.lists(st.integers(0, 10_000), max_size=3),
                    st.booleans(),
                ),
                min_size=games - 1,
                max_size=games - 1,
            )
        ),
    }


def play(night: dict[str, object]) -> None:
    games = night["games"]
    assert isinstance(games, int)
    drive = new_drive(
        night["couples"],
        games=games,
        movement=night["movement"],
        sit_out_counts_as_win=night["sit_out_counts_as_win"],
    )
    if night["shuffle"] is None:
        start(drive)
    else:
        start(drive, seating="shuffle", seed=night["shuffle"])
    pick = seeded(random.Random(night["seed"]))
    breaks = night["breaks"]
    assert isinstance(breaks, list)
    for game in range(1, games + 1):
        check_game(drive, game, results=False)
        play_game(drive, game, pick)
        check_game(drive, game)
        if game == games:
            return
        late_count, withdrawals, take_back = breaks[game - 1]
        if late_count:
            register(drive, late_count)
        candidates = sorted(
            Couple.objects.filter(drive=drive, withdrawn_game__isnull=True).values_list(
                "number", flat=True
            )
        )
        chosen: list[int] = []
        for choice in withdrawals:
            # Always leave two couples to play.
            left = [c for c in candidates if c not in chosen]
            if len(left) <= 2:
                break
            chosen.append(left[choice % len(left)])
        if chosen:
            withdraw(drive, *chosen)
            if take_back:
                couple_update(
                    couple=Couple.objects.get(drive=drive, number=chosen[0]),
                    withdrawn=False,
                    actor=DESK,
                )
        advance(drive, game)
        check_movement(drive, game)


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(night=nights())
def test_random_nights_keep_the_rules(night: dict[str, object]) -> None:
    try:
        with transaction.atomic():
            play(night)
            raise Rollback
    except Rollback:
        pass
