"""Changes of a club's seasons: create and edit a season, add and remove its drives, merge two
spellings of one player and split two people of one name. The pages, the API and the command
line call these; each checks what it is given and answers a
:class:`~drives.errors.ServiceError` with a code for anything wrong (nothing half-written), and
each change is in the club's audit (``season.*``).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from drives import inputs
from drives.errors import Conflict, NotFound, ServiceError
from drives.models import Club, Drive
from drives.names import name_key
from drives.services import SYSTEM, Actor, audit
from engine.season import resolve
from seasons.models import PlayerMerge, PlayerSplit, Season, SeasonDrive

RULE_FIELDS = (
    "best_count",
    "nights_planned",
    "qualify_nights",
    "scoring",
    "place_points",
    "improved_nights",
    "tie_break",
    "final_size",
)
SEASON_FIELDS = ("name", "starts", "ends", "published", *RULE_FIELDS)
RULE_INPUTS = {
    "best_count": inputs.SEASON_BEST,
    "nights_planned": inputs.SEASON_OF,
    "qualify_nights": inputs.SEASON_QUALIFY,
    "scoring": inputs.SEASON_SCORING,
    "place_points": inputs.SEASON_POINTS,
    "improved_nights": inputs.SEASON_IMPROVED,
    "tie_break": inputs.SEASON_TIES,
    "final_size": inputs.SEASON_FINAL,
}
NULLABLE = ("best_count", "nights_planned")
RULE_DEFAULTS: dict[str, Any] = {
    "best_count": None,
    "nights_planned": None,
    "qualify_nights": 0,
    "scoring": "wins",
    "place_points": [],
}


def _spelling(value: Any, field: str) -> str:
    """A player's name as typed for a merge or a split (``drives.inputs.SPELLING``)."""
    name: str = inputs.check_field(inputs.SPELLING, value, field=field)
    return name


def _clean(values: dict[str, Any], *, current: Season | None = None) -> dict[str, Any]:
    inputs.refuse_unknown(values, SEASON_FIELDS)
    out: dict[str, Any] = {}
    if "name" in values or current is None:
        out["name"] = inputs.check_field(inputs.SEASON_NAME, values.get("name"))
    for field in ("starts", "ends"):
        if field in values or current is None:
            out[field] = inputs.SEASON_DATE.check(values.get(field), field=field)
    if "published" in values:
        out["published"] = inputs.SEASON_PUBLISHED.check(values["published"])
    for field, rule in RULE_INPUTS.items():
        if field in values:
            value = values[field]
            out[field] = None if value is None and field in NULLABLE else rule.check(value)
    _check_rules(out, current)
    starts = out.get("starts", current.starts if current else None)
    ends = out.get("ends", current.ends if current else None)
    if starts is not None and ends is not None and starts > ends:
        raise ServiceError(
            "dates_reversed",
            _("The season cannot end (%(ends)s) before it starts (%(starts)s).")
            % {"ends": ends, "starts": starts},
            field="ends",
        )
    return out


def _check_rules(out: dict[str, Any], current: Season | None) -> None:
    """The rules together: N nights no more than M, the minimum to qualify no more than M, a
    table of points when the season counts points."""

    def now(field: str) -> Any:
        if field in out:
            return out[field]
        return getattr(current, field) if current else RULE_DEFAULTS[field]

    best, of, qualify = now("best_count"), now("nights_planned"), now("qualify_nights")
    if best is not None and of is not None and best > of:
        raise ServiceError(
            "best_more_than_nights",
            _("The best %(best)s nights cannot count of only %(of)s nights.")
            % {"best": best, "of": of},
            field="best_count",
        )
    if of is not None and qualify > of:
        raise ServiceError(
            "qualify_more_than_nights",
            _("Nobody could play %(qualify)s nights to qualify in a season of %(of)s nights.")
            % {"qualify": qualify, "of": of},
            field="qualify_nights",
        )
    if now("scoring") == "points" and not now("place_points"):
        raise ServiceError(
            "no_points_table",
            _("Points per place needs its table: the points of 1st, 2nd, 3rd… place."),
            field="place_points",
        )


def _jsonable(values: dict[str, Any]) -> dict[str, Any]:
    return {k: v.isoformat() if isinstance(v, date) else v for k, v in values.items()}


def _slug(club: Club, name: str) -> str:
    base = slugify(name)[:70] or "season"
    slug, n = base, 1
    while Season.objects.filter(club=club, slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def season_create(*, club: Club, actor: Actor = SYSTEM, **values: Any) -> Season:
    """A new season of ``club`` (name, starts, ends; published: false unless said)."""
    clean = _clean(values)
    with transaction.atomic():
        season = Season.objects.create(club=club, slug=_slug(club, clean["name"]), **clean)
        audit(None, actor, "season.create", club=club, subject=season.slug, new=_jsonable(clean))
    return season


def season_update(*, season: Season, actor: Actor = SYSTEM, **values: Any) -> Season:
    """Change a season's name, dates or publication. Dates that would leave out a drive of the
    season are refused (``drive_outside_season``): remove the drive first."""
    clean = _clean(values, current=season)
    starts, ends = clean.get("starts", season.starts), clean.get("ends", season.ends)
    with transaction.atomic():
        outside = season.entries.exclude(drive__date__range=(starts, ends)).select_related("drive")
        for entry in outside[:1]:
            raise Conflict(
                "drive_outside_season",
                _(
                    "The drive %(drive)s (%(date)s) would fall outside %(starts)s – %(ends)s: "
                    "remove it from the season first."
                )
                % {
                    "drive": entry.drive.name,
                    "date": entry.drive.date,
                    "starts": starts,
                    "ends": ends,
                },
                drive=entry.drive.slug,
            )
        old = {field: getattr(season, field) for field in clean}
        for field, value in clean.items():
            setattr(season, field, value)
        season.save()
        audit(
            None,
            actor,
            "season.update",
            club=season.club,
            subject=season.slug,
            old=_jsonable(old),
            new=_jsonable(clean),
        )
    return season


def season_delete(*, season: Season, actor: Actor = SYSTEM) -> None:
    """Delete a season: its drives stay as they are, free to join another season."""
    with transaction.atomic():
        audit(None, actor, "season.delete", club=season.club, subject=season.slug)
        season.delete()


def season_add_drive(*, season: Season, drive: Drive, actor: Actor = SYSTEM) -> SeasonDrive:
    """Add ``drive`` to the season: a drive of the season's club, dated within the season, in
    no other season (adding it again to its own season changes nothing). Another club's drive
    is no drive here, as everywhere else (404 ``no_such_drive``, as a slug nobody has)."""
    if drive.club_id != season.club_id:
        raise NotFound("no_such_drive", _("No drive %(drive)r.") % {"drive": drive.slug})
    if not season.starts <= drive.date <= season.ends:
        raise ServiceError(
            "drive_outside_season",
            _("The drive %(drive)s is on %(date)s, outside the season (%(starts)s – %(ends)s).")
            % {
                "drive": drive.name,
                "date": drive.date,
                "starts": season.starts,
                "ends": season.ends,
            },
            drive=drive.slug,
        )
    with transaction.atomic():
        entry = SeasonDrive.objects.filter(drive=drive).select_related("season").first()
        if entry is not None:
            if entry.season_id == season.pk:
                return entry
            raise Conflict(
                "drive_in_another_season",
                _(
                    "The drive %(drive)s is already in the season %(season)s: a drive belongs "
                    "to one season at most."
                )
                % {"drive": drive.name, "season": entry.season.name},
                drive=drive.slug,
                season=entry.season.slug,
            )
        try:
            with transaction.atomic():
                entry = SeasonDrive.objects.create(drive=drive, season=season)
        except IntegrityError:  # added to a season at the same instant
            raise Conflict(
                "drive_in_another_season",
                _("The drive %(drive)s was just added to another season.") % {"drive": drive.name},
                drive=drive.slug,
            ) from None
        audit(
            drive,
            actor,
            "season.add_drive",
            club=season.club,
            subject=season.slug,
            new=drive.slug,
        )
    return entry


def season_remove_drive(*, season: Season, drive: Drive, actor: Actor = SYSTEM) -> None:
    """Take ``drive`` out of the season (its splits go with it)."""
    with transaction.atomic():
        deleted, _rows = SeasonDrive.objects.filter(season=season, drive=drive).delete()
        if not deleted:
            raise NotFound(
                "not_in_season",
                _("The drive %(drive)s is not in the season %(season)s.")
                % {"drive": drive.slug, "season": season.name},
                drive=drive.slug,
            )
        PlayerSplit.objects.filter(season=season, drive=drive).delete()
        audit(
            drive,
            actor,
            "season.remove_drive",
            club=season.club,
            subject=season.slug,
            old=drive.slug,
        )


# --- players ----------------------------------------------------------------------------------


def _season_names(season: Season) -> dict[str, set[int]]:
    """Every player's name key of the season's drives (splits applied) → the drives (ids)
    where it was played. One query for the couples, one for the splits."""
    from drives.models import Couple

    splits = {(s.drive_id, s.key): name_key(s.name) for s in season.splits.all()}
    seen: dict[str, set[int]] = {}
    couples = Couple.objects.filter(drive__season_entry__season=season).values_list(
        "drive_id", "player1", "player2"
    )
    for drive_id, *players in couples:
        for player in players:
            key = name_key(player)
            key = splits.get((drive_id, key), key)
            seen.setdefault(key, set()).add(drive_id)
    return seen


def _merges(season: Season) -> dict[str, str]:
    return dict(season.merges.values_list("key", "into"))


def player_merge(*, season: Season, name: str, into: str, actor: Actor = SYSTEM) -> PlayerMerge:
    """Count the player ``name`` as the player ``into`` from now on (two spellings of one
    person). Refused: the same player twice (``same_player``), a name the season has not seen
    (``no_such_player``), and two players who played the same night (``played_together``:
    one person plays one couple a night)."""
    name, into = _spelling(name, "name"), _spelling(into, "into")
    with transaction.atomic():
        merges = _merges(season)
        seen = _season_names(season)
        for field, value in (("name", name), ("into", into)):
            if name_key(value) not in seen:
                raise NotFound(
                    "no_such_player",
                    _("No player %(name)r in the season's drives.") % {"name": value},
                    field=field,
                )
        keys = {k: resolve(name_key(v), merges) for k, v in (("name", name), ("into", into))}
        if keys["name"] == keys["into"]:
            raise ServiceError(
                "same_player",
                _("%(name)r and %(into)r are already one player.") % {"name": name, "into": into},
                field="into",
            )
        drives_of: dict[str, set[int]] = {}
        for key, drives in seen.items():
            drives_of.setdefault(resolve(key, merges), set()).update(drives)
        together = drives_of[keys["name"]] & drives_of[keys["into"]]
        if together:
            slug = Drive.objects.filter(pk__in=together).order_by("date").first()
            raise Conflict(
                "played_together",
                _("%(name)r and %(into)r both played at %(drive)s: they are two people.")
                % {"name": name, "into": into, "drive": slug},
                drive=slug.slug if slug else None,
            )
        merge = PlayerMerge.objects.create(season=season, key=keys["name"], into=keys["into"])
        audit(
            None,
            actor,
            "season.merge",
            club=season.club,
            subject=season.slug,
            new={"name": name, "into": into},
        )
    return merge


def player_unmerge(*, season: Season, name: str, actor: Actor = SYSTEM) -> None:
    """Undo the merges that made ``name`` (or a spelling merged into it) count as another
    player: every spelling merged under it counts as itself again."""
    name = _spelling(name, "name")
    with transaction.atomic():
        merges = _merges(season)
        root = resolve(name_key(name), merges)
        rows = [k for k in merges if resolve(k, merges) == root]
        if not rows:
            raise NotFound(
                "not_merged",
                _("%(name)r is not merged with anyone.") % {"name": name},
                field="name",
            )
        season.merges.filter(key__in=rows).delete()
        audit(None, actor, "season.unmerge", club=season.club, subject=season.slug, old=name)


def player_split(
    *, season: Season, drive: Drive, name: str, as_name: str, actor: Actor = SYSTEM
) -> PlayerSplit:
    """At ``drive``, count the player ``name`` as ``as_name`` (another person of the same
    name, e.g. "John MacDonald (Judique)")."""
    name, as_name = _spelling(name, "name"), _spelling(as_name, "as_name")
    with transaction.atomic():
        if not SeasonDrive.objects.filter(season=season, drive=drive).exists():
            raise NotFound(
                "not_in_season",
                _("The drive %(drive)s is not in the season.") % {"drive": drive.slug},
                drive=drive.slug,
            )
        key = name_key(name)
        players = {name_key(p) for c in drive.couples.all() for p in c.players}
        if key not in players:
            raise NotFound(
                "no_such_player",
                _("No player %(name)r at %(drive)s.") % {"name": name, "drive": drive.name},
                field="name",
            )
        if name_key(as_name) == key:
            raise ServiceError(
                "same_player",
                _("%(name)r is the same name: give the other person a name of their own.")
                % {"name": as_name},
                field="as_name",
            )
        split, _created = PlayerSplit.objects.update_or_create(
            season=season, drive=drive, key=key, defaults={"name": as_name}
        )
        audit(
            drive,
            actor,
            "season.split",
            club=season.club,
            subject=season.slug,
            new={"name": name, "as": as_name},
        )
    return split


def player_unsplit(*, season: Season, drive: Drive, name: str, actor: Actor = SYSTEM) -> None:
    """Undo a split: at ``drive``, ``name`` counts as itself again."""
    name = _spelling(name, "name")
    with transaction.atomic():
        deleted, _rows = PlayerSplit.objects.filter(
            season=season, drive=drive, key=name_key(name)
        ).delete()
        if not deleted:
            raise NotFound(
                "not_split",
                _("%(name)r is not split at %(drive)s.") % {"name": name, "drive": drive.name},
                field="name",
            )
        audit(drive, actor, "season.unsplit", club=season.club, subject=season.slug, old=name)
