"""The practice table's JSON endpoints (docs/api.md, "Practice"): a router that
``config.urls`` mounts on the site's API (``api.site``), so that its answers and errors are the
API's own (``{"code", "message", …}``). No credentials are needed: the game's unguessable id is
its key, and no session is read (no CSRF check applies)."""

from __future__ import annotations

from typing import Any, Literal
from uuid import UUID

from django.http import HttpRequest, JsonResponse
from ninja import Router
from pydantic import BaseModel, ConfigDict, Field, JsonValue, StrictBool, StrictInt

from drives.inputs import Body
from practice import services

router = Router(auth=None, tags=["practice"])

TAG = "practice"


class Start(Body):
    # The same names as practice.table.RULESETS and MODES (tests/practice/test_api.py).
    ruleset: Literal["cape-breton-45", "irish-45-joker", "auction-120"] = "cape-breton-45"
    mode: Literal["partners", "three-handed"] = "partners"
    # engine.beginner.STRENGTHS: one strength for every computer player (before the levels).
    bots: Literal["heuristic", "beginner"] = "heuristic"
    # practice.table.LEVELS_OFFERED: the partner's and the opponents' levels (none: ``bots``).
    partner: Literal["beginner", "sensible", "strong"] | None = None
    opponents: Literal["beginner", "sensible", "strong"] | None = None
    # The house-rule switches, as a drive's ``rules`` (docs/rules.md): checked by the engine.
    # (each switch's value is the engine's to judge)
    rules: dict[str, JsonValue] = Field(default_factory=dict, max_length=40)


class Play(Body):
    card: str = Field(max_length=3)


class Rob(Body):
    discard: str | None = Field(max_length=3)
    # Under unannounced_ace_lowest: keep your hand and announce the ace (true or false only).
    announce: StrictBool = False


class Bid(Body):
    bid: StrictInt | None


class Draw(Body):
    discards: list[str] = Field(max_length=9)


class Trump(Body):
    suit: Literal["C", "D", "H", "S"]


class Problem(BaseModel):
    model_config = ConfigDict(extra="allow")
    code: str
    message: str


class State(BaseModel):
    """The game as :func:`practice.table.view` gives it (fields in docs/api.md)."""

    model_config = ConfigDict(extra="allow")
    id: str
    ruleset: str
    rules: dict[str, JsonValue]
    house_rules: list[str]
    mode: str
    dealer: str
    turned: str | None
    trump: str | None
    hand: list[str]
    trick: list[dict[str, JsonValue]]
    to_play: str | None
    legal: list[str]
    actions: list[str]
    finished: bool
    winner: str | None


def _ok(game: Any, status: int = 200) -> JsonResponse:
    return JsonResponse(
        services.game_view(game), status=status, json_dumps_params={"ensure_ascii": False}
    )


PATH = "/practice/{uuid:game_id}"
# What a move answers: the new state, or why it was refused.
MOVE_ANSWERS = {200: State, 400: Problem, 404: Problem, 409: Problem, 413: Problem, 422: Problem}


@router.post(
    "/practice",
    response={201: State, 400: Problem, 413: Problem, 422: Problem, 429: Problem},
    url_name="practice-start",
    operation_id="practice_start",
    summary="Start a practice game",
    description="`mode` `partners`: you and a computer partner against two computer players; "
    "`three-handed`: you against two, each for themselves (not in auction). `bots`: the "
    "computer players' strength, `heuristic` (default) or `beginner`, for all three; "
    "`partner` and `opponents` choose each a level instead: `beginner`, `sensible` (a club "
    "regular) or `strong` (it searches the likely deals of the cards it cannot see). The "
    "game's seed and the other players' cards stay on the server: no answer carries them, "
    "and a `seed` sent is 422 `unknown_field`. The state answered "
    "is after the computer players have played up to your first decision. At most "
    "`PRACTICE_GAMES_PER_HOUR` games per address an hour (429 `rate_limited`). `rules`: the "
    'house-rule switches of docs/rules.md, as a drive\'s (`{"renege": "none"}`); a switch '
    "that does not go with the ruleset is 422 with the engine's code and `switch` naming it. "
    "The "
    "state carries `rules` (the switches that differ from the preset) and `house_rules` (the "
    "rules in words).",
)
def practice_start(request: HttpRequest, payload: Start) -> JsonResponse:
    game = services.game_start(
        request,
        payload.ruleset,
        payload.mode,
        payload.bots,
        payload.rules,
        partner=payload.partner,
        opponents=payload.opponents,
    )
    return _ok(game, 201)


@router.get(
    PATH,
    response={200: State, 404: Problem},
    url_name="practice-game",
    operation_id="practice_game",
    summary="A practice game's state",
    description="Unknown ids and games a day past their last move are 404 `not_found`.",
)
def practice_game(request: HttpRequest, game_id: UUID) -> JsonResponse:
    return _ok(services.game_get(game_id))


@router.post(
    PATH + "/play",
    response=MOVE_ANSWERS,
    url_name="practice-play",
    operation_id="practice_play",
    summary="Play a card",
    description="Answers the state after the computer players have played up to your next "
    "decision. An illegal card is 422 with the engine's code (`must_follow_trump`, "
    "`must_follow_suit`, `must_follow_hearts`, `not_in_hand`), the reason in plain words "
    "(`message`) and the engine's rule (`rule`); the game is unchanged. Not your turn: 409 "
    "`not_your_turn`.",
)
def practice_play(request: HttpRequest, game_id: UUID, payload: Play) -> JsonResponse:
    return _ok(services.game_play(game_id, payload.card))


@router.post(
    PATH + "/rob",
    response=MOVE_ANSWERS,
    url_name="practice-rob",
    operation_id="practice_rob",
    summary="Rob the turn-up, decline, or discard as dealer",
    description='Dealt the ace of trumps: `{"discard": "2C"}` takes the turned card and '
    'throws the 2♣ away, `{"discard": null}` declines. Under `unannounced_ace_lowest` '
    '(`may_announce` in the state), `{"discard": null, "announce": true}` declines and '
    "announces the ace, which then keeps its rank; declined without announcing, it plays as "
    "the lowest trump this hand (`ace_low` in the state once play starts). `announce` is "
    "true or false (another value is 422 `bad_field`); announcing while robbing is 422 "
    "`already_robbed`, without the switch 422 `announce_not_played`. Dealer who took a "
    "turned ace or joker: the card to throw away (null is 422 `dealer_must_discard`; "
    "announcing then is 422 `not_entitled_to_rob`).",
)
def practice_rob(request: HttpRequest, game_id: UUID, payload: Rob) -> JsonResponse:
    return _ok(services.game_rob(game_id, payload.discard, payload.announce))


@router.post(
    PATH + "/bid",
    response=MOVE_ANSWERS,
    url_name="practice-bid",
    operation_id="practice_bid",
    summary="Bid or pass (auction)",
    description='`{"bid": 20}` or `{"bid": null}` to pass, in turn from the dealer\'s '
    "left. 422 with the engine's code (`not_a_bid`, `bid_too_low`); 409 `not_now` when it is "
    "not your turn to bid.",
)
def practice_bid(request: HttpRequest, game_id: UUID, payload: Bid) -> JsonResponse:
    return _ok(services.game_bid(game_id, payload.bid))


@router.post(
    PATH + "/draw",
    response=MOVE_ANSWERS,
    url_name="practice-draw",
    operation_id="practice_draw",
    summary="Throw away and draw (auction with a kitty)",
    description='`{"discards": ["2C", "9D"]}`: the cards you throw away; you are dealt '
    "back up to five. 422 `discard_not_in_hand`, `keeps_too_many` (more than five kept); 409 "
    "`not_now` unless trump is named and it is your turn to draw.",
)
def practice_draw(request: HttpRequest, game_id: UUID, payload: Draw) -> JsonResponse:
    return _ok(services.game_draw(game_id, payload.discards))


@router.post(
    PATH + "/trump",
    response=MOVE_ANSWERS,
    url_name="practice-trump",
    operation_id="practice_trump",
    summary="Name trump (auction: the winning bidder)",
    description='`{"suit": "H"}`; you then lead. 409 `not_now` unless you won the bidding '
    "and trump is not named yet.",
)
def practice_trump(request: HttpRequest, game_id: UUID, payload: Trump) -> JsonResponse:
    return _ok(services.game_trump(game_id, payload.suit))
