"""The production stack (tools/stack.py, gunicorn with the production settings) serves: the
health checks, a static file through WhiteNoise, and the login page, on PostgreSQL with Redis
and on the SQLite default (tests/integration/conftest.py)."""

from __future__ import annotations

import gzip
import http.cookiejar
import json
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

import pytest

from tools.stack import BASE_DIR, Stack

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def get(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def login_form(csrf: str) -> bytes:
    """The login form of the stack's organizer, as a browser sends it."""
    return urllib.parse.urlencode(
        {"username": "stack-organizer", "password": "forty-five hands", "csrfmiddlewaretoken": csrf}
    ).encode()


def test_the_health_checks_answer(stack: Stack) -> None:
    status, headers, body = get(f"{stack.url}/healthz")
    assert status == 200 and headers["Content-Type"] == "application/json"
    health: dict[str, Any] = json.loads(body)
    broker = "ok" if stack.config.broker_url else "eager"
    cache = "ok" if stack.config.broker_url else "local"  # CACHE_URL is the broker's Redis
    assert health == {"database": "ok", "broker": broker, "cache": cache, "status": "ok"}
    status, _, body = get(f"{stack.url}/livez")
    assert (status, json.loads(body)) == (200, {"status": "ok"})


def test_whitenoise_serves_the_collected_static_files(stack: Stack) -> None:
    manifest = json.loads((stack.state_dir / "static" / "staticfiles.json").read_text())
    hashed = manifest["paths"]["js/poll.js"]
    assert hashed != "js/poll.js"
    source = (BASE_DIR / "static" / "js" / "poll.js").read_bytes()
    status, headers, body = get(f"{stack.url}/static/{hashed}")
    assert status == 200 and body == source
    assert "max-age=315360000" in headers["Cache-Control"]  # a hashed name never changes
    status, headers, body = get(f"{stack.url}/static/{hashed}", **{"Accept-Encoding": "gzip"})
    assert status == 200 and headers.get("Content-Encoding") == "gzip"
    assert gzip.decompress(body) == source
    assert get(f"{stack.url}/static/js/no-such-file.js")[0] == 404


def test_the_login_page_logs_an_organizer_in(stack: Stack) -> None:
    stack.manage(
        "shell",
        "-c",
        "from django.contrib.auth import get_user_model; "
        "get_user_model().objects.filter(username='stack-organizer').delete(); "
        "get_user_model().objects.create_user('stack-organizer', password='forty-five hands')",
    )
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    with opener.open(f"{stack.url}/accounts/login/", timeout=30) as response:
        page = response.read().decode()
    assert 'name="username"' in page and 'name="password"' in page
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert csrf is not None
    cookies = {c.name: c for c in jar}
    assert "csrftoken" in cookies and not cookies["csrftoken"].secure  # plain HTTP here
    form = login_form(csrf.group(1))
    request = urllib.request.Request(
        f"{stack.url}/accounts/login/", data=form, headers={"Referer": stack.url}
    )
    with opener.open(request, timeout=30) as response:
        assert response.status == 200  # the redirect after the login, followed
        assert response.url != f"{stack.url}/accounts/login/"
    assert "sessionid" in {c.name for c in jar}
    # The same form sent in chunks (no Content-Length): gunicorn hands it on without a
    # length, and it is read all the same (config/bodies.py), not taken as empty.
    chunked_jar = http.cookiejar.CookieJar()
    chunked = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(chunked_jar))
    with chunked.open(f"{stack.url}/accounts/login/", timeout=30) as response:
        csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', response.read().decode())
    assert csrf is not None
    form = login_form(csrf.group(1))
    request = urllib.request.Request(
        f"{stack.url}/accounts/login/",
        data=iter([form[:20], form[20:]]),  # an iterable: urllib sends it chunked
        headers={"Referer": stack.url, "Content-Type": "application/x-www-form-urlencoded"},
    )
    with chunked.open(request, timeout=30) as response:
        assert response.url != f"{stack.url}/accounts/login/"
    assert "sessionid" in {c.name for c in chunked_jar}


def test_the_logs_show_no_token_of_a_card(stack: Stack) -> None:
    """gunicorn's access log (config/gunicorn.py) and Django's warnings name a table's or
    couple's page as /t/…/ and /c/…/, never with the token of its card; and the production
    settings send the Content-Security-Policy."""
    token = "Nobodys-Card_Token7"
    status, headers, _ = get(f"{stack.url}/t/{token}/?partial=1", Referer=f"{stack.url}/c/{token}/")
    assert status == 404
    assert "script-src 'self'" in headers["Content-Security-Policy"]
    access = stack.log_dir / "access.log"
    line = '"GET /t/…/?partial=1 HTTP/1.1" 404'
    deadline = time.monotonic() + 10
    while line not in access.read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert f"{line} " in access.read_text()
    assert f'"{stack.url}/c/…/"' in access.read_text()
    assert "Not Found: /t/…/" in (stack.log_dir / "web.log").read_text()
    for log in (access, stack.log_dir / "web.log"):
        assert token not in log.read_text(), log.name
