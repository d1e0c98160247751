"""Every form that posts with the browser's session is protected by Django's CSRF check: without
the token it is refused (403) and nothing changes, with it it does what it does for the
organizer in the access matrix (tests/security/matrix.py). The same holds for the API's
writes made with the session (``api.auth.check_csrf``); with a bearer token there is
no cookie to abuse and no check. The table and couple pages are exempt on purpose: the token
in their address is the credential, no cookie grants anything there, and a phone that lost
its cookies must still send its result.

All requests here use ``Client(enforce_csrf_checks=True)``, as a browser meets the site.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import resolve

from drives.models import AuditEntry
from tests.security.matrix import CASES, Case, fill, values_for
from tests.security.world import ANON, CALLERS, COUPLE, ORGANIZER, OTHER_TABLE, TABLE_TOKEN, World

UNSAFE = ("POST", "PUT", "PATCH", "DELETE")
TOKEN_PAGES = ("t/<str:token>/", "c/<str:token>/")
# Templates whose forms post to a token page (exempt, see the module's docstring).
# The token pages' forms: the token in the address is the credential (the views are
# csrf_exempt, tests below); each such form must post to its own token page.
EXEMPT_TEMPLATES = {
    "scoring/table_page.html",
    "scoring/table_page_live.html",
    "scoring/couple_page_live.html",
}

# Posts of Django's admin, beside those of the matrix: its login and a change form.
ADMIN_POSTS = [
    Case(
        "admin/login/",
        "POST",
        "/admin/login/",
        (200,) * len(CALLERS),
        body={"username": "glenora-organizer", "password": "wrong"},
    ),
    Case(
        "admin/drives/drive/<path:object_id>/change/",
        "POST",
        "/admin/drives/drive/{drive_pk}/change/",
        (0, 0, 200, 0, 0, 0, 0, 0, 0),
        body={"name": ""},
        note="an empty name: the form says so",
    ),
]

PAGE_POSTS = [
    case
    for case in CASES
    if case.method in UNSAFE and not case.is_api and case.route not in TOKEN_PAGES
] + ADMIN_POSTS
# The practice endpoints read no session (the game's id is its key): no CSRF check applies.
PRACTICE_API = "api/v1/practice"
# Registration before the night takes no login and reads no session: no CSRF check applies.
PUBLIC_API_WRITES = {"api/v1/drives/<slug>/registrations"}
API_WRITES = [
    case
    for case in CASES
    if case.method in UNSAFE
    and case.is_api
    and not case.route.startswith(PRACTICE_API)
    and case.route not in PUBLIC_API_WRITES
]

pytestmark = pytest.mark.django_db


def _expected(case: Case) -> Any:
    return case.row[CALLERS.index(ORGANIZER)]


def _values(world: World) -> dict[str, Any]:
    values = values_for(world, world.callers[ORGANIZER])
    values["drive_pk"] = world.drive.pk
    return values


def _organizer(world: World) -> tuple[Client, str]:
    """The organizer's browser: logged in, with the CSRF cookie a page of the site sets."""
    client = world.callers[ORGANIZER].client(enforce_csrf_checks=True)
    client.get("/accounts/login/")
    return client, client.cookies[settings.CSRF_COOKIE_NAME].value


# --- forms of the pages -------------------------------------------------------------------------


@pytest.mark.parametrize("case", PAGE_POSTS, ids=lambda c: f"{c.method} {c.route}")
def test_a_form_post_without_the_token_is_refused(world: World, case: Case) -> None:
    client, _token = _organizer(world)
    values = _values(world)
    audited = AuditEntry.objects.count()
    refused = client.post(fill(case.path, values), fill(case.body, values) or {})
    assert refused.status_code == 403
    assert "CSRF verification failed" in refused.text
    assert AuditEntry.objects.count() == audited


@pytest.mark.parametrize("case", PAGE_POSTS, ids=lambda c: f"{c.method} {c.route}")
def test_a_form_post_with_the_token_goes_through(world: World, case: Case) -> None:
    client, token = _organizer(world)
    values = _values(world)
    data = {**(fill(case.body, values) or {}), "csrfmiddlewaretoken": token}
    response = client.post(fill(case.path, values), data)
    assert response.status_code == _expected(case)


class Forms(HTMLParser):
    """The forms of a page: their method, actions (the form's, and its buttons' own
    ``formaction``) and the names and values of their inputs."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "form":
            self.forms.append(
                {
                    "method": (attributes.get("method") or "get").lower(),
                    "actions": [attributes.get("action") or ""],
                    "inputs": {},
                }
            )
            return
        if not self.forms:
            return
        if tag == "input" and attributes.get("name"):
            self.forms[-1]["inputs"][attributes["name"]] = attributes.get("value") or ""
        if tag in ("button", "input") and attributes.get("formaction"):
            self.forms[-1]["actions"].append(attributes["formaction"])


def _post_forms(html: str, page: str) -> list[dict[str, Any]]:
    parser = Forms()
    parser.feed(html)
    forms = [f for f in parser.forms if f["method"] == "post"]
    for form in forms:
        form["actions"] = [action or page for action in form["actions"]]
    return forms


def _pages(world: World) -> list[tuple[str, str]]:
    """(caller, path) of every page shown as a whole: the organizer's pages of the matrix,
    the admin's, the login pages and the table and couple pages of their tokens."""
    values = _values(world)
    pages = []
    for case in CASES:
        if case.method != "GET" or case.is_api or _expected(case) != 200:
            continue
        if case.route.endswith(("status", "file", "jsi18n/", ".pdf", ".csv")) or case.route in (
            "healthz",
            "livez",
        ):
            continue  # JSON, a PDF, a script, a spreadsheet
        pages.append((ORGANIZER, fill(case.path, values)))
    pages += [(ANON, "/accounts/login/"), (ANON, "/admin/login/")]
    # Table 2 has no result yet: its page shows the form (table 1 waits for confirmation).
    pages += [(OTHER_TABLE, "/t/{table_token}/"), (COUPLE, "/c/{couple_token}/")]
    return pages


def test_every_post_form_on_the_pages_carries_the_token(world: World) -> None:
    posted_to: set[str] = set()
    for caller_kind, path in _pages(world):
        caller = world.callers[caller_kind]
        path = fill(path, values_for(world, caller))
        client = caller.client(enforce_csrf_checks=True)
        page = client.get(path)
        assert page.status_code == 200, path
        for form in _post_forms(page.text, path):
            for action in form["actions"]:
                route = resolve(action.split("?")[0]).route
                posted_to.add(route)
                if route in TOKEN_PAGES:
                    assert "csrfmiddlewaretoken" not in form["inputs"], path
                else:
                    assert form["inputs"].get("csrfmiddlewaretoken"), (path, action)
    # The walk met the forms of the night: the pages' own and Django's.
    expected = {case.route for case in PAGE_POSTS} - NOT_SHOWN_NOW
    assert expected <= posted_to, sorted(expected - posted_to)
    assert set(TOKEN_PAGES) <= posted_to


# Posts whose form the world's night does not show right now (the start button before the
# night, the tie buttons of a cut or a play-off, …): the template scan below covers them.
NOT_SHOWN_NOW = {
    "first-run/",  # the hall's first start only, while nobody can log in
    "drives/<slug:slug>/start",
    # Registration before the night: the world's drive takes none (tests/club/test_registration).
    "drives/<slug:slug>/register/",
    "register/cancel/<str:token>/",
    "drives/<slug:slug>/registrations/<int:pk>/check-in",
    "drives/<slug:slug>/registrations/pair",
    "drives/<slug:slug>/couples/<int:number>/delete",  # before the start only
    "practice/<uuid:game_id>/rob",  # only when the practice game deals you the ace of trumps
    "practice/<uuid:game_id>/bid",  # auction games only, when it is your turn to bid
    "practice/<uuid:game_id>/trump",  # auction games only, when you won the bidding
    "practice/<uuid:game_id>/draw",  # auction games with a kitty only, when it is your turn to draw
    "drives/<slug:slug>/prizes/cookie-jar",
    "drives/<slug:slug>/prizes/buy-in",
    "drives/<slug:slug>/prizes/ties/<int:tie>/cut",
    "drives/<slug:slug>/prizes/ties/<int:tie>/cut-rule",
    "drives/<slug:slug>/prizes/ties/<int:tie>/draw",
    "drives/<slug:slug>/prizes/ties/<int:tie>/playoff",
}


def test_every_post_form_in_the_templates_has_the_token() -> None:
    """Forms of states the pages above do not show: each ``<form method="post">`` of a
    template has ``{% csrf_token %}`` before its ``</form>`` (but the token pages')."""
    root = Path(settings.BASE_DIR) / "templates"
    checked = 0
    for template in sorted(root.rglob("*.html")):
        name = template.relative_to(root).as_posix()
        text = template.read_text()
        for match in re.finditer(r"<form\b[^>]*>", text, flags=re.IGNORECASE):
            if not re.search(r"method=[\"']?post", match.group(0), flags=re.IGNORECASE):
                continue
            end = text.find("</form>", match.end())
            assert end != -1, f"{name}: a form without its end"
            body = text[match.end() : end]
            if name in EXEMPT_TEMPLATES:
                assert re.search(r"url 'night:(table|couple)'", match.group(0)), name
                continue
            assert "{% csrf_token %}" in body, f"{name}: {match.group(0)}"
            checked += 1
    assert checked >= 20, "the scan found the site's forms"


def test_the_token_pages_take_posts_without_a_cookie(world: World) -> None:
    """A phone that dropped its cookies still enters its table's result and confirms."""
    values = values_for(world, world.callers[TABLE_TOKEN])
    table = Client(enforce_csrf_checks=True).post(
        fill("/t/{table_token}/", values), {"game": "2", "winner": world.winner}
    )
    assert table.status_code == 200
    values = values_for(world, world.callers[COUPLE])
    couple = Client(enforce_csrf_checks=True).post(
        fill("/c/{couple_token}/", values), {"action": "confirm", "game": "2"}
    )
    assert couple.status_code == 200 and "confirmed" in couple.text


# --- the API's writes -----------------------------------------------------------------------------


def _api(client: Client, case: Case, world: World, **extra: Any) -> Any:
    values = _values(world)
    body = fill(case.body, values)
    if isinstance(body, tuple):
        content_type, raw = body
    else:
        content_type, raw = "application/json", json.dumps(body) if body is not None else ""
    return client.generic(case.method, fill(case.path, values), raw, content_type, **extra)


@pytest.mark.parametrize("case", API_WRITES, ids=lambda c: f"{c.method} {c.route}")
def test_an_api_write_with_the_session_needs_the_token(world: World, case: Case) -> None:
    client, token = _organizer(world)
    audited = AuditEntry.objects.count()
    refused = _api(client, case, world)
    assert refused.status_code == 403
    assert refused.json()["code"] == "csrf_failed"
    assert AuditEntry.objects.count() == audited
    answer = _api(client, case, world, HTTP_X_CSRFTOKEN=token)
    assert answer.status_code == _expected(case), answer.content[:300]


@pytest.mark.parametrize("case", API_WRITES, ids=lambda c: f"{c.method} {c.route}")
def test_an_api_write_with_a_bearer_token_needs_none(world: World, case: Case) -> None:
    client = Client(enforce_csrf_checks=True)
    bearer = world.callers[ORGANIZER].api_token
    answer = _api(client, case, world, HTTP_AUTHORIZATION=f"Bearer {bearer}")
    assert answer.status_code == _expected(case), answer.content[:300]


PRACTICE_WRITES = [c for c in CASES if c.method in UNSAFE and c.route.startswith(PRACTICE_API)]


@pytest.mark.parametrize("case", PRACTICE_WRITES, ids=lambda c: f"{c.method} {c.route}")
def test_the_practice_api_takes_writes_without_the_token(world: World, case: Case) -> None:
    """No session is read there: a logged-in browser's cookie neither helps nor is needed."""
    client, _token = _organizer(world)
    assert _api(client, case, world).status_code == _expected(case)
    assert _api(Client(enforce_csrf_checks=True), case, world).status_code == _expected(case)
