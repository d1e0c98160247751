"""Individual play (engine.individual): dealing to 2–6, 5 a trick to the taker and the bonus,
the first to the target wins; and the heuristic bot without a partner."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.beginner import make_practice_bot
from engine.bots import HeuristicBot, PlayState
from engine.cards import Card, Suit, parse_cards
from engine.deal import DealError, deal_hand, dealer_discard, rob
from engine.individual import (
    IndividualScore,
    check_individual,
    end_of_individual_hand,
    score_individual,
)
from engine.play import check_play, legal_plays, trick_winner
from engine.rules import Ruleset, RulesetError, get_ruleset

CB = get_ruleset("cape-breton-45")
IRISH = get_ruleset("irish-45-joker")


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_dealing_to_each_player(players: int) -> None:
    for seed in range(30):
        deal = deal_hand(random.Random(seed), IRISH, dealer=seed % players, players=players)
        assert len(deal.hands) == players == deal.players
        sizes = [len(h) for h in deal.hands]
        assert sizes[deal.dealer] == 5 + deal.owed and sum(sizes) == 5 * players + deal.owed
        dealt = [c for h in deal.hands for c in h]
        assert len(set(dealt)) == len(dealt)
        if deal.robber is not None:
            assert deal.robber < players
            robbed = rob(deal, deal.robber, deal.hands[deal.robber][0])
            assert deal.turn_up in robbed.hands[deal.robber]


def test_players_and_auction_are_checked() -> None:
    with pytest.raises(DealError) as seven:
        deal_hand(random.Random(1), CB, dealer=0, players=7)
    assert seven.value.code == "bad_players"
    with pytest.raises(DealError) as auction:
        deal_hand(random.Random(1), get_ruleset("auction-120"), dealer=0, players=3)
    assert auction.value.code == "auction_needs_four"
    with pytest.raises(RulesetError) as no:
        check_individual(get_ruleset("auction-120"), 3)
    assert no.value.code == "no_individual_play"
    with pytest.raises(DealError) as seat:
        rob(deal_hand(random.Random(1), CB, dealer=0, players=3), 3, Card.parse("2C"))
    assert seat.value.code == "bad_seat"


def test_five_a_trick_and_the_bonus_to_the_taker() -> None:
    trump = Suit.HEARTS
    tricks = [parse_cards(t) for t in ("5H 2C 3C", "KC QC JC", "2D 3D 4D", "9S 8S 7S", "6C 7C 8C")]
    winners = [2, 0, 1, 1, 0]
    score = score_individual(tricks, winners, trump, CB, 3)
    assert score.points == (10, 10, 10)  # seat 2 took one trick: the one with the 5♥
    assert score.bonus_trick == 0 and score.tricks == (2, 2, 1) and score.jink is None
    no_trump = score_individual([*tricks[1:], parse_cards("4C 5C 6C")], winners, trump, CB, 3)
    assert sum(no_trump.points) == 25 and no_trump.bonus_trick is None


def test_the_first_to_45_wins_and_the_highest_when_several() -> None:
    def hand(points: tuple[int, ...]) -> object:
        from engine.individual import IndividualScore

        return IndividualScore(points, tuple(p // 5 for p in points), None, None)

    assert end_of_individual_hand((30, 20, 35), hand((10, 10, 5)), CB, 0) == ((40, 30, 40), None)
    assert end_of_individual_hand((40, 20, 35), hand((10, 15, 5)), CB, 0)[1] == 0
    assert end_of_individual_hand((40, 20, 40), hand((5, 5, 15)), CB, 0)[1] == 2
    # Equal highest: the first clockwise from the dealer's left (dealer 0: seat 1, then 2, 0).
    assert end_of_individual_hand((40, 20, 40), hand((10, 0, 10)), CB, 0)[1] == 2
    assert end_of_individual_hand((40, 20, 40), hand((10, 0, 10)), CB, 1)[1] == 2
    assert end_of_individual_hand((40, 20, 40), hand((10, 0, 10)), CB, 2)[1] == 0


def test_a_jink_wins_at_once_where_the_rules_say_so() -> None:
    tricks = [parse_cards(t) for t in ("5H 2C 3C", "KC QC JC", "2D 3D 4D", "9S 8S 7S", "6C 7C 8C")]
    score = score_individual(tricks, [1] * 5, Suit.HEARTS, IRISH, 3)
    assert score.jink == 1 and score.points == (0, 30, 0)
    assert end_of_individual_hand((0, 0, 40), score, IRISH, 0) == ((0, 30, 40), 1)
    assert end_of_individual_hand((0, 0, 40), score, CB, 0) == ((0, 30, 40), None)


def test_without_a_partner_the_bot_beats_the_player_two_cards_back() -> None:
    # Two cards back (an opponent, in three-handed) leads the K♣, winning so far.
    trick, hand = parse_cards("KC 2C"), parse_cards("QC 3C 5D 9D 4S")
    bot = HeuristicBot(random.Random(0))
    state = PlayState(2, dealer=2, leader=0, partners=True)
    assert bot.decide(hand, trick, Suit.DIAMONDS, CB, state)[1] == "partner_winning"
    alone = PlayState(2, dealer=2, leader=0, partners=False)
    card, why = bot.decide(hand, trick, Suit.DIAMONDS, CB, alone)
    assert why == "win_cheaply" and card in legal_plays(hand, trick, Suit.DIAMONDS, CB)
    assert trick_winner([*trick, card], Suit.DIAMONDS, CB) == 2


# --- properties over whole individual games, as the partnership game's (test_bots, test_scores)


def _individual_game(
    rules: Ruleset, players: int, rng: random.Random, strengths: list[str]
) -> tuple[list[tuple[tuple[int, ...], IndividualScore, int, list[int]]], tuple[int, ...], int]:
    """Play a whole game of ``players`` each for themselves with the engine's deal, legal plays
    and scoring: (each hand's totals before it, its score and dealer), the final totals and
    the winner. Every card is checked with ``check_play``."""
    bots = [make_practice_bot(s) for s in strengths]
    totals: tuple[int, ...] = (0,) * players
    dealer = rng.randrange(players)
    hands = []
    for _ in range(200):
        deal = deal_hand(rng, rules, dealer, players)
        trump = deal.trump
        assert trump is not None
        while deal.owed:
            deal = dealer_discard(
                deal, bots[dealer].choose_discard(deal.hands[dealer], trump, rules)
            )
        if deal.robber is not None and deal.turn_up is not None:
            discard = bots[deal.robber].choose_rob(
                deal.hands[deal.robber], deal.turn_up, trump, rules
            )
            if discard is not None:
                deal = rob(deal, deal.robber, discard)
        held = [list(h) for h in deal.hands]
        leader = (dealer + 1) % players
        tricks, winners = [], []
        for number in range(5):
            trick: list[Card] = []
            for i in range(players):
                seat = (leader + i) % players
                state = PlayState(
                    seat, dealer=dealer, leader=leader, trick_number=number, partners=False
                )
                card = bots[seat].choose_card(held[seat], trick, trump, rules, state)
                check_play(card, held[seat], trick, trump, rules)
                held[seat].remove(card)
                trick.append(card)
            leader = (leader + trick_winner(trick, trump, rules)) % players
            tricks.append(tuple(trick))
            winners.append(leader)
        score = score_individual(tricks, winners, trump, rules, players)
        hands.append((totals, score, dealer, winners))
        totals, winner = end_of_individual_hand(totals, score, rules, dealer)
        if winner is not None:
            return hands, totals, winner
        dealer = (dealer + 1) % players
    raise AssertionError("the game did not end in 200 hands")


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    players=st.integers(2, 6),
    preset=st.sampled_from(["cape-breton-45", "irish-45-joker"]),
    strengths=st.lists(st.sampled_from(["heuristic", "beginner"]), min_size=6, max_size=6),
)
def test_whole_individual_games_add_up(
    seed: int, players: int, preset: str, strengths: list[str]
) -> None:
    rules = get_ruleset(preset)
    hands, final, winner = _individual_game(rules, players, random.Random(seed), strengths)
    for before, score, _dealer, winners in hands:
        # 5 tricks shared out; 5 a trick to its taker and 5 more on the bonus trick.
        assert sum(score.tricks) == 5 and len(score.points) == players
        assert sum(score.points) == (25 if score.bonus_trick is None else 30)
        for seat in range(players):
            assert score.tricks[seat] == winners.count(seat)
            bonus = 0 if score.bonus_trick is None or winners[score.bonus_trick] != seat else 5
            assert score.points[seat] == 5 * score.tricks[seat] + bonus
        assert (score.jink is not None) == (max(score.tricks) == 5)
        assert all(b >= 0 for b in before)
    last_before, last, last_dealer, _winners = hands[-1]
    # Nobody had reached the target before the last hand; the game ended on it.
    for before, *_rest in hands:
        assert max(before) < rules.target
    assert final == tuple(b + p for b, p in zip(last_before, last.points, strict=True))
    if rules.jink_wins_game and last.jink is not None:
        assert winner == last.jink
    else:
        assert final[winner] == max(final) >= rules.target
        # Equal highest: the first of them clockwise from the dealer's left.
        first = next(
            (last_dealer + i) % players
            for i in range(1, players + 1)
            if final[(last_dealer + i) % players] == max(final)
        )
        assert winner == first


@settings(max_examples=200, deadline=None)
@given(
    before=st.lists(st.integers(0, 8).map(lambda n: 5 * n), min_size=3, max_size=3),
    winners=st.lists(st.integers(0, 2), min_size=5, max_size=5),
    dealer=st.integers(0, 2),
)
def test_three_handed_is_first_to_45_with_the_bonus(
    before: list[int], winners: list[int], dealer: int
) -> None:
    # Three-handed as in seeds 000 and 003: 5 a trick, the best trump's trick 10, first to 45.
    trump = Suit.HEARTS
    tricks = [parse_cards(t) for t in ("5H 2C 3C", "KC QC JC", "2D 3D 4D", "9S 8S 7S", "6C 7C 8C")]
    score = score_individual(tricks, winners, trump, CB, 3)
    assert score.points[winners[0]] >= 10  # the trick with the 5♥, the best trump, is worth 10
    after, winner = end_of_individual_hand(before, score, CB, dealer)
    assert sum(after) == sum(before) + 30
    if max(after) < 45:
        assert winner is None
    else:
        assert winner is not None and after[winner] == max(after)
