"""Cards, notation and the orders of docs/rules.md §1, table by table."""

import pytest

from engine.cards import (
    JOKER,
    Card,
    CardError,
    Suit,
    full_pack,
    offsuit_order,
    ordering,
    parse_cards,
    sort_hand,
    trump_order,
)
from engine.rules import get_ruleset, make_ruleset

CB = get_ruleset("cape-breton-45")
IRISH = get_ruleset("irish-45-joker")
ACES_HIGH = make_ruleset(offsuit_aces_high=True)


def names(cards: list[Card]) -> str:
    return " ".join(str(c) for c in cards)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("10C", "10C"),
        ("10c", "10C"),
        ("tc", "10C"),
        ("T♣", "10C"),
        ("AH", "AH"),
        ("a♥", "AH"),
        ("5d", "5D"),
        ("Q♠", "QS"),
        ("jk", "JK"),
        (" 2s ", "2S"),
    ],
)
def test_parse_and_print(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("text", ["", "1C", "11C", "AX", "ZZ", "10", "JKR", "♥"])
def test_bad_cards_are_refused_with_a_code(text: str) -> None:
    with pytest.raises(CardError) as info:
        Card.parse(text)
    assert info.value.code == "bad_card"


def test_cards_are_interned_and_print_pretty() -> None:
    assert Card.parse("ah") is Card.parse("A♥") is Card(14, Suit.HEARTS)
    assert Card.parse("JK") is JOKER and JOKER.is_joker
    assert Card.parse("10c").pretty == "10♣"
    assert parse_cards("5H, JD  AC") == [Card.parse("5H"), Card.parse("JD"), Card.parse("AC")]


def test_pack_sizes() -> None:
    assert len(set(full_pack())) == 52
    pack = full_pack(joker=True)
    assert len(set(pack)) == 53 and JOKER in pack


TRUMPS = {
    Suit.HEARTS: "5H JH AH KH QH 10H 9H 8H 7H 6H 4H 3H 2H",
    Suit.DIAMONDS: "5D JD AH AD KD QD 10D 9D 8D 7D 6D 4D 3D 2D",
    Suit.CLUBS: "5C JC AH AC KC QC 2C 3C 4C 6C 7C 8C 9C 10C",
    Suit.SPADES: "5S JS AH AS KS QS 2S 3S 4S 6S 7S 8S 9S 10S",
}


@pytest.mark.parametrize("trump", list(Suit))
def test_trump_order_of_every_suit(trump: Suit) -> None:
    assert names(trump_order(trump, CB)) == TRUMPS[trump]


@pytest.mark.parametrize("trump", list(Suit))
def test_the_joker_is_third_best_trump(trump: Suit) -> None:
    order = trump_order(trump, IRISH)
    assert order[2] is JOKER
    assert [c for c in order if c is not JOKER] == trump_order(trump, CB)


OFFSUIT = {
    Suit.HEARTS: "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
    Suit.DIAMONDS: "KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D AD",
    Suit.CLUBS: "KC QC JC AC 2C 3C 4C 5C 6C 7C 8C 9C 10C",
    Suit.SPADES: "KS QS JS AS 2S 3S 4S 5S 6S 7S 8S 9S 10S",
}


@pytest.mark.parametrize("trump", list(Suit))
@pytest.mark.parametrize("suit", list(Suit))
def test_non_trump_order_red_high_black_low(suit: Suit, trump: Suit) -> None:
    if suit is trump:
        with pytest.raises(CardError):
            offsuit_order(suit, trump, CB)
        return
    assert names(offsuit_order(suit, trump, CB)) == OFFSUIT[suit]


@pytest.mark.parametrize(
    ("suit", "expected"),
    [
        (Suit.HEARTS, OFFSUIT[Suit.HEARTS]),  # the A♥ is a trump: nothing moves
        (Suit.DIAMONDS, "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D"),
        (Suit.CLUBS, "AC KC QC JC 2C 3C 4C 5C 6C 7C 8C 9C 10C"),
    ],
)
def test_offsuit_aces_high(suit: Suit, expected: str) -> None:
    assert names(offsuit_order(suit, Suit.SPADES, ACES_HIGH)) == expected
    assert names(trump_order(Suit.SPADES, ACES_HIGH)) == TRUMPS[Suit.SPADES]


def test_every_card_has_exactly_one_place_for_each_trump() -> None:
    for trump in Suit:
        seen = trump_order(trump, IRISH) + [
            c for s in Suit if s is not trump for c in offsuit_order(s, trump, IRISH)
        ]
        assert sorted(seen) == sorted(full_pack(joker=True))


def test_ordering_tables_agree_with_the_lists() -> None:
    order = ordering(Suit.CLUBS, CB)
    trumps = trump_order(Suit.CLUBS, CB)
    powers = [order.power[c.index] for c in trumps]
    assert powers == sorted(powers, reverse=True) and min(powers) >= 100
    assert order.is_trump(Card.parse("AH")) and not order.is_trump(Card.parse("KH"))
    assert order.follow[Card.parse("AH").index] is Suit.CLUBS
    assert {str(c) for c in order.top} == {"5C", "JC", "AH"}
    assert {str(c) for c in ordering(Suit.HEARTS, IRISH).top} == {"5H", "JH", "JK", "AH"}


def test_sort_hand_puts_trumps_first() -> None:
    hand = parse_cards("2C KD AH 10S 5S")
    assert names(sort_hand(hand, Suit.SPADES, CB)) == "5S AH 10S 2C KD"
