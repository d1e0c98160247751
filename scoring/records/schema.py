"""The schema of the drive's full export (``fortyfives-drive/1``): one pydantic model that the
export is checked against before it leaves (``scoring.records.export``) and that a file must
match before ``scoring.records.restore`` reads it, published as JSON Schema in
docs/export.schema.json and at ``GET /api/v1/export-schema``.

``version`` counts changes of the format: a file without it is version 1. A later part of the
record (a season, a ledger) is a new optional field of ``DriveExport`` with a default, so the
files written before it still restore; a change that older readers would misread raises
``VERSION``.

Types are JSON's own (strict: no "5" for 5, no 1 for true); times are ISO 8601 text with a UTC
offset and amounts decimal text (``"12.50"``), as the export writes them. What the schema
cannot say (a couple number that names a couple of this drive, two tables seating one couple)
the restore checks after it. The parts of the prizes that are views of the stored rows (the
prize table, the cookie jar's view) are described by their main fields and keep any others.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from drives.errors import ServiceError

FORMAT = "fortyfives-drive/1"
VERSION = 1

Time = Annotated[str, Field(json_schema_extra={"format": "date-time"})]
Day = Annotated[str, Field(json_schema_extra={"format": "date"})]
Amount = Annotated[str, Field(pattern=r"^-?\d+(\.\d+)?$", description="decimal text: 12.50")]
Number = Annotated[int, Field(ge=1, description="a couple, table, game or place number")]
Points = Annotated[list[int], Field(min_length=2, max_length=2)]
Channel = Literal["", "desk", "table", "couple", "api", "import", "cli", "admin", "system"]


class Part(BaseModel):
    """A part of the export: every field present, JSON's types only. (The parts' names begin
    with Export: the API's OpenAPI description holds them beside its own schemas.)"""

    model_config = ConfigDict(strict=True, extra="forbid")


class View(BaseModel):
    """A view of stored rows, recomputed on restore: its main fields, others kept."""

    model_config = ConfigDict(strict=True, extra="allow")


class ExportDrive(Part):
    slug: str = Field(pattern=r"^[-a-zA-Z0-9_]{1,80}$")
    club: str
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
    published: bool
    language: str = Field("en", description="added later: absent means English")
    state: Literal["setup", "running", "closed"]
    current_game: int
    created_at: Time
    closed_at: Time | None


class ExportCouple(Part):
    number: Number
    players: Annotated[list[str], Field(min_length=2, max_length=2)]
    paid: bool
    checked_in: bool
    cookie_jar: bool
    withdrawn: bool
    joined_game: int | None
    withdrawn_game: int | None
    holes: int | None
    wins: int
    played: int
    place: int | None


class ExportVersion(Part):
    kind: str
    winner: int
    points: Points | None
    previous_winner: int | None
    key: str
    channel: Channel
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
    state: str | None
    verdict: str | None
    versions: list[ExportVersion]


class ExportGame(Part):
    number: Number
    state: Literal["finished", "playing"]
    started_at: Time
    finished_at: Time | None
    tables: list[ExportTable]


class ExportPlace(Part):
    place: Number
    amount: Amount | None
    description: str


class ExportPrizeSetup(View):
    prize_places: int
    places: list[ExportPlace]
    booby: bool
    cookie_jar: bool
    house_rule: str
    updated_at: Time


class ExportPrize(View):
    kind: str


class ExportTie(View):
    id: int
    key: str
    kind: str
    couples: list[int]
    state: str
    created_at: Time


class ExportAward(Part):
    kind: str
    place: int | None
    couple: int
    amount: Amount | None
    description: str
    how: str
    tie: str | None
    by: str | None
    channel: Channel | None
    at: Time


class ExportCookieJar(View):
    enabled: bool


class ExportAudit(Part):
    at: Time
    user: str | None
    channel: Channel
    action: str
    subject: str
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
    closed_tables: dict[str, int] = Field(description="table number → the game it closed at")
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
        None, description="the night's ledger, tickets, draws and cash box (money/records.py)"
    )


def json_schema() -> dict[str, Any]:
    """The export's JSON Schema (docs/export.schema.json, ``GET /api/v1/export-schema``)."""
    return DriveExport.model_json_schema()


def _place(location: tuple[int | str, ...]) -> str:
    """("couples", 0, "players") → "couples[0].players"."""
    out = ""
    for part in location:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "the file"


def check_export(data: Any) -> DriveExport:
    """The export checked against the schema, or a 422 ``bad_export`` naming the first place
    at fault (``couples[0].players: …``)."""
    try:
        return DriveExport.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        words = "missing" if first["type"] == "missing" else first["msg"]
        where = _place(tuple(first["loc"]))
        raise ServiceError("bad_export", f"{where}: {words}.", path=where) from None
