"""The desk grid's rows, written as HTML in Python, a string a row (every text escaped), as the
standings and the win grid write theirs (``scoring.pages.tables.LeanTable.lean_body``).

Kept for its figure: after a few results, the rows of the tables that changed are written again
at every desk's poll; Django's template took about 1.1 ms a row (a table with two entries in its
history) and this takes about a tenth of that, which is what the desk's poll waited for in
a hall's night (BENCHMARKS.md, "The desk's grid after a result"). The markup is what
``templates/scoring/desk_grid_rows.html`` wrote, less its indentation, and the words are the
same messages of the catalogs.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils.dateformat import time_format
from django.utils.html import escape
from django.utils.timezone import is_aware, localtime
from django.utils.translation import gettext as _


def _at(moment: datetime | None) -> str:
    """A time as the template's ``|time:"H:i"`` writes it (in the reader's time zone)."""
    if moment is None:
        return ""
    return time_format(localtime(moment) if is_aware(moment) else moment, "H:i")


def _won(couple: Any) -> str:
    return escape(_("%(c)s won") % {"c": couple})


def _result(row: dict[str, Any], sit_out_wins: bool) -> str:
    state = row["state"]
    if state == "sit-out":
        counts = "<small>" + escape(_("counts as a win")) + "</small>" if sit_out_wins else ""
        return '<span class="tag tag-sit">' + escape(_("sit-out")) + "</span>\n" + counts
    if state == "missing":
        return '<span class="tag tag-missing">' + escape(_("missing")) + "</span>"
    if state == "conflict":
        claims = []
        for claim in row["claims"]:
            points = claim["points"]
            said = f' <span class="points">{points[0]}–{points[1]}</span>' if points else ""
            who = str(escape(_(claim["channel"])))
            if claim["user"]:
                who += f" · {escape(claim['user'])}"
            if claim["couple"]:
                who += " · " + escape(_("couple %(c)s") % {"c": claim["couple"]})
            claims.append(
                f"<li><strong>{_won(claim['winner'])}</strong>{said}\n"
                f"<small>{who} · {_at(claim['at'])}</small></li>\n"
            )
        tag = escape(_("conflict"))
        return (
            f'<span class="tag tag-conflict">{tag}</span>\n'
            f'<ul class="claims">\n{"".join(claims)}</ul>'
        )
    out = f'<strong class="winner">{_won(row["winner"])}</strong>\n'
    if row["points"]:
        out += f'<span class="points">{row["points"][0]}–{row["points"][1]}</span>\n'
    if row["unusual"]:
        tag = escape(_("unusual score"))
        out += f'<span class="tag tag-unusual">{tag}</span>\n'
    if state == "pending":
        tag = escape(_("waiting for the other couple to confirm"))
        out += f'<span class="tag tag-pending">{tag}</span>\n'
    return out


# What each kind of entry in a result's history says (the couple it names as ``c``).
KINDS = {
    "entered": lambda c: _("%(c)s entered") % {"c": c},
    "conflicting": lambda c: _("%(c)s entered, in conflict") % {"c": c},
    "resolved": lambda c: _("settled: %(c)s") % {"c": c},
    "corrected": lambda c: _("corrected to %(c)s") % {"c": c},
    "confirmed": lambda c: _("confirmed"),
    "rejected": lambda c: _("rejected"),
}


def _history(versions: list[dict[str, Any]]) -> str:
    if not versions:
        return ""
    items = []
    for v in versions:
        said = KINDS.get(v["kind"])
        # An entry taken back at once says so (its kind's label), as the other kinds do.
        text = said(v["winner"]) if said is not None else v["kind_label"]
        line = f'<li class="v-{escape(v["kind"])}"><time>{_at(v["at"])}</time>\n{escape(text)}\n'
        channel = escape(_(v["channel"]))
        line += f'· <span class="channel">{channel}</span>'
        if v["user"]:
            line += f" ({escape(v['user'])})"
        if v["couple"]:
            line += " (" + escape(_("couple %(c)s") % {"c": v["couple"]}) + ")"
        line += "\n"
        if v["reason"]:
            line += f"<q>{escape(v['reason'])}</q>\n"
        if v["after_advance"]:
            late = escape(_("after the next game started"))
            line += f"<small>{late}</small>\n"
        items.append(line + "</li>\n")
    return f'<ul class="versions">\n{"".join(items)}</ul>\n'


def _hidden(token: str, action: str, game: int, table: int) -> str:
    return (
        f'<input type="hidden" name="csrfmiddlewaretoken" value="{token}">\n'
        f'<input type="hidden" name="action" value="{action}">\n'
        f'<input type="hidden" name="game" value="{game}">\n'
        f'<input type="hidden" name="table" value="{table}">\n'
    )


def _actions(
    row: dict[str, Any], *, game: int, in_play: bool, desk_url: str, dashboard_url: str, token: str
) -> str:
    state, table = row["state"], row["table"]
    if state == "missing":
        if not in_play:
            return ""
        buttons = "".join(
            f'<button type="submit" name="winner" value="{c}" class="small" '
            f'data-testid="desk-win-{table}-{c}">{_won(c)}</button>\n'
            for c in row["couples"]
        )
        return (
            f'<form method="post" action="{escape(desk_url)}" class="row-form">\n'
            f"{_hidden(token, 'enter', game, table)}{buttons}</form>\n"
        )
    summary = (
        _("Settle…")
        if state == "conflict"
        else _("Accept or correct…")
        if state == "pending"
        else _("Correct…")
    )
    confirmed = escape(_("confirmed at the desk"))
    value = f' value="{confirmed}"' if state == "pending" else ""
    buttons = "".join(
        f'<button type="submit" name="winner" value="{c}" class="small" '
        f'data-testid="desk-resolve-{table}-{c}">{_won(c)}</button>\n'
        for c in row["couples"]
    )
    there = escape(_("or on the dashboard"))
    elsewhere = (
        f'<a href="{escape(dashboard_url)}">{there}</a>\n'
        if state == "conflict" and dashboard_url
        else ""
    )
    reason, score = escape(_("Reason (required)")), escape(_("Final score (optional, e.g. 50-40)"))
    return (
        f'<details class="resolve">\n<summary>{escape(summary)}</summary>\n'
        f'<form method="post" action="{escape(desk_url)}" class="row-form">\n'
        f"{_hidden(token, 'resolve', game, table)}"
        f'<label for="reason-{table}">{reason}</label>\n'
        f'<input type="text" id="reason-{table}" name="reason" required maxlength="1000"{value}>\n'
        f'<label for="points-{table}">{score}</label>\n'
        f'<input type="text" id="points-{table}" name="points" inputmode="numeric" '
        f'maxlength="20" data-testid="desk-resolve-points-{table}">\n'
        f'<span class="buttons">\n{buttons}</span>\n{elsewhere}</form>\n</details>\n'
    )


def row_html(
    row: dict[str, Any],
    *,
    game: int,
    in_play: bool,
    closed: bool,
    sit_out_wins: bool,
    desk_url: str,
    dashboard_url: str,
    token: str,
) -> str:
    """One table's row of the desk grid: ``row`` is its line of the game (``game_view``) with
    its history (``versions``), its couples, whether its score is unusual and, in conflict,
    the claims; ``token`` goes in its forms (the CSRF token, or a placeholder for it)."""
    table, state = int(row["table"]), escape(row["state"])
    winner = f' data-winner="{int(row["winner"])}"' if row["winner"] else ""
    unusual = " is-unusual" if row["unusual"] else ""
    head = escape(_("sits out")) if row["sit_out"] else str(table)
    first, deal = escape(_("deals first")), escape(_("deals"))
    deals = (
        f' <span class="deals" title="{first}">{deal}</span>'
        if row["arrives"] and not row["sit_out"]
        else ""
    )
    actions = (
        _actions(
            row,
            game=game,
            in_play=in_play,
            desk_url=desk_url,
            dashboard_url=dashboard_url,
            token=token,
        )
        if not closed and not row["sit_out"]
        else ""
    )
    couples = " ".join(str(int(c)) for c in row["couples"])
    return (
        f'<tr id="table-{table}" data-table="{table}" data-couples="{couples}" '
        f'data-state="{state}"{winner}\nclass="state-{state}{unusual}">\n'
        f'<th scope="row">{head}</th>\n'
        f'<td class="couple">{row["stays"] or "—"}</td>\n'
        f'<td class="couple">{row["arrives"] or "—"}{deals}</td>\n'
        f'<td class="result">\n{_result(row, sit_out_wins)}</td>\n'
        f'<td class="who">\n{_history(row["versions"])}</td>\n'
        f'<td class="act">\n{actions}</td>\n'
        "</tr>\n"
    )
