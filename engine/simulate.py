"""Seeded simulation: whole hands and games played by bots, reproducible from a seed.
The rules it plays: docs/rules.md §2–§6.

Terms: a *hand* is one deal and its five tricks; a *game* is hands until a side wins
(``game.end_of_hand`` decides); a *table game* is a game between two numbered couples at a
drive, the arriving couple (side 0, seats 0 and 2) dealing first. Seats are 0..3 clockwise,
side ``seat % 2``; the deal passes to the left after each hand.

Everything random (the shuffle and the bots' choices) comes from the one ``random.Random``
passed in, so a seed gives the same game every time. A hand goes: deal (``deal``); outside
auction the dealer discards for a turned ace or joker and the player dealt the ace of trumps
may rob (or announce the ace); in auction the bidding (``auction.Auction``, re-bidding after a
hold under ``rebid_after_hold``), then the bidder names trump, takes the kitty and everyone
draws (``kitty``), and the bidder or the player on his left leads (``first_lead``);
five tricks of legal plays; scoring by ``play.score_hand`` (and ``auction_hand_points``).

The simulator is the hot path of the engine's benchmarks, so the trick loop works on plain
lists and the :class:`~engine.cards.Ordering` tables rather than the friendlier functions of
``play``; a recorded :class:`HandDetail` lets tests re-check every play with
``play.check_play``. This module does not judge score sheets (``scores``) nor run a night's
movement.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from engine.auction import Auction, AuctionResult, auction_hand_points
from engine.bots import Bot, BotName, PlayState, draw_discards, make_bot
from engine.cards import Card, Suit, ordering
from engine.deal import (
    Deal,
    DealEvent,
    ace_is_low,
    announce_ace,
    deal_hand,
    dealer_discard,
    discard_and_draw,
    name_trump,
    rob,
    take_kitty,
)
from engine.game import GameRecord, HandLine, end_of_hand
from engine.play import HandScore, IllegalPlay, check_play, score_hand
from engine.rules import Ruleset

__all__ = [
    "MAX_HANDS",
    "HandDetail",
    "PlayHook",
    "SimulationError",
    "TableResult",
    "make_bots",
    "simulate_game",
    "simulate_hand",
    "simulate_table_game",
]

#: More hands than any game should need (a 45 game ends within four; auction games wander).
MAX_HANDS: Final = 1000
TRICKS: Final = 5

#: Called after each card is chosen and before it is played: (seat, card, hand, trick, trump).
PlayHook = Callable[[int, Card, Sequence[Card], Sequence[Card], Suit], None]


class SimulationError(RuntimeError):
    """A simulation that cannot go on: ``illegal_play`` (a bot broke a rule) or
    ``too_many_hands`` (a game that did not end within the hand cap)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class HandDetail:
    """Everything that happened in one simulated hand.

    ``deal`` is the deal as play began (after discards, robbing, trump named; its ``log`` says
    what happened); ``bids`` and ``auction`` the bidding (auction only); ``leaders[i]`` the seat
    that led trick ``i``, ``tricks[i]`` its cards in play order, ``winners[i]`` the seat that
    took it; ``score`` the trick points; ``points`` what each side scored (they differ from the
    trick points only in auction).
    """

    dealer: int
    trump: Suit
    deal: Deal
    leaders: tuple[int, ...]
    tricks: tuple[tuple[Card, ...], ...]
    winners: tuple[int, ...]
    score: HandScore
    points: tuple[int, int]
    bids: tuple[tuple[int, int | None], ...] = ()
    auction: AuctionResult | None = None

    @property
    def events(self) -> tuple[DealEvent, ...]:
        return self.deal.log


@dataclass(frozen=True, slots=True)
class TableResult:
    """A table game between couple ``stays`` and couple ``arrives`` (who dealt first).

    ``winner``/``loser`` are couple numbers, ``points`` the final (winner's, loser's) points,
    ``record`` the game with side 0 the arriving couple and side 1 the couple that stayed.
    """

    stays: int
    arrives: int
    winner: int
    loser: int
    points: tuple[int, int]
    record: GameRecord


def make_bots(bot: BotName | str | Sequence[Bot], rng: random.Random) -> tuple[Bot, ...]:
    """Four bots, one per seat: four of the named kind sharing ``rng``, or the four given."""
    if isinstance(bot, str):
        return tuple(make_bot(bot, rng) for _ in range(4))
    bots = tuple(bot)
    if len(bots) != 4:
        raise SimulationError("bad_bots", f"A hand needs four bots, not {len(bots)}.")
    return bots


def simulate_hand(
    rules: Ruleset,
    rng: random.Random,
    dealer: int,
    totals: tuple[int, int],
    bots: Sequence[Bot],
    *,
    check: bool = False,
    on_play: PlayHook | None = None,
) -> tuple[HandLine, HandDetail]:
    """Deal and play one hand; ``totals`` are the points before it (auction scoring needs them).

    With ``check`` every card is verified with ``play.check_play`` (a bot breaking a rule
    raises ``SimulationError('illegal_play')``); ``on_play`` is called before each card is
    played. Returns the score-sheet line (dealer's side, and bidder's side and bid in auction)
    and the :class:`HandDetail`.
    """
    deal = deal_hand(rng, rules, dealer)
    bids: tuple[tuple[int, int | None], ...] = ()
    result: AuctionResult | None = None
    if rules.auction:
        auction = Auction(dealer, rules, totals)
        while (seat_to_bid := auction.to_bid) is not None:
            hand = deal.hands[seat_to_bid]
            auction.bid(seat_to_bid, bots[seat_to_bid].choose_bid(hand, auction, rules))
        result = auction.result
        assert result is not None  # nobody left to speak: the auction is over
        bids = tuple(auction.bids)
        bidder = result.seat
        deal = name_trump(deal, bidder, bots[bidder].choose_trump(deal.hands[bidder], rules))
        if deal.kitty:
            deal = _kitty_and_draw(deal, bidder, bots, rules)
        leader = bidder if rules.first_lead == "bidder" else (bidder + 1) % 4
    else:
        trump = deal.trump
        assert trump is not None  # turned up
        while deal.owed:
            hand = deal.hands[dealer]
            turned = deal.turn_up
            if rules.turned_ace == "must-take" and turned is not None and turned.rank == 14:
                hand = tuple(c for c in hand if c is not turned)  # he keeps the turned ace
            discard = bots[dealer].choose_discard(hand, trump, rules)
            deal = dealer_discard(deal, discard, rules)
        robber = deal.robber
        if robber is not None and deal.turn_up is not None:
            discard_or_none = bots[robber].choose_rob(
                deal.hands[robber], deal.turn_up, trump, rules
            )
            if discard_or_none is not None:
                deal = rob(deal, robber, discard_or_none)
            elif rules.unannounced_ace_lowest and _announces(bots[robber]):
                deal = announce_ace(deal, robber)
        leader = (dealer + 1) % 4
    trump = deal.trump
    assert trump is not None
    ace_low = ace_is_low(deal, rules)

    leaders, tricks, winners, sides = _play(
        deal, leader, trump, rules, bots, result, check, on_play, ace_low
    )
    score = score_hand(tricks, sides, trump, rules, ace_low=ace_low)
    if result is None:
        points = score.points
        line = HandLine(points, dealer=dealer % 2)
    else:
        points = auction_hand_points(score.points, result.seat % 2, result.bid, totals, rules)
        line = HandLine(points, dealer=dealer % 2, bidder=result.seat % 2, bid=result.bid)
    detail = HandDetail(
        dealer=dealer,
        trump=trump,
        deal=deal,
        leaders=leaders,
        tricks=tricks,
        winners=winners,
        score=score,
        points=points,
        bids=bids,
        auction=result,
    )
    return line, detail


def _announces(bot: Bot) -> bool:
    """Whether the bot dealt the ace of trumps, not robbing, says so (bots without an
    ``announces`` answer always do)."""
    announces = getattr(bot, "announces", None)
    return True if announces is None else bool(announces())


def _kitty_and_draw(deal: Deal, bidder: int, bots: Sequence[Bot], rules: Ruleset) -> Deal:
    """The bidder takes the kitty; then each player from the dealer's left throws away and is
    dealt back up to five (bots without a ``choose_draw`` answer throw as the heuristic)."""
    trump = deal.trump
    assert trump is not None
    deal = take_kitty(deal, bidder)
    for i in range(1, 5):
        seat = (deal.dealer + i) % 4
        hand = deal.hands[seat]
        chooser = getattr(bots[seat], "choose_draw", None)
        discards = (
            chooser(hand, trump, rules)
            if chooser is not None
            else draw_discards(hand, trump, rules)
        )
        deal = discard_and_draw(deal, seat, discards)
    return deal


def _play(
    deal: Deal,
    leader: int,
    trump: Suit,
    rules: Ruleset,
    bots: Sequence[Bot],
    result: AuctionResult | None,
    check: bool,
    on_play: PlayHook | None,
    ace_low: bool = False,
) -> tuple[tuple[int, ...], tuple[tuple[Card, ...], ...], tuple[int, ...], list[int]]:
    """The five tricks: (leaders, tricks, winning seats, winning sides)."""
    order = ordering(trump, rules, ace_low=ace_low)
    power = order.power
    follow = order.follow
    hands = [list(h) for h in deal.hands]
    played: set[Card] = set()
    taken = [0, 0]
    state = PlayState(
        leader,
        dealer=deal.dealer,
        leader=leader,
        played=played,
        tricks=taken,
        bidder=None if result is None else result.seat,
        ace_low=ace_low,
        bid=None if result is None else result.bid,
    )
    history = state.history
    leaders: list[int] = []
    tricks: list[tuple[Card, ...]] = []
    winners: list[int] = []
    sides: list[int] = []
    choosers = [bot.choose_card for bot in bots]
    for number in range(TRICKS):
        state.leader = leader
        state.trick_number = number
        trick: list[Card] = []
        seat = leader
        for _ in range(4):
            state.seat = seat
            hand = hands[seat]
            card = choosers[seat](hand, trick, trump, rules, state)
            if on_play is not None:
                on_play(seat, card, hand, trick, trump)
            if check:
                _check(card, hand, trick, trump, rules, seat, ace_low)
            elif card not in hand:
                raise SimulationError("illegal_play", f"Seat {seat} played {card}, not in hand.")
            hand.remove(card)
            trick.append(card)
            seat = (seat + 1) & 3
        # The trick's winner, as play.trick_winner, inlined: this loop runs 20 times a hand.
        led_suit = follow[trick[0].index]
        best = 0
        best_power = power[trick[0].index]
        for i in (1, 2, 3):
            p = power[trick[i].index]
            if p > best_power and (p >= 100 or follow[trick[i].index] is led_suit):
                best, best_power = i, p
        winner = (leader + best) & 3
        side = winner & 1
        taken[side] += 1
        played.update(trick)
        history.append((leader, tuple(trick)))
        leaders.append(leader)
        tricks.append(tuple(trick))
        winners.append(winner)
        sides.append(side)
        leader = winner
    return tuple(leaders), tuple(tricks), tuple(winners), sides


def _check(
    card: Card,
    hand: list[Card],
    trick: list[Card],
    trump: Suit,
    rules: Ruleset,
    seat: int,
    ace_low: bool = False,
) -> None:
    try:
        check_play(card, hand, trick, trump, rules, ace_low=ace_low)
    except IllegalPlay as problem:
        raise SimulationError(
            "illegal_play", f"Seat {seat} played {card}: {problem.message} ({problem.code})"
        ) from problem


def simulate_game(
    rules: Ruleset,
    rng: random.Random,
    *,
    bot: BotName | str | Sequence[Bot] = "heuristic",
    first_dealer: int = 0,
    max_hands: int = MAX_HANDS,
    check: bool = False,
    on_play: PlayHook | None = None,
) -> GameRecord:
    """Play hands until ``game.end_of_hand`` ends the game; the deal passes left each hand.

    ``bot`` names the kind of bot in all four seats (``heuristic`` or ``random``) or gives the
    four bots. The record's ``hands`` are the :class:`HandDetail` of each hand. Raises
    ``SimulationError('too_many_hands')`` after ``max_hands`` hands without a winner.
    """
    bots = make_bots(bot, rng)
    totals = (0, 0)
    dealer = first_dealer
    lines: list[HandLine] = []
    details: list[HandDetail] = []
    for _ in range(max_hands):
        line, detail = simulate_hand(rules, rng, dealer, totals, bots, check=check, on_play=on_play)
        lines.append(line)
        details.append(detail)
        totals, winner = end_of_hand(totals, line, rules)
        if winner is not None:
            if winner < 0:  # cannot happen: every line carries the dealer's side
                raise SimulationError("no_winner", "An equal score without a known dealer.")
            return GameRecord(tuple(lines), totals, winner, tuple(details))
        dealer = (dealer + 1) % 4
    raise SimulationError(
        "too_many_hands", f"No side had won after {max_hands} hands ({totals[0]}-{totals[1]})."
    )


def simulate_table_game(
    rules: Ruleset,
    rng: random.Random,
    stays: int,
    arrives: int,
    bot: BotName | str | Sequence[Bot] = "heuristic",
    *,
    max_hands: int = MAX_HANDS,
) -> TableResult:
    """A game between couple ``stays`` (side 1) and couple ``arrives`` (side 0, deals first)."""
    record = simulate_game(rules, rng, bot=bot, first_dealer=0, max_hands=max_hands)
    couples = (arrives, stays)
    return TableResult(
        stays=stays,
        arrives=arrives,
        winner=couples[record.winner],
        loser=couples[1 - record.winner],
        points=(record.winner_points, record.loser_points),
        record=record,
    )
