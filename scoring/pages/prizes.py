"""The prize pages of a night (docs/rules.md §8–§10): the prize set-up and table, "Settle prizes"
(awarding every unshared place and opening the ties), the tie procedure as a guided flow one
tie at a time (choices, decision, then the split's shares, a cut recorded or drawn by the
system, or a play-off's games), and the cookie jar draw.

Members of the club see every page; the set-up, settling and the cookie jar draw are the
organizer's (403 for a scorer), the tie procedure is any member's (as in the API). Each
action calls one service of ``scoring.prizes.services``; a ``ServiceError`` is shown naming the
problem (the page again, with the error), never a 500. Reads are
``scoring.prizes.selectors``'.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_GET, require_POST

from drives.errors import ServiceError
from drives.models import Couple, Drive
from drives.views import MEMBERS, ORGANIZER, desk_actor, drive_links, drive_page
from engine.cards import Card, CardError
from engine.prizes import PrizeError, judge_cut
from engine.scores import check_final_score, legal_final_scores
from scoring.models import Award, CookieJarDraw, CutCard, Tie
from scoring.pages.forms_prizes import (
    BuyInForm,
    CookieJarForm,
    CutCardsForm,
    CutDrawForm,
    CutRuleForm,
    PlayoffForm,
    PrizeSetupForm,
    SettleForm,
    cut_fields,
    cut_rule_of,
)
from scoring.pages.live_access import parse_points
from scoring.prizes.selectors import (
    prize_table,
    prizes_before_play,
    setup_view,
    tie_view,
    ties_list,
)
from scoring.prizes.services import (
    cookie_jar_draw,
    prize_setup_update,
    prizes_open_ties,
    tie_choose,
    tie_cut_draw,
    tie_cut_record,
    tie_decide,
    tie_get,
    tie_playoff_result,
)

CHOICES = ("split", "cut", "play-off", "forfeit")


def _pretty(card: str) -> str:
    try:
        return Card.parse(card).pretty
    except CardError:
        return card


def _red(card: str) -> bool:
    return card[-1:].upper() in ("H", "D")


def score_example(drive: Drive) -> str:
    """A final score to show as an example ("like 55-35"), one the drive's ruleset allows: from
    the engine's legal scores, or for auction (unbounded below) the target against the first
    possible score under it."""
    rules = drive.rules_in_play()
    try:
        scores = legal_final_scores(rules)
    except ValueError:
        for loser in range(rules.target // 2 // 5 * 5, -5, -5):
            if check_final_score(rules.target, loser, rules).status == "ok":
                return f"{rules.target}-{loser}"
        return f"{rules.target}-0"
    winner, loser = scores[len(scores) // 2]
    return f"{winner}-{loser}"


def decorate_tie(view: dict[str, Any], ace_high: bool, highest: bool = False) -> dict[str, Any]:
    """A tie as the pages show it: cut rounds with pretty cards and who cut again (``lowest``
    names the winning card's couples: the highest card's with ``highest``), the play-off's
    rounds and its matches still to play."""
    rounds = []
    for rnd in view["cut_rounds"]:
        cards = {int(c): card for c, card in rnd["cards"].items()}
        try:
            lowest = list(
                judge_cut(
                    {c: Card.parse(t) for c, t in cards.items()}, ace_high=ace_high, highest=highest
                ).lowest
            )
        except (CardError, PrizeError):
            lowest = []
        rounds.append(
            rnd
            | {
                "rows": [
                    {
                        "couple": c,
                        "card": cards[c],
                        "pretty": _pretty(cards[c]),
                        "red": _red(cards[c]),
                        "lowest": c in lowest,
                    }
                    for c in sorted(cards)
                ],
                "lowest": lowest,
                "again": len(lowest) > 1,
            }
        )
    contenders = list(view["playing"])
    if rounds:
        contenders = rounds[-1]["lowest"] if rounds[-1]["again"] else []
    by_round: dict[int, list[dict[str, Any]]] = {}
    for m in view["matches"]:
        by_round.setdefault(m["round"], []).append(m)
    pending = [
        m | {"key": f"{m['match'][0]}-{m['match'][1]}"}
        for m in view["matches"]
        if not m["bye"] and m["winner"] is None and m["round"] == max(by_round, default=0)
    ]
    latest: dict[int, dict[str, Any]] = {}
    for c in view["choices"]:
        latest[c["couple"]] = c
    return view | {
        "high": highest,
        "rounds": rounds,
        "seeds": sorted({r["seed"] for r in rounds if r["seed"] is not None}),
        "contenders": contenders,
        "playoff_rounds": [{"round": n, "matches": by_round[n]} for n in sorted(by_round)],
        "pending": pending,
        "latest": latest,
    }


def games_text(games: list[int]) -> str:
    """The cookie jar's drawn games as people read them: in numeric order (the draw's own
    order stays in the record, the export and the API)."""
    return ", ".join(str(g) for g in sorted(games))


def for_pages(table: dict[str, Any]) -> dict[str, Any]:
    """The prize table as the pages show it: the cookie jar's drawn games in numeric order."""
    jar = table["cookie_jar"]
    if jar.get("drawn"):
        drawn = jar["drawn"] | {"games": sorted(jar["drawn"]["games"])}
        table = table | {"cookie_jar": jar | {"drawn": drawn}}
    return table


HOW = {
    "split": _lazy("split"),
    "cut": _lazy("won the cut"),
    "play-off": _lazy("won the play-off"),
    "forfeit-award": _lazy("the others forfeited"),
}


RULE_WORDS = {
    "most_lost_in_a_row": _lazy("most games lost in a row"),
    "most_won_in_a_row": _lazy("most games won in a row"),
    "most_lost": _lazy("most games lost in all"),
}


def _prize_words(amount: str | None, description: str, currency: str) -> str:
    """A prize as the hall reads it: "60.00 CAD", or the thing ("a ham")."""
    if amount is not None:
        return f"{amount} {currency}"
    return description or ""


def rule_words(named: dict[str, Any]) -> str:
    """A named prize's rule as the hall reads it: "most games lost in a row"."""
    if named["rule"] == "best_after":
        return _("most games won after game %(n)s") % {"n": named["after_game"]}
    return str(RULE_WORDS.get(named["rule"], named["rule"]))


def prize_wall(table: dict[str, Any], names: dict[int, str]) -> list[dict[str, Any]]:
    """The prizes as the projector shows them, one row per prize: its label (the place,
    "Booby", "Half time", "Jackpot", "Cookie jar"), the prize, and a line per couple with its
    names, what it takes and how (split, won the cut …); a tie or an empty place says so."""
    cur = table["currency"]

    def line(couple: int, prize: str = "", how: str = "") -> dict[str, Any]:
        return {
            "couple": couple,
            "name": names.get(couple, ""),
            "prize": prize,
            "how": HOW.get(how, ""),
        }

    def entry_row(key: str, label: str, entry: dict[str, Any]) -> dict[str, Any]:
        prize = _prize_words(
            entry["prize"].get("amount"), entry["prize"].get("description", ""), cur
        )
        row = {
            "key": key,
            "label": label,
            "status": entry["status"],
            "prize": "",
            "sub": "",
            "lines": [],
            "note": "",
        }
        if entry["status"] == "awarded":
            row["lines"] = [
                line(a["couple"], _prize_words(a["amount"], a["description"], cur), a["how"])
                for a in entry["awards"]
            ]
        elif entry["status"] == "tie":
            row["prize"] = prize
            row["lines"] = [line(c) for c in entry["couples"]]
            row["note"] = _("a tie to settle")
        else:
            row["prize"] = prize
            row["note"] = _("left empty")
        return row

    rows = [entry_row(str(r["place"]), f"{r['place']}.", r) for r in table["places"]]
    booby = table["booby"]
    if booby.get("enabled") and booby.get("couples"):
        rows.append(entry_row("booby", _("Booby"), booby))
    half = table.get("half_time") or {}
    if half.get("enabled") and half.get("couples") and half.get("status") != "pending":
        rows.append(entry_row("half-time", _("Half time"), half))
    for named in table.get("categories") or []:
        if named.get("couples"):
            row = entry_row(f"category-{named['position']}", named["name"], named)
            row["sub"] = rule_words(named)
            rows.append(row)
    jackpot = table["jackpot"]
    if jackpot.get("enabled") and jackpot.get("couples"):
        rows.append(
            {
                "key": "jackpot",
                "label": _("Jackpot"),
                "status": "awarded",
                "prize": "",
                "sub": _("%(n)s wins or more") % {"n": jackpot["threshold"]},
                "note": "",
                "lines": [
                    line(int(c), f"{share} {cur}", "split" if len(jackpot["shares"]) > 1 else "")
                    for c, share in jackpot["shares"].items()
                ],
            }
        )
    jar = table["cookie_jar"]
    if jar.get("enabled") and jar.get("drawn"):
        row = {
            "key": "cookie-jar",
            "label": _("Cookie jar"),
            "status": jar["status"],
            "prize": "",
            "lines": [],
            "note": "",
            "sub": _("games %(g)s") % {"g": games_text(jar["drawn"]["games"])},
        }
        if jar["awards"]:
            row["lines"] = [
                line(a["couple"], f"{a['amount']} {cur}", a["how"]) for a in jar["awards"]
            ]
        elif jar["status"] == "carried-over":
            row["note"] = _("no winner: %(pot)s %(cur)s carries over to the next drive") % {
                "pot": jar["carried_over"],
                "cur": cur,
            }
        elif jar["status"] == "tie":
            row["prize"] = f"{jar['pot']} {cur}"
            row["lines"] = [line(c) for c in jar["winners"]]
            row["note"] = _("won every drawn game: a tie to settle")
        else:
            row["note"] = _("every winner forfeited: unclaimed")
        rows.append(row)
    for row in rows:
        row["word"] = not row["key"].isdigit()
    return rows


def prizes_summary(drive: Drive) -> dict[str, Any] | None:
    """The prizes as the results page and projector show them (None before anything was
    settled or drawn): the prize table and every tie, with how it was settled."""
    if not (
        Award.objects.filter(drive=drive).exists()
        or Tie.objects.filter(drive=drive).exists()
        or CookieJarDraw.objects.filter(drive=drive).exists()
    ):
        return None
    table = for_pages(prize_table(drive))
    current = setup_view(drive)
    ties = [
        decorate_tie(t, current["cut_ace_high"], current["cut_high_wins"]) for t in ties_list(drive)
    ]
    return {
        "table": table,
        "ties": ties,
        "ties_by_id": {t["id"]: t for t in ties},
        "wall": prize_wall(table, _names(drive)),
    }


# --- the prize page -----------------------------------------------------------------------------


def _names(drive: Drive) -> dict[int, str]:
    return {
        c.number: f"{c.player1} & {c.player2}"
        for c in Couple.objects.filter(drive=drive).only("number", "player1", "player2")
    }


def _render(
    request: HttpRequest,
    drive: Drive,
    role: str,
    *,
    status: int = 200,
    setup_form: PrizeSetupForm | None = None,
    jar_form: CookieJarForm | None = None,
    buy_in_form: BuyInForm | None = None,
    error: str = "",
) -> HttpResponse:
    current = setup_view(drive)
    table = for_pages(prize_table(drive))
    ties = [
        decorate_tie(t, current["cut_ace_high"], current["cut_high_wins"]) for t in ties_list(drive)
    ]
    context = {
        "drive": drive,
        "role": role,
        "organizer": role == ORGANIZER,
        "links": drive_links(drive, "night:prizes", role),
        "setup": current,
        "setup_form": setup_form or PrizeSetupForm(current=current),
        "settle_form": SettleForm(),
        "jar_form": jar_form or CookieJarForm(),
        "buy_in_form": buy_in_form or BuyInForm(),
        "table": table,
        # Before the first result: the set-up (places and prizes), not a tie of everyone.
        "before_play": not table["opened"] and prizes_before_play(drive),
        "ties": ties,
        "ties_by_id": {t["id"]: t for t in ties},
        "open_ties": [t for t in ties if t["state"] != "settled"],
        "names": _names(drive),
        "error": error,
        "closed": drive.is_closed,
    }
    return render(request, "scoring/prizes_page.html", context, status=status)


def _back(drive: Drive, anchor: str = "") -> HttpResponse:
    url = reverse("night:prizes", kwargs={"slug": drive.slug})
    return redirect(f"{url}#{anchor}" if anchor else url)


@drive_page(*MEMBERS)
@require_GET
def prizes(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    """The prize set-up (the organizer's), the prize table, the ties and the cookie jar."""
    return _render(request, drive, role)


@drive_page(ORGANIZER)
@require_POST
def setup(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    form = PrizeSetupForm(request.POST, current=setup_view(drive))
    if not form.is_valid():
        return _render(request, drive, role, status=422, setup_form=form)
    changes = form.changes()
    if not changes:
        messages.info(request, _("Nothing changed in the prizes."))
        return _back(drive, "setup")
    try:
        prize_setup_update(drive=drive, actor=desk_actor(request), **changes)
    except ServiceError as error:
        field = error.details.get("field")
        form.add_error(field if field in form.fields else None, error.message)
        return _render(request, drive, role, status=error.status, setup_form=form)
    messages.success(request, _("The prizes are saved."))
    return _back(drive, "setup")


@drive_page(ORGANIZER)
@require_POST
def settle(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    """Award every prize nobody shares and open a tie for each shared one."""
    form = SettleForm(request.POST)
    force = form.is_valid() and form.cleaned_data["force"]
    try:
        opened = prizes_open_ties(drive=drive, actor=desk_actor(request), force=force)
    except ServiceError as error:
        return _render(request, drive, role, status=error.status, error=error.message)
    waiting = [t for t in opened if t.state != Tie.State.SETTLED]
    if waiting:
        messages.success(
            request,
            _("The prizes nobody shares are awarded. %(n)s tie(s) to settle, one at a time.")
            % {"n": len(waiting)},
        )
        return redirect("night:prizes_tie", slug=drive.slug, tie=waiting[0].pk)
    messages.success(request, _("Every prize is awarded: no tie to settle."))
    return _back(drive, "table")


@drive_page(ORGANIZER)
@require_POST
def jar(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    """Draw the cookie jar's games: by the system (from a seed it draws and records), or as
    drawn from a hat."""
    form = CookieJarForm(request.POST)
    if not form.is_valid():
        return _render(request, drive, role, status=422, jar_form=form)
    try:
        draw = cookie_jar_draw(drive=drive, actor=desk_actor(request), **form.arguments())
    except ServiceError as error:
        form.add_error(None, error.message)
        return _render(request, drive, role, status=error.status, jar_form=form)
    games = games_text(draw.games)
    if not draw.winners:
        messages.success(
            request,
            _(
                "Games %(games)s drawn: no winner. The pot of %(pot)s carries over to the "
                "next drive."
            )
            % {"games": games, "pot": draw.pot},
        )
    elif len(draw.winners) == 1:
        messages.success(
            request,
            _("Games %(games)s drawn: couple %(n)s wins the cookie jar (%(pot)s).")
            % {"games": games, "n": draw.winners[0], "pot": draw.pot},
        )
    else:
        tie = Tie.objects.filter(drive=drive, key="cookie-jar").first()
        messages.success(
            request,
            _("Games %(games)s drawn: couples %(c)s won them all, a tie to settle.")
            % {"games": games, "c": ", ".join(map(str, draw.winners))},
        )
        if tie is not None:
            return redirect("night:prizes_tie", slug=drive.slug, tie=tie.pk)
    return _back(drive, "cookie-jar")


@drive_page(ORGANIZER)
@require_POST
def buy_in(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    """The cookie jar's buy-in, asked for beside the jar when couples bought in and none is
    set (the same service as the set-up)."""
    form = BuyInForm(request.POST)
    if not form.is_valid():
        return _render(request, drive, role, status=422, buy_in_form=form)
    try:
        prize_setup_update(drive=drive, actor=desk_actor(request), buy_in=form.amount())
    except ServiceError as error:
        form.add_error("buy_in" if error.details.get("field") == "buy_in" else None, error.message)
        return _render(request, drive, role, status=error.status, buy_in_form=form)
    jar = prize_table(drive)["cookie_jar"]
    messages.success(
        request,
        _("The buy-in is set: the pot is %(pot)s %(cur)s.")
        % {"pot": jar.get("pot"), "cur": drive.currency},
    )
    return _back(drive, "cookie-jar")


# --- one tie ------------------------------------------------------------------------------------


def _tie(drive: Drive, tie_id: int) -> Tie:
    try:
        return tie_get(drive, tie_id)
    except ServiceError:
        raise Http404(_("No such tie.")) from None


def _tie_render(
    request: HttpRequest,
    drive: Drive,
    role: str,
    tie: Tie,
    *,
    status: int = 200,
    error: str = "",
    needed: list[int] | None = None,
    cut_form: CutCardsForm | None = None,
    draw_form: CutDrawForm | None = None,
    playoff_form: PlayoffForm | None = None,
    playoff_match: str = "",
    rule_form: CutRuleForm | None = None,
) -> HttpResponse:
    current = setup_view(drive)
    view = decorate_tie(tie_view(tie), current["cut_ace_high"], current["cut_high_wins"])
    names = _names(drive)
    in_kind = _in_kind(view, current)
    choices = [c for c in CHOICES if not (in_kind and c == "split")]
    # The rule of docs/rules.md §9: once any couple asks for a play-off, every other couple still
    # to say plays off or forfeits; the page asks them before "Decide" is pressed.
    latest = {n: c["choice"] for n, c in view["latest"].items()}
    if "play-off" in latest.values():
        waiting = {n for n in view["couples"] if latest.get(n) not in ("play-off", "forfeit")}
        needed = sorted(set(needed or []) | waiting)
    others = [
        t
        for t in Tie.objects.filter(drive=drive).exclude(pk=tie.pk).order_by("id")
        if t.state != Tie.State.SETTLED
    ]
    context = {
        "drive": drive,
        "role": role,
        "links": drive_links(drive, "night:prizes", role),
        "tie": view,
        "setup": current,
        "couple_rows": [
            {
                "number": n,
                "name": names.get(n, ""),
                "choice": view["latest"].get(n),
                "needed": n in (needed or []),
                "choices": ["play-off", "forfeit"] if n in (needed or []) else choices,
            }
            for n in view["couples"]
        ],
        "in_kind": in_kind,
        "error": error,
        "needed": needed or [],
        "cut_form": cut_form or CutCardsForm(couples=view["contenders"]),
        "draw_form": draw_form or CutDrawForm(),
        "playoff_form": playoff_form,
        "playoff_match": playoff_match,
        "example": score_example(drive),
        "rule_form": rule_form or CutRuleForm(initial={"rule": cut_rule_of(current)}),
        "rule_open": role == ORGANIZER and not CutCard.objects.filter(tie__drive=drive).exists(),
        "next_tie": others[0] if others else None,
        "closed": drive.is_closed,
    }
    return render(request, "scoring/prizes_tie.html", context, status=status)


def _in_kind(view: dict[str, Any], current: dict[str, Any]) -> bool:
    """Whether a prize the tie is for is a thing (it cannot be split)."""
    if view["kind"] == "place":
        prizes = [current["prizes"][p - 1] for p in view["places"] if p <= len(current["prizes"])]
    elif view["kind"] == "booby":
        prizes = [current["booby_prize"]]
    else:
        prizes = []
    return any(p["amount"] is None and p["description"] for p in prizes)


def _tie_back(drive: Drive, tie: Tie) -> HttpResponse:
    """Back to the tie: its page shows what comes next (and, settled, the way back to the
    prize table and the next tie)."""
    return redirect("night:prizes_tie", slug=drive.slug, tie=tie.pk)


@drive_page(*MEMBERS)
@require_GET
def tie_page(request: HttpRequest, drive: Drive, role: str, tie: int) -> HttpResponse:
    return _tie_render(request, drive, role, _tie(drive, tie))


@drive_page(*MEMBERS)
@require_POST
def tie_choice(request: HttpRequest, drive: Drive, role: str, tie: int) -> HttpResponse:
    """One couple's choice: the button's value is "<couple>:<choice>"."""
    found = _tie(drive, tie)
    couple, _sep, choice = request.POST.get("choice", "").partition(":")
    if not (couple.isascii() and couple.isdigit()) or choice not in CHOICES:
        return _tie_render(
            request,
            drive,
            role,
            found,
            status=422,
            error=_("Which couple chose what? The form did not say."),
        )
    try:
        row = tie_choose(tie=found, couple=int(couple), choice=choice, actor=desk_actor(request))
    except ServiceError as error:
        return _tie_render(request, drive, role, found, status=error.status, error=error.message)
    text = _("Couple %(n)s: %(choice)s.") % {"n": couple, "choice": row.choice}
    if row.choice != row.asked:
        text += " " + _("(asked %(asked)s; the house rule applies)") % {"asked": row.asked}
    messages.success(request, text)
    return _tie_back(drive, found)


@drive_page(*MEMBERS)
@require_POST
def tie_decide_view(request: HttpRequest, drive: Drive, role: str, tie: int) -> HttpResponse:
    found = _tie(drive, tie)
    try:
        decided = tie_decide(tie=found, actor=desk_actor(request))
    except ServiceError as error:
        needed = error.details.get("couples", []) if error.code == "answer_needed" else []
        return _tie_render(
            request, drive, role, found, status=error.status, error=error.message, needed=needed
        )
    words = {
        "split": _("Split: the shares are below."),
        "cut": _("They cut for it: record the cards, or let the system draw."),
        "play-off": _("Play-off: the games are below."),
        "award": _("The others forfeited: the prize is awarded."),
        "empty": _("Everyone forfeited: the prize stays empty."),
    }
    messages.success(request, words.get(decided.method, decided.method))
    return _tie_back(drive, found)


@drive_page(*MEMBERS)
@require_POST
def tie_cut(request: HttpRequest, drive: Drive, role: str, tie: int) -> HttpResponse:
    """One round of the cut as cut at the table."""
    found = _tie(drive, tie)
    current = setup_view(drive)
    view = decorate_tie(tie_view(found), current["cut_ace_high"], current["cut_high_wins"])
    form = CutCardsForm(request.POST, couples=view["contenders"])
    if not form.is_valid():
        return _tie_render(request, drive, role, found, status=422, cut_form=form)
    try:
        outcome = tie_cut_record(tie=found, cards=form.cards(), actor=desk_actor(request))
    except ServiceError as error:
        form.add_error(None, error.message)
        return _tie_render(request, drive, role, found, status=error.status, cut_form=form)
    high = current["cut_high_wins"]
    if outcome["decided"]:
        won = (
            _("Couple %(n)s cut the highest card and takes the prize.")
            if high
            else _("Couple %(n)s cut the lowest card and takes the prize.")
        )
        messages.success(request, won % {"n": outcome["lowest"][0]})
    else:
        again = (
            _("Equal highest cards: couples %(c)s cut again.")
            if high
            else _("Equal lowest cards: couples %(c)s cut again.")
        )
        messages.info(request, again % {"c": ", ".join(map(str, outcome["lowest"]))})
    return _tie_back(drive, found)


@drive_page(ORGANIZER)
@require_POST
def tie_cut_rule(request: HttpRequest, drive: Drive, role: str, tie: int) -> HttpResponse:
    """How the cut is won (lowest or highest card, aces low or high): the drive's prize
    set-up, chosen from the tie's page until the first card of a cut is recorded."""
    found = _tie(drive, tie)
    form = CutRuleForm(request.POST)
    if not form.is_valid():
        return _tie_render(request, drive, role, found, status=422, rule_form=form)
    try:
        prize_setup_update(
            drive=drive, actor=desk_actor(request), **cut_fields(form.cleaned_data["rule"])
        )
    except ServiceError as error:
        return _tie_render(request, drive, role, found, status=error.status, error=error.message)
    messages.success(request, _("The cut: %(rule)s.") % {"rule": form.rule_label()})
    return _tie_back(drive, found)


@drive_page(*MEMBERS)
@require_POST
def tie_draw(request: HttpRequest, drive: Drive, role: str, tie: int) -> HttpResponse:
    """The cut drawn by the system, from a seed it draws and records."""
    found = _tie(drive, tie)
    form = CutDrawForm(request.POST)
    if not form.is_valid():
        return _tie_render(request, drive, role, found, status=422, draw_form=form)
    try:
        outcome = tie_cut_draw(tie=found, actor=desk_actor(request))
    except ServiceError as error:
        form.add_error(None, error.message)
        return _tie_render(request, drive, role, found, status=error.status, draw_form=form)
    messages.success(
        request,
        _("Drawn from seed %(seed)s: couple %(n)s takes the prize.")
        % {"seed": outcome["seed"], "n": outcome["winner"]},
    )
    return _tie_back(drive, found)


@drive_page(*MEMBERS)
@require_POST
def tie_playoff(request: HttpRequest, drive: Drive, role: str, tie: int) -> HttpResponse:
    """A play-off game's result, judged like any game's."""
    found = _tie(drive, tie)
    form = PlayoffForm(request.POST)
    match = request.POST.get("match", "")
    if not form.is_valid():
        return _tie_render(
            request,
            drive,
            role,
            found,
            status=422,
            playoff_form=form,
            playoff_match=match,
            error=_("Choose the winner of a match."),
        )
    try:
        points = parse_points(form.cleaned_data["points"])
    except ValueError:
        form.add_error(
            "points",
            _("Type the final points like %(example)s, the winner's first.")
            % {"example": score_example(drive)},
        )
        return _tie_render(
            request, drive, role, found, status=422, playoff_form=form, playoff_match=match
        )
    try:
        outcome = tie_playoff_result(
            tie=found,
            match=form.pair(),
            winner=form.cleaned_data["winner"],
            points=points,
            confirm_unusual=form.cleaned_data["confirm_unusual"],
            actor=desk_actor(request),
        )
    except ServiceError as error:
        message = error.message
        if error.code == "unusual_score":
            message = _(
                "%(reason)s If it really happened, tick “Accept an unusual score” and press "
                "the winner's button again."
            ) % {"reason": error.details.get("verdict", {}).get("message", error.message)}
        form.add_error(None, message)
        return _tie_render(
            request, drive, role, found, status=error.status, playoff_form=form, playoff_match=match
        )
    if outcome["champion"] is not None:
        messages.success(
            request,
            _("Couple %(n)s wins the play-off and takes the prize.") % {"n": outcome["champion"]},
        )
    else:
        messages.success(
            request,
            _("Couple %(n)s won the match %(a)s v %(b)s.")
            % {"n": outcome["winner"], "a": outcome["match"][0], "b": outcome["match"][1]},
        )
    return _tie_back(drive, found)
