"""A practice game at the table: you (seat 0) and a computer partner (seat 2) against two
computer opponents (seats 1 and 3), played hand after hand until a side wins.

Every rule comes from the engine: the deal, the turn-up, the dealer's discard and robbing
(``engine.deal``), the legal cards and the trick's winner (``engine.play``), the hand's score
with the bonus for the best trump (``score_hand``) and the end of the game (``end_of_hand``).
The computer players play at the levels the learner chose, the partner's and the opponents'
(``levels``: the engine's beginner, sensible "club regular" or strong player,
``engine.bots.LEVELS``; the older ``bots`` named one strength for all); each says why it chose
a card, a bid or a trump (a reason code and its figures, put in words by ``practice.words``).
The hint for your card is the strong player's (``engine.strong``), with its chances; for a
bid, trump, robbing and drawing the heuristic's.

A game is a plain JSON-ready dict (stored by ``practice.models``), changed in place by
:func:`start`, :func:`play` and :func:`rob`; :func:`view` is what the API and the page show.
Refusals raise :class:`TableError` (a code, and the engine's own words in ``rule``). This
module knows nothing of Django.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

from engine.auction import Auction, AuctionError, auction_hand_points
from engine.beginner import (
    BEGINNER_REASONS,
    BID_REASONS,
    STRENGTHS,
    BeginnerBot,
    explain_bid,
    explain_trump,
    make_practice_bot,
)
from engine.bots import LEVELS, REASONS, HeuristicBot, PlayState, draw_discards
from engine.cards import Card, CardError, Suit, ordering
from engine.deal import (
    Deal,
    DealError,
    ace_is_low,
    announce_ace,
    deal_hand,
    dealer_discard,
    discard_and_draw,
    name_trump,
    take_kitty,
)
from engine.deal import rob as engine_rob
from engine.game import HandLine, end_of_hand
from engine.individual import check_individual, end_of_individual_hand, score_individual
from engine.play import IllegalPlay, check_play, legal_plays, score_hand, trick_winner
from engine.rules import Ruleset, RulesetError, get_ruleset, make_ruleset
from engine.strong import STRONG_REASONS, StrongBot

__all__ = [
    "LEVELS_OFFERED",
    "MODES",
    "RULESETS",
    "SEATS",
    "STRENGTHS",
    "TableError",
    "bid",
    "draw",
    "name",
    "play",
    "rob",
    "start",
    "view",
]

#: The rulesets and modes the practice table offers now.
RULESETS: Final = ("cape-breton-45", "irish-45-joker", "auction-120")
MODES: Final = ("partners", "three-handed")
#: Seat 0 is you; the others clockwise from you.
SEATS: Final = ("you", "left", "partner", "right")
#: Three-handed: you against Left and Right, each for themselves.
SEATS_ALONE: Final = ("you", "left", "right")
SIDES: Final = ("us", "them")
#: The levels a learner chooses for the partner and for the opponents (engine.bots.LEVELS),
#: weakest first; the legacy ``bots`` strengths name one level for all three.
LEVELS_OFFERED: Final = tuple(LEVELS)
LEVEL_OF_STRENGTH: Final = {"heuristic": "sensible", "beginner": "beginner"}
DEFAULT_LEVEL: Final = "sensible"
YOU: Final = 0
TRICKS: Final = 5
MAX_HANDS: Final = 200


class TableError(ValueError):
    """A move the table refuses: ``code`` (the engine's where the engine judged it), the
    engine's ``rule`` in its own words, and ``status`` (422 refused, 409 not now)."""

    def __init__(self, code: str, rule: str, status: int = 422, switch: str = "") -> None:
        super().__init__(rule)
        self.code = code
        self.rule = rule
        self.status = status
        self.switch = switch  # the house-rule switch refused, when one was


#: House-rule switches the practice table does not play yet, with the value that means "off"
#: (none now: ``unannounced_ace_lowest`` is played, announcing the ace being one of the choices
#: when you may rob).
NOT_PLAYED: Final[dict[str, Any]] = {}


def _switch_named(error: RulesetError, rules: Mapping[str, Any]) -> str:
    """The switch an engine refusal is about (its message names it first)."""
    for name in sorted(rules, key=len, reverse=True):
        if error.message.startswith(name) or f" {name}" in error.message:
            return name
    if error.code == "bad_floor":
        return "floor"
    return next(iter(rules), "")


def house_rules(ruleset: str, rules: Any) -> dict[str, Any]:
    """The house-rule switches chosen for a game of ``ruleset``, checked by the engine; only
    those that differ from the preset are kept. Codes: ``bad_rules``, ``not_at_practice``
    (a switch the table does not play yet) and the engine's (``auction_option`` …)."""
    if not isinstance(rules, Mapping) or "name" in rules:
        raise TableError(
            "bad_rules", 'rules name the switches, like {"renege": "none"}.', switch="name"
        )
    try:
        chosen = make_ruleset(ruleset, name=ruleset, **rules)
    except RulesetError as error:
        raise TableError(error.code, error.message, switch=_switch_named(error, rules)) from None
    for name, off in NOT_PLAYED.items():
        if getattr(chosen, name) != off:
            raise TableError(
                "not_at_practice", f"The practice table does not play {name} yet.", switch=name
            )
    base = get_ruleset(ruleset).to_dict()
    return {k: v for k, v in chosen.to_dict().items() if k != "name" and v != base[k]}


def _rules(game: dict[str, Any]) -> Ruleset:
    """The rules this game is played under: its preset with its house-rule switches."""
    return make_ruleset(game["ruleset"], name=game["ruleset"], **game.get("rules", {}))


def _names(game: dict[str, Any]) -> tuple[str, ...]:
    return SEATS if game.get("players", 4) == 4 else SEATS_ALONE


def _players(game: dict[str, Any]) -> int:
    return int(game.get("players", 4))


def _alone(game: dict[str, Any]) -> bool:
    """Three-handed: each for themselves."""
    return _players(game) != 4


def _levels(game: dict[str, Any]) -> dict[str, str]:
    """The partner's and the opponents' levels (a game started before the levels: its one
    strength for both)."""
    levels = game.get("levels")
    if levels:
        return {"partner": str(levels["partner"]), "opponents": str(levels["opponents"])}
    level = LEVEL_OF_STRENGTH.get(game.get("bots", "heuristic"), DEFAULT_LEVEL)
    return {"partner": level, "opponents": level}


def _bot(game: dict[str, Any], seat: int) -> HeuristicBot | BeginnerBot | StrongBot:
    """The computer player in ``seat`` at its level. The strong player draws from a random
    state of its own for each decision, made from the game's seed (kept on the server), so
    that the same game always plays the same."""
    role = "partner" if seat == 2 and not _alone(game) else "opponents"
    level = _levels(game)[role]
    if level == "strong":
        moment = f"{len(game['tricks'])}:{len(game['trick'])}:{len(game.get('bids', []))}"
        return StrongBot(random.Random(f"{game['seed']}:{game['hand_number']}:{seat}:{moment}"))
    return make_practice_bot("beginner" if level == "beginner" else "heuristic")


def _adviser() -> HeuristicBot:
    """Who gives the hint for a bid, trump, robbing or drawing: the heuristic, whatever the
    computer players' levels (the hint for a card is the strong player's: :func:`_play_hint`)."""
    return HeuristicBot(random.Random(0))


#: Why a bot robbed or kept its hand, and why the hint says so.
ROB_REASONS: Final = {
    "rob_weakest": "the turned card is better than its weakest card, so it takes it and "
    "throws the weakest away",
    "keep_hand": "every card in its hand is better than the turned card",
    "dealer_weakest": "the dealer throws away the weakest card",
    "always_rob": "a beginner always robs when dealt the ace of trumps, throwing its lowest card",
    "draw_keep": "it keeps its trumps and off-suit kings, throws the rest away and draws",
    "announce_ace": "it keeps its hand and says it holds the ace of trumps: an ace not "
    "announced would play as the lowest trump",
    "keep_announce": "every card in its hand is better than the turned card, and an ace not "
    "announced would play as the lowest trump",
}


def _reason(code: str, **figures: Any) -> dict[str, Any]:
    return {"code": code, "figures": figures}


def _reason_text(reason: dict[str, Any] | None) -> str | None:
    """The reason in the engine's English (``practice.words`` translates it by its code)."""
    if not reason:
        return None
    code = reason["code"]
    text = (REASONS | BEGINNER_REASONS | BID_REASONS | ROB_REASONS | STRONG_REASONS).get(code, "")
    return text.format(**reason.get("figures", {}))


def _cards(texts: list[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(t) for t in texts)


def _texts(cards: Any) -> list[str]:
    return [str(c) for c in cards]


# --- starting a game and dealing -----------------------------------------------------------------


def start(
    ruleset: str,
    mode: str = "partners",
    seed: int | None = None,
    bots: str = "heuristic",
    rules: Mapping[str, Any] | None = None,
    *,
    partner: str | None = None,
    opponents: str | None = None,
) -> dict[str, Any]:
    """A new game, dealt and played by the computer players up to your first decision;
    ``partner`` and ``opponents`` their levels (:data:`LEVELS_OFFERED`; not given: ``bots``,
    a strength of :data:`STRENGTHS`, for both), ``rules`` the house-rule switches
    (:func:`house_rules`; none: the preset as it is). ``seed`` is for tests and the server
    only: none, a fresh one (:func:`new_seed`)."""
    if ruleset not in RULESETS:
        raise TableError(
            "unknown_ruleset",
            f"The practice table offers {', '.join(RULESETS)}; not {ruleset!r}.",
        )
    if mode not in MODES:
        raise TableError(
            "unknown_mode", f"The practice table offers {', '.join(MODES)}; not {mode!r}."
        )
    if bots not in STRENGTHS:
        raise TableError(
            "unknown_bots", f"The computer players are {' or '.join(STRENGTHS)}; not {bots!r}."
        )
    level = LEVEL_OF_STRENGTH[bots]
    levels = {"partner": partner or level, "opponents": opponents or level}
    for role, chosen in levels.items():
        if chosen not in LEVELS_OFFERED:
            raise TableError(
                "unknown_level",
                f"The {role} play at one of {', '.join(LEVELS_OFFERED)}; not {chosen!r}.",
            )
    switches = house_rules(ruleset, rules or {})
    players = 4 if mode == "partners" else 3
    if players != 4:
        try:
            check_individual(make_ruleset(ruleset, name=ruleset, **switches), players)
        except RulesetError as error:
            raise TableError(error.code, error.message) from None
    if seed is None:
        seed = new_seed()
    game: dict[str, Any] = {
        "version": 1,
        "ruleset": ruleset,
        "rules": switches,
        "mode": mode,
        "bots": bots,
        "levels": levels,
        "seed": seed,
        "players": players,
        "hand_number": 0,
        "dealer": random.Random(seed).randrange(players),
        "totals": [0] * (2 if players == 4 else players),
        "hand_scores": [],
        "finished": False,
        "winner": None,
        "last_trick": None,
        "events": [],
    }
    _deal(game)
    _advance(game)
    return game


def new_seed() -> int:
    """A fresh game's seed, unguessable; it stays on the server (no answer carries it)."""
    return random.SystemRandom().randrange(2**31)


def _deal(game: dict[str, Any]) -> None:
    """Deal the next hand (the deal has passed to the left unless this is the first)."""
    if game["hand_number"]:
        game["dealer"] = (game["dealer"] + 1) % _players(game)
    game["hand_number"] += 1
    rules = _rules(game)
    rng = random.Random(f"{game['seed']}:{game['hand_number']}")
    deal = deal_hand(rng, rules, game["dealer"], _players(game))
    game["deal"] = _deal_dict(deal)
    game["events"] = []
    for event in deal.log:
        if event.kind == "joker_to_dealer":
            game["events"].append({"kind": "joker_to_dealer", "seat": _names(game)[deal.dealer]})
        elif event.kind == "ace_to_dealer":
            game["events"].append(
                {
                    "kind": "ace_to_dealer",
                    "seat": _names(game)[deal.dealer],
                    "card": str(event.card),
                }
            )
    game["rob_settled"] = deal.robber is None
    game["phase"] = "bid" if rules.auction else "deal"
    game["bids"] = []
    game["auction"] = None
    game["leader"] = (game["dealer"] + 1) % _players(game)
    game["trick"] = []
    game["tricks"] = []
    game["winners"] = []


def _deal_dict(deal: Deal) -> dict[str, Any]:
    return {
        "dealer": deal.dealer,
        "hands": [_texts(h) for h in deal.hands],
        "turn_up": str(deal.turn_up) if deal.turn_up else None,
        "trump": deal.trump.value if deal.trump else None,
        "discards": _texts(deal.discards),
        "owed": deal.owed,
        "robber": deal.robber,
        "robbed": deal.robbed,
        "stock": _texts(deal.stock),
        "kitty": _texts(deal.kitty),
        "announced": deal.announced,
    }


def _deal_of(game: dict[str, Any]) -> Deal:
    d = game["deal"]
    return Deal(
        dealer=d["dealer"],
        hands=tuple(_cards(h) for h in d["hands"]),
        turn_up=Card.parse(d["turn_up"]) if d["turn_up"] else None,
        trump=Suit.parse(d["trump"]) if d["trump"] else None,
        discards=_cards(d["discards"]),
        owed=d["owed"],
        robber=d["robber"],
        robbed=d["robbed"],
        players=len(d["hands"]),
        stock=_cards(d.get("stock", [])),
        kitty=_cards(d.get("kitty", [])),
        announced=bool(d.get("announced", False)),
    )


def _ace_low(game: dict[str, Any]) -> bool:
    """Whether the ace of trumps plays as the lowest trump this hand (``unannounced_ace_lowest``:
    its holder neither robbed nor announced it); asked once play has begun."""
    return ace_is_low(_deal_of(game), _rules(game))


def _trump(game: dict[str, Any]) -> Suit:
    return Suit.parse(game["deal"]["trump"])


def _auction(game: dict[str, Any]) -> Auction:
    """The bidding so far, replayed through the engine's :class:`Auction`."""
    totals = game["totals"]
    auction = Auction(game["dealer"], _rules(game), (totals[0], totals[1]))
    for seat, amount, *_why in game["bids"]:
        auction.bid(seat, amount)
    return auction


def _bid(
    game: dict[str, Any],
    auction: Auction,
    seat: int,
    amount: int | None,
    why: dict[str, Any] | None = None,
) -> None:
    auction.bid(seat, amount)
    game["bids"].append([seat, amount, why])
    result = auction.result
    if result is not None:
        game["auction"] = {"seat": result.seat, "bid": result.bid, "how": result.how}
        game["phase"] = "trump"


# --- whose decision ------------------------------------------------------------------------------


def _to_play(game: dict[str, Any]) -> int:
    return int((game["leader"] + len(game["trick"])) % _players(game))


def _pending(game: dict[str, Any]) -> str | None:
    """What you must decide now: ``discard`` (you dealt and took a turned ace or joker),
    ``rob`` (you were dealt the ace of trumps), ``play``, or None (game over)."""
    if game["finished"]:
        return None
    d = game["deal"]
    if game["phase"] == "deal":
        if d["owed"]:
            return "discard"
        return "rob"
    if game["phase"] in ("bid", "trump", "draw"):
        return str(game["phase"])
    return "play"


def _state(game: dict[str, Any], seat: int) -> PlayState:
    played = {Card.parse(c) for trick in game["tricks"] for c in trick}
    tricks = [0, 0]
    for winner in game["winners"]:
        tricks[winner % 2] += 1
    auction = game.get("auction")
    leaders = [_first_leader(game), *game["winners"][:-1]][: len(game["tricks"])]
    history = [(lead, _cards(t)) for lead, t in zip(leaders, game["tricks"], strict=True)]
    return PlayState(
        seat,
        dealer=game["dealer"],
        leader=game["leader"],
        trick_number=len(game["tricks"]),
        played=played,
        tricks=tricks,
        partners=not _alone(game),
        ace_low=_ace_low(game),
        history=history,
        players=_players(game),
        bidder=auction["seat"] if auction else None,
        bid=auction["bid"] if auction else None,
    )


def _first_leader(game: dict[str, Any]) -> int:
    """Who led the hand's first trick: the dealer's left, or in auction the bidder (or the
    player on his left, ``first_lead``)."""
    auction = game.get("auction")
    if not auction:
        return int((game["dealer"] + 1) % _players(game))
    left = _rules(game).first_lead == "left-of-bidder"
    return int((auction["seat"] + 1) % _players(game) if left else auction["seat"])


def _advance(game: dict[str, Any]) -> None:
    """Let the computer players act until it is your decision or the game is over."""
    rules = _rules(game)
    for _ in range(MAX_HANDS * 30):
        if game["finished"]:
            return
        if game["phase"] == "bid":
            auction = _auction(game)
            seat = auction.to_bid
            assert seat is not None
            if seat == YOU:
                return
            hand = _cards(game["deal"]["hands"][seat])
            amount, code, figures = explain_bid(_bot(game, seat), hand, auction, rules)
            _bid(game, auction, seat, amount, _reason(code, **figures))
            continue
        if game["phase"] == "trump":
            bidder = game["auction"]["seat"]
            if bidder == YOU:
                return
            suit, code, figures = explain_trump(
                _bot(game, bidder), _cards(game["deal"]["hands"][bidder]), rules
            )
            _name(game, bidder, suit, _reason(code, **figures))
            continue
        if game["phase"] == "draw":
            seat = game["draw_seat"]
            if seat == YOU:
                return
            hand = _cards(game["deal"]["hands"][seat])
            chooser = getattr(_bot(game, seat), "choose_draw", None)
            throw = (chooser or draw_discards)(hand, _trump(game), rules)
            _draw(game, seat, throw, _reason("draw_keep"))
            continue
        if game["phase"] == "deal":
            deal = _deal_of(game)
            trump = _trump(game)
            if deal.owed:
                if deal.dealer == YOU:
                    return
                bot = _bot(game, deal.dealer)
                card = bot.choose_discard(deal.hands[deal.dealer], trump, rules)
                game["deal"] = _deal_dict(dealer_discard(deal, card, rules))
                game["events"].append(
                    {
                        "kind": "discard",
                        "seat": _names(game)[deal.dealer],
                        "why": _reason("dealer_weakest"),
                    }
                )
                continue
            if not game["rob_settled"]:
                robber = deal.robber
                assert robber is not None and deal.turn_up is not None
                if robber == YOU:
                    return
                bot = _bot(game, robber)
                discard = bot.choose_rob(deal.hands[robber], deal.turn_up, trump, rules)
                if discard is not None:
                    game["deal"] = _deal_dict(engine_rob(deal, robber, discard))
                    game["events"].append(
                        {
                            "kind": "rob",
                            "seat": _names(game)[robber],
                            "card": str(deal.turn_up),
                            "why": _reason(
                                "always_rob" if isinstance(bot, BeginnerBot) else "rob_weakest"
                            ),
                        }
                    )
                elif rules.unannounced_ace_lowest:
                    _announce_or_not(game, robber, _announces(bot))
                game["rob_settled"] = True
                continue
            game["phase"] = "play"
            continue
        seat = _to_play(game)
        if seat == YOU:
            return
        hand = _cards(game["deal"]["hands"][seat])
        trick = [Card.parse(p["card"]) for p in game["trick"]]
        bot = _bot(game, seat)
        state = _state(game, seat)
        if isinstance(bot, StrongBot):
            card, choices = bot.decide(hand, trick, _trump(game), rules, state)
            _put(game, seat, card, searched(card, choices))
        else:
            card, code = bot.decide(hand, trick, _trump(game), rules, state)
            _put(game, seat, card, code)
    raise RuntimeError("the game did not end")  # pragma: no cover - MAX_HANDS is far off


def searched(card: Card, choices: list[Any]) -> dict[str, Any] | str:
    """Why the strong player chose ``card``: the search's figures (``only_card`` when it had
    no choice), as a reason with its code."""
    chosen = next((c for c in choices if c.card is card), None)
    if chosen is None:
        return "only_card"
    return _reason(
        "searched",
        samples=chosen.samples,
        takes=round(10 * chosen.takes),
        points=round(chosen.value),
    )


def _announces(bot: HeuristicBot | BeginnerBot | StrongBot) -> bool:
    """Whether the bot dealt the ace of trumps, not robbing, says so (one without an
    ``announces`` answer always does, as in ``engine.simulate``)."""
    announces = getattr(bot, "announces", None)
    return True if announces is None else bool(announces())


def _announce_or_not(game: dict[str, Any], seat: int, announce: bool) -> None:
    """Under ``unannounced_ace_lowest``, ``seat`` keeps its hand: it announces the ace of
    trumps (which then keeps its rank) or says nothing (the ace plays as the lowest trump)."""
    name = _names(game)[seat]
    if not announce:
        game["events"].append({"kind": "unannounced", "seat": name})
        return
    game["deal"] = _deal_dict(announce_ace(_deal_of(game), seat))
    event: dict[str, Any] = {"kind": "announce", "seat": name}
    if seat != YOU:
        event["why"] = _reason("announce_ace")
    game["events"].append(event)


def _put(game: dict[str, Any], seat: int, card: Card, why: dict[str, Any] | str | None) -> None:
    """Play ``card`` (already judged legal) from ``seat``; settle the trick, the hand and the
    game when they are complete."""
    rules = _rules(game)
    hands = game["deal"]["hands"]
    hands[seat] = [c for c in hands[seat] if c != str(card)]
    game["trick"].append({"seat": seat, "card": str(card), "why": why})
    if len(game["trick"]) < _players(game):
        return
    cards = [Card.parse(p["card"]) for p in game["trick"]]
    won = trick_winner(cards, _trump(game), rules, ace_low=_ace_low(game))
    winner = (game["leader"] + won) % _players(game)
    game["last_trick"] = {"cards": game["trick"], "winner": winner}
    game["tricks"].append(_texts(cards))
    game["winners"].append(winner)
    game["trick"] = []
    game["leader"] = winner
    if len(game["tricks"]) == TRICKS:
        _end_hand(game)


def _bonus(game: dict[str, Any], tricks: list[tuple[Card, ...]], bonus_trick: int | None) -> Any:
    if bonus_trick is None:
        return None
    order = ordering(_trump(game), _rules(game), ace_low=_ace_low(game))
    best = max(tricks[bonus_trick], key=lambda c: order.power[c.index])
    return {
        "trick": bonus_trick + 1,
        "card": str(best),
        "seat": _names(game)[game["winners"][bonus_trick]],
    }


def _end_alone(game: dict[str, Any]) -> None:
    """Three-handed: each for themselves (``engine.individual``)."""
    rules = _rules(game)
    names = _names(game)
    tricks = [_cards(t) for t in game["tricks"]]
    score = score_individual(
        tricks, game["winners"], _trump(game), rules, _players(game), ace_low=_ace_low(game)
    )
    totals, winner = end_of_individual_hand(game["totals"], score, rules, game["dealer"])
    game["hand_scores"].append(
        {
            "hand": game["hand_number"],
            "dealer": names[game["dealer"]],
            "trump": game["deal"]["trump"],
            "points": dict(zip(names, score.points, strict=True)),
            "tricks": dict(zip(names, score.tricks, strict=True)),
            "bonus": _bonus(game, tricks, score.bonus_trick),
            "jink": None if score.jink is None else names[score.jink],
        }
    )
    game["totals"] = list(totals)
    game["hand_scores"][-1]["totals"] = dict(zip(names, totals, strict=True))
    if winner is not None:
        game["finished"] = True
        game["winner"] = names[winner]
        return
    _deal(game)


def _end_hand(game: dict[str, Any]) -> None:
    if _alone(game):
        _end_alone(game)
        return
    rules = _rules(game)
    trump = _trump(game)
    tricks = [_cards(t) for t in game["tricks"]]
    sides = [w % 2 for w in game["winners"]]
    score = score_hand(tricks, sides, trump, rules, ace_low=_ace_low(game))
    auction = game["auction"]
    if auction is None:
        points = score.points
        line = HandLine(points, dealer=game["dealer"] % 2)
    else:
        bidder = auction["seat"] % 2
        before = (game["totals"][0], game["totals"][1])
        points = auction_hand_points(score.points, bidder, auction["bid"], before, rules)
        line = HandLine(points, dealer=game["dealer"] % 2, bidder=bidder, bid=auction["bid"])
    totals, winner = end_of_hand((game["totals"][0], game["totals"][1]), line, rules)
    bonus = _bonus(game, tricks, score.bonus_trick)
    game["hand_scores"].append(
        {
            "hand": game["hand_number"],
            "dealer": _names(game)[game["dealer"]],
            "trump": trump.value,
            "us": points[0],
            "them": points[1],
            "taken": {"us": score.points[0], "them": score.points[1]},
            "bid": None
            if auction is None
            else {
                "seat": _names(game)[auction["seat"]],
                "bid": auction["bid"],
                "how": auction["how"],
            },
            "tricks": {"us": score.tricks[0], "them": score.tricks[1]},
            "bonus": bonus,
            "jink": None if score.jink is None else SIDES[score.jink],
        }
    )
    game["totals"] = list(totals)
    game["hand_scores"][-1]["totals"] = dict(zip(SIDES, totals, strict=True))
    if winner is not None:
        game["finished"] = True
        # -1 (equal totals, dealer unknown) cannot happen: the dealer is always known here.
        game["winner"] = SIDES[winner]
        return
    _deal(game)


# --- your moves ----------------------------------------------------------------------------------


def play(game: dict[str, Any], text: str) -> None:
    """You play the card ``text`` (``"5H"``); the computer players then play up to your next
    decision. Codes: ``bad_card``, ``not_your_turn`` (409), and the engine's
    ``not_in_hand``, ``must_follow_suit``, ``must_follow_trump``, ``must_follow_hearts``."""
    if _pending(game) != "play":
        raise TableError("not_your_turn", _not_now(game, "play a card"), 409)
    card = _parse(text)
    rules = _rules(game)
    hand = _cards(game["deal"]["hands"][YOU])
    trick = [Card.parse(p["card"]) for p in game["trick"]]
    try:
        check_play(card, hand, trick, _trump(game), rules, ace_low=_ace_low(game))
    except IllegalPlay as error:
        raise TableError(error.code, error.message) from None
    _put(game, YOU, card, None)
    _advance(game)


def rob(game: dict[str, Any], text: str | None, announce: bool = False) -> None:
    """Dealt the ace of trumps: take the turn-up and throw ``text`` away, or None to keep your
    hand; under ``unannounced_ace_lowest``, ``announce`` keeps your hand and announces the ace
    (which then keeps its rank; kept quiet, it plays as the lowest trump). Dealer who took a
    turned ace or joker: throw ``text`` away (None is refused). Codes: ``bad_card``,
    ``not_now`` (409), ``dealer_must_discard``, ``announce_not_played`` (announcing without the
    switch), and the engine's ``discard_not_in_hand``, ``not_entitled_to_rob`` (announcing
    as the dealer throwing a card away), ``already_robbed`` (robbing and announcing)."""
    pending = _pending(game)
    if pending not in ("rob", "discard"):
        raise TableError("not_now", _not_now(game, "rob or discard"), 409)
    deal = _deal_of(game)
    rules = _rules(game)
    if announce:
        _check_announce(game, deal, text, rules)
    if pending == "discard":
        if text is None:
            raise TableError(
                "dealer_must_discard",
                f"The dealer holds {len(deal.hands[YOU])} cards and must discard {deal.owed}.",
            )
        try:
            game["deal"] = _deal_dict(dealer_discard(deal, _parse(text), _rules(game)))
        except DealError as error:
            raise TableError(error.code, error.message) from None
        game["events"].append({"kind": "discard", "seat": "you"})
    else:
        if text is not None:
            try:
                game["deal"] = _deal_dict(engine_rob(deal, YOU, _parse(text)))
            except DealError as error:
                raise TableError(error.code, error.message) from None
            game["events"].append({"kind": "rob", "seat": "you", "card": str(deal.turn_up)})
        elif rules.unannounced_ace_lowest:
            _announce_or_not(game, YOU, announce)
        game["rob_settled"] = True
    _advance(game)


def _check_announce(game: dict[str, Any], deal: Deal, text: str | None, rules: Ruleset) -> None:
    """Whether you may announce the ace now: the engine's judgment first (robbing and
    announcing at once is ``already_robbed``; holding no ace to announce, as the dealer
    throwing a card away, ``not_entitled_to_rob``), then the table's."""
    pending = _pending(game)
    try:
        if pending == "rob" and text is not None:
            announce_ace(engine_rob(deal, YOU, _parse(text)), YOU)
        else:
            announce_ace(deal, YOU)
    except DealError as error:
        raise TableError(error.code, error.message) from None
    if pending == "discard":
        raise TableError("not_now", _not_now(game, "announce the ace"), 409)
    if not rules.unannounced_ace_lowest:
        raise TableError(
            "announce_not_played",
            "Announcing the ace of trumps changes nothing unless an unannounced ace plays as "
            "the lowest trump (unannounced_ace_lowest).",
        )


def bid(game: dict[str, Any], amount: int | None) -> None:
    """Auction: you bid ``amount`` (15, 20, 25, 30) or pass (None); the others bid after you
    (and the winner names trump and leads). Codes: ``not_now`` (409) and the engine's
    ``not_a_bid``, ``bid_too_low``, ``dealer_cannot_hold``."""
    if _pending(game) != "bid":
        raise TableError("not_now", _not_now(game, "bid"), 409)
    auction = _auction(game)
    try:
        _bid(game, auction, YOU, amount)
    except AuctionError as error:
        raise TableError(error.code, error.message) from None
    _advance(game)


def name(game: dict[str, Any], text: str) -> None:
    """Auction: you won the bidding and name trump (``"H"``); you lead. Codes: ``not_now``
    (409), ``bad_suit``."""
    if _pending(game) != "trump":
        raise TableError("not_now", _not_now(game, "name trump"), 409)
    try:
        suit = Suit.parse(str(text))
    except CardError as error:
        raise TableError(error.code, error.message) from None
    _name(game, YOU, suit)
    _advance(game)


def _name(game: dict[str, Any], seat: int, suit: Suit, why: dict[str, Any] | None = None) -> None:
    deal = name_trump(_deal_of(game), seat, suit)
    event = {"kind": "trump_named", "seat": _names(game)[seat], "suit": suit.value}
    game["events"].append(event | ({"why": why} if why else {}))
    if deal.kitty:
        # The kitty: the bidder takes it, then each player from the dealer's left throws away
        # and is dealt back up to five (engine.deal.take_kitty, discard_and_draw).
        game["events"].append(
            {"kind": "kitty", "seat": _names(game)[seat], "count": len(deal.kitty)}
        )
        deal = take_kitty(deal, seat)
    game["deal"] = _deal_dict(deal)
    # The bidder leads, or under ``first_lead: left-of-bidder`` the player on his left.
    left = _rules(game).first_lead == "left-of-bidder"
    game["leader"] = (seat + 1) % _players(game) if left else seat
    game["phase"] = "play"
    if _rules(game).kitty:
        game["phase"] = "draw"
        game["draw_seat"] = (game["dealer"] + 1) % _players(game)


def _draw(
    game: dict[str, Any], seat: int, throw: list[Card], why: dict[str, Any] | None = None
) -> None:
    """``seat`` throws ``throw`` away and is dealt back up to five; after the dealer, play."""
    game["deal"] = _deal_dict(discard_and_draw(_deal_of(game), seat, throw))
    event = {"kind": "draw", "seat": _names(game)[seat], "count": len(throw)}
    game["events"].append(event | ({"why": why} if why else {}))
    if seat == game["dealer"]:
        game["phase"] = "play"
        game["draw_seat"] = None
    else:
        game["draw_seat"] = (seat + 1) % _players(game)


def draw(game: dict[str, Any], texts: list[str]) -> None:
    """Auction with a kitty: throw ``texts`` away and be dealt back up to five (you must keep
    at most five). Codes: ``not_now`` (409), ``bad_card``, ``discard_not_in_hand``,
    ``keeps_too_many``."""
    if _pending(game) != "draw":
        raise TableError("not_now", _not_now(game, "throw away and draw"), 409)
    throw = [_parse(t) for t in texts]
    if len(set(throw)) != len(throw):
        raise TableError("discard_not_in_hand", "The same card is thrown away twice.")
    try:
        _draw(game, YOU, throw)
    except DealError as error:
        raise TableError(error.code, error.message) from None
    _advance(game)


def _parse(text: str) -> Card:
    try:
        return Card.parse(str(text))
    except ValueError:
        raise TableError(
            "bad_card", f"{text!r} is not a card (write it like 5H, 10C, AS, JK)."
        ) from None


def _not_now(game: dict[str, Any], what: str) -> str:
    if game["finished"]:
        return f"The game is over: there is nothing to {what}."
    pending = _pending(game)
    if pending == "discard":
        return "First throw away a card: you dealt and took the turned card."
    if pending == "rob":
        return "First say whether you rob the turned card."
    if pending == "bid":
        return "First bid or pass."
    if pending == "trump":
        return "First name trump: you won the bidding."
    if pending == "draw":
        return "First throw away the cards you do not keep, and draw."
    return f"You cannot {what} now: it is your turn to play a card."


# --- what is shown -------------------------------------------------------------------------------


def _side(seat: int) -> str:
    return SIDES[seat % 2]


def _play_view(entry: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    why = entry.get("why")
    reason = why if isinstance(why, dict) else _reason(why) if why else None
    return {
        "seat": names[entry["seat"]],
        "card": entry["card"],
        "why": _reason_text(reason),
        "reason": reason,
    }


def view(game: dict[str, Any], game_id: str) -> dict[str, Any]:
    """The state as the API describes it (docs/api.md, the practice table)."""
    rules = _rules(game)
    d = game["deal"]
    trump = _trump(game) if d["trump"] else None
    pending = _pending(game)
    hand = _cards(d["hands"][YOU])
    trick = [Card.parse(p["card"]) for p in game["trick"]]
    auction = _auction(game) if pending == "bid" else None
    ace_low = pending == "play" and _ace_low(game)
    legal: list[Card] = []
    refused: dict[str, dict[str, str]] = {}
    keep_back: list[str] = []
    if pending == "play" and trump is not None:
        legal, refused, keep_back = _plays(hand, trick, trump, rules, ace_low)
    names = _names(game)
    alone = _alone(game)
    sides = names if alone else SIDES
    return {
        "id": game_id,
        "ruleset": game["ruleset"],
        "rules": dict(game.get("rules", {})),
        "mode": game["mode"],
        "target": rules.target,
        "seats": [
            {"seat": name, "name": name.capitalize(), "side": None if alone else _side(i)}
            for i, name in enumerate(names)
        ],
        "hand_number": game["hand_number"],
        "dealer": names[game["dealer"]],
        "turned": d["turn_up"],
        "trump": trump.value if trump else None,
        "bots": game.get("bots", "heuristic"),
        "levels": _levels(game),
        "bids": _bids_view(game),
        "legal_bids": auction.legal_bids() if auction is not None else [],
        "auction": _auction_view(game),
        "hand": _texts(hand),
        "trick": [_play_view(p, names) for p in game["trick"]],
        "to_play": names[_to_play(game)] if pending == "play" else None,
        "legal": _texts(legal),
        "refused": refused,
        "keep_back": keep_back,
        "actions": ACTIONS[pending],
        "decision": pending,
        "may_rob": pending == "rob",
        "may_announce": pending == "rob" and rules.unannounced_ace_lowest,
        "ace_low": ace_low,
        "must_discard": pending == "discard",
        "events": [
            e | {"why": _reason_text(e["why"]), "reason": e["why"]} if e.get("why") else e
            for e in game["events"]
        ],
        "trick_number": len(game["tricks"]),
        "last_trick": _last_trick_view(game),
        "tricks_taken": _tricks_taken(game),
        "hand_scores": game["hand_scores"],
        "scores": dict(zip(sides, game["totals"], strict=True)),
        "finished": game["finished"],
        "winner": game["winner"],
        "hint": _hint(game, pending, auction, hand, trick, trump, rules),
    }


#: What you may send for each decision (the API's routes), by ``_pending``.
ACTIONS: Final[dict[str | None, list[str]]] = {
    "play": ["play"],
    "rob": ["rob"],
    "discard": ["rob"],
    "bid": ["bid"],
    "trump": ["trump"],
    "draw": ["draw"],
    None: [],
}


def _plays(
    hand: tuple[Card, ...], trick: list[Card], trump: Suit, rules: Ruleset, ace_low: bool
) -> tuple[list[Card], dict[str, dict[str, str]], list[str]]:
    """Your turn to play: the cards you may play, why each other one is refused (its code
    and rule), and the trumps you may keep back when trumps are led (reneging)."""
    legal = legal_plays(hand, trick, trump, rules, ace_low=ace_low)
    refused: dict[str, dict[str, str]] = {}
    for card in hand:
        try:
            check_play(card, hand, trick, trump, rules, ace_low=ace_low)
        except IllegalPlay as error:
            refused[str(card)] = {"code": error.code, "rule": error.message}
    keep_back: list[str] = []
    order = ordering(trump, rules, ace_low=ace_low)
    if trick and order.follow[trick[0].index] is trump:
        led_power = order.power[trick[0].index]
        keep_back = [
            str(c)
            for c in legal
            if c in order.reneging
            and order.power[c.index] > led_power
            and any(not order.is_trump(o) for o in legal)
        ]
    return legal, refused, keep_back


def _hint(
    game: dict[str, Any],
    pending: str | None,
    auction: Auction | None,
    hand: tuple[Card, ...],
    trick: list[Card],
    trump: Suit | None,
    rules: Ruleset,
) -> dict[str, Any] | None:
    """What the heuristic would do in your place, and why (in the engine's English and as a
    reason with its code); None when there is nothing to decide or no trump yet."""
    adviser = _adviser()
    hint: dict[str, Any] | None = None
    if auction is not None:
        amount, code, figures = explain_bid(adviser, hand, auction, rules)
        hint = {"bid": amount, "reason": _reason(code, **figures)}
    elif pending == "trump":
        suit, code, figures = explain_trump(adviser, hand, rules)
        hint = {"suit": suit.value, "reason": _reason(code, **figures)}
    elif pending in ("rob", "discard") and trump is not None and game["deal"]["turn_up"]:
        hint = _rob_hint(adviser, pending, hand, Card.parse(game["deal"]["turn_up"]), trump, rules)
    elif pending == "play" and trump is not None:
        hint = _play_hint(game, hand, trick, trump, rules)
    elif pending == "draw" and trump is not None:
        thrown = draw_discards(hand, trump, rules)
        hint = {"discards": _texts(thrown), "reason": _reason("draw_keep")}
    if hint is not None:
        hint["why"] = _reason_text(hint["reason"])
    return hint


def _play_hint(
    game: dict[str, Any], hand: tuple[Card, ...], trick: list[Card], trump: Suit, rules: Ruleset
) -> dict[str, Any]:
    """Your card: the strong player's choice in your place and its chances (the same hint
    every time it is asked: its random state is made from the game's seed and the moment)."""
    moment = f"{game['hand_number']}:{len(game['tricks'])}:{len(game['trick'])}"
    strong = StrongBot(random.Random(f"{game['seed']}:hint:{moment}"))
    card, choices = strong.decide(hand, trick, trump, rules, _state(game, YOU))
    why = searched(card, choices)
    if isinstance(why, dict):
        return {"card": str(card), "reason": why | {"code": "hint_searched"}}
    return {"card": str(card), "reason": _reason(why)}


def _rob_hint(
    adviser: HeuristicBot,
    pending: str,
    hand: tuple[Card, ...],
    turned: Card,
    trump: Suit,
    rules: Ruleset,
) -> dict[str, Any]:
    """You dealt and took the turned card (``discard``: the weakest card goes), or were dealt
    the ace of trumps (``rob``: take the turned card, or keep your hand, announcing the ace
    where an ace not announced plays lowest)."""
    if pending == "discard":
        throw = adviser.choose_discard(hand, trump, rules)
        return {"discard": str(throw), "reason": _reason("dealer_weakest")}
    robbed = adviser.choose_rob(hand, turned, trump, rules)
    announce = robbed is None and rules.unannounced_ace_lowest and adviser.announces()
    code = "keep_hand" if robbed is None else "rob_weakest"
    return {
        "discard": None if robbed is None else str(robbed),
        "announce": announce,
        "reason": _reason("keep_announce" if announce else code),
    }


def _bids_view(game: dict[str, Any]) -> list[dict[str, Any]]:
    names = _names(game)
    return [
        {"seat": names[seat], "bid": amount, "why": _reason_text(why), "reason": why}
        for seat, amount, *rest in game.get("bids", [])
        for why in [rest[0] if rest else None]
    ]


def _auction_view(game: dict[str, Any]) -> dict[str, Any] | None:
    """Who won the auction, with what bid and how (None: no auction won yet)."""
    won = game.get("auction")
    if not won:
        return None
    return {"seat": _names(game)[won["seat"]], "bid": won["bid"], "how": won["how"]}


def _last_trick_view(game: dict[str, Any]) -> dict[str, Any] | None:
    last = game["last_trick"]
    if last is None:
        return None
    names = _names(game)
    return {
        "cards": [_play_view(p, names) for p in last["cards"]],
        "winner": names[last["winner"]],
    }


def _tricks_taken(game: dict[str, Any]) -> dict[str, int]:
    """Tricks taken this hand, by side (by player when each plays alone)."""
    names = _names(game)
    alone = _alone(game)
    taken = dict.fromkeys(names if alone else SIDES, 0)
    for winner in game["winners"]:
        taken[names[winner] if alone else _side(winner)] += 1
    return taken
