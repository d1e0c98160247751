"""The Content-Security-Policy header (django-csp's middleware, config/settings/base.py): on the
pages, the API and the admin, strict enough that an injected script does not run; and the
templates keep to it (no inline script, handler attribute or style)."""

import re
from datetime import date
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from drives.services import club_create, drive_create
from tests.factories import UserFactory
from tests.pages.live_helpers import night, people

pytestmark = pytest.mark.django_db

EXPECTED = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}


def directives(header: str) -> dict[str, list[str]]:
    parsed = {}
    for part in header.split(";"):
        name, *sources = part.split()
        parsed[name] = sources
    return parsed


def policy_of(client: Client, path: str, status: int) -> dict[str, list[str]]:
    response = client.get(path)
    assert response.status_code == status, path
    assert "Content-Security-Policy" in response.headers, path
    return directives(response.headers["Content-Security-Policy"])


def test_every_kind_of_response_carries_the_policy(client: Client) -> None:
    drive = night(people().club, 4)
    table = drive.tables.get(number=1)
    couple = drive.couples.get(number=1)
    for path, status in [
        ("/", 200),
        ("/accounts/login/", 200),
        (f"/t/{table.token}/", 200),
        (f"/c/{couple.token}/", 200),
        ("/t/nobodys-token/", 404),
        ("/api/v1/me", 401),
        ("/api/v1/nothing-here", 404),
        ("/api/v1/openapi.json", 200),
        ("/admin/login/", 200),
    ]:
        assert policy_of(client, path, status) == EXPECTED, path


def test_the_admin_carries_the_policy(client: Client) -> None:
    club = club_create(name="St. Mary's Parish Hall")
    drive = drive_create(club=club, name="Friday", date=date(2026, 11, 20))
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    change = f"/admin/drives/drive/{drive.pk}/change/"
    for path in ("/admin/", "/admin/drives/drive/", change):
        assert policy_of(client, path, 200) == EXPECTED, path


def test_no_inline_script_or_eval_is_allowed(client: Client) -> None:
    header = client.get("/").headers["Content-Security-Policy"]
    assert "'unsafe-inline'" not in header
    assert "'unsafe-eval'" not in header
    assert "'unsafe-hashes'" not in header
    assert "*" not in header


# --- the templates keep to the policy -----------------------------------------------------------

# A <script> element with no src (its code is inline) and no nonce.
INLINE_SCRIPT = re.compile(r"<script\b(?![^>]*\b(?:src|nonce)\s*=)[^>]*>", re.IGNORECASE)
# onclick=, onchange=, onsubmit=, … on any element.
HANDLER = re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.IGNORECASE | re.DOTALL)
STYLE = re.compile(r"<style\b|<[a-z][^>]*\sstyle\s*=", re.IGNORECASE | re.DOTALL)


def problems(html: str) -> list[str]:
    """What in ``html`` the policy would block: an inline script without a nonce, a handler
    attribute, a style attribute or element."""
    found = []
    if INLINE_SCRIPT.search(html):
        found.append("inline <script> without a nonce")
    if HANDLER.search(html):
        found.append("on*= handler attribute")
    if STYLE.search(html):
        found.append("inline style")
    return found


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ('<script src="/static/js/a.js" defer></script>', []),
        ('<script nonce="{{ request.csp_nonce }}">go()</script>', []),
        ('<script type="application/json" id="data" src="x"></script>', []),
        ("<script>alert(1)</script>", ["inline <script> without a nonce"]),
        ('<button type="button"\n  onclick="go()">Go</button>', ["on*= handler attribute"]),
        ('<form ONSUBMIT="return check()">', ["on*= handler attribute"]),
        ('<p style="color: red">', ["inline style"]),
        ("<style>p { color: red }</style>", ["inline style"]),
        ('<a class="button" data-confirm="on=1" href="/x">', []),
    ],
)
def test_the_template_check_finds_what_the_policy_blocks(html: str, expected: list[str]) -> None:
    assert problems(html) == expected


def templates() -> list[Path]:
    folders = [Path(folder) for folder in settings.TEMPLATES[0]["DIRS"]]
    folders += [Path(settings.BASE_DIR) / app / "templates" for app in ("drives", "scoring")]
    return sorted(path for folder in folders for path in folder.rglob("*.html"))


def test_no_template_has_an_inline_script_handler_or_style() -> None:
    found = templates()
    assert len(found) > 20  # the check looked where the templates are
    offending = {
        str(path.relative_to(settings.BASE_DIR)): problems(path.read_text()) for path in found
    }
    assert {name: what for name, what in offending.items() if what} == {}
