"""The rules of a drive in plain words: each preset's name and line, each house-rule switch
with a one-line example and the words for its values (the settings page offers them; the
standings, the results and the printed score sheets show the rules chosen)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from engine.rules import SWITCHES

RULESET_DESCRIPTIONS = {
    "cape-breton-45": (
        _("Cape Breton 45s"),
        _("The Nova Scotia couples game: 45 points, 52 cards, 5 for the best trump."),
    ),
    "irish-45-joker": (
        _("Irish 45 with the joker"),
        _(
            "45 points, 53 cards (the joker is the third-best trump); 5 more only for one of "
            "the top four; only the 5 may renege; aces high; all five tricks win."
        ),
    ),
    "auction-120": (
        _("Auction 45s to 120"),
        _("Bid 15 to 30 before trump is named; first to 120 wins; scores can go below zero."),
    ),
}

#: The rule switches a hall may set, in plain words with a one-line example, and their
#: choices as (stored value, words); "" is always "as the preset says" (docs/rules.md).
YES_NO = ((True, _("yes")), (False, _("no")))
SWITCH_WORDS: dict[str, tuple[Any, Any, tuple[tuple[Any, Any], ...]]] = {
    "hearts_on_ace_lead": (
        _("Ace of hearts led: players with no trump must play a heart"),
        _("Trump ♠, A♥ led, you hold K♥ 9♣: yes, only the K♥; no, either card."),
        YES_NO,
    ),
    "renege": (
        _("Trumps that may be held back from a lower trump led"),
        _("The 4♠ led, you hold the 5♠ and a club: the 5 may stay in hand."),
        (
            ("top-trumps", _("the 5, the J, the joker and the A♥")),
            ("five-only", _("only the 5")),
            ("none", _("none: every trump must follow")),
        ),
    ),
    "equal_totals": (
        _("Both couples on the same total at 45 or more"),
        _("At 60–60: the couple left of the dealer wins, or another hand is played."),
        (
            ("non-dealer", _("the couple left of the dealer wins")),
            ("play-on", _("another hand is played (then 65–55 can end a game)")),
        ),
    ),
    "rebid_after_hold": (
        _("Auction: after the dealer holds, the bidder may raise again"),
        _("20 held by the dealer: the bidder may say 25, the dealer hold 25, until one passes."),
        YES_NO,
    ),
    "thirty_for_sixty": (
        _("Auction: a 30 bid made scores 60"),
        _("Bid 30 and take all five tricks: 60 points."),
        YES_NO,
    ),
    "thirty_set_loses": (
        _("Auction: what a 30 for 60 costs when set"),
        _("Bid 30 for 60 and take four tricks: minus 30, or minus 60."),
        ((30, "30"), (60, "60")),
    ),
    "first_lead": (
        _("Auction: who leads the first trick"),
        _("The bidder leads, or the player on the bidder's left."),
        (("bidder", _("the bidder")), ("left-of-bidder", _("the player on the bidder's left"))),
    ),
    "min_bid": (
        _("Auction: the lowest bid"),
        _("At 20: nobody may bid 15, and a dealer bagged is held to 20."),
        ((15, "15"), (20, "20"), (25, "25")),
    ),
    "min_bid_from_100": (
        _("Auction: a couple on 100 or more bids at least 20"),
        _("On 105, a couple may not bid 15."),
        YES_NO,
    ),
    "dealer_min_hold": (
        _("Auction: the lowest bid the dealer may hold"),
        _("At 20: the dealer cannot hold a bid of 15."),
        ((15, "15"), (20, "20"), (25, "25"), (30, "30")),
    ),
    "kitty": (
        _("Auction: cards in the kitty"),
        _("3: the bidder takes three more cards, then everyone discards and draws to five."),
        ((0, _("no kitty")), (3, "3"), (4, "4")),
    ),
    "floor": (
        _("Auction: a couple this far below zero loses"),
        _("At −125, a couple set down to −125 loses the game. Empty: no cut-off."),
        (),
    ),
    "turned_ace": (
        _("An ace turned up for trump"),
        _("The A♦ turned: the dealer must take it, or may leave it."),
        (("must-take", _("the dealer must take it")), ("may-take", _("the dealer may take it"))),
    ),
    "unannounced_ace_lowest": (
        _("An ace of trumps neither robbed with nor announced is the lowest trump"),
        _("You hold the A♠, spades trumps, and say nothing: it plays below the 2♠."),
        YES_NO,
    ),
}
_AT = SWITCHES.index("thirty_set_loses")
RULE_FIELDS = (*SWITCHES[:_AT], "thirty_for_sixty", *SWITCHES[_AT:])

#: A switch refused by the engine (``engine.rules.RulesetError``), in words, by code.
RULE_ERRORS: dict[str, Any] = {
    "auction_option": _("This rule is for auction only: choose Auction 45s to 120 above."),
    "not_in_auction": _("This rule is not played in auction."),
    "needs_thirty_for_sixty": _("This rule needs “a 30 bid made scores 60”."),
    "dealer_cannot_hold": _("The dealer may not hold under these rules."),
    "min_bid_from_100": _("Every bid is already at least 20."),
    "bad_floor": _("A score below zero in fives, at least −1000 (like −125)."),
}


def field_value(value: Any) -> str:
    return "" if value is None else str(value)


def house_rules(ruleset: str, rules: Mapping[str, Any]) -> list[str]:
    """A drive's rules in words: the preset's name, then each switch that differs from it, in
    the settings page's order ("Trumps that may be held back from a lower trump led: only
    the 5")."""
    title = RULESET_DESCRIPTIONS.get(ruleset, (ruleset, ""))[0]
    lines = [str(title)]
    order = {name: i for i, name in enumerate(RULE_FIELDS)}
    for name, value in sorted(rules.items(), key=lambda kv: (order.get(kv[0], 99), kv[0])):
        if name in SWITCH_WORDS:
            label, _example, options = SWITCH_WORDS[name]
            words = next((w for v, w in options if v == value), value)
            if name == "floor":
                words = _("no cut-off") if value is None else str(value).replace("-", "−")
            lines.append(f"{label}: {words}")
        else:
            lines.append(f"{name}: {value}")
    return lines
