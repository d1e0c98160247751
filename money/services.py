"""Writes of the night's money: lines of the ledger and their corrections, the entry fee from
the door's "paid" tick, tickets sold for the 50/50 and the raffles, their draws and payouts,
the cash box's count and the drive's money settings.

Every service owns its transaction, checks its input before writing (a refusal writes
nothing) and writes an audit entry (``drives.services.audit``, which also bumps the drive's
version so the live pages refresh). Tickets are sold under a lock on their pool's row, and
each number is a row of its own under a unique constraint: two desks selling at once take
turns, and could never sell one number twice even without the lock. After the drive's
close, the cash box is still counted and late expenses recorded (the box is counted when the
cards are put away); tickets are no longer sold nor drawn, nor money taken in
(``require_selling``: 422 ``drive_closed``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from decimal import ROUND_DOWN, Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max, QuerySet
from django.utils.translation import gettext

from drives import inputs, race
from drives.errors import Conflict, NotFound, ServiceError
from drives.models import Club, Couple, Drive
from drives.services import SYSTEM, Actor, audit
from money.models import (
    MAX_AMOUNT,
    CashCount,
    Draw,
    Kind,
    Line,
    MoneySetup,
    Pool,
    Pot,
    PotEntry,
    Ticket,
    TicketSale,
)
from money.selectors import fee_of, out_of_bounds, pool_takings, pot_balance, setup_of
from scoring.prizes.services import new_seed
from scoring.selectors import standings_for_drive

CENT = Decimal("0.01")
MAX_TICKET = 1_000_000
TICKETS_CHECKED = "tickets.checked"  # drives/race.py: after finding the numbers free


# --- input ---------------------------------------------------------------------------------------
# Each value is judged by its rule (drives.inputs: the sums of money, the whole numbers, the ways
# of payment…); what is left here needs the night's state.


def bounded(amount: Decimal, field: str) -> Decimal:
    """A sum worked out here (tickets × their price, the 50/50's share, a count's notes and
    coins), refused past what the ledger's column holds (422 ``bad_amount`` naming
    ``field``): stored, it would fail every read of the drive's money."""
    if abs(amount) > MAX_AMOUNT:
        raise ServiceError(
            "bad_amount",
            gettext("%(field)s: that comes to %(sum)s, more than the ledger takes (%(max)s).")
            % {"field": field, "sum": amount, "max": MAX_AMOUNT},
            field=field,
        )
    return amount


#: The lines still recorded by hand after the close: money paid out late.
AFTER_CLOSE_KINDS = frozenset({Kind.EXPENSE, Kind.PRIZE_PAID})


def require_selling(drive: Drive) -> None:
    """Refuse a sale, a draw or money taken in once the drive is closed (422
    ``drive_closed``); the count of the box and the expenses are still recorded."""
    if drive.state == Drive.State.CLOSED:
        raise ServiceError(
            "drive_closed",
            gettext(
                "The drive is closed: tickets are no longer sold nor drawn; only the count "
                "of the cash box and expenses can still be recorded."
            ),
        )


def _currency(drive: Drive, currency: Any) -> None:
    currency = inputs.MONEY_CURRENCY.check(currency)
    if currency is not None and currency.strip().upper() != drive.currency.upper():
        raise ServiceError(
            "wrong_currency",
            gettext("This drive takes %(currency)s, not %(given)s.")
            % {"currency": drive.currency, "given": f"{currency!r}"},
            field="currency",
        )


def _line(drive: Drive, actor: Actor, kind: str, amount: Decimal, **fields: Any) -> Line:
    return Line.objects.create(
        drive=drive,
        kind=kind,
        amount=Decimal(amount).quantize(CENT),
        user=actor.account,
        channel=actor.channel,
        **fields,
    )


def _line_audit(drive: Drive, actor: Actor, action: str, line: Line) -> None:
    audit(
        drive,
        actor,
        action,
        subject=f"line {line.pk}",
        new={
            "kind": line.kind,
            "amount": str(line.amount),
            "way": line.way,
            "couple": line.couple.number if line.couple is not None else None,
            "reverses": line.reverses_id,
            "note": line.note,
        },
    )


# --- settings ------------------------------------------------------------------------------------


#: The drive's money settings ``setup_update`` takes.
SETUP_FIELDS = (
    "opening_float",
    "ticket_price",
    "strip_size",
    "strip_price",
    "share_percent",
    "scorers_allowed",
    "licence_number",
    "member_fee",
)


SETUP_RULES = {
    "strip_size": inputs.STRIP_SIZE,
    "share_percent": inputs.SHARE_PERCENT,
    "scorers_allowed": inputs.SCORERS_ALLOWED,
    "licence_number": inputs.LICENCE_NUMBER,
}


def setup_update(*, drive: Drive, actor: Actor, **fields: Any) -> MoneySetup:
    """Change the float, the 50/50's prices, strip and share, whether scorers take money, the
    lottery licence's number ("" clears it), or the members' entry price ("" or None: none)."""
    inputs.refuse_unknown(fields, SETUP_FIELDS)
    clean: dict[str, Any] = {}
    for name in ("opening_float", "ticket_price", "strip_price"):
        if name in fields:
            clean[name] = inputs.amount_of(fields[name], name, zero=name == "opening_float")
    for name, one in SETUP_RULES.items():
        if name in fields:
            clean[name] = one.check(fields[name])
    if "member_fee" in fields:  # "" or None: no members' price
        fee = fields["member_fee"]
        clean["member_fee"] = None if fee in (None, "") else inputs.amount_of(fee, "member_fee")
    with transaction.atomic():
        setup, _created = MoneySetup.objects.select_for_update().get_or_create(drive=drive)
        old = {k: str(getattr(setup, k)) for k in clean}
        for key, value in clean.items():
            setattr(setup, key, value)
        setup.save()
        audit(
            drive,
            actor,
            "money.setup",
            subject=drive.slug,
            old=old,
            new={k: str(v) for k, v in clean.items()},
        )
    return setup


# --- the ledger ----------------------------------------------------------------------------------


def line_record(
    *,
    drive: Drive,
    actor: Actor,
    kind: Any = None,
    amount: Any = None,
    way: Any = None,
    couple: Any = None,
    note: Any = "",
    currency: Any = None,
) -> Line:
    """A line entered by hand: an entry fee taken apart from the door's tick, a donation, an
    expense, or a prize paid that the prizes do not carry (a prize in kind bought). The other
    kinds are written by the app (ticket sales, payouts) or read (the jar, the prizes)."""
    kind = inputs.LINE_KIND.check(kind)
    if kind not in AFTER_CLOSE_KINDS:
        require_selling(drive)
    money = inputs.amount_of(amount)
    _currency(drive, currency)
    how = inputs.WAY.check(way)
    note = inputs.NOTE.check(note)
    with transaction.atomic():
        found = None
        if couple is not None:
            number = inputs.LINE_COUPLE.check(couple)
            found = Couple.objects.filter(drive=drive, number=number).first()
            if found is None:
                raise NotFound(
                    "no_such_couple",
                    gettext("There is no couple %(number)s.") % {"number": number},
                    couple=number,
                )
        line = _line(drive, actor, kind, money, way=how, couple=found, note=note)
        _line_audit(drive, actor, "money.line", line)
    return line


def line_reverse(*, drive: Drive, line_id: Any, actor: Actor, note: str = "") -> Line:
    """Correct a line by a new one of the opposite amount (the line itself never changes).
    A ticket sale reversed gives its numbers back (refused once its pool is drawn); a payout
    reversed puts its draw back to "drawn"."""
    number = inputs.LINE_ID.check(line_id)
    with transaction.atomic():
        line = Line.objects.select_for_update().filter(drive=drive, pk=number).first()
        if line is None:
            raise NotFound(
                "no_such_line",
                gettext("There is no line %(number)s.") % {"number": number},
                line=number,
            )
        if line.reverses_id is not None:
            raise Conflict(
                "is_a_reversal",
                gettext("Line %(number)s is itself a correction.") % {"number": number},
            )
        if Line.objects.filter(reverses=line).exists():
            raise Conflict(
                "already_reversed",
                gettext("Line %(number)s is already reversed.") % {"number": number},
            )
        if line.kind not in AFTER_CLOSE_KINDS:
            require_selling(drive)
        if line.kind == Kind.POT_IN and line.pot is not None and line.pot.state == Pot.State.WON:
            raise Conflict(
                "pot_won",
                gettext("The %(pot)s is won: the money put in it was paid out with it.")
                % {"pot": line.pot.name},
            )
        if out_of_bounds(line.amount):
            raise ServiceError(
                "bad_amount",
                gettext(
                    "Line %(number)s is past the largest sum the ledger takes: it is left out "
                    "of the totals already."
                )
                % {"number": number},
            )
        sale = TicketSale.objects.filter(line=line).select_related("pool").first()
        if sale is not None:
            if Draw.objects.filter(pool=sale.pool).exists():
                raise Conflict(
                    "drawn", gettext("The draw is made: its tickets can no longer be refunded.")
                )
            Ticket.objects.filter(sale=sale).delete()
        Draw.objects.filter(line=line).update(state=Draw.State.DRAWN, line=None)
        back = _line(
            drive,
            actor,
            line.kind,
            -line.amount,
            way=line.way,
            couple=line.couple,
            pool=line.pool,
            pot=line.pot,
            reverses=line,
            note=str(note)[:200],
        )
        if line.kind == Kind.POT_PAID and line.pot_id is not None:
            Pot.objects.filter(pk=line.pot_id).update(state=Pot.State.OPEN)
        _line_audit(drive, actor, "money.reverse", back)
    return back


def on_couple_paid(
    sender: Any, *, drive: Drive, couple: Couple, paid: bool, actor: Actor, way: Any, **_: Any
) -> None:
    """The door's "paid" tick (``drives.signals.couple_paid``, in the door's transaction):
    ticked, what the couple pays (``selectors.fee_of``: the entry fee, twice when it is per
    person; each member of the club at the members' price) is a line (cash unless ``way``
    says otherwise; nothing when the drive has no fee); unticked, the couple's last entry
    line is reversed."""
    if paid:
        how = inputs.WAY.check(way)
        if drive.entry_fee > 0:
            fee = fee_of(drive, couple)
            line = _line(drive, actor, Kind.ENTRY, fee, way=how, couple=couple)
            _line_audit(drive, actor, "money.line", line)
        return
    last = _open_entries(drive, couple).first()
    if last is not None:
        back = _line(
            drive,
            actor,
            Kind.ENTRY,
            -last.amount,
            way=last.way,
            couple=couple,
            reverses=last,
            note="paid tick undone",
        )
        _line_audit(drive, actor, "money.reverse", back)


def _open_entries(drive: Drive, couple: Couple) -> QuerySet[Line]:
    """The couple's entry lines not yet reversed (the last first)."""
    return Line.objects.filter(
        drive=drive,
        couple=couple,
        kind=Kind.ENTRY,
        reverses__isnull=True,
        reversed_by__isnull=True,
    ).order_by("-at", "-id")


def on_couple_deleted(sender: Any, *, drive: Drive, couple: Couple, actor: Actor, **_: Any) -> None:
    """A couple deleted at the door (``drives.signals.couple_deleted``, in the deletion's
    transaction): each entry fee they paid is refunded by a reversing line, the same way it
    came (cash back from the box, a card refunded). The lines keep their ``reverses`` link
    and the refund's note names the couple, whose row is gone."""
    for line in _open_entries(drive, couple):
        back = _line(
            drive,
            actor,
            Kind.ENTRY,
            -line.amount,
            way=line.way,
            couple=None,
            reverses=line,
            note=f"couple {couple.number} deleted",
        )
        _line_audit(drive, actor, "money.reverse", back)


# --- tickets and draws ---------------------------------------------------------------------------


def fifty_fifty_of(drive: Drive) -> Pool:
    """The drive's 50/50 (made on first use)."""
    pool, _created = Pool.objects.get_or_create(drive=drive, kind=Pool.Kind.FIFTY_FIFTY)
    return pool


def raffle_add(*, drive: Drive, actor: Actor, name: Any = None, ticket_price: Any = None) -> Pool:
    """A raffle item (a ham, a quilt), with its own tickets from 1 and, if given, its own
    ``ticket_price`` (every ticket at that price); without, the drive's prices."""
    name = inputs.RAFFLE_NAME.check(name)
    require_selling(drive)
    price = None if ticket_price in (None, "") else inputs.amount_of(ticket_price, "ticket_price")
    with transaction.atomic():
        pool = Pool.objects.create(
            drive=drive, kind=Pool.Kind.RAFFLE, name=name, ticket_price=price
        )
        shown = None if price is None else str(price)
        audit(
            drive,
            actor,
            "money.raffle",
            subject=f"raffle {pool.pk}",
            new={"name": pool.name, "ticket_price": shown},
        )
    return pool


def pool_of(drive: Drive, raffle: Any = None) -> Pool:
    """The 50/50 (``raffle`` None) or the raffle item ``raffle`` (its id) of this drive."""
    if raffle is None:
        return fifty_fifty_of(drive)
    number = inputs.RAFFLE_ID.check(raffle)
    pool = Pool.objects.filter(drive=drive, kind=Pool.Kind.RAFFLE, pk=number).first()
    if pool is None:
        raise NotFound(
            "no_such_raffle",
            gettext("There is no raffle item %(number)s.") % {"number": number},
            raffle=number,
        )
    return pool


def price_of(setup: MoneySetup, count: int, pool: Pool | None = None) -> Decimal:
    """A raffle item with its own price: so many tickets at that price. Else the drive's: a
    strip costs the strip's price; any other number of tickets, so many singles."""
    if pool is not None and pool.ticket_price is not None:
        return Decimal(pool.ticket_price) * count
    if count == setup.strip_size:
        return Decimal(setup.strip_price)
    return Decimal(setup.ticket_price) * count


def _lock_pool(pool: Pool) -> Pool:
    rows = Pool.objects.select_related("drive")
    if race.locking():
        rows = rows.select_for_update(of=("self",))
    return rows.get(pk=pool.pk)


def tickets_sell(
    *,
    drive: Drive,
    actor: Actor,
    count: Any = 1,
    first: Any = None,
    raffle: Any = None,
    way: Any = None,
    amount: Any = None,
    currency: Any = None,
) -> TicketSale:
    """Sell ``count`` tickets of the 50/50 (or of a raffle item): numbers ``first`` on (as
    torn from a roll), or the next ones after the highest sold. The price is the drive's
    (a strip, or singles) unless ``amount`` is given. A range that overlaps one already sold
    is a 409 naming it; once the pool is drawn, no more tickets."""
    require_selling(drive)
    n = inputs.TICKET_COUNT.check(count)
    start = None if first is None else inputs.TICKET_FIRST.check(first)
    how = inputs.WAY.check(way)
    _currency(drive, currency)
    paid = None if amount is None else inputs.amount_of(amount)
    pool = pool_of(drive, raffle)
    with transaction.atomic():
        pool = _lock_pool(pool)
        require_selling(pool.drive)
        if Draw.objects.filter(pool=pool).exists():
            raise Conflict(
                "drawn", gettext("The %(pool)s is drawn: no more tickets.") % {"pool": pool}
            )
        highest = Ticket.objects.filter(pool=pool).aggregate(top=Max("number"))["top"] or 0
        if start is None:
            start = highest + 1
        last = start + n - 1
        taken = list(
            Ticket.objects.filter(pool=pool, number__gte=start, number__lte=last)
            .order_by("number")
            .values_list("number", flat=True)[:1]
        )
        if taken:
            raise Conflict(
                "tickets_sold",
                gettext("Ticket %(ticket)s of %(first)s–%(last)s is already sold.")
                % {"ticket": taken[0], "first": start, "last": last},
                first=start,
                last=last,
                sold=taken[0],
            )
        race.pause(TICKETS_CHECKED)
        price = paid if paid is not None else bounded(price_of(setup_of(drive), n, pool), "count")
        kind = (
            Kind.FIFTY_FIFTY_TICKETS if pool.kind == Pool.Kind.FIFTY_FIFTY else Kind.RAFFLE_TICKETS
        )
        try:
            with transaction.atomic():
                line = _line(
                    drive, actor, kind, price, way=how, pool=pool, note=f"{pool} {start}–{last}"
                )
                sale = TicketSale.objects.create(
                    pool=pool, first=start, last=last, line=line, seller=actor.account
                )
                Ticket.objects.bulk_create(
                    [Ticket(pool=pool, sale=sale, number=k) for k in range(start, last + 1)]
                )
        except IntegrityError:
            raise Conflict(
                "tickets_sold",
                gettext("Tickets %(first)s–%(last)s: another desk sold some of them.")
                % {"first": start, "last": last},
                first=start,
                last=last,
            ) from None
        audit(
            drive,
            actor,
            "money.tickets",
            subject=f"{pool.kind} {pool.pk}",
            new={"first": start, "last": last, "amount": str(price), "way": how},
        )
    return sale


def pick(tickets: Sequence[int], seed: int) -> int:
    """The ticket drawn among ``tickets`` (sorted) from ``seed``: the same seed and tickets
    always give the same ticket."""
    return random.Random(seed).choice(sorted(tickets))


def prize_of(pool: Pool, setup: MoneySetup) -> Decimal | None:
    """The 50/50 winner's share of the takings (rounded down to the cent: the odd cent stays
    with the club); a raffle's prize is its item (None)."""
    if pool.kind != Pool.Kind.FIFTY_FIFTY:
        return None
    share = pool_takings(pool) * setup.share_percent / 100
    return share.quantize(CENT, rounding=ROUND_DOWN)


def draw_make(*, drive: Drive, actor: Actor = SYSTEM, raffle: Any = None) -> Draw:
    """Draw the 50/50 (or a raffle item) among the tickets sold and not yet drawn, from a seed
    drawn here and recorded (``pick(tickets, seed)`` gives the ticket again). 409 when no
    ticket is sold, or when the last draw was neither claimed-and-done nor declared
    unclaimed (a redraw follows an unclaimed ticket only)."""
    require_selling(drive)
    pool = pool_of(drive, raffle)
    with transaction.atomic():
        pool = _lock_pool(pool)
        require_selling(pool.drive)
        previous = Draw.objects.filter(pool=pool).order_by("-round").first()
        if previous is not None and previous.state != Draw.State.UNCLAIMED:
            raise Conflict(
                "already_drawn",
                gettext(
                    "The %(pool)s is drawn (ticket %(ticket)s); draw again only when it goes "
                    "unclaimed."
                )
                % {"pool": pool, "ticket": previous.ticket},
                ticket=previous.ticket,
            )
        drawn = set(Draw.objects.filter(pool=pool).values_list("ticket", flat=True))
        tickets = [
            t
            for t in Ticket.objects.filter(pool=pool).values_list("number", flat=True)
            if t not in drawn
        ]
        if not tickets:
            raise Conflict(
                "no_tickets",
                gettext("No tickets of the %(pool)s are left to draw.") % {"pool": pool},
            )
        prize = prize_of(pool, setup_of(drive))
        if prize is not None:
            bounded(prize, "prize")
        seed = new_seed()
        ticket = pick(tickets, seed)
        draw = Draw.objects.create(
            pool=pool,
            round=(previous.round + 1) if previous else 1,
            seed=seed,
            ticket=ticket,
            sold=len(tickets),
            prize=prize,
            user=actor.account,
        )
        audit(
            drive,
            actor,
            "money.draw",
            subject=f"{pool.kind} {pool.pk}",
            new={
                "round": draw.round,
                "seed": seed,
                "ticket": ticket,
                "among": len(tickets),
                "prize": str(draw.prize) if draw.prize is not None else None,
            },
        )
    return draw


def _open_draw(drive: Drive, raffle: Any) -> Draw:
    require_selling(drive)
    pool = pool_of(drive, raffle)
    draw = Draw.objects.select_for_update().filter(pool=pool).order_by("-round").first()
    if draw is None or draw.state != Draw.State.DRAWN:
        raise Conflict(
            "no_open_draw",
            gettext("The %(pool)s has no drawn ticket waiting for its winner.") % {"pool": pool},
        )
    return draw


def draw_claim(*, drive: Drive, actor: Actor, raffle: Any = None, way: Any = None) -> Draw:
    """The winner came forward: the 50/50's share is paid out (a ledger line); a raffle item
    is handed over."""
    how = inputs.WAY.check(way)
    with transaction.atomic():
        draw = _open_draw(drive, raffle)
        if draw.prize is not None:
            draw.line = _line(
                drive,
                actor,
                Kind.FIFTY_FIFTY_PAID,
                draw.prize,
                way=how,
                pool=draw.pool,
                note=f"ticket {draw.ticket}",
            )
        draw.state = Draw.State.CLAIMED
        draw.save(update_fields=["state", "line"])
        audit(
            drive,
            actor,
            "money.claim",
            subject=f"ticket {draw.ticket}",
            new={"prize": str(draw.prize) if draw.prize is not None else None},
        )
    return draw


def draw_unclaimed(*, drive: Drive, actor: Actor, raffle: Any = None) -> Draw:
    """Nobody holds the ticket drawn: it is set aside and the pool may be drawn again."""
    with transaction.atomic():
        draw = _open_draw(drive, raffle)
        draw.state = Draw.State.UNCLAIMED
        draw.save(update_fields=["state"])
        audit(drive, actor, "money.unclaimed", subject=f"ticket {draw.ticket}")
    return draw


# --- the cash box --------------------------------------------------------------------------------


def cash_count(
    *, drive: Drive, actor: Actor, total: Any = None, denominations: Any = None
) -> CashCount:
    """The box counted: one ``total``, or ``denominations`` (``{"20": 3, "0.25": 8}``: a note
    or coin's value and how many), whose sum is the total."""
    inputs.one_count(total, denominations)
    counted: dict[str, int] = {}
    if denominations:
        amount = Decimal(0)
        for face, how_many in inputs.denominations_of(denominations):
            if how_many:
                counted[str(face)] = counted.get(str(face), 0) + how_many
                amount += face * how_many
        bounded(amount, "denominations")
    else:
        amount = inputs.amount_of(total, "total", zero=True)
    with transaction.atomic():
        count = CashCount.objects.create(
            drive=drive, total=amount.quantize(CENT), denominations=counted, user=actor.account
        )
        audit(
            drive,
            actor,
            "money.count",
            subject=drive.slug,
            new={"total": str(count.total), "denominations": counted},
        )
    return count


# --- the club's pots -----------------------------------------------------------------------------
# A pot is the club's (``Pot``): each drive carries it (an entry with what it held), puts money
# in (a ``POT_IN`` line), draws its sealed cards ("catch the ace") and pays its winner (a
# ``POT_PAID`` line). A pot of another club is refused before anything is written, and the
# refusal is audited on the drive.

POT_KINDS = frozenset(Pot.Kind.values)
CARD_FOUND_MAX = 40
WINNER_MAX = 120


def _text(value: Any, field: str, longest: int, *, needed: bool = False) -> str:
    text = "" if value is None else str(value).strip()
    if len(text) > longest or (needed and not text):
        raise ServiceError(
            f"bad_{field}",
            gettext("%(field)s: 1 to %(max)s characters.") % {"field": field, "max": longest}
            if needed
            else gettext("%(field)s: at most %(max)s characters.")
            % {"field": field, "max": longest},
            field=field,
        )
    return text


def _whole(value: Any, field: str, low: int, high: int, *, optional: bool = False) -> int | None:
    if optional and value in (None, ""):
        return None
    text = str(value).strip() if value is not None else ""
    if isinstance(value, bool) or not text.isdigit() or not low <= int(text) <= high:
        raise ServiceError(
            f"bad_{field}",
            gettext("%(field)s: a whole number from %(low)s to %(high)s.")
            % {"field": field, "low": low, "high": high},
            field=field,
        )
    return int(text)


def pot_open(
    *,
    club: Club,
    actor: Actor,
    name: Any = None,
    kind: Any = None,
    opening: Any = None,
    wins: Any = None,
    cards: Any = None,
) -> Pot:
    """A new pot of the club: the cookie jar carried over (``jar``), a jackpot for ``wins``
    wins in a night (``jackpot``, 25 unless told) or a "catch the ace" of ``cards`` sealed
    cards (``ace``, 52 unless told), holding ``opening`` already."""
    title = _text(name, "name", 120, needed=True)
    if kind not in POT_KINDS:
        raise ServiceError(
            "bad_kind",
            gettext("kind: one of %(kinds)s.") % {"kinds": ", ".join(sorted(POT_KINDS))},
            field="kind",
        )
    start = (
        Decimal("0.00")
        if opening in (None, "")
        else inputs.amount_of(opening, "opening", zero=True)
    )
    need = None
    if kind == Pot.Kind.JACKPOT:
        need = _whole(25 if wins in (None, "") else wins, "wins", 1, 60)
    deck = _whole(52 if cards in (None, "") else cards, "cards", 1, 60)
    with transaction.atomic():
        pot = Pot.objects.create(
            club=club, name=title, kind=kind, opening=start, wins=need, cards=deck or 52
        )
        audit(
            None,
            actor,
            "money.pot.open",
            club=club,
            subject=f"pot {pot.pk}",
            new={"name": title, "kind": kind, "opening": str(start), "wins": need, "cards": deck},
        )
    return pot


def _pot_for(drive: Drive, actor: Actor, pot: Any) -> int:
    """The pot's id, checked before anything is written: a pot of another club is refused
    (422 ``pot_of_another_club``), the refusal audited on the drive; an unknown one: 404."""
    number = _whole(pot, "pot", 1, 2**62)
    assert number is not None
    club = Pot.objects.filter(pk=number).values_list("club_id", flat=True).first()
    if club is None:
        raise NotFound(
            "no_such_pot", gettext("There is no pot %(number)s.") % {"number": number}, pot=number
        )
    if club != drive.club_id:
        with transaction.atomic():
            audit(drive, actor, "money.pot.refused", subject=f"pot {number}", note="another club")
        raise ServiceError(
            "pot_of_another_club",
            gettext("Pot %(number)s is another club's: a drive carries only its club's pots.")
            % {"number": number},
            pot=number,
        )
    return number


def _carried(drive: Drive, actor: Actor, pot: Pot) -> PotEntry:
    """The pot's entry "carried in" at this drive (made on first use, with what it holds)."""
    entry = PotEntry.objects.filter(pot=pot, drive=drive, kind=PotEntry.Kind.CARRIED).first()
    if entry is not None:
        return entry
    held = pot_balance(pot)
    entry = PotEntry.objects.create(
        pot=pot, drive=drive, kind=PotEntry.Kind.CARRIED, amount=held, user=actor.account
    )
    audit(drive, actor, "money.pot.carry", subject=f"pot {pot.pk}", new={"holds": str(held)})
    return entry


def _open_pot(drive: Drive, actor: Actor, pot: Any) -> Pot:
    number = _pot_for(drive, actor, pot)
    found = Pot.objects.select_for_update().get(pk=number)
    if found.state == Pot.State.WON:
        raise Conflict(
            "pot_won",
            gettext("The %(pot)s is won: the club opens a new pot.") % {"pot": found.name},
        )
    return found


def pot_carry(*, drive: Drive, actor: Actor, pot: Any) -> PotEntry:
    """The drive carries the club's open pot (again: the same entry)."""
    require_selling(drive)
    _pot_for(drive, actor, pot)
    with transaction.atomic():
        return _carried(drive, actor, _open_pot(drive, actor, pot))


def pot_add(
    *, drive: Drive, actor: Actor, pot: Any, amount: Any = None, way: Any = None, note: Any = ""
) -> PotEntry:
    """Money put in the pot tonight (tickets of "catch the ace", the jar's buy-ins kept, a
    share of the night): a ledger line of the drive, and an entry of the pot's history."""
    require_selling(drive)
    money = inputs.amount_of(amount)
    how = inputs.WAY.check(way)
    words = inputs.NOTE.check(note)
    _pot_for(drive, actor, pot)
    with transaction.atomic():
        found = _open_pot(drive, actor, pot)
        _carried(drive, actor, found)
        bounded(pot_balance(found) + money, "amount")
        line = _line(drive, actor, Kind.POT_IN, money, way=how, pot=found, note=words or str(found))
        entry = PotEntry.objects.create(
            pot=found,
            drive=drive,
            kind=PotEntry.Kind.ADDED,
            amount=line.amount,
            line=line,
            user=actor.account,
        )
        _line_audit(drive, actor, "money.pot.add", line)
    return entry


def _pay(
    drive: Drive, actor: Actor, pot: Pot, way: str, winner: str, couple: int | None, **extra: Any
) -> PotEntry:
    held = pot_balance(pot)
    if held <= 0:
        raise Conflict("pot_empty", gettext("The %(pot)s holds nothing.") % {"pot": pot.name})
    line = _line(
        drive, actor, Kind.POT_PAID, held, way=way, pot=pot, note=f"{pot.name}: {winner}"[:200]
    )
    pot.state = Pot.State.WON
    pot.save(update_fields=["state"])
    entry = PotEntry.objects.create(
        pot=pot,
        drive=drive,
        kind=extra.pop("kind", PotEntry.Kind.PAID),
        amount=held,
        line=line,
        winner=winner,
        couple=couple,
        user=actor.account,
        **extra,
    )
    _line_audit(drive, actor, "money.pot.paid", line)
    return entry


def pot_draw(
    *,
    drive: Drive,
    actor: Actor,
    pot: Any,
    ticket: Any = None,
    card: Any = None,
    found: Any = "",
    ace: Any = False,
    winner: Any = "",
    way: Any = None,
) -> PotEntry:
    """A draw of "catch the ace": the ticket drawn (on paper, the law's draw) picks sealed
    card ``card``; opened, it is ``found`` (its words); the ace of spades (``ace``) wins the
    whole pot, paid to ``winner``, else the pot rolls on. A card once opened stays out (409
    ``card_opened``)."""
    require_selling(drive)
    drawn = _whole(ticket, "ticket", 1, MAX_TICKET)
    words = _text(found, "found", CARD_FOUND_MAX)
    who = _text(winner, "winner", WINNER_MAX)
    how = inputs.WAY.check(way)
    if not isinstance(ace, bool):
        raise ServiceError("bad_ace", gettext("ace: true or false."), field="ace")
    if ace and not who:
        raise ServiceError(
            "bad_winner", gettext("The ace of spades is found: name its winner."), field="winner"
        )
    _pot_for(drive, actor, pot)
    with transaction.atomic():
        chosen = _open_pot(drive, actor, pot)
        if chosen.kind != Pot.Kind.ACE:
            raise Conflict(
                "not_catch_the_ace",
                gettext("The %(pot)s is not drawn by cards.") % {"pot": chosen.name},
            )
        number = _whole(card, "card", 1, chosen.cards)
        if PotEntry.objects.filter(pot=chosen, card=number).exists():
            raise Conflict(
                "card_opened",
                gettext("Card %(card)s is already opened: choose a sealed one.") % {"card": number},
                card=number,
            )
        _carried(drive, actor, chosen)
        details = {"ticket": drawn, "card": number, "card_found": words, "ace": ace}
        if ace:
            entry = _pay(drive, actor, chosen, how, who, None, kind=PotEntry.Kind.DRAW, **details)
        else:
            entry = PotEntry.objects.create(
                pot=chosen,
                drive=drive,
                kind=PotEntry.Kind.DRAW,
                winner=who,
                user=actor.account,
                **details,
            )
        audit(
            drive,
            actor,
            "money.pot.draw",
            subject=f"pot {chosen.pk}",
            new=details | {"winner": who},
        )
    return entry


def pot_pay(
    *, drive: Drive, actor: Actor, pot: Any, couple: Any = None, winner: Any = "", way: Any = None
) -> PotEntry:
    """The pot won tonight and paid whole: a jackpot to a couple with its wins (409
    ``not_enough_wins`` short of them), the cookie jar to the couple or person drawn."""
    require_selling(drive)
    who = _text(winner, "winner", WINNER_MAX)
    how = inputs.WAY.check(way)
    number = _whole(couple, "couple", 1, 10_000, optional=True)
    _pot_for(drive, actor, pot)
    with transaction.atomic():
        chosen = _open_pot(drive, actor, pot)
        if chosen.kind == Pot.Kind.ACE:
            raise Conflict(
                "draw_the_cards",
                gettext("The %(pot)s is won by finding the ace of spades: draw a card.")
                % {"pot": chosen.name},
            )
        team = None
        if number is not None:
            team = Couple.objects.filter(drive=drive, number=number).first()
            if team is None:
                raise NotFound(
                    "no_such_couple",
                    gettext("There is no couple %(number)s.") % {"number": number},
                    couple=number,
                )
            who = who or f"{team.player1} & {team.player2}"
        if chosen.kind == Pot.Kind.JACKPOT:
            if team is None:
                raise ServiceError(
                    "bad_couple", gettext("A jackpot is won by a couple: name it."), field="couple"
                )
            wins = next((r["wins"] for r in standings_for_drive(drive) if r["number"] == number), 0)
            if chosen.wins is not None and wins < chosen.wins:
                raise Conflict(
                    "not_enough_wins",
                    gettext("Couple %(couple)s won %(wins)s games; the jackpot takes %(need)s.")
                    % {"couple": number, "wins": wins, "need": chosen.wins},
                )
        if not who:
            raise ServiceError("bad_winner", gettext("Name the winner."), field="winner")
        _carried(drive, actor, chosen)
        return _pay(drive, actor, chosen, how, who, number)
