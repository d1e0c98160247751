"""Auction 45s to 120: the bidding (:class:`Auction`) and scoring a hand from the bid.
The rules: docs/rules.md §6 (Auction 45s to 120).

Terms: the *bidder* is the side that won the auction with the *bid* (15, 20, 25 or 30);
*taken* is the trick points (5 a trick plus the bonus) each side took in the hand.

The bidding goes once around, starting left of the dealer: each player bids or passes, a bid
beating the highest so far. The dealer speaks last and may *hold*: take over the highest bid by
matching it (unless ``dealer_cannot_hold``). If all four pass the dealer is *bagged*: held to
15. The winner of the auction then names trump (``deal.name_trump``) and leads the first trick.
Seats are 0..3 clockwise as in ``deal``. This module does not choose bids (``bots``) nor play.
"""

from __future__ import annotations

from typing import Final, Literal, NamedTuple

from engine.rules import Ruleset

__all__ = ["BIDS", "Auction", "AuctionError", "AuctionResult", "auction_hand_points"]

BIDS = (15, 20, 25, 30)
GO_OUT_GUARD = 100  # must_bid_to_go_out: a side on this many or more scores only as bidder


def auction_hand_points(
    taken: tuple[int, int], bidder: int, bid: int, before: tuple[int, int], rules: Ruleset
) -> tuple[int, int]:
    """What each side scores for a hand: the bidder its taken points if it made the bid, minus
    the bid if set (±60 for a 30 bid with ``thirty_for_sixty``); defenders what they took,
    except a defending side on 100 or more with ``must_bid_to_go_out``, which scores nothing.
    """
    defender = 1 - bidder
    made = taken[bidder] >= bid
    if rules.thirty_for_sixty and bid == 30:
        bidder_points = 60 if made else -60
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
    (seat, amount); ``bids`` the history; ``result`` the outcome once the dealer has spoken.
    """

    __slots__ = ("_held", "bids", "dealer", "highest", "rules")

    def __init__(self, dealer: int, rules: Ruleset) -> None:
        if not isinstance(dealer, int) or not 0 <= dealer < 4:
            raise AuctionError("bad_dealer", f"The dealer is seat 0, 1, 2 or 3, not {dealer!r}.")
        self.dealer = dealer
        self.rules = rules
        self.bids: list[tuple[int, int | None]] = []
        self.highest: tuple[int, int] | None = None
        self._held = False

    @property
    def over(self) -> bool:
        return len(self.bids) == 4

    @property
    def to_bid(self) -> int | None:
        """The seat whose turn it is to bid, or ``None`` once the dealer has spoken."""
        if self.over:
            return None
        return (self.dealer + 1 + len(self.bids)) % 4

    def legal_bids(self) -> list[int]:
        """The amounts the seat to speak may bid now (passing is always allowed)."""
        if self.over:
            return []
        if self.highest is None:
            return list(BIDS)
        top = self.highest[1]
        may_hold = self.to_bid == self.dealer and not self.rules.dealer_cannot_hold
        return [b for b in BIDS if b > top or (may_hold and b == top)]

    def bid(self, seat: int, amount: int | None) -> None:
        """Seat ``seat`` bids ``amount`` or passes (``None``). Raises :class:`AuctionError`."""
        if self.over:
            raise AuctionError("auction_over", "The bidding is over.")
        if not isinstance(seat, int) or not 0 <= seat < 4:
            raise AuctionError("bad_seat", f"A seat is 0, 1, 2 or 3, not {seat!r}.")
        to_bid = self.to_bid
        if seat != to_bid:
            raise AuctionError(
                "not_your_turn", f"It is seat {to_bid}'s turn to bid, not seat {seat}'s."
            )
        if amount is not None:
            if isinstance(amount, bool) or amount not in BIDS:
                raise AuctionError(
                    "not_a_bid", f"{amount!r} is not a bid: bid 15, 20, 25 or 30, or pass."
                )
            top = self.highest[1] if self.highest is not None else 0
            if amount < top or (amount == top and seat != self.dealer):
                raise AuctionError("bid_too_low", f"A bid must beat {top}.")
            if amount == top:
                if self.rules.dealer_cannot_hold:
                    raise AuctionError(
                        "dealer_cannot_hold",
                        f"The dealer may not hold: bid more than {top} or pass.",
                    )
                self._held = True
            self.highest = (seat, amount)
        self.bids.append((seat, amount))

    @property
    def result(self) -> AuctionResult | None:
        """The winning seat, bid and how, once all four have spoken; ``None`` before."""
        if not self.over:
            return None
        if self.highest is None:
            return AuctionResult(self.dealer, BAGGED_BID, "bagged")
        seat, amount = self.highest
        return AuctionResult(seat, amount, "held" if self._held else "bid")

    def __repr__(self) -> str:
        return f"Auction(dealer={self.dealer}, bids={self.bids!r})"
