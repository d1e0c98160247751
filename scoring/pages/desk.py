"""The scorers' desk grid: the game in play, a keyboard entry line (table, couple, Enter) and
every table with its two couples, its result or a button per couple, what stands out
(missing, conflict, unusual, waiting for confirmation) and who entered what through which
channel. The grid is also served alone (``?partial=grid``) for the page's script, which
polls it; a post answers JSON to that script and a whole page to a browser without it.

Entering calls ``scoring.services.result_record`` (channel desk); settling a conflict or
correcting calls ``result_resolve`` with a reason. The rules are the services'.
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import get_template
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_http_methods

from drives.errors import Conflict, ServiceError
from drives.models import AuditEntry, Drive
from drives.services import Actor
from drives.views import desk_actor
from scoring.pages.conditional import drive_version, not_modified, poll_key, tagged
from scoring.pages.desk_rows import row_html
from scoring.pages.live_access import (
    int_or_none,
    member_drive,
    parse_points,
    wants_fragment,
    wants_json,
)
from scoring.pages.selectors_live import result_stamps, result_versions
from scoring.selectors import advance_state, calls_waiting, game_view, slow_tables
from scoring.services import call_answer, call_close, game_advance, result_record, result_resolve

POLL_SECONDS = 3

# The entry line's field a refusal is about, by the services' codes: the page empties what was
# typed after it and puts the cursor back there (see static/js/desk.js). A score the engine
# refuses names the points; anything else starts the line again at the table.
WINNER_CODES = frozenset({"bad_winner", "wrong_couple"})
SCORE_FIELD = "points"
SUMMARY_LISTS = ("missing", "conflicts", "pending", "unusual")


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@gzip_page
def desk(request: HttpRequest, slug: str) -> HttpResponse:
    drive, role = member_drive(request, slug)
    if request.method == "POST":
        return _post(request, drive, role)
    game, fixed = _shown_game(request, drive)
    if wants_fragment(request):
        # The grid differs by role (who may advance) and carries the user's CSRF token.
        key = poll_key("desk", drive, request.user.pk, role, game, int(fixed))
        unchanged = not_modified(request, key)
        if unchanged is not None:
            return unchanged
        # The page's script says which grid it shows (its data-version): the rows changed
        # since then are enough (``_patch_html``).
        have = request.headers.get(HAVE_HEADER, "")
        html, marks_at = (
            _patch_html(request, drive, role, game, fixed, have)
            if GRID_VERSION.fullmatch(have)
            else _grid_html(request, drive, role, game, fixed)
        )
        # Slow tables are marked when their time comes, with nothing written: the grid's ETag
        # ends then (``tagged``), so that the next poll draws it.
        response = tagged(HttpResponse(html), key, until=marks_at)
        patch_vary_headers(response, [HAVE_HEADER])
        return response
    return render(request, "scoring/desk.html", _page_context(request, drive, role, game, fixed))


# The grid's rows are cached under what they show: after a result only that table's row is
# rendered again, the others come from the cache (Django's: each process's memory in the hall,
# Redis on the production stack). A row's key is its table's line of the game (couples,
# state, winner, points) and the stamp of its result's history (``result_stamps``: how many
# versions and the newest's id), so the history itself is read only for the rows rendered
# again. The rows of one grid (the drive, the game, whether it is in play, the
# drive's flags, the language and time zone) are kept together, in one entry: one read of
# the cache a poll, not one a table (BENCHMARKS.md, "The desk's grid after a result"). The
# CSRF token is not in the cache: the rows carry a placeholder, replaced by the asking user's
# token.
# What writes the rows (in the cache entry's key: rows written otherwise are not mixed in).
ROWS_WRITER = "scoring.pages.desk_rows.row_html 2"
CSRF_PLACEHOLDER = "csrf-placeholder-9f2c"
ROWS_CACHE_SECONDS = 6 * 3600

# A desk's poll says which grid its page shows (the grid's ``data-version``, in this header,
# sent by static/js/poll.js for a region marked ``data-poll-patch``) and gets back the grid's
# head and summary with only the rows changed since: after a result, a few rows of 250, not the
# whole grid (BENCHMARKS.md, "The desk's poll: the rows that changed"). ``data-patch-of`` names
# the grid the rows replace theirs in. A grid the server no longer knows, another game, or more
# than PATCH_ROWS rows changed: the whole grid, as to a poll without the header.
HAVE_HEADER = "X-Poll-Have"
GRID_VERSION = re.compile(r"[0-9a-f]{16}")
PATCH_ROWS = 60
# The grids the desks were sent, the newest few (a desk polls every 3 s: it is a version or
# two behind), each by its version: its game and tables and its rows' keys (their first ROW_DIGEST
# characters, in one string), in one cache entry a drive.
SEEN_GRIDS = 16
ROW_DIGEST = 12


def _rows_entry(drive: Drive, game: int, in_play: bool) -> str:
    """The cache entry of a grid's rows: a digest of what every row of it depends on besides
    its own table (the drive, the game, whether it is in play, the drive's flags, the language
    and time zone)."""
    shown = repr(
        (
            ROWS_WRITER,
            drive.pk,
            drive.slug,
            drive.created_at.timestamp(),  # a drive of a database made again, with the same id
            game,
            in_play,
            drive.is_closed,
            drive.sit_out_counts_as_win,
            get_language(),
            timezone.get_current_timezone_name(),
        )
    )
    return "desk-rows:" + hashlib.sha1(shown.encode()).hexdigest()


def _row_keys(view: dict[str, Any], stamps: dict[int, Any]) -> list[str]:
    """Each row's key within its grid's entry: a digest of its table's line of the game,
    whether its score is unusual and its result's stamp."""
    unusual = set(view["unusual"])
    return [
        hashlib.sha1(
            repr((table, table["table"] in unusual, stamps.get(table["table"]))).encode()
        ).hexdigest()
        for table in view["tables"]
    ]


def _grid_html(
    request: HttpRequest, drive: Drive, role: str, game: int, fixed: bool
) -> tuple[str, datetime | None]:
    """The polled grid as HTML, with the asking user's CSRF token. Rendered once for a version
    of the drive (``drive_version``: bumped in the transaction of every change, as the polls'
    ETags) and kept under what else it depends on (role, game shown, language, time zone), with
    a placeholder for the token: the other desks polling the same grid after a change get it
    from the cache. One entry for each such grid, replaced at each version."""
    token = escape(get_token(request))
    version = drive_version(drive)
    where = "desk-grid:" + ".".join(
        str(part)
        for part in (
            drive.pk,
            drive.created_at.timestamp(),  # a drive of a database made again, with the same id
            role,
            game,
            int(fixed),
            get_language(),
            timezone.get_current_timezone_name(),
        )
    )
    kept = cache.get(where)
    # A grid kept with slow tables still to mark (their moment) is drawn again once it passed.
    if (
        isinstance(kept, tuple)
        and len(kept) == 3
        and kept[0] == version
        and (kept[2] is None or timezone.now() < kept[2])
    ):
        html, marks_at = str(kept[1]), kept[2]
    else:
        context = _grid_context(request, drive, role, game, fixed, token=CSRF_PLACEHOLDER)
        context["csrf_token"] = CSRF_PLACEHOLDER
        html = get_template("scoring/desk_grid.html").render(context)
        marks_at = context["slow_marks_at"]
        cache.set(where, (version, html, marks_at), ROWS_CACHE_SECONDS)
    return html.replace(CSRF_PLACEHOLDER, token), marks_at


def _patch_html(
    request: HttpRequest, drive: Drive, role: str, game: int, fixed: bool, have: str
) -> tuple[str, datetime | None]:
    """For a desk that shows the grid ``have``: the grid with only the rows changed since, or
    the whole grid when that one is not known (``_changed_rows``), with the user's token."""
    context = _grid_context(request, drive, role, game, fixed, have=have)
    context["csrf_token"] = get_token(request)
    return get_template("scoring/desk_grid.html").render(context), context["slow_marks_at"]


def _rows_html(
    drive: Drive,
    game: int,
    in_play: bool,
    view: dict[str, Any],
    keys: list[str],
    token: str,
    only: list[int] | None = None,
) -> str:
    """The grid's rows as HTML, with ``token`` for the CSRF token: from the cache where a row
    was written before (under its key, ``_row_keys``), the rest written (``_written_rows``) and
    the grid's rows kept again. ``only`` some rows (by their indices, for a desk's poll: the
    rows changed since its grid, which no desk asked for before, as a rule): written, the
    cache left alone (reading and writing back the grid's rows cost ten times more)."""
    if only is not None:
        written = _written_rows(drive, game, in_play, view, only, token)
        return mark_safe("".join(written))
    entry = _rows_entry(drive, game, in_play)
    kept = cache.get(entry)
    found: dict[str, str] = kept if isinstance(kept, dict) else {}
    missing = [i for i, key in enumerate(keys) if key not in found]
    if missing:
        written = _written_rows(drive, game, in_play, view, missing, CSRF_PLACEHOLDER)
        new = {keys[i]: html for i, html in zip(missing, written, strict=True)}
        # The grid's rows as they are now: a row no longer shown is not kept.
        found = {key: found.get(key) or new[key] for key in keys}
        cache.set(entry, found, ROWS_CACHE_SECONDS)
    return mark_safe("".join(found[key] for key in keys).replace(CSRF_PLACEHOLDER, token))


def _written_rows(
    drive: Drive, game: int, in_play: bool, view: dict[str, Any], indices: list[int], token: str
) -> list[str]:
    """The rows of the grid's tables at ``indices`` written (``desk_rows``, with their
    tables' histories: ``result_versions``), their forms carrying ``token``."""
    if not indices:
        return []
    tables = [view["tables"][i]["table"] for i in indices]
    every = len(indices) == len(view["tables"])
    versions = result_versions(drive, game, None if every else tables)
    unusual = set(view["unusual"])
    urls = {
        "desk_url": reverse("night:desk", args=[drive.slug]),
        "dashboard_url": reverse("night:dashboard", args=[drive.slug]),
    }
    written = []
    for i in indices:
        row = dict(view["tables"][i])
        row["versions"] = versions.get(row["table"], [])
        row["couples"] = [c for c in (row["stays"], row["arrives"]) if c is not None]
        row["unusual"] = row["table"] in unusual
        row["claims"] = _claims(row["versions"]) if row["state"] == "conflict" else []
        written.append(
            row_html(
                row,
                game=game,
                in_play=in_play,
                closed=drive.is_closed,
                sit_out_wins=drive.sit_out_counts_as_win,
                token=token,
                **urls,
            )
        )
    return written


def _shown_game(request: HttpRequest, drive: Drive) -> tuple[int, bool]:
    """The game to show (the one in play unless ``?game=`` names an earlier one) and whether
    the page is fixed on it (else it follows the night from game to game)."""
    asked = int_or_none(request.GET.get("game"))
    if asked is not None and 1 <= asked <= drive.current_game:
        return asked, asked != drive.current_game
    return drive.current_game, False


def _grid_context(
    request: HttpRequest,
    drive: Drive,
    role: str,
    game: int,
    fixed: bool,
    token: str = "",
    have: str = "",
) -> dict[str, Any]:
    """What the grid shows; its rows' forms carry ``token`` (the asking user's CSRF token by
    default). With ``have`` (the version of the grid a desk shows), only the rows changed since
    that grid, when it is known (``patch_of`` says so; else every row)."""
    view = game_view(drive, game) if game else None
    in_play = bool(game) and game == drive.current_game and not drive.is_closed
    advance = advance_state(drive, view, role) if in_play else {"shown": False}
    keys = _row_keys(view, result_stamps(drive, game)) if view is not None else []
    # The tables waiting for the desk, whatever game the grid shows.
    calls = calls_waiting(drive)
    # The tables still playing well after most have reported (the director decides).
    slow = slow_tables(drive, view) if in_play else {"tables": [], "at": None}
    # What the grid shows, in short (the rows by their keys, digests of what they show, and
    # what every row depends on): the page's script swaps the grid only when it changes, and
    # asks for the rows changed since.
    shows = (
        game,
        drive.current_game,
        in_play,
        advance,
        drive.is_closed,
        drive.sit_out_counts_as_win,
        [(call["id"], call["state"]) for call in calls],
        slow["tables"],
    )
    version = hashlib.sha1((repr(shows) + "".join(keys)).encode()).hexdigest()[:16]
    shown = _changed_rows(drive, version, view, in_play, keys, have) if view is not None else None
    return {
        "drive": drive,
        "game": game,
        "fixed": fixed,
        "in_play": in_play,
        "version": version,
        "patch_of": have if shown is not None else "",
        "view": view,
        # The summary's links to the tables missing, in conflict, waiting or unusual (table
        # numbers: integers, nothing to escape).
        "links": {
            name: mark_safe(", ".join(f'<a href="#table-{t:d}">{t:d}</a>' for t in view[name]))
            for name in SUMMARY_LISTS
        }
        if view is not None
        else {},
        "rows_html": _rows_html(
            drive, game, in_play, view, keys, token or escape(get_token(request)), shown
        )
        if view is not None
        else "",
        "advance": advance,
        "calls": calls,
        "slow": slow["tables"],
        "slow_links": mark_safe(
            ", ".join(f'<a href="#table-{t:d}">{t:d}</a>' for t in slow["tables"])
        ),
        # The moment slow tables will be marked, while it is to come.
        "slow_marks_at": slow["at"] if slow["at"] is not None and not slow["tables"] else None,
        "games": range(1, drive.current_game + 1),
        "poll_seconds": POLL_SECONDS,
    }


def _changed_rows(
    drive: Drive, version: str, view: dict[str, Any], in_play: bool, keys: list[str], have: str
) -> list[int] | None:
    """Keeps the grid ``version`` among the grids sent (``SEEN_GRIDS``) and, for a desk that
    shows the grid ``have``, the rows (their indices) that changed since; None when that grid
    is not known, shows another game or other tables, or too many rows changed (the whole grid
    then)."""
    where = f"desk-seen:{drive.pk}.{drive.created_at.timestamp()}"
    # What every row depends on besides its own line (the game, whether it is in play, the
    # drive's flags) and the tables: a grid that differs there gets every row again.
    flags = (view["number"], in_play, drive.is_closed, drive.sit_out_counts_as_win)
    tables = repr(flags) + ",".join(str(table["table"]) for table in view["tables"])
    short = "".join(key[:ROW_DIGEST] for key in keys)
    kept = cache.get(where)
    seen: dict[str, tuple[str, str]] = kept if isinstance(kept, dict) else {}
    if version not in seen:
        seen[version] = (tables, short)
        for old in list(seen)[:-SEEN_GRIDS]:
            del seen[old]
        cache.set(where, seen, ROWS_CACHE_SECONDS)
    before = seen.get(have) if have else None
    if before is None or before[0] != tables or len(before[1]) != len(short):
        return None
    n, then = ROW_DIGEST, before[1]
    changed = [
        i for i in range(len(keys)) if then[i * n : (i + 1) * n] != short[i * n : (i + 1) * n]
    ]
    return changed if len(changed) <= PATCH_ROWS else None


def _claims(versions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """For a table in conflict: each result entered (a winner, and its points when an entry
    gave them), with the first entry that said it."""
    claims: dict[tuple[int, tuple[int, ...]], dict[str, Any]] = {}
    for version in versions:
        said = (version["winner"], tuple(version["points"] or ()))
        if version["kind"] in ("entered", "conflicting") and said not in claims:
            claims[said] = version
    return list(claims.values())


def _page_context(
    request: HttpRequest, drive: Drive, role: str, game: int, fixed: bool, **entry: Any
) -> dict[str, Any]:
    context = _grid_context(request, drive, role, game, fixed)
    context.update(
        role=role,
        entry={"table": "", "winner": "", "points": "", "confirm": False, **entry},
    )
    return context


def _post(request: HttpRequest, drive: Drive, role: str) -> HttpResponse:
    data = request.POST
    action = data.get("action", "enter")
    game = int_or_none(data.get("game")) or drive.current_game
    if action == "advance":
        return _advance(request, drive, role, game)
    if action in CALL_ACTIONS:
        return _call(request, drive, role, action, data.get("call"))
    table = int_or_none(data.get("table"))
    winner = int_or_none(data.get("winner"))
    confirm = data.get("confirm_unusual") in ("on", "1", "true", "yes")
    status, level, code = 422, "error", "bad_input"
    field: str | None
    message, field = "", "table"
    if table is None:
        message = _("Type the table number.")
    elif winner is None:
        message = _("Type the number of the couple that won at table %(table)s.") % {"table": table}
        field = "winner"
    else:
        try:
            points = parse_points(data.get("points"))
        except ValueError:
            message = _("Points are two numbers, the winner's first, like 50-40.")
            field = SCORE_FIELD
        else:
            status, level, code, message, field = _act(
                drive, request, action, game, table, winner, points, confirm, data
            )
    if wants_json(request):
        return JsonResponse(
            {
                "ok": status < 400,
                "status": status,
                "code": code,
                "level": level,
                "message": message,
                "game": game,
                "table": table,
                "winner": winner,
                "field": field if status >= 400 else None,
            },
            status=status,
        )
    entry: dict[str, Any] = {"message": message, "level": level, "code": code}
    if status >= 400 and status != 409 and action == "enter":  # a conflict is kept: done
        # The line comes back as the script leaves it: a winner or points refused with their
        # table (or for the table itself) are not kept, so that the next Enter cannot send them
        # for another table.
        keep_rest = field in (SCORE_FIELD, "confirm")
        entry.update(
            table=data.get("table", ""),
            winner=data.get("winner", "") if keep_rest else "",
            points=data.get("points", "") if keep_rest else "",
            confirm=confirm and keep_rest,
            focus=field if keep_rest else "table",
        )
    drive.refresh_from_db()
    shown, fixed = (game, game != drive.current_game) if game else (drive.current_game, False)
    context = _page_context(request, drive, role, shown, fixed, **entry)
    return render(request, "scoring/desk.html", context, status=status)


CALL_ACTIONS = {"call_answer": call_answer, "call_close": call_close}


def _call(request: HttpRequest, drive: Drive, role: str, action: str, call: Any) -> HttpResponse:
    """The grid's buttons of a table's call: "On my way" (the table's phone shows it) and
    "Done" (the call closed); the answer is the desk's status line."""
    try:
        done = CALL_ACTIONS[action](drive=drive, call=int_or_none(call), actor=desk_actor(request))
    except ServiceError as error:
        status, level, code, message = error.status, "error", error.code, error.message
    else:
        status, level, code = 200, "success", action
        where = {"table": done.table.number}
        message = (
            _("Table %(table)s is told the desk is on its way.")
            if action == "call_answer"
            else _("Table %(table)s's call is closed.")
        ) % where
    return _status_answer(request, drive, role, (status, level, code, message))


def _status_answer(
    request: HttpRequest,
    drive: Drive,
    role: str,
    said: tuple[int, str, str, str],
    **extra: Any,
) -> HttpResponse:
    """The answer of a grid's button (the advance, a call's): the desk's status line, as JSON
    for the page's script (with ``extra``), else the desk page at the game in play."""
    status, level, code, message = said
    if wants_json(request):
        return JsonResponse(
            {
                "ok": status < 400,
                "status": status,
                "code": code,
                "level": level,
                "message": message,
                **extra,
                "field": None,
            },
            status=status,
        )
    drive.refresh_from_db()
    context = _page_context(
        request, drive, role, drive.current_game, False, message=message, level=level, code=code
    )
    return render(request, "scoring/desk.html", context, status=status)


def _advance(request: HttpRequest, drive: Drive, role: str, game: int) -> HttpResponse:
    """The desk's "Start game N" button: the dashboard's advance (the same service, the same
    checks), for the roles the drive lets start a game; the answer is the desk's status line."""
    where = {"game": game, "next": game + 1}
    if role not in drive.advance_roles():
        status, level, code = 403, "error", "forbidden"
        message = _("Only an organizer can start the next game (the drive's settings say so).")
    else:
        try:
            status, started = game_advance(drive=drive, game=game, actor=desk_actor(request))
        except ServiceError as error:
            status, level, code, message = error.status, "error", error.code, error.message
        else:
            level, code = ("success", "advanced") if status == 201 else ("info", "replayed")
            where["next"] = started.number
            message = (
                _("Game %(next)s has started: the projector and the phones show the new tables.")
                if status == 201
                else _("Game %(next)s had already started (the advance happens only once).")
            ) % where
    return _status_answer(request, drive, role, (status, level, code, message), game=game)


def _act(
    drive: Drive,
    request: HttpRequest,
    action: str,
    game: int,
    table: int,
    winner: int,
    points: list[int] | None,
    confirm: bool,
    data: Any,
) -> tuple[int, str, str, str, str | None]:
    """Call the service; (HTTP status, level, code, message for the scorer, the entry line's
    field a refusal is about: "table", "winner", "points", "confirm", or None when stored)."""
    actor = Actor(user=request.user, channel=AuditEntry.Channel.DESK)
    where = {"table": table, "winner": winner, "game": game}
    try:
        if action == "resolve":
            result_resolve(
                drive=drive,
                game=game,
                table=table,
                winner=winner,
                reason=data.get("reason", ""),
                points=points,
                actor=actor,
            )
            return (
                200,
                "success",
                "resolved",
                _("Table %(table)s settled: couple %(winner)s won (game %(game)s).") % where,
                None,
            )
        recorded = result_record(
            drive=drive,
            game=game,
            table=table,
            winner=winner,
            points=points,
            confirm_unusual=confirm,
            actor=actor,
        )
    except Conflict as error:
        if error.code == "result_conflict":
            return (
                409,
                "error",
                error.code,
                _("Conflict at table %(table)s: %(message)s Settle it in the grid below.")
                % {"table": table, "message": error.message},
                None,
            )
        return error.status, "error", error.code, error.message, _field_of(error)
    except ServiceError as error:
        message = error.message
        if error.code == "unusual_score":
            message = _(
                "%(reason)s If it really happened, tick “Unusual score” and press Enter again."
            ) % {"reason": error.details.get("verdict", {}).get("message", error.message)}
        return error.status, "error", error.code, message, _field_of(error)
    if recorded.corrected:
        message = _("Table %(table)s: your entry corrected to couple %(winner)s (game %(game)s).")
        return 201, "success", "corrected", message % where, None
    message = _("Table %(table)s: couple %(winner)s won (game %(game)s).") % where
    if recorded.status == 200:
        if recorded.result.winner.number != winner:  # pragma: no cover - the service's 409
            return 409, "error", "result_conflict", message, None
        message = _("Table %(table)s: couple %(winner)s won (already recorded).") % where
        return 200, "info", "replayed", message, None
    if recorded.verdict is not None and recorded.verdict.status == "unusual":
        message += " " + _("Unusual score, confirmed.")
    return 201, "success", "stored", message, None


def _field_of(error: ServiceError) -> str:
    """The entry line's field a refusal is about (see WINNER_CODES)."""
    if error.code == "unusual_score":
        return "confirm"
    if error.code == "bad_points" or "verdict" in error.details:
        return SCORE_FIELD
    if error.code in WINNER_CODES:
        return "winner"
    return "table"
