"""Playing a hand: which cards are legal, who takes a trick, and what a hand scores.

Terms: a *trick* is the cards played to it so far, in play order (the leader's card first).
*Sides* are 0 and 1: seats 0 and 2 are side 0, seats 1 and 3 side 1 (partners sit across).
A *top trump* is one that may renege: the 5 and J of trumps, the joker and the A♥.

This module does not deal, bid or keep a game's running score (see ``deal``, ``auction``,
``game``); it judges one play, one trick, one hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import ACE_OF_HEARTS, Card, CardError, Suit, ordering
from engine.rules import Ruleset

__all__ = [
    "TRICK_POINTS",
    "HandScore",
    "IllegalPlay",
    "bonus_trick_of",
    "check_play",
    "legal_plays",
    "score_hand",
    "trick_winner",
]

TRICK_POINTS = 5
BONUS_POINTS = 5


class IllegalPlay(ValueError):
    """A card that may not be played now; ``code`` names the rule broken."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def legal_plays(
    hand: Sequence[Card],
    trick: Sequence[Card],
    trump: Suit,
    rules: Ruleset,
    *,
    ace_low: bool = False,
) -> list[Card]:
    """The cards of ``hand`` that may be played to ``trick`` (docs/rules.md §3), in hand order.

    1. A non-trump suit led: follow it or trump; holding none of it, any card.
    2. A trump led: play a trump, except that a reneging trump (``rules.renege``: the 5, J,
       joker, A♥; only the 5; none) may be held back when the led trump ranks below it;
       holding only such trumps (or none), any card.
    3. The A♥ led when hearts are not trumps: as 2, then a heart if he holds one
       (``rules.hearts_on_ace_lead``).

    ``ace_low``: the ace of trumps plays as the lowest trump this hand (it was neither robbed
    with nor announced, under ``unannounced_ace_lowest``).
    """
    if not trick:
        return list(hand)
    order = ordering(trump, rules, ace_low=ace_low)
    power = order.power
    follow = order.follow
    led = trick[0]
    led_suit = follow[led.index]
    if led_suit is None:
        raise CardError("not_in_pack", f"{led} is not in this ruleset's pack.")
    if led_suit is not trump:
        following = [c for c in hand if follow[c.index] is led_suit or follow[c.index] is trump]
        if len(following) == sum(1 for c in following if follow[c.index] is trump):
            return list(hand)  # none of the led suit: anything goes
        return following
    led_power = power[led.index]
    top = order.reneging
    trumps = [c for c in hand if follow[c.index] is trump]
    if any(c not in top or power[c.index] < led_power for c in trumps):
        return trumps  # a trump he cannot hold back: he must play a trump
    if led is ACE_OF_HEARTS and trump is not Suit.HEARTS and rules.hearts_on_ace_lead:
        hearts = [c for c in hand if follow[c.index] is Suit.HEARTS]
        if hearts:
            return [c for c in hand if follow[c.index] is Suit.HEARTS or c in top]
    return list(hand)


def check_play(
    card: Card,
    hand: Sequence[Card],
    trick: Sequence[Card],
    trump: Suit,
    rules: Ruleset,
    *,
    ace_low: bool = False,
) -> None:
    """Raise :class:`IllegalPlay` with the rule broken if ``card`` may not be played."""
    if card not in hand:
        raise IllegalPlay("not_in_hand", f"{card} is not in the hand.")
    legal = legal_plays(hand, trick, trump, rules, ace_low=ace_low)
    if card in legal:
        return
    order = ordering(trump, rules, ace_low=ace_low)
    led = trick[0]
    if order.follow[led.index] is not trump:
        raise IllegalPlay("must_follow_suit", f"{led.suit} was led: play that suit or a trump.")
    # Rule 3 (hearts to the A♥) allowed a heart: a card refused then was neither heart nor trump.
    # Holding a trump he may not hold back, only a trump will do (rule 2).
    if any(not order.is_trump(c) for c in legal):
        raise IllegalPlay("must_follow_hearts", "The A♥ was led: play a trump or a heart.")
    raise IllegalPlay("must_follow_trump", f"{led} is a trump: a trump must be played.")


def trick_winner(
    trick: Sequence[Card], trump: Suit, rules: Ruleset, *, ace_low: bool = False
) -> int:
    """Index (in play order, leader 0) of the card that takes the trick.

    The highest trump wins; with no trump in the trick, the highest card of the suit led.
    """
    if not trick:
        raise IllegalPlay("empty_trick", "An empty trick has no winner.")
    order = ordering(trump, rules, ace_low=ace_low)
    power = order.power
    follow = order.follow
    led_suit = follow[trick[0].index]
    best = 0
    best_power = power[trick[0].index]
    for i in range(1, len(trick)):
        card = trick[i]
        p = power[card.index]
        if p > best_power and (p >= 100 or follow[card.index] is led_suit):
            best, best_power = i, p
    return best


@dataclass(frozen=True, slots=True)
class HandScore:
    """What a hand of five tricks scored.

    ``points`` and ``tricks`` are per side; ``bonus_trick`` is the index (0..4) of the trick
    that earned the extra 5, or None (then the hand totals 25); ``jink`` is the side that took
    all five tricks, if one did.
    """

    points: tuple[int, int]
    tricks: tuple[int, int]
    bonus_trick: int | None
    trump_played: bool
    jink: int | None

    @property
    def total(self) -> int:
        return self.points[0] + self.points[1]


def _earns_bonus(best: Card, trump: Suit, top: frozenset[Card], rules: Ruleset) -> bool:
    """Whether the best trump played in a hand earns its trick the bonus under ``rules``."""
    if rules.bonus == "five-of-trumps":
        return best.rank == 5 and best.suit is trump
    if rules.bonus == "top-four":
        return best in top
    return True


def bonus_trick_of(
    tricks: Sequence[Sequence[Card]], trump: Suit, rules: Ruleset, *, ace_low: bool = False
) -> tuple[int | None, Card | None]:
    """(the index of the trick that earns the bonus under ``rules.bonus``, or None; the best
    trump played in the hand, or None when no trump was played)."""
    order = ordering(trump, rules, ace_low=ace_low)
    power = order.power
    best_power = 0
    best_trick: int | None = None
    best_card: Card | None = None
    for i, trick in enumerate(tricks):
        for card in trick:
            p = power[card.index]
            if p >= 100 and p > best_power:
                best_power, best_trick, best_card = p, i, card
    if best_card is not None and not _earns_bonus(best_card, trump, order.top, rules):
        return None, best_card
    return best_trick, best_card


def score_hand(
    tricks: Sequence[Sequence[Card]],
    winners: Sequence[int],
    trump: Suit,
    rules: Ruleset,
    *,
    ace_low: bool = False,
) -> HandScore:
    """Score a hand: ``tricks`` holds each trick's cards, ``winners`` the side (0/1) taking it.

    5 points a trick; 5 more for the *bonus trick* chosen by ``rules.bonus``:
    ``best-trump`` the trick holding the highest trump played; ``five-of-trumps`` only the
    trick holding the 5 of trumps; ``top-four`` the best-trump trick only if that trump is the
    5, J, joker or A♥. Without a bonus trick the hand totals 25.
    """
    if len(tricks) != len(winners):
        raise IllegalPlay("bad_hand", "Every trick needs the side that took it.")
    bonus_trick, best_card = bonus_trick_of(tricks, trump, rules, ace_low=ace_low)
    taken = [0, 0]
    points = [0, 0]
    for i, side in enumerate(winners):
        if side not in (0, 1):
            raise IllegalPlay("bad_side", "A trick is taken by side 0 or side 1.")
        taken[side] += 1
        points[side] += TRICK_POINTS + (BONUS_POINTS if i == bonus_trick else 0)
    jink: int | None = None
    if len(winners) == 5 and taken[0] in (0, 5):
        jink = 0 if taken[0] == 5 else 1
    return HandScore(
        points=(points[0], points[1]),
        tricks=(taken[0], taken[1]),
        bonus_trick=bonus_trick,
        trump_played=best_card is not None,
        jink=jink,
    )
