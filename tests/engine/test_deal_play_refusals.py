"""What a caller of the deal and the play sees: each refusal's code and words (the practice table
shows them to a person, practice/words.py puts each code in plain words), and the edges of the
kitty, the draw, robbing, announcing, the dealer's discard, renege, the trick and the hand's score.
"""

import random
from dataclasses import replace

import pytest

from engine.cards import JOKER, Card, Suit, full_pack, parse_cards
from engine.deal import (
    Deal,
    DealError,
    DealEvent,
    ace_is_low,
    ace_of_trumps,
    announce_ace,
    check_ready,
    deal_from_pack,
    deal_hand,
    dealer_discard,
    discard_and_draw,
    left_of,
    name_trump,
    rob,
    take_kitty,
)
from engine.play import (
    IllegalPlay,
    bonus_trick_of,
    check_play,
    legal_plays,
    score_hand,
    trick_winner,
)
from engine.rules import get_ruleset, make_ruleset
from tests.engine.test_deal import arranged

CB = get_ruleset("cape-breton-45")
IRISH = get_ruleset("irish-45-joker")
AUCTION = get_ruleset("auction-120")
S, H, C, D = Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS


def refusal(error: type[Exception], call, *args, **kwargs) -> tuple[str, str]:
    with pytest.raises(error) as info:
        call(*args, **kwargs)
    assert str(info.value) == info.value.message  # type: ignore[attr-defined]  # as below
    return info.value.code, info.value.message  # type: ignore[attr-defined]  # DealError or IllegalPlay


class Unshuffled(random.Random):
    """Deals the pack in its printed order: 2C 3C ... so a deal can be read off."""

    def shuffle(self, x, random=None) -> None:  # type: ignore[override]  # keeps the order on purpose
        return None


class AceOfHeartsToSeatFour(Unshuffled):
    """Six players, dealer 5: seat 4 is dealt the A♥ (in the 2♥'s place); the 6♥ is turned."""

    def shuffle(self, x, random=None) -> None:  # type: ignore[override]  # arranges on purpose
        i, j = x.index(Card.parse("2H")), x.index(Card.parse("AH"))
        x[i], x[j] = x[j], x[i]


# --- Seats, dealers and the number of players ----------------------------------------------


def test_seats_run_clockwise_and_wrap_after_the_fourth() -> None:
    assert [left_of(s) for s in range(4)] == [1, 2, 3, 0]
    assert ace_of_trumps(D) == Card.parse("AD")


@pytest.mark.parametrize(
    ("seat", "words"),
    [
        (4, "A seat is 0 to 3, not 4."),
        (-1, "A seat is 0 to 3, not -1."),
        ("1", "A seat is 0 to 3, not '1'."),
    ],
)
def test_a_seat_outside_the_table_is_refused_in_words(seat, words: str) -> None:
    deal = deal_from_pack(arranged(CB, 3, {0: "AC 2H 3H 4H 5H"}), CB, 3)
    assert refusal(DealError, rob, deal, seat, Card.parse("2H")) == ("bad_seat", words)
    assert refusal(DealError, announce_ace, deal, seat) == ("bad_seat", words)
    assert refusal(DealError, deal.hand, seat) == ("bad_seat", words)


def test_a_dealer_outside_the_table_is_refused_in_words() -> None:
    assert refusal(DealError, deal_hand, random.Random(1), CB, 4) == (
        "bad_dealer",
        "A dealer is 0 to 3, not 4.",
    )
    assert refusal(DealError, deal_from_pack, full_pack(), CB, 4) == (
        "bad_dealer",
        "A dealer is 0 to 3, not 4.",
    )
    assert refusal(DealError, deal_hand, random.Random(1), CB, 3, 3) == (
        "bad_dealer",
        "A dealer is 0 to 2, not 3.",
    )


@pytest.mark.parametrize("players", [1, 7, "3", 0])
def test_two_to_six_may_play(players) -> None:
    assert refusal(DealError, deal_hand, random.Random(1), CB, 0, players) == (
        "bad_players",
        f"2 to 6 may play, not {players!r}.",
    )


def test_auction_is_for_four_only() -> None:
    assert refusal(DealError, deal_hand, random.Random(1), AUCTION, 0, 3) == (
        "auction_needs_four",
        "Auction is played by four, in two partnerships.",
    )
    assert len(deal_hand(random.Random(1), AUCTION, 0).hands) == 4


@pytest.mark.parametrize("players", [2, 3, 5, 6])
def test_individual_play_deals_five_each_left_of_the_dealer(players: int) -> None:
    dealer = players - 1
    deal = deal_hand(Unshuffled(), CB, dealer, players)
    pack = full_pack()
    # Three each from the dealer's left (seat 0 first), then two each.
    assert deal.hands[0][:3] == tuple(pack[0:3])
    assert deal.hands[dealer][:3] == tuple(pack[3 * (players - 1) : 3 * players])
    assert deal.hands[0][3:5] == tuple(pack[3 * players : 3 * players + 2])
    assert deal.first_to_play == 0 and deal.players == players
    assert deal.turn_up == pack[5 * players]
    assert deal.stock == tuple(pack[5 * players + 1 :])
    assert all(len(deal.hand(seat)) == 5 for seat in range(players) if seat != dealer)
    assert refusal(DealError, deal.hand, players) == (
        "bad_seat",
        f"A seat is 0 to {players - 1}, not {players}.",
    )


@pytest.mark.parametrize(("rules", "size"), [(CB, 52), (IRISH, 53)])
def test_a_wrong_pack_is_refused_in_words(rules, size: int) -> None:
    pack = full_pack(joker=rules.joker)
    words = f"The pack must be the {size} cards of this ruleset, once each."
    assert refusal(DealError, deal_from_pack, pack[:-1], rules, 0) == ("bad_pack", words)
    twice = [*pack[:-1], pack[0]]  # the right count, one card twice
    assert refusal(DealError, deal_from_pack, twice, rules, 0) == ("bad_pack", words)


# --- The turn-up, the dealer's discard ---------------------------------------------------------


def test_the_deal_records_the_turn_up_and_who_may_rob() -> None:
    deal = deal_from_pack(arranged(CB, 0, {3: "AD 2H 3H 4H 5H"}, "7D"), CB, 0)
    assert deal.log == (DealEvent("turn_up", None, Card.parse("7D")),)
    assert deal.trump is D and deal.robber == 3 and deal.owed == 0 and deal.ready
    assert len(deal.stock) == 52 - 21
    nobody = deal_from_pack(arranged(CB, 0, {}, "7D AD"), CB, 0)  # the AD is in the stock
    assert nobody.robber is None and nobody.stock[0] == Card.parse("AD")


def test_a_turned_joker_then_ace_logged_in_order() -> None:
    deal = deal_from_pack(arranged(IRISH, 1, {}, "JK AS"), IRISH, 1)
    ace = Card.parse("AS")
    assert deal.log == (
        DealEvent("joker_to_dealer", 1, JOKER),
        DealEvent("turn_up", None, ace),
        DealEvent("ace_to_dealer", 1, ace),
    )
    assert deal.owed == 2 and deal.robber is None and not deal.ready
    assert refusal(DealError, check_ready, deal) == (
        "dealer_must_discard",
        "The dealer holds 7 cards and must discard 2.",
    )


def test_the_dealer_keeps_a_turned_ace_under_must_take() -> None:
    deal = deal_from_pack(arranged(CB, 0, {0: "AD 2H 3H 4H 5H"}, "AC"), CB, 0)
    ace = Card.parse("AC")
    assert refusal(DealError, dealer_discard, deal, ace, CB) == (
        "must_keep_turned_ace",
        "The dealer must keep the turned-up AC: discard a card of his hand.",
    )
    # Another ace of his hand is his to throw away; without the rules nothing is checked.
    after = dealer_discard(deal, Card.parse("AD"), CB)
    assert Card.parse("AD") not in after.hands[0] and ace in after.hands[0]
    assert after.owed == 0 and after.discards == (Card.parse("AD"),)
    assert after.log[-1] == DealEvent("discard", 0, Card.parse("AD"))
    assert dealer_discard(deal, ace).discards == (ace,)
    assert refusal(DealError, dealer_discard, after, ace, CB) == (
        "no_discard_owed",
        "The dealer holds five cards: there is nothing to discard.",
    )


def test_the_dealer_may_decline_a_turned_ace_under_may_take() -> None:
    may = make_ruleset(turned_ace="may-take")
    deal = deal_from_pack(arranged(may, 0, {}, "AC"), may, 0)
    after = dealer_discard(deal, Card.parse("AC"), may)
    assert Card.parse("AC") not in after.hands[0] and len(after.hands[0]) == 5
    check_ready(after)


def test_the_dealer_may_throw_away_a_turned_joker_under_must_take() -> None:
    deal = deal_from_pack(arranged(IRISH, 0, {}, "JK 7C"), IRISH, 0)
    assert dealer_discard(deal, JOKER, IRISH).owed == 0


def test_the_dealer_throws_away_only_a_card_he_holds() -> None:
    deal = deal_from_pack(arranged(CB, 2, {2: "2H 3H 4H 5H 6H"}, "AC"), CB, 2)
    assert refusal(DealError, dealer_discard, deal, Card.parse("KD"), CB) == (
        "discard_not_in_hand",
        "KD is not in seat 2's hand.",
    )


# --- Robbing and announcing --------------------------------------------------------------------


def test_robbing_takes_the_turn_up_and_throws_a_card_away() -> None:
    deal = deal_from_pack(arranged(CB, 0, {2: "AD 2H 3H 4H 5H"}, "7D"), CB, 0)
    robbed = rob(deal, 2, Card.parse("3H"))
    assert robbed.hands[2] == tuple(parse_cards("AD 2H 4H 5H 7D"))
    assert robbed.discards == (Card.parse("3H"),) and robbed.robbed
    assert robbed.log[-1] == DealEvent("rob", 2, Card.parse("7D"), Card.parse("3H"))
    assert robbed.hands[0] == deal.hands[0]  # nobody else's hand moves
    assert refusal(DealError, rob, robbed, 2, Card.parse("2H")) == (
        "already_robbed",
        "The turn-up has already been robbed.",
    )
    assert refusal(DealError, announce_ace, robbed, 2) == (
        "already_robbed",
        "The turn-up has been robbed: the ace is known.",
    )
    assert not ace_is_low(robbed, make_ruleset(unannounced_ace_lowest=True))


def test_robbing_refused_in_words() -> None:
    deal = deal_from_pack(arranged(CB, 0, {2: "AD 2H 3H 4H 5H"}, "7D"), CB, 0)
    assert refusal(DealError, rob, deal, 1, Card.parse("2H")) == (
        "not_entitled_to_rob",
        "Seat 1 may not rob: only the player dealt the AD may.",
    )
    ace_turned = deal_from_pack(arranged(CB, 0, {}, "AD"), CB, 0)
    assert refusal(DealError, rob, ace_turned, 1, Card.parse("2H")) == (
        "not_entitled_to_rob",
        "Seat 1 may not rob: the turned ace went to the dealer.",
    )
    auction = deal_from_pack(full_pack(), AUCTION, 0)
    assert refusal(DealError, rob, auction, 1, Card.parse("2H")) == (
        "no_turn_up",
        "No card was turned up: there is nothing to rob.",
    )


def test_announcing_the_ace_keeps_it_high() -> None:
    low = make_ruleset(unannounced_ace_lowest=True)
    deal = deal_from_pack(arranged(low, 0, {2: "AD 2H 3H 4H 5H"}, "7D"), low, 0)
    assert ace_is_low(deal, low) and not ace_is_low(deal, CB)
    assert refusal(DealError, announce_ace, deal, 1) == (
        "not_entitled_to_rob",
        "Seat 1 was not dealt the ace of trumps.",
    )
    said = announce_ace(deal, 2)
    assert said.announced and said.log[-1] == DealEvent("announce", 2)
    assert not ace_is_low(said, low)
    nobody = deal_from_pack(arranged(low, 0, {}, "7D AD"), low, 0)
    assert not ace_is_low(nobody, low)


def test_a_fifth_or_sixth_player_may_rob_and_announce() -> None:
    deal = deal_hand(AceOfHeartsToSeatFour(), CB, 5, 6)
    assert deal.trump is H and deal.robber == 4
    assert announce_ace(deal, 4).announced
    robbed = rob(deal, 4, Card.parse("3H"))
    assert Card.parse("6H") in robbed.hands[4] and Card.parse("3H") not in robbed.hands[4]
    assert refusal(DealError, rob, deal, 4, Card.parse("KS")) == (
        "discard_not_in_hand",
        "KS is not in seat 4's hand.",
    )
    assert refusal(DealError, rob, deal, 6, Card.parse("3H")) == (
        "bad_seat",
        "A seat is 0 to 5, not 6.",
    )


# --- Auction: naming trump, the kitty, discarding and drawing ----------------------------------


KITTY = make_ruleset("auction-120", kitty=3)


def kitty_deal() -> Deal:
    # Dealer 3: seat 0 is dealt first. Packets of three (0..11), the kitty (12..14), twos.
    return deal_from_pack(full_pack(), KITTY, 3)


def test_the_kitty_is_dealt_after_the_first_packets() -> None:
    pack = full_pack()
    deal = kitty_deal()
    assert deal.kitty == tuple(pack[12:15])
    assert deal.hands[0] == (*pack[0:3], *pack[15:17])
    assert deal.hands[3] == (*pack[9:12], *pack[21:23])
    assert deal.stock == tuple(pack[23:])
    assert deal.turn_up is None and deal.trump is None and deal.log == () and not deal.ready
    assert deal_from_pack(full_pack(), AUCTION, 3).kitty == ()


def test_trump_is_named_once_by_the_bidder() -> None:
    deal = kitty_deal()
    assert refusal(DealError, check_ready, deal) == ("no_trump", "Trump has not been named yet.")
    assert refusal(DealError, name_trump, deal, 1, "hearts") == (
        "bad_suit",
        "'hearts' is not a suit.",
    )
    assert refusal(DealError, name_trump, deal, 4, H)[0] == "bad_seat"
    named = name_trump(deal, 1, H)
    assert named.trump is H and named.log == (DealEvent("trump_named", 1, suit=H),)
    assert refusal(DealError, name_trump, named, 1, S) == (
        "trump_already_named",
        "Trump is already ♥.",
    )
    turned = deal_from_pack(full_pack(), CB, 3)
    assert refusal(DealError, name_trump, turned, 1, S) == (
        "not_auction",
        "Trump was turned up; it cannot be named.",
    )


def test_the_bidder_takes_the_kitty_after_naming_trump() -> None:
    deal = kitty_deal()
    assert refusal(DealError, take_kitty, deal, 1) == (
        "no_trump",
        "Trump is named before the kitty is taken.",
    )
    named = name_trump(deal, 1, H)
    assert refusal(DealError, take_kitty, named, 4)[0] == "bad_seat"
    took = take_kitty(named, 1)
    assert took.hands[1] == (*deal.hands[1], *deal.kitty) and took.kitty == ()
    assert took.hands[0] == deal.hands[0]
    assert took.log[-1] == DealEvent("take_kitty", 1)
    assert refusal(DealError, take_kitty, took, 1) == ("no_kitty", "There is no kitty to take.")


def test_discarding_and_drawing_back_up_to_five() -> None:
    took = take_kitty(name_trump(kitty_deal(), 1, H), 1)
    eight = took.hands[1]
    assert refusal(DealError, discard_and_draw, took, 1, eight[:2]) == (
        "keeps_too_many",
        "Seat 1 would keep 6 cards: throw away down to 5.",
    )
    kept = discard_and_draw(took, 1, eight[:3])
    assert kept.hands[1] == eight[3:] and kept.stock == took.stock  # five kept: none drawn
    drew = discard_and_draw(took, 1, eight[:4])
    assert drew.hands[1] == (*eight[4:], took.stock[0]) and drew.stock == took.stock[1:]
    assert drew.discards == eight[:4]
    assert drew.log[-5:] == (
        *(DealEvent("discard", 1, card) for card in eight[:4]),
        DealEvent("draw", 1),
    )
    other = discard_and_draw(drew, 0, drew.hands[0])  # throws all five away, draws five
    assert other.hands[0] == drew.stock[:5] and other.stock == drew.stock[5:]
    assert refusal(DealError, discard_and_draw, took, 0, [eight[0]]) == (
        "discard_not_in_hand",
        f"{eight[0]} is not in seat 0's hand.",
    )
    assert refusal(DealError, discard_and_draw, took, 4, [])[0] == "bad_seat"


def test_the_stock_must_hold_enough_to_draw() -> None:
    took = take_kitty(name_trump(kitty_deal(), 1, H), 1)
    hand = took.hands[0]
    exact = replace(took, stock=took.stock[:2])
    assert discard_and_draw(exact, 0, hand[:2]).stock == ()  # exactly enough
    assert refusal(DealError, discard_and_draw, exact, 0, hand[:3]) == (
        "stock_empty",
        "Not enough cards are left to deal back up to five.",
    )


# --- Play: the refusals, renege switches, ace low, the trick and the hand -----------------------


def play(card: str, hand: str, trick: str, trump: Suit, rules=CB, **kw) -> tuple[str, str]:
    return refusal(
        IllegalPlay,
        check_play,
        Card.parse(card),
        parse_cards(hand),
        parse_cards(trick),
        trump,
        rules,
        **kw,
    )


def test_each_illegal_card_is_refused_in_words() -> None:
    assert play("AD", "KH 2C", "", S) == ("not_in_hand", "AD is not in the hand.")
    assert play("2C", "KH 2C 3S", "9H", S) == (
        "must_follow_suit",
        "H was led: play that suit or a trump.",
    )
    assert play("KH", "2S KH", "QS", S) == (
        "must_follow_trump",
        "QS is a trump: a trump must be played.",
    )
    assert play("2C", "KH 2C", "AH", S) == (
        "must_follow_hearts",
        "The A♥ was led: play a trump or a heart.",
    )


@pytest.mark.parametrize("card", ["KH", "2C"])
def test_the_a_of_hearts_led_with_a_trump_in_hand_asks_for_the_trump(card: str) -> None:
    # The A♥ is a trump: holding the K of trumps, the K must be played; a heart will not do.
    assert play(card, "KS KH 2C", "AH", S) == (
        "must_follow_trump",
        "AH is a trump: a trump must be played.",
    )


def test_the_joker_led_is_a_trump_to_follow() -> None:
    assert play("2C", "KS 2C", "JK", S, IRISH) == (
        "must_follow_trump",
        "JK is a trump: a trump must be played.",
    )


def test_hearts_on_ace_lead_switched_off() -> None:
    rules = make_ruleset(hearts_on_ace_lead=False)
    assert {str(c) for c in legal_plays(parse_cards("KH 2C"), parse_cards("AH"), S, rules)} == {
        "KH",
        "2C",
    }


@pytest.mark.parametrize(
    ("renege", "hand", "trick", "expected"),
    [
        ("top-trumps", "JS KH", "QS", {"JS", "KH"}),
        ("five-only", "JS KH", "QS", {"JS"}),
        ("none", "JS KH", "QS", {"JS"}),
        ("top-trumps", "5S KH", "QS", {"5S", "KH"}),
        ("five-only", "5S KH", "QS", {"5S", "KH"}),
        ("none", "5S KH", "QS", {"5S"}),
        ("five-only", "AH KD", "AS", {"AH"}),
        ("five-only", "5S KH 2C", "AH", {"5S", "KH"}),
        ("none", "5S KH 2C", "AH", {"5S"}),
    ],
)
def test_legal_plays_under_each_renege_switch(
    renege: str, hand: str, trick: str, expected: set[str]
) -> None:
    rules = make_ruleset(renege=renege)
    cards = legal_plays(parse_cards(hand), parse_cards(trick), S, rules)
    assert {str(c) for c in cards} == expected


def test_a_card_from_outside_the_pack_cannot_be_led() -> None:
    # The joker led where the ruleset has none: the caller is told, not given a wrong answer.
    with pytest.raises(ValueError, match="not in this ruleset's pack") as info:
        legal_plays(parse_cards("KH 2C"), [JOKER], S, CB)
    assert info.value.code == "not_in_pack"  # type: ignore[attr-defined]  # CardError


def test_the_lowest_trump_still_trumps_a_plain_card() -> None:
    assert trick_winner(parse_cards("KC 10S QC AC"), S, CB) == 1
    assert trick_winner(parse_cards("2C"), S, CB) == 0


def test_an_unannounced_ace_plays_lowest() -> None:
    low = make_ruleset(unannounced_ace_lowest=True)
    assert trick_winner(parse_cards("AS 10S"), S, low) == 0
    assert trick_winner(parse_cards("AS 10S"), S, low, ace_low=True) == 1
    assert trick_winner(parse_cards("KC AS"), S, low, ace_low=True) == 1  # still a trump
    hand = [parse_cards("AS 2C 3C 4C"), parse_cards("10S 2D 3D 4D")]
    assert score_hand(hand, [0, 1], S, low).bonus_trick == 0
    assert score_hand(hand, [0, 1], S, low, ace_low=True).bonus_trick == 1
    # The low ace alone in a hand still earns the bonus under best-trump.
    alone = [parse_cards("AS 2C 3C 4C"), parse_cards("KD 2D 3D 4D")]
    assert score_hand(alone, [1, 0], S, low, ace_low=True).points == (5, 10)


def test_the_joker_earns_the_bonus_over_a_lower_trump() -> None:
    hand = [parse_cards("2S 2C 3C 4C"), parse_cards("JK 2D 3D 4D")]
    score = score_hand(hand, [0, 1], S, IRISH)
    assert score.bonus_trick == 1 and score.points == (5, 10)
    assert bonus_trick_of(hand, S, IRISH) == (1, JOKER)


def test_the_ace_of_trumps_is_high_unless_said_otherwise() -> None:
    hand = [parse_cards("10S 2C 3C 4C"), parse_cards("AS 2D 3D 4D")]
    assert bonus_trick_of(hand, S, CB) == (1, Card.parse("AS"))
    assert bonus_trick_of(hand, S, CB, ace_low=True) == (0, Card.parse("10S"))


def test_the_lowest_trump_alone_earns_the_bonus() -> None:
    hand = [parse_cards("KC QC 2C 10S"), parse_cards("KD QD 2D 3D")]
    score = score_hand(hand, [1, 0], S, CB)
    assert score.bonus_trick == 0 and score.points == (5, 10) and score.trump_played


def test_a_trump_below_the_top_four_is_played_though_it_earns_nothing() -> None:
    hand = [parse_cards("KS 2C 3C 4C")]
    score = score_hand(hand, [0], S, make_ruleset(bonus="top-four"))
    assert score.bonus_trick is None and score.trump_played and score.points == (5, 0)


def test_jink_only_over_five_tricks() -> None:
    four = [parse_cards("2C 3C 4C 5C")] * 4
    assert score_hand(four, [0, 0, 0, 0], H, CB).jink is None
    five = [parse_cards("2C 3C 4C 6C")] * 5
    lost = score_hand(five, [1, 1, 1, 1, 1], H, CB)
    assert lost.jink == 1 and lost.tricks == (0, 5) and lost.points == (0, 25)
    assert score_hand(five, [0, 1, 1, 1, 1], H, CB).jink is None


def test_a_bad_hand_or_trick_is_refused_in_words() -> None:
    assert refusal(IllegalPlay, trick_winner, [], S, CB) == (
        "empty_trick",
        "An empty trick has no winner.",
    )
    two = [parse_cards("2C 3C 4C 5C")] * 2
    assert refusal(IllegalPlay, score_hand, two, [0], S, CB) == (
        "bad_hand",
        "Every trick needs the side that took it.",
    )
    assert refusal(IllegalPlay, score_hand, two, [0, 2], S, CB) == (
        "bad_side",
        "A trick is taken by side 0 or side 1.",
    )
