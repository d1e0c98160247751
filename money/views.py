"""The money page of a drive (organizers; scorers when the drive allows them): sell 50/50 and
raffle tickets at the door in two keystrokes (the strip's button has the focus: Enter sells
it), record a line, reverse one, draw, pay out, count the box; the pot refreshes itself
(static/js/poll.js, an ETag of the drive's version); the projector's 50/50 screen; the
accounts as CSV. The treasurer's one-page sheet is a printed document like the others
(``money.printing.DOCUMENT``): the money page's button asks the print page for it, and its
old address leads to the print page with the sheet chosen. The licence's report of the 50/50 and
the raffles has its page here, its PDF in the API. The club's pots (``pots``): what each holds,
money put in tonight, the cards of "catch the ace" opened, the winner paid, and each pot's
history across the drives."""

from __future__ import annotations

from datetime import date as Date
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from drives.errors import ServiceError
from drives.models import Drive, Membership
from drives.views import (
    club_of_member,
    desk_actor,
    drive_links,
    drive_page,
    error_text,
    forbidden,
)
from money import printing, selectors, services
from money.models import HAND_KINDS, Draw, Kind, Pot, Way
from scoring.pages.conditional import not_modified, poll_key, tagged

ORGANIZER = Membership.Role.ORGANIZER
# The notes and coins of the count by denomination (Canadian: no 1 or 2 dollar note, no cent).
DENOMINATIONS = ("100", "50", "20", "10", "5", "2", "1", "0.25", "0.10", "0.05")


def _allowed(drive: Drive, role: str) -> bool:
    return role == ORGANIZER or selectors.setup_of(drive).scorers_allowed


def _optional(value: str | None) -> Any:
    value = (value or "").strip()
    if not value:
        return None
    return int(value) if value.isdigit() else value


def _act(request: HttpRequest, drive: Drive, role: str) -> str:
    post = request.POST
    actor = desk_actor(request)
    action = post.get("action", "")
    raffle = _optional(post.get("raffle"))
    if action == "sell":
        sale = services.tickets_sell(
            drive=drive,
            actor=actor,
            count=_optional(post.get("count")),
            first=_optional(post.get("first")),
            raffle=raffle,
            way=post.get("way"),
        )
        return _("Sold tickets %(first)s–%(last)s for %(amount)s.") % {
            "first": sale.first,
            "last": sale.last,
            "amount": sale.line.amount,
        }
    if action == "line":
        services.line_record(
            drive=drive,
            actor=actor,
            kind=post.get("kind"),
            amount=post.get("amount"),
            way=post.get("way"),
            couple=_optional(post.get("couple")),
            note=post.get("note", ""),
        )
        return _("Line recorded.")
    if action == "reverse":
        services.line_reverse(drive=drive, line_id=_optional(post.get("line")), actor=actor)
        return _("Line reversed.")
    if action == "draw":
        draw = services.draw_make(drive=drive, actor=actor, raffle=raffle)
        return _("Ticket %(ticket)s is drawn.") % {"ticket": draw.ticket}
    if action == "claim":
        services.draw_claim(drive=drive, actor=actor, raffle=raffle, way=post.get("way"))
        return _("Paid out.")
    if action == "unclaimed":
        services.draw_unclaimed(drive=drive, actor=actor, raffle=raffle)
        return _("Set aside: draw again.")
    if action == "raffle":
        services.raffle_add(
            drive=drive,
            actor=actor,
            name=post.get("name"),
            ticket_price=_optional(post.get("ticket_price")),
        )
        return _("Raffle item added.")
    if action == "count":
        counted = {face: post[f"d-{face}"] for face in DENOMINATIONS if post.get(f"d-{face}")}
        total = None if counted else _optional(post.get("total"))
        services.cash_count(drive=drive, actor=actor, total=total, denominations=counted or None)
        return _("The count is recorded.")
    if action == "setup":
        if role != ORGANIZER:
            raise ServiceError("organizers_only", _("Only the organizers change these settings."))
        fields = {
            k: _optional(post.get(k))
            for k in ("opening_float", "ticket_price", "strip_size", "strip_price", "share_percent")
            if post.get(k)
        }
        if "licence_number" in post:  # sent empty, it clears the number
            fields["licence_number"] = post["licence_number"]
        if "member_fee" in post:  # sent empty: no members' price
            fields["member_fee"] = post["member_fee"].strip()
        services.setup_update(drive=drive, actor=actor, **fields)
        return _("Settings saved.")
    raise ServiceError("bad_action", _("Choose what to do."))


@drive_page()
def money_page(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    if not _allowed(drive, role):
        return forbidden(request, drive, (ORGANIZER,))
    if request.method == "POST":
        try:
            messages.success(request, _act(request, drive, role))
        except ServiceError as error:
            messages.error(request, error_text(error))
        return redirect("money:page", slug=drive.slug)
    data = selectors.accounts(drive)
    kinds, ways = dict(Kind.choices), dict(Way.choices)
    for line in data["lines"]:
        line["kind_name"], line["way_name"] = kinds[line["kind"]], ways[line["way"]]
    return render(
        request,
        "money/money_page.html",
        {
            "drive": drive,
            "data": data,
            "links": drive_links(drive, "money:page", role),
            "ways": Way.choices,
            "hand_kinds": [(k, v) for k, v in Kind.choices if k in HAND_KINDS],
            "setup": data["setup"],
            "denominations": DENOMINATIONS,
            "role": role,
        },
    )


def _pot(request: HttpRequest, drive: Drive, template: str, page: str) -> HttpResponse:
    key = poll_key(page, drive)
    unchanged = not_modified(request, key)
    if unchanged is not None:
        return unchanged
    data = selectors.accounts(drive)
    return tagged(render(request, template, {"drive": drive, "data": data}), key)


@drive_page()
def pot(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    """The 50/50's pot and last draw, polled by the money page."""
    return _pot(request, drive, "money/_pot.html", "money-pot")


@drive_page()
def projector(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    """The projector's 50/50 screen: the pot growing, then the ticket drawn and its prize."""
    if request.GET.get("fragment"):
        return _pot(request, drive, "money/_projector_pot.html", "money-projector")
    data = selectors.accounts(drive)
    return render(request, "money/projector.html", {"drive": drive, "data": data})


@drive_page()
def accounts_csv_view(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    if not _allowed(drive, role):
        return forbidden(request, drive, (ORGANIZER,))
    text = printing.accounts_csv(drive, selectors.accounts(drive))
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{drive.slug}-accounts.csv"'
    return response


@drive_page()
def accounts_pdf_view(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    """The treasurer's sheet's former address: the print page, the sheet chosen (a bookmark
    keeps working; printing is a POST there, as for every document)."""
    if not _allowed(drive, role):
        return forbidden(request, drive, (ORGANIZER,))
    page = reverse("night:print", kwargs={"slug": drive.slug})
    return redirect(f"{page}?document={printing.DOCUMENT.kind}")


@drive_page()
def licence_report(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    """The licence's report of the 50/50 and the raffles (``selectors.licence_report``), in
    the drive's language whoever reads it, to print or to copy into the licence's form; its
    PDF is the API's (``?format=pdf``), drawn at once. Without a licence number: a 422 page
    saying where to set it."""
    if not _allowed(drive, role):
        return forbidden(request, drive, (ORGANIZER,))
    with translation.override(drive.language):
        request.LANGUAGE_CODE = drive.language
        context: dict[str, Any] = {"drive": drive, "links": drive_links(drive, "", role)}
        try:
            report = selectors.licence_report(drive)
        except ServiceError as error:
            context["problem"] = error_text(error)
            return render(request, "money/licence_report.html", context, status=error.status)
        for row in report["tickets"] + report["prizes"] + report["draws"]:
            row["title"] = printing.draw_name(row)
        for row in report["tickets"]:
            row["ranges_text"] = printing.ranges_text(row)
        states = dict(Draw.State.choices)
        for row in report["draws"]:
            row["state_name"] = states[row["state"]]
        context["report"] = report
        return render(request, "money/licence_report.html", context)


@login_required
def licence_period(request: HttpRequest, club: str) -> HttpResponse:
    """The licence's report over a period, for the club's organizers: the nights between the
    dates asked (a season's, from its page; by default this year's), their totals, its PDF."""
    found, _role = club_of_member(
        request, club, refusal=_("Only the club's organizers can read the licence's report.")
    )
    today = timezone.localdate()
    context: dict[str, Any] = {"club": found}
    try:
        starts = Date.fromisoformat(request.GET.get("from") or f"{today.year}-01-01")
        ends = Date.fromisoformat(request.GET.get("to") or f"{today.year}-12-31")
    except ValueError:
        context["problem"] = _("A day is written YYYY-MM-DD, like 2026-12-31.")
        return render(request, "money/licence_period.html", context, status=422)
    context |= {"starts": starts, "ends": ends}
    if ends < starts:
        context["problem"] = _("The period ends (%(ends)s) before it starts (%(starts)s).") % {
            "starts": starts,
            "ends": ends,
        }
        return render(request, "money/licence_period.html", context, status=422)
    context["report"] = selectors.licence_period(found, starts, ends)
    return render(request, "money/licence_period.html", context)


def _pot_act(request: HttpRequest, drive: Drive, role: str) -> str:
    post = request.POST
    actor = desk_actor(request)
    action = post.get("action", "")
    pot = _optional(post.get("pot"))
    if action == "open":
        if role != ORGANIZER:
            raise ServiceError("organizers_only", _("Only the organizers open a pot."))
        made = services.pot_open(
            club=drive.club,
            actor=actor,
            name=post.get("name"),
            kind=post.get("kind"),
            opening=_optional(post.get("opening")),
            wins=_optional(post.get("wins")),
            cards=_optional(post.get("cards")),
        )
        return _("The %(pot)s is open.") % {"pot": made.name}
    if action == "carry":
        services.pot_carry(drive=drive, actor=actor, pot=pot)
        return _("The pot is carried into tonight.")
    if action == "add":
        entry = services.pot_add(
            drive=drive, actor=actor, pot=pot, amount=post.get("amount"), way=post.get("way")
        )
        return _("%(amount)s put in the %(pot)s.") % {
            "amount": entry.amount,
            "pot": entry.pot.name,
        }
    if action == "draw":
        entry = services.pot_draw(
            drive=drive,
            actor=actor,
            pot=pot,
            ticket=_optional(post.get("ticket")),
            card=_optional(post.get("card")),
            found=post.get("found", ""),
            ace=post.get("ace") == "on",
            winner=post.get("winner", ""),
            way=post.get("way"),
        )
        if entry.ace:
            return _("The ace of spades! %(winner)s wins %(amount)s.") % {
                "winner": entry.winner,
                "amount": entry.amount,
            }
        return _("Card %(card)s is not the ace: the pot rolls on.") % {"card": entry.card}
    if action == "pay":
        entry = services.pot_pay(
            drive=drive,
            actor=actor,
            pot=pot,
            couple=_optional(post.get("couple")),
            winner=post.get("winner", ""),
            way=post.get("way"),
        )
        return _("%(winner)s wins %(amount)s.") % {"winner": entry.winner, "amount": entry.amount}
    raise ServiceError("bad_action", _("Choose what to do."))


@drive_page()
def pots(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    """The club's pots at this drive: each open one with what it holds, money put in, the
    sealed cards of "catch the ace" to draw or the winner to pay, and its history."""
    if not _allowed(drive, role):
        return forbidden(request, drive, (ORGANIZER,))
    if request.method == "POST":
        try:
            messages.success(request, _pot_act(request, drive, role))
        except ServiceError as error:
            messages.error(request, error_text(error))
        return redirect("money:pots", slug=drive.slug)
    rows = selectors.drive_pots(drive)
    for row in rows:
        opened = set(row["opened"])
        row["sealed_cards"] = [n for n in range(1, row["cards"] + 1) if n not in opened]
        row["carried_here"] = any(night["drive"] == drive.slug for night in row["history"])
    return render(
        request,
        "money/pots.html",
        {
            "drive": drive,
            "pots": rows,
            "links": drive_links(drive, "money:page", role),
            "ways": Way.choices,
            "kinds": Pot.Kind.choices,
            "role": role,
        },
    )
