"""Models of results: one result per table and game (a database constraint), and every
submission kept as a version (who, when, through which channel, old and new winner).

A result's ``state``: ``accepted`` (counts), ``pending`` (entered from one couple's side on a
drive with ``confirm_by_other_couple``, waiting for the other couple), ``conflict`` (two
different results were entered: another winner, or other points for the same one; the desk
resolves it), ``undone`` (taken back at once by whoever entered it: the table has no result
again, and the next entry reuses the row). Wins and standings are derived from
accepted results and the seating, never stored.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TypedDict

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from drives.models import AuditEntry, Couple, Drive, Game, Seat, Table


class Result(models.Model):
    class State(models.TextChoices):
        ACCEPTED = "accepted", _("accepted")
        PENDING = "pending", _("waiting for the other couple")
        CONFLICT = "conflict", _("in conflict")
        # Taken back by whoever entered it, at once (``scoring.services.result_undo``): the
        # table has no result, as if none had been entered; the row keeps its versions.
        UNDONE = "undone", _("undone: no result")

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
        CORRECTED = "corrected", _("corrected at once by whoever entered it")
        CONFIRMED = "confirmed", _("confirmed by the other couple")
        REJECTED = "rejected", _("rejected by the other couple")
        UNDONE = "undone", _("undone at once by whoever entered it")

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
    device = models.CharField(
        max_length=32, blank=True, help_text=_("the phone that entered it (its device cookie)")
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


class TableCall(models.Model):
    """A table asking for the desk ("table 12 needs the desk"), from its phone: open until
    the desk says it is on its way (``answered``), then closed when the desk has been. One
    open or answered call a table at a time (a constraint); the reason is the players' words
    (a dispute, a misdeal, a renege claim, a missing player), bounded by
    ``drives.inputs.CALL_REASON``."""

    class State(models.TextChoices):
        OPEN = "open", _("waiting for the desk")
        ANSWERED = "answered", _("the desk is on its way")
        CLOSED = "closed", _("closed by the desk")

    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="table_calls")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="table_calls")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="calls")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="calls")
    reason = models.CharField(max_length=200, blank=True)
    state = models.CharField(max_length=8, choices=State.choices, default=State.OPEN)
    channel = models.CharField(max_length=8, choices=AuditEntry.Channel.choices)
    couple = models.ForeignKey(
        Couple,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("the couple whose token called"),
    )
    opened_at = models.DateTimeField(default=timezone.now)
    answered_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # Moves at every change: the table's phone's poll key reads the newest
    # (scoring.pages.conditional.phone_key).
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["opened_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=~models.Q(state="closed"),
                name="table_call_one_open_per_table",
            ),
        ]
        indexes = [
            models.Index(fields=["drive", "state"]),
            models.Index(fields=["table", "-updated_at"]),
        ]

    def __str__(self) -> str:
        return f"call of {self.table} ({self.state})"


# --- prizes (docs/rules.md §8–§10) ----------------------------------------------------------------
# Written by ``scoring.prizes``, read by ``scoring.prizes.selectors``. Couples are named by
# foreign key where a row is about one couple; a tie's couples, places and the cookie jar's
# games are small lists of numbers (JSON), fixed when the row is written.


class MoneyDigits(TypedDict):
    """The digits of an amount of money (``models.DecimalField(**MONEY)``)."""

    max_digits: int
    decimal_places: int


MONEY: MoneyDigits = {"max_digits": 10, "decimal_places": 2}


class PrizeSetup(models.Model):
    """A drive's prize rules; created with these defaults on first use."""

    class HouseRule(models.TextChoices):
        NONE = "none", _("ask each tied couple")
        ALWAYS_CUT = "always-cut", _("always cut")
        ALWAYS_SPLIT = "always-split", _("always split")

    drive = models.OneToOneField(Drive, on_delete=models.CASCADE, related_name="prize_setup")
    prize_places = models.PositiveSmallIntegerField(default=3)
    booby = models.BooleanField(default=True)
    booby_amount = models.DecimalField(null=True, blank=True, **MONEY)
    booby_description = models.CharField(max_length=200, blank=True)
    booby_late_couples = models.BooleanField(
        default=False,
        help_text=_("couples who missed games (late arrivals) may take the booby prize too"),
    )
    cookie_jar = models.BooleanField(default=False)
    cookie_jar_k = models.PositiveSmallIntegerField(default=8)
    buy_in = models.DecimalField(default=0, **MONEY)
    jackpot_threshold = models.PositiveSmallIntegerField(null=True, blank=True)
    jackpot_amount = models.DecimalField(null=True, blank=True, **MONEY)
    cut_ace_high = models.BooleanField(default=False)
    cut_high_wins = models.BooleanField(
        default=False, help_text=_("the highest card wins a cut (the lowest by default)")
    )
    house_rule = models.CharField(max_length=12, choices=HouseRule.choices, default="none")
    one_prize_per_couple = models.BooleanField(
        default=False,
        help_text=_("a couple in two prizes takes the better; the next couple moves up"),
    )
    share_rounding = models.DecimalField(
        default=Decimal("1.00"),
        help_text=_("a share of the takings is rounded down to this unit"),
        **MONEY,
    )
    half_time_after = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("the half-time prize goes to the best after this game")
    )
    half_time_amount = models.DecimalField(null=True, blank=True, **MONEY)
    half_time_description = models.CharField(max_length=200, blank=True)
    half_time_share_of = models.CharField(max_length=5, blank=True)
    half_time_percent = models.PositiveSmallIntegerField(null=True, blank=True)
    updated_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"prizes of {self.drive}"


class PrizePlace(models.Model):
    """The prize of one place: money (to the cent, the drive's currency), a thing, or a share
    (``percent`` of the entry money or of the pot, ``share_of``): a share's ``amount`` is empty
    until the ties are opened, which fix it from the night's takings."""

    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="prize_place_set")
    place = models.PositiveSmallIntegerField()
    amount = models.DecimalField(null=True, blank=True, **MONEY)
    description = models.CharField(max_length=200, blank=True)
    share_of = models.CharField(max_length=5, blank=True, help_text=_("entry or pot"))
    percent = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["drive", "place"]
        constraints = [
            models.UniqueConstraint(fields=["drive", "place"], name="prize_place_once_per_drive")
        ]

    def __str__(self) -> str:
        return f"prize {self.place}: {self.amount if self.amount is not None else self.description}"


class PrizeCategory(models.Model):
    """A prize the hall names ("Hard luck") with a rule the engine computes from the night's
    results (``engine.prizes.CATEGORY_RULES``): money, a thing or a share, like a place's
    (``position``: its order on the set-up, which is also the order one prize per couple
    follows among the categories)."""

    class Rule(models.TextChoices):
        MOST_LOST_IN_A_ROW = "most_lost_in_a_row", _("most games lost in a row")
        MOST_WON_IN_A_ROW = "most_won_in_a_row", _("most games won in a row")
        MOST_LOST = "most_lost", _("most games lost in all")
        BEST_AFTER = "best_after", _("most games won after game N")

    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="prize_categories")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=60)
    rule = models.CharField(max_length=20, choices=Rule.choices)
    after_game = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("best_after: the games won after this one count")
    )
    amount = models.DecimalField(null=True, blank=True, **MONEY)
    description = models.CharField(max_length=200, blank=True)
    share_of = models.CharField(max_length=5, blank=True, help_text=_("entry or pot"))
    percent = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["drive", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["drive", "position"], name="prize_category_once_per_position"
            ),
            models.UniqueConstraint(fields=["drive", "name"], name="prize_category_name_once"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.rule})"


class Tie(models.Model):
    """Couples sharing a prize (a place, the booby prize, a category or the cookie jar), and
    how it went."""

    class Kind(models.TextChoices):
        PLACE = "place", _("prize place")
        BOOBY = "booby", _("booby prize")
        COOKIE_JAR = "cookie-jar", _("cookie jar")
        HALF_TIME = "half-time", _("half-time prize")
        CATEGORY = "category", _("named prize")

    class State(models.TextChoices):
        OPEN = "open", _("waiting for the couples' choices")
        DECIDED = "decided", _("cut or play-off under way")
        SETTLED = "settled", _("settled")

    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="ties")
    key = models.CharField(
        max_length=20, help_text=_("place:N, booby, half-time, category:N or cookie-jar")
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    places = models.JSONField(default=list, help_text=_("the prize places covered"))
    couples = models.JSONField(default=list, help_text=_("the tied couples' numbers"))
    state = models.CharField(max_length=8, choices=State.choices, default=State.OPEN)
    method = models.CharField(max_length=10, blank=True)
    playing = models.JSONField(default=list, help_text=_("couples left in after forfeits"))
    forfeits = models.JSONField(default=list)
    winner = models.PositiveIntegerField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_channel = models.CharField(max_length=8, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["drive", "id"]
        constraints = [models.UniqueConstraint(fields=["drive", "key"], name="tie_once_per_key")]

    def __str__(self) -> str:
        return f"tie {self.key}: {self.couples} ({self.state})"


class TieChoice(models.Model):
    """A tied couple's choice as asked and as applied (a house rule replaces it)."""

    tie = models.ForeignKey(Tie, on_delete=models.CASCADE, related_name="choices")
    couple = models.ForeignKey(Couple, on_delete=models.CASCADE, related_name="+")
    asked = models.CharField(max_length=10)
    choice = models.CharField(max_length=10)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    channel = models.CharField(max_length=8, choices=AuditEntry.Channel.choices)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["tie", "at", "id"]

    def __str__(self) -> str:
        return f"{self.couple.number}: {self.choice}"


class CutCard(models.Model):
    """The card a couple cut in one round of a tie's cut (at the table, or drawn by the system
    from ``seed``)."""

    tie = models.ForeignKey(Tie, on_delete=models.CASCADE, related_name="cut_cards")
    round = models.PositiveSmallIntegerField()
    couple = models.ForeignKey(Couple, on_delete=models.CASCADE, related_name="+")
    card = models.CharField(max_length=3)
    seed = models.BigIntegerField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    channel = models.CharField(max_length=8, choices=AuditEntry.Channel.choices)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["tie", "round", "couple__number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tie", "round", "couple"], name="cut_card_once_per_round"
            )
        ]

    def __str__(self) -> str:
        return f"round {self.round}: {self.couple.number} {self.card}"


class PlayoffMatch(models.Model):
    """One game of a tie's play-off (``b`` empty: a bye)."""

    tie = models.ForeignKey(Tie, on_delete=models.CASCADE, related_name="matches")
    round = models.PositiveSmallIntegerField()
    a = models.ForeignKey(Couple, on_delete=models.CASCADE, related_name="+")
    b = models.ForeignKey(Couple, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    winner = models.ForeignKey(
        Couple, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    winner_points = models.SmallIntegerField(null=True, blank=True)
    loser_points = models.SmallIntegerField(null=True, blank=True)
    verdict = models.CharField(max_length=32, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    channel = models.CharField(max_length=8, blank=True)
    at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tie", "round", "a__number"]
        constraints = [
            models.UniqueConstraint(fields=["tie", "round", "a"], name="playoff_match_once")
        ]

    def __str__(self) -> str:
        return f"round {self.round}: {self.a.number} v {self.b.number if self.b else 'bye'}"


class Award(models.Model):
    """A prize given to a couple, and how."""

    class Kind(models.TextChoices):
        PLACE = "place", _("prize place")
        BOOBY = "booby", _("booby prize")
        COOKIE_JAR = "cookie-jar", _("cookie jar")
        JACKPOT = "jackpot", _("jackpot")
        HALF_TIME = "half-time", _("half-time prize")
        CATEGORY = "category", _("named prize")

    class How(models.TextChoices):
        DIRECT = "direct", _("direct")
        SPLIT = "split", _("split")
        CUT = "cut", _("cut")
        PLAY_OFF = "play-off", _("play-off")
        FORFEIT = "forfeit-award", _("the others forfeited")

    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="awards")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    couple = models.ForeignKey(Couple, on_delete=models.CASCADE, related_name="awards")
    amount = models.DecimalField(null=True, blank=True, **MONEY)
    description = models.CharField(max_length=200, blank=True)
    how = models.CharField(max_length=14, choices=How.choices)
    tie = models.ForeignKey(
        Tie, null=True, blank=True, on_delete=models.CASCADE, related_name="awards"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    channel = models.CharField(max_length=8, blank=True)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["drive", "kind", "place", "couple__number"]

    def __str__(self) -> str:
        return f"{self.kind} {self.place or ''} to {self.couple.number} ({self.how})"


class CookieJarDraw(models.Model):
    """The cookie jar's draw: the games (from ``seed``, or as drawn from a hat), and what the
    jar held then (``pot`` includes ``carried_in``)."""

    class Method(models.TextChoices):
        SYSTEM = "system", _("drawn by the system from a seed")
        HAT = "hat", _("drawn from a hat")

    drive = models.OneToOneField(Drive, on_delete=models.CASCADE, related_name="cookie_jar_draw")
    method = models.CharField(max_length=6, choices=Method.choices)
    seed = models.BigIntegerField(null=True, blank=True)
    games = models.JSONField(default=list)
    entrants = models.JSONField(default=list)
    pot = models.DecimalField(**MONEY)
    carried_in = models.DecimalField(default=0, **MONEY)
    winners = models.JSONField(default=list)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    channel = models.CharField(max_length=8, choices=AuditEntry.Channel.choices)
    at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"cookie jar of {self.drive}: {self.games}"


def document_path(document: Document, filename: str) -> str:
    """Where a printed document's PDF is kept: MEDIA_ROOT/documents/<drive slug>/<file>."""
    return f"documents/{document.drive.slug}/{filename}"


class Document(models.Model):
    """A printed document of a drive (punch cards, table cards, score sheets, a movement
    sheet, the results, the treasurer's sheet of the night's accounts: its data from the
    money app, ``scoring.printing.parts``) with its options, rendered by a task
    (``scoring.printing.tasks``). One row per drive, kind and options, kept until replaced by
    a new rendering; it is stale when ``data_version`` no longer matches
    ``scoring.printing.data.data_version`` (the data changed). ``pages_done`` of
    ``pages_total`` is the rendering's progress."""

    class Kind(models.TextChoices):
        PUNCH_CARDS = "punch-cards", _("punch cards")
        TABLE_CARDS = "table-cards", _("table cards")
        SCORE_SHEETS = "score-sheets", _("score sheets")
        MOVEMENT = "movement", _("movement sheet")
        RESULTS = "results", _("results")
        ACCOUNTS = "accounts", _("the night's accounts")

    class Paper(models.TextChoices):
        LETTER = "letter", _("Letter")
        A4 = "a4", _("A4")

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="documents")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    paper = models.CharField(max_length=8, choices=Paper.choices, default=Paper.LETTER)
    game = models.PositiveIntegerField(null=True, blank=True)
    couple = models.PositiveIntegerField(null=True, blank=True)
    filled = models.BooleanField(default=False)
    base_url = models.CharField(max_length=200, blank=True)
    #: Not stored: set by ``scoring.printing.services`` when a document is asked for, True
    #: when its file was already made from the same data.
    up_to_date: bool = False
    language = models.CharField(max_length=16, blank=True)
    data_version = models.CharField(max_length=64, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    pages_done = models.PositiveIntegerField(default=0)
    pages_total = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    file = models.FileField(upload_to=document_path, max_length=255, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    task_id = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["drive", "kind", "-created_at"]
        indexes = [models.Index(fields=["drive", "kind"], name="document_drive_kind")]

    def __str__(self) -> str:
        return f"{self.kind} of {self.drive} ({self.status})"
