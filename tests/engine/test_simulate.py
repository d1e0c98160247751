"""Simulated hands and games: reproducible from a seed, scored by the rules, and accepted by the
score validator (engine.scores) — thousands of seeds per preset."""

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.auction import auction_hand_points
from engine.bots import HeuristicBot, PlayState
from engine.cards import Card, Suit
from engine.game import GameRecord, end_of_hand, hand_is_jink, totals_of
from engine.rules import PRESETS, Ruleset, get_ruleset, make_ruleset
from engine.scores import check_final_score, check_score_sheet
from engine.simulate import (
    HandDetail,
    SimulationError,
    simulate_game,
    simulate_hand,
    simulate_table_game,
)

PRESET_NAMES = sorted(PRESETS)
SEEDS_PER_PRESET = 3000  # per bot kind: 3 presets x 2 bots x 3000 = 18,000 games
OPTIONS = {
    "five-of-trumps": make_ruleset(bonus="five-of-trumps"),
    "top-four-aces-high": make_ruleset(bonus="top-four", offsuit_aces_high=True),
    "joker-no-jink": make_ruleset("irish-45-joker", jink_wins_game=False),
    "auction-no-hold-30-for-60": make_ruleset(
        "auction-120", dealer_cannot_hold=True, thirty_for_sixty=True
    ),
    "auction-must-bid-to-go-out": make_ruleset("auction-120", must_bid_to_go_out=True),
}


def details(record: GameRecord) -> list[HandDetail]:
    hands = [d for d in record.hands if isinstance(d, HandDetail)]
    assert len(hands) == len(record.lines)
    return hands


def check_game(record: GameRecord, rules: Ruleset, first_dealer: int) -> None:
    """Everything a finished game must satisfy, whatever the bots did."""
    assert record.final == totals_of(record.lines)
    totals = (0, 0)
    for number, (line, detail) in enumerate(zip(record.lines, details(record), strict=True)):
        dealer = (first_dealer + number) % 4
        assert detail.dealer == dealer and line.dealer == dealer % 2
        assert detail.points == line.points
        trick_points = detail.score.points
        assert sum(trick_points) == (30 if detail.score.bonus_trick is not None else 25)
        if rules.bonus == "best-trump":
            assert (sum(trick_points) == 30) == detail.score.trump_played
        if rules.auction:
            assert detail.auction is not None
            assert line.bidder == detail.auction.seat % 2 and line.bid == detail.auction.bid
            assert line.points == auction_hand_points(
                trick_points, line.bidder, line.bid, totals, rules
            )
        else:
            assert line.bidder is None and line.bid is None
            assert line.points == trick_points
            assert sum(line.points) in (25, 30)
        totals, winner = end_of_hand(totals, line, rules)
        last = number == len(record.lines) - 1
        assert (winner is not None) == last  # the game stops at the first winning hand
    assert totals == record.final
    won_by_jink = rules.jink_wins_game and hand_is_jink(record.lines[-1], rules) == record.winner
    both_out = record.loser_points >= rules.target
    if not won_by_jink:
        assert record.winner_points >= rules.target
        if rules.auction and both_out:
            assert record.winner == record.lines[-1].bidder  # "bidder goes out"
        else:
            assert record.winner_points >= record.loser_points
    last_dealer = record.lines[-1].dealer
    assert last_dealer is not None
    if record.final[0] == record.final[1] and not won_by_jink and not rules.auction:
        assert record.winner == 1 - last_dealer  # first clockwise from the dealer
    if not rules.auction:
        assert len(record.lines) <= 4  # 25 points a hand at least: 4 hands pass 45


def check_accepted(record: GameRecord, rules: Ruleset) -> None:
    """The validator accepts every simulated game: never impossible, and ok unless a hand was
    played without a trump under the best-trump bonus."""
    sheet = check_score_sheet(record.lines, rules, final=record.final, winner=record.winner)
    final = check_final_score(record.winner_points, record.loser_points, rules)
    assert sheet.status != "impossible", (sheet, record.lines)
    assert final.status != "impossible", (final, record.final)
    trumpless = any(not d.score.trump_played for d in details(record))
    if not (trumpless and rules.bonus == "best-trump"):
        assert sheet.status == "ok", (sheet, record.lines)
        assert final.status == "ok", (final, record.final)


@pytest.mark.parametrize("bot", ["heuristic", "random"])
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_thousands_of_games_per_preset(preset: str, bot: str) -> None:
    rules = get_ruleset(preset)
    for seed in range(SEEDS_PER_PRESET):
        first_dealer = seed % 4
        record = simulate_game(rules, random.Random(seed), bot=bot, first_dealer=first_dealer)
        check_game(record, rules, first_dealer)
        check_accepted(record, rules)


@pytest.mark.parametrize("option", sorted(OPTIONS))
def test_games_under_options(option: str) -> None:
    rules = OPTIONS[option]
    for seed in range(300):
        for bot in ("heuristic", "random"):
            record = simulate_game(rules, random.Random(seed), bot=bot, first_dealer=seed % 4)
            check_game(record, rules, seed % 4)
            check_accepted(record, rules)


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    preset=st.sampled_from(PRESET_NAMES),
    bot=st.sampled_from(["heuristic", "random"]),
    first_dealer=st.integers(0, 3),
)
def test_same_seed_same_game(seed: int, preset: str, bot: str, first_dealer: int) -> None:
    rules = get_ruleset(preset)
    one = simulate_game(rules, random.Random(seed), bot=bot, first_dealer=first_dealer)
    two = simulate_game(rules, random.Random(seed), bot=bot, first_dealer=first_dealer)
    assert one == two
    assert one.hands == two.hands  # every card of every trick, not only the score sheet


def test_different_seeds_give_different_games() -> None:
    rules = get_ruleset()
    games = {simulate_game(rules, random.Random(seed)).hands[0] for seed in range(20)}
    assert len(games) == 20


def test_jink_wins_the_game_at_once() -> None:
    rules = get_ruleset("irish-45-joker")
    jinks = 0
    for seed in range(500):
        record = simulate_game(rules, random.Random(seed))
        last = record.lines[-1]
        if hand_is_jink(last, rules) is not None and record.winner_points < rules.target:
            jinks += 1
            assert record.winner == hand_is_jink(last, rules)
    assert jinks > 0  # the heuristic bot does take all five tricks now and then


def test_equal_scores_go_to_the_side_left_of_the_dealer() -> None:
    rules = get_ruleset()
    ties = 0
    for seed in range(300):
        record = simulate_game(rules, random.Random(seed), first_dealer=seed % 4)
        if record.final[0] == record.final[1]:
            ties += 1
            dealer = record.lines[-1].dealer
            assert dealer is not None and record.winner == 1 - dealer
    assert ties > 0


def test_simulate_hand_outside_auction() -> None:
    rules = get_ruleset()
    rng = random.Random(11)
    bots = [HeuristicBot(rng)] * 4
    line, detail = simulate_hand(rules, rng, 2, (0, 0), bots)
    assert line.dealer == 0 and detail.dealer == 2
    assert detail.leaders[0] == 3 and detail.auction is None and detail.bids == ()
    assert detail.deal.ready and detail.trump is detail.deal.trump
    assert len(detail.tricks) == 5 and all(len(t) == 4 for t in detail.tricks)


def test_simulate_hand_in_auction() -> None:
    rules = get_ruleset("auction-120")
    rng = random.Random(5)
    line, detail = simulate_hand(rules, rng, 1, (100, -20), [HeuristicBot(rng)] * 4)
    assert detail.auction is not None and len(detail.bids) == 4
    assert [seat for seat, _ in detail.bids] == [2, 3, 0, 1]
    assert detail.leaders[0] == detail.auction.seat  # the bidder leads
    assert detail.events[-1].kind == "trump_named"
    assert line.bidder == detail.auction.seat % 2 and line.bid == detail.auction.bid


def test_turned_aces_jokers_and_robbing_happen_in_simulation() -> None:
    rules = get_ruleset("irish-45-joker")
    kinds: set[str] = set()
    for seed in range(300):
        for detail in details(simulate_game(rules, random.Random(seed))):
            kinds.update(event.kind for event in detail.events)
            assert detail.deal.owed == 0
    assert {"turn_up", "joker_to_dealer", "ace_to_dealer", "discard", "rob"} <= kinds


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_table_game_arriving_couple_deals_first(preset: str) -> None:
    rules = get_ruleset(preset)
    winners = set()
    for seed in range(40):
        result = simulate_table_game(rules, random.Random(seed), stays=7, arrives=12)
        record = result.record
        assert record.lines[0].dealer == 0  # side 0, the arriving couple
        assert {result.winner, result.loser} == {7, 12}
        assert result.winner == (12 if record.winner == 0 else 7)
        assert result.points == (record.winner_points, record.loser_points)
        winners.add(result.winner)
    assert winners == {7, 12}


def test_table_game_reproduces() -> None:
    rules = get_ruleset()
    one = simulate_table_game(rules, random.Random(99), 3, 4, bot="random")
    two = simulate_table_game(rules, random.Random(99), 3, 4, bot="random")
    assert one == two


def test_hand_cap_guards_against_endless_games() -> None:
    rules = get_ruleset("auction-120")
    with pytest.raises(SimulationError) as problem:
        simulate_game(rules, random.Random(1), max_hands=1)
    assert problem.value.code == "too_many_hands"


def test_four_bots_needed() -> None:
    rng = random.Random(0)
    with pytest.raises(SimulationError) as problem:
        simulate_game(get_ruleset(), rng, bot=[HeuristicBot(rng)] * 3)
    assert problem.value.code == "bad_bots"


def test_a_bot_playing_an_illegal_card_is_caught() -> None:
    class Cheat(HeuristicBot):
        def choose_card(
            self,
            hand: Sequence[Card],
            trick: Sequence[Card],
            trump: Suit,
            rules: Ruleset,
            state: PlayState,
        ) -> Card:
            return hand[-1]  # whatever was led

    rules = get_ruleset()
    for check in (True, False):
        caught = 0
        for seed in range(30):
            rng = random.Random(seed)
            try:
                simulate_game(rules, rng, bot=[Cheat(rng)] * 4, check=check)
            except SimulationError as problem:
                assert problem.code == "illegal_play"
                caught += 1
        assert caught > 0 if check else caught == 0  # unchecked, only cards not in hand
