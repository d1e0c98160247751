"""The strong player: search over the cards it cannot see, with the sensible player's habits to
finish each imagined hand (determinized, or perfect-information, Monte Carlo).

Terms as in ``engine.bots``: the strong player answers the same questions (:class:`Bot`). Its
*view* (:class:`View`) is everything a player at the table may know when asked for a card: its
own hand, the trick so far, every finished trick with who led it, trump, the bidder and bid;
never another player's cards. A *sample* is one way the unseen cards could lie among the
other players that agrees with the view: each holds as many cards as he has left, and none of a
suit he has shown he lacks (he did not follow it when he had to). A *rollout* plays a sample
out to the end of the hand, every seat by ``bots.HeuristicBot``'s rules of thumb.

For a card it tries each legal card on the same samples and plays the one with the best
average outcome (its side's points less the other side's; in auction the bidder's points made
or lost; each for themselves, its points less the best other player's). In auction it bids by
playing its hand out with each suit as trump on sampled deals and bids as high as the average
outcome of making the bid stays worth it; it names the suit that did best. It robs, discards
and draws as the sensible player, and always announces the ace of trumps.

Everything random comes from the ``random.Random`` it is given, and the work is counted in
samples and rollouts, never in time: the same view and the same random state give the same
answer. This module plays no whole hand (``simulate`` does).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.auction import Auction, auction_hand_points
from engine.bots import TRUMP, HeuristicBot, PlayState, draw_discards
from engine.cards import ACE_OF_HEARTS, SUITS, Card, Ordering, Suit, full_pack, ordering
from engine.play import BONUS_POINTS, TRICK_POINTS, bonus_trick_of, legal_plays, score_hand
from engine.rules import Ruleset

__all__ = [
    "BID_SAMPLES",
    "ROLLOUTS",
    "STRONG_REASONS",
    "Choice",
    "StrongBot",
    "View",
    "sample_hands",
    "view_of",
]

#: Rollouts for one card, shared among its legal cards (at least :data:`MIN_SAMPLES` each).
ROLLOUTS: Final = 240
MIN_SAMPLES: Final = 20
#: Sampled deals on which a bid (every suit as trump) is played out.
BID_SAMPLES: Final = 20
#: A bid is made while its average outcome is at least this (points made less points lost).
BID_MARGIN: Final = 0.0
#: What taking all five tricks is worth on top of the points when it wins the game at once.
JINK_VALUE: Final = 60
HAND_SIZE: Final = 5
_SAMPLING_TRIES: Final = 20

#: Why the strong player chose a card, a bid or a trump ("it …", as ``bots.REASONS``), with
#: the search's figures: ``samples`` the deals tried, ``takes`` tenths of them in which its
#: side took the trick, ``points`` its side's average points less the other side's (a card) or
#: its side's average points (a bid, a trump).
STRONG_REASONS: Final[dict[str, str]] = {
    "searched": "it tried each card it could play on {samples} likely deals of the cards it "
    "cannot see: this one did best, its side taking this trick {takes} times in 10 and "
    "finishing the hand {points} points ahead of the other side on average",
    "played_out": "it played its hand out on {samples} likely deals with {suit} trumps: its "
    "side took {points} points on average, so it bid {bid}",
    "played_out_pass": "it played its hand out on {samples} likely deals with {suit} trumps: "
    "its side took {points} points on average, not enough to bid {lowest}",
    "best_played_out": "its side took the most points with {suit} trumps: {points} on average "
    "over {samples} likely deals",
    # The hint for a learner's card: the strong player's choice, said to the learner.
    "hint_searched": "the strong player tried each card you may play on {samples} likely deals "
    "of the cards you cannot see, and this one did best: your side takes this trick {takes} "
    "times in 10 with it, and ends the hand {points} points ahead of the other side on average",
}


@dataclass(frozen=True, slots=True)
class View:
    """What the player in ``seat`` may know when asked for a card (see the module docstring).

    ``history`` holds each finished trick as (leader, cards in play order) and ``seen`` every
    card played in the hand so far (the finished tricks and ``trick``).
    """

    seat: int
    hand: tuple[Card, ...]
    trick: tuple[Card, ...]
    leader: int
    trump: Suit
    players: int
    partners: bool
    ace_low: bool
    dealer: int
    history: tuple[tuple[int, tuple[Card, ...]], ...]
    bidder: int | None
    bid: int | None
    seen: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal card as the search judged it: ``value`` the average outcome (points, see the
    module docstring), ``takes`` how often its side took the current trick, ``samples`` how
    many rollouts the figures are over."""

    card: Card
    value: float
    takes: float
    samples: int


def view_of(
    hand: Sequence[Card], trick: Sequence[Card], trump: Suit, rules: Ruleset, state: PlayState
) -> View:
    """The view of the player to play (``state.seat``): only what the arguments show."""
    history = tuple((leader, tuple(cards)) for leader, cards in state.history)
    seen: list[Card] = [c for _, cards in history for c in cards]
    shown = set(seen)
    seen.extend(c for c in sorted(state.played, key=_index) if c not in shown)
    seen.extend(trick)
    return View(
        seat=state.seat,
        hand=tuple(hand),
        trick=tuple(trick),
        leader=state.leader,
        trump=trump,
        players=state.players,
        partners=state.partners,
        ace_low=state.ace_low,
        dealer=state.dealer,
        history=history,
        bidder=state.bidder,
        bid=state.bid,
        seen=tuple(seen),
    )


def _index(card: Card) -> int:
    return card.index


def _lacks(view: View, rules: Ruleset) -> list[set[Card]]:
    """For each seat, the cards it cannot hold: those of a suit it did not follow when it had
    to (a reneging trump excepted, which may have been held back)."""
    order = ordering(view.trump, rules, ace_low=view.ace_low)
    power, follow, trump = order.power, order.follow, view.trump
    pack = full_pack(joker=rules.joker)
    lacks: list[set[Card]] = [set() for _ in range(view.players)]
    tricks = [*view.history, (view.leader, view.trick)]
    for leader, cards in tricks:
        if not cards:
            continue
        led = cards[0]
        led_suit = follow[led.index]
        led_power = power[led.index]
        for i in range(1, len(cards)):
            card = cards[i]
            seat = (leader + i) % view.players
            if follow[card.index] is led_suit:
                continue
            if led_suit is not trump:
                if power[card.index] < TRUMP:  # neither followed nor trumped: none of the suit
                    lacks[seat].update(c for c in pack if follow[c.index] is led_suit)
                continue
            # A trump led and a non-trump played: no trump but one it may hold back.
            lacks[seat].update(
                c
                for c in pack
                if follow[c.index] is trump
                and not (c in order.reneging and power[c.index] >= led_power)
            )
            if (
                led is ACE_OF_HEARTS
                and trump is not Suit.HEARTS
                and rules.hearts_on_ace_lead
                and follow[card.index] is not Suit.HEARTS
            ):
                lacks[seat].update(c for c in pack if follow[c.index] is Suit.HEARTS)
    return lacks


def _unseen(view: View, rules: Ruleset) -> list[Card]:
    """The cards the player has not seen, in pack order."""
    known = set(view.hand) | set(view.seen)
    return [c for c in full_pack(joker=rules.joker) if c not in known]


def _needs(view: View) -> list[int]:
    """How many cards each seat holds now (the player's own count for himself)."""
    size = len(view.hand)
    needs = [size] * view.players
    for i in range(len(view.trick)):
        needs[(view.leader + i) % view.players] = size - 1
    return needs


def sample_hands(
    view: View, rules: Ruleset, rng: random.Random, lacks: list[set[Card]] | None = None
) -> list[list[Card]] | None:
    """One sample of every seat's hand agreeing with ``view`` (the player's own hand as it is),
    or ``None`` when no agreeing sample was found (a view no real hand can give)."""
    if lacks is None:
        lacks = _lacks(view, rules)
    pool = _unseen(view, rules)
    needs = _needs(view)
    others = [s for s in range(view.players) if s != view.seat]
    if sum(needs[s] for s in others) > len(pool):
        return None
    # The most constrained seats are dealt first so that a sample is rarely refused.
    others.sort(key=lambda s: (-len(lacks[s]), s))
    for tries in range(_SAMPLING_TRIES + 1):
        strict = tries < _SAMPLING_TRIES
        left = list(pool)
        hands: list[list[Card]] = [[] for _ in range(view.players)]
        hands[view.seat] = list(view.hand)
        for seat in others:
            allowed = [c for c in left if c not in lacks[seat]] if strict else left
            if len(allowed) < needs[seat]:
                break
            dealt = rng.sample(allowed, needs[seat])
            hands[seat] = dealt
            taken = set(dealt)
            left = [c for c in left if c not in taken]
        else:
            return hands
    return None


#: How much less likely a sample is for each card a player played that the sensible player
#: would not have played holding that sample's cards.
SURPRISE: Final = 0.3


def likelihood(view: View, hands: list[list[Card]], rules: Ruleset) -> float:
    """How well a sample explains the others' plays so far: :data:`SURPRISE` to the power of
    the cards played that the sensible player would not have played with the sample's cards
    (a player plays by habit more often than not)."""
    players = view.players
    trump = view.trump
    # Each seat's cards at the start of the hand: its sampled cards and all it played since.
    held = [list(h) for h in hands]
    tricks = [*view.history, (view.leader, view.trick)]
    for leader, cards in tricks:
        for i, card in enumerate(cards):
            held[(leader + i) % players].append(card)
    played: set[Card] = set()
    weight = 1.0
    for number, (leader, cards) in enumerate(tricks):
        state = PlayState(
            leader,
            dealer=view.dealer,
            leader=leader,
            trick_number=number,
            played=played,
            partners=view.partners,
            ace_low=view.ace_low,
            players=players,
        )
        for i, card in enumerate(cards):
            seat = (leader + i) % players
            hand = held[seat]
            if seat != view.seat:
                state.seat = seat
                if _POLICY.decide(hand, cards[:i], trump, rules, state)[0] is not card:
                    weight *= SURPRISE
            hand.remove(card)
        played.update(cards)
    return weight


def _winner(trick: Sequence[Card], order: Ordering) -> int:
    power, follow = order.power, order.follow
    led_suit = follow[trick[0].index]
    best, best_power = 0, power[trick[0].index]
    for i in range(1, len(trick)):
        p = power[trick[i].index]
        if p > best_power and (p >= TRUMP or follow[trick[i].index] is led_suit):
            best, best_power = i, p
    return best


_POLICY: Final = HeuristicBot(random.Random(0))  # deterministic: it never draws from its rng


def _rollout(view: View, hands: list[list[Card]], card: Card, rules: Ruleset) -> tuple[float, bool]:
    """Play ``card`` then the rest of the hand on ``hands`` (copied): (the outcome for the
    player, whether his side took the current trick)."""
    tricks, winners = _play_out(view, hands, card, rules)
    took = _same_side(view, winners[len(view.history)])
    return _outcome(view, tricks, winners, rules), took


def _play_out(
    view: View, hands: list[list[Card]], card: Card, rules: Ruleset
) -> tuple[list[tuple[Card, ...]], list[int]]:
    """Every trick of the hand (the finished ones, then ``card`` and the rest played by
    habit on ``hands``, copied) and the seat that took each."""
    players = view.players
    trump = view.trump
    order = ordering(trump, rules, ace_low=view.ace_low)
    held = [list(h) for h in hands]
    tricks: list[tuple[Card, ...]] = [cards for _, cards in view.history]
    winners: list[int] = [
        (leader + _winner(cards, order)) % players for leader, cards in view.history
    ]
    played = set(view.seen)
    leader = view.leader
    trick = list(view.trick)
    seat = view.seat
    held[seat].remove(card)
    trick.append(card)
    played.add(card)
    seat = (seat + 1) % players
    state = PlayState(
        seat,
        dealer=view.dealer,
        leader=leader,
        trick_number=len(tricks),
        played=played,
        partners=view.partners,
        ace_low=view.ace_low,
        players=players,
    )
    decide = _POLICY.decide
    while True:
        while len(trick) < players:
            state.seat = seat
            chosen = decide(held[seat], trick, trump, rules, state)[0]
            held[seat].remove(chosen)
            trick.append(chosen)
            played.add(chosen)
            seat = (seat + 1) % players
        winner = (leader + _winner(trick, order)) % players
        tricks.append(tuple(trick))
        winners.append(winner)
        if not held[winner]:
            break
        leader = seat = winner
        trick = []
        state.leader = leader
        state.trick_number = len(tricks)
    return tricks, winners


def _same_side(view: View, seat: int) -> bool:
    if view.partners:
        return seat % 2 == view.seat % 2
    return seat == view.seat


def _outcome(
    view: View, tricks: list[tuple[Card, ...]], winners: list[int], rules: Ruleset
) -> float:
    """The hand's outcome for the player (see the module docstring)."""
    if view.partners:
        score = score_hand(
            tricks, [w % 2 for w in winners], view.trump, rules, ace_low=view.ace_low
        )
        points = score.points
        if view.bidder is not None and view.bid is not None:
            points = auction_hand_points(points, view.bidder % 2, view.bid, (0, 0), rules)
        mine = view.seat % 2
        value = float(points[mine] - points[1 - mine])
        if rules.jink_wins_game and score.jink is not None and len(tricks) == HAND_SIZE:
            value += JINK_VALUE if score.jink == mine else -JINK_VALUE
        return value
    bonus, _ = bonus_trick_of(tricks, view.trump, rules, ace_low=view.ace_low)
    each = [0] * view.players
    for i, winner in enumerate(winners):
        each[winner] += TRICK_POINTS + (BONUS_POINTS if i == bonus else 0)
    mine = each[view.seat]
    return float(mine - max(p for s, p in enumerate(each) if s != view.seat))


class StrongBot:
    """The strong player (see the module docstring): ``rollouts`` per card decision and
    ``bid_samples`` per bid set how hard it thinks."""

    __slots__ = ("_named", "bid_samples", "judged", "rng", "rollouts")

    def __init__(
        self, rng: random.Random, *, rollouts: int = ROLLOUTS, bid_samples: int = BID_SAMPLES
    ) -> None:
        self.rng = rng
        self.rollouts = rollouts
        self.bid_samples = bid_samples
        self._named: dict[tuple[Card, ...], Suit] = {}
        #: The last bid or trump judged: (the suit, its side's average points, the samples).
        self.judged: tuple[Suit, float, int] | None = None

    # Card play -------------------------------------------------------------------------

    def choose_card(
        self,
        hand: Sequence[Card],
        trick: Sequence[Card],
        trump: Suit,
        rules: Ruleset,
        state: PlayState,
    ) -> Card:
        return self.decide(hand, trick, trump, rules, state)[0]

    def decide(
        self,
        hand: Sequence[Card],
        trick: Sequence[Card],
        trump: Suit,
        rules: Ruleset,
        state: PlayState,
    ) -> tuple[Card, list[Choice]]:
        """The card :meth:`choose_card` plays and how the search judged each legal card (best
        first; empty when only one card was legal or no sample agreed with the view)."""
        legal = legal_plays(hand, trick, trump, rules, ace_low=state.ace_low)
        if len(legal) == 1:
            return legal[0], []
        habit = _POLICY.decide(hand, trick, trump, rules, state)[0]
        view = view_of(hand, trick, trump, rules, state)
        choices = self.judge(view, legal, rules)
        if not choices:
            return habit, []
        best = choices[0]
        for choice in choices:  # on equal outcomes, the sensible player's card
            if choice.card is habit and choice.value >= best.value:
                best = choice
        return best.card, choices

    def judge(self, view: View, legal: Sequence[Card], rules: Ruleset) -> list[Choice]:
        """Each legal card tried on the same samples, best first (equal: hand order)."""
        lacks = _lacks(view, rules)
        samples = max(MIN_SAMPLES, self.rollouts // len(legal))
        totals = [0.0] * len(legal)
        takes = [0.0] * len(legal)
        done = 0
        weights = 0.0
        for _ in range(samples):
            hands = sample_hands(view, rules, self.rng, lacks)
            if hands is None:
                break
            done += 1
            weight = likelihood(view, hands, rules)
            weights += weight
            for i, card in enumerate(legal):
                value, took = _rollout(view, hands, card, rules)
                totals[i] += weight * value
                takes[i] += weight * took
        if not done:
            return []
        choices = [
            Choice(card, totals[i] / weights, takes[i] / weights, done)
            for i, card in enumerate(legal)
        ]
        order = sorted(range(len(legal)), key=lambda i: (-choices[i].value, i))
        return [choices[i] for i in order]

    # Before play -------------------------------------------------------------------------

    def choose_discard(self, hand: Sequence[Card], trump: Suit, rules: Ruleset) -> Card:
        return _POLICY.choose_discard(hand, trump, rules)

    def choose_rob(
        self, hand: Sequence[Card], turn_up: Card, trump: Suit, rules: Ruleset
    ) -> Card | None:
        return _POLICY.choose_rob(hand, turn_up, trump, rules)

    def choose_draw(self, hand: Sequence[Card], trump: Suit, rules: Ruleset) -> list[Card]:
        return draw_discards(hand, trump, rules)

    def announces(self) -> bool:
        """A player dealt the ace of trumps who does not rob always says so (unannounced, it
        would play as the lowest trump)."""
        return True

    def suit_values(
        self, hand: Sequence[Card], rules: Ruleset, seat: int, leader: int
    ) -> dict[Suit, list[int]]:
        """For each suit as trump, the points the player's side took on each of
        :attr:`bid_samples` sampled deals, played out from ``leader``'s lead."""
        own = tuple(hand)[:HAND_SIZE]
        pool = [c for c in full_pack(joker=rules.joker) if c not in set(own)]
        deals: list[list[list[Card]]] = []
        for _ in range(self.bid_samples):
            dealt = self.rng.sample(pool, HAND_SIZE * 3)
            hands: list[list[Card]] = []
            k = 0
            for s in range(4):
                if s == seat:
                    hands.append(list(own))
                else:
                    hands.append(dealt[k : k + HAND_SIZE])
                    k += HAND_SIZE
            deals.append(hands)
        taken: dict[Suit, list[int]] = {}
        for suit in SUITS:
            view = View(
                seat=seat,
                hand=own,
                trick=(),
                leader=leader,
                trump=suit,
                players=4,
                partners=True,
                ace_low=False,
                dealer=seat,
                history=(),
                bidder=None,
                bid=None,
                seen=(),
            )
            taken[suit] = [_side_points(view, hands, rules) for hands in deals]
        return taken

    def choose_bid(self, hand: Sequence[Card], auction: Auction, rules: Ruleset) -> int | None:
        legal = auction.legal_bids()
        seat = auction.to_bid
        if not legal or seat is None:
            return None
        leader = seat if rules.first_lead == "bidder" else (seat + 1) % 4
        values = self.suit_values(hand, rules, seat, leader)
        suit = max(SUITS, key=lambda s: (sum(values[s]), -SUITS.index(s)))
        self._named = {tuple(hand): suit}
        self.judged = (suit, sum(values[suit]) / len(values[suit]), len(values[suit]))
        chosen: int | None = None
        for bid in legal:
            outcomes = [_bid_outcome(points, bid, rules) for points in values[suit]]
            if sum(outcomes) / len(outcomes) >= BID_MARGIN:
                chosen = bid
        return chosen

    def choose_trump(self, hand: Sequence[Card], rules: Ruleset) -> Suit:
        named = self._named.get(tuple(hand))
        if named is not None:
            return named
        values = self.suit_values(hand, rules, 0, 0)
        suit = max(SUITS, key=lambda s: (sum(values[s]), -SUITS.index(s)))
        self.judged = (suit, sum(values[suit]) / len(values[suit]), len(values[suit]))
        return suit


def _side_points(view: View, hands: list[list[Card]], rules: Ruleset) -> int:
    """The points the player's side takes when every seat plays ``hands`` by habit."""
    first = hands[view.leader]
    card = _POLICY.decide(first, [], view.trump, rules, PlayState(view.leader, dealer=view.dealer))[
        0
    ]
    lead = View(
        seat=view.leader,
        hand=tuple(first),
        trick=(),
        leader=view.leader,
        trump=view.trump,
        players=4,
        partners=True,
        ace_low=False,
        dealer=view.dealer,
        history=(),
        bidder=None,
        bid=None,
        seen=(),
    )
    tricks, winners = _play_out(lead, hands, card, rules)
    score = score_hand(tricks, [w % 2 for w in winners], view.trump, rules)
    return score.points[view.seat % 2]


def _bid_outcome(taken: int, bid: int, rules: Ruleset) -> float:
    """What a bid of ``bid`` is worth to the bidder's side taking ``taken`` points, less what
    the defenders score."""
    points = auction_hand_points((taken, 0), 0, bid, (0, 0), rules)
    defenders = 30 - taken
    return float(points[0] - defenders)
