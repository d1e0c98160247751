"""Individual play: 2 to 6 players each for themselves (three-handed is the usual), as in the
games of docs/rules.md outside a drive.

Terms: *seats* are 0..players-1 clockwise; the deal (``deal.deal_hand(…, players=n)``), the
turn-up, robbing and the legal cards are the partnership game's. A hand scores 5 points a trick
to the player who took it and 5 more for the bonus trick (``rules.bonus``, as
``play.score_hand``); the first to ``rules.target`` at the end of a hand wins; when several
reach it in the same hand the highest total wins, and equal highest totals go to the first of
them clockwise from the dealer's left. With ``jink_wins_game`` a player taking all five tricks
wins at once. Auction is played by four in partnerships only (``no_individual_play``).

This module scores and ends games; it deals nothing and plays no card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, Suit
from engine.deal import PLAYERS
from engine.play import BONUS_POINTS, TRICK_POINTS, IllegalPlay, bonus_trick_of
from engine.rules import Ruleset, RulesetError

__all__ = ["IndividualScore", "check_individual", "end_of_individual_hand", "score_individual"]


def check_individual(rules: Ruleset, players: int) -> None:
    """Raise ``RulesetError`` unless ``players`` may play each for themselves under ``rules``:
    ``no_individual_play`` (auction), ``bad_players`` (not 2 to 6)."""
    if rules.auction:
        raise RulesetError("no_individual_play", "Auction is played by four, in two partnerships.")
    if isinstance(players, bool) or players not in PLAYERS:
        raise RulesetError("bad_players", f"2 to 6 may play each for themselves, not {players!r}.")


@dataclass(frozen=True, slots=True)
class IndividualScore:
    """What a hand scored, per seat: ``points`` and ``tricks``; ``bonus_trick`` the index of
    the trick that earned the extra 5 (None: the hand totals 25); ``jink`` the seat that took
    all five, if one did."""

    points: tuple[int, ...]
    tricks: tuple[int, ...]
    bonus_trick: int | None
    jink: int | None


def score_individual(
    tricks: Sequence[Sequence[Card]],
    winners: Sequence[int],
    trump: Suit,
    rules: Ruleset,
    players: int,
    *,
    ace_low: bool = False,
) -> IndividualScore:
    """Score a hand of ``players``: ``winners[i]`` is the seat that took trick ``i``;
    ``ace_low`` when the ace of trumps played as the lowest trump (``unannounced_ace_lowest``)."""
    check_individual(rules, players)
    if len(tricks) != len(winners):
        raise IllegalPlay("bad_hand", "Every trick needs the seat that took it.")
    bonus, _best = bonus_trick_of(tricks, trump, rules, ace_low=ace_low)
    points = [0] * players
    taken = [0] * players
    for i, seat in enumerate(winners):
        if isinstance(seat, bool) or not 0 <= seat < players:
            raise IllegalPlay("bad_seat", f"A trick is taken by seat 0 to {players - 1}.")
        taken[seat] += 1
        points[seat] += TRICK_POINTS + (BONUS_POINTS if i == bonus else 0)
    jink = next((seat for seat in range(players) if taken[seat] == 5), None)
    return IndividualScore(tuple(points), tuple(taken), bonus, jink)


def end_of_individual_hand(
    before: Sequence[int], score: IndividualScore, rules: Ruleset, dealer: int
) -> tuple[tuple[int, ...], int | None]:
    """Totals after the hand, and the winning seat if the game ends with it."""
    players = len(before)
    after = tuple(b + p for b, p in zip(before, score.points, strict=True))
    if rules.jink_wins_game and score.jink is not None:
        return after, score.jink
    best = max(after)
    if best < rules.target:
        return after, None
    clockwise = [(dealer + i) % players for i in range(1, players + 1)]
    return after, next(seat for seat in clockwise if after[seat] == best)
