"""The night's accounts on paper and in a spreadsheet: the treasurer's one-page sheet, printed
as the other documents are (``scoring.printing``: asked for on the print page, the money page
or the API, rendered by the print task, in the drive's language whoever asks for it; this
gives its words and figures and who may print it), a CSV of every line, and the licence's
report of the 50/50 and the raffles, drawn at once as a one-page PDF by the same renderer."""

from __future__ import annotations

import csv
import io
from typing import Any

from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from drives.models import Drive, Membership
from drives.services import role_in
from money import selectors
from money.models import Draw, Kind, Way
from scoring.printing.labels import labels
from scoring.printing.parts import Part
from scoring.printing.rendering import render_pdf
from scoring.prizes.selectors import prize_payouts

KIND_NAMES = dict(Kind.choices)
WAY_NAMES = dict(Way.choices)


def accounts_csv(drive: Drive, data: dict[str, Any]) -> str:
    """Every line: time, kind, amount, way, couple, note, who, the line it corrects."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            "at",
            "kind",
            "amount",
            "currency",
            "way",
            "couple",
            "note",
            "user",
            "line",
            "reverses",
            "source",
        ]
    )
    for line in data["lines"]:
        writer.writerow(
            [
                line["at"].isoformat(),
                line["kind"],
                line["amount"],
                drive.currency,
                line["way"],
                line["couple"] or "",
                line["note"],
                line["user"] or "",
                line["id"] or "",
                line["reverses"] or "",
                line["source"],
            ]
        )
    return out.getvalue()


def _money(value: Any, currency: str) -> str:
    return "—" if value is None else f"{value} {currency}"


def _entry_fee(data: dict[str, Any], currency: str) -> str:
    """The fee as the hall charges it: a person's (and so a couple's), or a couple's; and the
    members' price when the drive has one."""
    fee = _money(data["entry_fee"], currency)
    if data["entry_fee_per"] == "person":
        text = _("Entry fee: %(fee)s a person (%(pair)s a couple)") % {
            "fee": fee,
            "pair": _money(data["couple_fee"], currency),
        }
    else:
        text = _("Entry fee: %(fee)s a couple") % {"fee": fee}
    if data.get("member_fee") is not None:
        text += " · " + _("members: %(fee)s") % {"fee": _money(data["member_fee"], currency)}
    return text


def _prize_note(paid: dict[str, Any], cur: str) -> str:
    """A prize paid, as the sheet says it: "Place 1 (30% of the entry money) to couple 4:
    18.00 CAD."."""
    names = {
        "booby": _("Booby prize"),
        "half-time": _("Half-time prize"),
        "jackpot": _("Jackpot"),
        "cookie-jar": _("Cookie jar"),
    }
    if paid["kind"] == "category":
        what = paid["name"]
    else:
        what = names.get(paid["kind"]) or _("Place %(n)s") % {"n": paid["place"]}
    if paid["share_of"] == "pot":
        what += " " + _("(%(p)s%% of the pot)") % {"p": paid["percent"]}
    elif paid["share_of"]:
        what += " " + _("(%(p)s%% of the entry money)") % {"p": paid["percent"]}
    return _("%(prize)s to couple %(couple)s: %(amount)s.") % {
        "prize": what,
        "couple": paid["couple"],
        "amount": _money(paid["amount"], cur),
    }


def accounts_document(drive: Drive) -> dict[str, Any]:
    """The treasurer's sheet as the printed documents take it (``scoring.printing.parts``):
    every word and figure as plain text, in the language active (the print path activates the
    drive's, the hall's, whoever prints it), for ``scoring.printing.pdf.accounts`` to lay out.
    The totals by kind, the money in and out and the net raised; the net by way of payment; the
    cash box; the 50/50's last draw; every prize paid in money (a share says of what)."""
    data = selectors.accounts(drive)
    cur = drive.currency
    lines = [f"{drive.club.name} · {drive.name} · {drive.date.isoformat()}"]
    if data["entry_fee"]:
        lines.append(_entry_fee(data, cur))
    rows = [[_("Kind"), _("Amount")]] + [
        [str(KIND_NAMES.get(kind, kind)), _money(total, cur)]
        for kind, total in data["totals_by_kind"].items()
    ]
    rows += [
        [_("Money in"), _money(data["money_in"], cur)],
        [_("Money out"), _money(data["money_out"], cur)],
        [_("Net raised"), _money(data["net"], cur)],
    ]
    ways = [[_("Way of payment"), _("Net")]] + [
        [str(WAY_NAMES.get(way, way)), _money(total, cur)]
        for way, total in data["totals_by_way"].items()
    ]
    box = [
        [_("Cash box"), ""],
        [_("Opening float"), _money(data["opening_float"], cur)],
        [_("Cash in"), _money(data["cash_in"], cur)],
        [_("Cash out"), _money(data["cash_out"], cur)],
        [_("Expected in the box"), _money(data["expected_cash"], cur)],
        [_("Counted"), _money(data["counted_cash"], cur)],
        [_("Difference"), _money(data["difference"], cur)],
    ]
    notes = []
    fifty = data["fifty_fifty"]
    if fifty and fifty["last_draw"]:
        draw = fifty["last_draw"]
        notes.append(
            _("50/50: ticket %(ticket)s of %(sold)s sold, %(prize)s (%(state)s); seed %(seed)s.")
            % {
                "ticket": draw["ticket"],
                "sold": fifty["sold"],
                "prize": _money(draw["prize"], cur),
                "state": dict(Draw.State.choices)[draw["state"]],
                "seed": draw["seed"],
            }
        )
    notes += [_prize_note(paid, cur) for paid in prize_payouts(drive)]
    sheet = {
        "title": _("The night's accounts"),
        "lines": lines,
        "tables": [rows, ways, box],
        "notes": notes,
    }
    return {"accounts": sheet}


def accounts_allowed(drive: Drive, user: Any) -> bool:
    """Who prints the treasurer's sheet and sees it among the printed documents: as on the
    money page, the organizers, and the scorers where the organizer lets them take money."""
    role = role_in(drive.club, user)
    if role == Membership.Role.ORGANIZER:
        return True
    return role is not None and selectors.setup_of(drive).scorers_allowed


# The treasurer's sheet, printed as the other documents are (registered by ``money.apps``).
DOCUMENT = Part(
    kind="accounts",
    build=accounts_document,
    allowed=accounts_allowed,
    refusal=gettext_lazy("Only the organizers take money at this drive."),
)


# --- the licence's report ------------------------------------------------------------------------


def _moment(at: Any) -> str:
    """A time of the night, in the hall's time zone: 2026-11-28 20:14."""
    return f"{timezone.localtime(at):%Y-%m-%d %H:%M}"


def _price(row: dict[str, Any], currency: str) -> str:
    """A draw's price: a ticket's, and a strip's where the drive's prices apply."""
    price = _("%(price)s a ticket") % {"price": _money(row["price"], currency)}
    if row["strip_size"]:
        price += ", " + _("%(price)s a strip of %(size)s") % {
            "price": _money(row["strip_price"], currency),
            "size": row["strip_size"],
        }
    return price


def draw_name(row: dict[str, Any]) -> str:
    """The 50/50 as "50/50", a raffle item as "Raffle: Quilt"."""
    if row["draw"] == "fifty_fifty":
        return _("50/50")
    return _("Raffle: %(item)s") % {"item": row["name"]}


def ranges_text(row: dict[str, Any]) -> str:
    return ", ".join(
        str(r["first"]) if r["first"] == r["last"] else f"{r['first']}–{r['last']}"
        for r in row["ranges"]
    )


def licence_sheet(drive: Drive, report: dict[str, Any]) -> dict[str, Any]:
    """The licence's report as the sheet renderer draws it (``scoring.printing.pdf.accounts``:
    a title, paragraphs, two-column tables, notes), every word in the language active: the
    licence number, each draw's tickets (the numbers sold, how many, the price) and gross, the
    prizes paid with the winning tickets, the expenses, the net, and the draws' records."""
    cur = drive.currency
    lines = [
        f"{drive.club.name} · {drive.name} · {drive.date.isoformat()}",
        _("Lottery licence number: %(number)s") % {"number": report["licence_number"]},
    ]
    for row in report["tickets"]:
        lines.append(
            _("%(draw)s: tickets %(ranges)s; %(count)s sold at %(price)s.")
            % {
                "draw": draw_name(row),
                "ranges": ranges_text(row) or "—",
                "count": row["count"],
                "price": _price(row, cur),
            }
        )
    tickets = [[_("Tickets sold"), _("Gross")]]
    tickets += [
        [f"{draw_name(row)} ({row['count']})", _money(row["gross"], cur)]
        for row in report["tickets"]
    ]
    tickets.append([_("Gross"), _money(report["gross"], cur)])
    prizes = [[_("Prizes paid"), _("Prize")]]
    for prize in report["prizes"]:
        won = _money(prize["amount"], cur) if prize["amount"] is not None else prize["item"]
        label = _("%(draw)s, ticket %(ticket)s") % {
            "draw": draw_name(prize),
            "ticket": prize["ticket"],
        }
        prizes.append([label, won])
    prizes.append([_("Prizes paid in money"), _money(report["prizes_paid"], cur)])
    expenses = [[_("Expenses"), _("Amount")]]
    expenses += [
        [expense["note"] or str(KIND_NAMES[Kind.EXPENSE]), _money(expense["amount"], cur)]
        for expense in report["expenses"]
    ]
    expenses.append([_("Expenses"), _money(report["expenses_total"], cur)])
    net = [
        [_("Net to the charity"), ""],
        [_("Gross"), _money(report["gross"], cur)],
        [_("Prizes paid in money"), _money(report["prizes_paid"], cur)],
        [_("Expenses"), _money(report["expenses_total"], cur)],
        [_("Net"), _money(report["net"], cur)],
    ]
    states = dict(Draw.State.choices)
    notes = [_("The draws' record")] if report["draws"] else []
    notes += [draw_record(draw, states) for draw in report["draws"]]
    notes.append(
        _(
            "The draws are made in the hall, on the tickets sold; the app records each one: "
            "its seed picks the same ticket again among the tickets it was drawn from."
        )
    )
    notes.append(_("Signed by the licence holder: ______________________"))
    return {
        "title": _("The licence's report"),
        "lines": lines,
        "tables": [tickets, prizes, expenses, net],
        "notes": notes,
    }


def draw_record(draw: dict[str, Any], states: dict[str, Any]) -> str:
    """One draw's record: what was drawn, among how many, with which seed, when, by whom."""
    return _(
        "%(draw)s, draw %(round)s: ticket %(ticket)s among %(among)s, seed %(seed)s, "
        "%(at)s, drawn by %(who)s (%(state)s)."
    ) % {
        "draw": draw_name(draw),
        "round": draw["round"],
        "ticket": draw["ticket"],
        "among": draw["among"],
        "seed": draw["seed"],
        "at": _moment(draw["at"]),
        "who": draw["drawn_by"] or "—",
        "state": states[draw["state"]],
    }


def licence_pdf(drive: Drive, paper: str = "letter") -> bytes:
    """The licence's report as a one-page PDF, in the drive's language whoever asks for it,
    drawn at once by the treasurer's sheet's renderer (one page: no print queue needed)."""
    with translation.override(drive.language):
        report = selectors.licence_report(drive)
        data = {
            "document": _("The licence's report"),
            "language": drive.language,
            **labels(),
            "drive": {"slug": drive.slug, "name": drive.name, "club": drive.club.name},
            "accounts": licence_sheet(drive, report),
        }
    return render_pdf("accounts", data, paper=paper)


def licence_period_sheet(club_name: str, report: dict[str, Any]) -> dict[str, Any]:
    """The licence's report over a period (``selectors.licence_period``) as the sheet renderer
    draws it: a table a night (its licence number, tickets, gross, prizes, expenses, net), the
    totals a currency, and the nights whose report could not be made (no licence number)."""
    lines = [
        club_name,
        _("From %(starts)s to %(ends)s") % {"starts": report["from"], "ends": report["to"]},
    ]
    tables = []
    for night in report["nights"]:
        cur = night["currency"]
        tables.append(
            [
                [f"{night['date']} {night['name']}", night["licence_number"]],
                [_("Tickets sold"), str(night["tickets"])],
                [_("Gross"), _money(night["gross"], cur)],
                [_("Prizes paid in money"), _money(night["prizes_paid"], cur)],
                [_("Expenses"), _money(night["expenses_total"], cur)],
                [_("Net"), _money(night["net"], cur)],
            ]
        )
    for total in report["totals"]:
        cur = total["currency"]
        tables.append(
            [
                [_("The period (%(count)s nights)") % {"count": total["nights"]}, cur],
                [_("Tickets sold"), str(total["tickets"])],
                [_("Gross"), _money(total["gross"], cur)],
                [_("Prizes paid in money"), _money(total["prizes_paid"], cur)],
                [_("Expenses"), _money(total["expenses_total"], cur)],
                [_("Net"), _money(total["net"], cur)],
            ]
        )
    notes = [
        _("%(date)s %(name)s: no licence number set, no report made.")
        % {"date": night["date"], "name": night["name"]}
        for night in report["without_licence_number"]
    ]
    notes.append(_("Signed by the licence holder: ______________________"))
    return {
        "title": _("The licence's report for a period"),
        "lines": lines,
        "tables": tables,
        "notes": notes,
    }


def licence_period_pdf(club: Any, report: dict[str, Any], paper: str = "letter") -> bytes:
    """The licence's report over a period as a PDF, in the language active."""
    language = translation.get_language() or "en"
    data = {
        "document": _("The licence's report for a period"),
        "language": language,
        **labels(),
        "drive": {"slug": club.slug, "name": "", "club": club.name},
        "accounts": licence_period_sheet(club.name, report),
    }
    return render_pdf("accounts", data, paper=paper)
