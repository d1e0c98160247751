"""The ledger in the drive's export and restore (key ``money``; ``scoring.records.parts``):
the money settings, every stored line (the cookie jar and the prizes are read from the rest
of the export), the pools with their ticket sales and draws, and the cash box's counts.
Lines keep their order; a correction points at the line it reverses by its place in the
list."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext

from drives import inputs
from drives.errors import ServiceError
from drives.models import AuditEntry, Couple, Drive
from money.models import (
    CashCount,
    Draw,
    Kind,
    Line,
    MoneySetup,
    Pool,
    Ticket,
    TicketSale,
    Way,
)
from scoring.records.parts import Part

KEY = "money"


def export(drive: Drive) -> dict[str, Any]:
    setup = MoneySetup.objects.filter(drive=drive).first()
    lines = list(
        Line.objects.filter(drive=drive).select_related("couple", "user").order_by("at", "id")
    )
    place = {line.pk: i for i, line in enumerate(lines)}
    pools = list(Pool.objects.filter(drive=drive).order_by("id"))
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
        },
        "lines": [
            {
                "kind": line.kind,
                "amount": str(line.amount),
                "way": line.way,
                "couple": line.couple.number if line.couple else None,
                "note": line.note,
                "reverses": place.get(line.reverses_id) if line.reverses_id else None,
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
    }


def _bad(path: str, message: str) -> ServiceError:
    return ServiceError("bad_export", f"money.{path}: {message}.", path=f"money.{path}")


def _get(obj: Any, key: str, path: str, kinds: Any, null: bool = False) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise _bad(path, gettext("%(key)s is missing") % {"key": key})
    value = obj[key]
    if value is None and null:
        return None
    if isinstance(value, bool) and kinds is not bool:
        raise _bad(f"{path}.{key}", gettext("has the wrong type"))
    if not isinstance(value, kinds):
        raise _bad(f"{path}.{key}", gettext("has the wrong type"))
    return value


def _time(value: Any, path: str) -> datetime:
    try:
        at = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise _bad(path, gettext("is not a time")) from None
    if at.tzinfo is None:
        raise _bad(path, gettext("has no time zone"))
    return at


def _money(value: Any, path: str, *, signed: bool = False, zero: bool = False) -> Decimal:
    text = str(value)
    negative = signed and text.startswith("-")
    try:
        amount = inputs.amount_of(text[1:] if negative else text, path, zero=zero)
    except ServiceError as error:
        raise _bad(path, error.message) from None
    return -amount if negative else amount


def read(data: Any, numbers: set[int]) -> dict[str, Any]:
    """Check the part before anything is written: every place at fault is named."""
    if not isinstance(data, dict):
        raise _bad("", gettext("an object"))
    setup = _get(data, "setup", "", dict, null=True)
    if setup is not None:
        setup = {
            "opening_float": _money(setup.get("opening_float"), "setup.opening_float", zero=True),
            "ticket_price": _money(setup.get("ticket_price"), "setup.ticket_price"),
            "strip_size": _get(setup, "strip_size", "setup", int),
            "strip_price": _money(setup.get("strip_price"), "setup.strip_price"),
            "share_percent": _get(setup, "share_percent", "setup", int),
            "scorers_allowed": _get(setup, "scorers_allowed", "setup", bool),
        }
        if not 1 <= setup["share_percent"] <= 100:
            raise _bad("setup.share_percent", gettext("from 1 to 100"))
    lines = []
    for i, item in enumerate(_get(data, "lines", "", list)):
        path = f"lines[{i}]"
        kind = _get(item, "kind", path, str)
        way = _get(item, "way", path, str)
        if kind not in Kind.values or way not in Way.values:
            raise _bad(path, gettext("unknown kind or way"))
        couple = _get(item, "couple", path, int, null=True)
        if couple is not None and couple not in numbers:
            raise _bad(f"{path}.couple", gettext("no couple %(couple)s") % {"couple": couple})
        reverses = _get(item, "reverses", path, int, null=True)
        if reverses is not None and not 0 <= reverses < i:
            raise _bad(f"{path}.reverses", gettext("names no earlier line"))
        channel = _get(item, "channel", path, str)
        if channel not in AuditEntry.Channel.values:
            raise _bad(f"{path}.channel", gettext("unknown channel"))
        lines.append(
            {
                "kind": kind,
                "way": way,
                "couple": couple,
                "reverses": reverses,
                "channel": channel,
                "amount": _money(item.get("amount"), f"{path}.amount", signed=reverses is not None),
                "note": str(_get(item, "note", path, str))[:200],
                "user": _get(item, "user", path, str, null=True),
                "at": _time(item.get("at"), f"{path}.at"),
            }
        )

    def line_ref(value: Any, path: str, null: bool = False) -> int | None:
        if value is None and null:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(lines):
            raise _bad(path, gettext("names no line"))
        return value

    pools = []
    fifty = 0
    for i, item in enumerate(_get(data, "pools", "", list)):
        path = f"pools[{i}]"
        kind = _get(item, "kind", path, str)
        if kind not in Pool.Kind.values:
            raise _bad(f"{path}.kind", gettext("unknown"))
        fifty += kind == Pool.Kind.FIFTY_FIFTY
        sales: list[dict[str, Any]] = []
        sold: set[int] = set()
        for j, sale in enumerate(_get(item, "sales", path, list)):
            where = f"{path}.sales[{j}]"
            first, last = _get(sale, "first", where, int), _get(sale, "last", where, int)
            if not 1 <= first <= last or last - first >= 100_000:
                raise _bad(where, gettext("not a range of tickets"))
            refunded = _get(sale, "refunded", where, bool)
            numbers_of = set(range(first, last + 1))
            if not refunded and sold & numbers_of:
                raise _bad(where, gettext("overlaps a range sold before"))
            if not refunded:
                sold |= numbers_of
            sales.append(
                {
                    "first": first,
                    "last": last,
                    "refunded": refunded,
                    "line": line_ref(sale.get("line"), f"{where}.line"),
                }
            )
        draws = []
        for j, draw in enumerate(_get(item, "draws", path, list)):
            where = f"{path}.draws[{j}]"
            state = _get(draw, "state", where, str)
            if state not in Draw.State.values:
                raise _bad(f"{where}.state", gettext("unknown"))
            prize = _get(draw, "prize", where, str, null=True)
            draws.append(
                {
                    "round": _get(draw, "round", where, int),
                    "seed": _get(draw, "seed", where, int),
                    "ticket": _get(draw, "ticket", where, int),
                    "sold": _get(draw, "among", where, int),
                    "prize": None if prize is None else _money(prize, f"{where}.prize", zero=True),
                    "state": state,
                    "line": line_ref(draw.get("line"), f"{where}.line", null=True),
                    "at": _time(draw.get("at"), f"{where}.at"),
                }
            )
        price = item.get("ticket_price")  # absent in exports made before raffles had prices
        pools.append(
            {
                "kind": kind,
                "name": str(_get(item, "name", path, str))[:120],
                "ticket_price": None if price is None else _money(price, f"{path}.ticket_price"),
                "sales": sales,
                "draws": draws,
            }
        )
    if fifty > 1:
        raise _bad("pools", gettext("more than one 50/50"))
    counts = []
    for i, item in enumerate(_get(data, "counts", "", list)):
        path = f"counts[{i}]"
        denominations = _get(item, "denominations", path, dict)
        counts.append(
            {
                "total": _money(item.get("total"), f"{path}.total", zero=True),
                "denominations": denominations,
                "at": _time(item.get("at"), f"{path}.at"),
            }
        )
    return {"setup": setup, "lines": lines, "pools": pools, "counts": counts}


def users(part: dict[str, Any]) -> list[str | None]:
    return [line["user"] for line in part["lines"]]


def write(drive: Drive, part: dict[str, Any], people: dict[str, Any]) -> None:
    if part["setup"] is not None:
        MoneySetup.objects.create(drive=drive, **part["setup"])
    couples = {c.number: c for c in Couple.objects.filter(drive=drive)}
    rows: list[Line] = []
    for line in part["lines"]:
        rows.append(
            Line.objects.create(
                drive=drive,
                kind=line["kind"],
                amount=line["amount"],
                way=line["way"],
                couple=couples.get(line["couple"]) if line["couple"] else None,
                note=line["note"],
                channel=line["channel"],
                at=line["at"],
                reverses=rows[line["reverses"]] if line["reverses"] is not None else None,
                user=people.get(line["user"]) if line["user"] else None,
            )
        )
    for item in part["pools"]:
        pool = Pool.objects.create(
            drive=drive, kind=item["kind"], name=item["name"], ticket_price=item["ticket_price"]
        )
        for sale in item["sales"]:
            line = rows[sale["line"]]
            line.pool = pool
            line.save(update_fields=["pool"])
            made = TicketSale.objects.create(
                pool=pool, first=sale["first"], last=sale["last"], line=line, at=line.at
            )
            if not sale["refunded"]:
                Ticket.objects.bulk_create(
                    [
                        Ticket(pool=pool, sale=made, number=n)
                        for n in range(sale["first"], sale["last"] + 1)
                    ]
                )
        for draw in item["draws"]:
            paid = rows[draw["line"]] if draw["line"] is not None else None
            if paid is not None:
                paid.pool = pool
                paid.save(update_fields=["pool"])
            Draw.objects.create(
                pool=pool,
                round=draw["round"],
                seed=draw["seed"],
                ticket=draw["ticket"],
                sold=draw["sold"],
                prize=draw["prize"],
                state=draw["state"],
                line=paid,
                at=draw["at"],
            )
        # the refunds of the pool's sales belong to it too
        Line.objects.filter(reverses__pool=pool).update(pool=pool)
    CashCount.objects.bulk_create([CashCount(drive=drive, **c) for c in part["counts"]])


PART = Part(key=KEY, export=export, read=read, write=write, users=users)
