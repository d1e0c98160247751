"""The API's bodies as pydantic models: what each endpoint takes and answers. django-ninja builds
``/api/v1/openapi.json`` from them (``scoring.api.views``).

Request bodies (``…In``, ``extra="forbid"``) refuse what is not an object (400 ``bad_body``) and
any field they do not name (422 ``unknown_field``). The values of their fields are the
services' to judge (``drives.services``, ``scoring.services``, ``scoring.prizes.services``) by
the rules of ``drives.inputs``: the same rules serve the pages' forms, the imports, the command
line and the API, with their codes (``bad_winner``, ``missing_player``, ``bad_field`` naming the
``field`` …). So a field whose value a service checks is typed ``Annotated[Any,
documented(schema)]``: its JSON Schema is its rule's (``Rule.json_schema()``) where it has one,
and the service says what is wrong with what came. The few checks that were the API's
own (the couple numbers of the holes and of a cut, the seed of a draw, yes/no flags) are
validators here, raising
:class:`pydantic_core.PydanticCustomError` with the code and words the API has always used.

Response models describe the dicts the selectors build (``scoring.selectors``…); the views
return those dicts as they are, and the schemathesis run checks that they conform.
"""

from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    WithJsonSchema,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from drives.inputs import (
    CALL_REASON,
    CONFIRM_UNUSUAL,
    POINTS,
    PRIZE_SETUP,
    SETTINGS,
    WINNER,
    player_schema,
)
from drives.models import Drive as DriveModel
from engine.rules import CHOICES, SWITCHES
from scoring.records.schema import DriveExport

# --- building blocks -------------------------------------------------------------------------


def documented(schema: dict[str, Any]) -> WithJsonSchema:
    """The description of a field taken as sent (its service checks it), ``Annotated[Any,
    documented(schema)]``: the JSON schema ``schema`` stands for it in the OpenAPI document."""
    return WithJsonSchema(schema)


def _nullable(kind: str, **extra: Any) -> dict[str, Any]:
    return {"type": [kind, "null"], **extra}


NUMBER = {"type": "integer", "minimum": 1, "maximum": 999_999_999}
# A player's name: some text (spaces are collapsed), at most 80 characters (drives.inputs.PLAYER).
NAME = player_schema()
NAMES = {"type": "array", "items": NAME, "minItems": 2, "maxItems": 2}
BOOLEAN = {"type": "boolean"}
INTEGERS = {"type": "array", "items": {"type": "integer"}}


# Marks the errors raised in the API's words (scoring.api.views.refusal passes them on as they are).
API_CODE = "api_code"


def error(code: str, message: str, **details: Any) -> PydanticCustomError:
    """A refusal in the API's words: ``code`` and ``message`` as they reach the caller, and
    ``details`` (``field``…) beside them."""
    return PydanticCustomError(code, message, {API_CODE: True, **details})


def _couple_number(value: Any, field: str = "couple") -> int:
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 9:
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise error("bad_couple", f"{value!r} is not a couple number.", field=field)


def _yes_no(name: str, *, json: bool = False) -> Any:
    """true or false: a JSON boolean in a body (``json``); in a query, also 1 or 0."""

    def check(value: Any) -> bool:
        if isinstance(value, bool):
            return value
        if json:
            raise error("bad_field", f"{name} must be true or false.", field=name)
        text = str(value).strip().lower()
        if text not in ("true", "false", "1", "0"):
            raise error("bad_field", f"{name} must be true or false.", field=name)
        return text in ("true", "1")

    return BeforeValidator(check)


class Body(BaseModel):
    """A JSON object with only the fields named (422 ``unknown_field`` otherwise)."""

    model_config = ConfigDict(extra="forbid")

    def sent(self) -> dict[str, Any]:
        """The fields the caller sent, as sent."""
        return self.model_dump(exclude_unset=True)


class Empty(Body):
    """No fields (the body may be left out)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"maxProperties": 0})


# --- errors ----------------------------------------------------------------------------------


class Verdict(BaseModel):
    """The engine's judgement on a final score."""

    status: Literal["ok", "unusual", "impossible"] | None = None
    code: str | None = None
    message: str | None = None
    hand: int | None = None


class CsvError(BaseModel):
    line: int | None = None
    message: str | None = None


class Duplicate(BaseModel):
    line: int | None = None
    players: list[str] | None = None
    couple: int | None = None
    same_as_line: int | None = None


class Error(BaseModel):
    """Every error: a stable code, words for a person, and details by code (missing, conflicts
    and pending tables, CSV errors, the engine's verdict…)."""

    model_config = ConfigDict(extra="allow")

    code: str
    message: str
    field: str = ""
    path: str = Field("", description="`bad_text`: where the text is (`prizes[1].description`).")
    errors: list[CsvError] = []
    duplicates: list[Duplicate] = Field(
        [],
        description="duplicate_couples: the file's rows already registered (couple) or listed "
        "on an earlier line (same_as_line).",
    )
    verdict: Verdict | None = None
    missing: list[int] = []
    conflicts: list[int] = []
    pending: list[int] = []
    winner: int = 0
    points: list[int] | None = None
    differs: list[Literal["winner", "points"]] = Field(
        [],
        description="key_reused, result_conflict: what differs from the result stored "
        "(winner and points just above).",
    )
    key: str = Field("", description="key_reused: the key sent again.")
    table: int | None = None
    game: int = 0
    allowed: list[str] = []
    couple: int | None = Field(
        None,
        description="duplicate_couple: the couple the names already are (null when an earlier "
        "item of the list, same_as); started: the couple.",
    )
    players: list[str] = []
    item: int = Field(0, description="duplicate_couple: the list's item.")
    same_as: int | None = None


# --- drives ----------------------------------------------------------------------------------

# Each setting's JSON Schema is its rule's (drives.inputs.SETTINGS: the bounds, choices and
# words the service, the settings page and the command line use); the house-rule switches are
# the engine's.
SETTINGS_DOC: dict[str, Any] = {name: rule.json_schema() for name, rule in SETTINGS.items()} | {
    "rules": {
        "type": "object",
        "description": "The hall's house rules: the switches that differ from the preset "
        "(docs/rules.md lists each with its source); {} plays the preset as it is. A switch "
        "that makes no sense with the preset (an auction switch without the auction) is "
        "refused, naming it.",
        "properties": {
            name: {"enum": list(CHOICES[name])}
            if name in CHOICES
            else _nullable("integer", maximum=-5, minimum=-1000)
            if name == "floor"
            else BOOLEAN
            for name in ("thirty_for_sixty", *SWITCHES)
        },
    },
}


class DriveSettings(Body):
    name: Annotated[Any, documented(SETTINGS_DOC["name"])] = None
    date: Annotated[Any, documented(SETTINGS_DOC["date"])] = None
    venue: Annotated[Any, documented(SETTINGS_DOC["venue"])] = None
    games: Annotated[Any, documented(SETTINGS_DOC["games"])] = None
    ruleset: Annotated[Any, documented(SETTINGS_DOC["ruleset"])] = None
    rules: Annotated[Any, documented(SETTINGS_DOC["rules"])] = None
    movement: Annotated[Any, documented(SETTINGS_DOC["movement"])] = None
    first_seating: Annotated[Any, documented(SETTINGS_DOC["first_seating"])] = None
    seed: Annotated[Any, documented(SETTINGS_DOC["seed"])] = None
    sit_out_counts_as_win: Annotated[Any, documented(SETTINGS_DOC["sit_out_counts_as_win"])] = None
    ranking: Annotated[Any, documented(SETTINGS_DOC["ranking"])] = None
    entry_fee: Annotated[Any, documented(SETTINGS_DOC["entry_fee"])] = None
    entry_fee_per: Annotated[Any, documented(SETTINGS_DOC["entry_fee_per"])] = None
    currency: Annotated[Any, documented(SETTINGS_DOC["currency"])] = None
    confirm_by_other_couple: Annotated[Any, documented(SETTINGS_DOC["confirm_by_other_couple"])] = (
        None
    )
    scorers_may_advance: Annotated[Any, documented(SETTINGS_DOC["scorers_may_advance"])] = None
    slow_table_minutes: Annotated[Any, documented(SETTINGS_DOC["slow_table_minutes"])] = None
    published: Annotated[Any, documented(SETTINGS_DOC["published"])] = None
    language: Annotated[Any, documented(SETTINGS_DOC["language"])] = None


class DriveCreate(DriveSettings):
    """A new drive: its club (by slug) and its settings."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"required": ["club", "name", "date"]}
    )

    club: Annotated[Any, documented({"type": "string", "description": "The club's slug."})] = None


class Drive(BaseModel):
    slug: str
    club: str
    name: str
    date: date
    venue: str
    games: int
    ruleset: str
    rules: dict[str, Any] = Field(
        default_factory=dict,
        description="The house rules: the switches that differ from the preset.",
    )
    rules_in_play: dict[str, Any] = Field(
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


PAID_WAY = {
    "type": "string",
    "enum": ["cash", "card", "e-transfer", "other"],
    "description": "With paid: true, how the entry fee was paid (the night's money "
    "records it; cash when not sent).",
}


class CoupleIn(Body):
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

    players: Annotated[Any, documented(NAMES)] = None
    player1: Annotated[Any, documented(NAME)] = None
    player2: Annotated[Any, documented(NAME)] = None
    paid: Annotated[Any, documented(BOOLEAN)] = None
    paid_way: Annotated[Any, documented(PAID_WAY)] = None
    checked_in: Annotated[Any, documented(BOOLEAN)] = None
    cookie_jar: Annotated[Any, documented(BOOLEAN)] = None
    duplicate_ok: Annotated[
        Any,
        documented(
            {
                "type": "boolean",
                "default": False,
                "description": "Register the couple even though the same two people are already an "
                "active couple of the drive (or an earlier item of the list); otherwise 409 "
                "duplicate_couple.",
            }
        ),
    ] = None


# One couple or a list of them: each is checked by the service, which numbers its refusals
# ("Couple 3: …"), so the list is taken as sent and described here.
_COUPLE_IN = CoupleIn.model_json_schema()
COUPLES_IN = Annotated[
    Any, documented({"oneOf": [_COUPLE_IN, {"type": "array", "items": _COUPLE_IN, "minItems": 1}]})
]


class CouplePatch(Body):
    players: Annotated[Any, documented(NAMES)] = None
    player1: Annotated[Any, documented(NAME)] = None
    player2: Annotated[Any, documented(NAME)] = None
    paid: Annotated[Any, documented(BOOLEAN)] = None
    paid_way: Annotated[Any, documented(PAID_WAY)] = None
    checked_in: Annotated[Any, documented(BOOLEAN)] = None
    cookie_jar: Annotated[Any, documented(BOOLEAN)] = None
    withdrawn: Annotated[
        Any,
        documented({"type": "boolean", "description": "true: plays no more from the next game."}),
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


AllowDuplicates = Annotated[bool, _yes_no("allow_duplicates")]


# --- games and results -----------------------------------------------------------------------


class Start(Body):
    seating: Annotated[Any, documented({"enum": list(DriveModel.FirstSeating.values)})] = None
    seed: Annotated[Any, documented({"type": "integer", "minimum": 0, "maximum": 2**63 - 1})] = None
    absent: Annotated[
        Any,
        documented(
            {
                "enum": ["seat", "withdraw"],
                "default": "seat",
                "description": "The couples not checked in: seated anyway, or left out (withdrawn "
                "before game 1).",
            }
        ),
    ] = None


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

    winner: Annotated[Any, documented(WINNER.json_schema())] = None
    points: Annotated[Any, documented(POINTS.json_schema())] = None
    key: Annotated[
        Any,
        documented(
            {
                "type": "string",
                "maxLength": 80,
                "description": "A client-generated id: the same key again is a replay (200).",
            }
        ),
    ] = None
    confirm_unusual: Annotated[
        Any, documented(CONFIRM_UNUSUAL.json_schema() | {"default": False})
    ] = False


class Confirm(Body):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"required": ["accept"]})

    accept: Annotated[Any, documented(BOOLEAN)] = None


class Resolve(Body):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"required": ["winner", "reason"]})

    winner: Annotated[Any, documented({"type": "integer"})] = None
    reason: Annotated[Any, documented({"type": "string", "maxLength": 1000})] = None
    points: Annotated[Any, documented(INTEGERS | {"minItems": 2})] = None


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

    reason: Annotated[Any, documented(CALL_REASON.json_schema())] = None


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

    holes: Annotated[
        Any,
        documented(
            {
                "type": "object",
                "description": 'Couple number → holes counted, e.g. {"12": 18}.',
                "additionalProperties": {"type": "integer", "minimum": 0},
            }
        ),
    ] = Field(None, validate_default=True)

    @field_validator("holes")
    @classmethod
    def _by_number(cls, counted: Any) -> dict[int, Any]:
        if not isinstance(counted, dict) or not counted:
            raise error(
                "bad_holes", 'holes maps couple numbers to counts, like {"12": 18}.', field="holes"
            )
        by_number: dict[int, Any] = {}
        for key, count in counted.items():
            if not (key.isascii() and key.isdigit() and 0 < len(key) <= 9):
                raise error("unknown_couple", f"{key!r} is not a couple number.", field="holes")
            by_number[int(key)] = count
        return by_number


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
    drive: dict[str, Any] = Field(None, description="The drive of a table or couple token.")  # type: ignore[arg-type]  # left out when absent, never null
    table: int = 0
    couple: Couple = None  # type: ignore[assignment]  # left out when absent, never null
    seat: CurrentTable | None = None


# --- prizes and ties ---------------------------------------------------------------------------


class Prize(BaseModel):
    """Money to the cent in the drive's currency, or a prize in kind."""

    amount: str | None = Field(None, pattern=r"^\d+(\.\d{1,2})?$")
    description: str = Field("", max_length=200)


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

    prize_places: Annotated[Any, documented(PRIZE_SETUP["prize_places"].json_schema())] = None
    prizes: Annotated[
        Any, documented({"type": "array", "items": {"oneOf": [_PRIZE, {"type": "null"}]}})
    ] = None
    booby: Annotated[Any, documented(BOOLEAN)] = None
    booby_prize: Annotated[Any, documented({"oneOf": [_PRIZE, {"type": "null"}]})] = None
    booby_late_couples: Annotated[
        Any,
        documented(
            {
                "type": "boolean",
                "description": "Couples who missed games (late arrivals) may take the booby prize "
                "too (false: only couples who played every game).",
            }
        ),
    ] = None
    cookie_jar: Annotated[Any, documented(BOOLEAN)] = None
    cookie_jar_k: Annotated[Any, documented(PRIZE_SETUP["cookie_jar_k"].json_schema())] = None
    buy_in: Annotated[Any, documented(PRIZE_SETUP["buy_in"].json_schema())] = None
    jackpot_threshold: Annotated[
        Any, documented(PRIZE_SETUP["jackpot_threshold"].json_schema())
    ] = None
    jackpot_amount: Annotated[Any, documented(PRIZE_SETUP["jackpot_amount"].json_schema())] = None
    cut_ace_high: Annotated[Any, documented(BOOLEAN)] = None
    cut_high_wins: Annotated[
        Any,
        documented(
            {"type": "boolean", "description": "The highest card wins a cut (false: the lowest)."}
        ),
    ] = None
    house_rule: Annotated[Any, documented(PRIZE_SETUP["house_rule"].json_schema())] = None


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
    ranking: Literal["dense", "competition"]
    currency: str


class Entry(BaseModel):
    prize: Prize | None = None
    couples: list[int] = []
    wins: int | None = None
    status: Literal["awarded", "tie", "empty"] | None = None
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


class CookieJar(BaseModel):
    enabled: bool
    k: int = 0
    buy_in: str = ""
    entrants: list[int] = []
    carried_in: str = ""
    pot: str = ""
    drawn: dict[str, Any] | None = None
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
    booby: Booby = None  # type: ignore[assignment]  # left out when absent, never null
    jackpot: dict[str, Any] = {}
    cookie_jar: CookieJar = None  # type: ignore[assignment]  # left out when absent, never null


class Tie(BaseModel):
    id: int
    key: str
    kind: Literal["place", "booby", "cookie-jar"]
    places: list[int]
    couples: list[int]
    state: Literal["open", "decided", "settled"]
    method: Literal["split", "cut", "play-off", "award", "empty"] | None
    playing: list[int] = []
    forfeits: list[int] = []
    winner: int | None = None
    decided_by: str | None = None
    decided_channel: str | None = None
    decided_at: str | None = None
    choices: list[dict[str, Any]] = []
    cut_rounds: list[dict[str, Any]] = []
    matches: list[dict[str, Any]] = []
    awards: list[Award] = []


class TiesOpen(Body):
    force: Annotated[bool, _yes_no("force", json=True), WithJsonSchema(BOOLEAN)] = False


class Choice(Body):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"required": ["couple", "choice"]})

    couple: Annotated[Any, documented({"type": "integer"})] = Field(None, validate_default=True)
    choice: Annotated[Any, documented({"enum": ["split", "cut", "play-off", "forfeit"]})] = None

    @field_validator("couple")
    @classmethod
    def _number(cls, value: Any) -> int:
        return _couple_number(value)


def _refuse_seed(value: Any) -> Any:
    """A draw's seed is the server's to draw (``scoring.prizes.services.new_seed``), not the
    caller's."""
    raise error(
        "seed_not_accepted",
        "The seed of a draw is drawn by the server and recorded with it; it cannot be sent.",
        field="seed",
    )


# Sent, a seed is refused by name (not as an unknown field); it is not in the description.
NoSeed = Annotated[Any, BeforeValidator(_refuse_seed), Field(exclude=True)]


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
        Any,
        documented(
            {"type": "object", "minProperties": 1, "additionalProperties": {"type": "string"}}
        ),
    ] = None
    draw: Annotated[Any, documented({"type": "boolean"})] = None
    seed: NoSeed = None

    @model_validator(mode="after")
    def _cards_or_draw(self) -> "Cut":
        sent = self.model_fields_set
        if self.draw is True:
            if "cards" in sent:
                raise error("cards_or_draw", "Send the cards cut, or draw: true, not both.")
            return self
        if "draw" in sent and self.draw is not False:
            raise error("bad_field", "draw must be true or false.", field="draw")
        cards = self.cards
        if not isinstance(cards, dict) or not cards:
            raise error(
                "bad_cards", 'cards maps couple numbers to cards, like {"3": "7H"}.', field="cards"
            )
        self.cards = {_couple_number(k, "cards"): v for k, v in cards.items()}
        return self


class Playoff(Body):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"required": ["match", "winner"]})

    match: Annotated[Any, documented(INTEGERS | {"minItems": 2, "maxItems": 2})] = None
    winner: Annotated[Any, documented({"type": "integer"})] = None
    points: Annotated[Any, documented(INTEGERS)] = None
    confirm_unusual: Annotated[Any, documented(BOOLEAN)] = False


class CookieJarDraw(Body):
    """``{}`` (or no body): the server draws; or the games drawn from a hat."""

    games: Annotated[Any, documented(INTEGERS)] = None
    seed: NoSeed = None


class CutDone(BaseModel):
    cut: Any
    tie: Tie


class PlayoffDone(BaseModel):
    result: Any
    tie: Tie


# --- printed documents -------------------------------------------------------------------------

DOCUMENTS = ["punch-cards", "table-cards", "score-sheets", "movement", "results"]


class DocumentIn(Body):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"required": ["document"]})

    document: Annotated[Any, documented({"enum": DOCUMENTS})] = None
    paper: Annotated[Any, documented({"enum": ["letter", "a4"]})] = "letter"
    game: Annotated[Any, documented({"type": "integer", "minimum": 1})] = None
    couple: Annotated[Any, documented({"type": "integer", "minimum": 1})] = None
    filled: Annotated[Any, documented(BOOLEAN)] = False
    base_url: Annotated[Any, documented({"type": "string", "format": "uri"})] = None


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
