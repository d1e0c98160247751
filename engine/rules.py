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
    "CHOICES",
    "PRESETS",
    "SWITCHES",
    "Bonus",
    "Ruleset",
    "RulesetError",
    "get_ruleset",
    "make_ruleset",
]

Bonus = Literal["best-trump", "five-of-trumps", "top-four"]
BONUS_OPTIONS: Final[tuple[str, ...]] = get_args(Bonus)
Renege = Literal["top-trumps", "five-only", "none"]
EqualTotals = Literal["non-dealer", "play-on"]
FirstLead = Literal["bidder", "left-of-bidder"]
TurnedAce = Literal["must-take", "may-take"]

#: The values each switch with a fixed list of choices may take (docs/rules.md §3, §5, §6).
CHOICES: Final[Mapping[str, tuple[object, ...]]] = {
    "bonus": BONUS_OPTIONS,
    "renege": get_args(Renege),
    "equal_totals": get_args(EqualTotals),
    "first_lead": get_args(FirstLead),
    "turned_ace": get_args(TurnedAce),
    "thirty_set_loses": (30, 60),
    "min_bid": (15, 20, 25),
    "dealer_min_hold": (15, 20, 25, 30),
    "kitty": (0, 3, 4),
}

#: The switches of docs/rules.md §3, §5 and §6 that this issue of the rule book names, in the
#: order a settings page lists them (the older options come first in ``Ruleset``).
SWITCHES: Final[tuple[str, ...]] = (
    "hearts_on_ace_lead",
    "renege",
    "equal_totals",
    "rebid_after_hold",
    "thirty_set_loses",
    "first_lead",
    "min_bid",
    "min_bid_from_100",
    "dealer_min_hold",
    "kitty",
    "floor",
    "turned_ace",
    "unannounced_ace_lowest",
)

#: Options that mean something only in auction, with the value that means "not used".
AUCTION_ONLY: Final[Mapping[str, object]] = {
    "dealer_cannot_hold": False,
    "thirty_for_sixty": False,
    "must_bid_to_go_out": False,
    "rebid_after_hold": False,
    "first_lead": "bidder",
    "min_bid": 15,
    "min_bid_from_100": False,
    "dealer_min_hold": 15,
    "kitty": 0,
    "floor": None,
}
#: Options that need a turned-up card, so mean nothing in auction (no card is turned).
TURN_UP_ONLY: Final[Mapping[str, object]] = {
    "turned_ace": "must-take",
    "unannounced_ace_lowest": False,
    "equal_totals": "non-dealer",
}
FLOOR_LIMIT: Final = -1000


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
    - ``hearts_on_ace_lead``: the A♥ led (hearts not trumps), a player with no trump must
      play a heart (§3 rule 3).
    - ``renege``: which trumps may be held back from a lower trump led: ``top-trumps`` (5, J,
      joker, A♥), ``five-only``, ``none``.
    - ``equal_totals``: the 45 game ending equal at the target or more: ``non-dealer`` (the
      couple first clockwise from the dealer wins) or ``play-on`` (another hand is played).
    - ``turned_ace``: a turned-up ace ``must-take`` (the dealer keeps it) or ``may-take`` (he
      may throw it away instead of a card of his hand).
    - ``unannounced_ace_lowest``: a player dealt the ace of trumps who neither robs nor
      announces it plays it as the lowest trump of the hand.
    - Auction only: ``rebid_after_hold`` (the bidder held by the dealer may raise, and the
      dealer hold again, until one passes), ``thirty_set_loses`` (30 or 60: what a set 30 bid
      costs with ``thirty_for_sixty``), ``first_lead`` (``bidder`` or ``left-of-bidder``),
      ``min_bid`` (15, 20 or 25), ``min_bid_from_100`` (a side on 100 or more bids at least
      20), ``dealer_min_hold`` (the lowest bid the dealer may hold), ``kitty`` (0, 3 or 4
      cards for the bidder, then every player discards and draws), ``floor`` (a side at or
      below this score loses the game; ``None``: no cut-off).
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
    hearts_on_ace_lead: bool = True
    renege: Renege = "top-trumps"
    equal_totals: EqualTotals = "non-dealer"
    rebid_after_hold: bool = False
    thirty_set_loses: int = 30
    first_lead: FirstLead = "bidder"
    min_bid: int = 15
    min_bid_from_100: bool = False
    dealer_min_hold: int = 15
    kitty: int = 0
    floor: int | None = None
    turned_ace: TurnedAce = "must-take"
    unannounced_ace_lowest: bool = False

    def __post_init__(self) -> None:
        if self.bonus not in BONUS_OPTIONS:
            raise RulesetError(
                "bad_bonus", f"bonus must be one of {', '.join(BONUS_OPTIONS)}, not {self.bonus!r}."
            )
        for option, allowed in CHOICES.items():
            value = getattr(self, option)
            if isinstance(value, bool) or value not in allowed:
                words = ", ".join(str(a) for a in allowed)
                raise RulesetError("bad_option", f"{option} must be one of {words}, not {value!r}.")
        if not isinstance(self.target, int) or self.target <= 0 or self.target % 5:
            raise RulesetError("bad_target", "The target must be a positive multiple of 5.")
        if self.target > 500:
            raise RulesetError("bad_target", "The target may be at most 500.")
        if self.floor is not None and (
            not isinstance(self.floor, int)
            or isinstance(self.floor, bool)
            or self.floor >= 0
            or self.floor % 5
            or self.floor < FLOOR_LIMIT
        ):
            raise RulesetError(
                "bad_floor",
                f"The floor is a score below zero in fives, at least {FLOOR_LIMIT} (like -125).",
            )
        if not self.auction:
            for option, off in AUCTION_ONLY.items():
                if getattr(self, option) != off:
                    raise RulesetError("auction_option", f"{option} applies only to auction rules.")
        else:
            for option, off in TURN_UP_ONLY.items():
                if getattr(self, option) != off:
                    raise RulesetError(
                        "not_in_auction",
                        f"{option} does not apply to auction rules"
                        + (
                            " (the bidder goes out)."
                            if option == "equal_totals"
                            else " (no card is turned up)."
                        ),
                    )
        if self.thirty_set_loses != 30 and not self.thirty_for_sixty:
            raise RulesetError(
                "needs_thirty_for_sixty", "thirty_set_loses applies only with thirty_for_sixty."
            )
        if self.dealer_cannot_hold and (self.rebid_after_hold or self.dealer_min_hold != 15):
            option = "rebid_after_hold" if self.rebid_after_hold else "dealer_min_hold"
            raise RulesetError(
                "dealer_cannot_hold",
                f"{option} is about the dealer's hold, but dealer_cannot_hold is set.",
            )
        if self.min_bid_from_100 and self.min_bid >= 20:
            raise RulesetError(
                "min_bid_from_100",
                f"min_bid_from_100 changes nothing when every bid is at least {self.min_bid}.",
            )

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
        data = dict(data)
        for key, value in data.items():
            default = defaults[key]
            if isinstance(default, bool) and not isinstance(value, bool):
                raise RulesetError("bad_option", f"{key} must be true or false.")
            whole = isinstance(default, int) and not isinstance(default, bool)
            # Only the floor may be None (no floor); a missing target has the target's words.
            if (whole or key == "floor") and (
                isinstance(value, bool)
                or (not isinstance(value, int) and not (value is None and key == "floor"))
            ):
                if key == "target":
                    raise RulesetError("bad_target", "The target must be a whole number.")
                raise RulesetError("bad_option", f"{key} must be a whole number.")
            if key == "name" and not isinstance(value, str):
                raise RulesetError("bad_option", "The name must be text.")
        return cls(**data)


PRESETS: Final[Mapping[str, Ruleset]] = {
    "cape-breton-45": Ruleset(name="cape-breton-45"),
    # Seed 000 (Wikipedia's old Irish text) and 52pickup: ten points only when one of the top
    # four is played, only the 5 may be kept back, and an off-suit ace ranks above the king.
    "irish-45-joker": Ruleset(
        name="irish-45-joker",
        joker=True,
        jink_wins_game=True,
        bonus="top-four",
        renege="five-only",
        offsuit_aces_high=True,
    ),
    # Bicycle, Barker, jord.ca and Wikipedia's 110: after a hold the bidder may raise again.
    "auction-120": Ruleset(name="auction-120", target=120, auction=True, rebid_after_hold=True),
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
    if options.get("dealer_cannot_hold") and "rebid_after_hold" not in options:
        data["rebid_after_hold"] = False  # a dealer who may not hold has nothing to rebid over
    return Ruleset.from_dict(data)
