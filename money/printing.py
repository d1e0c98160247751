"""The night's accounts on paper and in a spreadsheet: the treasurer's one-page sheet, printed
as the other documents are (``scoring.printing``: asked for on the print page, the money page
or the API, rendered by the print task, in the drive's language whoever asks for it; this
gives its words and figures and who may print it), and a CSV of every line."""

from __future__ import annotations

import csv
import io
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from drives.models import Drive, Membership
from drives.services import role_in
from money import selectors
from money.models import Draw, Kind, Way
from scoring.printing.parts import Part
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
    """The fee as the hall charges it: a person's (and so a couple's), or a couple's."""
    fee = _money(data["entry_fee"], currency)
    if data["entry_fee_per"] == "person":
        return _("Entry fee: %(fee)s a person (%(pair)s a couple)") % {
            "fee": fee,
            "pair": _money(data["couple_fee"], currency),
        }
    return _("Entry fee: %(fee)s a couple") % {"fee": fee}


def _prize_note(paid: dict[str, Any], cur: str) -> str:
    """A prize paid, as the sheet says it: "Place 1 (30% of the entry money) to couple 4:
    18.00 CAD."."""
    names = {
        "booby": _("Booby prize"),
        "half-time": _("Half-time prize"),
        "jackpot": _("Jackpot"),
        "cookie-jar": _("Cookie jar"),
    }
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
