"""Rulesets: the options of Forty-fives a drive is played under, and the named presets.

A :class:`Ruleset` is a frozen value: the engine never reads global settings. The presets are
those of docs/rules.md §6; a club may build a custom ruleset from the same options with
:func:`make_ruleset`. Rulesets round-trip through plain dicts (``to_dict`` / ``from_dict``)
so the apps can store them as JSON. This module does not say what the options *do*; the
modules that play and score a hand read them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, get_args

__all__ = [
    "BONUS_OPTIONS",
    "PRESETS",
    "Bonus",
    "Ruleset",
    "RulesetError",
    "get_ruleset",
    "make_ruleset",
]

Bonus = Literal["best-trump", "five-of-trumps", "top-four"]
BONUS_OPTIONS: Final[tuple[str, ...]] = get_args(Bonus)


class RulesetError(ValueError):
    """An unknown preset or an inconsistent set of options (``code`` says which)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The options of one way of playing. Field meanings are in docs/rules.md §1–§6.

    - ``target``: points to win a game (45, or 120 in auction).
    - ``joker``: 53 cards, the joker the third-best trump.
    - ``bonus``: which trick earns the extra 5 points of a hand.
    - ``jink_wins_game``: taking all five tricks of a hand wins the game at once.
    - ``offsuit_aces_high``: a non-trump ace ranks above the king.
    - ``auction``: bidding before trump is named (15-30), bidders can be set, scores go negative.
    - ``dealer_cannot_hold``, ``thirty_for_sixty``, ``must_bid_to_go_out``: auction options.
    """

    name: str = "custom"
    target: int = 45
    joker: bool = False
    bonus: Bonus = "best-trump"
    jink_wins_game: bool = False
    offsuit_aces_high: bool = False
    auction: bool = False
    dealer_cannot_hold: bool = False
    thirty_for_sixty: bool = False
    must_bid_to_go_out: bool = False

    def __post_init__(self) -> None:
        if self.bonus not in BONUS_OPTIONS:
            raise RulesetError(
                "bad_bonus", f"bonus must be one of {', '.join(BONUS_OPTIONS)}, not {self.bonus!r}."
            )
        if not isinstance(self.target, int) or self.target <= 0 or self.target % 5:
            raise RulesetError("bad_target", "The target must be a positive multiple of 5.")
        if self.target > 500:
            raise RulesetError("bad_target", "The target may be at most 500.")
        auction_only = ("dealer_cannot_hold", "thirty_for_sixty", "must_bid_to_go_out")
        if not self.auction:
            for option in auction_only:
                if getattr(self, option):
                    raise RulesetError("auction_option", f"{option} applies only to auction rules.")

    @property
    def hand_points(self) -> int:
        """Points in a hand in which a trump is played and the bonus is earned."""
        return 30

    @property
    def pack_size(self) -> int:
        return 53 if self.joker else 52

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ruleset:
        """Build a ruleset from stored options; unknown keys are refused, not ignored."""
        defaults = {f.name: f.default for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - set(defaults))
        if unknown:
            raise RulesetError(
                "unknown_option", f"Unknown ruleset option(s): {', '.join(unknown)}."
            )
        for key, value in data.items():
            if isinstance(defaults[key], bool) and not isinstance(value, bool):
                raise RulesetError("bad_option", f"{key} must be true or false.")
            if key == "target" and (not isinstance(value, int) or isinstance(value, bool)):
                raise RulesetError("bad_target", "The target must be a whole number.")
            if key == "name" and not isinstance(value, str):
                raise RulesetError("bad_option", "The name must be text.")
        return cls(**dict(data))


PRESETS: Final[Mapping[str, Ruleset]] = {
    "cape-breton-45": Ruleset(name="cape-breton-45"),
    "irish-45-joker": Ruleset(name="irish-45-joker", joker=True, jink_wins_game=True),
    "auction-120": Ruleset(name="auction-120", target=120, auction=True),
}
DEFAULT_PRESET: Final = "cape-breton-45"


def get_ruleset(name: str = DEFAULT_PRESET) -> Ruleset:
    """A preset by name: ``cape-breton-45`` (default), ``irish-45-joker``, ``auction-120``."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesetError(
            "unknown_ruleset", f"No ruleset called {name!r}; choose one of {', '.join(PRESETS)}."
        ) from None


def make_ruleset(base: str = DEFAULT_PRESET, /, *, name: str = "custom", **options: Any) -> Ruleset:
    """A custom ruleset: a preset with some options changed (``make_ruleset(joker=True)``)."""
    data = get_ruleset(base).to_dict() | {"name": name} | options
    return Ruleset.from_dict(data)
