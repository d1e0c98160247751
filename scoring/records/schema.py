"""The schema of the drive's full export (``fortyfives-drive/1``): one pydantic model that the
export is checked against before it leaves (``scoring.records.export``) and that a file must
match before ``scoring.records.restore`` reads it, published as JSON Schema in
docs/export.schema.json and at ``GET /api/v1/export-schema``. The restore reads the checked
model's attributes (times as ``datetime``, amounts as ``Decimal``): a field of the export is
described, checked and read here, once.

``version`` counts changes of the format: a file without it is version 1. A later part of the
record (a season, a ledger) is a new optional field of ``DriveExport`` with a default, so the
files written before it still restore; a change that older readers would misread raises
``VERSION``.

Types are JSON's own (strict: no "5" for 5, no 1 for true); times are ISO 8601 text with a UTC
offset and amounts decimal text to the cent (``"12.50"``), as the export writes them; numbers,
texts and choices keep to what the database stores. What the schema cannot say (a couple
number that names a couple of this drive, two tables seating one couple) the restore checks
after it. The parts of the prizes that are views of the stored rows (the prize table, the
cookie jar's view) are described by the fields the restore reads and keep any others.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Annotated, Any, Literal, TypeVar, get_args

from django.utils.translation import gettext
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    PlainValidator,
    ValidationError,
    ValidationInfo,
    WithJsonSchema,
    field_validator,
    model_validator,
)
from pydantic_core import CoreSchema, ErrorDetails, PydanticCustomError, core_schema

from drives.errors import ServiceError
from drives.models import AuditEntry
from scoring.models import (
    Award,
    CookieJarDraw,
    PrizeCategory,
    PrizeSetup,
    Result,
    ResultVersion,
    Tie,
)

FORMAT = "fortyfives-drive/1"
VERSION = 1
MAX_SMALL = 32767  # the largest game, table, couple, place or hole number a column holds
MAX_SEED = 2**63 - 1
_AMOUNT = re.compile(r"^-?\d+(\.\d+)?$")
CENT = Decimal("0.01")


def _refuse(kind: str, words: str) -> PydanticCustomError:
    """A value refused in the words the restore says (the error's template is not formatted:
    the words are complete, in the language of the night)."""
    return PydanticCustomError(kind, words)


def text_only(value: Any) -> str:
    """JSON text, nothing else (a value that reads text further takes this first)."""
    if not isinstance(value, str):
        raise PydanticCustomError("string_type", "Input should be a valid string")
    return value


def _time(value: Any) -> datetime:
    text = text_only(value)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise _refuse(
            "time", gettext("%(value)s is not an ISO 8601 time") % {"value": f"{text!r}"}
        ) from None
    if moment.tzinfo is None:
        raise _refuse("time", gettext("%(value)s has no UTC offset") % {"value": f"{text!r}"})
    return moment


def _money(value: Any) -> Decimal:
    text = text_only(value)
    if not _AMOUNT.match(text):
        raise _refuse("amount", gettext("%(value)s is not an amount") % {"value": f"{text!r}"})
    amount = Decimal(text)
    if amount != amount.quantize(CENT) or abs(amount) >= 10**8:
        raise _refuse(
            "amount", gettext("%(value)s is not an amount to the cent") % {"value": f"{text!r}"}
        )
    return amount.quantize(CENT)


def _table_number(value: Any) -> int:
    """A closed table's number: the key of ``closed_tables``, text in JSON (a number as the
    export builds it)."""
    text = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
    if not isinstance(text, str) or not text.isdigit() or not 1 <= int(text) <= MAX_SMALL:
        raise _refuse("table", gettext("table number → first game with nobody there"))
    return int(text)


def _distinct(values: list[int]) -> list[int]:
    if len(set(values)) != len(values):
        raise _refuse("distinct", gettext("a number appears twice"))
    return values


def _two_names(players: list[str]) -> list[str]:
    if not all(0 < len(name) <= 80 for name in players):
        raise _refuse("players", gettext("two names of 1 to 80 characters"))
    return players


@dataclass(frozen=True)
class OneOf:
    """Text that is one of ``values`` (a model's choices), refused as "'x' is not one of …"."""

    values: tuple[str, ...]

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        return core_schema.no_info_after_validator_function(self.check, handler(source))

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> dict[str, Any]:
        return handler(schema) | {"enum": list(self.values)}

    def check(self, value: str) -> str:
        if value not in self.values:
            raise _refuse(
                "one_of",
                gettext("%(value)s is not one of %(list)s")
                % {"value": f"{value!r}", "list": ", ".join(self.values)},
            )
        return value


def one_of(values: list[str]) -> OneOf:
    return OneOf(tuple(values))


Time = Annotated[
    datetime, PlainValidator(_time), WithJsonSchema({"type": "string", "format": "date-time"})
]
Day = Annotated[str, Field(json_schema_extra={"format": "date"})]
Amount = Annotated[str, Field(pattern=_AMOUNT.pattern, description="decimal text: 12.50")]
Money = Annotated[
    Decimal,
    PlainValidator(_money),
    WithJsonSchema(
        {
            "type": "string",
            "pattern": _AMOUNT.pattern,
            "description": "decimal text to the cent: 12.50",
        }
    ),
]
Number = Annotated[
    int, Field(ge=1, le=MAX_SMALL, description="a couple, table, game, place or round number")
]
Count = Annotated[int, Field(ge=0, le=MAX_SMALL)]
TableNumber = Annotated[
    int, PlainValidator(_table_number), WithJsonSchema({"type": "string", "pattern": "^[0-9]+$"})
]
Numbers = Annotated[
    list[Number], AfterValidator(_distinct), Field(json_schema_extra={"uniqueItems": True})
]
Points = Annotated[
    list[Annotated[int, Field(ge=-32768, le=32767)]], Field(min_length=2, max_length=2)
]
Seed = Annotated[int, Field(ge=-MAX_SEED - 1, le=MAX_SEED)]
Channel = Literal["", "desk", "table", "couple", "api", "import", "cli", "admin", "system"]
SAID = one_of(AuditEntry.Channel.values)
# The channel of a row the export writes null for when it has none (an award, a decision).
Said = Annotated[str, SAID]


def _row_channel(channel: str, info: ValidationInfo) -> str:
    """A row's channel; one written without a channel ("") is exported as it is, but not
    restored."""
    if channel == "" and not (info.context or {}).get("restoring"):
        return channel
    return SAID.check(channel)


RowChannel = Annotated[
    str,
    AfterValidator(_row_channel),
    WithJsonSchema({"enum": list(get_args(Channel)), "type": "string"}),
]
Name = Annotated[str, Field(max_length=200)]


class Part(BaseModel):
    """A part of the export: every field present, JSON's types only. (The parts' names begin
    with Export: the API's OpenAPI description holds them beside its own schemas.)"""

    model_config = ConfigDict(strict=True, extra="forbid")


class View(BaseModel):
    """A view of stored rows, recomputed on restore: the fields it reads, others kept."""

    model_config = ConfigDict(strict=True, extra="allow")


class AppPart(BaseModel):
    """A part kept by an app above scoring (``scoring.records.parts``: the season, the money)
    or a piece of one: JSON's types; keys it does not know are left aside, as they were before
    the part had a model."""

    model_config = ConfigDict(strict=True, extra="ignore")


class ExportDrive(Part):
    slug: str = Field(pattern=r"^[-a-zA-Z0-9_]{1,80}$")
    club: Annotated[str, Field(max_length=120)]
    name: str
    date: Day
    venue: str
    games: int
    ruleset: str
    rules: dict[str, Any] | None = Field(
        None, description="added later: the switches that differ from the preset (docs/rules.md)"
    )
    rules_in_play: dict[str, Any] | None = Field(
        None, description="the preset with the hall's switches, every rule spelled out (read only)"
    )
    movement: str
    first_seating: str
    seed: int | None
    sit_out_counts_as_win: bool
    sit_out_last: bool
    ranking: str
    entry_fee: Amount
    entry_fee_per: Literal["person", "couple"] = Field(
        "couple", description="added later: absent means per couple, as the fee was then"
    )
    currency: str
    confirm_by_other_couple: bool
    scorers_may_advance: bool = Field(True, description="added later: absent means true")
    slow_table_minutes: int = Field(
        3, ge=0, le=60, description="added later: absent means 3 (minutes; 0: never)"
    )
    published: bool
    language: str = Field("en", description="added later: absent means English")
    registration_opens: Time | None = Field(
        None, description="added later: absent means none (no registration before the night)"
    )
    registration_closes: Time | None = Field(
        None, description="added later: absent means none (at the start of the night)"
    )
    capacity: int | None = Field(
        None, ge=1, le=2000, description="added later: absent means none (no limit), couples"
    )
    state: Literal["setup", "running", "closed"]
    current_game: Count
    created_at: Time
    closed_at: Time | None


class ExportCouple(Part):
    number: Number
    players: Annotated[list[str], Field(min_length=2, max_length=2), AfterValidator(_two_names)]
    paid: bool
    checked_in: bool
    cookie_jar: bool
    withdrawn: bool
    joined_game: Number
    withdrawn_game: Number | None
    holes: Count | None
    wins: int
    played: int
    place: int | None


class ExportVersion(Part):
    kind: Annotated[str, one_of(ResultVersion.Kind.values)]
    winner: int
    points: Points | None
    previous_winner: int | None
    key: Annotated[str, Field(max_length=80)]
    channel: RowChannel
    user: str | None
    couple: int | None
    reason: str
    after_advance: bool
    at: Time


class ExportTable(Part):
    table: Number
    stays: int | None
    arrives: int | None
    winner: int | None
    points: Points | None
    state: Annotated[str, one_of(Result.State.values)] | None
    verdict: Annotated[str, Field(max_length=32)] | None
    versions: list[ExportVersion]

    # A table's own consistency (fields are checked in order: ``info.data`` holds those before).
    @field_validator("state", "verdict")
    @classmethod
    def _result_whole(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None and info.data.get("winner") is not None:
            raise _refuse("result", gettext("null, but the table has a winner"))
        return value

    @field_validator("versions")
    @classmethod
    def _versions_of_a_result(
        cls, versions: list[ExportVersion], info: ValidationInfo
    ) -> list[ExportVersion]:
        if versions and "winner" in info.data and info.data["winner"] is None:
            raise _refuse("versions", gettext("versions without a result"))
        return versions

    @model_validator(mode="after")
    def _someone_there(self) -> ExportTable:
        if self.stays is None and self.arrives is None:
            raise _refuse("nobody", gettext("a table with nobody at it"))
        return self


class ExportGame(Part):
    number: Number
    state: Literal["finished", "playing"]
    started_at: Time
    finished_at: Time | None
    tables: list[ExportTable]


ShareOf = Annotated[str, one_of(["", "entry", "pot"])]
Percent = Annotated[int, Field(ge=1, le=100)]


class ExportPlace(Part):
    place: Number
    amount: Money | None
    description: Name
    share_of: ShareOf = Field("", description="added later: absent means no share")
    percent: Percent | None = None


class ExportCategory(Part):
    position: Number
    name: Annotated[str, Field(min_length=1, max_length=60)]
    rule: Annotated[str, one_of(PrizeCategory.Rule.values)]
    after_game: Number | None
    amount: Money | None
    description: Name
    share_of: ShareOf
    percent: Percent | None


class ExportPrizeSetup(View):
    prize_places: Count
    places: list[ExportPlace]
    booby: bool
    booby_amount: Money | None
    booby_description: Name
    booby_late_couples: bool = Field(False, description="added later: absent means false")
    cookie_jar: bool
    cookie_jar_k: Count
    buy_in: Money
    jackpot_threshold: Count | None
    jackpot_amount: Money | None
    cut_ace_high: bool
    cut_high_wins: bool = Field(False, description="added later: absent means false")
    house_rule: Annotated[str, one_of(PrizeSetup.HouseRule.values)]
    one_prize_per_couple: bool = Field(False, description="added later: absent means false")
    share_rounding: Money = Field(Decimal("1.00"), description="added later")
    half_time_after: Number | None = None
    half_time_amount: Money | None = None
    half_time_description: Name = ""
    half_time_share_of: ShareOf = ""
    half_time_percent: Percent | None = None
    categories: list[ExportCategory] = Field(
        [], description="the hall's named prizes; added later: absent means none"
    )
    updated_at: Time


class ExportPrize(View):
    kind: str


class ExportChoice(View):
    couple: int
    asked: Annotated[str, Field(max_length=10)]
    choice: Annotated[str, Field(max_length=10)]
    by: str | None
    channel: RowChannel
    at: Time


class ExportCutCard(View):
    round: Number
    couple: int
    card: Annotated[str, Field(max_length=3)]
    seed: Seed | None
    by: str | None
    channel: RowChannel
    at: Time


class ExportMatch(View):
    round: Number
    match: Numbers
    winner: int | None
    points: Points | None
    verdict: Annotated[str, Field(max_length=32)] | None
    by: str | None
    channel: Said | None
    at: Time | None


class ExportTie(View):
    id: Annotated[int, Field(ge=1, le=MAX_SEED)]
    key: Annotated[str, Field(max_length=20)]
    kind: Annotated[str, one_of(Tie.Kind.values)]
    places: Numbers
    couples: Numbers
    state: Annotated[str, one_of(Tie.State.values)]
    method: Annotated[str, Field(max_length=10)] | None
    playing: Numbers
    forfeits: Numbers
    winner: int | None
    decided_by: str | None
    decided_channel: Said | None
    decided_at: Time | None
    created_at: Time
    choices: list[ExportChoice]
    cut_cards: list[ExportCutCard]
    matches: list[ExportMatch]


class ExportAward(Part):
    kind: Annotated[str, one_of(Award.Kind.values)]
    place: Number | None
    couple: int
    amount: Money | None
    description: Name
    how: Annotated[str, one_of(Award.How.values)]
    tie: str | None
    by: str | None
    channel: Said | None
    at: Time


class ExportDraw(View):
    method: Annotated[str, one_of(CookieJarDraw.Method.values)]
    seed: Seed | None
    games: Numbers
    by: str | None
    channel: RowChannel
    at: Time


class ExportCookieJar(View):
    """Off: ``{"enabled": false}``; on: the jar's view, whose draw (``drawn``, null before
    it) comes with the entrants, the pot, what it carried in and the winners."""

    enabled: bool
    drawn: ExportDraw | None = None
    entrants: Numbers | None = None
    pot: Money | None = None
    carried_in: Money | None = None
    winners: Numbers | None = None


class ExportAudit(Part):
    at: Time
    user: str | None
    channel: RowChannel
    action: Annotated[str, Field(max_length=40)]
    subject: Annotated[str, Field(max_length=80)]
    old: Any
    new: Any
    note: str


class DriveExport(Part):
    """A drive's full record: ``manage.py drive export`` writes it, ``drive restore`` reads it."""

    model_config = ConfigDict(
        strict=True,
        extra="forbid",
        title="Forty-Fives Card Drives: a drive's full export",
        json_schema_extra={"$id": "https://fortyfives.invalid/export.schema.json"},
    )

    format: Literal["fortyfives-drive/1"]
    version: Literal[1] = Field(1, description="the format's version; absent means 1")
    drive: ExportDrive
    couples: list[ExportCouple]
    games: list[ExportGame]
    closed_tables: dict[TableNumber, Number] = Field(
        description="table number → the game it closed at"
    )
    prize_setup: ExportPrizeSetup | None
    prizes: list[ExportPrize]
    ties: list[ExportTie]
    awards: list[ExportAward]
    cookie_jar: ExportCookieJar
    audit: list[ExportAudit]
    # The parts kept by the apps above scoring (scoring.records.parts), each read and checked
    # in full by its own app's ``read`` before anything is written; absent in older exports.
    season: dict[str, Any] | None = Field(
        None, description="the drive's season, its merges and splits (seasons/records.py)"
    )
    money: dict[str, Any] | None = Field(
        None,
        description="the night's ledger, tickets, draws, cash box and the club's pots it "
        "carried (money/records.py)",
    )

    def usernames(self) -> Iterator[str | None]:
        """The usernames the record names: the audit's, the versions', the prizes'."""
        yield from (entry.user for entry in self.audit)
        for game in self.games:
            for row in game.tables:
                yield from (version.user for version in row.versions)
        for tie in self.ties:
            yield tie.decided_by
            yield from (
                row.by for rows in (tie.choices, tie.cut_cards, tie.matches) for row in rows
            )
        yield from (award.by for award in self.awards)
        if self.cookie_jar.enabled and self.cookie_jar.drawn is not None:
            yield self.cookie_jar.drawn.by


def json_schema() -> dict[str, Any]:
    """The export's JSON Schema (docs/export.schema.json, ``GET /api/v1/export-schema``)."""
    return DriveExport.model_json_schema()


def _place(location: tuple[int | str, ...]) -> str:
    """("couples", 0, "players") → "couples[0].players"."""
    out = ""
    for part in location:
        if part == "[key]":  # the key of closed_tables: named already
            continue
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "the file"


def _words(error: ErrorDetails) -> str:
    """What is wrong, in the restore's words where it has them (a length, a range)."""
    kind, context = error["type"], error.get("ctx") or {}
    if kind == "missing":
        return "missing"
    if kind == "string_too_long":
        return gettext("at most %(limit)s characters") % {"limit": context["max_length"]}
    if kind == "greater_than_equal":
        return gettext("%(value)s is out of range: at least %(bound)s") % {
            "value": error["input"],
            "bound": context["ge"],
        }
    if kind == "less_than_equal":
        return gettext("%(value)s is out of range: at most %(bound)s") % {
            "value": error["input"],
            "bound": context["le"],
        }
    return error["msg"]


M = TypeVar("M", bound=BaseModel)


def checked(model: type[M], data: Any, where: str = "", *, restoring: bool = False) -> M:
    """``data`` checked against ``model``, or a 422 ``bad_export`` naming the first place at
    fault (``couples[0].players: …``), under ``where`` (a part of the export: ``money``);
    ``restoring``: for the restore, which takes less than the export writes (see ``RowChannel``)."""
    try:
        return model.model_validate(data, context={"restoring": restoring})
    except ValidationError as error:
        first = error.errors()[0]
        place = _place(((where,) if where else ()) + tuple(first["loc"]))
        words = _words(first).rstrip(".")
        raise ServiceError("bad_export", f"{place}: {words}.", path=place) from None


def check_export(data: Any, *, restoring: bool = False) -> DriveExport:
    """The export checked against the schema (see ``checked``)."""
    return checked(DriveExport, data, restoring=restoring)
