"""The season's part of a drive's record (``"season"`` in the export ``fortyfives-drive/1``,
scoring/records): the season the drive is in (null for none), with the season's merges of
players and the drive's splits, so that a restored drive joins its season again.

On restore the drive joins the club's season of that slug, which is created (name, dates,
publication) when the club has none; merges the season lacks are added, and the drive's
splits written again. Nothing is audited (the restore audits itself once).
"""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any

from pydantic import AfterValidator, PlainValidator
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


class SeasonPart(AppPart):
    slug: Annotated[str, _text(80), AfterValidator(_slug)]
    name: Annotated[str, _text(120)]
    starts: Day
    ends: Day
    published: bool = False
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
    return part


def write_part(drive: Drive, part: SeasonPart | None) -> None:
    if part is None:
        return
    season, _ = Season.objects.get_or_create(
        club_id=drive.club_id,
        slug=part.slug,
        defaults=part.model_dump(include={"name", "starts", "ends", "published"}),
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
