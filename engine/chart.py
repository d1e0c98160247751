"""The card ranking chart of a ruleset (docs/rules.md §1), as the punch cards print it and the
practice table shows it: the trumps of each suit and the other suits, strongest first, in
printed card names (``A♥``). Derived from ``engine.cards``: nothing here ranks a card itself."""

from __future__ import annotations

from typing import Any

from engine.cards import SUITS, offsuit_order, trump_order
from engine.rules import Ruleset

__all__ = ["ranking_chart"]


def ranking_chart(rules: Ruleset) -> dict[str, Any]:
    """The ranking of ``rules``: ``trumps[suit]`` (that suit trumps) and ``offsuit[suit]`` (that
    suit when another is trumps), strongest first, keyed by suit letter."""
    trumps = {s.value: [c.pretty for c in trump_order(s, rules)] for s in SUITS}
    offsuit = {}
    for suit in SUITS:
        other = next(t for t in SUITS if t is not suit)
        offsuit[suit.value] = [c.pretty for c in offsuit_order(suit, other, rules)]
    return {
        "name": rules.name,
        "joker": rules.joker,
        "offsuit_aces_high": rules.offsuit_aces_high,
        "target": rules.target,
        "trumps": trumps,
        "offsuit": offsuit,
    }
