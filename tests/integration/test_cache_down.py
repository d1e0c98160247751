"""The cache's Redis stopped under a live stack (gunicorn, the production settings, CACHE_URL
set as ``make stack`` sets it): the organizer still logs in, a password reset is still sent,
tokens are still answered, and /healthz says the cache is down (200, "degraded"); Redis back,
the limits count again.

The Redis is the test's own (``redis-server`` on a free port, stopped with SIGKILL as in a
crash), never the machine's shared one; the stack runs on a SQLite file without a broker."""

from __future__ import annotations

import http.cookiejar
import json
import re
import shutil
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.integration.test_worker_faults import PrivateRedis, free_port, wait_for
from tools.stack import Stack, StackConfig

pytestmark = [pytest.mark.integration, pytest.mark.slow]

PASSWORD = "forty-five hands"
SETUP = """
from datetime import date
from django.contrib.auth import get_user_model
from drives.models import AuditEntry, Table
from drives.services import Actor, club_create, couples_register, drive_create, drive_start
get_user_model().objects.create_user("organizer", "organizer@example.org", "forty-five hands")
desk = Actor(channel=AuditEntry.Channel.DESK)
drive = drive_create(club=club_create(name="Parish hall"), name="Friday", date=date(2026, 11, 20))
couples_register(drive=drive, couples=[{"players": [f"A{i}", f"B{i}"]} for i in range(8)],
                 actor=desk)
drive_start(drive=drive, actor=desk)
print(Table.objects.filter(drive=drive).first().token)
"""


class Browser:
    """A browser of its own (its cookie jar) against the stack, never following redirects."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args: Any) -> None:
                return None

        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirect()
        )

    def request(self, path: str, form: dict[str, str] | None = None, **headers: str) -> Any:
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        request = urllib.request.Request(
            f"{self.base}{path}", data=data, headers={"Referer": self.base, **headers}
        )
        try:
            response = self.opener.open(request, timeout=30)
        except urllib.error.HTTPError as error:
            response = error
        with response:
            return response.status, dict(response.headers), response.read().decode()

    def post_form(self, path: str, fields: dict[str, str]) -> Any:
        """The page's form posted with its CSRF token, as a browser does."""
        status, _, page = self.request(path)
        assert status == 200, (path, status)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token is not None, page
        return self.request(path, {**fields, "csrfmiddlewaretoken": token.group(1)})

    def log_in(self, password: str) -> int:
        status, _, _ = self.post_form(
            "/accounts/login/", {"username": "organizer", "password": password}
        )
        return int(status)

    def cookie_names(self) -> set[str]:
        return {cookie.name for cookie in self.jar}


@pytest.fixture(scope="module")
def redis_and_stack() -> Iterator[tuple[PrivateRedis, Stack, str]]:
    folder = Path(tempfile.mkdtemp(prefix="fortyfives-cache-down-"))
    redis_server = PrivateRedis(folder)
    redis_server.start()
    stack = Stack(
        StackConfig(
            database_url=f"sqlite:///{folder / 'db.sqlite3'}",
            broker_url=None,
            port=free_port(),
            web_workers=1,
            worker=False,
            state_dir=folder / "stack",
            extra_env={"CACHE_URL": redis_server.url, "EMAIL_URL": "console:"},
        )
    )
    try:
        stack.start()
        token = stack.manage("shell", "-c", SETUP).stdout.strip().splitlines()[-1]
        yield redis_server, stack, token
    finally:
        stack.stop()
        redis_server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def _health(stack: Stack) -> tuple[int, dict[str, Any]]:
    status, _, body = Browser(stack.url).request("/healthz")
    return status, json.loads(body)


def test_with_the_cache_down_the_organizer_logs_in(
    redis_and_stack: tuple[PrivateRedis, Stack, str],
) -> None:
    redis_server, stack, token = redis_and_stack
    assert _health(stack) == (
        200,
        {"database": "ok", "broker": "eager", "cache": "ok", "status": "ok"},
    )
    laptop = Browser(stack.url)
    assert laptop.log_in(PASSWORD) == 302  # the organizer's laptop, known from now on

    redis_server.stop()
    assert not redis_server.answers()
    assert _health(stack) == (
        200,
        {"database": "ok", "broker": "eager", "cache": "down", "status": "degraded"},
    )

    # A new browser: a wrong password is a plain refusal, the right one logs in, and the
    # session (in the database, not the cache) holds on the next page.
    door = Browser(stack.url)
    assert door.log_in("guess") == 200
    assert door.log_in(PASSWORD) == 302
    assert "sessionid" in door.cookie_names()
    status, _, page = door.request("/drives/")
    assert status == 200 and "Log out" in page
    # The known laptop too.
    assert laptop.log_in(PASSWORD) == 302

    # A password reset is asked for and sent (to the web log: EMAIL_URL=console:).
    status, headers, _ = Browser(stack.url).post_form(
        "/accounts/password_reset/", {"email": "organizer@example.org"}
    )
    assert (status, headers["Location"]) == (302, "/accounts/password_reset/done/")
    log = (stack.log_dir / "web.log").read_text(errors="replace")
    assert "To: organizer@example.org" in log and "/accounts/reset/" in log

    # Tokens: a good one is served, unknown ones are the usual 404 and 401, never 500.
    phone = Browser(stack.url)
    assert phone.request(f"/t/{token}/")[0] == 200
    assert phone.request("/t/no-such-card-0000000000/")[0] == 404
    answer = phone.request("/api/v1/me", Authorization="Bearer no-such-token-000000000")
    assert answer[0] == 401 and json.loads(answer[2])["code"] == "bad_token"

    log = (stack.log_dir / "web.log").read_text(errors="replace")
    assert "WARNING config.cache: Redis is not reachable" in log

    # Redis back (empty, as after a crash): the limits count again.
    redis_server.start()
    wait_for(lambda: _health(stack)[1]["cache"] == "ok", 10, "the cache to be back")
    assert _health(stack)[1]["status"] == "ok"
    guesser = Browser(stack.url)
    statuses = [guesser.log_in("guess") for _ in range(11)]
    assert statuses == [200] * 10 + [429]
    assert laptop.log_in(PASSWORD) == 302, "the known laptop is not held back by them"
