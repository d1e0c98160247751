"""The beginner: a computer player who knows which cards are legal and little else, the weaker
of the practice table's two strengths (the stronger is ``bots.HeuristicBot``).

Terms as in ``engine.bots``: the beginner answers the same five questions (:class:`Bot`) and,
like the heuristic, says why (:meth:`BeginnerBot.decide`, a code of :data:`BEGINNER_REASONS`).
Its habits:

- it leads its highest card, trumps included, without counting what is out;
- following, it takes the trick with its highest winning card when it can (even over its
  partner), otherwise throws its lowest card; it never keeps a top trump back;
- it always robs when dealt the ace of trumps, throwing its lowest card, and the dealer throws
  his lowest card;
- in auction it bids the lowest bid it may with three cards or more of one suit, else passes,
  and names the suit it holds most of.

Why each bid and named trump was chosen, for both strengths, is :func:`explain_bid` and
:func:`explain_trump` (codes of :data:`BID_REASONS`). Everything is deterministic: ``rng``
is taken only so that the bots are built alike. A card is only ever chosen from
``play.legal_plays`` and a bid from ``Auction.legal_bids``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from engine.auction import Auction
from engine.bots import TRUMP, HeuristicBot, PlayState, hand_strength
from engine.cards import SUITS, Card, Suit, ordering
from engine.play import legal_plays
from engine.rules import Ruleset
from engine.strong import StrongBot

__all__ = [
    "BEGINNER_REASONS",
    "BID_REASONS",
    "STRENGTHS",
    "BeginnerBot",
    "explain_bid",
    "explain_trump",
    "make_practice_bot",
]

#: The strengths the practice table offers, strongest first (the first is the default).
STRENGTHS: Final = ("heuristic", "beginner")

#: Why :class:`BeginnerBot` chose a card ("it …", as ``bots.REASONS``).
BEGINNER_REASONS: Final[dict[str, str]] = {
    "only_card": "it was the only card it was allowed to play",
    "lead_highest": "it led its highest card",
    "take_highest": "it could take the trick, so it played its highest card that does",
    "cannot_win": "it could not take the trick, so it threw its lowest card",
}

#: Why a bot bid, passed or named a suit; ``{…}`` are the figures of :func:`explain_bid`.
BID_REASONS: Final[dict[str, str]] = {
    "counted": "it counted about {tricks} tricks with {suit} trumps and one from its partner, "
    "worth {worth} points, so it bid {bid}",
    "too_weak": "its hand, at best with {suit} trumps, was worth about {worth} points: less "
    "than the lowest bid left ({lowest})",
    "nothing_left": "no bid was left that beats the highest so far",
    "long_suit": "it held {count} {suit}, so it made the lowest bid it could",
    "short_suits": "it held no more than two cards of any suit, so it passed",
    "strongest_suit": "its hand is strongest with {suit} trumps ({trumps} of them)",
    "most_cards": "it holds more {suit} than any other suit ({count} of them)",
}


def _count(hand: Sequence[Card], suit: Suit, rules: Ruleset) -> int:
    """Cards of ``hand`` that are trumps if ``suit`` is (the A♥ and joker included)."""
    order = ordering(suit, rules)
    return sum(1 for card in hand if order.power[card.index] >= TRUMP)


def _longest(hand: Sequence[Card], rules: Ruleset) -> tuple[Suit, int]:
    """The suit that would give the most trumps (the first of ``SUITS`` on a tie)."""
    best, most = SUITS[0], -1
    for suit in SUITS:
        count = _count(hand, suit, rules)
        if count > most:
            best, most = suit, count
    return best, most


class BeginnerBot:
    """A player who knows the rules and not the tactics (see the module docstring)."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose_card(
        self,
        hand: Sequence[Card],
        trick: Sequence[Card],
        trump: Suit,
        rules: Ruleset,
        state: PlayState,
    ) -> Card:
        return self.decide(hand, trick, trump, rules, state)[0]

    def decide(
        self,
        hand: Sequence[Card],
        trick: Sequence[Card],
        trump: Suit,
        rules: Ruleset,
        state: PlayState,
    ) -> tuple[Card, str]:
        """The card played and the code (:data:`BEGINNER_REASONS`) of why."""
        legal = legal_plays(hand, trick, trump, rules, ace_low=state.ace_low)
        if len(legal) == 1:
            return legal[0], "only_card"
        order = ordering(trump, rules, ace_low=state.ace_low)
        power, follow = order.power, order.follow
        if not trick:
            return max(legal, key=lambda c: power[c.index]), "lead_highest"
        led = follow[trick[0].index]
        best = power[trick[0].index]
        for card in trick[1:]:
            p = power[card.index]
            if p > best and (p >= TRUMP or follow[card.index] is led):
                best = p
        winners = [
            c
            for c in legal
            if power[c.index] > best and (power[c.index] >= TRUMP or follow[c.index] is led)
        ]
        if winners:
            return max(winners, key=lambda c: power[c.index]), "take_highest"
        return min(legal, key=lambda c: power[c.index]), "cannot_win"

    def choose_discard(self, hand: Sequence[Card], trump: Suit, rules: Ruleset) -> Card:
        power = ordering(trump, rules).power
        return min(hand, key=lambda c: power[c.index])

    def choose_rob(
        self, hand: Sequence[Card], turn_up: Card, trump: Suit, rules: Ruleset
    ) -> Card | None:
        return self.choose_discard(hand, trump, rules)

    def choose_bid(self, hand: Sequence[Card], auction: Auction, rules: Ruleset) -> int | None:
        legal = auction.legal_bids()
        if not legal or _longest(hand, rules)[1] < 3:
            return None
        return legal[0]

    def choose_trump(self, hand: Sequence[Card], rules: Ruleset) -> Suit:
        return _longest(hand, rules)[0]


def make_practice_bot(strength: str) -> HeuristicBot | BeginnerBot:
    """The practice table's bot of ``strength`` (one of :data:`STRENGTHS`); neither draws
    anything from its rng, so one seed gives one game."""
    if strength == "beginner":
        return BeginnerBot(random.Random(0))
    if strength == "heuristic":
        return HeuristicBot(random.Random(0))
    raise ValueError(f"No bot strength called {strength!r}.")


def explain_bid(
    bot: HeuristicBot | BeginnerBot | StrongBot,
    hand: Sequence[Card],
    auction: Auction,
    rules: Ruleset,
) -> tuple[int | None, str, dict[str, Any]]:
    """The bid ``bot`` makes now (``None``: pass), the code of why (:data:`BID_REASONS`, the
    strong player's ``strong.STRONG_REASONS``) and the figures the reason names (``suit`` a
    suit letter)."""
    amount = bot.choose_bid(hand, auction, rules)
    legal = auction.legal_bids()
    if not legal:
        return amount, "nothing_left", {}
    if isinstance(bot, StrongBot) and bot.judged is not None:
        suit, points, samples = bot.judged
        found: dict[str, Any] = {"suit": suit.value, "points": round(points), "samples": samples}
        if amount is None:
            return amount, "played_out_pass", found | {"lowest": legal[0]}
        return amount, "played_out", found | {"bid": amount}
    if isinstance(bot, BeginnerBot):
        suit, count = _longest(hand, rules)
        code = "short_suits" if amount is None else "long_suit"
        return amount, code, {"suit": suit.value, "count": count}
    suit = bot.choose_trump(hand, rules)
    tricks, _trumps = hand_strength(hand, suit, rules)
    bonus = 5 if Card(5, suit) in hand else 0
    worth = int(5 * (tricks + 1) + bonus)
    figures = {"suit": suit.value, "tricks": round(tricks, 1), "worth": worth}
    if amount is None:
        return amount, "too_weak", figures | {"lowest": legal[0]}
    return amount, "counted", figures | {"bid": amount}


def explain_trump(
    bot: HeuristicBot | BeginnerBot | StrongBot, hand: Sequence[Card], rules: Ruleset
) -> tuple[Suit, str, dict[str, Any]]:
    """The suit ``bot`` names trump, the code of why (:data:`BID_REASONS`) and its figures."""
    suit = bot.choose_trump(hand, rules)
    if isinstance(bot, StrongBot) and bot.judged is not None:
        _suit, points, samples = bot.judged
        figures = {"suit": suit.value, "points": round(points), "samples": samples}
        return suit, "best_played_out", figures
    if isinstance(bot, BeginnerBot):
        return suit, "most_cards", {"suit": suit.value, "count": _count(hand, suit, rules)}
    return (
        suit,
        "strongest_suit",
        {"suit": suit.value, "trumps": hand_strength(hand, suit, rules)[1]},
    )
