"""A game between two couples: hands add up until a couple reaches the target.
The rules: docs/rules.md §5 (a game between two couples).

Terms: a *score sheet* is the list of :class:`HandLine` of a game, one per hand, each holding
the points each side scored in that hand (negative when an auction bidder is set). Sides are 0
and 1. ``end_of_hand`` applies one line to the running totals and says whether the game is over
and who won; the validator (``scores``) and the simulator (``simulate``) both rely on it, so the
rules of winning live in one place. This module does not judge whether a hand's points could
have been taken (``scores`` does) nor play cards (``play``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.rules import Ruleset

__all__ = ["GameRecord", "HandLine", "end_of_hand", "hand_is_jink", "totals_of"]


@dataclass(frozen=True, slots=True)
class HandLine:
    """One hand on a score sheet.

    ``points``: what each side scored this hand. ``dealer``: the dealer's side, when known (it
    settles an equal score: the couple first clockwise from the dealer, the non-dealing side,
    wins). Auction only: ``bidder`` (side) and ``bid`` (15..30) of the winning bid.
    """

    points: tuple[int, int]
    dealer: int | None = None
    bidder: int | None = None
    bid: int | None = None

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"points": list(self.points)}
        for key in ("dealer", "bidder", "bid"):
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        return data


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A whole game: the score sheet, the final score per side, and the winning side."""

    lines: tuple[HandLine, ...]
    final: tuple[int, int]
    winner: int
    hands: tuple[object, ...] = field(default=(), compare=False, repr=False)

    @property
    def winner_points(self) -> int:
        return self.final[self.winner]

    @property
    def loser_points(self) -> int:
        return self.final[1 - self.winner]


def totals_of(lines: Sequence[HandLine]) -> tuple[int, int]:
    return (sum(line.points[0] for line in lines), sum(line.points[1] for line in lines))


def hand_is_jink(line: HandLine, rules: Ruleset) -> int | None:
    """The side that took all five tricks of this hand, if the points show one did.

    Outside auction a side's points are its tricks, so a side with 25 or 30 and the other with 0
    took them all. In auction the bidder's score hides the tricks when set; a made 30 (or 60 with
    ``thirty_for_sixty``) is a jink by the bidder, and defenders scoring the whole hand is one by
    them.
    """
    a, b = line.points
    if not rules.auction:
        if a > 0 and b == 0:
            return 0
        if b > 0 and a == 0:
            return 1
        return None
    if line.bidder is None:
        return None
    bidder, defender = line.bidder, 1 - line.bidder
    made_all = 60 if rules.thirty_for_sixty and line.bid == 30 else 30
    if line.points[bidder] == made_all and line.points[defender] == 0:
        return bidder
    if line.points[defender] in (25, 30) and line.points[bidder] < 0:
        return defender
    return None


def end_of_hand(
    before: tuple[int, int], line: HandLine, rules: Ruleset
) -> tuple[tuple[int, int], int | None]:
    """Totals after ``line``, and the winning side if the game ends with this hand.

    The game ends when a side has reached ``rules.target`` at the end of a hand: the higher
    total wins. Equal totals: the non-dealing side wins when the dealer is known; otherwise the
    winner is not given by the points (returned as -1: the person entering names it). In
    auction, when both sides reach the target in one hand the bidder's side wins ("bidder goes
    out"). With ``jink_wins_game`` a side taking all five tricks wins at once. With a ``floor``
    (auction), a side at or below it loses at once. With ``equal_totals: play-on`` equal
    totals at the target or more end nothing: another hand is played.
    """
    after = (before[0] + line.points[0], before[1] + line.points[1])
    if rules.jink_wins_game:
        jink = hand_is_jink(line, rules)
        if jink is not None:
            return after, jink
    floor = rules.floor
    if floor is not None and (after[0] <= floor or after[1] <= floor):
        return after, 1 if after[0] <= floor else 0
    target = rules.target
    reached = (after[0] >= target, after[1] >= target)
    if not (reached[0] or reached[1]):
        return after, None
    if rules.auction:
        if reached[0] and reached[1]:
            if line.bidder is not None:
                return after, line.bidder
        elif reached[0] or reached[1]:
            return after, 0 if reached[0] else 1
    if after[0] != after[1]:
        return after, 0 if after[0] > after[1] else 1
    if rules.equal_totals == "play-on":
        return after, None
    if line.dealer is not None:
        return after, 1 - line.dealer
    return after, -1
