"""Models of results: one result per table and game (a database constraint), and every
submission kept as a version (who, when, through which channel, old and new winner).

A result's ``state``: ``accepted`` (counts), ``pending`` (entered from one couple's side on a
drive with ``confirm_by_other_couple``, waiting for the other couple), ``conflict`` (two
different winners were entered; the desk resolves it). Wins and standings are derived from
accepted results and the seating, never stored.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from drives.models import AuditEntry, Couple, Game, Seat


class Result(models.Model):
    class State(models.TextChoices):
        ACCEPTED = "accepted", _("accepted")
        PENDING = "pending", _("waiting for the other couple")
        CONFLICT = "conflict", _("in conflict")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results")
    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="result")
    winner = models.ForeignKey(Couple, on_delete=models.PROTECT, related_name="+")
    winner_points = models.SmallIntegerField(null=True, blank=True)
    loser_points = models.SmallIntegerField(null=True, blank=True)
    verdict = models.CharField(max_length=32, blank=True, help_text=_("the engine's code"))
    state = models.CharField(max_length=10, choices=State.choices, default=State.ACCEPTED)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "seat__table__number"]
        constraints = [
            # The seat is unique per game and table, so this is one result per table and game.
            models.UniqueConstraint(fields=["seat"], name="result_once_per_table_and_game"),
        ]
        indexes = [models.Index(fields=["game", "state"])]

    def __str__(self) -> str:
        return f"{self.seat}: {self.winner.number} ({self.state})"

    @property
    def points(self) -> list[int] | None:
        if self.winner_points is None or self.loser_points is None:
            return None
        return [self.winner_points, self.loser_points]


class ResultVersion(models.Model):
    """One submission or decision about a result, kept for ever."""

    class Kind(models.TextChoices):
        ENTERED = "entered", _("entered")
        CONFLICTING = "conflicting", _("a different winner entered")
        RESOLVED = "resolved", _("resolved or corrected")
        CONFIRMED = "confirmed", _("confirmed by the other couple")
        REJECTED = "rejected", _("rejected by the other couple")

    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="versions")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    winner = models.ForeignKey(Couple, on_delete=models.PROTECT, related_name="+")
    winner_points = models.SmallIntegerField(null=True, blank=True)
    loser_points = models.SmallIntegerField(null=True, blank=True)
    previous_winner = models.ForeignKey(
        Couple, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    key = models.CharField(max_length=80, blank=True, db_index=True)
    channel = models.CharField(max_length=8, choices=AuditEntry.Channel.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    couple = models.ForeignKey(
        Couple,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("the couple whose token entered it"),
    )
    reason = models.TextField(blank=True)
    after_advance = models.BooleanField(
        default=False, help_text=_("made after the next game had started: seating unchanged")
    )
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["result", "at", "id"]

    def __str__(self) -> str:
        return f"{self.kind} {self.winner.number} at {self.at:%H:%M:%S}"
