"""Cards, suits, the pack, and the order of cards for a given trump suit.
The rules: docs/rules.md §1 (ranking).

Terms:
- *trump*: the suit turned up (or named, in auction). The A of hearts is always a trump,
  whatever the trump suit, and so is the joker where the ruleset uses one.
- *effective suit*: the suit a card follows as. Every trump follows as the trump suit, so the
  A of hearts is not a heart when hearts are not trumps.
- *power*: an integer, higher is stronger; trumps always beat non-trumps.

Notation: rank then suit letter (``10C``, ``AH``, ``5D``), the joker is ``JK``. Parsing is
case-insensitive and also accepts ``T`` for ten and the suit symbols ♣♦♥♠.

This module knows nothing of tricks, scores or rulesets beyond the two flags that change the
order of cards (``joker`` and ``offsuit_aces_high``), which callers pass in.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Final, Protocol

__all__ = [
    "ACE_OF_HEARTS",
    "JOKER",
    "SUITS",
    "Card",
    "CardError",
    "Ordering",
    "Suit",
    "full_pack",
    "offsuit_order",
    "ordering",
    "parse_cards",
    "sort_hand",
    "trump_order",
]


class CardError(ValueError):
    """A card could not be parsed, or a card was asked for where it cannot be."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Suit(enum.Enum):
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @classmethod
    def parse(cls, text: str) -> Suit:
        key = text.strip().upper()
        suit = _SUIT_BY_TEXT.get(key)
        if suit is None:
            raise CardError("bad_suit", f"{text!r} is not a suit (use C, D, H, S or ♣♦♥♠).")
        return suit

    def __str__(self) -> str:
        return self.value


_SYMBOLS: Final = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_SUIT_BY_TEXT: Final = {s.value: s for s in Suit} | {v: k for k, v in _SYMBOLS.items()}
SUITS: Final = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)

_RANK_TEXT: Final = {11: "J", 12: "Q", 13: "K", 14: "A"} | {r: str(r) for r in range(2, 11)}
_RANK_BY_TEXT: Final = {v: k for k, v in _RANK_TEXT.items()} | {"T": 10}


class Card:
    """One card. Instances are interned: ``Card.parse("5H") is Card.parse("5h")``.

    ``rank`` is 2..14 (J 11, Q 12, K 13, A 14) and ``suit`` a :class:`Suit`; the joker has
    rank 0 and suit ``None``. ``index`` (0..52) is stable and used for fast look-ups.
    """

    __slots__ = ("index", "rank", "suit")

    rank: int
    suit: Suit | None
    index: int

    def __new__(cls, rank: int, suit: Suit | None) -> Card:
        if suit is None:
            if rank != 0:
                raise CardError("bad_card", "Only the joker has no suit.")
            return JOKER
        if not 2 <= rank <= 14:
            raise CardError("bad_rank", f"Rank {rank} is not 2..14.")
        return _PACK[SUITS.index(suit) * 13 + rank - 2]

    @classmethod
    def _make(cls, rank: int, suit: Suit | None, index: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "index", index)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (str(self),))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``10C``, ``ah``, ``T♣``, ``JK`` (the joker)."""
        if not isinstance(text, str):
            raise CardError("bad_card", f"{text!r} is not a card.")
        key = text.strip().upper()
        if key in ("JK", "JOKER"):
            return JOKER
        if len(key) < 2:
            raise CardError("bad_card", f"{text!r} is not a card (write it like 10C, AH or JK).")
        rank = _RANK_BY_TEXT.get(key[:-1])
        suit = _SUIT_BY_TEXT.get(key[-1])
        if rank is None or suit is None:
            raise CardError("bad_card", f"{text!r} is not a card (write it like 10C, AH or JK).")
        return cls(rank, suit)

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def pretty(self) -> str:
        """The card with its suit symbol: ``10♣``, ``A♥``, ``Joker``."""
        if self.suit is None:
            return "Joker"
        return _RANK_TEXT[self.rank] + self.suit.symbol

    def __str__(self) -> str:
        if self.suit is None:
            return "JK"
        return _RANK_TEXT[self.rank] + self.suit.value

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __lt__(self, other: Card) -> bool:
        # A plain, rule-free order (pack order) so that hands can be sorted for display.
        return self.index < other.index


_PACK: Final[tuple[Card, ...]] = tuple(
    Card._make(rank, suit, si * 13 + rank - 2)
    for si, suit in enumerate(SUITS)
    for rank in range(2, 15)
)
JOKER: Final[Card] = Card._make(0, None, 52)
ACE_OF_HEARTS: Final[Card] = _PACK[SUITS.index(Suit.HEARTS) * 13 + 12]
N_CARDS: Final = 53


def full_pack(*, joker: bool = False) -> list[Card]:
    """The 52-card pack in a fixed order, plus the joker when asked (53 cards)."""
    return [*_PACK, JOKER] if joker else list(_PACK)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse ``"5H JD AC"`` (spaces or commas) or a list of card strings."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Card.parse(item) for item in items]


class _OrderFlags(Protocol):
    """Anything with the two ordering flags (a Ruleset)."""

    @property
    def joker(self) -> bool: ...

    @property
    def offsuit_aces_high(self) -> bool: ...

    @property
    def renege(self) -> str: ...


# Strongest first, as ranks ("red high, black low"), with the ace low (after the K Q J in
# black, last in red) unless the offsuit_aces_high option puts it on top.
_OFFSUIT_RED: Final = (13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2)
_OFFSUIT_BLACK: Final = (13, 12, 11, 2, 3, 4, 5, 6, 7, 8, 9, 10)
# Trumps below the A: K Q then the rest of the suit without the 5 and J.
_TRUMP_TAIL_RED: Final = (13, 12, 10, 9, 8, 7, 6, 4, 3, 2)
_TRUMP_TAIL_BLACK: Final = (13, 12, 2, 3, 4, 6, 7, 8, 9, 10)


def _offsuit_ranks(suit: Suit, aces_high: bool) -> list[int]:
    ranks = list(_OFFSUIT_RED if suit.is_red else _OFFSUIT_BLACK)
    if aces_high:
        ranks.insert(0, 14)
    elif suit.is_red:
        ranks.append(14)
    else:
        ranks.insert(3, 14)
    return ranks


@cache
def trump_order_cached(trump: Suit, joker: bool) -> tuple[Card, ...]:
    order = [Card(5, trump), Card(11, trump)]
    if joker:
        order.append(JOKER)
    if trump is not Suit.HEARTS:
        order.append(ACE_OF_HEARTS)
    order.append(Card(14, trump))
    tail = _TRUMP_TAIL_RED if trump.is_red else _TRUMP_TAIL_BLACK
    order.extend(Card(r, trump) for r in tail)
    return tuple(order)


def trump_order(trump: Suit, rules: _OrderFlags | None = None) -> list[Card]:
    """Trumps, strongest first: 5, J, (joker), A♥, A, K, Q, then the rest of the suit."""
    return list(trump_order_cached(trump, bool(rules and rules.joker)))


@cache
def _offsuit_order_cached(suit: Suit, aces_high: bool) -> tuple[Card, ...]:
    cards = [Card(r, suit) for r in _offsuit_ranks(suit, aces_high)]
    return tuple(c for c in cards if c is not ACE_OF_HEARTS)


def offsuit_order(suit: Suit, trump: Suit, rules: _OrderFlags | None = None) -> list[Card]:
    """A non-trump suit, strongest first (the A♥ never appears: it is always a trump)."""
    if suit is trump:
        raise CardError("suit_is_trump", f"{suit.symbol} is the trump suit.")
    return list(_offsuit_order_cached(suit, bool(rules and rules.offsuit_aces_high)))


class Ordering:
    """Every card's standing for one trump suit: the fast look-up that play and bots use.

    ``power[i]`` for card index ``i``: 100 + position for trumps (strongest highest), the
    position within its own suit for non-trumps (1..13), 0 for a card not in the pack (the joker
    when the ruleset has none). ``follow[i]`` is the card's effective suit.
    """

    __slots__ = ("ace_low", "follow", "joker", "power", "reneging", "top", "trump", "trumps")

    def __init__(
        self,
        trump: Suit,
        joker: bool,
        aces_high: bool,
        renege: str = "top-trumps",
        ace_low: bool = False,
    ) -> None:
        self.trump = trump
        self.joker = joker
        self.ace_low = ace_low
        power = [0] * N_CARDS
        follow: list[Suit | None] = [None] * N_CARDS
        trumps = trump_order_cached(trump, joker)
        if ace_low:
            # The ace of trumps neither robbed with nor announced: the lowest trump.
            ace = Card(14, trump)
            trumps = (*(c for c in trumps if c is not ace), ace)
        for pos, card in enumerate(reversed(trumps)):
            power[card.index] = 100 + pos
            follow[card.index] = trump
        for suit in SUITS:
            if suit is trump:
                continue
            for pos, card in enumerate(reversed(_offsuit_order_cached(suit, aces_high))):
                power[card.index] = 1 + pos
                follow[card.index] = suit
        self.power: tuple[int, ...] = tuple(power)
        self.follow: tuple[Suit | None, ...] = tuple(follow)
        self.trumps: tuple[Card, ...] = trumps
        # The top four (the ``top-four`` bonus): 5 and J of trumps, the joker, the A♥.
        self.top: frozenset[Card] = frozenset(
            c
            for c in trumps
            if ((c.rank in (5, 11) and c.suit is trump) or c is JOKER or c is ACE_OF_HEARTS)
            and not (ace_low and c.rank == 14 and c.suit is trump)
        )
        # The trumps that may renege under the ruleset's ``renege`` switch.
        self.reneging: frozenset[Card]
        if renege == "top-trumps":
            self.reneging = self.top
        elif renege == "five-only":
            self.reneging = frozenset({Card(5, trump)})
        else:
            self.reneging = frozenset()

    def is_trump(self, card: Card) -> bool:
        return self.power[card.index] >= 100

    def __repr__(self) -> str:
        return f"Ordering({self.trump.value}, joker={self.joker})"


@cache
def _ordering(
    trump: Suit, joker: bool, aces_high: bool, renege: str = "top-trumps", ace_low: bool = False
) -> Ordering:
    return Ordering(trump, joker, aces_high, renege, ace_low)


def ordering(trump: Suit, rules: _OrderFlags | None = None, *, ace_low: bool = False) -> Ordering:
    """The (cached) :class:`Ordering` for a trump suit under a ruleset's flags; ``ace_low``
    for a hand in which the ace of trumps plays as the lowest trump
    (``unannounced_ace_lowest``)."""
    if rules is None:
        return _ordering(trump, False, False, "top-trumps", ace_low)
    return _ordering(trump, rules.joker, rules.offsuit_aces_high, rules.renege, ace_low)


def sort_hand(
    hand: Sequence[Card], trump: Suit | None = None, rules: _OrderFlags | None = None
) -> list[Card]:
    """A hand in display order: trumps first (strongest first), then suit by suit."""
    if trump is None:
        return sorted(hand)
    order = ordering(trump, rules)

    def key(card: Card) -> tuple[int, str, int]:
        trump_first = 0 if order.is_trump(card) else 1
        suit = "" if trump_first == 0 or card.suit is None else card.suit.value
        return (trump_first, suit, -order.power[card.index])

    return sorted(hand, key=key)
