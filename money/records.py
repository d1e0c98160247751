"""The ledger in the drive's export and restore (key ``money``; ``scoring.records.parts``):
the money settings, every stored line (the cookie jar and the prizes are read from the rest
of the export), the pools with their ticket sales and draws, the cash box's counts, and the
club's pots the drive carried with their entries at this drive.
Lines keep their order; a correction points at the line it reverses by its place in the
list. ``MoneyPart`` describes and checks the part (amounts by the ledger's own rule,
``amount_of``); ``read`` adds what it cannot say (a couple of this drive, a line named by
place, ranges of tickets sold once) and ``write`` reads its attributes."""

from __future__ import annotations

from decimal import Decimal
from functools import partial
from typing import Annotated, Any

from django.utils.translation import gettext
from pydantic import Field, PlainValidator
from pydantic_core import PydanticCustomError

from drives.errors import ServiceError
from drives.inputs import amount_of
from drives.models import AuditEntry, Couple, Drive
from money.models import (
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
    Way,
)
from scoring.records.parts import Part
from scoring.records.schema import AppPart, Time, checked, one_of, text_only

KEY = "money"


def export(drive: Drive) -> dict[str, Any]:
    setup = MoneySetup.objects.filter(drive=drive).first()
    lines = list(
        Line.objects.filter(drive=drive).select_related("couple", "user").order_by("at", "id")
    )
    place = {line.pk: i for i, line in enumerate(lines)}
    pools = list(Pool.objects.filter(drive=drive).order_by("id"))
    entries = list(PotEntry.objects.filter(drive=drive).select_related("pot").order_by("at", "id"))
    pots = list(dict.fromkeys(entry.pot for entry in entries))
    pot_place = {pot.pk: i for i, pot in enumerate(pots)}
    return {
        "setup": None
        if setup is None
        else {
            "opening_float": str(setup.opening_float),
            "ticket_price": str(setup.ticket_price),
            "strip_size": setup.strip_size,
            "strip_price": str(setup.strip_price),
            "share_percent": setup.share_percent,
            "scorers_allowed": setup.scorers_allowed,
            "licence_number": setup.licence_number,
            "member_fee": None if setup.member_fee is None else str(setup.member_fee),
        },
        "lines": [
            {
                "kind": line.kind,
                "amount": str(line.amount),
                "way": line.way,
                "couple": line.couple.number if line.couple else None,
                "note": line.note,
                "reverses": place.get(line.reverses_id) if line.reverses_id else None,
                "pot": pot_place.get(line.pot_id) if line.pot_id else None,
                "user": line.user.get_username() if line.user else None,
                "channel": line.channel,
                "at": line.at.isoformat(),
            }
            for line in lines
        ],
        "pools": [
            {
                "kind": pool.kind,
                "name": pool.name,
                "ticket_price": None if pool.ticket_price is None else str(pool.ticket_price),
                "sales": [
                    {
                        "first": s.first,
                        "last": s.last,
                        "line": place[s.line_id],
                        "refunded": not s.tickets.exists(),
                    }
                    for s in pool.sales.order_by("id")
                ],
                "draws": [
                    {
                        "round": d.round,
                        "seed": d.seed,
                        "ticket": d.ticket,
                        "among": d.sold,
                        "prize": None if d.prize is None else str(d.prize),
                        "state": d.state,
                        "line": place.get(d.line_id) if d.line_id else None,
                        "at": d.at.isoformat(),
                    }
                    for d in pool.draws.order_by("round")
                ],
            }
            for pool in pools
        ],
        "counts": [
            {"total": str(c.total), "denominations": c.denominations, "at": c.at.isoformat()}
            for c in CashCount.objects.filter(drive=drive).order_by("at", "id")
        ],
        "pots": [
            {
                "name": pot.name,
                "kind": pot.kind,
                "opening": str(pot.opening),
                "wins": pot.wins,
                "cards": pot.cards,
                "entries": [
                    {
                        "kind": e.kind,
                        "amount": None if e.amount is None else str(e.amount),
                        "line": place.get(e.line_id) if e.line_id else None,
                        "ticket": e.ticket,
                        "card": e.card,
                        "card_found": e.card_found,
                        "ace": e.ace,
                        "winner": e.winner,
                        "couple": e.couple,
                        "at": e.at.isoformat(),
                    }
                    for e in entries
                    if e.pot_id == pot.pk
                ],
            }
            for pot in pots
        ],
    }


def _sum(value: Any, *, zero: bool = False, signed: bool = False) -> Decimal:
    """A sum as the ledger takes it (``amount_of``: text or a number, to the cent, more than
    zero unless ``zero``); ``signed``: a correction's, negative."""
    text = str(value)
    negative = signed and text.startswith("-")
    try:
        amount = amount_of(text[1:] if negative else text, "amount", zero=zero)
    except ServiceError as error:
        raise PydanticCustomError("bad_amount", error.message.removeprefix("amount: ")) from None
    return -amount if negative else amount


def _prize(value: Any) -> Decimal:
    """A draw's prize: text only, as the export writes it."""
    return _sum(text_only(value), zero=True)


Sum = Annotated[Decimal, PlainValidator(_sum)]
SumOrZero = Annotated[Decimal, PlainValidator(partial(_sum, zero=True))]
Signed = Annotated[Decimal, PlainValidator(partial(_sum, signed=True))]
Prize = Annotated[Decimal, PlainValidator(_prize)]


class MoneySettings(AppPart):
    opening_float: SumOrZero
    ticket_price: Sum
    strip_size: int
    strip_price: Sum
    share_percent: Annotated[int, Field(ge=1, le=100)]
    scorers_allowed: bool
    #: Added with the licence's report: an export written before has none (restored empty).
    licence_number: Annotated[str, Field(max_length=40)] = ""
    #: Added with the members' price: an export written before has none.
    member_fee: Sum | None = None


class MoneyLine(AppPart):
    kind: Annotated[str, one_of(Kind.values)]
    amount: Signed
    way: Annotated[str, one_of(Way.values)]
    couple: int | None
    note: str
    reverses: int | None
    #: The club's pot the line put money in or paid out of (its place in ``pots``).
    pot: int | None = None
    user: str | None
    channel: Annotated[str, one_of(AuditEntry.Channel.values)]
    at: Time


class MoneySale(AppPart):
    first: int
    last: int
    line: int
    refunded: bool


class MoneyDraw(AppPart):
    round: int
    seed: int
    ticket: int
    among: int
    prize: Prize | None
    state: Annotated[str, one_of(Draw.State.values)]
    line: int | None
    at: Time


class MoneyPool(AppPart):
    kind: Annotated[str, one_of(Pool.Kind.values)]
    name: str
    ticket_price: Sum | None = None  # absent in exports made before raffles had prices
    sales: list[MoneySale]
    draws: list[MoneyDraw]


class MoneyCount(AppPart):
    total: SumOrZero
    denominations: dict[str, Any]
    at: Time


class MoneyPotEntry(AppPart):
    kind: Annotated[str, one_of(PotEntry.Kind.values)]
    amount: SumOrZero | None
    line: int | None
    ticket: Annotated[int, Field(ge=1)] | None
    card: Annotated[int, Field(ge=1, le=60)] | None
    card_found: Annotated[str, Field(max_length=40)]
    ace: bool
    winner: Annotated[str, Field(max_length=120)]
    couple: int | None
    at: Time


class MoneyPot(AppPart):
    """A club's pot the drive carried, and its entries at this drive (the pot is the club's:
    restored, it joins the club's pot of that name and kind, or is opened anew)."""

    name: Annotated[str, Field(min_length=1, max_length=120)]
    kind: Annotated[str, one_of(Pot.Kind.values)]
    opening: SumOrZero
    wins: Annotated[int, Field(ge=1, le=60)] | None
    cards: Annotated[int, Field(ge=1, le=60)]
    entries: list[MoneyPotEntry]


class MoneyPart(AppPart):
    setup: MoneySettings | None
    lines: list[MoneyLine]
    pools: list[MoneyPool]
    counts: list[MoneyCount]
    #: Added with the club's pots: an export written before has none.
    pots: list[MoneyPot] = Field(default_factory=list)


def _bad(path: str, message: str) -> ServiceError:
    return ServiceError("bad_export", f"money.{path}: {message}.", path=f"money.{path}")


def read(data: Any, numbers: set[int]) -> MoneyPart:
    """Check the part before anything is written: every place at fault is named."""
    part = checked(MoneyPart, data, KEY)
    for i, line in enumerate(part.lines):
        if line.couple is not None and line.couple not in numbers:
            raise _bad(
                f"lines[{i}].couple", gettext("no couple %(couple)s") % {"couple": line.couple}
            )
        if line.reverses is not None and not 0 <= line.reverses < i:
            raise _bad(f"lines[{i}].reverses", gettext("names no earlier line"))
        if line.reverses is None and line.amount < 0:
            raise _bad(f"lines[{i}].amount", gettext("negative, but it reverses no line"))
    for i, pool in enumerate(part.pools):
        sold: set[int] = set()
        for j, sale in enumerate(pool.sales):
            where = f"pools[{i}].sales[{j}]"
            if not 1 <= sale.first <= sale.last or sale.last - sale.first >= 100_000:
                raise _bad(where, gettext("not a range of tickets"))
            tickets = set(range(sale.first, sale.last + 1))
            if not sale.refunded and sold & tickets:
                raise _bad(where, gettext("overlaps a range sold before"))
            if not sale.refunded:
                sold |= tickets
            if not 0 <= sale.line < len(part.lines):
                raise _bad(f"{where}.line", gettext("names no line"))
        for j, draw in enumerate(pool.draws):
            if draw.line is not None and not 0 <= draw.line < len(part.lines):
                raise _bad(f"pools[{i}].draws[{j}].line", gettext("names no line"))
    for i, line in enumerate(part.lines):
        if line.pot is not None and not 0 <= line.pot < len(part.pots):
            raise _bad(f"lines[{i}].pot", gettext("names no pot"))
    for i, pot in enumerate(part.pots):
        cards = [e.card for e in pot.entries if e.card is not None]
        if len(cards) != len(set(cards)) or any(card > pot.cards for card in cards):
            raise _bad(f"pots[{i}].entries", gettext("a card opened twice, or past the deck"))
        for j, entry in enumerate(pot.entries):
            if entry.line is not None and not 0 <= entry.line < len(part.lines):
                raise _bad(f"pots[{i}].entries[{j}].line", gettext("names no line"))
    if sum(pool.kind == Pool.Kind.FIFTY_FIFTY for pool in part.pools) > 1:
        raise _bad("pools", gettext("more than one 50/50"))
    return part


def users(part: MoneyPart) -> list[str | None]:
    return [line.user for line in part.lines]


def write(drive: Drive, part: MoneyPart, people: dict[str, Any]) -> None:
    if part.setup is not None:
        MoneySetup.objects.create(drive=drive, **part.setup.model_dump())
    couples = {c.number: c for c in Couple.objects.filter(drive=drive)}
    rows: list[Line] = []
    for line in part.lines:
        rows.append(
            Line.objects.create(
                drive=drive,
                kind=line.kind,
                amount=line.amount,
                way=line.way,
                couple=couples.get(line.couple) if line.couple else None,
                note=line.note[:200],
                channel=line.channel,
                at=line.at,
                reverses=rows[line.reverses] if line.reverses is not None else None,
                user=people.get(line.user) if line.user else None,
            )
        )
    for item in part.pools:
        pool = Pool.objects.create(
            drive=drive, kind=item.kind, name=item.name[:120], ticket_price=item.ticket_price
        )
        for sale in item.sales:
            row = rows[sale.line]
            row.pool = pool
            row.save(update_fields=["pool"])
            made = TicketSale.objects.create(
                pool=pool, first=sale.first, last=sale.last, line=row, at=row.at
            )
            if not sale.refunded:
                Ticket.objects.bulk_create(
                    [
                        Ticket(pool=pool, sale=made, number=n)
                        for n in range(sale.first, sale.last + 1)
                    ]
                )
        for draw in item.draws:
            paid = rows[draw.line] if draw.line is not None else None
            if paid is not None:
                paid.pool = pool
                paid.save(update_fields=["pool"])
            Draw.objects.create(
                pool=pool, sold=draw.among, line=paid, **draw.model_dump(exclude={"among", "line"})
            )
        # the refunds of the pool's sales belong to it too
        Line.objects.filter(reverses__pool=pool).update(pool=pool)
    CashCount.objects.bulk_create([CashCount(drive=drive, **c.model_dump()) for c in part.counts])
    for carried in part.pots:
        pot = _club_pot(drive, carried)
        for i, line in enumerate(part.lines):
            if line.pot is not None and part.pots[line.pot] is carried:
                rows[i].pot = pot
                rows[i].save(update_fields=["pot"])
        for entry in carried.entries:
            PotEntry.objects.create(
                pot=pot,
                drive=drive,
                line=rows[entry.line] if entry.line is not None else None,
                **entry.model_dump(exclude={"line"}),
            )
            won = entry.line is not None and part.lines[entry.line].kind == Kind.POT_PAID
            if won and not Line.objects.filter(reverses=rows[entry.line or 0]).exists():
                Pot.objects.filter(pk=pot.pk).update(state=Pot.State.WON)


def _club_pot(drive: Drive, item: MoneyPot) -> Pot:
    """The club's pot of the item's name and kind whose sealed cards the item's opened cards
    still are (the drive restored where it was made); else a pot of the club opened anew."""
    cards = {e.card for e in item.entries if e.card is not None}
    for pot in Pot.objects.filter(club_id=drive.club_id, name=item.name, kind=item.kind):
        if not PotEntry.objects.filter(pot=pot, card__in=cards).exists():
            return pot
    return Pot.objects.create(
        club_id=drive.club_id,
        name=item.name,
        kind=item.kind,
        opening=item.opening,
        wins=item.wins,
        cards=item.cards,
    )


PART = Part(key=KEY, export=export, read=read, write=write, users=users)
