"""Computer players: a random one and a sensible beginner, for simulations and empty seats.
They play by docs/rules.md §3 (play), through ``engine.play``.

Terms: a *bot* answers the five questions a player is asked during a hand, all with the same
shape (:class:`Bot`): which card to play (:meth:`~Bot.choose_card`), which card the dealer
throws away after taking a turned ace or joker (:meth:`~Bot.choose_discard`), whether to rob
the turn-up and with which discard (:meth:`~Bot.choose_rob`), what to bid in auction
(:meth:`~Bot.choose_bid`) and which suit to name trump (:meth:`~Bot.choose_trump`). The
*state* (:class:`PlayState`) is what a player at the table can see besides his hand and the
trick: whose turn, the tricks played so far.

- :class:`RandomBot` picks uniformly among the legal choices (bidding is the exception: it
  passes or makes the lowest legal bid, at even odds, so that auction games end).
- :class:`HeuristicBot` plays like a new player who knows the rules: it leads its best trump
  when it holds several, takes a trick as cheaply as it can when its partner is not already
  winning it, otherwise throws its lowest card, keeps its top trumps back when it may renege,
  discards its weakest card, bids by counting trumps and top cards and names its strongest
  suit.

A card is only ever chosen from ``play.legal_plays`` and a bid from ``Auction.legal_bids``.
Randomness comes only from the ``random.Random`` given to a bot. This module does not run a
hand (``simulate`` does) and keeps no memory between questions: everything it uses is in the
arguments.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from typing import Final, Literal, Protocol

from engine.auction import Auction
from engine.cards import SUITS, Card, Ordering, Suit, ordering
from engine.play import legal_plays
from engine.rules import Ruleset

__all__ = [
    "BOTS",
    "LEVELS",
    "REASONS",
    "Bot",
    "BotError",
    "BotName",
    "HeuristicBot",
    "PlayState",
    "RandomBot",
    "hand_strength",
    "make_bot",
]

BotName = Literal["heuristic", "random"]
TRUMP: Final = 100  # Ordering.power of the lowest trump


class BotError(ValueError):
    """An unknown bot name (``code`` ``unknown_bot``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class PlayState:
    """What a player sees of the hand besides his cards and the current trick.

    ``seat`` is the player to play, ``leader`` the seat that led the current trick,
    ``trick_number`` 0..4, ``played`` the cards of the finished tricks, ``tricks`` the tricks
    each side (0, 1) has taken, ``dealer`` and (auction) ``bidder`` seats; ``partners`` False
    in individual play (nobody two cards back is a partner); ``ace_low`` when the ace of
    trumps plays as the lowest trump this hand (``unannounced_ace_lowest``). ``history`` is
    every finished trick as (leader, cards in play order), as everyone at the table saw it;
    ``players`` how many play (4, or 2 to 6 each for themselves); ``bid`` the winning bid in
    auction. The simulator keeps one per hand and updates it in place.
    """

    __slots__ = (
        "ace_low",
        "bid",
        "bidder",
        "dealer",
        "history",
        "leader",
        "partners",
        "played",
        "players",
        "seat",
        "trick_number",
        "tricks",
    )

    def __init__(
        self,
        seat: int,
        *,
        dealer: int,
        leader: int | None = None,
        trick_number: int = 0,
        played: set[Card] | None = None,
        tricks: list[int] | None = None,
        bidder: int | None = None,
        partners: bool = True,
        ace_low: bool = False,
        history: list[tuple[int, tuple[Card, ...]]] | None = None,
        players: int = 4,
        bid: int | None = None,
    ) -> None:
        self.seat = seat
        self.history: list[tuple[int, tuple[Card, ...]]] = [] if history is None else history
        self.players = players
        self.bid = bid
        self.ace_low = ace_low
        self.partners = partners
        self.dealer = dealer
        self.leader = (dealer + 1) % players if leader is None else leader
        self.trick_number = trick_number
        self.played: set[Card] = set() if played is None else played
        self.tricks: list[int] = [0, 0] if tricks is None else tricks
        self.bidder = bidder

    def __repr__(self) -> str:
        return (
            f"PlayState(seat={self.seat}, dealer={self.dealer}, leader={self.leader}, "
            f"trick_number={self.trick_number})"
        )


class Bot(Protocol):
    """The questions a player answers in a hand. Every answer must be legal."""

    def choose_card(
        self,
        hand: Sequence[Card],
        trick: Sequence[Card],
        trump: Suit,
        rules: Ruleset,
        state: PlayState,
    ) -> Card:
        """A card of ``play.legal_plays(hand, trick, trump, rules)``."""
        ...

    def choose_discard(self, hand: Sequence[Card], trump: Suit, rules: Ruleset) -> Card:
        """The card of ``hand`` the dealer throws away (he holds more than five)."""
        ...

    def choose_rob(
        self, hand: Sequence[Card], turn_up: Card, trump: Suit, rules: Ruleset
    ) -> Card | None:
        """The card to give up for ``turn_up``, or ``None`` not to rob."""
        ...

    def choose_bid(self, hand: Sequence[Card], auction: Auction, rules: Ruleset) -> int | None:
        """One of ``auction.legal_bids()``, or ``None`` to pass."""
        ...

    def choose_trump(self, hand: Sequence[Card], rules: Ruleset) -> Suit:
        """The suit to name trump after winning the auction."""
        ...


class RandomBot:
    """Every choice uniformly at random among the legal ones; robs half the time, and in
    auction passes half the time and otherwise makes the lowest legal bid."""

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
        return self.rng.choice(legal_plays(hand, trick, trump, rules, ace_low=state.ace_low))

    def choose_discard(self, hand: Sequence[Card], trump: Suit, rules: Ruleset) -> Card:
        return self.rng.choice(hand)

    def choose_rob(
        self, hand: Sequence[Card], turn_up: Card, trump: Suit, rules: Ruleset
    ) -> Card | None:
        if self.rng.random() < 0.5:
            return None
        return self.rng.choice(hand)

    def choose_bid(self, hand: Sequence[Card], auction: Auction, rules: Ruleset) -> int | None:
        # Pass or make the lowest legal bid at even odds: random cards rarely take 25 or more,
        # and bidding uniformly up to 30 sets the bidder so often that games need not end.
        legal = auction.legal_bids()
        if not legal or self.rng.random() < 0.5:
            return None
        return legal[0]

    def choose_trump(self, hand: Sequence[Card], rules: Ruleset) -> Suit:
        return self.rng.choice(SUITS)

    def choose_draw(self, hand: Sequence[Card], trump: Suit, rules: Ruleset) -> list[Card]:
        """Auction with a kitty: the cards to throw away before drawing (at random, but
        enough to keep five)."""
        keep = self.rng.randint(0, min(len(hand), 5))
        return self.rng.sample(list(hand), len(hand) - keep)

    def announces(self) -> bool:
        """Whether a player dealt the ace of trumps who does not rob says so: half the time
        (``unannounced_ace_lowest`` then makes the ace the lowest trump)."""
        return self.rng.random() < 0.5


# Hand strength, in expected tricks, of each kind of card (HeuristicBot's bidding).
_TOP_TRUMP: Final = 1.0  # 5, J, joker, A♥: nothing else beats them
_ACE_TRUMP: Final = 0.8
_HIGH_TRUMP: Final = 0.6  # K, Q of trumps
_LOW_TRUMP: Final = 0.4
_OFFSUIT_KING: Final = 0.35
_PARTNER_TRICKS: Final = 1.0  # what a bidder counts on from his partner


def hand_strength(hand: Sequence[Card], trump: Suit, rules: Ruleset) -> tuple[float, int]:
    """(expected tricks, number of trumps) of ``hand`` if ``trump`` were trumps: a rough count
    of the kind a player makes before bidding or naming trump."""
    order = ordering(trump, rules)
    power = order.power
    top = order.top
    tricks = 0.0
    trumps = 0
    for card in hand:
        p = power[card.index]
        if p >= TRUMP:
            trumps += 1
            if card in top:
                tricks += _TOP_TRUMP
            elif card.rank == 14:
                tricks += _ACE_TRUMP
            elif card.rank >= 12:
                tricks += _HIGH_TRUMP
            else:
                tricks += _LOW_TRUMP
        elif card.rank == 13:
            tricks += _OFFSUIT_KING
    return tricks, trumps


def draw_discards(hand: Sequence[Card], trump: Suit, rules: Ruleset) -> list[Card]:
    """The cards a sensible player throws away before drawing (auction with a kitty): all but
    his trumps and off-suit kings, and the weakest of those when more than five are left."""
    power = ordering(trump, rules).power
    keep = sorted(
        (c for c in hand if power[c.index] >= TRUMP or c.rank == 13),
        key=lambda c: -power[c.index],
    )[:5]
    return [c for c in hand if c not in keep]


def _lowest(cards: Sequence[Card], power: Sequence[int]) -> Card:
    """The weakest card (non-trumps before trumps); the first in hand order on equal power."""
    best = cards[0]
    best_power = power[best.index]
    for card in cards:
        p = power[card.index]
        if p < best_power:
            best, best_power = card, p
    return best


def _highest(cards: Sequence[Card], power: Sequence[int]) -> Card:
    best = cards[0]
    best_power = power[best.index]
    for card in cards:
        p = power[card.index]
        if p > best_power:
            best, best_power = card, p
    return best


#: Why :class:`HeuristicBot` chose a card (:meth:`HeuristicBot.decide`): each rule of thumb's
#: code, with the reason in words ("it …", to follow "Why did Left play the 9♣? ").
REASONS: Final[dict[str, str]] = {
    "only_card": "it was the only card it was allowed to play",
    "lead_trumps": "it held several trumps and led its best one, to draw the others' trumps",
    "lead_boss": "its trump was the best one still out, so it led it to draw the others' trumps",
    "lead_strong": "it led its strongest card outside trumps",
    "partner_winning": "its partner was already winning the trick, so it gave its lowest card",
    "cannot_win": "it could not take the trick, so it threw its lowest card",
    "keep_back": "only a top trump would have taken the trick and it may keep that back "
    "(a lower trump was led), so it threw a low card instead",
    "win_cheaply": "it took the trick with the cheapest card that beats the others",
}


class HeuristicBot:
    """A sensible new player (see the module docstring). Its rules of thumb are deterministic
    (equal cards: the first in hand order); ``rng`` is taken so that both bots are built alike.
    :meth:`decide` also says which rule of thumb chose the card (a code of :data:`REASONS`)."""

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
        """The card :meth:`choose_card` plays, and the code (:data:`REASONS`) of the rule of
        thumb that chose it."""
        legal = legal_plays(hand, trick, trump, rules, ace_low=state.ace_low)
        if len(legal) == 1:
            return legal[0], "only_card"
        order = ordering(trump, rules, ace_low=state.ace_low)
        if not trick:
            return self._lead(legal, order, state)
        return self._follow(legal, trick, order, state.partners)

    @staticmethod
    def _lead(legal: list[Card], order: Ordering, state: PlayState) -> tuple[Card, str]:
        power = order.power
        trumps = [c for c in legal if power[c.index] >= TRUMP]
        if len(trumps) >= 2:
            return _highest(trumps, power), "lead_trumps"
        others = [c for c in legal if power[c.index] < TRUMP]
        if not others:
            return _highest(trumps, power), "only_card"  # unreachable: one card left
        if trumps and _is_boss(trumps[0], order, state.played, legal):
            return trumps[0], "lead_boss"  # the best trump left: draw the others' trumps
        return _highest(others, power), "lead_strong"

    @staticmethod
    def _follow(
        legal: list[Card], trick: Sequence[Card], order: Ordering, partners: bool = True
    ) -> tuple[Card, str]:
        power = order.power
        follow = order.follow
        led_suit = follow[trick[0].index]
        n = len(trick)
        best = 0
        best_power = power[trick[0].index]
        for i in range(1, n):
            p = power[trick[i].index]
            if p > best_power and (p >= TRUMP or follow[trick[i].index] is led_suit):
                best, best_power = i, p
        if partners and best == n - 2:
            return _lowest(legal, power), "partner_winning"  # give him the least
        if best_power >= TRUMP:
            winners = [c for c in legal if power[c.index] > best_power]
        else:
            winners = [
                c
                for c in legal
                if power[c.index] >= TRUMP
                or (follow[c.index] is led_suit and power[c.index] > best_power)
            ]
        if not winners:
            return _lowest(legal, power), "cannot_win"
        cheapest = _lowest(winners, power)
        if n < 3 and led_suit is order.trump and cheapest in order.reneging:
            # A trump was led and only a top trump would take it: while the trick can still be
            # beaten after us, keep it back (reneging) if a non-trump may be played instead.
            spare = [c for c in legal if power[c.index] < TRUMP]
            if spare:
                return _lowest(spare, power), "keep_back"
        return cheapest, "win_cheaply"

    def choose_discard(self, hand: Sequence[Card], trump: Suit, rules: Ruleset) -> Card:
        return _lowest(hand, ordering(trump, rules).power)

    def choose_draw(self, hand: Sequence[Card], trump: Suit, rules: Ruleset) -> list[Card]:
        """Auction with a kitty: keep the trumps and off-suit kings (the best five at most),
        throw away the rest to draw for them."""
        return draw_discards(hand, trump, rules)

    def announces(self) -> bool:
        """A player dealt the ace of trumps who does not rob always says so."""
        return True

    def choose_rob(
        self, hand: Sequence[Card], turn_up: Card, trump: Suit, rules: Ruleset
    ) -> Card | None:
        power = ordering(trump, rules).power
        weakest = _lowest(hand, power)
        return weakest if power[turn_up.index] > power[weakest.index] else None

    def choose_bid(self, hand: Sequence[Card], auction: Auction, rules: Ruleset) -> int | None:
        legal = auction.legal_bids()
        if not legal:
            return None
        suit = self.choose_trump(hand, rules)
        tricks, _ = hand_strength(hand, suit, rules)
        bonus = 5 if Card(5, suit) in hand else 0
        worth = 5 * (tricks + _PARTNER_TRICKS) + bonus
        affordable = [b for b in legal if b <= worth]
        return affordable[-1] if affordable else None

    def choose_trump(self, hand: Sequence[Card], rules: Ruleset) -> Suit:
        best = SUITS[0]
        best_key = (-1.0, -1)
        for suit in SUITS:
            key = hand_strength(hand, suit, rules)
            if key > best_key:
                best, best_key = suit, key
        return best


def _is_boss(card: Card, order: Ordering, played: set[Card], hand: Sequence[Card]) -> bool:
    """Whether no trump still out (not played, not in ``hand``) beats ``card``."""
    for higher in order.trumps:
        if higher is card:
            return True
        if higher not in played and higher not in hand:
            return False
    return False


BOTS: Final[dict[str, Callable[[random.Random], Bot]]] = {
    "heuristic": HeuristicBot,
    "random": RandomBot,
}


def make_bot(name: str, rng: random.Random) -> Bot:
    """A bot by name (``heuristic`` or ``random``) drawing its randomness from ``rng``."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise BotError(
            "unknown_bot", f"No bot called {name!r}; choose one of {', '.join(BOTS)}."
        ) from None
    return factory(rng)


def _level(module: str, name: str) -> Callable[[random.Random], Bot]:
    """The factory of a player built in a module that itself builds on this one (``beginner``,
    ``strong``): looked up when first called, so that neither module imports the other."""

    def factory(rng: random.Random) -> Bot:
        bot: Bot = getattr(importlib.import_module(module), name)(rng)
        return bot

    return factory


#: The computer players by level, weakest first: each a factory taking the ``random.Random``
#: it draws from, playable by ``simulate.simulate_game(rules, rng, bot=[...])``.
LEVELS: Final[dict[str, Callable[[random.Random], Bot]]] = {
    "beginner": _level("engine.beginner", "BeginnerBot"),
    "sensible": HeuristicBot,
    "strong": _level("engine.strong", "StrongBot"),
}
