"""The switches of docs/rules.md §3, §5 and §6, each tested on its sources' own examples.

The sources are the seed texts of the rule book (seed 000: the old Wikipedia text on the Irish
game; 001: Wikipedia's Forty-fives; 002: 52pickup; 003: a club's rules sheet) and the texts the
rule book names (Bicycle, Barker, jord.ca). Each test's docstring quotes the text it follows.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.auction import Auction, AuctionError, auction_hand_points
from engine.cards import Card, Suit, parse_cards
from engine.deal import (
    DealError,
    ace_is_low,
    announce_ace,
    deal_from_pack,
    dealer_discard,
    discard_and_draw,
    name_trump,
    take_kitty,
)
from engine.game import HandLine, end_of_hand
from engine.play import legal_plays, score_hand, trick_winner
from engine.rules import SWITCHES, Ruleset, RulesetError, get_ruleset, make_ruleset
from engine.scores import check_final_score, check_score_sheet, legal_final_scores
from engine.simulate import simulate_game

S, H, C, D = Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS
CB = get_ruleset("cape-breton-45")
AUCTION = get_ruleset("auction-120")
P = None


def legal(hand: str, trick: str, trump: Suit, rules: Ruleset, **kw: bool) -> set[str]:
    cards = legal_plays(parse_cards(hand), parse_cards(trick), trump, rules, **kw)
    return {str(c) for c in cards}


# --- the ruleset ----------------------------------------------------------------------------------


def test_every_switch_round_trips_and_has_its_default() -> None:
    """docs/rules.md §3, §5, §6: each switch by its name, with the default the rule book gives."""
    cb = CB.to_dict()
    assert (cb["hearts_on_ace_lead"], cb["renege"], cb["equal_totals"]) == (
        True,
        "top-trumps",
        "non-dealer",
    )
    assert (cb["turned_ace"], cb["unannounced_ace_lowest"]) == ("must-take", False)
    auction = AUCTION.to_dict()
    assert auction["rebid_after_hold"] and auction["first_lead"] == "bidder"
    assert (auction["min_bid"], auction["dealer_min_hold"], auction["kitty"]) == (15, 15, 0)
    assert auction["floor"] is None and not auction["min_bid_from_100"]
    assert auction["thirty_set_loses"] == 30
    assert set(SWITCHES) <= set(cb)
    busy = make_ruleset(
        "auction-120",
        thirty_for_sixty=True,
        thirty_set_loses=60,
        first_lead="left-of-bidder",
        min_bid_from_100=True,
        dealer_min_hold=20,
        kitty=4,
        floor=-125,
        hearts_on_ace_lead=False,
        renege="five-only",
    )
    assert Ruleset.from_dict(busy.to_dict()) == busy


@pytest.mark.parametrize(
    ("base", "options", "code"),
    [
        ("cape-breton-45", {"rebid_after_hold": True}, "auction_option"),
        ("cape-breton-45", {"kitty": 3}, "auction_option"),
        ("cape-breton-45", {"floor": -125}, "auction_option"),
        ("cape-breton-45", {"min_bid": 20}, "auction_option"),
        ("cape-breton-45", {"first_lead": "left-of-bidder"}, "auction_option"),
        ("auction-120", {"equal_totals": "play-on"}, "not_in_auction"),
        ("auction-120", {"turned_ace": "may-take"}, "not_in_auction"),
        ("auction-120", {"unannounced_ace_lowest": True}, "not_in_auction"),
        ("auction-120", {"thirty_set_loses": 60}, "needs_thirty_for_sixty"),
        ("auction-120", {"renege": "some"}, "bad_option"),
        ("auction-120", {"kitty": 5}, "bad_option"),
        ("auction-120", {"min_bid": 30}, "bad_option"),
        ("auction-120", {"floor": 10}, "bad_floor"),
        ("auction-120", {"floor": -127}, "bad_floor"),
        ("auction-120", {"floor": "low"}, "bad_option"),
        ("auction-120", {"min_bid": True}, "bad_option"),
        ("auction-120", {"min_bid": 20, "min_bid_from_100": True}, "min_bid_from_100"),
        (
            "auction-120",
            {"dealer_cannot_hold": True, "rebid_after_hold": True},
            "dealer_cannot_hold",
        ),
        ("auction-120", {"dealer_cannot_hold": True, "dealer_min_hold": 20}, "dealer_cannot_hold"),
    ],
)
def test_a_switch_that_makes_no_sense_is_refused(
    base: str, options: dict[str, object], code: str
) -> None:
    with pytest.raises(RulesetError) as info:
        make_ruleset(base, **options)
    assert info.value.code == code and info.value.message


def test_the_irish_preset_follows_its_sources() -> None:
    """Seed 000: "ten points are earned if one of the top four cards are played"; "the only
    time in which a player may choose not to follow suit is when he has the 5 of the trump
    suit"; red off-suits "A, K, Q, J, 10", black "A, K, Q, J, 2"."""
    irish = get_ruleset("irish-45-joker")
    assert (irish.bonus, irish.renege, irish.offsuit_aces_high) == ("top-four", "five-only", True)
    # The J of trumps must follow a low trump led; the 5 may stay back.
    assert legal("JS KD", "4S", S, irish) == {"JS"}
    assert legal("5S KD", "4S", S, irish) == {"5S", "KD"}
    # An off-suit ace takes the king.
    assert trick_winner(parse_cards("KD AD 2D QD"), S, irish) == 1
    # No top-four trump played: 25 points in the hand.
    hand = [parse_cards(t) for t in ("KS 2D 3D 4D", "QS 5C 6C 7C", "2S 8C 9C 10C", "3S 2H 3H 4H")]
    hand.append(parse_cards("4S 5H 6H 7H"))
    assert score_hand(hand, [0, 1, 0, 1, 0], S, irish).total == 25


# --- play -----------------------------------------------------------------------------------------


def test_hearts_on_the_ace_lead() -> None:
    """Seed 001 (Wikipedia, "one version"): "If the ace of hearts is led ... If they have no
    trump (and trump is not hearts) they must play a heart if there is one in hand." Bicycle,
    Peel, Barker and Britannica have no such rule (docs/rules.md §3)."""
    assert legal("KH 9C", "AH", S, CB) == {"KH"}
    off = make_ruleset(hearts_on_ace_lead=False)
    assert legal("KH 9C", "AH", S, off) == {"KH", "9C"}
    assert legal("KS KH 9C", "AH", S, off) == {"KS"}  # a trump still follows the A♥


@pytest.mark.parametrize(
    ("renege", "hand", "expected"),
    [
        ("top-trumps", "JS KD", {"JS", "KD"}),
        ("top-trumps", "5S KD", {"5S", "KD"}),
        ("five-only", "JS KD", {"JS"}),
        ("five-only", "5S KD", {"5S", "KD"}),
        ("none", "5S KD", {"5S"}),
    ],
)
def test_who_may_renege(renege: str, hand: str, expected: set[str]) -> None:
    """Seed 003: "the only trump card he has is the five, jack or ace of hearts" may be held
    back (top-trumps); seed 000: only "the 5 of the trump suit" (five-only); none: every trump
    follows a trump lead."""
    assert legal(hand, "4S", S, make_ruleset(renege=renege)) == expected


def test_unannounced_ace_is_the_lowest_trump() -> None:
    """52pickup (seed 002): "simply keep the Ace and declare it. Be sure to declare it, or it
    will become the weakest Trump." Bicycle has the same."""
    rules = make_ruleset(unannounced_ace_lowest=True)
    trick = parse_cards("AS 2S")
    assert trick_winner(trick, S, rules) == 0
    assert trick_winner(trick, S, rules, ace_low=True) == 1
    pack = _pack_with(seat_cards={1: "AS KD QD JD 10D"}, turn_up="3S")
    deal = deal_from_pack(pack, rules, dealer=0)
    assert deal.robber == 1 and ace_is_low(deal, rules)
    assert not ace_is_low(announce_ace(deal, 1), rules)
    assert not ace_is_low(deal, CB)  # the switch off: the ace keeps its rank
    with pytest.raises(DealError) as info:
        announce_ace(deal, 2)
    assert info.value.code == "not_entitled_to_rob"


def test_turned_ace_must_or_may_be_taken() -> None:
    """Seed 001 (Wikipedia): "the dealer must immediately claim the ace by discarding one of
    his dealt cards" (must-take); Bicycle lets the dealer decline it (may-take)."""
    pack = _pack_with(seat_cards={0: "2C 3C 4C 6C 7C"}, turn_up="AD")
    deal = deal_from_pack(pack, CB, dealer=0)
    ace = Card.parse("AD")
    with pytest.raises(DealError) as info:
        dealer_discard(deal, ace, CB)
    assert info.value.code == "must_keep_turned_ace"
    kept = dealer_discard(deal, Card.parse("2C"), CB)
    assert ace in kept.hands[0]
    declined = dealer_discard(deal, ace, make_ruleset(turned_ace="may-take"))
    assert ace not in declined.hands[0] and len(declined.hands[0]) == 5


# --- the auction ----------------------------------------------------------------------------------


def _auction(rules: Ruleset, dealer: int, calls: list[int | None], totals=(0, 0)) -> Auction:
    auction = Auction(dealer, rules, totals)
    for amount in calls:
        seat = auction.to_bid
        assert seat is not None, auction
        auction.bid(seat, amount)
    return auction


def test_rebid_after_hold_goes_on_until_one_passes() -> None:
    """Bicycle, Barker, jord.ca and Wikipedia's 110 (seed 001): the dealer "can appropriate
    (match) the highest bid and force the other players to either raise his bid or pass"."""
    # Dealer 3; seat 0 bids 20, the dealer holds 20, seat 0 raises to 25, the dealer holds 25,
    # seat 0 passes: the dealer has it at 25.
    auction = _auction(AUCTION, 3, [20, P, P, 20])
    assert auction.to_bid == 0 and auction.legal_bids() == [25, 30]
    auction.bid(0, 25)
    assert auction.to_bid == 3 and auction.legal_bids() == [25]
    with pytest.raises(AuctionError):
        auction.bid(3, 30)  # the dealer holds or passes
    auction.bid(3, 25)
    auction.bid(0, P)
    assert auction.result == (3, 25, "held")
    # The dealer lets the raise go: the raiser has it.
    assert _auction(AUCTION, 3, [20, P, P, 20, 25, P]).result == (0, 25, "bid")
    # 30 held: nothing to raise to, the bidding is over.
    assert _auction(AUCTION, 3, [30, P, P, 30]).result == (3, 30, "held")
    # Off: the hold ends the bidding.
    once = make_ruleset("auction-120", rebid_after_hold=False)
    assert _auction(once, 3, [20, P, P, 20]).result == (3, 20, "held")


def test_the_lowest_bids() -> None:
    """Bicycle: a side on 100 or more may not bid below 20 (min_bid_from_100); some halls bid
    20 at least (min_bid); seed 001: "Dealer cannot hold until the bid is at least 20"."""
    twenty = make_ruleset("auction-120", min_bid=20)
    assert Auction(0, twenty).legal_bids() == [20, 25, 30]
    assert _auction(twenty, 0, [P, P, P, P]).result == (0, 20, "bagged")
    from_100 = make_ruleset("auction-120", min_bid_from_100=True)
    assert Auction(0, from_100, (105, 40)).legal_bids() == [15, 20, 25, 30]  # seat 1: side 1
    assert Auction(3, from_100, (105, 40)).legal_bids() == [20, 25, 30]  # seat 0: side 0
    hold = make_ruleset("auction-120", dealer_min_hold=20)
    auction = _auction(hold, 0, [15, P, P])
    assert auction.legal_bids() == [20, 25, 30]
    with pytest.raises(AuctionError) as info:
        auction.bid(0, 15)
    assert info.value.code == "dealer_cannot_hold"


def test_thirty_for_sixty_set_costs_thirty_or_sixty() -> None:
    """Bicycle: "worth 60 if it is made, and it loses 30 if it fails"; Wikipedia: "only go
    down 30"; the seed's older Wikipedia text: "If they are set, they lose 60"."""
    thirty = make_ruleset("auction-120", thirty_for_sixty=True)
    sixty = make_ruleset("auction-120", thirty_for_sixty=True, thirty_set_loses=60)
    assert auction_hand_points((30, 0), 0, 30, (0, 0), thirty) == (60, 0)
    assert auction_hand_points((25, 5), 0, 30, (0, 0), thirty) == (-30, 5)
    assert auction_hand_points((25, 5), 0, 30, (0, 0), sixty) == (-60, 5)
    assert check_score_sheet([HandLine((-30, 5), bidder=0, bid=30)], thirty).code == (
        "game_not_finished"
    )
    assert check_score_sheet([HandLine((-60, 5), bidder=0, bid=30)], thirty).code == (
        "bad_auction_points"
    )


def test_kitty_then_discard_and_draw() -> None:
    """Seed 001: "three cards are dealt to the kitty after each player has their first three
    cards"; the bidder "adds the kitty to their hand. Players then discard any unwanted cards";
    "the dealer replenishes each player's hand so that all players have five cards"."""
    rules = make_ruleset("auction-120", kitty=3)
    deal = deal_from_pack(_shuffled(rules), rules, dealer=0)
    assert len(deal.kitty) == 3 and all(len(h) == 5 for h in deal.hands)
    assert len(deal.stock) == 52 - 20 - 3
    deal = take_kitty(name_trump(deal, 1, H), 1)
    assert len(deal.hands[1]) == 8 and not deal.kitty
    with pytest.raises(DealError) as info:
        discard_and_draw(deal, 1, deal.hands[1][:2])
    assert info.value.code == "keeps_too_many"
    deal = discard_and_draw(deal, 1, deal.hands[1][:4])
    deal = discard_and_draw(deal, 2, deal.hands[2][:3])
    assert len(deal.hands[1]) == 5 and len(deal.hands[2]) == 5
    assert len(deal.stock) == 52 - 20 - 3 - 1 - 3


def test_first_lead_by_the_bidder_or_his_left() -> None:
    """Bicycle and Barker: the bidder leads, or (seed 001, 110) "the winning bidder has the
    option of ... requiring the player to his left to play first"."""
    for first_lead in ("bidder", "left-of-bidder"):
        rules = make_ruleset("auction-120", first_lead=first_lead)
        game = simulate_game(rules, random.Random(3), check=True)
        for detail in game.hands:
            bidder = detail.auction.seat
            lead = bidder if first_lead == "bidder" else (bidder + 1) % 4
            assert detail.leaders[0] == lead


def test_floor_a_side_that_far_down_loses() -> None:
    """Seed 001 (110): "Scores can reduce below zero, it is common to set a cut off point
    (often minus 80) at which a player is removed from the game"; the rule book: −125."""
    rules = make_ruleset("auction-120", floor=-125)
    after, winner = end_of_hand((-100, 60), HandLine((-25, 10), bidder=0, bid=25), rules)
    assert after == (-125, 70) and winner == 1
    assert check_final_score(70, -125, rules).status == "ok"
    assert check_final_score(70, -125, AUCTION).code == "winner_below_target"
    assert check_final_score(70, -130, rules).status == "ok"  # -100, then a set 30
    assert check_final_score(70, -160, rules).status == "impossible"  # stopped at -125 before


# --- the end of a game ----------------------------------------------------------------------------


def test_equal_totals_play_on() -> None:
    """docs/rules.md §5: some clubs play another hand on an exact tie at 45 or more; then 65–55,
    70–50 and 75–45 end games. Default: the couple first clockwise from the dealer wins."""
    for score in ((65, 55), (70, 50), (75, 45)):
        assert check_final_score(*score, CB).status == "impossible"
        assert check_final_score(*score, make_ruleset(equal_totals="play-on")).status == "ok"
    play_on = make_ruleset(equal_totals="play-on")
    tie = check_final_score(45, 45, play_on)
    assert (tie.status, tie.code) == ("impossible", "tie_played_on")
    assert tie.message == (
        "45–45: a tie at 45 or more is not the end of a game under these rules; another hand "
        "is played until one couple is ahead."
    )
    assert check_final_score(60, 60, play_on).code == "tie_played_on"
    assert check_final_score(45, 45, CB).status == "ok"
    # Tied again and again: 60-60, 75-75, 90-90, 105-105, then 125-115.
    assert check_final_score(125, 115, play_on).status == "ok"
    assert check_final_score(125, 120, play_on).status == "unusual"
    assert check_final_score(130, 110, play_on).status == "ok"
    assert check_final_score(135, 110, play_on).status == "unusual"  # 110-110, then 25-0
    assert check_final_score(140, 105, play_on).status == "impossible"
    sheet = [HandLine(p, dealer=0) for p in ((15, 15), (15, 15), (15, 15), (20, 10))]
    assert check_score_sheet(sheet, play_on).status == "ok"
    assert check_score_sheet(sheet, CB).code == "hand_after_game_won"


# --- properties: simulated games and the verdicts agree -------------------------------------------

COMBOS = st.one_of(
    st.fixed_dictionaries(
        {
            "base": st.sampled_from(["cape-breton-45", "irish-45-joker"]),
            "hearts_on_ace_lead": st.booleans(),
            "renege": st.sampled_from(["top-trumps", "five-only", "none"]),
            "equal_totals": st.sampled_from(["non-dealer", "play-on"]),
            "turned_ace": st.sampled_from(["must-take", "may-take"]),
            "unannounced_ace_lowest": st.booleans(),
        }
    ),
    st.fixed_dictionaries(
        {
            "base": st.just("auction-120"),
            "hearts_on_ace_lead": st.booleans(),
            "renege": st.sampled_from(["top-trumps", "five-only", "none"]),
            "rebid_after_hold": st.booleans(),
            "thirty_for_sixty": st.booleans(),
            "first_lead": st.sampled_from(["bidder", "left-of-bidder"]),
            "min_bid": st.sampled_from([15, 20]),
            "dealer_min_hold": st.sampled_from([15, 20]),
            "kitty": st.sampled_from([0, 3, 4]),
            "floor": st.sampled_from([None, -125, -50]),
            "must_bid_to_go_out": st.booleans(),
        }
    ),
)


def _rules(combo: dict[str, object]) -> Ruleset:
    options = dict(combo)
    base = str(options.pop("base"))
    if options.get("min_bid") == 20:
        options["min_bid_from_100"] = False
    return make_ruleset(base, **options)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(combo=COMBOS, seed=st.integers(0, 2**32 - 1))
def test_every_simulated_final_score_is_accepted(combo: dict[str, object], seed: int) -> None:
    """Every game the simulator plays under the switches (every card checked against the
    rules) ends on a score the verdicts accept, and its score sheet is accepted too."""
    rules = _rules(combo)
    rng = random.Random(seed)
    for bot in ("heuristic", "random"):
        game = simulate_game(rules, rng, bot=bot, check=True)
        verdict = check_final_score(game.winner_points, game.loser_points, rules)
        assert verdict.accepted, (game.final, game.winner, verdict)
        sheet = check_score_sheet(game.lines, rules, final=game.final, winner=game.winner)
        assert sheet.accepted, ([line.points for line in game.lines], sheet)


def _reached_with(lines: set[HandLine], rules: Ruleset, cap: int) -> set[tuple[int, int]]:
    """The (winner, loser) final scores games reach by any sequence of the hands seen."""
    finals: set[tuple[int, int]] = set()
    seen = {(0, 0)}
    frontier = [(0, 0)]
    while frontier:
        following = []
        for state in frontier:
            for line in lines:
                after, winner = end_of_hand(state, line, rules)
                if winner is not None:
                    finals.add((after[winner], after[1 - winner]))
                elif after not in seen and max(after) <= cap:
                    seen.add(after)
                    following.append(after)
        frontier = following
    return finals


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"equal_totals": "play-on"},
        {"renege": "none", "hearts_on_ace_lead": False, "unannounced_ace_lowest": True},
        {"base": "irish-45-joker"},
    ],
)
def test_every_ok_score_is_reached_by_simulated_hands(options: dict[str, object]) -> None:
    """The other way round: every final score the verdicts call "ok" is reached by a game
    made of hands the simulator really played (points per side and the dealer's side)."""
    options = dict(options)
    base = str(options.pop("base", "cape-breton-45"))
    rules = make_ruleset(base, **options)
    rng = random.Random(20)
    lines: set[HandLine] = set()
    for _ in range(300):  # hands with a trump only: "ok" scores need no trumpless hand
        game = simulate_game(rules, rng, bot="random")
        for line, detail in zip(game.lines, game.hands, strict=True):
            if detail.score.trump_played:
                lines.add(line)
    ok = set(legal_final_scores(rules))
    reached = _reached_with(lines, rules, cap=rules.target + 45)
    assert ok <= reached, sorted(ok - reached)
    assert all(check_final_score(w, loser, rules).accepted for w, loser in reached)


def _pack_with(*, seat_cards: dict[int, str], turn_up: str, dealer: int = 0) -> list[Card]:
    """A pack that deals ``seat_cards`` (dealer 0) and turns ``turn_up``."""
    from engine.cards import full_pack

    wanted = {seat: parse_cards(text) for seat, text in seat_cards.items()}
    turned = Card.parse(turn_up)
    used = {c for cards in wanted.values() for c in cards} | {turned}
    rest = [c for c in full_pack() if c not in used]
    hands = {seat: list(wanted.get(seat, [])) for seat in range(4)}
    for seat in range(4):
        while len(hands[seat]) < 5:
            hands[seat].append(rest.pop(0))
    pack: list[Card] = []
    for size, start in ((3, 0), (2, 3)):
        for i in range(1, 5):
            pack.extend(hands[(dealer + i) % 4][start : start + size])
    return [*pack, turned, *rest]


def _shuffled(rules: Ruleset) -> list[Card]:
    from engine.cards import full_pack

    pack = full_pack(joker=rules.joker)
    random.Random(7).shuffle(pack)
    return pack


def _auction_reached(lines: set[HandLine], rules: Ruleset, low: int) -> set[tuple[int, int]]:
    finals: set[tuple[int, int]] = set()
    seen = {(0, 0)}
    frontier = [(0, 0)]
    while frontier:
        following = []
        for state in frontier:
            for line in lines:
                after, winner = end_of_hand(state, line, rules)
                if winner is not None:
                    finals.add((after[winner], after[1 - winner]))
                elif after not in seen and min(after) >= low:
                    seen.add(after)
                    following.append(after)
        frontier = following
    return finals


@pytest.mark.parametrize(
    "options",
    [{}, {"thirty_for_sixty": True, "floor": -60}, {"min_bid": 20, "first_lead": "left-of-bidder"}],
)
def test_every_ok_auction_score_is_reached_by_simulated_hands(options: dict[str, object]) -> None:
    """Auction scores have no lower bound: every final score down to −60 that the verdicts
    call "ok" is reached by a game made of hands the simulator really played."""
    rules = make_ruleset("auction-120", **options)
    rng = random.Random(21)
    lines: set[HandLine] = set()
    for i in range(400):
        game = simulate_game(rules, rng, bot="heuristic" if i % 2 else "random")
        for line, detail in zip(game.lines, game.hands, strict=True):
            if detail.score.trump_played:
                lines.add(HandLine(line.points, bidder=line.bidder, bid=line.bid))
    reached = _auction_reached(lines, rules, low=-60)
    ok = {
        (w, loser)
        for w in range(120, 185, 5)
        for loser in range(-60, 120, 5)
        if check_final_score(w, loser, rules).status == "ok"
    }
    assert ok <= reached, sorted(ok - reached)
    assert all(check_final_score(w, loser, rules).accepted for w, loser in reached)


def test_the_beginner_and_three_handed_scoring_know_the_ace_is_lowest() -> None:
    """A trump led (the 2♥): a beginner holding the A♥ played as the lowest trump must follow
    with it (it is no top trump to keep back); three-handed, the bonus goes with the 2♥ (the ace's
    trick otherwise)."""
    from engine.beginner import BeginnerBot
    from engine.bots import PlayState
    from engine.individual import score_individual

    rules = make_ruleset(unannounced_ace_lowest=True)
    hearts = Suit.parse("H")
    hand = parse_cards("AH 3C")
    trick = parse_cards("2H")
    bot = BeginnerBot(random.Random(0))
    low = PlayState(1, dealer=0, leader=0, trick_number=0, played=set(), ace_low=True)
    high = PlayState(1, dealer=0, leader=0, trick_number=0, played=set())
    assert bot.decide(hand, trick, hearts, rules, low) == (Card.parse("AH"), "only_card")
    assert bot.decide(hand, trick, hearts, rules, high)[1] != "only_card"
    tricks = [
        parse_cards("2H 3S 3C"),
        parse_cards("AH 4S 4C"),
        *[parse_cards(f"{r}S {r}D {r}C") for r in (6, 7, 8)],
    ]
    winners = [0, 1, 1, 1, 1]
    assert score_individual(tricks, winners, hearts, rules, 3, ace_low=True).points[0] == 10
    assert score_individual(tricks, winners, hearts, rules, 3).points[0] == 5
