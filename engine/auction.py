"""Auction 45s to 120: the bidding (:class:`Auction`) and scoring a hand from the bid.
The rules: docs/rules.md §6 (Auction 45s to 120).

Terms: the *bidder* is the side that won the auction with the *bid* (15, 20, 25 or 30);
*taken* is the trick points (5 a trick plus the bonus) each side took in the hand.

The bidding goes once around, starting left of the dealer: each player bids or passes, a bid
beating the highest so far. The dealer speaks last and may *hold*: take over the highest bid by
matching it (unless ``dealer_cannot_hold``, or below ``dealer_min_hold``). With
``rebid_after_hold`` the bidder who was held may raise, and the dealer hold again, until one of
them passes. If all four pass the dealer is *bagged*: held to the lowest bid (15, or
``min_bid``). The winner of the auction then names trump (``deal.name_trump``) and leads the
first trick (or the player on his left: ``first_lead``). Seats are 0..3 clockwise as in
``deal``. This module does not choose bids (``bots``) nor play.
"""

from __future__ import annotations

from typing import Final, Literal, NamedTuple

from engine.rules import Ruleset

__all__ = [
    "BIDS",
    "Auction",
    "AuctionError",
    "AuctionResult",
    "auction_hand_points",
    "bids_for",
    "lowest_bid",
]

BIDS = (15, 20, 25, 30)
GO_OUT_GUARD = 100  # must_bid_to_go_out: a side on this many or more scores only as bidder


def auction_hand_points(
    taken: tuple[int, int], bidder: int, bid: int, before: tuple[int, int], rules: Ruleset
) -> tuple[int, int]:
    """What each side scores for a hand: the bidder its taken points if it made the bid, minus
    the bid if set (a 30 bid with ``thirty_for_sixty``: 60 made, ``thirty_set_loses`` set);
    defenders what they took, except a defending side on 100 or more with
    ``must_bid_to_go_out``, which scores nothing.
    """
    defender = 1 - bidder
    made = taken[bidder] >= bid
    if rules.thirty_for_sixty and bid == 30:
        bidder_points = 60 if made else -rules.thirty_set_loses
    else:
        bidder_points = taken[bidder] if made else -bid
    defender_points = taken[defender]
    if rules.must_bid_to_go_out and before[defender] >= GO_OUT_GUARD:
        defender_points = 0
    points = [0, 0]
    points[bidder] = bidder_points
    points[defender] = defender_points
    return (points[0], points[1])


BAGGED_BID: Final = 15
How = Literal["bid", "held", "bagged"]


def lowest_bid(rules: Ruleset, side_total: int = 0) -> int:
    """The lowest bid a player may make: ``min_bid`` (15, or 20 or 25 in some halls), and 20
    for a side on 100 or more under ``min_bid_from_100``. A bagged dealer is held to it."""
    low = rules.min_bid
    if rules.min_bid_from_100 and side_total >= GO_OUT_GUARD:
        low = max(low, 20)
    return low


def bids_for(rules: Ruleset, side_total: int = 0) -> tuple[int, ...]:
    """The bids a side with ``side_total`` points may win a hand with."""
    low = lowest_bid(rules, side_total)
    return tuple(b for b in BIDS if b >= low)


class AuctionError(ValueError):
    """A bid that may not be made now; ``code`` says why, ``message`` in words.

    Codes: ``auction_over``, ``not_your_turn``, ``not_a_bid``, ``bid_too_low``,
    ``dealer_cannot_hold``, ``bad_seat``, ``bad_dealer``.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class AuctionResult(NamedTuple):
    """Who won the auction (``seat``), for how much (``bid``), and ``how``: ``bid`` (highest
    bid), ``held`` (the dealer matched it) or ``bagged`` (all passed: the dealer at 15)."""

    seat: int
    bid: int
    how: How


class Auction:
    """The bidding of one hand, once around from the player left of ``dealer``.

    Call :meth:`bid` with each seat's bid (15, 20, 25, 30) or ``None`` to pass, in turn.
    ``to_bid`` is the seat to speak (``None`` when over); ``highest`` the best bid so far as
    (seat, amount); ``bids`` the history; ``result`` the outcome once the bidding is over.

    With ``rules.rebid_after_hold``, a hold does not end the bidding: the bidder who was held
    may raise, and the dealer hold again, until one of them passes (or 30 is held). ``totals``
    (points per side before the hand) matter only to ``min_bid_from_100``.
    """

    __slots__ = ("_held", "_held_from", "_next", "bids", "dealer", "highest", "rules", "totals")

    def __init__(self, dealer: int, rules: Ruleset, totals: tuple[int, int] = (0, 0)) -> None:
        if not isinstance(dealer, int) or not 0 <= dealer < 4:
            raise AuctionError("bad_dealer", f"The dealer is seat 0, 1, 2 or 3, not {dealer!r}.")
        self.dealer = dealer
        self.rules = rules
        self.totals = totals
        self.bids: list[tuple[int, int | None]] = []
        self.highest: tuple[int, int] | None = None
        self._held = False
        self._held_from: int | None = None  # the seat the dealer held, while it may raise
        self._next: int | None = (dealer + 1) % 4

    @property
    def over(self) -> bool:
        return self._next is None

    @property
    def to_bid(self) -> int | None:
        """The seat whose turn it is to bid, or ``None`` once the bidding is over."""
        return self._next

    def _lowest(self, seat: int) -> int:
        return lowest_bid(self.rules, self.totals[seat % 2])

    def _may_hold(self, seat: int, top: int) -> bool:
        rules = self.rules
        return seat == self.dealer and not rules.dealer_cannot_hold and top >= rules.dealer_min_hold

    def legal_bids(self) -> list[int]:
        """The amounts the seat to speak may bid now (passing is always allowed)."""
        seat = self._next
        if seat is None:
            return []
        low = self._lowest(seat)
        if self.highest is None:
            return [b for b in BIDS if b >= low]
        top = self.highest[1]
        if self._held_from is not None and seat == self.dealer:
            return [top] if self._may_hold(seat, top) else []  # after a raise: hold or pass
        may_hold = self._may_hold(seat, top)
        return [b for b in BIDS if b >= low and (b > top or (may_hold and b == top))]

    def bid(self, seat: int, amount: int | None) -> None:
        """Seat ``seat`` bids ``amount`` or passes (``None``). Raises :class:`AuctionError`."""
        if self.over:
            raise AuctionError("auction_over", "The bidding is over.")
        if not isinstance(seat, int) or not 0 <= seat < 4:
            raise AuctionError("bad_seat", f"A seat is 0, 1, 2 or 3, not {seat!r}.")
        to_bid = self._next
        if seat != to_bid:
            raise AuctionError(
                "not_your_turn", f"It is seat {to_bid}'s turn to bid, not seat {seat}'s."
            )
        held = False
        if amount is not None:
            if isinstance(amount, bool) or amount not in BIDS:
                raise AuctionError(
                    "not_a_bid", f"{amount!r} is not a bid: bid 15, 20, 25 or 30, or pass."
                )
            low = self._lowest(seat)
            if amount < low:
                raise AuctionError("bid_too_low", f"The lowest bid here is {low}.")
            top = self.highest[1] if self.highest is not None else 0
            if amount < top or (amount == top and seat != self.dealer):
                raise AuctionError("bid_too_low", f"A bid must beat {top}.")
            if self._held_from is not None and seat == self.dealer and amount != top:
                raise AuctionError("bid_too_low", f"The dealer may hold {top} or pass.")
            if amount == top:
                if self.rules.dealer_cannot_hold:
                    raise AuctionError(
                        "dealer_cannot_hold",
                        f"The dealer may not hold: bid more than {top} or pass.",
                    )
                if top < self.rules.dealer_min_hold:
                    raise AuctionError(
                        "dealer_cannot_hold",
                        f"The dealer may hold only from {self.rules.dealer_min_hold}: "
                        f"bid more than {top} or pass.",
                    )
                held = True
            previous = self.highest
            self.highest = (seat, amount)
            if held:
                self._held = True
                if previous is not None:
                    self._held_from = previous[0]
            elif self._held_from is not None:
                self._held = False  # the held bidder raised: the dealer must hold again
        self.bids.append((seat, amount))
        self._next = self._after(seat, amount, held)

    def _after(self, seat: int, amount: int | None, held: bool) -> int | None:
        """Who speaks after ``seat`` bid ``amount`` (``held``: the dealer matched)."""
        if len(self.bids) < 4:
            return (seat + 1) % 4
        if not self.rules.rebid_after_hold or self._held_from is None:
            return None  # once around, no hold to answer: over
        if seat == self.dealer:
            if amount is None or self.highest is None or self.highest[1] >= BIDS[-1]:
                return None  # the dealer passed on the raise, or held 30
            return self._held_from  # held: the bidder may raise again
        if amount is None:
            return None  # the held bidder passed: the dealer keeps it
        return self.dealer

    @property
    def result(self) -> AuctionResult | None:
        """The winning seat, bid and how, once the bidding is over; ``None`` before."""
        if not self.over:
            return None
        if self.highest is None:
            return AuctionResult(self.dealer, self._lowest(self.dealer), "bagged")
        seat, amount = self.highest
        return AuctionResult(seat, amount, "held" if self._held else "bid")

    def __repr__(self) -> str:
        return f"Auction(dealer={self.dealer}, bids={self.bids!r})"
