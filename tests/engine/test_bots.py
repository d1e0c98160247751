"""The bots: every choice legal (checked play by play with play.check_play), and the heuristic
bot's rules of thumb in set positions."""

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.auction import Auction
from engine.bots import BotError, HeuristicBot, PlayState, RandomBot, hand_strength, make_bot
from engine.cards import SUITS, Card, Suit, full_pack, parse_cards
from engine.play import check_play, legal_plays, trick_winner
from engine.rules import PRESETS, Ruleset, get_ruleset, make_ruleset
from engine.simulate import HandDetail, simulate_game

CB = get_ruleset("cape-breton-45")
PRESET_NAMES = sorted(PRESETS)
# Presets plus the options that change which cards are legal or how bidding goes.
VARIANTS = [get_ruleset(name) for name in PRESET_NAMES] + [
    make_ruleset(offsuit_aces_high=True, joker=True, bonus="top-four"),
    make_ruleset("auction-120", dealer_cannot_hold=True, thirty_for_sixty=True),
    make_ruleset("auction-120", joker=True, offsuit_aces_high=True),
]


def replay(detail: HandDetail, rules: Ruleset) -> None:
    """Re-check a recorded hand: every card legal when played, winners and leaders right."""
    hands = [list(hand) for hand in detail.deal.hands]
    assert all(len(hand) == 5 for hand in hands)
    first = detail.auction.seat if detail.auction is not None else (detail.dealer + 1) % 4
    assert detail.leaders[0] == first
    for number, (leader, trick) in enumerate(zip(detail.leaders, detail.tricks, strict=True)):
        for i, card in enumerate(trick):
            seat = (leader + i) % 4
            check_play(card, hands[seat], trick[:i], detail.trump, rules)
            hands[seat].remove(card)
        winner = (leader + trick_winner(trick, detail.trump, rules)) % 4
        assert detail.winners[number] == winner
        if number + 1 < len(detail.leaders):
            assert detail.leaders[number + 1] == winner
    assert all(hand == [] for hand in hands)


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    variant=st.integers(0, len(VARIANTS) - 1),
    bot=st.sampled_from(["heuristic", "random", "mixed"]),
)
def test_bots_only_play_legal_cards(seed: int, variant: int, bot: str) -> None:
    rules = VARIANTS[variant]
    rng = random.Random(seed)
    if bot == "mixed":
        h, r = HeuristicBot(rng), RandomBot(rng)
        record = simulate_game(rules, rng, bot=[h, r, r, h], check=True)
    else:
        record = simulate_game(rules, rng, bot=bot, check=True)
    for detail in record.hands:
        assert isinstance(detail, HandDetail)
        replay(detail, rules)


def test_checking_hook_sees_every_play() -> None:
    seen: list[tuple[int, Card]] = []

    def hook(
        seat: int, card: Card, hand: Sequence[Card], trick: Sequence[Card], trump: Suit
    ) -> None:
        assert card in legal_plays(hand, trick, trump, CB)
        seen.append((seat, card))

    record = simulate_game(CB, random.Random(3), on_play=hook)
    assert len(seen) == 20 * len(record.lines)


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.integers(1, 5),
    played=st.integers(0, 3),
    trump=st.sampled_from(SUITS),
    preset=st.sampled_from(PRESET_NAMES),
)
def test_both_bots_choose_among_legal_plays(
    seed: int, size: int, played: int, trump: Suit, preset: str
) -> None:
    rules = get_ruleset(preset)
    rng = random.Random(seed)
    pack = full_pack(joker=rules.joker)
    rng.shuffle(pack)
    hand, trick = pack[:size], pack[size : size + played]
    state = PlayState(played, dealer=3, leader=0)
    legal = legal_plays(hand, trick, trump, rules)
    for bot in (HeuristicBot(rng), RandomBot(rng)):
        assert bot.choose_card(hand, trick, trump, rules, state) in legal
        six = pack[:6]
        assert bot.choose_discard(six, trump, rules) in six
        robbed = bot.choose_rob(hand, pack[20], trump, rules)
        assert robbed is None or robbed in hand
        assert bot.choose_trump(hand, rules) in SUITS


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 3), hold=st.booleans())
def test_bots_bid_legally(seed: int, dealer: int, hold: bool) -> None:
    rules = make_ruleset("auction-120", dealer_cannot_hold=not hold)
    rng = random.Random(seed)
    pack = full_pack()
    rng.shuffle(pack)
    for bots in ([HeuristicBot(rng)] * 4, [RandomBot(rng)] * 4):
        auction = Auction(dealer, rules)
        while (seat := auction.to_bid) is not None:
            hand = pack[seat * 5 : seat * 5 + 5]
            amount = bots[seat].choose_bid(hand, auction, rules)
            assert amount is None or amount in auction.legal_bids()
            auction.bid(seat, amount)
        assert auction.result is not None


def cards(text: str) -> list[Card]:
    return parse_cards(text)


# (trump, trick so far, the hand of the player to play, the card a sensible player picks)
POSITIONS = [
    # Partner (two cards back) is winning: throw the lowest card, not a trump.
    (Suit.DIAMONDS, "KC 2C", "QC 3C 5D 9D 4S", "3C"),
    # An opponent is winning and can be beaten: take it as cheaply as possible.
    (Suit.DIAMONDS, "9C", "QC KC 3C 2D 4S", "3C"),  # black is low: the 3 beats the 9
    (Suit.DIAMONDS, "9C KC", "3C 8S 2D 4D 7H", "2D"),  # trump the opponent's king, cheaply
    (Suit.DIAMONDS, "9S KS", "4H 8C 3D 2D 7H", "2D"),  # void in spades: the lowest trump
    (Suit.DIAMONDS, "9C KC", "3C 4C 8S 9H 7H", "4C"),  # must follow clubs, can't beat the K
    # Nothing wins: the lowest legal card.
    (Suit.DIAMONDS, "KC", "QC 3C 8S 9S 10S", "3C"),
    # Leading with several trumps: the best one.
    (Suit.HEARTS, "", "2C 3S JH 5H 4D", "5H"),
    # Leading with one trump that is not the best out: the best non-trump.
    (Suit.HEARTS, "", "2H KC 3C 4S 6D", "KC"),
    # ... but one that nothing can beat is led.
    (Suit.HEARTS, "", "5H KC 3C 4S 6D", "5H"),
    # A low trump led and only the 5 could take it: keep it back (renege) while a card is to
    # come after us.
    (Suit.HEARTS, "3H", "5H KC 2C 3S 4S", "4S"),
    # Last to play, an opponent winning: now the 5 takes the trick.
    (Suit.HEARTS, "3H 2D 6H", "5H KC 2C 3S 4S", "5H"),
]


@pytest.mark.parametrize(("trump", "trick", "hand", "expected"), POSITIONS)
def test_heuristic_positions(trump: Suit, trick: str, hand: str, expected: str) -> None:
    played = cards(trick)
    leader = 0
    state = PlayState((leader + len(played)) % 4, dealer=3, leader=leader)
    choice = HeuristicBot(random.Random(0)).choose_card(cards(hand), played, trump, CB, state)
    assert choice == Card.parse(expected)


def test_heuristic_discards_its_weakest_card() -> None:
    bot = HeuristicBot(random.Random(0))
    assert bot.choose_discard(cards("AS 5S 2D 6H KC 10C"), Suit.SPADES, CB) == Card.parse("10C")
    assert bot.choose_discard(cards("AD 5D JD KD QD 2D"), Suit.DIAMONDS, CB) == Card.parse("2D")


def test_heuristic_robs_when_the_turn_up_is_better() -> None:
    bot = HeuristicBot(random.Random(0))
    assert bot.choose_rob(cards("AC 2D 3D 4D 6H"), Card.parse("5C"), Suit.CLUBS, CB) == Card.parse(
        "2D"
    )
    assert bot.choose_rob(cards("5C JC AH AC KC"), Card.parse("2C"), Suit.CLUBS, CB) is None


def test_heuristic_names_its_strongest_suit() -> None:
    bot = HeuristicBot(random.Random(0))
    assert bot.choose_trump(cards("5S JS 2S 4H 6D"), CB) is Suit.SPADES
    assert bot.choose_trump(cards("AH 2D 3D KC 4D"), CB) is Suit.DIAMONDS
    tricks, trumps = hand_strength(cards("5S JS AH 2S 4H"), Suit.SPADES, CB)
    assert trumps == 4 and tricks > 3


def test_heuristic_bids_by_strength() -> None:
    rules = get_ruleset("auction-120")
    bot = HeuristicBot(random.Random(0))
    strong = cards("5S JS AH AS KS")
    weak = cards("2C 3D 4S 6H 7C")
    assert bot.choose_bid(strong, Auction(0, rules), rules) == 30
    assert bot.choose_bid(weak, Auction(0, rules), rules) is None
    middling = cards("5D AD 3D KC 9S")
    auction = Auction(3, rules)
    for seat, amount in ((0, 20), (1, None), (2, None)):
        auction.bid(seat, amount)
    held = bot.choose_bid(middling, auction, rules)
    assert held is not None and held >= 20  # the dealer holds or outbids


def test_unknown_bot() -> None:
    with pytest.raises(BotError) as problem:
        make_bot("clever", random.Random(0))
    assert problem.value.code == "unknown_bot"
    assert isinstance(make_bot("random", random.Random(0)), RandomBot)
