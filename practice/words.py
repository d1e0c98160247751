"""The practice table's refusals in plain words: one sentence per code, in one place. The
codes are the engine's (``engine.play``, ``engine.deal``) and the table's (``practice.table``);
the engine's own sentence goes along as ``rule``."""

from __future__ import annotations

from typing import Final

from django.utils.translation import gettext_lazy as _

SUIT_NAMES: Final = {"C": _("clubs"), "D": _("diamonds"), "H": _("hearts"), "S": _("spades")}

REFUSALS: Final = {
    "must_follow_trump": _("You must play a trump: a trump was led."),
    "must_follow_suit": _("You must follow suit or play a trump: {led} was led."),
    "must_follow_hearts": _("You must play a trump or a heart: the A♥ was led."),
    "not_in_hand": _("That card is not in your hand."),
    "bad_card": _("That is not a card."),
    "not_your_turn": _("It is not your turn to play a card."),
    "not_now": _("That is not yours to do now."),
    "dealer_must_discard": _("You took the turned card as dealer: throw one card away."),
    "discard_not_in_hand": _("You can only throw away a card of your hand."),
    "not_entitled_to_rob": _("Only the player dealt the ace of trumps may rob."),
    "not_a_bid": _("Bid 15, 20, 25 or 30, or pass."),
    "bid_too_low": _("Your bid must beat the highest bid so far."),
    "dealer_cannot_hold": _("The dealer may not hold here: bid more, or pass."),
    "bad_suit": _("Name a suit: clubs, diamonds, hearts or spades."),
    "no_individual_play": _("Auction is played by four, in two partnerships."),
    "unknown_ruleset": _("The practice table does not offer that game."),
    "unknown_mode": _("The practice table does not offer that way of playing."),
}

#: Why a legal card may be kept back (a top trump when a lower trump was led).
KEEP_BACK: Final = _("You may keep the {card} back: only a lower trump was led.")


def refusal(code: str, led: str = "") -> str:
    """The plain sentence for ``code``; ``led`` names the suit led, where it matters."""
    text = REFUSALS.get(code)
    if text is None:
        return str(_("That move is not allowed now."))
    return str(text).format(led=led)


def suit_name(letter: str) -> str:
    return str(SUIT_NAMES.get(letter, letter))
