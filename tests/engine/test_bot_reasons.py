"""HeuristicBot.decide: the card choose_card plays, with the rule of thumb that chose it, and
the ranking chart the punch cards and the practice table show."""

from __future__ import annotations

import random

import pytest

from engine.bots import REASONS, HeuristicBot, PlayState
from engine.cards import SUITS, Card, Suit, parse_cards, trump_order
from engine.chart import ranking_chart
from engine.rules import PRESETS, get_ruleset
from engine.simulate import make_bots, simulate_hand

CB = get_ruleset("cape-breton-45")

# (trump, trick so far, hand, the card, the reason)
POSITIONS = [
    (Suit.DIAMONDS, "KC 2C", "QC 3C 5D 9D 4S", "3C", "partner_winning"),
    (Suit.DIAMONDS, "9C", "QC KC 3C 2D 4S", "3C", "win_cheaply"),
    (Suit.DIAMONDS, "KC", "QC 3C 8S 9S 10S", "3C", "cannot_win"),
    (Suit.HEARTS, "", "2C 3S JH 5H 4D", "5H", "lead_trumps"),
    (Suit.HEARTS, "", "2H KC 3C 4S 6D", "KC", "lead_strong"),
    (Suit.HEARTS, "", "5H KC 3C 4S 6D", "5H", "lead_boss"),
    (Suit.HEARTS, "", "5H JH", "5H", "lead_trumps"),
    (Suit.HEARTS, "3H", "5H KC 2C 3S 4S", "4S", "keep_back"),
    (Suit.HEARTS, "3H", "5H 4H KC", "4H", "win_cheaply"),
    (Suit.CLUBS, "KD", "QD 2S", "QD", "only_card"),
]


@pytest.mark.parametrize(("trump", "trick", "hand", "card", "reason"), POSITIONS)
def test_decide_names_the_rule_of_thumb(
    trump: Suit, trick: str, hand: str, card: str, reason: str
) -> None:
    played = parse_cards(trick)
    state = PlayState(len(played) % 4, dealer=3, leader=0)
    bot = HeuristicBot(random.Random(0))
    chosen, why = bot.decide(parse_cards(hand), played, trump, CB, state)
    assert (chosen, why) == (Card.parse(card), reason)
    assert bot.choose_card(parse_cards(hand), played, trump, CB, state) == chosen
    assert REASONS[why]


def test_simulated_hands_meet_the_reasons_with_words() -> None:
    seen: set[str] = set()
    bot = HeuristicBot(random.Random(0))

    def hook(seat: int, card: Card, hand: object, trick: object, trump: Suit) -> None:
        state = PlayState(seat, dealer=0)  # the reasons that need the past are checked above
        _chosen, why = bot.decide(hand, trick, trump, CB, state)
        seen.add(why)
        assert REASONS[why]

    rng = random.Random(1)
    for dealer in range(40):
        simulate_hand(CB, rng, dealer % 4, (0, 0), make_bots("heuristic", rng), on_play=hook)
    assert {"only_card", "partner_winning", "cannot_win", "win_cheaply"} <= seen


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_ranking_chart_is_the_engines_order(name: str) -> None:
    rules = get_ruleset(name)
    chart = ranking_chart(rules)
    for suit in SUITS:
        assert chart["trumps"][suit.value] == [c.pretty for c in trump_order(suit, rules)]
        assert "A♥" not in chart["offsuit"][suit.value]
    assert chart["trumps"]["H"][:2] == ["5♥", "J♥"]
    assert chart["joker"] == rules.joker
