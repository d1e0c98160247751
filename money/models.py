"""The night's money: the ledger's lines, the 50/50 and the raffles' tickets and draws, the
drive's money settings and the cash box's counts.

A line is never changed once written: a correction is a new line (``reverses``) carrying the
opposite amount. The cookie jar's buy-ins and the prizes paid are not stored here: they are
read from what the door and the prizes already recorded (``money.selectors``), so nothing is
entered twice. Writes go through ``money.services``; reads through ``money.selectors``.
"""

from __future__ import annotations

from decimal import Context, Decimal
from functools import cached_property
from typing import TypedDict

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from drives.models import AuditEntry, Club, Couple, Drive


class MoneyDigits(TypedDict):
    """The digits of an amount of money (``MoneyField(**MONEY)``)."""

    max_digits: int
    decimal_places: int


MONEY: MoneyDigits = {"max_digits": 10, "decimal_places": 2}
#: The largest sum a column of ``MONEY`` holds.
MAX_AMOUNT = Decimal("99999999.99")


class MoneyField(models.DecimalField):  # type: ignore[type-arg]
    """A sum of money (``MONEY``'s digits). Read with room to spare: a sum that an older
    version stored past the column on SQLite (which keeps any number) is read as it is, for
    the accounts to flag, rather than failing every read of its drive."""

    @cached_property
    def context(self) -> Context:
        return Context(prec=28)


def in_bounds(field: str, *, signed: bool = False) -> models.CheckConstraint:
    """The database's own check that ``field`` fits its column (PostgreSQL's numeric would
    refuse more; SQLite would keep it): from 0, or −MAX when ``signed``, to ``MAX_AMOUNT``.
    An empty field passes (SQL's check fails only on false)."""
    low = -MAX_AMOUNT if signed else Decimal(0)
    return models.CheckConstraint(
        condition=Q(**{f"{field}__gte": low, f"{field}__lte": MAX_AMOUNT}),
        name=f"%(class)s_{field}_in_bounds",
    )


class Kind(models.TextChoices):
    ENTRY = "entry", _("entry")
    FIFTY_FIFTY_TICKETS = "fifty_fifty_tickets", _("50/50 tickets")
    RAFFLE_TICKETS = "raffle_tickets", _("raffle tickets")
    JAR_BUY_IN = "jar_buy_in", _("cookie jar buy-in")
    DONATION = "donation", _("donation")
    PRIZE_PAID = "prize_paid", _("prize paid")
    FIFTY_FIFTY_PAID = "fifty_fifty_paid", _("50/50 paid out")
    JAR_PAID = "jar_paid", _("cookie jar paid out")
    EXPENSE = "expense", _("expense")
    POT_IN = "pot_in", _("put in the club's pot")
    POT_PAID = "pot_paid", _("club's pot paid out")


#: The kinds of money that comes in; the others go out.
IN_KINDS = frozenset(
    {
        Kind.ENTRY,
        Kind.FIFTY_FIFTY_TICKETS,
        Kind.RAFFLE_TICKETS,
        Kind.JAR_BUY_IN,
        Kind.DONATION,
        Kind.POT_IN,
    }
)
#: Kinds written by the app itself (the door's tick, ticket sales, draws) or read from the
#: prizes; a person records only the others by hand.
HAND_KINDS = frozenset({Kind.ENTRY, Kind.DONATION, Kind.EXPENSE, Kind.PRIZE_PAID})


class Way(models.TextChoices):
    CASH = "cash", _("cash")
    CARD = "card", _("card")
    E_TRANSFER = "e-transfer", _("e-transfer")
    OTHER = "other", _("other")


class MoneySetup(models.Model):
    """A drive's money settings: the cash box's opening float, the 50/50's prices and share,
    whether scorers may use the money page, and the lottery licence's number."""

    drive = models.OneToOneField(Drive, on_delete=models.CASCADE, related_name="money_setup")
    opening_float = MoneyField(_("opening float"), default=Decimal("0.00"), **MONEY)
    ticket_price = MoneyField(_("price of one ticket"), default=Decimal("2.00"), **MONEY)
    strip_size = models.PositiveSmallIntegerField(_("tickets in a strip"), default=10)
    strip_price = MoneyField(_("price of a strip"), default=Decimal("10.00"), **MONEY)
    share_percent = models.PositiveSmallIntegerField(_("winner's share (%)"), default=50)
    scorers_allowed = models.BooleanField(_("scorers may take money"), default=True)
    #: The lottery licence the 50/50 and the raffles are run under (the licence report's).
    licence_number = models.CharField(_("licence number"), max_length=40, blank=True)
    #: The members' price (per person or per couple, as ``Drive.entry_fee_per`` says; the
    #: drive's ``entry_fee`` is then the non-members'); empty, everyone pays the entry fee.
    #: Who is a member: the club's players (``drives.models.Player.member``).
    member_fee = MoneyField(_("members' entry fee"), null=True, blank=True, **MONEY)

    class Meta:
        constraints = [
            in_bounds("opening_float"),
            in_bounds("ticket_price"),
            in_bounds("strip_price"),
            in_bounds("member_fee"),
        ]

    def __str__(self) -> str:
        return f"money of {self.drive_id}"


class Pool(models.Model):
    """What tickets are sold for: the drive's 50/50, or one raffle item (a ham, a quilt).
    Each has its own numbers, from 1."""

    class Kind(models.TextChoices):
        FIFTY_FIFTY = "fifty_fifty", _("50/50")
        RAFFLE = "raffle", _("raffle")

    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="pools")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    name = models.CharField(_("item"), max_length=120, blank=True)
    #: A raffle item's own price of one ticket (a quilt's tickets dearer than the 50/50's);
    #: empty, its tickets sell at the drive's prices (``MoneySetup``: the strip, or singles).
    ticket_price = MoneyField(_("price of one ticket"), null=True, blank=True, **MONEY)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["drive", "kind", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["drive"], condition=Q(kind="fifty_fifty"), name="one_fifty_fifty_per_drive"
            ),
            in_bounds("ticket_price"),
        ]

    def __str__(self) -> str:
        return self.name or str(self.get_kind_display())


class Pot(models.Model):
    """A club's pot that grows from night to night until won: the cookie jar carried over,
    a jackpot for so many wins in a night (``wins``), or a "catch the ace" draw (a drawn
    ticket picks one of ``cards`` sealed cards; the pot rolls on until the ace of spades is
    found). What it holds is ``opening`` plus its ledger lines (``Line.pot``) of every drive;
    its history is its entries (``PotEntry``)."""

    class Kind(models.TextChoices):
        JAR = "jar", _("cookie jar carried over")
        JACKPOT = "jackpot", _("jackpot")
        ACE = "ace", _("catch the ace")

    class State(models.TextChoices):
        OPEN = "open", _("open")
        WON = "won", _("won")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="pots")
    name = models.CharField(_("name"), max_length=120)
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    #: What the pot held when the club began keeping it here (last season's jar, say).
    opening = MoneyField(_("opening amount"), default=Decimal("0.00"), **MONEY)
    #: The jackpot's wins in a night (25 games won out of 25).
    wins = models.PositiveSmallIntegerField(_("wins to take it"), null=True, blank=True)
    #: The sealed cards of a "catch the ace" (a deck: 52).
    cards = models.PositiveSmallIntegerField(_("sealed cards"), default=52)
    state = models.CharField(max_length=8, choices=State.choices, default=State.OPEN)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["club", "id"]
        constraints = [in_bounds("opening")]

    def __str__(self) -> str:
        return self.name


class Line(models.Model):
    """One sum that came in or went out. ``amount`` is positive, in the drive's currency;
    a reversing line (``reverses``) carries the opposite of the line it corrects."""

    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="money_lines")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    amount = MoneyField(**MONEY)
    way = models.CharField(max_length=12, choices=Way.choices, default=Way.CASH)
    couple = models.ForeignKey(
        Couple, null=True, blank=True, on_delete=models.SET_NULL, related_name="money_lines"
    )
    pool = models.ForeignKey(
        Pool, null=True, blank=True, on_delete=models.CASCADE, related_name="lines"
    )
    #: The club's pot this line put money in or paid out of (``Kind.POT_IN``, ``POT_PAID``).
    pot = models.ForeignKey(
        Pot, null=True, blank=True, on_delete=models.PROTECT, related_name="lines"
    )
    note = models.CharField(max_length=200, blank=True)
    reverses = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="reversed_by"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    channel = models.CharField(max_length=8, choices=AuditEntry.Channel.choices)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["drive", "at", "id"]
        constraints = [in_bounds("amount", signed=True)]

    def __str__(self) -> str:
        return f"{self.kind} {self.amount} ({self.way})"


class PotEntry(models.Model):
    """One step of a pot's history at a drive: carried into the night (``amount``: what it
    held then), money put in (its ledger line), a draw of "catch the ace" (the ticket drawn,
    the sealed card opened, what it was, whether the ace of spades), or paid to its winner
    (the ledger line). A sealed card once opened stays out: one entry a card."""

    class Kind(models.TextChoices):
        CARRIED = "carried", _("carried in")
        ADDED = "added", _("put in")
        DRAW = "draw", _("card opened")
        PAID = "paid", _("won and paid")

    pot = models.ForeignKey(Pot, on_delete=models.CASCADE, related_name="entries")
    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="pot_entries")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    amount = MoneyField(null=True, blank=True, **MONEY)
    line = models.OneToOneField(
        Line, null=True, blank=True, on_delete=models.SET_NULL, related_name="pot_entry"
    )
    ticket = models.PositiveIntegerField(null=True, blank=True)
    card = models.PositiveSmallIntegerField(null=True, blank=True)
    card_found = models.CharField(max_length=40, blank=True)
    ace = models.BooleanField(default=False)
    winner = models.CharField(max_length=120, blank=True)
    couple = models.PositiveIntegerField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["pot", "at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["pot", "card"], condition=Q(card__isnull=False), name="pot_card_once"
            ),
            models.UniqueConstraint(
                fields=["pot", "drive"], condition=Q(kind="carried"), name="pot_carried_once"
            ),
            in_bounds("amount"),
        ]

    def __str__(self) -> str:
        return f"{self.pot} {self.kind} at {self.drive_id}"


class TicketSale(models.Model):
    """A strip (or one ticket) sold at the door: tickets ``first`` to ``last`` of a pool."""

    pool = models.ForeignKey(Pool, on_delete=models.CASCADE, related_name="sales")
    first = models.PositiveIntegerField()
    last = models.PositiveIntegerField()
    line = models.OneToOneField(Line, on_delete=models.CASCADE, related_name="sale")
    seller = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["pool", "first"]
        constraints = [
            models.CheckConstraint(condition=Q(last__gte=models.F("first")), name="sale_range")
        ]

    def __str__(self) -> str:
        return f"{self.pool}: {self.first}–{self.last}"


class Ticket(models.Model):
    """One sold number: the unique constraint is what makes two desks selling at once never
    sell the same number (the pool's lock makes them take turns before it is needed)."""

    pool = models.ForeignKey(Pool, on_delete=models.CASCADE, related_name="tickets")
    number = models.PositiveIntegerField()
    sale = models.ForeignKey(TicketSale, on_delete=models.CASCADE, related_name="tickets")

    class Meta:
        ordering = ["pool", "number"]
        constraints = [models.UniqueConstraint(fields=["pool", "number"], name="ticket_sold_once")]

    def __str__(self) -> str:
        return f"{self.pool} #{self.number}"


class Draw(models.Model):
    """A draw of a pool: the ticket picked among those sold (``random.Random(seed)``, the seed
    drawn by the server and recorded), what it wins, and whether the winner claimed it. An
    unclaimed draw is followed by a redraw among the tickets not yet drawn."""

    class State(models.TextChoices):
        DRAWN = "drawn", _("drawn")
        CLAIMED = "claimed", _("claimed")
        UNCLAIMED = "unclaimed", _("unclaimed")

    pool = models.ForeignKey(Pool, on_delete=models.CASCADE, related_name="draws")
    round = models.PositiveSmallIntegerField(default=1)
    seed = models.BigIntegerField()
    ticket = models.PositiveIntegerField()
    sold = models.PositiveIntegerField(help_text=_("tickets sold when drawn"))
    prize = MoneyField(null=True, blank=True, **MONEY)
    state = models.CharField(max_length=10, choices=State.choices, default=State.DRAWN)
    line = models.OneToOneField(
        Line, null=True, blank=True, on_delete=models.CASCADE, related_name="draw"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["pool", "round"]
        constraints = [
            models.UniqueConstraint(fields=["pool", "round"], name="draw_round_once"),
            models.UniqueConstraint(fields=["pool", "ticket"], name="ticket_drawn_once"),
            in_bounds("prize"),
        ]

    def __str__(self) -> str:
        return f"{self.pool} draw {self.round}: #{self.ticket}"


class CashCount(models.Model):
    """The cash box counted: by denomination (``{"20.00": 3, …}``) or one total. The last
    count is the one the accounts compare."""

    drive = models.ForeignKey(Drive, on_delete=models.CASCADE, related_name="cash_counts")
    total = MoneyField(**MONEY)
    denominations = models.JSONField(default=dict, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["drive", "at", "id"]
        constraints = [in_bounds("total")]

    def __str__(self) -> str:
        return f"{self.drive_id}: {self.total}"
