"""Reads of a club's seasons: the seasons of a club, one season's drives, its players'
standings (the arithmetic is ``engine.season``), its players with their spellings, and the
cookie jar carried from drive to drive, and the money each drive raised (the night's money's
public read, ``money.selectors.drives_net``: seasons sit above money, which knows nothing of
them).

The standings read the drives' results through ``scoring.selectors.standings_for_drives``
(three queries for all of them), the prizes won in one query, the season's rows in a few: a
fixed number of queries however many drives (tests assert it). The season's rules (the best N
nights of M, the minimum to qualify, points per place, ties, most improved, the final) are
``engine.season.Rules``, applied there; :func:`rules_words` says them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max, OuterRef, Subquery, Sum
from django.forms.models import model_to_dict
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from club.parts import SeasonPart, SeasonStanding
from drives.errors import NotFound
from drives.models import Club, Drive
from drives.names import name_key
from engine.season import (
    CoupleNight,
    Improvement,
    JarNight,
    Night,
    PlayerStanding,
    Rules,
    apply_rules,
    finalists,
    jar_consistent,
    most_improved,
)
from engine.season import season_standings as standings_of
from money.selectors import club_pots, drives_net
from scoring.models import Award
from scoring.prizes.selectors import carried_in, cookie_jar_view
from scoring.selectors import standings_for_drives
from seasons.models import PlayerMerge, PlayerSplit, Season, SeasonDrive


def seasons_of(club: Club) -> list[Season]:
    return list(Season.objects.filter(club=club).order_by("-starts", "name"))


def season_get(club: Club, slug: str) -> Season:
    season = Season.objects.select_related("club").filter(club=club, slug=slug).first()
    if season is None:
        raise NotFound("not_found", _("No such season."))
    return season


def season_drives(season: Season) -> list[Drive]:
    """The season's drives in date order. One query."""
    return list(
        Drive.objects.filter(season_entry__season=season)
        .select_related("club")
        .order_by("date", "pk")
    )


def drives_free(season: Season) -> list[Drive]:
    """The club's drives within the season's dates and in no season: those it may take."""
    return list(
        Drive.objects.filter(
            club_id=season.club_id,
            date__range=(season.starts, season.ends),
            season_entry__isnull=True,
        ).order_by("date", "pk")
    )


def _prize_label(award: Award) -> str:
    if award.kind == Award.Kind.PLACE:
        return _("place %(place)s") % {"place": award.place}
    return str(award.get_kind_display())


def nights_of(drives: list[Drive]) -> list[Night]:
    """Each drive's couples, their wins and prizes, as the engine takes them."""
    prizes: dict[tuple[int, int], list[str]] = {}
    awards = Award.objects.filter(drive__in=drives).select_related("couple").order_by("pk")
    for award in awards:
        prizes.setdefault((award.drive_id, award.couple.number), []).append(_prize_label(award))
    nights = []
    standings = standings_for_drives(drives)
    for drive in drives:
        couples = tuple(
            CoupleNight(
                (row["players"][0], row["players"][1]),
                row["wins"],
                tuple(prizes.get((drive.pk, row["number"]), ())),
                row["place"],
            )
            for row in standings[drive.pk]
        )
        nights.append(Night(drive.slug, drive.date.isoformat(), couples))
    return nights


@dataclass(frozen=True)
class SeasonView:
    season: Season
    drives: list[Drive]
    players: list[PlayerStanding]
    improved: tuple[Improvement, ...] = ()
    final: tuple[PlayerStanding, ...] = ()

    @property
    def qualified(self) -> list[PlayerStanding]:
        return [p for p in self.players if p.qualified]

    @property
    def apart(self) -> list[PlayerStanding]:
        """Those who have not played the nights to qualify yet."""
        return [p for p in self.players if not p.qualified]

    @property
    def by_slug(self) -> dict[str, Drive]:
        return {d.slug: d for d in self.drives}


def identities(season: Season) -> tuple[dict[str, str], dict[tuple[str, str], str]]:
    """The season's merges (key → key) and splits ((drive slug, key) → name)."""
    merges = dict(season.merges.values_list("key", "into"))
    splits = {
        (slug, key): name
        for slug, key, name in season.splits.values_list("drive__slug", "key", "name")
    }
    return merges, splits


def season_view(season: Season) -> SeasonView:
    """The season's drives and its players' standings."""
    drives = season_drives(season)
    merges, splits = identities(season)
    rules = rules_of(season)
    slugs = [d.slug for d in drives]
    players = apply_rules(
        standings_of(nights_of(drives), merges=merges, splits=splits, key=name_key), slugs, rules
    )
    return SeasonView(
        season,
        drives,
        players,
        tuple(most_improved(players, slugs, rules)),
        tuple(finalists(players, rules)),
    )


def rules_of(season: Season) -> Rules:
    return Rules(
        best=season.best_count,
        of=season.nights_planned,
        qualify=season.qualify_nights,
        points=tuple(season.place_points) if season.scoring == "points" else (),
        improved=season.improved_nights,
        ties=season.tie_break,
        final=season.final_size,
    )


def rules_settings(season: Season) -> dict[str, Any]:
    """The season's rules as set (the API's, the export's), and in words."""
    return {
        "best_count": season.best_count,
        "nights_planned": season.nights_planned,
        "qualify_nights": season.qualify_nights,
        "scoring": season.scoring,
        "place_points": list(season.place_points),
        "improved_nights": season.improved_nights,
        "tie_break": season.tie_break,
        "final_size": season.final_size,
        "words": rules_words(season),
    }


def rules_words(season: Season) -> list[str]:
    """The season's rules as the page says them, one sentence a rule, in the active
    language."""
    best, of = season.best_count, season.nights_planned
    words = []
    if season.scoring == "points":
        words.append(
            _(
                "A night scores points for the couple's place: %(points)s for 1st, 2nd, 3rd… "
                "place; couples sharing a place take its points; a place past the table scores 0."
            )
            % {"points": ", ".join(str(p) for p in season.place_points)}
        )
    else:
        words.append(_("A night scores its games won: the season counts total wins."))
    if best is not None and of is not None:
        words.append(
            ngettext(
                "The best %(best)s night of %(of)s counts.",
                "The best %(best)s nights of %(of)s count.",
                best,
            )
            % {"best": best, "of": of}
        )
    elif best is not None:
        words.append(
            ngettext(
                "The best %(best)s night of those played so far counts.",
                "The best %(best)s nights of those played so far count.",
                best,
            )
            % {"best": best}
        )
    elif of is None:
        words.append(_("Every night played counts."))
    if of is not None:
        words.append(
            ngettext(
                "Only the season's first %(of)s night counts.",
                "Only the season's first %(of)s nights count.",
                of,
            )
            % {"of": of}
        )
    if season.qualify_nights > 1:
        words.append(
            _("At least %(n)s nights to qualify: players with fewer are listed apart, below.")
            % {"n": season.qualify_nights}
        )
    elif season.qualify_nights == 1:
        words.append(_("One night played qualifies."))
    words.append(
        {
            "shared": _("Players of equal score share the place."),
            "nights_won": _(
                "Ties: more nights won (a night won: the couple placed 1st), then the better "
                "best night, else the place is shared."
            ),
            "best_night": _(
                "Ties: the better best night, then more nights won (a night won: the couple "
                "placed 1st), else the place is shared."
            ),
        }.get(season.tie_break, "")
    )
    if season.improved_nights:
        words.append(
            ngettext(
                "Most improved: the biggest gain of a player's last %(k)s night over their "
                "first (players of at least %(twice)s nights).",
                "Most improved: the biggest gain of the average of a player's last %(k)s "
                "nights over their first %(k)s (players of at least %(twice)s nights).",
                season.improved_nights,
            )
            % {"k": season.improved_nights, "twice": 2 * season.improved_nights}
        )
    if season.final_size:
        words.append(
            ngettext(
                "Season final: the top %(n)s player goes to the final (everyone tied at the "
                "cut), listed below for the door.",
                "Season final: the top %(n)s players go to the final (everyone tied at the "
                "cut), listed below for the door.",
                season.final_size,
            )
            % {"n": season.final_size}
        )
    return words


def standings_rows(view: SeasonView) -> list[dict[str, Any]]:
    """The standings as plain rows (the page's table, its exports, the API)."""
    names = {d.slug: d.name for d in view.drives}
    dates = {d.slug: d.date.isoformat() for d in view.drives}
    return [
        {
            "place": p.place or None,
            "qualified": p.qualified,
            "player": p.name,
            "key": p.key,
            "spellings": list(p.spellings),
            "drives": p.drives,
            "wins": p.wins,
            "score": p.score,
            "counted": p.counted,
            "nights_won": p.nights_won,
            "best": p.best,
            "best_drive": p.best_drive,
            "best_drive_name": names.get(p.best_drive, p.best_drive),
            "best_drive_date": dates.get(p.best_drive, ""),
            "average": str(p.average),
            "prizes": p.prizes,
            "clashes": list(p.clashes),
        }
        for p in view.players
    ]


def improved_rows(view: SeasonView) -> list[dict[str, Any]]:
    return [
        {
            "player": g.name,
            "key": g.key,
            "first": str(g.first),
            "last": str(g.last),
            "gain": str(g.gain),
        }
        for g in view.improved
    ]


def final_rows(view: SeasonView) -> list[dict[str, Any]]:
    return [{"place": p.place, "player": p.name, "key": p.key} for p in view.final]


def season_summary(season: Season, drives: list[Drive] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "slug": season.slug,
        "club": season.club.slug,
        "name": season.name,
        "starts": season.starts.isoformat(),
        "ends": season.ends.isoformat(),
        "published": season.published,
        "rules": rules_settings(season),
    }
    if drives is not None:
        out["drives"] = [
            {"slug": d.slug, "name": d.name, "date": d.date.isoformat(), "state": d.state}
            for d in drives
        ]
    return out


def identities_view(season: Season) -> dict[str, Any]:
    """The merges (each spelling's key and the key it counts as) and the splits."""
    return {
        "merges": [{"key": m.key, "into": m.into} for m in season.merges.order_by("into", "key")],
        "splits": [
            {"drive": s.drive.slug, "key": s.key, "as_name": s.name}
            for s in season.splits.select_related("drive").order_by("drive__date", "key")
        ],
    }


def season_money(drives: list[Drive]) -> dict[str, Any]:
    """The night's money across the season: what each drive took in, paid out and raised
    (``money.selectors.drives_net``, in date order) and the season's totals, by currency
    (a club's drives are nearly always in one). A few queries a drive."""
    rows = []
    totals: dict[str, dict[str, Decimal]] = {}
    for row in drives_net(drives):
        drive = row["drive"]
        rows.append(
            {
                "slug": drive.slug,
                "name": drive.name,
                "date": drive.date.isoformat(),
                "currency": drive.currency,
                "money_in": row["money_in"],
                "money_out": row["money_out"],
                "net": row["net"],
            }
        )
        total = totals.setdefault(drive.currency, dict.fromkeys(MONEY_SUMS, Decimal("0.00")))
        for key in MONEY_SUMS:
            total[key] += row[key]
    return {
        "drives": rows,
        "totals": [{"currency": currency, **sums} for currency, sums in sorted(totals.items())],
    }


MONEY_SUMS = ("money_in", "money_out", "net")


def _money(value: Any) -> Decimal | None:
    return None if value is None else Decimal(str(value))


def season_jar(drives: list[Drive]) -> dict[str, Any]:
    """The cookie jar drive by drive: what each carried in, held and carried out, as
    ``scoring.prizes.selectors.carried_in`` counts it (a jar not drawn yet carries its whole
    pot; one drawn without a winner carries its pot; a jar won carries nothing; a night
    without a jar passes on what it was given), and the drives whose carry-in differs from
    what the one before carried out (a drive of the club outside the season sits between
    them)."""
    rows, nights = [], []
    for drive in drives:
        jar = cookie_jar_view(drive)
        row: dict[str, Any] = {
            "drive": drive.slug,
            "name": drive.name,
            "date": drive.date.isoformat(),
            "enabled": jar["enabled"],
            "carried_in": jar.get("carried_in"),
            "pot": jar.get("pot"),
            "status": jar.get("status"),
            "carried_out": None,
            "winners": jar.get("winners", []),
        }
        if not jar["enabled"]:
            row["carried_in"] = row["carried_out"] = str(carried_in(drive))
        elif row["status"] == "not-drawn":
            row["carried_out"] = row["pot"]
        elif row["status"] == "carried-over":
            row["carried_out"] = jar["carried_over"]
        else:
            row["carried_out"] = "0.00"
        rows.append(row)
        nights.append(
            JarNight(
                drive.slug,
                _money(row["carried_in"]) or Decimal(0),
                _money(row["pot"]) or Decimal(0),
                _money(row["carried_out"]),
            )
        )
    return {
        "drives": rows,
        "gaps": jar_consistent(nights),
        "any": any(row["enabled"] for row in rows),
    }


def season_pots(club: Club, drives: list[Drive]) -> list[dict[str, Any]]:
    """The club's pots the season's drives carried, and its open ones: what each holds and
    its history at those drives (``money.selectors.club_pots``). Three queries."""
    return club_pots(club, drives=drives)


CLUB_SEASON_SECONDS = 3600  # kept this long at most; any change of the season makes it anew


def season_fingerprint(season: Season) -> str:
    """What the season's standings are made of, in one query: its drives and each drive's
    version (``DriveVersion``: every audited change of a drive moves it, a result corrected
    or a prize settled), its merges and splits. Equal fingerprints, equal standings."""

    def one(rows: Any, value: Any) -> Subquery:
        return Subquery(rows.order_by().values("season").annotate(x=value).values("x")[:1])

    entries = SeasonDrive.objects.filter(season=OuterRef("pk"))
    merges = PlayerMerge.objects.filter(season=OuterRef("pk"))
    splits = PlayerSplit.objects.filter(season=OuterRef("pk"))
    row = (
        Season.objects.filter(pk=season.pk)
        .values("pk")
        .annotate(
            drives=one(entries, Count("pk")),
            last_drive=one(entries, Max("drive_id")),
            versions=one(entries, Sum("drive__live__version")),
            merges_made=one(merges, Count("pk")),
            last_merge=one(merges, Max("pk")),
            splits_made=one(splits, Count("pk")),
            last_split=one(splits, Max("pk")),
        )
        .get()
    )
    # The season's own settings, its rules among them (best N of M, points, ties…).
    made = f"{season.created_at.isoformat()} {sorted(model_to_dict(season).items())}"
    return hashlib.sha256(f"{made} {sorted(row.items())}".encode()).hexdigest()


def club_season(club: Club, today: date, top: int) -> SeasonPart | None:
    """The club page's season (``club.parts``): the published season under way, else the last
    published one begun, with its first ``top`` players. Kept in the cache under the season's
    fingerprint (a season of hundreds of nights takes seconds to count): two queries when it
    has not changed, a fixed number more when it has."""
    season = (
        Season.objects.filter(club=club, published=True, starts__lte=today)
        .order_by("-starts", "-pk")
        .first()
    )
    if season is None:
        return None
    key = f"club-season:{season.pk}:{top}:{season_fingerprint(season)}"
    kept = cache.get(key)
    if isinstance(kept, SeasonPart):
        return kept
    part = _club_season(season, top)
    cache.set(key, part, CLUB_SEASON_SECONDS)
    return part


def _club_season(season: Season, top: int) -> SeasonPart:
    view = season_view(season)
    rows = [
        SeasonStanding(p.place, p.name, p.key, p.drives, p.wins, p.prizes)
        for p in view.players[:top]
    ]
    return SeasonPart(
        season.slug,
        season.name,
        season.starts,
        season.ends,
        len(view.drives),
        len(view.players),
        rows,
    )
