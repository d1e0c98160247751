"""Dealing a hand: the five cards each, the turn-up, the dealer's discard and robbing.
The rules: docs/rules.md §2 (deal and the turn-up).

Terms:
- *Seats* are 0..3 clockwise; a seat's *side* is ``seat % 2`` (partners sit across). The
  player *left of the dealer* is ``(dealer + 1) % 4``: he is dealt first and, outside auction,
  leads the first trick.
- The *turn-up* is the card turned after the deal; its suit is trump. A turned joker goes to
  the dealer and the next card is turned instead; a turned ace goes into the dealer's hand.
  Either way the dealer then holds more than five cards and *owes* a discard for each extra.
- *Robbing*: the player dealt the ace of trumps (the A♥ when hearts are trumps) may exchange
  one card of his hand for the turn-up, once, before he plays his first card. Nobody may rob
  a turned ace: the dealer has already taken it.
- *Auction* (``rules.auction``): no card is turned; the winning bidder names trump
  (:func:`name_trump`). With a ``kitty`` (3 or 4 cards, dealt face down after the first packet
  of three) the bidder takes it (:func:`take_kitty`), then each player from the dealer's left
  throws away what he does not want and is dealt back up to five (:func:`discard_and_draw`).
- ``turned_ace``: under ``must-take`` the dealer keeps a turned ace (he may not throw it
  away); under ``may-take`` he may decline it by throwing it away.
- ``unannounced_ace_lowest``: a player dealt the ace of trumps who neither robs nor announces
  it (:func:`announce_ace`) plays it as the lowest trump (:func:`ace_is_low`).

A :class:`Deal` is an immutable value and every step (:func:`dealer_discard`, :func:`rob`,
:func:`name_trump`) returns a new one after checking it is allowed, raising a
:class:`DealError` with a stable ``code`` when it is not; ``log`` records what happened, in
order. This module does not know when play begins: a caller must apply the robbing before the
robber's first card (and :func:`check_ready` before the first lead). It does not bid
(``auction``), play or score (``play``), nor choose a discard (``bots``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final, NamedTuple

from engine.cards import JOKER, Card, Suit, full_pack
from engine.rules import Ruleset

__all__ = [
    "HAND_SIZE",
    "Deal",
    "DealError",
    "DealEvent",
    "ace_is_low",
    "ace_of_trumps",
    "announce_ace",
    "check_ready",
    "deal_from_pack",
    "deal_hand",
    "dealer_discard",
    "discard_and_draw",
    "left_of",
    "name_trump",
    "rob",
    "take_kitty",
]

HAND_SIZE: Final = 5
SEATS: Final = 4
# Cards are dealt in packets of three then two, starting left of the dealer.
_PACKETS: Final = (3, 2)


class DealError(ValueError):
    """A deal step that is not allowed now; ``code`` says why, ``message`` in words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class DealEvent(NamedTuple):
    """One thing that happened in a deal.

    ``kind`` is one of ``turn_up`` (``card`` turned, fixing trump), ``joker_to_dealer``,
    ``ace_to_dealer`` (the turned card went into the dealer's hand), ``discard`` (``seat``
    threw ``card`` away), ``rob`` (``seat`` took the turn-up ``card`` and threw ``discard``
    away), ``trump_named`` (auction: ``suit`` named by ``seat``).
    """

    kind: str
    seat: int | None = None
    card: Card | None = None
    discard: Card | None = None
    suit: Suit | None = None


def left_of(seat: int) -> int:
    """The next seat clockwise: the player left of ``seat``."""
    return (seat + 1) % SEATS


def ace_of_trumps(trump: Suit) -> Card:
    """The card whose holder may rob: the ace of the trump suit."""
    return Card(14, trump)


@dataclass(frozen=True, slots=True)
class Deal:
    """A hand as dealt, and the steps taken on it so far.

    - ``hands[seat]``: the cards each seat holds now (the dealer holds six or seven until he
      has discarded what he owes).
    - ``turn_up``: the card turned for trump (stays recorded after the dealer or a robber has
      taken it); ``None`` in auction.
    - ``trump``: the trump suit; ``None`` in auction until named.
    - ``stock``: the undealt cards, top first (the turned cards are not in it).
    - ``discards``: cards thrown away by the dealer and the robber.
    - ``owed``: how many cards the dealer must still discard.
    - ``robber``: the seat dealt the ace of trumps while the turn-up is still there to take
      (``None`` if nobody may rob); ``robbed`` once he has; ``announced`` once he has said he
      holds it without robbing.
    - ``kitty``: auction with a kitty, the cards dealt face down for the bidder until taken.
    """

    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    turn_up: Card | None
    trump: Suit | None
    stock: tuple[Card, ...]
    discards: tuple[Card, ...] = ()
    owed: int = 0
    robber: int | None = None
    robbed: bool = False
    log: tuple[DealEvent, ...] = ()
    players: int = SEATS
    kitty: tuple[Card, ...] = ()
    announced: bool = False

    @property
    def first_to_play(self) -> int:
        """The seat left of the dealer (outside auction, he leads the first trick)."""
        return (self.dealer + 1) % self.players

    @property
    def ready(self) -> bool:
        """Trump is known and the dealer owes no discard: play may begin."""
        return self.trump is not None and self.owed == 0

    def hand(self, seat: int) -> tuple[Card, ...]:
        _check_seat(seat, players=self.players)
        return self.hands[seat]


#: How many may play each for themselves (``engine.individual``): a pack of 52 deals 2 to 6.
PLAYERS: Final = range(2, 7)


def _check_seat(seat: int, what: str = "seat", players: int = SEATS) -> None:
    if not isinstance(seat, int) or not 0 <= seat < players:
        raise DealError(f"bad_{what}", f"A {what} is 0 to {players - 1}, not {seat!r}.")


def _check_players(players: int, rules: Ruleset) -> None:
    if players == SEATS:
        return
    if not isinstance(players, int) or players not in PLAYERS:
        raise DealError("bad_players", f"2 to 6 may play, not {players!r}.")
    if rules.auction:
        raise DealError("auction_needs_four", "Auction is played by four, in two partnerships.")


def deal_hand(rng: random.Random, rules: Ruleset, dealer: int, players: int = SEATS) -> Deal:
    """Shuffle the pack of ``rules`` with ``rng`` and deal it (see :func:`deal_from_pack`);
    ``players`` 2 to 6 for individual play (``engine.individual``), 4 by default."""
    _check_players(players, rules)
    _check_seat(dealer, "dealer", players)
    pack = full_pack(joker=rules.joker)
    rng.shuffle(pack)
    return _deal(pack, rules, dealer, players)


def deal_from_pack(pack: Sequence[Card], rules: Ruleset, dealer: int) -> Deal:
    """Deal an arranged pack (top card first): five cards each in packets of 3 and 2, starting
    left of the dealer, then (outside auction) turn up the next card for trump.

    A turned joker goes to the dealer and the next card is turned (again if need be); a turned
    ace goes into the dealer's hand. The dealer then owes one discard per card taken. The seat
    dealt the ace of trumps, if the turn-up was not an ace, is recorded as the ``robber``.
    """
    _check_seat(dealer, "dealer")
    expected = full_pack(joker=rules.joker)
    if len(pack) != len(expected) or set(pack) != set(expected):
        raise DealError(
            "bad_pack", f"The pack must be the {rules.pack_size} cards of this ruleset, once each."
        )
    return _deal(pack, rules, dealer)


def _deal(pack: Sequence[Card], rules: Ruleset, dealer: int, players: int = SEATS) -> Deal:
    hands: list[list[Card]] = [[] for _ in range(players)]
    pos = 0
    kitty: tuple[Card, ...] = ()
    for size in _PACKETS:
        for i in range(1, players + 1):
            hands[(dealer + i) % players].extend(pack[pos : pos + size])
            pos += size
        if size == _PACKETS[0] and rules.kitty:
            kitty = tuple(pack[pos : pos + rules.kitty])
            pos += rules.kitty
    log: list[DealEvent] = []
    if rules.auction:
        return Deal(
            dealer=dealer,
            hands=tuple(tuple(h) for h in hands),
            turn_up=None,
            trump=None,
            stock=tuple(pack[pos:]),
            players=players,
            kitty=kitty,
        )
    owed = 0
    turn_up = pack[pos]
    pos += 1
    while turn_up is JOKER:
        log.append(DealEvent("joker_to_dealer", dealer, turn_up))
        hands[dealer].append(turn_up)
        owed += 1
        turn_up = pack[pos]
        pos += 1
    trump = turn_up.suit
    assert trump is not None  # only one joker: the loop has passed it
    log.append(DealEvent("turn_up", None, turn_up))
    robber: int | None = None
    if turn_up.rank == 14:
        log.append(DealEvent("ace_to_dealer", dealer, turn_up))
        hands[dealer].append(turn_up)
        owed += 1
    else:
        ace = ace_of_trumps(trump)
        for seat in range(players):
            if ace in hands[seat]:
                robber = seat
    return Deal(
        dealer=dealer,
        hands=tuple(tuple(h) for h in hands),
        turn_up=turn_up,
        trump=trump,
        stock=tuple(pack[pos:]),
        owed=owed,
        robber=robber,
        log=tuple(log),
        players=players,
    )


def _without(hand: tuple[Card, ...], card: Card, seat: int) -> tuple[Card, ...]:
    if card not in hand:
        raise DealError("discard_not_in_hand", f"{card} is not in seat {seat}'s hand.")
    return tuple(c for c in hand if c is not card)


Hands = tuple[tuple[Card, ...], ...]


def _with_hand(hands: Hands, seat: int, hand: tuple[Card, ...]) -> Hands:
    return (*hands[:seat], hand, *hands[seat + 1 :])


def dealer_discard(deal: Deal, discard: Card, rules: Ruleset | None = None) -> Deal:
    """The dealer throws away ``discard``, one of the cards he owes after taking a turned joker
    or ace. Under ``turned_ace: must-take`` (given ``rules``) he keeps a turned ace: throwing
    it away is refused (``must_keep_turned_ace``); under ``may-take`` throwing it away is how
    he declines it. Codes: ``no_discard_owed``, ``discard_not_in_hand``,
    ``must_keep_turned_ace``."""
    if deal.owed <= 0:
        raise DealError(
            "no_discard_owed", "The dealer holds five cards: there is nothing to discard."
        )
    if (
        rules is not None
        and rules.turned_ace == "must-take"
        and discard is deal.turn_up
        and discard.rank == 14
    ):
        raise DealError(
            "must_keep_turned_ace",
            f"The dealer must keep the turned-up {discard}: discard a card of his hand.",
        )
    dealer = deal.dealer
    hand = _without(deal.hands[dealer], discard, dealer)
    return replace(
        deal,
        hands=_with_hand(deal.hands, dealer, hand),
        discards=(*deal.discards, discard),
        owed=deal.owed - 1,
        log=(*deal.log, DealEvent("discard", dealer, discard)),
    )


def rob(deal: Deal, seat: int, discard: Card) -> Deal:
    """``seat``, dealt the ace of trumps, takes the turn-up and throws away ``discard`` (any card
    of his hand). Must be done before that seat plays its first card (the caller's to enforce).
    Codes: ``bad_seat``, ``no_turn_up`` (auction), ``not_entitled_to_rob``, ``already_robbed``,
    ``discard_not_in_hand``."""
    _check_seat(seat, players=deal.players)
    if deal.turn_up is None:
        raise DealError("no_turn_up", "No card was turned up: there is nothing to rob.")
    if deal.robbed:
        raise DealError("already_robbed", "The turn-up has already been robbed.")
    if deal.robber != seat:
        if deal.turn_up.rank == 14 or deal.trump is None:
            why = "the turned ace went to the dealer"
        else:
            why = f"only the player dealt the {ace_of_trumps(deal.trump)} may"
        raise DealError("not_entitled_to_rob", f"Seat {seat} may not rob: {why}.")
    hand = _without(deal.hands[seat], discard, seat)
    return replace(
        deal,
        hands=_with_hand(deal.hands, seat, (*hand, deal.turn_up)),
        discards=(*deal.discards, discard),
        robbed=True,
        log=(*deal.log, DealEvent("rob", seat, deal.turn_up, discard)),
    )


def announce_ace(deal: Deal, seat: int) -> Deal:
    """``seat``, dealt the ace of trumps, says so without robbing: under
    ``unannounced_ace_lowest`` his ace then keeps its rank. Codes: ``bad_seat``,
    ``not_entitled_to_rob`` (he holds no ace to announce), ``already_robbed``."""
    _check_seat(seat, players=deal.players)
    if deal.robbed:
        raise DealError("already_robbed", "The turn-up has been robbed: the ace is known.")
    if deal.robber != seat:
        raise DealError("not_entitled_to_rob", f"Seat {seat} was not dealt the ace of trumps.")
    return replace(deal, announced=True, log=(*deal.log, DealEvent("announce", seat)))


def ace_is_low(deal: Deal, rules: Ruleset) -> bool:
    """Whether the ace of trumps plays as the lowest trump this hand: under
    ``unannounced_ace_lowest``, its holder neither robbed nor announced it before play."""
    return (
        rules.unannounced_ace_lowest
        and deal.robber is not None
        and not deal.robbed
        and not deal.announced
    )


def take_kitty(deal: Deal, seat: int) -> Deal:
    """Auction with a kitty: the winning bidder ``seat`` adds the kitty to his hand (after
    naming trump). Codes: ``bad_seat``, ``no_kitty``, ``no_trump``."""
    _check_seat(seat)
    if not deal.kitty:
        raise DealError("no_kitty", "There is no kitty to take.")
    if deal.trump is None:
        raise DealError("no_trump", "Trump is named before the kitty is taken.")
    hands = _with_hand(deal.hands, seat, (*deal.hands[seat], *deal.kitty))
    return replace(deal, hands=hands, kitty=(), log=(*deal.log, DealEvent("take_kitty", seat)))


def discard_and_draw(deal: Deal, seat: int, discards: Sequence[Card]) -> Deal:
    """Before play (auction with a kitty): ``seat`` throws away ``discards`` and is dealt from
    the stock back up to five cards. Codes: ``bad_seat``, ``discard_not_in_hand``,
    ``keeps_too_many`` (more than five cards left), ``stock_empty``."""
    _check_seat(seat)
    hand = deal.hands[seat]
    for card in discards:
        hand = _without(hand, card, seat)
    if len(hand) > HAND_SIZE:
        raise DealError(
            "keeps_too_many",
            f"Seat {seat} would keep {len(hand)} cards: throw away down to {HAND_SIZE}.",
        )
    need = HAND_SIZE - len(hand)
    if need > len(deal.stock):
        raise DealError("stock_empty", "Not enough cards are left to deal back up to five.")
    drawn = deal.stock[:need]
    log = tuple(DealEvent("discard", seat, card) for card in discards)
    return replace(
        deal,
        hands=_with_hand(deal.hands, seat, (*hand, *drawn)),
        stock=deal.stock[need:],
        discards=(*deal.discards, *discards),
        log=(*deal.log, *log, DealEvent("draw", seat)),
    )


def name_trump(deal: Deal, seat: int, suit: Suit) -> Deal:
    """Auction: the winning bidder ``seat`` names the trump ``suit``. Codes: ``not_auction``
    (a card was turned up), ``trump_already_named``, ``bad_seat``. Who may name it is the
    auction's business (``Auction.result``)."""
    _check_seat(seat)
    if deal.turn_up is not None:
        raise DealError("not_auction", "Trump was turned up; it cannot be named.")
    if deal.trump is not None:
        raise DealError("trump_already_named", f"Trump is already {deal.trump.symbol}.")
    if not isinstance(suit, Suit):
        raise DealError("bad_suit", f"{suit!r} is not a suit.")
    return replace(deal, trump=suit, log=(*deal.log, DealEvent("trump_named", seat, suit=suit)))


def check_ready(deal: Deal) -> None:
    """Raise unless play may begin: ``no_trump`` (auction, not named yet) or
    ``dealer_must_discard`` (the dealer still holds more than five cards)."""
    if deal.trump is None:
        raise DealError("no_trump", "Trump has not been named yet.")
    if deal.owed:
        raise DealError(
            "dealer_must_discard",
            f"The dealer holds {len(deal.hands[deal.dealer])} cards and must discard {deal.owed}.",
        )
