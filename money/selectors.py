"""Reads of the night's money: the ledger (the lines written here, and those read from what
the door and the prizes recorded: the cookie jar's buy-ins, its payout and the prizes paid),
its totals by kind and by way of payment, the cash box (expected, counted, difference), the
50/50 and the raffles, the licence's report of the 50/50 and the raffles, the net raised
by each of a club's drives, and the club's pots carried from night to night."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import date
from decimal import Decimal
from typing import Any

from django.db.models import Count, Q, Sum
from django.utils.translation import gettext

from drives.errors import ServiceError
from drives.models import Club, Couple, Drive
from money.models import (
    IN_KINDS,
    MAX_AMOUNT,
    CashCount,
    Draw,
    Kind,
    Line,
    MoneySetup,
    Pool,
    Pot,
    PotEntry,
    Way,
)
from scoring.models import Award, PrizeCategory, PrizeSetup

ZERO = Decimal("0.00")


def setup_of(drive: Drive) -> MoneySetup:
    """The drive's money settings (the defaults, unsaved, until the organizer sets them)."""
    return MoneySetup.objects.filter(drive=drive).first() or MoneySetup(drive=drive)


def fee_of(drive: Drive, couple: Couple, setup: MoneySetup | None = None) -> Decimal:
    """What this couple pays at the door: the drive's ``couple_fee``; with a members' price
    (``MoneySetup.member_fee``), each of its two players at the members' price if the club's
    player is a member (``Player.member``), else at the entry fee; per couple, half of each
    price for each player (two members pay the members' price, two others the entry fee)."""
    member_fee = (setup or setup_of(drive)).member_fee
    if member_fee is None:
        return drive.couple_fee
    prices = [
        Decimal(member_fee) if player is not None and player.member else Decimal(drive.entry_fee)
        for player in (couple.member1, couple.member2)
    ]
    total = sum(prices, ZERO)
    if drive.entry_fee_per == Drive.FeePer.PERSON:
        return total
    return (total / 2).quantize(ZERO)


def signed(kind: str, amount: Decimal) -> Decimal:
    """What a line adds to the night's net: money in counts up, money out down."""
    return amount if kind in IN_KINDS else -amount


def out_of_bounds(amount: Decimal) -> bool:
    """A sum past what its column holds: stored on SQLite by an older version, never since
    (the database checks). Such a line is shown, flagged, and left out of every total."""
    return abs(amount) > MAX_AMOUNT


def pool_takings(pool: Pool) -> Decimal:
    """What the pool's tickets brought in (refunds taken off)."""
    total = Line.objects.filter(pool=pool, amount__gte=-MAX_AMOUNT, amount__lte=MAX_AMOUNT).exclude(
        kind=Kind.FIFTY_FIFTY_PAID
    )
    return Decimal(total.aggregate(s=Sum("amount"))["s"] or ZERO).quantize(ZERO)


def _stored(drive: Drive) -> list[dict[str, Any]]:
    rows = Line.objects.filter(drive=drive).select_related("couple", "user", "pool")
    reversed_ids = set(
        Line.objects.filter(drive=drive, reverses__isnull=False).values_list("reverses", flat=True)
    )
    return [
        {
            "id": line.pk,
            "kind": line.kind,
            "amount": line.amount,
            "way": line.way,
            "couple": line.couple.number if line.couple else None,
            "note": line.note,
            "reverses": line.reverses_id,
            "reversed": line.pk in reversed_ids,
            "user": line.user.get_username() if line.user else None,
            "channel": line.channel,
            "at": line.at,
            "source": "ledger",
            "out_of_bounds": out_of_bounds(line.amount),
        }
        for line in rows
    ]


def _derived(drive: Drive) -> list[dict[str, Any]]:
    """The lines read from elsewhere, never entered: each couple's cookie-jar buy-in (the
    door's tick, at the set-up's buy-in), the prizes awarded with an amount and the cookie
    jar's payout (the prizes), all in cash."""
    lines: list[dict[str, Any]] = []
    setup = PrizeSetup.objects.filter(drive=drive).first()
    buy_in = setup.buy_in if setup is not None else ZERO
    if buy_in:
        for number in Couple.objects.filter(drive=drive, cookie_jar=True).values_list(
            "number", flat=True
        ):
            lines.append(_read_line(Kind.JAR_BUY_IN, buy_in, number, "door", drive.created_at))
    awards = Award.objects.filter(drive=drive, amount__isnull=False).select_related("couple")
    named: dict[int, str] | None = None  # the named prizes' names, read when one was paid
    for award in awards.order_by("at", "id"):
        kind = Kind.JAR_PAID if award.kind == Award.Kind.COOKIE_JAR else Kind.PRIZE_PAID
        note = award.get_kind_display() + (f" {award.place}" if award.place else "")
        if award.kind == Award.Kind.CATEGORY:
            if named is None:
                named = dict(
                    PrizeCategory.objects.filter(drive=drive).values_list("position", "name")
                )
            note = named.get(award.place or 0, note)
        line = _read_line(kind, award.amount, award.couple.number, "prizes", award.at)
        line["note"] = note
        lines.append(line)
    return lines


def _read_line(kind: str, amount: Any, couple: int | None, source: str, at: Any) -> dict[str, Any]:
    return {
        "id": None,
        "kind": kind,
        "amount": Decimal(amount),
        "way": Way.CASH,
        "couple": couple,
        "note": "",
        "reverses": None,
        "reversed": False,
        "user": None,
        "channel": "",
        "at": at,
        "source": source,
        "out_of_bounds": False,
    }


def ledger(drive: Drive) -> list[dict[str, Any]]:
    """Every line of the night, stored and read, in order of time."""
    return sorted(_stored(drive) + _derived(drive), key=lambda line: (line["at"], line["id"] or 0))


def counted(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lines that count in the totals and the box: all but those past the bounds."""
    return [line for line in lines if not line["out_of_bounds"]]


def totals(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """Totals by kind and by way of payment (money out counts negative there), money in, money
    out and the net; a line past its column's bounds is left out."""
    by_kind: dict[str, Decimal] = defaultdict(lambda: ZERO)
    by_way: dict[str, Decimal] = defaultdict(lambda: ZERO)
    money_in = money_out = ZERO
    for line in counted(lines):
        by_kind[line["kind"]] += line["amount"]
        by_way[line["way"]] += signed(line["kind"], line["amount"])
        if line["kind"] in IN_KINDS:
            money_in += line["amount"]
        else:
            money_out += line["amount"]
    return {
        "by_kind": {kind: by_kind[kind] for kind in Kind.values if kind in by_kind},
        "by_way": {way: by_way[way] for way in Way.values if way in by_way},
        "money_in": money_in,
        "money_out": money_out,
        "net": money_in - money_out,
    }


def last_count(drive: Drive) -> CashCount | None:
    return CashCount.objects.filter(drive=drive).order_by("-at", "-id").first()


def pool_view(pool: Pool, setup: MoneySetup) -> dict[str, Any]:
    """A pool's takings, tickets sold, its share and its draws (the last one first)."""
    takings = pool_takings(pool)
    sold = pool.tickets.count()
    share = None
    if pool.kind == Pool.Kind.FIFTY_FIFTY:
        share = (takings * setup.share_percent / 100).quantize(Decimal("0.01"), "ROUND_DOWN")
    draws = [
        {
            "round": d.round,
            "ticket": d.ticket,
            "seed": d.seed,
            "among": d.sold,
            "prize": d.prize,
            "state": d.state,
            "at": d.at,
        }
        for d in Draw.objects.filter(pool=pool).order_by("-round")
    ]
    sales = [
        {
            "first": s.first,
            "last": s.last,
            "seller": s.seller.get_username() if s.seller else None,
            "line": s.line_id,
            "refunded": not s.kept,
        }
        for s in pool.sales.select_related("seller")
        .annotate(kept=Count("tickets"))
        .order_by("first")
    ]
    return {
        "id": pool.pk,
        "kind": pool.kind,
        "name": str(pool),
        "takings": takings,
        "sold": sold,
        "ticket_price": pool.ticket_price if pool.ticket_price is not None else setup.ticket_price,
        "own_price": pool.ticket_price is not None,
        "strip_price": (
            pool.ticket_price * setup.strip_size
            if pool.ticket_price is not None
            else setup.strip_price
        ),
        "share_percent": setup.share_percent if share is not None else None,
        "prize": share,
        "draws": draws,
        "sales": sales,
        "last_draw": draws[0] if draws else None,
    }


def accounts(drive: Drive) -> dict[str, Any]:
    """The night's accounts: the lines, the totals, the cash box (opening float + cash in −
    cash out = what the box should hold; the last count and the difference), the 50/50 and
    the raffles."""
    setup = setup_of(drive)
    lines = ledger(drive)
    sums = totals(lines)
    cash = [line for line in counted(lines) if line["way"] == Way.CASH]
    cash_in = sum((line["amount"] for line in cash if line["kind"] in IN_KINDS), ZERO)
    cash_out = sum((line["amount"] for line in cash if line["kind"] not in IN_KINDS), ZERO)
    expected = setup.opening_float + cash_in - cash_out
    count = last_count(drive)
    pools = list(Pool.objects.filter(drive=drive).order_by("kind", "id"))
    fifty = next((p for p in pools if p.kind == Pool.Kind.FIFTY_FIFTY), None)
    return {
        "drive": drive.slug,
        "currency": drive.currency,
        "entry_fee": drive.entry_fee,
        "entry_fee_per": drive.entry_fee_per,
        "couple_fee": drive.couple_fee,
        "member_fee": setup.member_fee,
        "lines": lines,
        "totals_by_kind": sums["by_kind"],
        "totals_by_way": sums["by_way"],
        "money_in": sums["money_in"],
        "money_out": sums["money_out"],
        "net": sums["net"],
        "opening_float": Decimal(setup.opening_float),
        "cash_in": cash_in,
        "cash_out": cash_out,
        "expected_cash": expected,
        "counted_cash": count.total if count else None,
        "counted_denominations": count.denominations if count else None,
        "difference": (count.total - expected) if count else None,
        "setup": setup,
        "fifty_fifty": pool_view(fifty, setup) if fifty else None,
        "raffles": [pool_view(p, setup) for p in pools if p.kind == Pool.Kind.RAFFLE],
    }


def drives_net(drives: Iterable[Drive]) -> list[dict[str, Any]]:
    """What each of these drives took in, paid out and raised (in the given order): the
    public read the seasons build on (``seasons.selectors.season_money``; money knows
    nothing of seasons). A few queries a drive."""
    rows = []
    for drive in drives:
        sums = totals(ledger(drive))
        rows.append(
            {
                "drive": drive,
                "money_in": sums["money_in"],
                "money_out": sums["money_out"],
                "net": sums["net"],
            }
        )
    return rows


def club_net(club: Club) -> list[dict[str, Any]]:
    """The net raised by each of the club's drives (newest first); per season:
    ``seasons.selectors.season_money``."""
    return drives_net(Drive.objects.filter(club=club).order_by("-date", "-id"))


def ticket_ranges(numbers: Iterable[int]) -> list[tuple[int, int]]:
    """Numbers as runs of consecutive numbers: 1, 2, 3, 7 → (1, 3), (7, 7)."""
    runs: list[tuple[int, int]] = []
    for number in sorted(numbers):
        if runs and number == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], number)
        else:
            runs.append((number, number))
    return runs


def _effective(drive: Drive, kind: str) -> list[Line]:
    """The lines of ``kind`` that stand: neither reversed nor a reversal (a line and its
    reversal cancel out, so these add up to the ledger's total of the kind)."""
    rows = Line.objects.filter(
        drive=drive,
        kind=kind,
        reverses__isnull=True,
        reversed_by__isnull=True,
        amount__gte=-MAX_AMOUNT,
        amount__lte=MAX_AMOUNT,
    )
    return list(rows.order_by("at", "id"))


def licence_report(drive: Drive) -> dict[str, Any]:
    """What a lottery licence's report asks of the night (the 50/50 and the raffles): the
    tickets of each draw (the numbers sold, as ranges; how many; the price; the gross: what
    its tickets brought in, refunds taken off, as the ledger says), the prizes paid (each
    claimed draw: its winning ticket, the 50/50's payout or the raffle's item), the night's
    expenses (the expense lines standing), the net (gross − the prizes paid in money − the
    expenses), and every draw's record (the seed, the time, who drew, how many tickets it was
    among, claimed or not). Without a licence number set: 422 ``no_licence_number``."""
    setup = setup_of(drive)
    if not setup.licence_number:
        raise ServiceError(
            "no_licence_number",
            gettext(
                "The licence's report needs the lottery licence's number: the organizer sets "
                "it among the money settings first."
            ),
            field="licence_number",
        )
    tickets: list[dict[str, Any]] = []
    prizes: list[dict[str, Any]] = []
    draws: list[dict[str, Any]] = []
    pools = Pool.objects.filter(drive=drive).order_by("kind", "id")
    for pool in pools:
        numbers = list(pool.tickets.values_list("number", flat=True))
        own = pool.ticket_price is not None
        tickets.append(
            {
                "draw": pool.kind,
                "pool": pool.pk,
                "name": str(pool),
                "ranges": [{"first": a, "last": b} for a, b in ticket_ranges(numbers)],
                "count": len(numbers),
                "price": pool.ticket_price if own else setup.ticket_price,
                "strip_size": None if own else setup.strip_size,
                "strip_price": None if own else setup.strip_price,
                "gross": pool_takings(pool),
            }
        )
        for draw in Draw.objects.filter(pool=pool).select_related("user", "line"):
            record = {
                "draw": pool.kind,
                "pool": pool.pk,
                "name": str(pool),
                "round": draw.round,
                "ticket": draw.ticket,
                "seed": draw.seed,
                "among": draw.sold,
                "at": draw.at,
                "drawn_by": draw.user.get_username() if draw.user else None,
                "state": draw.state,
            }
            draws.append(record)
            if draw.state == Draw.State.CLAIMED:
                paid = draw.line.amount if draw.line is not None else None
                prizes.append(
                    {
                        "draw": pool.kind,
                        "pool": pool.pk,
                        "name": str(pool),
                        "round": draw.round,
                        "ticket": draw.ticket,
                        "amount": paid,
                        "item": pool.name if pool.kind == Pool.Kind.RAFFLE else None,
                        "at": draw.at,
                    }
                )
    expenses = [
        {"id": line.pk, "note": line.note, "amount": line.amount, "way": line.way, "at": line.at}
        for line in _effective(drive, Kind.EXPENSE)
    ]
    gross = sum((row["gross"] for row in tickets), ZERO)
    prizes_paid = sum((row["amount"] for row in prizes if row["amount"] is not None), ZERO)
    expenses_total = sum((row["amount"] for row in expenses), ZERO)
    return {
        "drive": drive.slug,
        "currency": drive.currency,
        "licence_number": setup.licence_number,
        "tickets": tickets,
        "gross": gross,
        "prizes": prizes,
        "prizes_paid": prizes_paid,
        "expenses": expenses,
        "expenses_total": expenses_total,
        "net": gross - prizes_paid - expenses_total,
        "draws": draws,
    }


def prize_takings(drive: Drive) -> dict[str, Decimal]:
    """What the prizes' shares are shares of (``scoring.prizes.takings``): ``entry``, the
    entry money taken at the door (refunds taken off), and ``pot``, the night's own takings:
    the entry money, donations and raffle tickets (not the 50/50's tickets, which pay their own
    share, nor the cookie jar's buy-ins, the jar's own money)."""
    by_kind = totals(counted(_stored(drive)))["by_kind"]
    entry = by_kind.get(Kind.ENTRY, ZERO)
    pot = entry + by_kind.get(Kind.DONATION, ZERO) + by_kind.get(Kind.RAFFLE_TICKETS, ZERO)
    return {"entry": Decimal(entry).quantize(ZERO), "pot": Decimal(pot).quantize(ZERO)}


def licence_period(club: Club, starts: date, ends: date) -> dict[str, Any]:
    """The licence's report summed over a period (a season's dates; a licence's year): each
    night of the club between ``starts`` and ``ends`` that sold tickets, with its licence
    number, tickets sold, gross, prizes paid in money, expenses and net (as its own report
    says: ``licence_report``); the nights without a licence number listed apart (their report
    cannot be made); the totals, one per currency."""
    nights: list[dict[str, Any]] = []
    missing: list[dict[str, Any]] = []
    drives = Drive.objects.filter(club=club, date__gte=starts, date__lte=ends, pools__isnull=False)
    for drive in drives.distinct().order_by("date", "id"):
        row = {"slug": drive.slug, "name": drive.name, "date": drive.date}
        try:
            report = licence_report(drive)
        except ServiceError:
            missing.append(row)
            continue
        nights.append(
            row
            | {
                "currency": report["currency"],
                "licence_number": report["licence_number"],
                "tickets": sum(t["count"] for t in report["tickets"]),
                "draws": len(report["tickets"]),
                **{k: report[k] for k in ("gross", "prizes_paid", "expenses_total", "net")},
            }
        )
    totals: dict[str, dict[str, Any]] = {}
    for night in nights:
        total = totals.setdefault(
            night["currency"],
            {"currency": night["currency"], "nights": 0, "tickets": 0}
            | dict.fromkeys(("gross", "prizes_paid", "expenses_total", "net"), ZERO),
        )
        total["nights"] += 1
        for key in ("tickets", "gross", "prizes_paid", "expenses_total", "net"):
            total[key] += night[key]
    return {
        "club": club.slug,
        "from": starts,
        "to": ends,
        "nights": nights,
        "without_licence_number": missing,
        "totals": list(totals.values()),
    }


# --- the club's pots -----------------------------------------------------------------------------


def pot_balance(pot: Pot) -> Decimal:
    """What the pot holds: its opening amount, plus the money put in at every drive, less
    what was paid out of it (corrections included: they carry the opposite amount)."""
    sums = dict(
        Line.objects.filter(pot=pot)
        .values_list("kind")
        .annotate(total=Sum("amount"))
        .values_list("kind", "total")
    )
    held = (
        Decimal(pot.opening) + (sums.get(Kind.POT_IN) or ZERO) - (sums.get(Kind.POT_PAID) or ZERO)
    )
    return held.quantize(ZERO)


def _pot_rows(pots: list[Pot], drives: Iterable[Drive] | None = None) -> list[dict[str, Any]]:
    """Each pot with what it holds, its opened cards and its history drive by drive (what it
    held when carried in, what went in, the cards opened, its winner and what was paid); with
    ``drives``, the history of those drives only; a line reversed on the ledger is left out of
    it. Four queries, whatever the pots."""
    if not pots:
        return []
    ids = [pot.pk for pot in pots]
    sums: dict[int, dict[str, Decimal]] = defaultdict(dict)
    for pot_id, kind, total in (
        Line.objects.filter(pot__in=ids).values_list("pot", "kind").annotate(total=Sum("amount"))
    ):
        sums[pot_id][kind] = total or ZERO
    undone = set(
        Line.objects.filter(pot__in=ids, reverses__isnull=False).values_list("reverses", flat=True)
    )
    entries = PotEntry.objects.filter(pot__in=ids).select_related("drive").order_by("at", "id")
    if drives is not None:
        entries = entries.filter(drive__in=[d.pk for d in drives])
    by_pot: dict[int, dict[int, dict[str, Any]]] = defaultdict(dict)
    opened: dict[int, list[int]] = defaultdict(list)
    for entry in PotEntry.objects.filter(pot__in=ids, card__isnull=False).order_by("card"):
        if entry.card is not None:
            opened[entry.pot_id].append(entry.card)
    for entry in entries:
        night = by_pot[entry.pot_id].setdefault(
            entry.drive_id,
            {
                "drive": entry.drive.slug,
                "name": entry.drive.name,
                "date": entry.drive.date,
                "carried_in": None,
                "added": ZERO,
                "draws": [],
                "winner": "",
                "paid": None,
            },
        )
        if entry.line_id is not None and entry.line_id in undone:
            continue  # money put in or paid, then reversed on the ledger: as if never
        if entry.kind == PotEntry.Kind.CARRIED:
            night["carried_in"] = entry.amount
        elif entry.kind == PotEntry.Kind.ADDED:
            night["added"] += entry.amount or ZERO
        if entry.card is not None:
            night["draws"].append(
                {
                    "ticket": entry.ticket,
                    "card": entry.card,
                    "found": entry.card_found,
                    "ace": entry.ace,
                }
            )
        if entry.line_id is not None and entry.kind != PotEntry.Kind.ADDED:
            night["winner"], night["paid"] = entry.winner, entry.amount
    rows = []
    for pot in pots:
        own = sums[pot.pk]
        held = Decimal(pot.opening) + own.get(Kind.POT_IN, ZERO) - own.get(Kind.POT_PAID, ZERO)
        history = list(by_pot[pot.pk].values())
        rows.append(
            {
                "id": pot.pk,
                "name": pot.name,
                "kind": pot.kind,
                "kind_name": str(pot.get_kind_display()),
                "state": pot.state,
                "opening": Decimal(pot.opening),
                "holds": held.quantize(ZERO),
                "wins": pot.wins,
                "cards": pot.cards,
                "opened": opened[pot.pk],
                "sealed": pot.cards - len(opened[pot.pk]),
                "history": history,
            }
        )
    return rows


def pot_view(pot: Pot) -> dict[str, Any]:
    """One pot, with its history (``_pot_rows``)."""
    return _pot_rows([pot])[0]


def club_pots(club: Club, *, drives: Iterable[Drive] | None = None) -> list[dict[str, Any]]:
    """The club's pots, open ones first, with their history (``_pot_rows``); with ``drives``
    (a season's), the pots those drives carried and the club's open ones, their history at
    those drives only."""
    pots = list(Pot.objects.filter(club=club).order_by("state", "id"))
    if drives is not None:
        drives = list(drives)
        carried = set(
            PotEntry.objects.filter(drive__in=[d.pk for d in drives]).values_list("pot", flat=True)
        )
        pots = [p for p in pots if p.state == Pot.State.OPEN or p.pk in carried]
    return _pot_rows(pots, drives)


def drive_pots(drive: Drive) -> list[dict[str, Any]]:
    """The pots a drive carries: the club's open pots, and those it paid out."""
    paid_here = PotEntry.objects.filter(drive=drive).values_list("pot", flat=True)
    pots = list(
        Pot.objects.filter(club_id=drive.club_id)
        .filter(Q(state=Pot.State.OPEN) | Q(pk__in=paid_here))
        .order_by("state", "id")
    )
    return _pot_rows(pots)
