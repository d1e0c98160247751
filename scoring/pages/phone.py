"""The pages players open on their phones from the QR codes of their cards, without logging
in: the token in the address is the only credential, and it reaches one table (or one
couple) of one drive, until the drive closes (then a 410 page says so; the couple page's
address keeps showing the couple's own record of the night, read only).

- The table page (table card): the game in play at this table, its two couples and who
  deals, a big "who won" button per couple and an optional final score from the legal ones.
  It writes only its own table's result in the game in play (``result_record``, channel
  "table"), with a ``key`` so that a repeated submission is stored once. Its script sends
  through the JSON API with the same token and retries with the same key until answered.
- The couple page (punch card): the couple's table and opponents in the game in play, wins
  so far, the punch card, and the confirmation (or rejection) of the other couple's entry on
  drives that ask for it (``result_confirm``, channel "couple").
- Undo (table page): for ``UNDO_SECONDS`` after a tap, a plain form takes the result back
  (``result_undo``) until the other couple confirms it or the game advances; only on the
  phone that tapped (its device cookie, ``drives.devices``): the other couple's phone, on
  the same table card, is told who entered it.

Both are also served as a fragment (``?partial=1``) that the pages poll to follow the night.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_http_methods

from drives import inputs
from drives.devices import device_new, device_of, device_remember
from drives.errors import Conflict, ServiceError
from drives.models import AuditEntry, Couple, Drive, Table, player_page_key
from drives.services import Actor
from engine.scores import legal_final_scores
from scoring.pages.conditional import not_modified, phone_poll_key, tagged
from scoring.pages.live_access import (
    closed_page,
    couple_by_token,
    hall_language,
    hall_page,
    int_or_none,
    table_by_token,
    token_page,
    wants_fragment,
)
from scoring.pages.selectors_live import (
    couple_card,
    couple_night,
    couple_now,
    table_now,
    undo_until,
)
from scoring.selectors import LOSS, PENDING, SIT_OUT, SIT_OUT_WIN, WIN, table_call
from scoring.services import UNDO_SECONDS, call_open, result_confirm, result_record, result_undo

TABLE_POLL_SECONDS = 5
COUPLE_POLL_SECONDS = 6
OTHER = "other"


def _answer(status: int, level: str, message: str, code: str = "") -> dict[str, Any]:
    return {"status": status, "level": level, "message": message, "code": code}


# --- the table page -----------------------------------------------------------------------------


# No CSRF token: the address's token is the credential, no cookie grants anything here, and
# a phone that dropped its cookies must still be able to send its result.
@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
@gzip_page
@token_page
@hall_page
def table_page(request: HttpRequest, token: str) -> HttpResponse:
    polled = request.method != "POST" and wants_fragment(request)
    # Only this table's results and the drive's structure, not the other tables': a poll
    # that finds nothing new is answered before the table is read.
    key = phone_poll_key(request, "table", token) if polled else None
    if key and (unchanged := not_modified(request, key)):
        return unchanged
    table = table_by_token(request, token)
    drive = table.drive
    hall_language(request, drive)
    if drive.is_closed:
        return closed_page(request, drive)
    # Which phone this is: its own entry is the only one it may undo (drives.devices).
    device = device_of(request)
    if polled and key:
        context = _table_context(table, None, device)
        response = render(request, "scoring/table_page_live.html", context)
        return tagged(response, key, until=context["undo_until"])
    if not device:
        device = device_new()
    answer = None
    if request.method == "POST":
        answer = _table_post(request, table, device)
        drive.refresh_from_db()
    context = _table_context(table, answer, device)
    template = (
        "scoring/table_page_live.html" if wants_fragment(request) else "scoring/table_page.html"
    )
    response = render(request, template, context, status=answer["status"] if answer else 200)
    if device != device_of(request):
        device_remember(response, device)
    return response


def score_choices(drive: Drive) -> list[str]:
    """The final scores a table may pick ("70-20", winner's first), the legal ones of the
    drive's ruleset; none for auction, whose scores are typed."""
    try:
        scores = legal_final_scores(drive.rules_in_play())
    except ValueError:
        return []
    return [f"{winner}-{loser}" for winner, loser in scores]


def _table_context(table: Table, answer: dict[str, Any] | None, device: str) -> dict[str, Any]:
    drive = table.drive
    now = table_now(table)
    result = now["result"] if now else None
    until, entered_on = undo_until(now, AuditEntry.Channel.TABLE, None)
    in_time = until is not None and timezone.now() < until
    # Within the minute, the phone that tapped may undo; the other couple's phone is told.
    undo_open = in_time and entered_on == device
    # The table's call to the desk, while the desk has not closed it.
    call = table_call(table.pk) if drive.current_game else None
    return {
        "drive": drive,
        "table": table,
        "now": now,
        "answer": answer,
        "choices": score_choices(drive) if now and not now["sit_out"] else [],
        "key": uuid.uuid4().hex,
        "poll_seconds": TABLE_POLL_SECONDS,
        "undo_open": undo_open,
        "entered_elsewhere": in_time and not undo_open,
        # The page changes by itself when the undo closes: its poll's ETag ends then.
        "undo_until": until if in_time else None,
        "undo_seconds": UNDO_SECONDS,
        "call": call,
        "call_reasons": call_reasons(),
        "call_reason_max": inputs.CALL_REASON_MAX,
        # What the page shows, in short: its script swaps the page only when this changes.
        "version": "-".join(
            str(part)
            for part in (
                drive.current_game,
                now["game"] if now else "",
                result["winner"] if result else "",
                result["state"] if result else "",
                result["points"] if result else "",
                "undo" if undo_open else ("elsewhere" if in_time else ""),
                f"call{call['id']}{call['state']}" if call else "",
            )
        ),
    }


def _table_post(request: HttpRequest, table: Table, device: str) -> dict[str, Any]:
    data = request.POST
    actor = Actor(channel=AuditEntry.Channel.TABLE, device=device)
    if data.get("action") == "undo":
        return _table_undo(table, int_or_none(data.get("game")), actor)
    if data.get("action") == "call":
        return _table_call(table, data, actor)
    game = int_or_none(data.get("game"))
    winner = int_or_none(data.get("winner"))
    if game is None or winner is None:
        return _answer(422, "error", _("Tap the button of the couple that won."), "bad_input")
    choice = (data.get("points") or "").strip()
    points: list[int] | None = None
    if choice == OTHER or (not choice and (data.get("points_winner") or "").strip()):
        first, second = (
            int_or_none(data.get("points_winner")),
            int_or_none(data.get("points_loser")),
        )
        if first is None or second is None:
            return _answer(
                422, "error", _("Type both scores, the winner's first, or pick one."), "bad_points"
            )
        points = [first, second]
    elif choice:
        first_text, _sep, second_text = choice.partition("-")
        first, second = int_or_none(first_text), int_or_none(second_text)
        if first is None or second is None:
            return _answer(422, "error", _("Pick a score from the list."), "bad_points")
        points = [first, second]
    confirm = data.get("confirm_unusual") in ("on", "1", "true", "yes")
    key = (data.get("key") or "").strip()[:80] or None
    try:
        recorded = result_record(
            drive=table.drive,
            game=game,
            table=table.number,
            winner=winner,
            points=points,
            key=key,
            confirm_unusual=confirm,
            actor=actor,
        )
    except Conflict as error:
        if error.code == "result_conflict":
            if error.details.get("differs") == ["points"]:
                text = _(
                    "Couple %(other)s was already entered as the winner here with another "
                    "score. Both entries are kept: the desk will sort it out."
                )
            else:
                text = _(
                    "Couple %(other)s was already entered as the winner here. Both entries "
                    "are kept: the desk will sort it out."
                )
            return _answer(409, "error", text % {"other": error.details.get("winner")}, error.code)
        if error.code == "key_reused":
            return _answer(
                409,
                "error",
                _(
                    "This form was already sent with another result: this one was not "
                    "saved. Tell the desk who won."
                ),
                error.code,
            )
        return _answer(error.status, "error", error.message, error.code)
    except ServiceError as error:
        message = error.message
        if error.code == "unusual_score":
            message = _("%(reason)s If it really happened, tick the box and tap again.") % {
                "reason": error.details.get("verdict", {}).get("message", error.message)
            }
        return _answer(error.status, "error", message, error.code)
    message = _("Saved ✓ Couple %(winner)s won.") % {"winner": recorded.result.winner.number}
    if recorded.result.state == "pending":
        message += " " + _("The other couple confirms it on their punch card's page.")
    return _answer(recorded.status, "success", message, "stored")


def _table_undo(table: Table, game: int | None, actor: Actor) -> dict[str, Any]:
    if game is None:
        return _answer(422, "error", _("This form has no game: reload the page."), "bad_input")
    try:
        result_undo(drive=table.drive, game=game, table=table.number, actor=actor)
    except ServiceError as error:
        return _answer(error.status, "error", _undo_refused(error), error.code)
    return _answer(
        200, "info", _("Undone: this table has no result now. Tap the couple that won."), "undone"
    )


def call_reasons() -> list[str]:
    """The reasons a table most often needs the desk for, in the hall's language: the phone
    offers them before the players' own words."""
    return [_("A dispute"), _("A misdeal"), _("A renege claim"), _("A missing player")]


def call_reason(choice: str, words: str) -> str:
    """The reason sent: the reason picked and the players' own words, as given."""
    return " — ".join(part for part in (choice.strip(), words.strip()) if part)


def _table_call(table: Table, data: Any, actor: Actor) -> dict[str, Any]:
    """The table's button "Call the desk", without the page's script."""
    drive = table.drive
    reason = call_reason(str(data.get("reason_choice") or ""), str(data.get("reason") or ""))
    try:
        call_open(
            drive=drive,
            game=int_or_none(data.get("game")) or drive.current_game,
            table=table.number,
            reason=reason,
            actor=actor,
        )
    except ServiceError as error:
        return _answer(error.status, "error", error.message, error.code)
    return _answer(201, "success", _("The desk knows: someone is coming to your table."), "called")


def _undo_refused(error: ServiceError) -> str:
    """Why an undo was refused, in the hall's words."""
    if error.code == "undo_closed":
        return _(
            "Too late to undo: a result can be undone only in the first %(s)s seconds. "
            "Tell the desk if it is wrong."
        ) % {"s": UNDO_SECONDS}
    if error.code == "confirmed":
        return _("The other couple has already confirmed it: too late to undo. Tell the desk.")
    if error.code == "game_advanced":
        return _("The next game has started: too late to undo. Tell the desk if it was wrong.")
    if error.code == "no_result":
        return _("There is no result to undo at this table.")
    if error.code == "other_phone":
        return _("Entered by the other couple: only their phone can undo it. Wrong? Call the desk.")
    if error.code in ("answered", "not_yours"):
        return _(
            "This result has been changed since (at the desk or by the other couple): "
            "only the desk can change it now."
        )
    return error.message


# --- the couple page ----------------------------------------------------------------------------


@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
@gzip_page
@token_page
@hall_page
def couple_page(request: HttpRequest, token: str) -> HttpResponse:
    polled = request.method != "POST" and wants_fragment(request)
    # Only the couple's own games' results and the drive's structure: the page shows no
    # standings, no place, nothing of the other tables. A poll that finds nothing new is
    # answered before the couple is read.
    key = phone_poll_key(request, "couple", token) if polled else None
    if key and (unchanged := not_modified(request, key)):
        return unchanged
    couple = couple_by_token(request, token)
    drive = couple.drive
    hall_language(request, drive)
    if drive.is_closed:
        if request.method == "POST" or wants_fragment(request):
            # Nothing changes any more; a page still polling reloads into the record below.
            return closed_page(request, drive)
        return _couple_record(request, couple)
    if polled and key:
        return tagged(
            render(request, "scoring/couple_page_live.html", _couple_context(couple, None)), key
        )
    answer = None
    if request.method == "POST":
        answer = _couple_post(request, couple)
        drive.refresh_from_db()
    context = _couple_context(couple, answer)
    template = (
        "scoring/couple_page_live.html" if wants_fragment(request) else "scoring/couple_page.html"
    )
    return render(request, template, context, status=answer["status"] if answer else 200)


def _couple_record(request: HttpRequest, couple: Couple) -> HttpResponse:
    """The couple's own record of the night once it is closed: read only, no polling."""
    card = couple_card(couple)
    holes = [
        {"game": game, "mark": card["marks"].get(game, ""), "absent": _absent(couple, game)}
        for game in range(1, couple.drive.games + 1)
    ]
    context = {
        "drive": couple.drive,
        "couple": couple,
        "night": couple_night(couple),
        "holes": holes,
        "own_pages": _own_pages(couple),
    }
    return render(request, "scoring/couple_page_closed.html", context)


def _own_pages(couple: Couple) -> list[dict[str, str]]:
    """Each of the couple's two players' own page at the club (its unguessable address: the
    only way to it when the club shows no names), for the players the couple is linked to."""
    pages = []
    for name, pk in ((couple.player1, couple.member1_id), (couple.player2, couple.member2_id)):
        if pk is not None:
            url = reverse(
                "club:player_own",
                kwargs={"club": couple.drive.club.slug, "player": pk, "key": player_page_key(pk)},
            )
            pages.append({"name": name, "url": url})
    return pages


def _couple_context(couple: Couple, answer: dict[str, Any] | None) -> dict[str, Any]:
    drive = couple.drive
    now = couple_now(couple)
    card = couple_card(couple)
    holes = _punch_holes(couple, card["marks"], drive.games)
    result = now["result"] if now else None
    return {
        "drive": drive,
        "couple": couple,
        "now": now,
        "card": card,
        "holes": holes,
        "answer": answer,
        "poll_seconds": COUPLE_POLL_SECONDS,
        "version": "-".join(
            str(part)
            for part in (
                drive.current_game,
                now["table"] if now else "",
                result["winner"] if result else "",
                result["state"] if result else "",
                now["awaits_confirmation"] if now else "",
                "".join(card["marks"].values()),
            )
        ),
    }


# The look of each mark's hole on the punch card (its class, ``mark-…``); a hole with no mark
# is still to play.
HOLE_LOOKS = {WIN: "won", LOSS: "lost", SIT_OUT_WIN: "sit-win", SIT_OUT: "sit", PENDING: "pending"}


def _punch_holes(couple: Couple, marks: dict[int, str], games: int) -> list[dict[str, Any]]:
    """The holes of the live punch card, one a game: the game, its mark, why the couple does
    not play it, and what the page shows of it (its look, the figure or "S", and the words a
    screen reader says). Each phrase is translated once for the whole card, not once a hole:
    a card is rendered at every poll that finds something new."""
    said = {
        WIN: _("won"),
        LOSS: _("lost"),
        SIT_OUT_WIN: _("sit-out, counts as a win"),
        SIT_OUT: _("sit-out"),
        PENDING: _("no result yet"),
    }
    # As the template's tags wrote them: {% translate %} escaped, {% blocktranslate %} not.
    words = {mark: conditional_escape(text) for mark, text in said.items()}
    absent_words = {
        "late": _("not played: arrived at game %(n)s") % {"n": couple.joined_game},
        "withdrawn": conditional_escape(_("not played: withdrawn")),
        "": conditional_escape(_("to play")),
    }
    game_words = _("Game %(n)s")
    # "Game 3: won" ("Partie 3 : gagnée": French puts a space before the colon)
    label_words = _("%(game)s: %(said)s")
    holes = []
    for game in range(1, games + 1):
        mark = marks.get(game, "")
        absent = _absent(couple, game)
        number = str(game)
        holes.append(
            {
                "game": game,
                "mark": mark,
                "absent": absent,
                "look": HOLE_LOOKS.get(mark, "to-play"),
                "figure": "S" if mark == SIT_OUT_WIN else number,
                "number": number,
                "label": mark_safe(  # the translations, escaped as the template did
                    label_words
                    % {
                        "game": game_words % {"n": number},
                        "said": words[mark] if mark in words else absent_words[absent],
                    }
                ),
            }
        )
    return holes


def _absent(couple: Couple, game: int) -> str:
    """Why the couple does not play ``game``: "late" (it arrived at a later game),
    "withdrawn" (it left before it), or "" (it plays it, or played it)."""
    if game < couple.joined_game:
        return "late"
    if couple.withdrawn_game is not None and game >= couple.withdrawn_game:
        return "withdrawn"
    return ""


def _couple_post(request: HttpRequest, couple: Couple) -> dict[str, Any]:
    action = request.POST.get("action")
    game = int_or_none(request.POST.get("game"))
    if action not in ("confirm", "reject") or game is None:
        return _answer(422, "error", _("Tap Confirm or Reject."), "bad_input")
    accept = action == "confirm"
    try:
        result_confirm(
            drive=couple.drive,
            couple=couple,
            game=game,
            accept=accept,
            actor=Actor(channel=AuditEntry.Channel.COUPLE, couple=couple),
        )
    except ServiceError as error:
        return _answer(error.status, "error", error.message, error.code)
    if accept:
        return _answer(200, "success", _("Thank you: the result is confirmed ✓"), "confirmed")
    return _answer(
        200, "info", _("Rejected: the desk will check this table's result with you."), "rejected"
    )
