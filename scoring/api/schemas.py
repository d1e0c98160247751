"""The API's bodies as pydantic models: what each endpoint takes and answers. django-ninja builds
``/api/v1/openapi.json`` from them (``scoring.api.views``; the error schema is
``api.schemas.Error``).

Request bodies (:class:`drives.inputs.Body`) refuse what is not an object (400 ``bad_body``)
and any field they do not name (422 ``unknown_field``). Each field is typed with its rule of
``drives.inputs``, ``Annotated[int, GAMES_RULE]``: the rule judges the value sent before any
service is called, refuses it with its code and words (``bad_winner``, ``missing_player``,
``bad_field`` naming the ``field`` …: the same rules serve the pages' forms, the imports and the
command line) and describes the field in the OpenAPI document. The services then check only
what needs the night's state (a winner at that table, the drive's number of games). When a
body has several faults, an unknown field is named first, then the first field at fault in the
order below.

Response models describe the dicts the selectors build (``scoring.selectors``…); the views
return those dicts as they are, and the schemathesis run checks that they conform.
"""

from datetime import date, datetime
from datetime import date as Date
from decimal import Decimal
from typing import Annotated, Any, Literal

from django.utils.translation import gettext
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    ValidationError,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema

from drives import inputs
from drives.errors import ServiceError
from drives.inputs import Body, Checks
from drives.models import Drive as DriveModel
from scoring.records.schema import DriveExport

# --- building blocks -------------------------------------------------------------------------


def refused(code: str, message: str, **details: Any) -> Any:
    """A refusal of a body's shape in the API's words: ``code`` and ``message`` as they reach
    the caller, and ``details`` (``field``…) beside them."""
    return inputs.refused(ServiceError(code, message, **details))


class Empty(Body):
    """No fields (the body may be left out)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"maxProperties": 0})


# --- drives ----------------------------------------------------------------------------------

# Each setting is judged and described by its rule (drives.inputs.SETTINGS: the bounds, choices
# and words the service, the settings page and the command line use); the house-rule switches
# by the engine (inputs.HOUSE_SWITCHES describes them).


class DriveSettings(Body):
    name: Annotated[str | None, inputs.DRIVE_NAME] = None
    date: Annotated[Date | None, inputs.DATE] = None
    venue: Annotated[str | None, inputs.VENUE] = None
    games: Annotated[int | None, inputs.GAMES_RULE] = None
    ruleset: Annotated[str | None, inputs.RULESET] = None
    rules: Annotated[dict[str, JsonValue] | None, inputs.HOUSE_SWITCHES] = None
    movement: Annotated[str | None, inputs.MOVEMENT] = None
    first_seating: Annotated[str | None, inputs.FIRST_SEATING] = None
    seed: Annotated[int | None, inputs.SEED] = None
    sit_out_counts_as_win: Annotated[bool | None, inputs.SIT_OUT_COUNTS_AS_WIN] = None
    ranking: Annotated[str | None, inputs.RANKING] = None
    entry_fee: Annotated[Decimal | None, inputs.ENTRY_FEE] = None
    entry_fee_per: Annotated[str | None, inputs.ENTRY_FEE_PER] = None
    currency: Annotated[str | None, inputs.CURRENCY] = None
    confirm_by_other_couple: Annotated[bool | None, inputs.CONFIRM_BY_OTHER_COUPLE] = None
    scorers_may_advance: Annotated[bool | None, inputs.SCORERS_MAY_ADVANCE] = None
    slow_table_minutes: Annotated[int | None, inputs.SLOW_TABLE_MINUTES] = None
    published: Annotated[bool | None, inputs.PUBLISHED] = None
    language: Annotated[str | None, inputs.LANGUAGE] = None
    registration_opens: Annotated[datetime | None, inputs.REGISTRATION_OPENS] = None
    registration_closes: Annotated[datetime | None, inputs.REGISTRATION_CLOSES] = None
    capacity: Annotated[int | None, inputs.CAPACITY] = None


class DriveCreate(DriveSettings):
    """A new drive: its club (by slug) and its settings."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"required": ["club", "name", "date"]}
    )

    club: Annotated[str | None, inputs.CLUB_SLUG] = None


class Drive(BaseModel):
    slug: str
    club: str
    name: str
    date: date
    venue: str
    games: int
    ruleset: str
    rules: dict[str, JsonValue] = Field(
        default_factory=dict,
        description="The house rules: the switches that differ from the preset.",
    )
    rules_in_play: dict[str, JsonValue] = Field(
        default_factory=dict, description="Every option of the rules the night is played under."
    )
    movement: str
    first_seating: str
    seed: int | None
    sit_out_counts_as_win: bool
    sit_out_last: bool = Field(
        description="The sit-out is no table: the tables played are 1..F without a hole (false "
        "only for drives stored before this rule)."
    )
    ranking: str
    entry_fee: str
    entry_fee_per: Literal[tuple(DriveModel.FeePer.values)] = Field(  # type: ignore[valid-type]
        description="Whom the entry fee is for: a person (a couple pays it twice) or a couple."
    )
    currency: str
    confirm_by_other_couple: bool
    scorers_may_advance: bool
    slow_table_minutes: int = Field(
        description="Minutes after 80 % of a game's tables reported before the missing ones are "
        "marked slow (0: never)."
    )
    published: bool
    language: str = Field(description="The hall's language (a code of settings.LANGUAGES).")
    registration_opens: datetime | None = Field(
        description="When the public registration opens (null: the drive takes none)."
    )
    registration_closes: datetime | None = Field(
        description="When the registration closes (null: at the start of the night)."
    )
    capacity: int | None = Field(
        description="The couples registered before the wait list (null: no limit)."
    )
    state: Literal[tuple(DriveModel.State.values)]  # type: ignore[valid-type]  # from the model
    current_game: int = Field(description="0 before the start.")
    created_at: datetime
    closed_at: datetime | None


class Counts(BaseModel):
    couples: int
    withdrawn: int
    tables: int = Field(description="Tables of the game in play.")


class GameProgress(BaseModel):
    number: int
    state: Literal["playing", "finished"]
    reported: int
    to_report: int
    missing: list[int]
    conflicts: list[int]
    pending: list[int]
    unusual: list[int]


class DriveDetail(Drive):
    counts: Counts
    game: GameProgress | None = Field(
        description="The game in play: how many tables reported, which are missing, in "
        "conflict, pending; null before the start."
    )


# --- couples ---------------------------------------------------------------------------------


def _named_once(data: Any) -> Any:
    """Players named once (``drives.inputs.couple_named_once``), judged before the names
    unless a field nobody takes is there (named first)."""
    if isinstance(data, dict) and set(data) <= COUPLE_FIELDS:
        try:
            inputs.couple_named_once(data)
        except ServiceError as error:
            raise inputs.refused(error) from None
    return data


PLAYER = inputs.checks(*inputs.PLAYER)
PAID_WAY = inputs.checks(
    inputs.WAY,
    description="With paid: true, how the entry fee was paid (the night's money records it; "
    "cash when not sent).",
)
COUPLE_FIELDS = {
    "players",
    "player1",
    "player2",
    "paid",
    "paid_way",
    "checked_in",
    "cookie_jar",
    "duplicate_ok",
    "withdrawn",
    "player_ids",
}


class CoupleFields(Body):
    """A couple's players' names (as players, or as player1 and player2: not both) and the
    door's ticks, as a couple is registered or changed."""

    _once = model_validator(mode="before")(_named_once)

    players: Annotated[list[str] | None, inputs.PLAYERS] = None
    player1: Annotated[str | None, PLAYER] = None
    player2: Annotated[str | None, PLAYER] = None
    paid: Annotated[bool | None, inputs.FLAGS["paid"]] = None
    paid_way: Annotated[str | None, PAID_WAY] = None
    checked_in: Annotated[bool | None, inputs.FLAGS["checked_in"]] = None
    cookie_jar: Annotated[bool | None, inputs.FLAGS["cookie_jar"]] = None
    player_ids: Annotated[
        list[int | None] | None,
        Field(
            min_length=2,
            max_length=2,
            description="The club's players the two names are (GET /clubs/{club}/players), "
            "null for a name to look up by itself: the same name links to the club's player of "
            "that name, a new name makes a new player, a name the club has several players of "
            "is 409 which_player listing the candidates=[{id, name, last_night}]. An id of no "
            "player of the drive's club is 422 unknown_player; of a player already in another "
            "couple of the night, 409 player_playing naming the couple. One person plays once "
            "a night: a name already playing is another player of that name.",
        ),
    ] = None


class CoupleIn(CoupleFields):
    """Two players' names, as players or as player1 and player2 (not both)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "anyOf": [
                {
                    "required": ["players"],
                    "not": {"anyOf": [{"required": ["player1"]}, {"required": ["player2"]}]},
                },
                {"required": ["player1", "player2"], "not": {"required": ["players"]}},
            ]
        },
    )

    # null: the names are player1 and player2
    players: Annotated[list[str] | None, inputs.PLAYERS_OR_NONE] = None
    duplicate_ok: Annotated[
        bool | None,
        inputs.checks(
            inputs.FLAGS["duplicate_ok"],
            default=False,
            description="Register the couple even though the same two people are already an "
            "active couple of the drive (or an earlier item of the list); otherwise 409 "
            "duplicate_couple.",
        ),
    ] = None


def couples_of(value: Any) -> Any:
    """One couple or a list of them, each a :class:`CoupleIn`, refused in the words of the
    couple at fault ("Couple 3: …" in a list of more than one); anything else is left for the
    view to refuse as no body of couples."""
    if not isinstance(value, dict | list):
        return value
    couples = []
    for i, item in enumerate([value] if isinstance(value, dict) else value, start=1):
        where = f"Couple {i}: " if isinstance(value, list) and len(value) > 1 else ""
        inputs.couple_named_once(item, where)  # as drives.services says "Couple 3: "
        try:
            couples.append(CoupleIn.model_validate(item).sent())
        except ValidationError as error:
            raise inputs.refusal(error.errors(), where) from None
    return couples[0] if isinstance(value, dict) else couples


_COUPLE_IN = CoupleIn.model_json_schema()
#: One couple or a list of them (``couples_of``).
COUPLES_IN = Annotated[
    dict[str, JsonValue] | list[dict[str, JsonValue]],
    Checks(
        couples_of, {"oneOf": [_COUPLE_IN, {"type": "array", "items": _COUPLE_IN, "minItems": 1}]}
    ),
]


class CouplePatch(CoupleFields):
    withdrawn: Annotated[
        bool | None,
        inputs.checks(
            inputs.FLAGS["withdrawn"], description="true: plays no more from the next game."
        ),
    ] = None


class Couple(BaseModel):
    number: int
    players: list[str]
    paid: bool
    checked_in: bool
    cookie_jar: bool
    withdrawn: bool
    joined_game: int
    withdrawn_game: int | None
    holes: int | None


AllowDuplicates = Annotated[bool, inputs.ALLOW_DUPLICATES]


# --- games and results -----------------------------------------------------------------------


class DriveStart(Body):
    """How game 1 is seated (the practice table has a Start of its own: one name each)."""

    seating: Annotated[
        str | None, inputs.checks(inputs.FIRST_SEATING, field="seating", nullable=True)
    ] = None
    seed: Annotated[int | None, inputs.SEED] = None
    absent: Annotated[str, inputs.ABSENT] = "seat"


class TableRow(BaseModel):
    table: int
    stays: int | None
    arrives: int | None
    deals: int
    sit_out: bool
    winner: int | None
    points: list[int] | None
    state: Literal["missing", "sit-out", "accepted", "pending", "conflict"]


class Game(BaseModel):
    number: int
    state: Literal["playing", "finished"]
    started_at: datetime
    tables: list[TableRow]
    missing: list[int]
    conflicts: list[int]
    pending: list[int]
    unusual: list[int]
    reported: int
    to_report: int


class ResultIn(Body):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"required": ["winner"]})

    winner: Annotated[int | None, inputs.WINNER] = None
    points: Annotated[list[int] | None, inputs.POINTS] = None
    key: Annotated[str | None, inputs.RESULT_KEY] = None
    confirm_unusual: Annotated[bool, inputs.checks(inputs.CONFIRM_UNUSUAL, default=False)] = False


class Confirm(Body):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"required": ["accept"]})

    accept: Annotated[bool | None, inputs.ACCEPT] = None


class Resolve(Body):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"required": ["winner", "reason"]})

    winner: Annotated[int | None, inputs.WINNER] = None
    reason: Annotated[str | None, inputs.checks(*inputs.REASON)] = None
    points: Annotated[list[int] | None, inputs.POINTS] = None


class Result(BaseModel):
    game: int
    table: int
    winner: int
    points: list[int] | None
    state: Literal["accepted", "pending", "conflict"]
    verdict: str | None = Field(description="The engine's code for the points.")
    replayed: bool = Field(
        description="True only when nothing was written because the same thing had already "
        "been done."
    )


# --- a table's call to the desk ------------------------------------------------------------


class CallIn(Body):
    """A table calls the desk; the body may be left out."""

    model_config = ConfigDict(extra="forbid")

    reason: Annotated[str | None, inputs.CALL_REASON] = None


class Call(BaseModel):
    id: int
    state: Literal["open", "answered", "closed"] = Field(
        description="open: waiting for the desk; answered: the desk is on its way; closed."
    )
    table: int
    game: int
    reason: str = Field(description="The players' words; empty when none were given.")
    waited_s: int = Field(description="Seconds since the table called.")


# --- standings and the end of the night ------------------------------------------------------


class Standing(BaseModel):
    place: int | None
    number: int
    players: list[str]
    wins: int
    played: int
    withdrawn: bool
    eligible: bool


class GridRow(BaseModel):
    number: int
    players: list[str]
    wins: int
    played: int
    withdrawn: bool
    games: dict[str, Literal["W", "L", "S", "-", "?"]] = Field(
        description="Game number → W won, L lost, S sit-out credited, - sit-out not credited, "
        "? no accepted result yet."
    )


class CurrentTable(BaseModel):
    number: int
    table: int
    opponents: int | None
    deals: bool
    sit_out: bool


class Mismatch(BaseModel):
    number: int
    holes: int
    wins: int
    difference: int
    won_games: list[int]


class Holes(Body):
    """Holes counted on the punch cards, by couple number."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"required": ["holes"]})

    holes: Annotated[dict[int, int], inputs.HOLES_COUNTED] = Field(
        None,  # judged: none sent is refused by the rule
        validate_default=True,
    )


class HolesRecorded(BaseModel):
    recorded: int
    reconciliation: list[Mismatch]


# The drive's full record: the one schema of the export and the restore.
Export = DriveExport


# --- who am I ----------------------------------------------------------------------------------


class UserInfo(BaseModel):
    username: str
    name: str
    superuser: bool


class ClubRole(BaseModel):
    slug: str
    name: str
    role: Literal["organizer", "scorer"]


class Me(BaseModel):
    kind: Literal["user", "table", "couple"]
    via: Literal["session", "bearer"]
    user: UserInfo = None  # type: ignore[assignment]  # left out when absent, never null
    clubs: list[ClubRole] = []
    drive: dict[str, JsonValue] = Field(None, description="The drive of a table or couple token.")  # type: ignore[arg-type]  # left out when absent, never null
    table: int = 0
    couple: Couple = None  # type: ignore[assignment]  # left out when absent, never null
    seat: CurrentTable | None = None


# --- prizes and ties ---------------------------------------------------------------------------


class Prize(BaseModel):
    """Money to the cent in the drive's currency, a prize in kind, or a share of the night's
    takings (``share_of``, ``percent``: its ``amount`` is what the takings make it, rounded down
    to the set-up's ``share_rounding``; fixed when the ties are opened)."""

    amount: str | None = Field(None, pattern=r"^\d+(\.\d{1,2})?$")
    description: str = Field("", max_length=200)
    share_of: Literal["entry", "pot"] | None = None
    percent: int | None = Field(None, ge=1, le=100)


class HalfTimePrize(Prize):
    after_game: int = Field(description="The half-time prize goes to the best after this game.")


CategoryRule = Literal["most_lost_in_a_row", "most_won_in_a_row", "most_lost", "best_after"]


class CategoryPrize(Prize):
    """A prize the hall names, with the rule the night's results decide it by."""

    name: str = Field(max_length=60, description="The hall's name for it: Hard luck.")
    rule: CategoryRule = Field(
        description="most_lost_in_a_row, most_won_in_a_row, most_lost (games lost in all) or "
        "best_after (games won after after_game)."
    )
    after_game: int | None = Field(None, description="best_after: the games after this count.")


class Award(BaseModel):
    couple: int
    amount: str | None
    description: str
    how: Literal["direct", "split", "cut", "play-off", "forfeit-award"]
    tie: int | None


_PRIZE = Prize.model_json_schema()


class PrizeSetupIn(Body):
    """A change to the prize set-up: any of its fields (the ranking, the currency and the
    couples bought in are read, not written, here)."""

    model_config = ConfigDict(extra="forbid", title="PrizeSetupChange")

    prize_places: Annotated[int | None, inputs.PRIZE_PLACES] = None
    prizes: Annotated[list[dict[str, str | None] | None] | None, inputs.PRIZES] = None
    booby: Annotated[bool | None, inputs.PRIZE_SWITCHES["booby"]] = None
    booby_prize: Annotated[dict[str, str | None] | None, inputs.BOOBY_PRIZE] = None
    booby_late_couples: Annotated[
        bool | None,
        inputs.checks(
            inputs.PRIZE_SWITCHES["booby_late_couples"],
            description="Couples who missed games (late arrivals) may take the booby prize "
            "too (false: only couples who played every game).",
        ),
    ] = None
    cookie_jar: Annotated[bool | None, inputs.PRIZE_SWITCHES["cookie_jar"]] = None
    cookie_jar_k: Annotated[int | None, inputs.COOKIE_JAR_K] = None
    buy_in: Annotated[Decimal | None, inputs.BUY_IN] = None
    jackpot_threshold: Annotated[int | None, inputs.JACKPOT_THRESHOLD] = None
    jackpot_amount: Annotated[Decimal | None, inputs.JACKPOT_AMOUNT] = None
    cut_ace_high: Annotated[bool | None, inputs.PRIZE_SWITCHES["cut_ace_high"]] = None
    cut_high_wins: Annotated[
        bool | None,
        inputs.checks(
            inputs.PRIZE_SWITCHES["cut_high_wins"],
            description="The highest card wins a cut (false: the lowest).",
        ),
    ] = None
    house_rule: Annotated[str | None, inputs.HOUSE_RULE] = None
    one_prize_per_couple: Annotated[
        bool | None,
        inputs.checks(
            inputs.PRIZE_SWITCHES["one_prize_per_couple"],
            description="A couple in two prizes (a place, the half-time prize, a named prize "
            "or the booby prize) takes the better (a place, then the half-time prize, then the "
            "named prizes in their order, then the booby prize); the next couple moves up in "
            "the other (default false).",
        ),
    ] = None
    share_rounding: Annotated[str | None, inputs.SHARE_ROUNDING] = None
    half_time: Annotated[dict[str, JsonValue] | None, inputs.HALF_TIME_PRIZE] = None
    categories: Annotated[list[dict[str, JsonValue]] | None, inputs.CATEGORIES] = None


class PrizeSetup(BaseModel):
    prize_places: int
    prizes: list[Prize | None]
    booby: bool
    booby_prize: Prize | None
    booby_late_couples: bool
    cookie_jar: bool
    cookie_jar_k: int
    buy_in: str | float
    bought_in: int = Field(
        description="Couples who bought into the cookie jar at the door: with any, cookie_jar "
        "is true (setting it false is refused, 422 couples_bought_in)."
    )
    jackpot_threshold: int | None
    jackpot_amount: str | float | None
    cut_ace_high: bool
    cut_high_wins: bool
    house_rule: Literal["none", "always-cut", "always-split"]
    one_prize_per_couple: bool = False
    share_rounding: str = "1.00"
    half_time: HalfTimePrize | None = None
    categories: list[CategoryPrize] = Field([], description="The hall's named prizes, in order.")
    takings: dict[str, str] = Field(
        {},
        description="What the shares are shares of, so far: entry (the entry money) and pot "
        "(the entry money, donations and raffle tickets).",
    )
    ranking: Literal["dense", "competition"]
    currency: str


class Entry(BaseModel):
    prize: Prize | None = None
    couples: list[int] = []
    wins: int | None = None
    status: Literal["awarded", "tie", "empty", "pending"] | None = None
    tie: int | None = None
    awards: list[Award] = []


class Place(Entry):
    place: int | None = None
    reason: str | None = None


class LeftOut(BaseModel):
    couple: int | None = None
    name: str | None = None
    played: int | None = None
    wins: int | None = None


class Booby(Entry):
    enabled: bool | None = None
    every_game: bool | None = None
    games: int | None = None
    left_out: list[LeftOut] = Field(
        [],
        description="Couples the every-game rule leaves out (not withdrawn, no prize place): "
        "they missed games.",
    )


class HalfTime(Entry):
    enabled: bool | None = None
    after_game: int | None = None
    played_out: bool | None = Field(
        None, description="The half-time game is played out (until then: status pending)."
    )


class Category(Entry):
    position: int = Field(0, description="Its order among the named prizes (1 first).")
    name: str = ""
    rule: CategoryRule | None = None
    after_game: int | None = None
    score: int | None = Field(
        None,
        description="The best score under the rule (games in a row, lost, or won after "
        "after_game); null while nobody scores.",
    )


class CookieJar(BaseModel):
    enabled: bool
    k: int = 0
    buy_in: str = ""
    entrants: list[int] = []
    carried_in: str = ""
    pot: str = ""
    drawn: dict[str, JsonValue] | None = None
    winners: list[int] = []
    status: Literal["not-drawn", "awarded", "tie", "empty", "carried-over"] | None = None
    needs_buy_in: bool = Field(
        False,
        description="Couples bought in but no buy-in is set (the draw is refused, 422 "
        "no_buy_in, until it is).",
    )
    carried_over: str | None = None
    tie: int | None = None
    awards: list[Award] = []


class PrizeTable(BaseModel):
    currency: str = ""
    opened: bool = False
    places: list[Place] = []
    one_prize_per_couple: bool = False
    takings: dict[str, str] = {}
    booby: Booby = None  # type: ignore[assignment]  # left out when absent, never null
    half_time: HalfTime = None  # type: ignore[assignment]  # left out when absent, never null
    categories: list[Category] = []
    jackpot: dict[str, JsonValue] = {}
    cookie_jar: CookieJar = None  # type: ignore[assignment]  # left out when absent, never null


class Tie(BaseModel):
    id: int
    key: str
    kind: Literal["place", "booby", "half-time", "category", "cookie-jar"]
    name: str | None = Field(None, description="A named prize's tie: the prize's name.")
    places: list[int] = Field(
        description="The prize places covered (a named prize's tie: its position)."
    )
    couples: list[int]
    state: Literal["open", "decided", "settled"]
    method: Literal["split", "cut", "play-off", "award", "empty"] | None
    playing: list[int] = []
    forfeits: list[int] = []
    winner: int | None = None
    decided_by: str | None = None
    decided_channel: str | None = None
    decided_at: str | None = None
    choices: list[dict[str, JsonValue]] = []
    cut_rounds: list[dict[str, JsonValue]] = []
    matches: list[dict[str, JsonValue]] = []
    awards: list[Award] = []


class TiesOpen(Body):
    force: Annotated[bool, inputs.FORCE] = False


class Choice(Body):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"required": ["couple", "choice"]})

    couple: Annotated[int, inputs.COUPLE_NUMBER] = Field(
        None,  # judged: none sent is refused by the rule
        validate_default=True,
    )
    choice: Annotated[str | None, inputs.TIE_CHOICE] = None


# Sent, a seed is refused by name (not as an unknown field); it is not in the description.
NoSeed = Annotated[None, inputs.NO_SEED, SkipJsonSchema()]


class Cut(Body):
    """Cards cut at the table (one round), or ``{"draw": true}``: the server draws."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "oneOf": [
                {"required": ["cards"]},
                {"required": ["draw"], "properties": {"draw": {"const": True}}},
            ]
        },
    )

    cards: Annotated[
        dict[int, str] | None,
        Checks(
            inputs.cards_of,
            {"type": "object", "minProperties": 1, "additionalProperties": {"type": "string"}},
        ),
    ] = None
    draw: Annotated[bool | None, inputs.DRAW] = None
    seed: NoSeed = Field(None, exclude=True)

    @model_validator(mode="before")
    @classmethod
    def _cards_or_draw(cls, data: Any) -> Any:
        if not isinstance(data, dict) or not set(data) <= set(cls.model_fields):
            return data  # not an object, or a field nobody takes: named first
        if data.get("draw") is True and "cards" in data:
            raise refused("cards_or_draw", gettext("Send the cards cut, or draw: true, not both."))
        return data

    @model_validator(mode="after")
    def _cards(self) -> "Cut":
        if self.draw is not True and self.cards is None:
            try:
                inputs.cards_of(None)  # no draw: the cards are needed
            except ServiceError as error:
                raise inputs.refused(error) from None
        return self


class Playoff(Body):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"required": ["match", "winner"]})

    match: Annotated[list[int] | None, inputs.MATCH] = None
    winner: Annotated[int | None, inputs.PLAYOFF_WINNER] = None
    points: Annotated[list[int] | None, inputs.POINTS] = None
    confirm_unusual: Annotated[bool, inputs.CONFIRM_UNUSUAL] = False


class CookieJarDraw(Body):
    """``{}`` (or no body): the server draws; or the games drawn from a hat."""

    games: Annotated[list[int] | None, inputs.COOKIE_JAR_GAMES] = None
    seed: NoSeed = Field(None, exclude=True)


class CutDone(BaseModel):
    cut: dict[str, JsonValue] = Field(
        description="The round cut: its number, the couples of the winning card, whether "
        "the tie is decided (and the seed of a system draw)."
    )
    tie: Tie


class PlayoffDone(BaseModel):
    result: dict[str, JsonValue] = Field(description="The play-off game as recorded.")
    tie: Tie


# --- printed documents -------------------------------------------------------------------------

DOCUMENTS = list(inputs.DOCUMENT_KINDS)


class DocumentIn(Body):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"required": ["document"]})

    document: Annotated[str | None, inputs.DOCUMENT] = None
    paper: Annotated[str, inputs.PAPER] = "letter"
    game: Annotated[int | None, inputs.DOCUMENT_GAME] = None
    couple: Annotated[int | None, inputs.DOCUMENT_COUPLE] = None
    filled: Annotated[bool, inputs.FILLED] = False
    base_url: Annotated[str | None, inputs.BASE_URL] = None


class Document(BaseModel):
    """A printed document and its rendering: pages_done of pages_total while it runs; stale
    when the data it shows has changed since (request it again)."""

    id: int
    document: Literal[tuple(DOCUMENTS)]  # type: ignore[valid-type]  # the kinds, from DOCUMENTS
    paper: Literal["letter", "a4"] = "letter"
    game: int | None = None
    couple: int | None = None
    filled: bool = False
    status: Literal["queued", "running", "done", "failed"]
    pages_done: int
    pages_total: int
    progress: float = Field(0, ge=0, le=1)
    error: str | None = None
    stale: bool = False
    ready: bool = False
    requested_at: datetime | None = None
    finished_at: datetime | None = None
    filename: str = ""
    status_url: str = Field(json_schema_extra={"format": "uri"})
    download_url: str | None = Field(None, json_schema_extra={"format": "uri"})
