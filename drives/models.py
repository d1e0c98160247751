"""Models of a club's drives and their nights: clubs, their members and players, drives,
couples, tables, games and the seating of each game as it was played, tokens, and the audit
trail.

A drive's rules live in the engine; these rows store what happened. Results (who won at a
table) belong to the ``scoring`` app, which builds on these models; nothing here knows of it.
Writes go through ``drives.services``; reads through ``drives.selectors``.
"""

from __future__ import annotations

import hashlib
import secrets
from decimal import Decimal
from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext_lazy as _

from drives.rules_words import house_rules
from engine.rules import PRESETS, Ruleset, make_ruleset


def new_token() -> str:
    """128 random bits, URL-safe (22 characters)."""
    return secrets.token_urlsafe(16)


class Club(models.Model):
    """A parish, legion branch or club: it owns its drives and sees no one else's."""

    class PublicNames(models.TextChoices):
        """What the club's public pages (``/clubs/<club>/``) show of its players' names."""

        FULL = "full", _("full names")
        INITIAL = "initial", _("first names with an initial")
        NONE = "none", _("no names")

    name = models.CharField(_("name"), max_length=120, unique=True)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    public_names = models.CharField(
        _("players' names on the public pages"),
        max_length=8,
        choices=PublicNames.choices,
        default=PublicNames.INITIAL,
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    # The club's site, as the hall's laptop knows it (docs/club-site.md): its address, an
    # organizer's API token there, and whether each night is published at its close.
    site_url = models.URLField(_("the club's site"), max_length=200, blank=True)
    site_token = models.CharField(_("API token on the site"), max_length=200, blank=True)
    publish_at_close = models.BooleanField(_("publish each night at its close"), default=False)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A person who plays at the club's drives, kept from one night to the next: the name as
    first written, its key (``drives.names.name_key``: how names are compared), and a phone
    or e-mail the club may use, never shown publicly. Each couple names two of them
    (``Couple.member1``, ``Couple.member2``); two rows of one key exist only when the
    organizer says they are two people."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=80)
    key = models.CharField(max_length=160)  # a name's key may be longer than the name
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    email = models.EmailField(_("e-mail"), max_length=120, blank=True)
    #: A member of the club pays the members' price at the door when the drive has one
    #: (``money.models.MoneySetup.member_fee``).
    member = models.BooleanField(_("member"), default=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["club", "key", "id"]
        indexes = [models.Index(fields=["club", "key"], name="player_club_key")]

    def __str__(self) -> str:
        return self.name

    def page_key(self) -> str:
        """The unguessable part of the address of the player's own page (reached from their
        couple's page; the only way in when the club shows no names)."""
        return player_page_key(self.pk)


def player_page_key(pk: int) -> str:
    """``Player.page_key`` of the player ``pk``: an HMAC of the id with the site's secret, so
    nothing is stored and an id alone opens nothing."""
    return salted_hmac("drives.Player.page", str(pk)).hexdigest()[:24]


class Membership(models.Model):
    class Role(models.TextChoices):
        ORGANIZER = "organizer", _("organizer")
        SCORER = "scorer", _("scorer")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=12, choices=Role.choices, default=Role.ORGANIZER)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_once_per_club")
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) at {self.club}"


class ApiToken(models.Model):
    """A user's API token (``Authorization: Bearer …``); only its SHA-256 is stored."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    last_used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"API token of {self.user} ({self.created_at:%Y-%m-%d})"

    @staticmethod
    def digest_of(raw: str) -> str:
        return hashlib.sha256(raw.encode()).hexdigest()


class Drive(models.Model):
    """One evening of ``games`` games among numbered couples at numbered tables."""

    class State(models.TextChoices):
        SETUP = "setup", _("setting up")
        RUNNING = "running", _("running")
        CLOSED = "closed", _("closed")

    class Movement(models.TextChoices):
        WINNERS_MOVE = "winners-move", _("winners move, losers stay")
        LOSERS_MOVE = "losers-move", _("losers move, winners stay")

    class FirstSeating(models.TextChoices):
        BY_NUMBER = "by-number", _("by number")
        SHUFFLE = "shuffle", _("shuffled from a recorded seed")

    class Ranking(models.TextChoices):
        DENSE = "dense", _("dense (1, 1, 2)")
        COMPETITION = "competition", _("competition (1, 1, 3)")

    class FeePer(models.TextChoices):
        PERSON = "person", _("a person")
        COUPLE = "couple", _("a couple")

    RULESET_CHOICES = [(name, name) for name in PRESETS]

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="drives")
    slug = models.SlugField(max_length=80, unique=True)
    name = models.CharField(_("name"), max_length=120)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    # How many games: its rule (1 to 60) is drives.inputs.GAMES_RULE, which every way in passes.
    games = models.PositiveSmallIntegerField(_("games"), default=25)
    ruleset = models.CharField(
        _("ruleset"), max_length=40, choices=RULESET_CHOICES, default="cape-breton-45"
    )
    rules = models.JSONField(
        _("rules"),
        default=dict,
        blank=True,
        help_text=_(
            "the switches that differ from the preset (docs/rules.md §3, §5, §6); drives made "
            "before the switches keep the rules they were played under"
        ),
    )
    movement = models.CharField(
        max_length=20, choices=Movement.choices, default=Movement.WINNERS_MOVE
    )
    first_seating = models.CharField(
        max_length=12, choices=FirstSeating.choices, default=FirstSeating.BY_NUMBER
    )
    seed = models.BigIntegerField(null=True, blank=True, help_text=_("seed of a shuffled seating"))
    sit_out_counts_as_win = models.BooleanField(default=True)
    sit_out_last = models.BooleanField(
        default=True,
        help_text=_(
            "the tables played are 1..F without a hole and the sit-out is no table "
            "(engine.movement: sit_out_last); drives created before it keep their movement"
        ),
    )
    ranking = models.CharField(max_length=12, choices=Ranking.choices, default=Ranking.DENSE)
    entry_fee = models.DecimalField(max_digits=8, decimal_places=2, default=0)
    # "$5 a person" (a couple pays it twice) or "$10 a couple", as the hall charges; drives
    # stored before the choice charged per couple and keep it (drives 0011).
    entry_fee_per = models.CharField(
        _("entry fee per"), max_length=8, choices=FeePer.choices, default=FeePer.PERSON
    )
    currency = models.CharField(max_length=3, default="CAD")
    confirm_by_other_couple = models.BooleanField(default=False)
    # Who may start the next game: organizers always; scorers too unless the organizer says no
    # (at the desk, the scorer who sees every table in is the one who starts the next game).
    scorers_may_advance = models.BooleanField(default=True)
    published = models.BooleanField(default=False, help_text=_("results page open to the public"))
    # Slow tables: once most tables of a game have reported (drives.inputs.SLOW_SHARE), the
    # ones still missing this many minutes later are marked on the desk and the projector's
    # organizer view (0: never). The director still decides when to start the next game.
    slow_table_minutes = models.PositiveSmallIntegerField(
        _("slow tables after (minutes)"), default=3
    )
    # Registration before the night (drives.registrations): the public page takes couples
    # from ``registration_opens`` (none: no registration) until ``registration_closes`` (none:
    # until the night starts), ``capacity`` couples at most before the wait list (none: no limit).
    registration_opens = models.DateTimeField(_("registration opens"), null=True, blank=True)
    registration_closes = models.DateTimeField(_("registration closes"), null=True, blank=True)
    capacity = models.PositiveIntegerField(_("capacity (couples)"), null=True, blank=True)
    # The hall's language: the projector, the table and couple pages, the printed documents
    # and the public results are in it (the organizers' own pages follow each one's choice).
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )
    state = models.CharField(max_length=10, choices=State.choices, default=State.SETUP)
    current_game = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-date", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(current_game__lte=models.F("games")), name="drive_current_game_in_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"

    @property
    def is_closed(self) -> bool:
        return self.state == self.State.CLOSED

    @property
    def couple_fee(self) -> Decimal:
        """What a couple pays at the door: the entry fee, twice when it is per person."""
        fee = Decimal(self.entry_fee)
        return fee * 2 if self.entry_fee_per == self.FeePer.PERSON else fee

    #: What each preset meant before the switches (drives.migrations.0007 keeps a frozen copy):
    #: a drive stored then, or restored from an export made then, keeps these rules.
    RULES_BEFORE_SWITCHES: ClassVar[dict[str, dict[str, Any]]] = {
        "irish-45-joker": {
            "bonus": "best-trump",
            "renege": "top-trumps",
            "offsuit_aces_high": False,
        },
        "auction-120": {"rebid_after_hold": False},
    }

    @property
    def house_rules(self) -> list[str]:
        """The rules in words, the preset first (the standings, results and score sheets)."""
        return house_rules(self.ruleset, self.rules or {})

    def rules_in_play(self) -> Ruleset:
        """The rules the night is played under: the preset (its name) with the hall's
        switches."""
        if not self.rules:
            return make_ruleset(self.ruleset, name=self.ruleset)
        return make_ruleset(self.ruleset, name=self.ruleset, **self.rules)

    def advance_roles(self) -> tuple[str, ...]:
        """The club roles that may start the next game (the dashboard, the desk, the API)."""
        organizer, scorer = Membership.Role.ORGANIZER, Membership.Role.SCORER
        return (organizer, scorer) if self.scorers_may_advance else (organizer,)


class Couple(models.Model):
    """Two players who play the night together, numbered in order of registration."""

    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="couples")
    number = models.PositiveIntegerField()
    player1 = models.CharField(max_length=80)
    player2 = models.CharField(max_length=80)
    paid = models.BooleanField(default=False)
    checked_in = models.BooleanField(default=False)
    cookie_jar = models.BooleanField(default=False)
    joined_game = models.PositiveSmallIntegerField(
        default=1, help_text=_("first game played (later for a late arrival)")
    )
    withdrawn_game = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("first game missed after withdrawing")
    )
    holes = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("holes counted on the punch card at the end")
    )
    token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    # The club's players the two names are (the names stay as typed that night).
    member1 = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    member2 = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["drive", "number"]
        constraints = [
            models.UniqueConstraint(fields=["drive", "number"], name="couple_number_once_per_drive")
        ]

    def __str__(self) -> str:
        return f"{self.number}: {self.player1} & {self.player2}"

    @property
    def players(self) -> list[str]:
        return [self.player1, self.player2]

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_game is not None


class Registration(models.Model):
    """A couple (or one player looking for a partner: ``player2`` empty) registered before the
    night on the drive's public page. Registered or wait-listed in order of arrival; cancelled
    by the link given at registration (its ``token``). Checked in at the door, it becomes a
    couple of the night (``couple``); until then it is no couple and is never seated."""

    class Status(models.TextChoices):
        REGISTERED = "registered", _("registered")
        WAITLISTED = "waitlisted", _("wait-listed")
        CANCELLED = "cancelled", _("cancelled")

    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="registrations")
    player1 = models.CharField(max_length=80)
    player2 = models.CharField(max_length=80, blank=True)
    member1 = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    member2 = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    contact = models.CharField(max_length=120, blank=True)
    # The two names' keys in order (drives.names.couple_key), or the one name's for a single.
    key = models.CharField(max_length=330)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTERED)
    token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    couple = models.ForeignKey(
        Couple, null=True, blank=True, on_delete=models.SET_NULL, related_name="registrations"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    cancelled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["drive", "created_at", "id"]
        indexes = [models.Index(fields=["drive", "status"], name="registration_drive_status")]

    def __str__(self) -> str:
        return " & ".join(self.players)

    @property
    def players(self) -> list[str]:
        return [self.player1, self.player2] if self.player2 else [self.player1]

    @property
    def single(self) -> bool:
        return not self.player2


class Table(models.Model):
    """A numbered table of a drive, with the token its QR code carries."""

    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField()
    token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    closed_game = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("first game with nobody at this table")
    )

    class Meta:
        ordering = ["drive", "number"]
        constraints = [
            models.UniqueConstraint(fields=["drive", "number"], name="table_number_once_per_drive")
        ]

    def __str__(self) -> str:
        return f"table {self.number}"


class Game(models.Model):
    """One round of the night. Its seats are fixed when it starts and never change."""

    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="game_set")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["drive", "number"]
        constraints = [
            models.UniqueConstraint(fields=["drive", "number"], name="game_once_per_drive")
        ]

    def __str__(self) -> str:
        return f"game {self.number}"


class Seat(models.Model):
    """Who sat at one table in one game: the couple that stayed and the one that arrived
    (and dealt first). One of them is empty at a sit-out table."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="seats")
    stays = models.ForeignKey(
        Couple, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    arrives = models.ForeignKey(
        Couple, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["game", "table__number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "table"], name="seat_once_per_table_and_game"),
            models.CheckConstraint(
                condition=Q(stays__isnull=False) | Q(arrives__isnull=False),
                name="seat_not_empty",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game}, {self.table}"

    @property
    def is_sit_out(self) -> bool:
        return (self.stays_id is None) != (self.arrives_id is None)


class DriveVersion(models.Model):
    """How many times what a drive's live pages show has changed: the version their polls
    compare (an ETag; scoring/pages/conditional.py). One row per drive, bumped by
    ``drives.services.drive_changed`` in the transaction of every change (``audit`` calls it),
    so every process sees the same number. A row of its own, not a column of the drive: the
    results of different tables are recorded side by side under a shared lock on the drive row
    (``drives.guards.lock_drive``), which an UPDATE of that row would turn into a queue (and, on
    PostgreSQL, into deadlocks between two shared holders upgrading)."""

    drive = models.OneToOneField(
        Drive, on_delete=models.CASCADE, primary_key=True, related_name="live"
    )
    version = models.PositiveBigIntegerField(default=0)
    # Bumped with ``version`` by every change but a table's result (entered, confirmed,
    # undone, settled): what the phones' pages show beside their own results (the game in
    # play, the seating, the couples, the settings). The table and couple pages add their own
    # results' latest ``ResultVersion`` to it, so a result at one table leaves the other
    # tables' and couples' polls at 304 (scoring/pages/conditional.py).
    structure = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.drive_id} v{self.version} s{self.structure}"


class AuditEntry(models.Model):
    """Every change of a night: who, when, through which channel, old and new values."""

    class Channel(models.TextChoices):
        DESK = "desk", _("desk")
        TABLE = "table", _("table")
        COUPLE = "couple", _("couple")
        API = "api", _("API")
        IMPORT = "import", _("import")
        CLI = "cli", _("command line")
        ADMIN = "admin", _("admin")
        SYSTEM = "system", _("system")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    drive = models.ForeignKey(
        Drive, null=True, blank=True, on_delete=models.CASCADE, related_name="audit"
    )
    at = models.DateTimeField(default=timezone.now, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    channel = models.CharField(max_length=8, choices=Channel.choices)
    action = models.CharField(max_length=40)
    subject = models.CharField(max_length=80, blank=True)
    old = models.JSONField(null=True, blank=True)
    new = models.JSONField(null=True, blank=True)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["at", "id"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.at:%H:%M:%S} {self.action} {self.subject}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "at": self.at.isoformat(),
            "user": self.user.get_username() if self.user else None,
            "channel": self.channel,
            "action": self.action,
            "subject": self.subject,
            "old": self.old,
            "new": self.new,
            "note": self.note,
        }
