"""Dealing (docs/rules.md §2): five cards each, the turn-up, a turned ace or joker, robbing."""

import random
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import ACE_OF_HEARTS, JOKER, Card, Suit, full_pack, parse_cards
from engine.deal import (
    Deal,
    DealError,
    check_ready,
    deal_from_pack,
    deal_hand,
    dealer_discard,
    left_of,
    name_trump,
    rob,
)
from engine.rules import PRESETS, Ruleset, get_ruleset

CB = get_ruleset("cape-breton-45")
IRISH = get_ruleset("irish-45-joker")
AUCTION = get_ruleset("auction-120")

# Pack positions of each seat's cards, counted from the player left of the dealer: packets of
# three (positions 0..11) then two (12..19); the turn-up is position 20.
FIRST_PACKET = 3
PACKET_TOTAL = 12
TURN_UP = 20


def seat_positions(dealer: int, seat: int) -> list[int]:
    k = (seat - dealer - 1) % 4
    first = [k * FIRST_PACKET + i for i in range(FIRST_PACKET)]
    second = [PACKET_TOTAL + k * 2 + i for i in range(2)]
    return first + second


def arranged(
    rules: Ruleset, dealer: int, hands: Mapping[int, str], turn_ups: str = "7C"
) -> list[Card]:
    """A pack that deals ``hands`` (seat -> cards) and turns up ``turn_ups`` in order."""
    pack: list[Card | None] = [None] * rules.pack_size
    for seat, text in hands.items():
        for pos, card in zip(seat_positions(dealer, seat), parse_cards(text), strict=False):
            pack[pos] = card
    for i, card in enumerate(parse_cards(turn_ups)):
        pack[TURN_UP + i] = card
    rest = iter([c for c in full_pack(joker=rules.joker) if c not in pack])
    return [card if card is not None else next(rest) for card in pack]


def held(deal: Deal) -> list[Card]:
    cards = [c for hand in deal.hands for c in hand]
    cards += list(deal.stock) + list(deal.discards)
    if deal.turn_up is not None and all(deal.turn_up not in hand for hand in deal.hands):
        cards.append(deal.turn_up)
    return cards


def test_left_of_dealer() -> None:
    assert [left_of(s) for s in range(4)] == [1, 2, 3, 0]


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_dealing_order_starts_left_of_the_dealer(dealer: int) -> None:
    pack = full_pack()  # in pack order the turn-up is the 9♦
    deal = deal_from_pack(pack, CB, dealer)
    for seat in range(4):
        assert list(deal.hands[seat]) == [pack[p] for p in seat_positions(dealer, seat)]
    assert deal.turn_up is pack[TURN_UP]
    assert deal.first_to_play == (dealer + 1) % 4
    assert deal.stock == tuple(pack[TURN_UP + 1 :])


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    dealer=st.integers(0, 3),
    preset=st.sampled_from(sorted(PRESETS)),
)
def test_deal_gives_five_distinct_cards_from_the_right_pack(
    seed: int, dealer: int, preset: str
) -> None:
    rules = get_ruleset(preset)
    deal = deal_hand(random.Random(seed), rules, dealer)
    cards = held(deal)
    assert len(cards) == rules.pack_size == len(set(cards))
    assert set(cards) == set(full_pack(joker=rules.joker))
    for seat, hand in enumerate(deal.hands):
        assert len(set(hand)) == len(hand)
        extra = deal.owed if seat == dealer else 0
        assert len(hand) == 5 + extra
    if rules.auction:
        assert deal.turn_up is None and deal.trump is None and deal.log == ()
        assert len(deal.stock) == rules.pack_size - 20
    else:
        assert deal.turn_up is not None and deal.turn_up is not JOKER
        assert deal.trump is deal.turn_up.suit


@given(seed=st.integers(0, 2**32 - 1), preset=st.sampled_from(sorted(PRESETS)))
def test_same_seed_same_deal(seed: int, preset: str) -> None:
    rules = get_ruleset(preset)
    assert deal_hand(random.Random(seed), rules, 2) == deal_hand(random.Random(seed), rules, 2)


def test_ace_turned_goes_to_the_dealer_who_holds_six_until_discarding() -> None:
    deal = deal_from_pack(arranged(CB, 3, {3: "2C 3C 4C 6D 7D"}, "AS"), CB, 3)
    assert deal.trump is Suit.SPADES and deal.turn_up == Card.parse("AS")
    assert len(deal.hands[3]) == 6 and Card.parse("AS") in deal.hands[3]
    assert deal.owed == 1 and not deal.ready
    assert deal.robber is None  # nobody was dealt the ace of trumps
    assert [e.kind for e in deal.log] == ["turn_up", "ace_to_dealer"]
    with pytest.raises(DealError) as problem:
        check_ready(deal)
    assert problem.value.code == "dealer_must_discard"
    with pytest.raises(DealError) as problem:
        dealer_discard(deal, Card.parse("KH"))
    assert problem.value.code == "discard_not_in_hand"

    after = dealer_discard(deal, Card.parse("2C"))
    assert len(after.hands[3]) == 5 and Card.parse("2C") not in after.hands[3]
    assert after.discards == (Card.parse("2C"),) and after.owed == 0 and after.ready
    check_ready(after)
    assert after.log[-1].kind == "discard"
    assert deal.owed == 1  # steps return a new deal; the old one is unchanged
    with pytest.raises(DealError) as problem:
        dealer_discard(after, Card.parse("3C"))
    assert problem.value.code == "no_discard_owed"
    for seat in range(4):
        with pytest.raises(DealError) as problem:
            rob(after, seat, after.hands[seat][0])
        assert problem.value.code == "not_entitled_to_rob"


def test_joker_turned_goes_to_the_dealer_and_the_next_card_is_trump() -> None:
    deal = deal_from_pack(arranged(IRISH, 0, {0: "2C 3C 4C 6D 7D"}, "JK 8H"), IRISH, 0)
    assert JOKER in deal.hands[0] and len(deal.hands[0]) == 6
    assert deal.turn_up == Card.parse("8H") and deal.trump is Suit.HEARTS
    assert deal.owed == 1
    assert [e.kind for e in deal.log] == ["joker_to_dealer", "turn_up"]
    after = dealer_discard(deal, Card.parse("6D"))
    assert after.ready and JOKER in after.hands[0]


def test_joker_then_ace_the_dealer_owes_two_discards() -> None:
    deal = deal_from_pack(arranged(IRISH, 1, {}, "JK AD"), IRISH, 1)
    assert deal.owed == 2 and len(deal.hands[1]) == 7
    assert deal.trump is Suit.DIAMONDS
    deal = dealer_discard(deal, deal.hands[1][0])
    assert not deal.ready
    deal = dealer_discard(deal, deal.hands[1][0])
    assert deal.ready and len(deal.hands[1]) == 5


def test_a_joker_in_a_pack_without_one_is_refused() -> None:
    with pytest.raises(DealError) as problem:
        deal_from_pack(full_pack(joker=True), CB, 0)
    assert problem.value.code == "bad_pack"
    with pytest.raises(DealError) as problem:
        deal_from_pack([*full_pack()[:-1], full_pack()[0]], CB, 0)
    assert problem.value.code == "bad_pack"


@pytest.mark.parametrize(
    ("dealer", "seat", "hand", "turn_up", "trump"),
    [
        (0, 2, "AC 2D 3D 4D 6H", "5C", Suit.CLUBS),
        (1, 1, "AS 2D 3D 4D 6H", "2S", Suit.SPADES),  # the dealer may rob too
        (2, 0, "AH 2D 3D 4D 6C", "9H", Suit.HEARTS),  # the A♥ is the ace of trumps in hearts
    ],
)
def test_the_player_dealt_the_ace_of_trumps_may_rob(
    dealer: int, seat: int, hand: str, turn_up: str, trump: Suit
) -> None:
    deal = deal_from_pack(arranged(CB, dealer, {seat: hand}, turn_up), CB, dealer)
    assert deal.trump is trump and deal.robber == seat
    discard = Card.parse("2D")
    after = rob(deal, seat, discard)
    assert Card.parse(turn_up) in after.hands[seat]
    assert discard not in after.hands[seat] and len(after.hands[seat]) == 5
    assert after.discards == (discard,) and after.robbed
    assert after.log[-1].kind == "rob" and after.log[-1].card == Card.parse(turn_up)
    with pytest.raises(DealError) as problem:
        rob(after, seat, after.hands[seat][0])
    assert problem.value.code == "already_robbed"


def test_robbing_refused() -> None:
    deal = deal_from_pack(arranged(CB, 0, {2: "AC 2D 3D 4D 6H"}, "5C"), CB, 0)
    for seat in (0, 1, 3):
        with pytest.raises(DealError) as problem:
            rob(deal, seat, deal.hands[seat][0])
        assert problem.value.code == "not_entitled_to_rob"
    with pytest.raises(DealError) as problem:
        rob(deal, 2, Card.parse("KS"))
    assert problem.value.code == "discard_not_in_hand"
    with pytest.raises(DealError) as problem:
        rob(deal, 4, Card.parse("2D"))
    assert problem.value.code == "bad_seat"


def test_ace_of_hearts_is_not_the_ace_of_trumps_outside_hearts() -> None:
    deal = deal_from_pack(arranged(CB, 0, {1: "AH 2D 3D 4D 6C"}, "9S"), CB, 0)
    assert ACE_OF_HEARTS in deal.hands[1]
    assert deal.robber is None


def test_auction_deal_has_no_turn_up_and_trump_is_named() -> None:
    deal = deal_hand(random.Random(7), AUCTION, 2)
    assert deal.turn_up is None and deal.trump is None and not deal.ready
    with pytest.raises(DealError) as problem:
        check_ready(deal)
    assert problem.value.code == "no_trump"
    with pytest.raises(DealError) as problem:
        rob(deal, 3, deal.hands[3][0])
    assert problem.value.code == "no_turn_up"
    named = name_trump(deal, 3, Suit.DIAMONDS)
    assert named.trump is Suit.DIAMONDS and named.ready
    assert named.log[-1].kind == "trump_named" and named.log[-1].seat == 3
    with pytest.raises(DealError) as problem:
        name_trump(named, 3, Suit.CLUBS)
    assert problem.value.code == "trump_already_named"


def test_trump_cannot_be_named_when_it_was_turned_up() -> None:
    deal = deal_hand(random.Random(7), CB, 0)
    with pytest.raises(DealError) as problem:
        name_trump(deal, 1, Suit.CLUBS)
    assert problem.value.code == "not_auction"


@pytest.mark.parametrize("dealer", [-1, 4])
def test_bad_dealer(dealer: int) -> None:
    with pytest.raises(DealError) as problem:
        deal_hand(random.Random(1), CB, dealer)
    assert problem.value.code == "bad_dealer"
