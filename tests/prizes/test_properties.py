"""Hypothesis over random small nights: whatever the wins, withdrawals, set-up and the
couples' choices, every prize place is awarded or explicitly left empty, no couple takes two
places, and the prizes paid never exceed the prize fund. One night is also played through the
real services (``scoring.simulation``) and settled.

Each example runs inside a transaction rolled back at its end (as in
tests/scoring/test_night_properties.py).
"""

import random
from decimal import Decimal
from unittest import mock

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drives.models import Drive
from scoring.models import Award, CookieJarDraw, PrizePlace, PrizeSetup, Tie
from scoring.prizes.selectors import prize_table
from scoring.prizes.services import (
    cookie_jar_draw,
    prize_setup_update,
    prizes_open_ties,
    tie_choose,
    tie_cut_draw,
    tie_decide,
    tie_playoff_result,
)
from scoring.simulation import drive_simulate
from tests.prizes.helpers import DESK, night
from tests.scoring.nights import new_drive

pytestmark = pytest.mark.django_db


class Rollback(Exception):
    pass


def settle_everything(drive: Drive, rng: random.Random) -> None:
    """Answer every open tie with random choices and hold its cut or play-off to the end."""
    for _ in range(50):
        tie = Tie.objects.filter(drive=drive).exclude(state=Tie.State.SETTLED).first()
        if tie is None:
            return
        if tie.state == Tie.State.OPEN:
            choices = ["split", "cut", "play-off", "forfeit"]
            picked = {c: rng.choice(choices) for c in tie.couples}
            if "play-off" in picked.values():
                picked = {c: rng.choice(["play-off", "forfeit"]) for c in tie.couples}
                picked[tie.couples[0]] = "play-off"
            for couple, choice in picked.items():
                tie_choose(tie=tie, couple=couple, choice=choice, actor=DESK)
            try:
                tie = tie_decide(tie=tie, actor=DESK)
            except Exception as error:  # a prize in kind: cut instead
                assert getattr(error, "code", "") == "cannot_split"
                for couple in tie.couples:
                    tie_choose(tie=tie, couple=couple, choice="cut", actor=DESK)
                tie = tie_decide(tie=tie, actor=DESK)
        if tie.method == "cut" and tie.state == Tie.State.DECIDED:
            tie_cut_draw(tie=tie, actor=DESK)
        while tie.method == "play-off" and tie.state == Tie.State.DECIDED:
            pending = tie.matches.filter(winner__isnull=True, b__isnull=False).first()
            assert pending is not None
            pair = [pending.a.number, pending.b.number]
            tie_playoff_result(tie=tie, match=pair, winner=rng.choice(pair), actor=DESK)
            tie.refresh_from_db()
    pytest.fail("the ties never ended")


@st.composite
def nights(draw: st.DrawFn) -> dict[str, object]:
    games = draw(st.integers(2, 6))
    couples = draw(st.integers(1, 7))
    won = {
        c: set(draw(st.lists(st.integers(1, games), max_size=games, unique=True)))
        for c in range(1, couples + 1)
    }
    won[1] |= set(range(1, games + 1)) - set().union(*won.values())  # each game has a winner
    return {
        "won": won,
        "games": games,
        "withdrawn": draw(st.lists(st.integers(1, couples), max_size=2, unique=True)),
        "cookie_jar": draw(st.lists(st.integers(1, couples), max_size=couples, unique=True)),
        "ranking": draw(st.sampled_from(["dense", "competition"])),
        "places": draw(st.integers(0, 4)),
        "amounts": draw(st.lists(st.integers(0, 9999), min_size=4, max_size=4)),
        "in_kind": draw(st.booleans()),
        "booby": draw(st.booleans()),
        "house_rule": draw(st.sampled_from(["none", "none", "always-cut", "always-split"])),
        "jackpot": draw(st.one_of(st.none(), st.integers(1, games))),
        "jar_k": draw(st.integers(1, games)),
        "seed": draw(st.integers(0, 2**32)),
    }


def fund(drive: Drive) -> Decimal:
    setup = PrizeSetup.objects.get(drive=drive)
    total = sum((p.amount or 0 for p in PrizePlace.objects.filter(drive=drive)), Decimal(0))
    total += (setup.booby_amount or 0) + (setup.jackpot_amount or 0)
    draw = CookieJarDraw.objects.filter(drive=drive).first()
    return total + (draw.pot if draw else 0)


def check(drive: Drive) -> None:
    table = prize_table(drive)
    setup = PrizeSetup.objects.get(drive=drive)
    assert len(table["places"]) == setup.prize_places
    for row in table["places"]:
        assert row["status"] in ("awarded", "empty"), row
    place_awards = Award.objects.filter(drive=drive, kind=Award.Kind.PLACE)
    by_couple: dict[int, set[int]] = {}
    for award in place_awards.select_related("couple"):
        by_couple.setdefault(award.couple.number, set()).add(award.place)
        assert not award.couple.withdrawn
    assert all(len(places) == 1 for places in by_couple.values()), by_couple
    paid = sum((a.amount or 0 for a in Award.objects.filter(drive=drive)), Decimal(0))
    assert paid <= fund(drive)
    for tie in Tie.objects.filter(drive=drive):
        assert tie.state == Tie.State.SETTLED


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(case=nights())
def test_random_nights_pay_every_prize_once(case: dict[str, object]) -> None:
    rng = random.Random(case["seed"])
    places = case["places"]
    assert isinstance(places, int)
    amounts = case["amounts"]
    assert isinstance(amounts, list)
    prizes = [{"amount": f"{a / 100:.2f}"} for a in amounts[:places]]
    if case["in_kind"] and prizes:
        prizes[-1] = {"description": "a turkey"}
    setup: dict[str, object] = {
        "prize_places": places,
        "prizes": prizes,
        "booby": case["booby"],
        "booby_prize": {"amount": "5.00"},
        "house_rule": case["house_rule"],
        "cookie_jar": True,
        "cookie_jar_k": case["jar_k"],
        "buy_in": "2.00",
    }
    if case["jackpot"] is not None:
        setup |= {"jackpot_threshold": case["jackpot"], "jackpot_amount": "50.00"}
    try:
        # The system's draws (cut, cookie jar) take their seeds from the example's generator,
        # so a failing example replays the same draws.
        with (
            transaction.atomic(),
            mock.patch("scoring.prizes.services.new_seed", lambda: rng.getrandbits(48)),
        ):
            drive = night(
                case["won"],
                games=case["games"],
                withdrawn=case["withdrawn"],
                cookie_jar=case["cookie_jar"],
                ranking=case["ranking"],
                prizes=setup,
            )
            prizes_open_ties(drive=drive, actor=DESK)
            cookie_jar_draw(drive=drive, actor=DESK)
            settle_everything(drive, rng)
            check(drive)
            raise Rollback
    except Rollback:
        pass


def test_a_night_played_through_the_services_is_settled() -> None:
    drive = new_drive(7, games=5)
    prize_setup_update(
        drive=drive,
        actor=DESK,
        prizes=[{"amount": "40.00"}, {"amount": "20.00"}, {"amount": "10.00"}],
        cookie_jar=True,
        cookie_jar_k=2,
    )
    drive_simulate(drive=drive, seed=2026, actor=DESK)
    drive.refresh_from_db()
    assert prize_table(drive)["night_over"]
    prizes_open_ties(drive=drive, actor=DESK)
    cookie_jar_draw(drive=drive, actor=DESK)
    settle_everything(drive, random.Random(1))
    check(drive)
