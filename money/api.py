"""The night's money in the JSON API (docs/api.md, "Money"): a router that ``config.urls``
mounts on the site's API (``api.site``), so its answers and errors are the API's own
(``{"code", "message", …}``, a ``ServiceError`` keeping its status). Organizers; scorers too
when the drive's money settings allow them. Sums are strings with two decimals, in the drive's
currency."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Annotated, Any, Literal

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext
from ninja import Router

# ninja.Query(...) is this function at run time (for a type checker ninja names an alias).
from ninja.params.functions import Query
from pydantic import Field, JsonValue, model_validator

from api.auth import MEMBERS, ORGANIZER, Caller, caller_of, club_for, drive_for
from api.schemas import answers
from drives import inputs
from drives.errors import Forbidden, ServiceError
from drives.inputs import Body
from drives.models import Drive, Membership
from money import printing, selectors, services

router = Router(tags=["money"])
JSON = dict[str, JsonValue]  # the answer, as the selectors build it
READ = answers({200: JSON}, 404)
WRITE = answers({201: JSON}, 404, 409, 422, body=True)
CHANGE = answers({200: JSON}, 404, 409, 422, body=True)
D = "/drives/{slug:slug}"


class LineIn(Body):
    kind: Annotated[str | None, inputs.LINE_KIND] = None
    amount: Annotated[Decimal | None, inputs.money("amount")] = None
    way: Annotated[str | None, inputs.WAY] = None
    couple: Annotated[int | None, inputs.checks(inputs.LINE_COUPLE, nullable=True)] = None
    note: Annotated[str, inputs.NOTE] = ""
    currency: Annotated[str | None, inputs.MONEY_CURRENCY] = None


class ReverseIn(Body):
    note: inputs.ReversalNote = ""


class TicketsIn(Body):
    count: Annotated[int, inputs.TICKET_COUNT] = 1
    first: Annotated[int | None, inputs.checks(inputs.TICKET_FIRST, nullable=True)] = None
    way: Annotated[str | None, inputs.WAY] = None
    amount: Annotated[Decimal | None, inputs.money("amount", optional=True)] = None
    currency: Annotated[str | None, inputs.MONEY_CURRENCY] = None


class ClaimIn(Body):
    way: Annotated[str | None, inputs.WAY] = None


class CountIn(Body):
    """One total, or the count of each note and coin (both, or neither: 422 bad_count)."""

    @model_validator(mode="before")
    @classmethod
    def _one_way(cls, data: Any) -> Any:
        if isinstance(data, dict) and set(data) <= set(cls.model_fields):
            try:
                inputs.one_count(data.get("total"), data.get("denominations"))
            except ServiceError as error:
                raise inputs.refused(error) from None
        return data

    total: Annotated[Decimal | None, inputs.money("total", zero=True, optional=True)] = None
    denominations: Annotated[dict[str, int] | None, inputs.DENOMINATIONS_COUNTED] = None


class RaffleIn(Body):
    name: Annotated[str | None, inputs.RAFFLE_NAME] = None
    ticket_price: Annotated[Decimal | None, inputs.money("ticket_price", blank=True)] = None


class SetupIn(Body):
    opening_float: Annotated[Decimal | None, inputs.money("opening_float", zero=True)] = None
    ticket_price: Annotated[Decimal | None, inputs.money("ticket_price")] = None
    strip_size: Annotated[int | None, inputs.STRIP_SIZE] = None
    strip_price: Annotated[Decimal | None, inputs.money("strip_price")] = None
    share_percent: Annotated[int | None, inputs.SHARE_PERCENT] = None
    scorers_allowed: Annotated[bool | None, inputs.SCORERS_ALLOWED] = None
    licence_number: Annotated[str | None, inputs.LICENCE_NUMBER] = None
    member_fee: Annotated[Decimal | None, inputs.money("member_fee", blank=True)] = None


class PotIn(Body):
    name: Annotated[str, Field(description="The pot's name (1 to 120 characters).")]
    kind: Annotated[
        Literal["jar", "jackpot", "ace"],
        Field(
            description="jar: the cookie jar carried over; jackpot: won by a couple with "
            '"wins" wins in a night; ace: "catch the ace", won when a drawn ticket\'s sealed '
            "card is the ace of spades."
        ),
    ]
    opening: Annotated[Decimal | None, inputs.money("opening", zero=True, optional=True)] = None
    wins: Annotated[int | None, Field(description="A jackpot's wins (1 to 60; 25).")] = None
    cards: Annotated[int | None, Field(description="The ace's sealed cards (52).")] = None


class PotAddIn(Body):
    amount: Annotated[Decimal | None, inputs.money("amount")] = None
    way: Annotated[str | None, inputs.WAY] = None
    note: Annotated[str, inputs.NOTE] = ""


class PotDrawIn(Body):
    ticket: Annotated[int, Field(description="The ticket drawn (on paper: the law's draw).")]
    card: Annotated[int, Field(description="The sealed card its holder chose (1 to cards).")]
    found: Annotated[str, Field(description="What the card was (words, 40 at most).")] = ""
    ace: Annotated[bool, Field(description="The ace of spades: the pot is won.")] = False
    winner: Annotated[str, Field(description="The ticket's holder (needed with ace).")] = ""
    way: Annotated[str | None, inputs.WAY] = None


class PotPayIn(Body):
    couple: Annotated[int | None, Field(description="The winning couple (a jackpot's).")] = None
    winner: Annotated[str, Field(description="The winner's name (else the couple's).")] = ""
    way: Annotated[str | None, inputs.WAY] = None


def _ok(data: Any, status: int = 200) -> JsonResponse:
    return JsonResponse(data, status=status, safe=False, encoder=DjangoJSONEncoder)


def money_drive(request: HttpRequest, slug: str) -> tuple[Drive, Caller]:
    """The drive, if the caller is its organizer, or a scorer where scorers take money."""
    caller = caller_of(request)
    drive = drive_for(caller, slug, roles=MEMBERS)
    allowed_scorers = selectors.setup_of(drive).scorers_allowed
    role = (
        Membership.objects.filter(club=drive.club, user=caller.user)
        .values_list("role", flat=True)
        .first()
    )
    if role != Membership.Role.ORGANIZER and not allowed_scorers:
        raise Forbidden("not_allowed", gettext("Only the organizers take money at this drive."))
    return drive, caller


def accounts_json(drive: Drive) -> dict[str, Any]:
    data = selectors.accounts(drive)
    setup = data.pop("setup")
    data["setup"] = {
        "opening_float": setup.opening_float,
        "ticket_price": setup.ticket_price,
        "strip_size": setup.strip_size,
        "strip_price": setup.strip_price,
        "share_percent": setup.share_percent,
        "scorers_allowed": setup.scorers_allowed,
        "licence_number": setup.licence_number,
        "member_fee": setup.member_fee,
    }
    return data


@router.get(
    D + "/accounts", response=READ, url_name="money-accounts", summary="The night's accounts"
)
def accounts(request: HttpRequest, slug: str) -> JsonResponse:
    drive, _caller = money_drive(request, slug)
    return _ok(accounts_json(drive))


@router.post(
    D + "/accounts/lines", response=WRITE, url_name="money-lines", summary="Record a line by hand"
)
def line_add(request: HttpRequest, slug: str, payload: LineIn) -> JsonResponse:
    drive, caller = money_drive(request, slug)
    line = services.line_record(drive=drive, actor=caller.actor, **payload.sent())
    return _ok({"id": line.pk, "kind": line.kind, "amount": line.amount, "way": line.way}, 201)


@router.post(
    D + "/accounts/lines/{int:line}/reverse",
    response=WRITE,
    url_name="money-reverse",
    summary="Correct a line by a reversing one",
)
def line_reverse(request: HttpRequest, slug: str, line: int, payload: ReverseIn) -> JsonResponse:
    drive, caller = money_drive(request, slug)
    back = services.line_reverse(drive=drive, line_id=line, actor=caller.actor, **payload.sent())
    return _ok({"id": back.pk, "reverses": line, "amount": back.amount}, 201)


@router.post(
    D + "/accounts/count", response=WRITE, url_name="money-count", summary="The cash box counted"
)
def count(request: HttpRequest, slug: str, payload: CountIn) -> JsonResponse:
    drive, caller = money_drive(request, slug)
    services.cash_count(drive=drive, actor=caller.actor, **payload.sent())
    data = selectors.accounts(drive)
    keys = ("expected_cash", "counted_cash", "difference", "counted_denominations")
    return _ok({key: data[key] for key in keys}, 201)


@router.patch(
    D + "/accounts/setup", response=CHANGE, url_name="money-setup", summary="Float, prices, share"
)
def setup(request: HttpRequest, slug: str, payload: SetupIn) -> JsonResponse:
    caller = caller_of(request)
    drive = drive_for(caller, slug, roles=(ORGANIZER,))  # the settings are the organizer's
    services.setup_update(drive=drive, actor=caller.actor, **payload.sent())
    return _ok(accounts_json(drive)["setup"])


@router.get(
    D + "/accounts/licence-report",
    response=answers({200: JSON}, 404, 422),
    url_name="money-licence-report",
    summary="The licence's report of the 50/50 and the raffles",
    description="What a lottery licence's report asks, from the ledger: the licence number; "
    "the tickets of each draw (the 50/50 and each raffle item: the numbers sold as ranges, how "
    "many, the price, the gross); the prizes paid with the winning tickets (the 50/50's "
    "payout, a raffle's item); the expenses; the net (gross − prizes paid in money − "
    "expenses); each draw's record (seed, time, who drew). ?format=pdf: the same as a "
    "one-page PDF in the drive's language. 422 no_licence_number until the organizer sets "
    "licence_number (PATCH …/accounts/setup).",
    openapi_extra={
        "responses": {
            200: {
                "description": "The report (JSON), or with ?format=pdf its PDF (an attachment)",
                "content": {
                    "application/json": {"schema": {"type": "object"}},
                    "application/pdf": {"schema": {"type": "string", "format": "binary"}},
                },
            }
        }
    },
)
def licence_report(
    request: HttpRequest,
    slug: str,
    format: Literal["json", "pdf"] = Query("json", description="json, or pdf for the sheet"),
) -> HttpResponse:
    drive, _caller = money_drive(request, slug)
    if format == "pdf":
        response = HttpResponse(printing.licence_pdf(drive), content_type="application/pdf")
        name = f"{drive.slug}-licence-report.pdf"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
    return _ok(selectors.licence_report(drive))


def _sale(sale: Any) -> dict[str, Any]:
    return {
        "first": sale.first,
        "last": sale.last,
        "amount": sale.line.amount,
        "way": sale.line.way,
        "line": sale.line_id,
    }


def _draw(draw: Any) -> dict[str, Any]:
    return {
        "round": draw.round,
        "ticket": draw.ticket,
        "seed": draw.seed,
        "among": draw.sold,
        "prize": draw.prize,
        "state": draw.state,
    }


@router.post(
    D + "/fifty-fifty/tickets",
    response=WRITE,
    url_name="fifty-tickets",
    summary="Sell 50/50 tickets",
)
def fifty_tickets(request: HttpRequest, slug: str, payload: TicketsIn) -> JsonResponse:
    drive, caller = money_drive(request, slug)
    return _ok(_sale(services.tickets_sell(drive=drive, actor=caller.actor, **payload.sent())), 201)


@router.post(
    D + "/fifty-fifty/draw", response=WRITE, url_name="fifty-draw", summary="Draw the 50/50"
)
def fifty_draw(request: HttpRequest, slug: str) -> JsonResponse:
    drive, caller = money_drive(request, slug)
    return _ok(_draw(services.draw_make(drive=drive, actor=caller.actor)), 201)


@router.post(
    D + "/fifty-fifty/claim", response=CHANGE, url_name="fifty-claim", summary="The 50/50 paid out"
)
def fifty_claim(request: HttpRequest, slug: str, payload: ClaimIn) -> JsonResponse:
    drive, caller = money_drive(request, slug)
    return _ok(_draw(services.draw_claim(drive=drive, actor=caller.actor, **payload.sent())))


@router.post(
    D + "/fifty-fifty/unclaimed",
    response=CHANGE,
    url_name="fifty-unclaimed",
    summary="Nobody holds the ticket drawn: set it aside for a redraw",
)
def fifty_unclaimed(request: HttpRequest, slug: str) -> JsonResponse:
    drive, caller = money_drive(request, slug)
    return _ok(_draw(services.draw_unclaimed(drive=drive, actor=caller.actor)))


@router.post(D + "/raffles", response=WRITE, url_name="raffles", summary="Add a raffle item")
def raffle_add(request: HttpRequest, slug: str, payload: RaffleIn) -> JsonResponse:
    drive, caller = money_drive(request, slug)
    pool = services.raffle_add(drive=drive, actor=caller.actor, **payload.sent())
    return _ok({"id": pool.pk, "name": pool.name}, 201)


R = D + "/raffles/{int:raffle}"


@router.post(
    R + "/tickets",
    response=WRITE,
    url_name="raffle-tickets",
    summary="Sell tickets of a raffle item",
)
def raffle_tickets(
    request: HttpRequest, slug: str, raffle: int, payload: TicketsIn
) -> JsonResponse:
    drive, caller = money_drive(request, slug)
    sale = services.tickets_sell(drive=drive, actor=caller.actor, raffle=raffle, **payload.sent())
    return _ok(_sale(sale), 201)


@router.post(R + "/draw", response=WRITE, url_name="raffle-draw", summary="Draw a raffle item")
def raffle_draw(request: HttpRequest, slug: str, raffle: int) -> JsonResponse:
    drive, caller = money_drive(request, slug)
    return _ok(_draw(services.draw_make(drive=drive, actor=caller.actor, raffle=raffle)), 201)


@router.post(
    R + "/claim", response=CHANGE, url_name="raffle-claim", summary="A raffle item handed over"
)
def raffle_claim(request: HttpRequest, slug: str, raffle: int) -> JsonResponse:
    drive, caller = money_drive(request, slug)
    return _ok(_draw(services.draw_claim(drive=drive, actor=caller.actor, raffle=raffle)))


@router.post(
    R + "/unclaimed",
    response=CHANGE,
    url_name="raffle-unclaimed",
    summary="A raffle ticket unclaimed",
)
def raffle_unclaimed(request: HttpRequest, slug: str, raffle: int) -> JsonResponse:
    drive, caller = money_drive(request, slug)
    return _ok(_draw(services.draw_unclaimed(drive=drive, actor=caller.actor, raffle=raffle)))


@router.get(
    "/clubs/{club}/money",
    response=READ,
    url_name="club-money",
    summary="The net raised by each of the club's drives",
)
def club_money(request: HttpRequest, club: str) -> JsonResponse:
    found = club_for(caller_of(request), club)
    rows = selectors.club_net(found)
    return _ok(
        {
            "club": found.slug,
            "drives": [
                {
                    "slug": row["drive"].slug,
                    "name": row["drive"].name,
                    "date": row["drive"].date,
                    "currency": row["drive"].currency,
                    "money_in": row["money_in"],
                    "money_out": row["money_out"],
                    "net": row["net"],
                }
                for row in rows
            ],
        }
    )


@router.get(
    "/clubs/{club}/money/licence-report",
    response=answers({200: JSON}, 403, 404, 422),
    url_name="club-licence-report",
    summary="The licence's report over a period (a season, the licence's year)",
    description="The club's organizers. Each night between from and to (inclusive) that sold "
    "50/50 or raffle tickets: its licence_number, tickets, gross, prizes_paid, expenses_total "
    "and net, as the night's own licence report says; without_licence_number lists the nights "
    "whose report cannot be made; totals, one per currency. format=pdf gives the sheet. to "
    "before from: 422 bad_period.",
)
def club_licence_report(
    request: HttpRequest,
    club: str,
    starts: date = Query(..., alias="from", description="the first day, YYYY-MM-DD"),
    ends: date = Query(..., alias="to", description="the last day, YYYY-MM-DD"),
    format: Literal["json", "pdf"] = Query("json", description="json, or pdf for the sheet"),
) -> HttpResponse:
    found = club_for(caller_of(request), club)
    report = licence_period_of(found, starts, ends)
    if format == "pdf":
        response = HttpResponse(
            printing.licence_period_pdf(found, report), content_type="application/pdf"
        )
        name = f"{found.slug}-licence-report-{starts}-{ends}.pdf"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
    return _ok(report)


def licence_period_of(club: Any, starts: date, ends: date) -> dict[str, Any]:
    """``selectors.licence_period``, a period that ends before it starts refused (422)."""
    if ends < starts:
        raise ServiceError(
            "bad_period",
            gettext("The period ends (%(ends)s) before it starts (%(starts)s).")
            % {"starts": starts, "ends": ends},
            field="to",
        )
    return selectors.licence_period(club, starts, ends)


# --- the club's pots -----------------------------------------------------------------------------

POTS = (
    "A pot of the club grows from night to night until won: each drive carries the club's "
    "open pots, records what went in (a pot_in line of its ledger) and what was paid (a "
    "pot_paid line). A pot of another club: 422 pot_of_another_club, nothing written, the "
    "refusal audited; a pot won: 409 pot_won."
)


def _entry(entry: Any) -> dict[str, Any]:
    return {
        "pot": entry.pot_id,
        "kind": entry.kind,
        "amount": entry.amount,
        "line": entry.line_id,
        "ticket": entry.ticket,
        "card": entry.card,
        "found": entry.card_found,
        "ace": entry.ace,
        "winner": entry.winner,
        "couple": entry.couple,
        "holds": selectors.pot_balance(entry.pot),
        "state": entry.pot.state,
    }


@router.get(
    "/clubs/{club}/pots",
    response=READ,
    url_name="club-pots",
    summary="The club's pots and their history across the drives",
    description="Each pot: kind (jar, jackpot, ace), state (open, won), what it holds, its "
    "opened cards, and its history drive by drive (carried_in, added, draws, winner, paid). "
    + POTS,
)
def club_pots(request: HttpRequest, club: str) -> JsonResponse:
    found = club_for(caller_of(request), club, roles=MEMBERS)
    return _ok({"club": found.slug, "pots": selectors.club_pots(found)})


@router.post(
    "/clubs/{club}/pots",
    response=answers({201: JSON}, 404, 422, body=True),
    url_name="club-pot-open",
    summary="Open a pot of the club",
    description="Organizers. A jackpot takes wins (25 unless told), catch the ace its sealed "
    "cards (52), any pot an opening amount it already holds.",
)
def club_pot_open(request: HttpRequest, club: str, payload: PotIn) -> JsonResponse:
    caller = caller_of(request)
    found = club_for(caller, club)
    pot = services.pot_open(club=found, actor=caller.actor, **payload.sent())
    return _ok(selectors.pot_view(pot), 201)


@router.get(D + "/pots", response=READ, url_name="money-pots", summary="The pots a drive carries")
def drive_pots(request: HttpRequest, slug: str) -> JsonResponse:
    drive, _caller = money_drive(request, slug)
    return _ok({"drive": drive.slug, "pots": selectors.drive_pots(drive)})


P = D + "/pots/{int:pot}"


@router.post(
    P + "/carry",
    response=WRITE,
    url_name="money-pot-carry",
    summary="The drive carries the club's pot",
    description="Records what the pot holds as the night begins (again: the same entry). " + POTS,
)
def pot_carry(request: HttpRequest, slug: str, pot: int) -> JsonResponse:
    drive, caller = money_drive(request, slug)
    return _ok(_entry(services.pot_carry(drive=drive, actor=caller.actor, pot=pot)), 201)


@router.post(
    P + "/add",
    response=WRITE,
    url_name="money-pot-add",
    summary="Money put in the pot tonight",
    description="A pot_in line of the night's ledger (cash unless way says otherwise). " + POTS,
)
def pot_add(request: HttpRequest, slug: str, pot: int, payload: PotAddIn) -> JsonResponse:
    drive, caller = money_drive(request, slug)
    entry = services.pot_add(drive=drive, actor=caller.actor, pot=pot, **payload.sent())
    return _ok(_entry(entry), 201)


@router.post(
    P + "/draw",
    response=WRITE,
    url_name="money-pot-draw",
    summary="Catch the ace: a sealed card opened",
    description="The ticket drawn picks a sealed card; opened, it is found. With ace=true "
    "(the ace of spades) the whole pot is paid to winner (a pot_paid line), else it rolls "
    "on. 409 card_opened: that card was opened on an earlier night; 409 not_catch_the_ace "
    "for another kind of pot. " + POTS,
)
def pot_draw(request: HttpRequest, slug: str, pot: int, payload: PotDrawIn) -> JsonResponse:
    drive, caller = money_drive(request, slug)
    entry = services.pot_draw(drive=drive, actor=caller.actor, pot=pot, **payload.sent())
    return _ok(_entry(entry), 201)


@router.post(
    P + "/pay",
    response=WRITE,
    url_name="money-pot-pay",
    summary="The pot won and paid",
    description="The jar or the jackpot paid whole to couple (or winner): a pot_paid line. "
    "A jackpot's couple needs its wins tonight (409 not_enough_wins); catch the ace is won "
    "by its draw (409 draw_the_cards). " + POTS,
)
def pot_pay(request: HttpRequest, slug: str, pot: int, payload: PotPayIn) -> JsonResponse:
    drive, caller = money_drive(request, slug)
    entry = services.pot_pay(drive=drive, actor=caller.actor, pot=pot, **payload.sent())
    return _ok(_entry(entry), 201)
