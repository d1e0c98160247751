"""The season's part of a drive's record (``"season"`` in the export ``fortyfives-drive/1``,
scoring/records): the season the drive is in (null for none), with the season's merges of
players and the drive's splits, so that a restored drive joins its season again.

On restore the drive joins the club's season of that slug, which is created (name, dates,
publication, its rules) when the club has none; merges the season lacks are added, and the drive's
splits written again. Nothing is audited (the restore audits itself once).
"""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, PlainValidator
from pydantic_core import PydanticCustomError

from drives.models import Drive
from drives.services import Actor
from scoring.records.parts import Part, register
from scoring.records.restore import bad
from scoring.records.schema import AppPart, checked
from seasons.models import PlayerMerge, PlayerSplit, Season, SeasonDrive
from seasons.services import season_add_drive

KEY = "season"
_SLUG = re.compile(r"^[-a-zA-Z0-9_]{1,80}$")


def season_part(drive: Drive) -> dict[str, Any] | None:
    entry = SeasonDrive.objects.filter(drive=drive).select_related("season").first()
    if entry is None:
        return None
    season = entry.season
    return {
        "slug": season.slug,
        "name": season.name,
        "starts": season.starts.isoformat(),
        "ends": season.ends.isoformat(),
        "published": season.published,
        "rules": {
            "best_count": season.best_count,
            "nights_planned": season.nights_planned,
            "qualify_nights": season.qualify_nights,
            "scoring": season.scoring,
            "place_points": list(season.place_points),
            "improved_nights": season.improved_nights,
            "tie_break": season.tie_break,
            "final_size": season.final_size,
        },
        "merges": [
            {"key": key, "into": into}
            for key, into in season.merges.order_by("key").values_list("key", "into")
        ],
        "splits": [
            {"key": key, "as_name": name}
            for key, name in season.splits.filter(drive=drive)
            .order_by("key")
            .values_list("key", "name")
        ],
    }


def _text(limit: int) -> AfterValidator:
    def check(value: str) -> str:
        if not value.strip() or len(value) > limit:
            raise PydanticCustomError("text", f"text of 1 to {limit} characters")
        return value

    return AfterValidator(check)


def _slug(value: str) -> str:
    if not _SLUG.match(value):
        raise PydanticCustomError("slug", f"{value!r} is not a slug")
    return value


def _day(value: Any) -> date:
    try:
        return date.fromisoformat(value)
    except (TypeError, ValueError):
        raise PydanticCustomError("date", "a date as YYYY-MM-DD") from None


Key = Annotated[str, _text(80)]
Day = Annotated[date, PlainValidator(_day)]


class SeasonMerge(AppPart):
    key: Key
    into: Key


class SeasonSplit(AppPart):
    key: Key
    as_name: Key


Nights = Annotated[int, Field(ge=0, le=366)]


class SeasonRules(AppPart):
    """The season's rules (seasons.models.Season; judged again by seasons.services' rules)."""

    best_count: Annotated[int, Field(ge=1, le=366)] | None = None
    nights_planned: Annotated[int, Field(ge=1, le=366)] | None = None
    qualify_nights: Nights = 0
    scoring: Literal["wins", "points"] = "wins"
    place_points: Annotated[list[Annotated[int, Field(ge=0, le=1000)]], Field(max_length=50)] = (
        Field(default_factory=list)
    )
    improved_nights: Nights = 0
    tie_break: Literal["shared", "nights_won", "best_night"] = "shared"
    final_size: Nights = 0


class SeasonPart(AppPart):
    slug: Annotated[str, _text(80), AfterValidator(_slug)]
    name: Annotated[str, _text(120)]
    starts: Day
    ends: Day
    published: bool = False
    rules: SeasonRules | None = None  # exports before the season's rules have none
    merges: list[SeasonMerge]
    splits: list[SeasonSplit]


def read_part(value: Any, path: str) -> SeasonPart | None:
    if value is None:
        return None
    part = checked(SeasonPart, value, path)
    if part.starts > part.ends:
        raise bad(f"{path}.ends", "before the season starts")
    if any(merge.key == merge.into for merge in part.merges):
        raise bad(f"{path}.merges", "a player merged with itself")
    rules = part.rules
    if rules is not None:
        if rules.best_count and rules.nights_planned and rules.best_count > rules.nights_planned:
            raise bad(f"{path}.rules.best_count", "more than nights_planned")
        if rules.scoring == "points" and not rules.place_points:
            raise bad(f"{path}.rules.place_points", "no points for points per place")
    return part


def write_part(drive: Drive, part: SeasonPart | None) -> None:
    if part is None:
        return
    defaults = part.model_dump(include={"name", "starts", "ends", "published"})
    if part.rules is not None:
        defaults |= part.rules.model_dump()
    season, _ = Season.objects.get_or_create(
        club_id=drive.club_id, slug=part.slug, defaults=defaults
    )
    SeasonDrive.objects.create(drive=drive, season=season)
    known = set(season.merges.values_list("key", flat=True))
    PlayerMerge.objects.bulk_create(
        PlayerMerge(season=season, key=m.key, into=m.into)
        for m in part.merges
        if m.key not in known
    )
    PlayerSplit.objects.bulk_create(
        PlayerSplit(season=season, drive=drive, key=split.key, name=split.as_name)
        for split in part.splits
    )


def register_record_part() -> None:
    register(
        Part(
            key=KEY,
            export=season_part,
            read=lambda value, _numbers: read_part(value, KEY),
            write=lambda drive, part, _users: write_part(drive, part),
        )
    )


def season_of_published(sender: Any, *, drive: Drive, actor: Actor, **_kw: Any) -> None:
    """A night published to the club's site counts in the club's season of its date, unless
    its export put it in one already (scoring.records.publish.night_published)."""
    if SeasonDrive.objects.filter(drive=drive).exists():
        return
    season = (
        Season.objects.filter(club_id=drive.club_id, starts__lte=drive.date, ends__gte=drive.date)
        .order_by("-starts")
        .first()
    )
    if season is not None:
        season_add_drive(season=season, drive=drive, actor=actor)
