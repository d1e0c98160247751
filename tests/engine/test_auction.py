"""The bidding of auction 45s (docs/rules.md §6): once around, beat the last bid, the dealer may
hold, all passing bags the dealer."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.auction import BIDS, Auction, AuctionError, AuctionResult
from engine.rules import Ruleset, make_ruleset

# Once around: the hold ends the bidding (rebid_after_hold off; the preset has it on).
AUCTION = make_ruleset("auction-120", rebid_after_hold=False)
NO_HOLD = make_ruleset("auction-120", dealer_cannot_hold=True)

P = None  # a pass

# (dealer, bids in turn from the player left of the dealer, result)
COMPLETED = [
    (0, [15, P, P, P], (1, 15, "bid")),
    (0, [15, 20, 25, 30], (0, 30, "bid")),
    (0, [P, 20, P, P], (2, 20, "bid")),
    (3, [P, P, 25, P], (2, 25, "bid")),
    (3, [15, P, 20, 20], (3, 20, "held")),  # the dealer matches: holding
    (3, [15, P, 20, 25], (3, 25, "bid")),  # the dealer outbids
    (2, [30, P, P, 30], (2, 30, "held")),
    (1, [P, P, P, P], (1, 15, "bagged")),
    (1, [P, P, P, 15], (1, 15, "bid")),  # the dealer may bid when nobody has
    (1, [P, P, P, 30], (1, 30, "bid")),
]


@pytest.mark.parametrize(("dealer", "bids", "expected"), COMPLETED)
def test_completed_auctions(
    dealer: int, bids: list[int | None], expected: tuple[int, int, str]
) -> None:
    auction = Auction(dealer, AUCTION)
    for i, amount in enumerate(bids):
        assert not auction.over and auction.result is None
        seat = (dealer + 1 + i) % 4
        assert auction.to_bid == seat
        auction.bid(seat, amount)
    assert auction.over and auction.to_bid is None
    assert auction.result == expected
    assert isinstance(auction.result, AuctionResult)
    assert auction.bids == [((dealer + 1 + i) % 4, b) for i, b in enumerate(bids)]


# (rules, dealer, bids before the faulty one, the faulty (seat, amount), code)
REFUSED = [
    (AUCTION, 0, [], (2, 15), "not_your_turn"),
    (AUCTION, 0, [], (0, None), "not_your_turn"),
    (AUCTION, 0, [15], (1, 20), "not_your_turn"),
    (AUCTION, 0, [], (1, 10), "not_a_bid"),
    (AUCTION, 0, [], (1, 35), "not_a_bid"),
    (AUCTION, 0, [], (1, 17), "not_a_bid"),
    (AUCTION, 0, [], (1, True), "not_a_bid"),
    (AUCTION, 0, [20], (2, 15), "bid_too_low"),
    (AUCTION, 0, [20], (2, 20), "bid_too_low"),  # only the dealer may match
    (AUCTION, 0, [30], (2, 30), "bid_too_low"),
    (AUCTION, 0, [15, 25, P], (0, 20), "bid_too_low"),  # the dealer may not go under
    (NO_HOLD, 0, [15, 25, P], (0, 25), "dealer_cannot_hold"),
    (NO_HOLD, 0, [P, P, 30], (0, 30), "dealer_cannot_hold"),
    (AUCTION, 0, [P, P, P, P], (1, 15), "auction_over"),
    (AUCTION, 0, [P, P, P, 15], (1, None), "auction_over"),
    (AUCTION, 0, [], (7, 15), "bad_seat"),
]


@pytest.mark.parametrize(("rules", "dealer", "before", "faulty", "code"), REFUSED)
def test_refused_bids(
    rules: Ruleset, dealer: int, before: list[int | None], faulty: tuple[int, int | None], code: str
) -> None:
    auction = Auction(dealer, rules)
    for i, amount in enumerate(before):
        auction.bid((dealer + 1 + i) % 4, amount)
    snapshot = (list(auction.bids), auction.highest)
    with pytest.raises(AuctionError) as problem:
        auction.bid(*faulty)
    assert problem.value.code == code
    assert problem.value.message
    assert (auction.bids, auction.highest) == snapshot  # a refused bid changes nothing


def test_dealer_cannot_hold_may_still_outbid_or_pass() -> None:
    auction = Auction(0, NO_HOLD)
    for seat, amount in ((1, 15), (2, P), (3, 20)):
        auction.bid(seat, amount)
    assert auction.legal_bids() == [25, 30]
    auction.bid(0, 25)
    assert auction.result == (0, 25, "bid")
    auction = Auction(0, NO_HOLD)
    for seat in (1, 2, 3, 0):
        auction.bid(seat, 20 if seat == 2 else P)
    assert auction.result == (2, 20, "bid")


def test_legal_bids() -> None:
    auction = Auction(2, AUCTION)
    assert auction.legal_bids() == [15, 20, 25, 30]
    auction.bid(3, 20)
    assert auction.legal_bids() == [25, 30]
    auction.bid(0, P)
    auction.bid(1, 25)
    assert auction.legal_bids() == [25, 30]  # the dealer may hold
    auction.bid(2, P)
    assert auction.legal_bids() == []
    assert auction.result == (1, 25, "bid")


def test_bad_dealer() -> None:
    with pytest.raises(AuctionError) as problem:
        Auction(4, AUCTION)
    assert problem.value.code == "bad_dealer"


@given(
    dealer=st.integers(0, 3),
    choices=st.lists(st.integers(0, 4), min_size=4, max_size=4),
    hold=st.booleans(),
)
def test_any_legal_sequence_ends_with_a_valid_result(
    dealer: int, choices: list[int], hold: bool
) -> None:
    rules = AUCTION if hold else NO_HOLD
    auction = Auction(dealer, rules)
    for choice in choices:
        seat = auction.to_bid
        assert seat is not None
        options: list[int | None] = [None, *auction.legal_bids()]
        auction.bid(seat, options[choice % len(options)])
    result = auction.result
    assert result is not None
    made = [b for _, b in auction.bids if b is not None]
    assert made == sorted(made)
    assert result.bid in BIDS
    if not made:
        assert result == (dealer, 15, "bagged")
    else:
        assert result.bid == max(made)
        assert (result.how == "held") == (result.seat == dealer and made.count(result.bid) == 2)
        if result.how == "held":
            assert hold
