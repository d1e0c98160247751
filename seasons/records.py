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
from typing import Any

from drives.models import Drive
from scoring.records.parts import Part, register
from scoring.records.restore import bad
from seasons.models import PlayerMerge, PlayerSplit, Season, SeasonDrive

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


def _text(obj: dict[str, Any], key: str, path: str, limit: int) -> str:
    value = obj.get(key)
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise bad(f"{path}.{key}", f"text of 1 to {limit} characters")
    return value


def _date(obj: dict[str, Any], key: str, path: str) -> date:
    value = obj.get(key)
    try:
        return date.fromisoformat(value)  # type: ignore[arg-type]  # not text: TypeError below
    except (TypeError, ValueError):
        raise bad(f"{path}.{key}", "a date as YYYY-MM-DD") from None


def _pairs(obj: dict[str, Any], key: str, path: str, fields: tuple[str, str]) -> list[Any]:
    items = obj.get(key)
    if not isinstance(items, list):
        raise bad(f"{path}.{key}", "a list")
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise bad(f"{path}.{key}[{i}]", "an object")
        out.append(tuple(_text(item, field, f"{path}.{key}[{i}]", 80) for field in fields))
    return out


def read_part(value: Any, path: str) -> dict[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise bad(path, "an object or null")
    slug = _text(value, "slug", path, 80)
    if not _SLUG.match(slug):
        raise bad(f"{path}.slug", f"{slug!r} is not a slug")
    starts, ends = _date(value, "starts", path), _date(value, "ends", path)
    if starts > ends:
        raise bad(f"{path}.ends", "before the season starts")
    published = value.get("published", False)
    if not isinstance(published, bool):
        raise bad(f"{path}.published", "true or false")
    merges = _pairs(value, "merges", path, ("key", "into"))
    if any(k == into for k, into in merges):
        raise bad(f"{path}.merges", "a player merged with itself")
    return {
        "slug": slug,
        "name": _text(value, "name", path, 120),
        "starts": starts,
        "ends": ends,
        "published": published,
        "merges": merges,
        "splits": _pairs(value, "splits", path, ("key", "as_name")),
    }


def write_part(drive: Drive, part: dict[str, Any] | None) -> None:
    if part is None:
        return
    season, _ = Season.objects.get_or_create(
        club_id=drive.club_id,
        slug=part["slug"],
        defaults={k: part[k] for k in ("name", "starts", "ends", "published")},
    )
    SeasonDrive.objects.create(drive=drive, season=season)
    known = set(season.merges.values_list("key", flat=True))
    PlayerMerge.objects.bulk_create(
        PlayerMerge(season=season, key=key, into=into)
        for key, into in part["merges"]
        if key not in known
    )
    PlayerSplit.objects.bulk_create(
        PlayerSplit(season=season, drive=drive, key=key, name=name) for key, name in part["splits"]
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
