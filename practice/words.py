"""The practice table's words, in one place and marked for translation: the refusals (one
sentence per code: the engine's ``engine.play``, ``engine.deal``, ``engine.auction``,
``engine.cards`` and the table's ``practice.table``; the engine's own sentence goes along as
``rule``), the computer players' reasons (by the codes of ``engine.bots.REASONS``,
``engine.beginner`` and ``practice.table.ROB_REASONS``), the seats' and rulesets' names."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any, Final

from django.utils import formats
from django.utils.translation import gettext_lazy as _

from drives.rules_words import RULE_ERRORS, SWITCH_WORDS
from engine.cards import Card

SUIT_NAMES: Final = {"C": _("clubs"), "D": _("diamonds"), "H": _("hearts"), "S": _("spades")}

REFUSALS: Final = {
    "must_follow_trump": _("You must play a trump: a trump was led."),
    "must_follow_suit": _("You must follow suit or play a trump: {led} was led."),
    "must_follow_hearts": _("You must play a trump or a heart: the A♥ was led."),
    "not_in_hand": _("That card is not in your hand."),
    "not_in_pack": _("That card is not in this game's pack."),
    "bad_rank": _("That is not a card."),
    "bad_card": _("That is not a card."),
    "not_your_turn": _("It is not your turn to play a card."),
    "not_now": _("That is not yours to do now."),
    "dealer_must_discard": _("You took the turned card as dealer: throw one card away."),
    "discard_not_in_hand": _("You can only throw away a card of your hand."),
    "not_entitled_to_rob": _("Only the player dealt the ace of trumps may rob."),
    "already_robbed": _("The turned card has already been robbed."),
    "no_discard_owed": _("You have no card to throw away now."),
    "keeps_too_many": _("Keep five cards at most: throw the others away."),
    "stock_empty": _("Not enough cards are left to deal you back up to five."),
    "no_kitty": _("There is no kitty to take."),
    "must_keep_turned_ace": _("The dealer keeps a turned ace: throw away a card of your hand."),
    "no_turn_up": _("No card was turned up: there is nothing to rob."),
    "announce_not_played": _(
        "Announcing the ace changes nothing here: in this game an ace you keep quiet about "
        "keeps its rank."
    ),
    "auction_over": _("The bidding is over."),
    "not_a_bid": _("Bid 15, 20, 25 or 30, or pass."),
    "bid_too_low": _("Your bid must beat the highest bid so far."),
    "dealer_cannot_hold": _("The dealer may not hold here: bid more, or pass."),
    "bad_suit": _("Name a suit: clubs, diamonds, hearts or spades."),
    "no_individual_play": _("Auction is played by four, in two partnerships."),
    "unknown_ruleset": _("The practice table does not offer that game."),
    "unknown_mode": _("The practice table does not offer that way of playing."),
    "unknown_bots": _("The computer players are either sensible or beginners."),
    "unknown_level": _("Each computer player is a beginner, a club regular or strong."),
    "bad_players": _("Two to six may play each for themselves."),
    "auction_needs_four": _("Auction is played by four, in two partnerships."),
    "trump_already_named": _("Trump is already named."),
    "not_auction": _("Trump was turned up: it cannot be named."),
    "suit_is_trump": _("That suit is already trumps."),
    "rate_limited": _("Too many practice games from this address: try again in a while."),
    "not_found": _("No such practice game: it may have expired after a day."),
}

#: The computer players' reasons, "it …" after "Left played the 9♣: " (or bid, or named).
REASONS: Final = {
    # engine.bots.REASONS (the heuristic)
    "only_card": _("it was the only card it was allowed to play"),
    "lead_trumps": _("it held several trumps and led its best one, to draw the others' trumps"),
    "lead_boss": _("its trump was the best one still out, so it led it to draw the others' trumps"),
    "lead_strong": _("it led its strongest card outside trumps"),
    "partner_winning": _("its partner was already winning the trick, so it gave its lowest card"),
    "cannot_win": _("it could not take the trick, so it threw its lowest card"),
    "keep_back": _(
        "only a top trump would have taken the trick and it may keep that back (a lower trump "
        "was led), so it threw a low card instead"
    ),
    "win_cheaply": _("it took the trick with the cheapest card that beats the others"),
    # engine.beginner.BEGINNER_REASONS
    "lead_highest": _("it led its highest card"),
    "take_highest": _("it could take the trick, so it played its highest card that does"),
    # engine.beginner.BID_REASONS: bids and named trumps
    "counted": _(
        "it counted about {tricks} tricks with {suit} trumps and one from its partner, worth "
        "{worth} points, so it bid {bid}"
    ),
    "too_weak": _(
        "its hand, at best with {suit} trumps, was worth about {worth} points: less than the "
        "lowest bid left ({lowest})"
    ),
    "nothing_left": _("no bid was left that beats the highest so far"),
    "long_suit": _("it held {count} {suit}, so it made the lowest bid it could"),
    "short_suits": _("it held no more than two cards of any suit, so it passed"),
    "strongest_suit": _("its hand is strongest with {suit} trumps ({trumps} of them)"),
    "most_cards": _("it holds more {suit} than any other suit ({count} of them)"),
    # engine.strong.STRONG_REASONS (the strong player's search)
    "searched": _(
        "it tried each card it could play on {samples} likely deals of the cards it cannot "
        "see: this one did best, its side taking this trick {takes} times in 10 and finishing "
        "the hand {points} points ahead of the other side on average"
    ),
    "played_out": _(
        "it played its hand out on {samples} likely deals with {suit} trumps: its side took "
        "{points} points on average, so it bid {bid}"
    ),
    "played_out_pass": _(
        "it played its hand out on {samples} likely deals with {suit} trumps: its side took "
        "{points} points on average, not enough to bid {lowest}"
    ),
    "best_played_out": _(
        "its side took the most points with {suit} trumps: {points} on average over {samples} "
        "likely deals"
    ),
    "hint_searched": _(
        "the strong player tried each card you may play on {samples} likely deals of the cards "
        "you cannot see, and this one did best: your side takes this trick {takes} times in 10 "
        "with it, and ends the hand {points} points ahead of the other side on average"
    ),
    # practice.table.ROB_REASONS
    "rob_weakest": _(
        "the turned card is better than its weakest card, so it takes it and throws the "
        "weakest away"
    ),
    "keep_hand": _("every card in its hand is better than the turned card"),
    "dealer_weakest": _("the dealer throws away the weakest card"),
    "draw_keep": _("it keeps its trumps and off-suit kings, throws the rest away and draws"),
    "always_rob": _(
        "a beginner always robs when dealt the ace of trumps, throwing its lowest card"
    ),
    "announce_ace": _(
        "it keeps its hand and says it holds the ace of trumps: an ace not announced would "
        "play as the lowest trump"
    ),
    "keep_announce": _(
        "every card in its hand is better than the turned card, and an ace not announced "
        "would play as the lowest trump"
    ),
}

#: The seats (three-handed: you, left, right) and the sides of the partners' game.
SEAT_NAMES: Final = {
    "you": _("You"),
    "left": _("Left"),
    "partner": _("Partner"),
    "right": _("Right"),
    "us": _("Us"),
    "them": _("Them"),
}

RULESET_NAMES: Final = {
    "cape-breton-45": _("Cape Breton 45"),
    "irish-45-joker": _("Irish 45 with the joker"),
    "auction-120": _("Auction 45s to 120"),
}

#: The computer players' levels (practice.table.LEVELS_OFFERED), as a learner chooses them.
LEVEL_NAMES: Final = {
    "beginner": _("beginner"),
    "sensible": _("club regular"),
    "strong": _("strong"),
}


#: Why a legal card may be kept back (a top trump when a lower trump was led).
KEEP_BACK: Final = _("You may keep the {card} back: only a lower trump was led.")


def refusal(code: str, led: str = "") -> str:
    """The plain sentence for ``code``; ``led`` names the suit led, where it matters."""
    text = REFUSALS.get(code)
    if text is None:
        return str(_("That move is not allowed now."))
    with contextlib.suppress(ValueError):
        led = Card.parse(led).pretty  # the card led, as printed: K♣
    return str(text).format(led=led)


#: A house-rule switch the table refuses (``practice.table.house_rules``), beyond the settings
#: page's words (``drives.rules_words.RULE_ERRORS``).
RULE_REFUSALS: Final = RULE_ERRORS | {
    "not_at_practice": _("The practice table does not play this rule yet."),
    "bad_rules": _('The rules are an object of switches, like {"renege": "none"}.'),
    "unknown_option": _("There is no such rule."),
    "bad_option": _("That is not one of this rule's choices."),
}


def rule_refusal(code: str, switch: str) -> str:
    """A refused house-rule switch in words: the switch (as the settings page words it), then
    why ("Ace of hearts led: …: This rule is for auction only …")."""
    why = str(RULE_REFUSALS.get(code, _("These rules do not go together.")))
    if switch in SWITCH_WORDS:
        return f"{SWITCH_WORDS[switch][0]} ({switch}): {why}"
    return f"{switch}: {why}" if switch else why


def suit_name(letter: str) -> str:
    return str(SUIT_NAMES.get(letter, letter))


def seat_name(seat: str) -> str:
    return str(SEAT_NAMES.get(seat, seat))


def reason(given: Mapping[str, Any] | None) -> str | None:
    """A computer player's reason (``{"code", "figures"}`` of ``practice.table``) in words;
    a suit in the figures is named, a number of tricks written as a number is."""
    if not given:
        return None
    text = REASONS.get(given["code"])
    if text is None:
        return None
    figures = dict(given.get("figures") or {})
    if "suit" in figures:
        figures["suit"] = suit_name(figures["suit"])
    if isinstance(figures.get("tricks"), float):
        figures["tricks"] = formats.number_format(figures["tricks"], decimal_pos=1)
    return str(text).format(**figures)


def translate_view(view: dict[str, Any]) -> dict[str, Any]:
    """The table's state with every reason (the plays', the bids', the named trump's and the
    hint's ``why``) in the language of the request."""
    for entry in [*view["trick"], *view["bids"], *(view["last_trick"] or {}).get("cards", [])]:
        entry["why"] = reason(entry.get("reason"))
    for event in view["events"]:
        if event.get("reason"):
            event["why"] = reason(event["reason"])
    if view["hint"]:
        view["hint"]["why"] = reason(view["hint"].get("reason"))
    return view
