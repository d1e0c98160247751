"""The night's accounts on paper and in a spreadsheet: a one-page PDF for the club's treasurer
(reportlab, in the drive's language whoever asks for it, as the other printed documents:
``scoring.printing.data``) and a CSV of every line."""

from __future__ import annotations

import csv
import io
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import inch
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from drives.models import Drive
from money.models import Draw, Kind, Way

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


def accounts_pdf(drive: Drive, data: dict[str, Any]) -> bytes:
    """One page: the totals by kind and by way, the net raised, and the cash box, in the
    drive's language (the hall's, whoever prints it)."""
    with translation.override(drive.language):
        return _accounts_pdf(drive, data)


def _accounts_pdf(drive: Drive, data: dict[str, Any]) -> bytes:
    buffer = io.BytesIO()
    styles = getSampleStyleSheet()
    cur = drive.currency
    doc = SimpleDocTemplate(
        buffer,
        pagesize=letter,
        title=_("The night's accounts"),
        topMargin=0.6 * inch,
        bottomMargin=0.6 * inch,
    )
    story: list[Any] = [
        Paragraph(_("The night's accounts"), styles["Title"]),
        Paragraph(f"{drive.club.name} · {drive.name} · {drive.date.isoformat()}", styles["Normal"]),
    ]
    if data["entry_fee"]:
        story.append(Paragraph(_entry_fee(data, cur), styles["Normal"]))
    story.append(Spacer(1, 0.2 * inch))
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
    style = TableStyle(
        [
            ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
            ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
            ("ALIGN", (1, 0), (1, -1), "RIGHT"),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
        ]
    )
    for table in (rows, ways, box):
        story += [
            Table(table, colWidths=[3.2 * inch, 2 * inch], style=style),
            Spacer(1, 0.25 * inch),
        ]
    fifty = data["fifty_fifty"]
    if fifty and fifty["last_draw"]:
        draw = fifty["last_draw"]
        story.append(
            Paragraph(
                _(
                    "50/50: ticket %(ticket)s of %(sold)s sold, %(prize)s (%(state)s); "
                    "seed %(seed)s."
                )
                % {
                    "ticket": draw["ticket"],
                    "sold": fifty["sold"],
                    "prize": _money(draw["prize"], cur),
                    "state": dict(Draw.State.choices)[draw["state"]],
                    "seed": draw["seed"],
                },
                styles["Normal"],
            )
        )
    doc.build(story)
    return buffer.getvalue()
