"""The error every endpoint of every router answers with (``Error``: a code, words for a
person, details by code) and the responses an operation documents (``answers``)."""

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


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


def answers(ok: dict[int, Any], *errors: int, body: bool = False) -> dict[int, Any]:
    """The responses an operation documents: ``ok`` and the errors, with those every
    authenticated endpoint may give (401, 403, 429) and those of a body (400, 413)."""
    shown = set(errors) | {401, 403, 429} | ({400, 413} if body else set())
    return ok | {status: Error for status in sorted(shown)}
