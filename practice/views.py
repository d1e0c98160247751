"""The practice table's pages: plain forms (each card a button; playing is a POST), no account
needed. The game's id is in the URL and in the session, so a phone that slept finds it again
from ``/practice/``. Every move goes through ``practice.services``, as the API's do."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from drives.errors import ServiceError
from engine.cards import Card, Suit
from engine.chart import ranking_chart
from engine.rules import get_ruleset
from practice import services, table, words
from practice.forms import PAGE_SWITCHES, HouseRulesForm

SESSION_KEY = "practice_game"


def _current(request: HttpRequest) -> Any:
    """The game this browser was playing, if it is still there."""
    game_id = request.session.get(SESSION_KEY)
    if not game_id:
        return None
    try:
        return services.game_get(game_id)
    except (ServiceError, ValueError):
        return None


def start(request: HttpRequest) -> HttpResponse:
    """GET: choose a game (and find the one this browser was playing). POST: start it."""
    error = None
    status = 200
    rules_form = HouseRulesForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        ruleset = request.POST.get("ruleset", "cape-breton-45")
        mode = request.POST.get("mode", "partners")
        partner = request.POST.get("partner", table.DEFAULT_LEVEL)
        opponents = request.POST.get("opponents", table.DEFAULT_LEVEL)
        if not rules_form.is_valid():
            error = _("Choose each house rule from its list.")
            status = 422
        else:
            try:
                game = services.game_start(
                    request,
                    ruleset,
                    mode,
                    rules=rules_form.rules(),
                    partner=partner,
                    opponents=opponents,
                )
            except ServiceError as refused:
                error = refused.message
                status = refused.status
                switch = refused.details.get("switch")
                if switch in rules_form.fields:
                    rules_form.add_error(switch, refused.message)
            else:
                request.session[SESSION_KEY] = str(game.id)
                return redirect("practice:table", game_id=game.id)
    current = _current(request)
    context = {
        "rulesets": [(key, words.RULESET_NAMES[key]) for key in table.RULESETS],
        "levels": [(key, words.LEVEL_NAMES[key]) for key in table.LEVELS_OFFERED],
        "default_level": table.DEFAULT_LEVEL,
        "modes": [
            ("partners", _("Partners: you and a computer partner against two")),
            ("three-handed", _("Three-handed: you against two, each for themselves")),
        ],
        "rules_form": rules_form,
        "chosen": request.POST if request.method == "POST" else {},
        "current": current,
        "current_view": services.game_view(current) if current else None,
        "error": error,
    }
    return render(request, "practice/start.html", context, status=status)


def _card(text: str) -> dict[str, Any]:
    """A card for the page: its text, its printed name and whether it is red."""
    card = Card.parse(text)
    return {"text": text, "pretty": card.pretty, "red": card.suit is not None and card.suit.is_red}


def _plays(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        entry | {"c": _card(entry["card"]), "name": words.seat_name(entry["seat"])}
        for entry in entries
    ]


def _hand_row(hand: dict[str, Any], columns: list[str]) -> dict[str, Any]:
    """One line of the hands' table: the points of each column (sides, or seats
    three-handed), the bonus card as printed, the bid."""
    points = hand.get("points") or {key: hand[key] for key in columns}
    bonus = hand["bonus"]
    return {
        "hand": hand["hand"],
        "points": [points[key] for key in columns],
        "bonus": None
        if bonus is None
        else bonus
        | {"pretty": _card(bonus["card"])["pretty"], "name": words.seat_name(bonus["seat"])},
        "bid": _named(hand.get("bid")),
    }


def _named(entry: dict[str, Any] | None) -> dict[str, Any] | None:
    """``entry`` with its seat's name (``name``), if there is one."""
    return None if entry is None else entry | {"name": words.seat_name(entry["seat"])}


def _hand_over(view: dict[str, Any], columns: list[str]) -> dict[str, Any] | None:
    """The hand just scored, while no trick of the next one is finished (or the game is
    over): the tricks each took, the bonus, the hand's points and the running totals."""
    if not view["hand_scores"] or (view["trick_number"] and not view["finished"]):
        return None
    hand = view["hand_scores"][-1]
    points = hand.get("points") or {key: hand[key] for key in columns}
    totals = hand.get("totals") or view["scores"]
    bonus = hand["bonus"]
    return {
        "hand": hand["hand"],
        "rows": [
            (words.seat_name(key), hand["tricks"][key], points[key], totals[key]) for key in columns
        ],
        "bonus": None
        if bonus is None
        else bonus
        | {"pretty": _card(bonus["card"])["pretty"], "name": words.seat_name(bonus["seat"])},
        "bid": _named(hand.get("bid")),
        "bid_made": _bid_made(hand),
        "jink": None if hand.get("jink") is None else words.seat_name(hand["jink"]),
    }


def _bid_made(hand: dict[str, Any]) -> bool | None:
    """Auction: whether the bidder's side took at least its bid (None: no bid)."""
    bid = hand.get("bid")
    if not bid:
        return None
    side = "us" if bid["seat"] in ("you", "partner") else "them"
    return bool(hand["taken"][side] >= bid["bid"])


def _hint(view: dict[str, Any]) -> dict[str, Any] | None:
    """The hint for the decision at hand, cards as printed."""
    hint = view["hint"]
    if not hint:
        return None
    shown = dict(hint)
    for key in ("card", "discard"):
        if hint.get(key):
            shown[key] = _card(hint[key])
    if hint.get("discards") is not None:
        shown["discard_names"] = [_card(text)["pretty"] for text in hint["discards"]]
    if hint.get("suit"):
        shown["suit_name"] = words.suit_name(hint["suit"])
    return shown


@require_GET
def table_page(request: HttpRequest, game_id: UUID) -> HttpResponse:
    try:
        game = services.game_get(game_id)
    except ServiceError:
        return render(request, "practice/gone.html", status=404)
    if request.session.get(SESSION_KEY) != str(game.id):
        request.session[SESSION_KEY] = str(game.id)  # this browser's game from now on
    view = services.game_view(game)
    rules = get_ruleset(view["ruleset"])
    columns = list(view["scores"])
    hand = []
    for text in view["hand"]:
        card = _card(text)
        refused = view["refused"].get(text)
        card["legal"] = text in view["legal"]
        card["refusal"] = (
            words.refusal(refused["code"], led=view["trick"][0]["card"]) if refused else ""
        )
        card["keep_back"] = (
            str(words.KEEP_BACK).format(card=card["pretty"]) if text in view["keep_back"] else ""
        )
        hand.append(card)
    chart = ranking_chart(rules)
    trump = view["trump"]
    chart_suit = trump or "H"  # while bidding: the chart with hearts trumps, as an example
    symbols = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
    context = {
        "game": view,
        "ruleset_name": words.RULESET_NAMES[view["ruleset"]],
        "partner_level": words.LEVEL_NAMES[view["levels"]["partner"]],
        "opponents_level": words.LEVEL_NAMES[view["levels"]["opponents"]],
        "dealer_name": words.seat_name(view["dealer"]),
        "auction_name": words.seat_name(view["auction"]["seat"]) if view["auction"] else "",
        "bids": [b | {"name": words.seat_name(b["seat"])} for b in view["bids"]],
        "hand_over": _hand_over(view, columns),
        "hand": hand,
        "trick": _plays(view["trick"]),
        "last_trick": _plays(view["last_trick"]["cards"]) if view["last_trick"] else [],
        "turned": _card(view["turned"]) if view["turned"] else None,
        "trump_name": words.suit_name(trump) if trump else "",
        "trump_symbol": symbols.get(trump or "", ""),
        "chart_symbol": symbols[chart_suit],
        "suits": [(s, symbols[s], words.suit_name(s)) for s in "CDHS"],
        "hint": _hint(view),
        "chart_trumps": chart["trumps"][chart_suit],
        "ace_of_trumps": Card(14, Suit.parse(trump)).pretty if trump else "",
        "chart_offsuit": [
            (words.suit_name(s), cards) for s, cards in chart["offsuit"].items() if s != chart_suit
        ],
        "chart": chart,
        # Cards as printed (A♥, not AH) where the page names them in a sentence.
        "events": [
            e
            | {"name": words.seat_name(e["seat"])}
            | ({"pretty": _card(e["card"])["pretty"]} if e.get("card") else {})
            | ({"suit_name": words.suit_name(e["suit"])} if e.get("suit") else {})
            for e in view["events"]
        ],
        "last_winner_name": words.seat_name(view["last_trick"]["winner"])
        if view["last_trick"]
        else "",
        "score_rows": [(words.seat_name(k), v, k) for k, v in view["scores"].items()],
        "hand_rows": [_hand_row(h, columns) for h in view["hand_scores"]],
        "won": view["winner"] in ("us", "you"),
        "winner_name": words.seat_name(view["winner"] or ""),
        "alone": view["mode"] == "three-handed",
        # "Play again" keeps the house rules the start page offers.
        "again_rules": [
            (name, str(value)) for name, value in view["rules"].items() if name in PAGE_SWITCHES
        ],
    }
    return render(request, "practice/table.html", context)


def _move(request: HttpRequest, game_id: UUID, call: Any) -> HttpResponse:
    try:
        call()
    except ServiceError as error:
        if error.status == 404:
            return render(request, "practice/gone.html", status=404)
        messages.error(request, error.message)
    return redirect("practice:table", game_id=game_id)


@require_POST
def play(request: HttpRequest, game_id: UUID) -> HttpResponse:
    card = request.POST.get("card", "")
    return _move(request, game_id, lambda: services.game_play(game_id, card))


@require_POST
def rob(request: HttpRequest, game_id: UUID) -> HttpResponse:
    discard = request.POST.get("discard") or None
    announce = request.POST.get("announce") == "1"
    return _move(request, game_id, lambda: services.game_rob(game_id, discard, announce))


@require_POST
def bid(request: HttpRequest, game_id: UUID) -> HttpResponse:
    raw = request.POST.get("bid", "")
    amount = int(raw) if raw.isdigit() and len(raw) < 4 else None if raw == "" else -1
    return _move(request, game_id, lambda: services.game_bid(game_id, amount))


@require_POST
def draw(request: HttpRequest, game_id: UUID) -> HttpResponse:
    discards = request.POST.getlist("discard")[:9]
    return _move(request, game_id, lambda: services.game_draw(game_id, discards))


@require_POST
def trump(request: HttpRequest, game_id: UUID) -> HttpResponse:
    suit = request.POST.get("suit", "")[:2]
    return _move(request, game_id, lambda: services.game_trump(game_id, suit))
