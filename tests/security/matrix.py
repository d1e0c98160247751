"""The access matrix: every URL pattern of the site, each with the request made for it and
the answer expected for each kind of caller (tests/security/world.py builds the world and
the callers). ``test_access_matrix`` sends every cell; ``test_csrf`` reuses the rows.

The callers, in the order of each row: anonymous, the scorer and the organizer of the drive's
club (logged in; API tokens for the API), the organizer of another club, the token of table 1
of the drive, of table 2, of a table of another drive of the same club, of a closed drive's
table (its couple's token on couple pages), and the token of a couple playing at table 1.

Pages use the session; tokens open no page but their own (``/t/<token>/``, ``/c/<token>/``),
so a token caller sends its token as ``Authorization: Bearer`` and is still anonymous there.
The API takes every credential as ``Authorization: Bearer``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import Group
from django.test import Client

from drives.models import AuditEntry, Couple, Game, Membership, Seat, Table
from scoring.models import Result
from seasons.models import Season
from tests.security.world import CALLERS, CLUB_A, UNKNOWN_TOKEN, Caller, World

LOGIN = "login"  # 302 to /accounts/login/
ADMIN_LOGIN = "admin-login"  # 302 to /admin/login/
Expected = int | str
Row = tuple[Expected, ...]


# --- rows by kind of page -------------------------------------------------------------------------


def everyone(status: Expected) -> Row:
    return (status,) * len(CALLERS)


def users(anon: Expected, scorer: Expected, org: Expected, other: Expected) -> Row:
    """A page for users: a token (no session) is the anonymous caller."""
    return (anon, scorer, org, other, anon, anon, anon, anon, anon)


def member_page(ok: Expected, *, scorer: Expected | None = None) -> Row:
    """A page of the drive for its club's members; the other club's organizer gets 404."""
    return users(LOGIN, ok if scorer is None else scorer, ok, 404)


def organizer_page(ok: Expected) -> Row:
    return member_page(ok, scorer=403)


def readers(ok: Expected) -> Row:
    """An API read for the members and the drive's own table and couple tokens."""
    return (401, ok, ok, 404, ok, ok, 404, 403, ok)


def members(ok: Expected, *, scorer: Expected | None = None) -> Row:
    """An API endpoint for the members only: the drive's tokens get 403 token_not_allowed,
    another drive's token the same 404 as an outsider, a closed drive's 403 token_expired."""
    return (401, ok if scorer is None else scorer, ok, 404, 403, 403, 404, 403, 403)


def organizers(ok: Expected) -> Row:
    return members(ok, scorer=403)


def club_api(ok: Expected, *, scorer: Expected | None = None) -> Row:
    """An API endpoint of a club (its seasons): members only; every table or couple token is
    refused (403 token_not_allowed; a closed drive's 403 token_expired)."""
    return (401, ok if scorer is None else scorer, ok, 404, 403, 403, 403, 403, 403)


def admin_row(staff: Expected, other: Expected) -> Row:
    """An admin page: only staff get past the admin's login (the scorer is no staff)."""
    return users(ADMIN_LOGIN, ADMIN_LOGIN, staff, other)


@dataclass(frozen=True)
class Case:
    """One row: a request (``path`` and ``body`` are filled from ``World.values``) and the
    answer expected for each caller."""

    route: str  # the pattern, as get_resolver() spells it
    method: str
    path: str
    row: Row
    body: Any = None  # form fields (pages), JSON (API) or (content type, bytes)
    note: str = ""
    reveals: frozenset[str] = field(default_factory=frozenset)  # markers shown on purpose

    @property
    def is_api(self) -> bool:
        return self.route.startswith("api/")


D = "drives/<slug:slug>"
A = "api/v1/drives/<slug:slug>"
P = "/drives/{slug}"
AP = "/api/v1/drives/{slug}"
TIE = "<int:tie>"
S = "clubs/<slug:club>/seasons/<slug:season>"
SP = "/clubs/{club}/seasons/{season}"
AS = "api/v1/clubs/<club>/seasons"
ASS = AS + "/<season>"
ASP = "/api/v1/clubs/{club}/seasons/{season}"
NUM_TIE = "<num:tie>"
R = "api/v1/drives/<slug>/registrations"  # the club's router (club/api.py)

CASES: list[Case] = [
    # --- the site -------------------------------------------------------------------------------
    Case("", "GET", "/", everyone(200)),
    Case("healthz", "GET", "/healthz", everyone(200)),
    Case("livez", "GET", "/livez", everyone(200)),
    Case("favicon.ico", "GET", "/favicon.ico", everyone(302), note="the site's icon"),
    # The hall's first start: only on the hall's settings while nobody can log in, and only
    # for the laptop itself (tests/config/test_first_run.py); everywhere else, no such page.
    Case("first-run/", "GET", "/first-run/", everyone(404), note="the hall's first start"),
    Case(
        "first-run/",
        "POST",
        "/first-run/",
        everyone(404),
        body={"club": "Glenora", "username": "new", "password1": "x", "password2": "x"},
        note="the hall's first start",
    ),
    Case("jsi18n/", "GET", "/jsi18n/", everyone(200)),
    Case(
        "i18n/setlang/",
        "POST",
        "/i18n/setlang/",
        everyone(302),
        body={"language": "fr", "next": "/"},
        note="the header's language switch",
    ),
    # --- accounts: login and logout for anyone, the password pages for users ---------------------
    Case("accounts/login/", "GET", "/accounts/login/", everyone(200)),
    Case(
        "accounts/login/",
        "POST",
        "/accounts/login/",
        everyone(200),
        body={"username": "glenora-organizer", "password": "wrong"},
        note="wrong password",
    ),
    Case("accounts/logout/", "POST", "/accounts/logout/", everyone(302)),
    Case(
        "accounts/password_change/",
        "GET",
        "/accounts/password_change/",
        users(LOGIN, 200, 200, 200),
    ),
    Case(
        "accounts/password_change/done/",
        "GET",
        "/accounts/password_change/done/",
        users(LOGIN, 200, 200, 200),
    ),
    Case("accounts/password_reset/", "GET", "/accounts/password_reset/", everyone(200)),
    Case(
        "accounts/password_reset/",
        "POST",
        "/accounts/password_reset/",
        everyone(302),
        body={"email": "glenora-organizer@example.org"},
    ),
    Case("accounts/password_reset/done/", "GET", "/accounts/password_reset/done/", everyone(200)),
    Case(
        "accounts/reset/<uidb64>/<token>/",
        "GET",
        "/accounts/reset/MQ/bad-token/",
        everyone(200),
        note="a link that is no good",
    ),
    Case("accounts/reset/done/", "GET", "/accounts/reset/done/", everyone(200)),
    # --- the organizer's setup pages (drives/views.py) --------------------------------------------
    Case("drives/", "GET", "/drives/", users(LOGIN, 200, 200, 200)),
    Case(
        "drives/",
        "POST",
        "/drives/",
        users(LOGIN, 302, 302, 302),
        body={"name": "Mabou Hall"},
        note="any user may create a club and organize it",
    ),
    Case("drives/new", "GET", "/drives/new", users(LOGIN, 302, 200, 200)),
    Case(
        "drives/new",
        "POST",
        "/drives/new",
        users(LOGIN, 302, 302, 422),
        body={
            "club": "{club_pk}",
            "name": "Extra night",
            "date": "2026-12-04",
            "games": "5",
            "ruleset": "cape-breton-45",
            "movement": "winners-move",
            "first_seating": "by-number",
            "ranking": "dense",
            "entry_fee": "0",
            "currency": "CAD",
        },
        note="the other club's organizer cannot pick club A",
    ),
    Case(f"{D}/settings", "GET", f"{P}/settings", organizer_page(200)),
    Case(
        f"{D}/settings",
        "POST",
        f"{P}/settings",
        organizer_page(302),
        body={
            "name": "Friday night",
            "date": "2026-11-20",
            "venue": "The hall",
            "sit_out_counts_as_win": "on",
            "ranking": "dense",
            "entry_fee": "5",
            "currency": "CAD",
            "ruleset": "cape-breton-45",
            "confirm_by_other_couple": "on",
        },
    ),
    Case(f"{D}/couples/", "GET", f"{P}/couples/", member_page(200)),
    Case(
        f"{D}/couples/",
        "POST",
        f"{P}/couples/",
        member_page(302),
        body={"player1": "Late", "player2": "Arrival"},
    ),
    Case(f"{D}/couples/import", "GET", f"{P}/couples/import", member_page(200)),
    Case(
        f"{D}/couples/import",
        "POST",
        f"{P}/couples/import",
        member_page(422),
        body={},
        note="no file: the form says so",
    ),
    Case(
        f"{D}/couples/<int:number>/toggle",
        "POST",
        f"{P}/couples/{{couple}}/toggle",
        member_page(302),
        body={"set": "paid:1"},
    ),
    Case(
        f"{D}/couples/<int:number>/withdraw",
        "GET",
        f"{P}/couples/{{couple}}/withdraw",
        member_page(200),
    ),
    Case(
        f"{D}/couples/<int:number>/withdraw",
        "POST",
        f"{P}/couples/{{couple}}/withdraw",
        member_page(302),
        body={"withdrawn": "1"},
    ),
    Case(f"{D}/couples/<int:number>/edit", "GET", f"{P}/couples/{{couple}}/edit", member_page(200)),
    Case(
        f"{D}/couples/<int:number>/edit",
        "POST",
        f"{P}/couples/{{couple}}/edit",
        member_page(302),
        body={"player1": "Mary", "player2": "Angus"},
    ),
    Case(
        f"{D}/couples/<int:number>/delete",
        "GET",
        f"{P}/couples/{{couple}}/delete",
        member_page(200),
        note="started: the page says to withdraw instead",
    ),
    Case(
        f"{D}/couples/<int:number>/delete",
        "POST",
        f"{P}/couples/{{couple}}/delete",
        member_page(302),
        body={},
        note="started: refused with a message, nothing deleted",
    ),
    # --- the night: dashboard and its actions (scoring/pages/organizer.py) -----------------------
    Case(f"{D}/", "GET", f"{P}/", member_page(200)),
    Case(
        f"{D}/start",
        "POST",
        f"{P}/start",
        organizer_page(302),
        body={"start-seating": "by-number"},
        note="already started: a message says so",
    ),
    Case(
        f"{D}/advance",
        "POST",
        f"{P}/advance",
        member_page(409),
        body={"game": "2"},
        note="game 2 is not complete; scorers too by default (scorers_may_advance)",
    ),
    Case(
        f"{D}/resolve",
        "POST",
        f"{P}/resolve",
        member_page(302),
        body={
            "fix-game": "2",
            "fix-table": "1",
            "fix-winner": "{winner}",
            "fix-reason": "both couples agree",
        },
    ),
    Case(f"{D}/holes", "POST", f"{P}/holes", member_page(302), body={"holes-1": "1"}),
    Case(f"{D}/publish", "POST", f"{P}/publish", organizer_page(302), body={"published": "1"}),
    Case(f"{D}/close", "GET", f"{P}/close", organizer_page(200)),
    Case(f"{D}/close", "POST", f"{P}/close", organizer_page(302), body={"confirm": "on"}),
    # --- the night's money (money/views.py) ------------------------------------------------------
    Case(f"{D}/money/", "GET", f"{P}/money/", member_page(200)),
    Case(f"{D}/money/", "POST", f"{P}/money/", member_page(302), body={"action": "sell"}),
    Case(f"{D}/money/pot", "GET", f"{P}/money/pot", member_page(200)),
    Case(f"{D}/money/projector", "GET", f"{P}/money/projector", member_page(200)),
    Case(f"{D}/money/accounts.csv", "GET", f"{P}/money/accounts.csv", member_page(200)),
    Case(
        f"{D}/money/accounts.pdf",
        "GET",
        f"{P}/money/accounts.pdf",
        member_page(302),
        note="the print page, the treasurer's sheet chosen",
    ),
    Case(
        f"{D}/money/licence-report",
        "GET",
        f"{P}/money/licence-report",
        member_page(422),
        note="the world's drive has no licence number: the page says where to set it",
    ),
    Case(f"{D}/money/pots", "GET", f"{P}/money/pots", member_page(200)),
    Case(
        f"{D}/money/pots",
        "POST",
        f"{P}/money/pots",
        member_page(302),
        body={"action": "add", "pot": "999999", "amount": "5"},
        note="no such pot: the page says so",
    ),
    # --- prizes (scoring/pages/prizes.py) ---------------------------------------------------------
    Case(f"{D}/prizes/", "GET", f"{P}/prizes/", member_page(200)),
    Case(
        f"{D}/prizes/setup",
        "POST",
        f"{P}/prizes/setup",
        organizer_page(422),
        body={},
        note="an empty form: the page names what is missing",
    ),
    Case(
        f"{D}/prizes/settle",
        "POST",
        f"{P}/prizes/settle",
        organizer_page(302),
        body={"force": "on"},
    ),
    Case(
        f"{D}/prizes/cookie-jar",
        "POST",
        f"{P}/prizes/cookie-jar",
        organizer_page(422),
        body={"jar-method": "system"},
        note="the drive has no cookie jar",
    ),
    Case(
        f"{D}/prizes/buy-in",
        "POST",
        f"{P}/prizes/buy-in",
        organizer_page(422),
        body={},
        note="an empty form: the page asks for the buy-in",
    ),
    Case(f"{D}/prizes/ties/{TIE}/", "GET", f"{P}/prizes/ties/{{tie}}/", member_page(200)),
    Case(
        f"{D}/prizes/ties/{TIE}/",
        "GET",
        f"{P}/prizes/ties/{{their_tie}}/",
        member_page(404),
        note="the other club's tie under this drive's address",
    ),
    Case(
        f"{D}/prizes/ties/{TIE}/choice",
        "POST",
        f"{P}/prizes/ties/{{tie}}/choice",
        member_page(302),
        body={"choice": "{tie_couple}:split"},
    ),
    Case(
        f"{D}/prizes/ties/{TIE}/decide",
        "POST",
        f"{P}/prizes/ties/{{tie}}/decide",
        member_page(409),
        body={},
        note="the couples have not chosen",
    ),
    Case(
        f"{D}/prizes/ties/{TIE}/cut",
        "POST",
        f"{P}/prizes/ties/{{tie}}/cut",
        member_page(409),
        body={},
        note="not a cut (yet)",
    ),
    Case(
        f"{D}/prizes/ties/{TIE}/draw",
        "POST",
        f"{P}/prizes/ties/{{tie}}/draw",
        member_page(409),
        body={},
        note="not a cut (yet)",
    ),
    Case(
        f"{D}/prizes/ties/{TIE}/cut-rule",
        "POST",
        f"{P}/prizes/ties/{{tie}}/cut-rule",
        organizer_page(422),
        body={},
        note="an empty form: the page asks how the hall cuts",
    ),
    Case(
        f"{D}/prizes/ties/{TIE}/playoff",
        "POST",
        f"{P}/prizes/ties/{{tie}}/playoff",
        member_page(409),
        body={"match": "1-2", "winner": "1"},
        note="not a play-off",
    ),
    # --- printing (scoring/pages/printing.py) ----------------------------------------------------
    Case(f"{D}/print/", "GET", f"{P}/print/", member_page(200)),
    Case(
        f"{D}/print/request",
        "POST",
        f"{P}/print/request",
        member_page(302),
        body={"document": "table-cards", "paper": "letter"},
    ),
    Case(f"{D}/print/<int:pk>/", "GET", f"{P}/print/{{doc}}/", member_page(200)),
    Case(f"{D}/print/<int:pk>/status", "GET", f"{P}/print/{{doc}}/status", member_page(200)),
    Case(f"{D}/print/<int:pk>/file", "GET", f"{P}/print/{{doc}}/file", member_page(200)),
    Case(
        f"{D}/print/<int:pk>/file",
        "GET",
        f"{P}/print/{{their_doc}}/file",
        member_page(404),
        note="the other club's PDF under this drive's address",
    ),
    # --- the live pages ---------------------------------------------------------------------------
    Case(f"{D}/desk/", "GET", f"{P}/desk/", member_page(200)),
    Case(
        f"{D}/desk/",
        "POST",
        f"{P}/desk/",
        member_page(200),
        body={"game": "2", "table": "1", "winner": "{winner}"},
        note="the same winner as the table's: a replay",
    ),
    Case(f"{D}/projector/", "GET", f"{P}/projector/", member_page(200)),
    Case(f"{D}/standings/", "GET", f"{P}/standings/", member_page(200)),
    Case(f"{D}/grid/", "GET", f"{P}/grid/", member_page(200)),
    Case(
        "results/<slug:slug>/",
        "GET",
        "/results/{slug}/",
        everyone(404),
        note="not published: nobody, the organizer included",
    ),
    Case(
        "results/<slug:slug>/",
        "GET",
        "/results/{closed_slug}/",
        everyone(200),
        note="published: anyone",
        reveals=frozenset({CLUB_A}),
    ),
    # The token is the caller's own: /t/ takes a table token, /c/ a couple token; callers
    # without one send a token that is nobody's.
    Case(
        "t/<str:token>/", "GET", "/t/{table_token}/", (404, 404, 404, 404, 200, 200, 200, 410, 404)
    ),
    Case(
        "t/<str:token>/",
        "POST",
        "/t/{table_token}/",
        (404, 404, 404, 404, 200, 422, 422, 410, 404),
        body={"game": "2", "winner": "{winner}"},
        note="each table writes only its own table's result: the winner at table 1 is no "
        "couple of table 2, nor of the other drive's table",
    ),
    Case(
        "c/<str:token>/",
        "GET",
        "/c/{couple_token}/",
        (404, 404, 404, 404, 404, 404, 404, 200, 200),
        note="a closed drive's couple reads its own record of the night (its POST is a 410)",
    ),
    Case(
        "c/<str:token>/",
        "POST",
        "/c/{couple_token}/",
        (404, 404, 404, 404, 404, 404, 404, 410, 200),
        body={"action": "confirm", "game": "2"},
    ),
    # --- the practice table (practice/): anyone, no account -------------------------------------
    Case("practice/", "GET", "/practice/", everyone(200)),
    Case("practice/", "POST", "/practice/", everyone(302), body={"ruleset": "cape-breton-45"}),
    Case("practice/<uuid:game_id>/", "GET", "/practice/{practice}/", everyone(200)),
    Case(
        "practice/<uuid:game_id>/play",
        "POST",
        "/practice/{practice}/play",
        everyone(302),
        body={"card": "ZZ"},
        note="refused (not a card): back to the table with the reason",
    ),
    Case("practice/<uuid:game_id>/rob", "POST", "/practice/{practice}/rob", everyone(302)),
    Case("practice/<uuid:game_id>/bid", "POST", "/practice/{practice}/bid", everyone(302)),
    Case("practice/<uuid:game_id>/trump", "POST", "/practice/{practice}/trump", everyone(302)),
    Case("practice/<uuid:game_id>/draw", "POST", "/practice/{practice}/draw", everyone(302)),
    # --- the API (api/, its routers in the apps) --------------------------------------------------
    Case("api/v1/me", "GET", "/api/v1/me", (401, 200, 200, 200, 200, 200, 200, 403, 200)),
    Case(
        "api/v1/export-schema",
        "GET",
        "/api/v1/export-schema",
        (401, 200, 200, 200, 200, 200, 200, 403, 200),
    ),
    Case("api/v1/openapi.json", "GET", "/api/v1/openapi.json", everyone(200)),
    # The practice endpoints need no credentials and read no session: a bearer token is
    # simply not looked at.
    Case(
        "api/v1/practice",
        "POST",
        "/api/v1/practice",
        everyone(201),
        body={"ruleset": "cape-breton-45"},
    ),
    Case("api/v1/practice/<uuidstr:game_id>", "GET", "/api/v1/practice/{practice}", everyone(200)),
    Case(
        "api/v1/practice/<uuidstr:game_id>/play",
        "POST",
        "/api/v1/practice/{practice}/play",
        everyone(422),
        body={"card": "ZZ"},
        note="not a card: refused, the game unchanged",
    ),
    Case(
        "api/v1/practice/<uuidstr:game_id>/rob",
        "POST",
        "/api/v1/practice/{practice}/rob",
        everyone(409),
        body={"discard": None},
        note="nothing to rob now",
    ),
    Case(
        "api/v1/practice/<uuidstr:game_id>/bid",
        "POST",
        "/api/v1/practice/{practice}/bid",
        everyone(409),
        body={"bid": None},
        note="no bidding in this game's ruleset",
    ),
    Case(
        "api/v1/practice/<uuidstr:game_id>/trump",
        "POST",
        "/api/v1/practice/{practice}/trump",
        everyone(409),
        body={"suit": "H"},
        note="trump was turned up",
    ),
    Case(
        "api/v1/practice/<uuidstr:game_id>/draw",
        "POST",
        "/api/v1/practice/{practice}/draw",
        everyone(409),
        body={"discards": []},
        note="no kitty in this game's ruleset",
    ),
    # The description's docs page is for a logged-in member (tests/api/test_docs_page.py);
    # a bearer token logs nobody in, so every caller here is sent to the login page.
    Case("api/v1/docs", "GET", "/api/v1/docs", everyone(LOGIN)),
    Case("api/v1/drives", "GET", "/api/v1/drives", (401, 200, 200, 200, 403, 403, 403, 403, 403)),
    Case(
        "api/v1/drives",
        "POST",
        "/api/v1/drives",
        (401, 403, 201, 404, 403, 403, 403, 403, 403),
        body={"club": "{club}", "name": "Extra night", "date": "2026-12-04"},
    ),
    Case(A, "GET", AP, readers(200)),
    Case(A, "PATCH", AP, organizers(200), body={"venue": "The hall"}),
    Case(f"{A}/start", "POST", f"{AP}/start", organizers(409), note="already started"),
    Case(f"{A}/close", "POST", f"{AP}/close", organizers(200)),
    Case(f"{A}/couples", "GET", f"{AP}/couples", members(200)),
    Case(f"{A}/couples", "POST", f"{AP}/couples", members(201), body={"players": ["Late", "Pair"]}),
    Case(
        f"{A}/couples/import",
        "POST",
        f"{AP}/couples/import",
        members(201),
        body=("text/csv", b"player1,player2\nLate,Comer\n"),
    ),
    Case(
        f"{A}/couples/<num:number>",
        "PATCH",
        f"{AP}/couples/{{couple}}",
        members(200),
        body={"paid": True},
    ),
    Case(
        f"{A}/couples/<num:number>",
        "DELETE",
        f"{AP}/couples/{{couple}}",
        members(409),
        note="the night has started: 409 started, withdraw instead",
    ),
    Case(f"{A}/games/current", "GET", f"{AP}/games/current", readers(200)),
    Case(f"{A}/games/<num:n>", "GET", f"{AP}/games/1", readers(200)),
    Case(
        f"{A}/games/<num:n>/advance",
        "POST",
        f"{AP}/games/2/advance",
        members(409),
        note="game 2 is not complete; scorers too by default (scorers_may_advance)",
    ),
    Case(
        f"{A}/games/<num:n>/tables/<num:t>/result",
        "PUT",
        f"{AP}/games/2/tables/1/result",
        (401, 200, 200, 404, 200, 403, 404, 403, 200),
        body={"winner": "{winner}"},
        note="the same winner again is a replay; table 2's token may not write table 1",
    ),
    Case(
        f"{A}/games/<num:n>/tables/<num:t>/confirm",
        "POST",
        f"{AP}/games/2/tables/1/confirm",
        (401, 403, 403, 404, 403, 403, 404, 403, 200),
        body={"accept": True},
        note="only the other couple's token confirms",
    ),
    Case(
        f"{A}/games/<num:n>/tables/<num:t>/resolve",
        "POST",
        f"{AP}/games/2/tables/1/resolve",
        members(200),
        body={"winner": "{winner}", "reason": "both couples agree"},
    ),
    Case(
        f"{A}/games/<num:n>/tables/<num:t>/call",
        "POST",
        f"{AP}/games/2/tables/1/call",
        (401, 201, 201, 404, 201, 403, 404, 403, 201),
        body={"reason": "a misdeal"},
        note="table 1's token or a couple seated there; table 2's token may not call for 1",
    ),
    Case(f"{A}/calls", "GET", f"{AP}/calls", members(200)),
    Case(f"{A}/calls/<num:call>/answer", "POST", f"{AP}/calls/{{call}}/answer", members(200)),
    Case(f"{A}/calls/<num:call>/close", "POST", f"{AP}/calls/{{call}}/close", members(200)),
    Case(f"{A}/standings", "GET", f"{AP}/standings", readers(200)),
    Case(f"{A}/grid", "GET", f"{AP}/grid", readers(200)),
    Case(f"{A}/tables", "GET", f"{AP}/tables", readers(200)),
    Case(f"{A}/export", "GET", f"{AP}/export", members(200)),
    Case(f"{A}/holes", "POST", f"{AP}/holes", members(200), body={"holes": {"1": 1}}),
    Case(f"{A}/reconciliation", "GET", f"{AP}/reconciliation", members(200)),
    Case(f"{A}/prizes", "GET", f"{AP}/prizes", members(200)),
    Case(f"{A}/prizes/setup", "GET", f"{AP}/prizes/setup", members(200)),
    Case(
        f"{A}/prizes/setup",
        "PATCH",
        f"{AP}/prizes/setup",
        organizers(409),
        body={"booby": False},
        note="the ties are open",
    ),
    Case(f"{A}/prizes/ties", "GET", f"{AP}/prizes/ties", members(200)),
    Case(
        f"{A}/prizes/ties",
        "POST",
        f"{AP}/prizes/ties",
        organizers(200),
        body={"force": True},
        note="again: nothing changes",
    ),
    Case(
        f"{A}/prizes/ties/{NUM_TIE}/choices",
        "POST",
        f"{AP}/prizes/ties/{{tie}}/choices",
        members(201),
        body={"couple": "{tie_couple}", "choice": "split"},
    ),
    Case(
        f"{A}/prizes/ties/{NUM_TIE}/decide",
        "POST",
        f"{AP}/prizes/ties/{{tie}}/decide",
        members(409),
        note="the couples have not chosen",
    ),
    Case(
        f"{A}/prizes/ties/{NUM_TIE}/cut",
        "POST",
        f"{AP}/prizes/ties/{{tie}}/cut",
        members(409),
        body={"draw": True},
        note="not a cut (yet)",
    ),
    Case(
        f"{A}/prizes/ties/{NUM_TIE}/playoff",
        "POST",
        f"{AP}/prizes/ties/{{tie}}/playoff",
        members(409),
        body={"match": [1, 2], "winner": 1},
        note="not a play-off",
    ),
    Case(f"{A}/prizes/cookie-jar", "GET", f"{AP}/prizes/cookie-jar", members(200)),
    Case(
        f"{A}/prizes/cookie-jar/draw",
        "POST",
        f"{AP}/prizes/cookie-jar/draw",
        organizers(422),
        note="the drive has no cookie jar",
    ),
    Case(
        f"{A}/documents",
        "POST",
        f"{AP}/documents",
        members(202),
        body={"document": "table-cards"},
    ),
    Case(f"{A}/documents/<num:pk>", "GET", f"{AP}/documents/{{doc}}", members(200)),
    Case(f"{A}/documents/<num:pk>/file", "GET", f"{AP}/documents/{{doc}}/file", members(200)),
    Case(
        f"{A}/documents/<num:pk>/file",
        "GET",
        f"{AP}/documents/{{their_doc}}/file",
        members(404),
        note="the other club's PDF under this drive's address",
    ),
    Case(
        f"{A}/prizes/ties/{NUM_TIE}/decide",
        "POST",
        f"{AP}/prizes/ties/{{their_tie}}/decide",
        members(404),
        note="the other club's tie under this drive's address",
    ),
    # --- the night's money (money/api.py): members, unless the organizer keeps scorers out ------
    Case(f"{A}/accounts", "GET", f"{AP}/accounts", members(200)),
    Case(
        f"{A}/accounts/lines",
        "POST",
        f"{AP}/accounts/lines",
        members(201),
        body={"kind": "donation", "amount": "5"},
    ),
    Case(
        f"{A}/accounts/lines/<int:line>/reverse",
        "POST",
        f"{AP}/accounts/lines/999999/reverse",
        members(404),
        body={},
        note="no such line",
    ),
    Case(f"{A}/accounts/count", "POST", f"{AP}/accounts/count", members(201), body={"total": "10"}),
    Case(
        f"{A}/accounts/licence-report",
        "GET",
        f"{AP}/accounts/licence-report",
        members(422),
        note="no licence number set: 422 no_licence_number, past the same access as the accounts",
    ),
    Case(
        f"{A}/accounts/setup",
        "PATCH",
        f"{AP}/accounts/setup",
        organizers(200),
        body={"share_percent": 50},
    ),
    Case(f"{A}/fifty-fifty/tickets", "POST", f"{AP}/fifty-fifty/tickets", members(201), body={}),
    Case(
        f"{A}/fifty-fifty/draw",
        "POST",
        f"{AP}/fifty-fifty/draw",
        members(409),
        note="no tickets sold",
    ),
    Case(
        f"{A}/fifty-fifty/claim",
        "POST",
        f"{AP}/fifty-fifty/claim",
        members(409),
        body={},
        note="nothing drawn",
    ),
    Case(
        f"{A}/fifty-fifty/unclaimed",
        "POST",
        f"{AP}/fifty-fifty/unclaimed",
        members(409),
        note="nothing drawn",
    ),
    Case(f"{A}/raffles", "POST", f"{AP}/raffles", members(201), body={"name": "A ham"}),
    *[
        Case(
            f"{A}/raffles/<int:raffle>/{tail}",
            "POST",
            f"{AP}/raffles/999999/{tail}",
            members(404),
            body={} if tail in ("tickets", "claim") else None,
            note="no such raffle item",
        )
        for tail in ("tickets", "draw", "claim", "unclaimed")
    ],
    Case(f"{A}/pots", "GET", f"{AP}/pots", members(200)),
    *[
        Case(
            f"{A}/pots/<int:pot>/{tail}",
            "POST",
            f"{AP}/pots/999999/{tail}",
            members(404),
            body=body,
            note="no such pot",
        )
        for tail, body in (
            ("carry", None),
            ("add", {"amount": "5"}),
            ("draw", {"ticket": 1, "card": 1}),
            ("pay", {"winner": "Anne"}),
        )
    ],
    Case("api/v1/clubs/<club>/pots", "GET", "/api/v1/clubs/{club}/pots", club_api(200)),
    Case(
        "api/v1/clubs/<club>/pots",
        "POST",
        "/api/v1/clubs/{club}/pots",
        club_api(201, scorer=403),
        body={"name": "Cookie jar", "kind": "jar"},
    ),
    Case(
        "api/v1/clubs/<club>/money",
        "GET",
        "/api/v1/clubs/{club}/money",
        (401, 403, 200, 404, 403, 403, 403, 403, 403),
    ),
    Case(
        "api/v1/clubs/<club>/money/licence-report",
        "GET",
        "/api/v1/clubs/{club}/money/licence-report?from=2026-01-01&to=2026-12-31",
        (401, 403, 200, 404, 403, 403, 403, 403, 403),
    ),
    Case(
        "clubs/<slug:club>/licence-report",
        "GET",
        "/clubs/{club}/licence-report?from=2026-01-01&to=2026-12-31",
        organizer_page(200),
    ),
    Case(r"api/v1/^(?P<path>[\s\S]*)$", "GET", "/api/v1/no/such/thing", everyone(404)),
    # --- a club's seasons (seasons/): members read, organizers change; public once published --
    Case("seasons/", "GET", "/seasons/", users(LOGIN, 200, 200, 200)),
    Case(
        "seasons/",
        "POST",
        "/seasons/",
        users(LOGIN, 403, 302, 404),
        body={"club": "{club}", "name": "Winter", "starts": "2027-01-01", "ends": "2027-04-30"},
        note="a new season: the club's organizers only",
    ),
    Case(f"{S}/", "GET", f"{SP}/", member_page(200)),
    Case(f"{S}/edit", "GET", f"{SP}/edit", organizer_page(200)),
    Case(f"{S}/drives", "POST", f"{SP}/drives", organizer_page(302), body={"drive": "{slug}"}),
    Case(
        f"{S}/drives/<slug:drive>/remove",
        "POST",
        f"{SP}/drives/{{closed_slug}}/remove",
        organizer_page(302),
    ),
    Case(f"{S}/players", "GET", f"{SP}/players", member_page(200)),
    Case(
        f"{S}/players",
        "POST",
        f"{SP}/players",
        organizer_page(422),
        body={"action": "merge", "name": "Cee North1", "into": "Cee North1"},
        note="merging a player with itself: a form error",
    ),
    Case(f"{S}/projector", "GET", f"{SP}/projector", member_page(200)),
    Case(
        f"{S}/results",
        "GET",
        f"{SP}/results",
        everyone(200),
        note="published: anyone",
        reveals=frozenset({CLUB_A}),
    ),
    Case(f"{AS}", "GET", "/api/v1/clubs/{club}/seasons", club_api(200)),
    Case(
        f"{AS}",
        "POST",
        "/api/v1/clubs/{club}/seasons",
        club_api(201, scorer=403),
        body={"name": "Winter", "starts": "2027-01-01", "ends": "2027-04-30"},
    ),
    Case(ASS, "GET", ASP, club_api(200)),
    Case(ASS, "PATCH", ASP, club_api(200, scorer=403), body={"name": "Fall 2026"}),
    Case(ASS, "DELETE", ASP, club_api(204, scorer=403)),
    Case(
        f"{ASS}/drives",
        "POST",
        f"{ASP}/drives",
        club_api(200, scorer=403),
        body={"drive": "{slug}"},
    ),
    Case(
        f"{ASS}/drives/<slug>",
        "DELETE",
        f"{ASP}/drives/{{closed_slug}}",
        club_api(200, scorer=403),
    ),
    Case(f"{ASS}/standings", "GET", f"{ASP}/standings", club_api(200)),
    Case(f"{ASS}/cookie-jar", "GET", f"{ASP}/cookie-jar", club_api(200)),
    Case(f"{ASS}/money", "GET", f"{ASP}/money", club_api(200, scorer=403)),
    Case(f"{ASS}/players", "GET", f"{ASP}/players", club_api(200)),
    Case(
        f"{ASS}/players/merge",
        "POST",
        f"{ASP}/players/merge",
        club_api(422, scorer=403),
        body={"name": "Cee North1", "into": "cee north1"},
        note="a player merged with itself",
    ),
    Case(
        f"{ASS}/players/unmerge",
        "POST",
        f"{ASP}/players/unmerge",
        club_api(404, scorer=403),
        body={"name": "Cee North1"},
        note="not merged",
    ),
    Case(
        f"{ASS}/players/split",
        "POST",
        f"{ASP}/players/split",
        club_api(200, scorer=403),
        body={"drive": "{closed_slug}", "name": "Cee North1", "as_name": "Cee North1 (Mabou)"},
    ),
    Case(
        f"{ASS}/players/unsplit",
        "POST",
        f"{ASP}/players/unsplit",
        club_api(404, scorer=403),
        body={"drive": "{closed_slug}", "name": "Cee North1"},
        note="not split",
    ),
    # --- the club's players (club/): members read, organizers change ------------------------------
    Case("clubs/<slug:club>/players/", "GET", "/clubs/{club}/players/", member_page(200)),
    Case(
        "clubs/<slug:club>/players/",
        "POST",
        "/clubs/{club}/players/",
        organizer_page(422),
        body={"action": "merge", "keep": "{player}", "gone": "{player}"},
        note="a player merged with themselves: refused",
    ),
    Case(
        "clubs/<slug:club>/players/<int:player>/edit",
        "GET",
        "/clubs/{club}/players/{player}/edit",
        organizer_page(200),
    ),
    Case(
        "clubs/<slug:club>/players/<int:player>/edit",
        "POST",
        "/clubs/{club}/players/{player}/edit",
        organizer_page(422),
        body={"name": "Cee North1", "email": "not an address"},
        note="a bad e-mail address: a form error",
    ),
    Case("api/v1/clubs/<club>/players", "GET", "/api/v1/clubs/{club}/players?q=cee", club_api(200)),
    # --- a night published from the hall's laptop: the club's organizers only ---------------------
    Case(
        "api/v1/clubs/<club>/nights",
        "POST",
        "/api/v1/clubs/{club}/nights",
        (401, 403, 422, 403, 403, 403, 403, 403, 403),
        body={"format": "fortyfives-drive/0"},
        note="another version of the export: 422 other_version; another club's organizer: 403",
    ),
    # --- registration before the night: public pages and POST, members' list and door ------------
    Case(
        "drives/<slug:slug>/register/",
        "GET",
        "/drives/{slug}/register/",
        everyone(404),
        note="the drive takes no registration: no public page",
    ),
    Case(
        "drives/<slug:slug>/register/",
        "POST",
        "/drives/{slug}/register/",
        everyone(404),
        body={"player1": "Ann", "player2": "Joe"},
        note="the drive takes no registration: nothing written",
    ),
    Case(
        "register/cancel/<str:token>/",
        "GET",
        "/register/cancel/{unknown}/",
        everyone(404),
        note="a cancel link that is nobody's",
    ),
    Case(
        "register/cancel/<str:token>/",
        "POST",
        "/register/cancel/{unknown}/",
        everyone(404),
        note="a cancel link that is nobody's",
    ),
    Case(f"{D}/registrations/", "GET", f"{P}/registrations/", member_page(200)),
    Case(
        f"{D}/registrations/<int:pk>/check-in",
        "POST",
        f"{P}/registrations/999999/check-in",
        member_page(302),
        note="no such registration: back to the door with the message",
    ),
    Case(
        f"{D}/registrations/pair",
        "GET",
        f"{P}/registrations/pair?first=1&second=2",
        member_page(302),
        note="no such singles: back to the door with the message",
    ),
    Case(
        f"{D}/registrations/pair",
        "POST",
        f"{P}/registrations/pair",
        member_page(302),
        body={"first": "999998", "second": "999999"},
        note="no such singles: back to the door with the message",
    ),
    Case(R, "GET", f"{AP}/registrations", organizers(200)),
    Case(
        R,
        "POST",
        f"{AP}/registrations",
        everyone(409),
        body={"players": ["Ann", "Joe"]},
        note="no login; the drive runs: registration_closed (registration_not_open)",
    ),
    Case(
        f"{R}/players",
        "GET",
        f"{AP}/registrations/players?q=cee",
        everyone(200),
        note="no login; the drive takes no registration: no player is named",
    ),
    # --- the club's settings (organizers) and its public pages (anyone) ------------------------
    Case("clubs/<slug:club>/settings", "GET", "/clubs/{club}/settings", organizer_page(200)),
    Case(
        "clubs/<slug:club>/settings",
        "POST",
        "/clubs/{club}/settings",
        organizer_page(302),
        body={"public_names": "initial"},
    ),
    Case("clubs/<slug:club>/", "GET", "/clubs/{club}/", everyone(200), reveals=frozenset({CLUB_A})),
    Case(
        "clubs/<slug:club>/players/<int:player>/",
        "GET",
        "/clubs/{club}/players/{closed_player}/",
        everyone(200),
        note="a player of a published night",
        reveals=frozenset({CLUB_A}),
    ),
    Case(
        "clubs/<slug:club>/players/<int:player>/",
        "GET",
        "/clubs/{club}/players/{player}/",
        everyone(404),
        note="a player of no published night: no public page",
    ),
    Case(
        "clubs/<slug:club>/players/<int:player>/<str:key>/",
        "GET",
        "/clubs/{club}/players/{closed_player}/{closed_player_key}/",
        everyone(200),
        note="the player's own page: its key is the way in",
        reveals=frozenset({CLUB_A}),
    ),
    Case(
        "clubs/<slug:club>/players/<int:player>/<str:key>/",
        "GET",
        "/clubs/{club}/players/{closed_player}/0123456789abcdef01234567/",
        everyone(404),
        note="a wrong key",
    ),
    Case(
        "api/v1/clubs/<club>",
        "GET",
        "/api/v1/clubs/{club}",
        everyone(200),
        reveals=frozenset({CLUB_A}),
    ),
    Case(
        "api/v1/clubs/<club>/players/<player>",
        "GET",
        "/api/v1/clubs/{club}/players/{closed_player}",
        everyone(200),
    ),
    Case(
        "api/v1/clubs/<club>/players/<player>/<key>",
        "GET",
        "/api/v1/clubs/{club}/players/{closed_player}/{closed_player_key}",
        everyone(200),
    ),
    Case(
        "api/v1/clubs/<club>/settings",
        "GET",
        "/api/v1/clubs/{club}/settings",
        (401, 403, 200, 404, 403, 403, 403, 403, 403),
    ),
    Case(
        "api/v1/clubs/<club>/settings",
        "PATCH",
        "/api/v1/clubs/{club}/settings",
        (401, 403, 200, 404, 403, 403, 403, 403, 403),
        body={"public_names": "initial"},
    ),
    # --- the admin: its own pages (the models' are below) ---------------------------------------
    Case("admin/", "GET", "/admin/", admin_row(200, 200)),
    Case(
        "admin/login/",
        "GET",
        "/admin/login/",
        (200, 200, 302, 302, 200, 200, 200, 200, 200),
        note="staff already logged in go to the index",
    ),
    Case(
        "admin/logout/",
        "POST",
        "/admin/logout/",
        everyone(302),
        note="staff to the home page, anyone else to the admin's index",
    ),
    Case("admin/password_change/", "GET", "/admin/password_change/", admin_row(200, 200)),
    Case("admin/password_change/done/", "GET", "/admin/password_change/done/", admin_row(200, 200)),
    Case("admin/autocomplete/", "GET", "/admin/autocomplete/", admin_row(403, 403)),
    Case("admin/jsi18n/", "GET", "/admin/jsi18n/", admin_row(200, 200)),
    Case(
        "admin/r/<path:content_type_id>/<path:object_id>/",
        "GET",
        "/admin/r/1/1/",
        admin_row(404, 404),
        note="no model of ours has a page on the site",
    ),
    Case(
        "admin/^(?P<app_label>auth|drives|scoring|seasons)/$",
        "GET",
        "/admin/drives/",
        admin_row(200, 200),
    ),
    Case(
        "admin/^(?P<app_label>auth|drives|scoring|seasons)/$",
        "GET",
        "/admin/auth/",
        admin_row(404, 404),
        note="users and groups are the superuser's",
    ),
    Case("admin/(?P<url>.*)$", "GET", "/admin/no/such/page/", admin_row(404, 404)),
]


# --- the admin's model pages --------------------------------------------------------------------

# Each registered model: the object of club A its pages are opened on, and whether its admin
# is scoped to the staff member's clubs (drives.club_scope) or left to Django's permissions
# (which our organizers do not have).
ADMIN_OBJECTS: dict[str, tuple[str, bool]] = {
    "drives.club": ("adm_club", True),
    "drives.membership": ("adm_membership", True),
    "drives.drive": ("adm_drive", True),
    "drives.couple": ("adm_couple", True),
    "drives.table": ("adm_table", True),
    "drives.game": ("adm_game", True),
    "drives.seat": ("adm_seat", True),
    "drives.auditentry": ("adm_audit", True),
    "scoring.result": ("adm_result", True),
    "seasons.season": ("adm_season", True),
    "auth.user": ("adm_user", False),
    "auth.group": ("adm_group", False),
}


def _admin_cases() -> Iterator[Case]:
    for label, (obj, scoped) in ADMIN_OBJECTS.items():
        app, model = label.split(".")
        base, url = f"admin/{app}/{model}/", f"/admin/{app}/{model}/"
        oid = "<path:object_id>"
        if scoped:
            # Staff of club A see its rows; staff of club B see none of them: the list does not
            # show them and opening one sends them back to the index ("does not exist").
            yield Case(base, "GET", url, admin_row(200, 200))
            yield Case(f"{base}add/", "GET", f"{url}add/", admin_row(403, 403))
            yield Case(
                f"{base}{oid}/change/", "GET", f"{url}{{{obj}}}/change/", admin_row(200, 302)
            )
            yield Case(
                f"{base}{oid}/history/", "GET", f"{url}{{{obj}}}/history/", admin_row(200, 302)
            )
            yield Case(
                f"{base}{oid}/delete/", "GET", f"{url}{{{obj}}}/delete/", admin_row(403, 403)
            )
        else:
            yield Case(base, "GET", url, admin_row(403, 403))
            yield Case(f"{base}add/", "GET", f"{url}add/", admin_row(403, 403))
            yield Case(
                f"{base}{oid}/change/", "GET", f"{url}{{{obj}}}/change/", admin_row(403, 403)
            )
            yield Case(
                f"{base}{oid}/history/", "GET", f"{url}{{{obj}}}/history/", admin_row(403, 403)
            )
            yield Case(
                f"{base}{oid}/delete/", "GET", f"{url}{{{obj}}}/delete/", admin_row(403, 403)
            )
        # The old address of an object only redirects to its change page.
        yield Case(f"{base}{oid}/", "GET", f"{url}{{{obj}}}/", admin_row(302, 302))
        if label == "auth.user":
            yield Case(
                f"{base}<id>/password/", "GET", f"{url}{{{obj}}}/password/", admin_row(403, 403)
            )


CASES += list(_admin_cases())


# --- filling in a request ------------------------------------------------------------------------


def fill(value: Any, values: dict[str, Any]) -> Any:
    if isinstance(value, str):
        if value.startswith("{") and value.endswith("}") and value[1:-1] in values:
            return values[value[1:-1]]  # a whole value keeps its type (a number in JSON)
        return value.format(**values)
    if isinstance(value, dict):
        return {k: fill(v, values) for k, v in value.items()}
    if isinstance(value, list):
        return [fill(v, values) for v in value]
    return value


def values_for(world: World, caller: Caller) -> dict[str, Any]:
    values = world.values()
    values["table_token"] = caller.table_token or caller.couple_token or UNKNOWN_TOKEN
    values["couple_token"] = caller.couple_token or caller.table_token or UNKNOWN_TOKEN
    values["tie_couple"] = world.tie.couples[0]
    values.update(_admin_values(world))
    return values


def _admin_values(world: World) -> dict[str, Any]:
    """The primary keys of club A's objects the admin's pages are opened on (once a world)."""
    if "admin" not in world.memo:
        drive = world.drive
        first = {
            "adm_seat": Seat.objects.filter(game__drive=drive),
            "adm_audit": AuditEntry.objects.filter(drive=drive),
            "adm_result": Result.objects.filter(game__drive=drive),
        }
        world.memo["admin"] = {
            "adm_club": world.club_a.pk,
            "adm_membership": Membership.objects.get(user=world.organizer, club=world.club_a).pk,
            "adm_drive": drive.pk,
            "adm_couple": Couple.objects.get(drive=drive, number=1).pk,
            "adm_table": Table.objects.get(drive=drive, number=1).pk,
            "adm_game": Game.objects.get(drive=drive, number=1).pk,
            "adm_user": world.scorer.pk,
            "adm_group": Group.objects.get(name="Volunteers").pk,
            "adm_season": Season.objects.get(club=world.club_a).pk,
        } | {
            name: rows.order_by("pk").values_list("pk", flat=True)[0]
            for name, rows in first.items()
        }
    return world.memo["admin"]


def send(case: Case, world: World, caller: Caller, **client_options: Any) -> Any:
    """Make the case's request as ``caller`` (see the module's docstring for how)."""
    values = values_for(world, caller)
    path = fill(case.path, values)
    body = fill(case.body, values)
    if case.is_api:
        client = Client(**client_options)  # bearer only: no session cookie
        extra: dict[str, Any] = {}
        if caller.bearer:
            extra["HTTP_AUTHORIZATION"] = f"Bearer {caller.bearer}"
        if isinstance(body, tuple):
            content_type, raw = body
            return client.generic(case.method, path, raw, content_type=content_type, **extra)
        data = json.dumps(body) if body is not None else ""
        return client.generic(case.method, path, data, content_type="application/json", **extra)
    client = caller.client(**client_options)
    extra = {}
    if not caller.session_key and caller.bearer:
        extra["HTTP_AUTHORIZATION"] = f"Bearer {caller.bearer}"
    if case.method == "GET":
        return client.get(path, **extra)
    return client.post(path, body or {}, **extra)
