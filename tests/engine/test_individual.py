"""Individual play (engine.individual): dealing to 2–6, 5 a trick to the taker and the bonus,
the first to the target wins; and the heuristic bot without a partner."""

from __future__ import annotations

import random

import pytest

from engine.bots import HeuristicBot, PlayState
from engine.cards import Card, Suit, parse_cards
from engine.deal import DealError, deal_hand, rob
from engine.individual import check_individual, end_of_individual_hand, score_individual
from engine.play import legal_plays, trick_winner
from engine.rules import RulesetError, get_ruleset

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
