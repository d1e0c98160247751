"""A club's season: a named series of its drives (from one date to another), and how the
season counts its players across them (the arithmetic: engine/season.py).

A drive belongs to at most one season (:class:`SeasonDrive`, one row per drive, the drive
its primary key). Players are matched by their names' keys (``drives.names.name_key``);
:class:`PlayerMerge` counts one key as another (two spellings of one person) and
:class:`PlayerSplit` counts a name of one drive as another name (two people of one name).
Nothing in ``drives`` or ``scoring`` knows of these rows; writes go through
``seasons.services``, reads through ``seasons.selectors``.
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from drives.models import Club, Drive


class Season(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    slug = models.SlugField(max_length=80)
    name = models.CharField(_("name"), max_length=120)
    starts = models.DateField(_("from"))
    ends = models.DateField(_("to"))
    published = models.BooleanField(
        _("published"), default=False, help_text=_("season standings open to the public")
    )
    # The season's rules (engine.season.Rules; words on the page: seasons.selectors.rules_words).
    best_count = models.PositiveSmallIntegerField(
        _("best nights that count"), null=True, blank=True
    )
    nights_planned = models.PositiveSmallIntegerField(
        _("nights in the season"), null=True, blank=True
    )
    qualify_nights = models.PositiveSmallIntegerField(_("nights to qualify"), default=0)
    scoring = models.CharField(
        _("scoring"),
        max_length=10,
        choices=[("wins", _("total wins")), ("points", _("points per place"))],
        default="wins",
    )
    place_points = models.JSONField(_("points per place"), default=list, blank=True)
    improved_nights = models.PositiveSmallIntegerField(_("most improved over"), default=0)
    tie_break = models.CharField(
        _("ties"),
        max_length=12,
        choices=[
            ("shared", _("shared")),
            ("nights_won", _("more nights won, then the better best night")),
            ("best_night", _("the better best night, then more nights won")),
        ],
        default="shared",
    )
    final_size = models.PositiveSmallIntegerField(_("players in the final"), default=0)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["club", "-starts", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="season_slug_once_per_club"),
            models.CheckConstraint(condition=Q(starts__lte=F("ends")), name="season_dates_ordered"),
            models.CheckConstraint(
                condition=Q(best_count__isnull=True)
                | Q(nights_planned__isnull=True)
                | Q(best_count__lte=F("nights_planned")),
                name="season_best_within_nights",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.starts} – {self.ends})"


class SeasonDrive(models.Model):
    """A drive of a season: the drive is the key, so it belongs to one season at most."""

    drive = models.OneToOneField(
        Drive, on_delete=models.CASCADE, primary_key=True, related_name="season_entry"
    )
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries")
    added_at = models.DateTimeField(default=timezone.now, editable=False)

    def __str__(self) -> str:
        return f"{self.drive_id} in {self.season_id}"


class PlayerMerge(models.Model):
    """Two spellings of one person: the name keyed ``key`` counts as ``into`` (a key too)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="merges")
    key = models.CharField(max_length=80)
    into = models.CharField(max_length=80)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["season", "key"]
        constraints = [
            models.UniqueConstraint(fields=["season", "key"], name="merge_once_per_key"),
            models.CheckConstraint(condition=~Q(key=F("into")), name="merge_not_itself"),
        ]

    def __str__(self) -> str:
        return f"{self.key} → {self.into}"


class PlayerSplit(models.Model):
    """Two people of one name: at ``drive``, the player whose name is keyed ``key`` counts as
    ``name`` instead (e.g. "John MacDonald (Judique)")."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="splits")
    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=80)
    name = models.CharField(max_length=80)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["season", "drive", "key"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "drive", "key"], name="split_once_per_drive_and_key"
            )
        ]

    def __str__(self) -> str:
        return f"{self.key} at {self.drive_id} → {self.name}"
