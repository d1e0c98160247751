"""The tokens of the table and couple cards stay out of the logs (config/redact.py): gunicorn's
access log (config/gunicorn.py, used by the Procfile and tools/stack.py), Django's request
warnings and runserver's request lines."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from gunicorn.config import Config

from config.gunicorn import TokenMaskingLogger
from config.redact import MASK, MaskTokens, mask_tokens
from drives.services import drive_close
from tests.pages.live_helpers import DESK, night, people
from tools import stack as stack_module

TOKEN = "Zq3-secret_Token9"
OTHER = "Kp7-other_Token2"


# --- gunicorn's access log ------------------------------------------------------------------------


def request(path: str, query: str = "", referer: str = "-") -> tuple[Any, Any, dict[str, str]]:
    uri = f"{path}?{query}" if query else path
    headers = [("HOST", "drives.example.org"), ("USER-AGENT", "Mozilla/5.0 (Android 13)")]
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": uri,
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "192.0.2.7",
        "HTTP_USER_AGENT": "Mozilla/5.0 (Android 13)",
    }
    if referer != "-":
        headers.append(("REFERER", referer))
        environ["HTTP_REFERER"] = referer
    response = SimpleNamespace(status="200 OK", sent=512, headers=[("Content-Type", "text/html")])
    return response, SimpleNamespace(headers=headers), environ


def atoms(path: str, query: str = "", referer: str = "-") -> dict[str, Any]:
    logger = TokenMaskingLogger(Config())
    return logger.atoms(*request(path, query, referer), timedelta(milliseconds=42))


def test_a_table_page_is_logged_without_its_token() -> None:
    logged = atoms(f"/t/{TOKEN}/", "partial=1")
    assert logged["r"] == "GET /t/…/?partial=1 HTTP/1.1"
    assert logged["U"] == "/t/…/"
    assert logged["q"] == "partial=1"
    assert logged["{raw_uri}e"] == "/t/…/?partial=1"
    assert logged["{path_info}e"] == "/t/…/"


def test_a_couple_page_and_its_referer_are_logged_without_their_tokens() -> None:
    logged = atoms(f"/c/{TOKEN}/", referer=f"https://drives.example.org/t/{OTHER}/")
    assert logged["r"] == "GET /c/…/ HTTP/1.1"
    assert logged["U"] == "/c/…/"
    assert logged["f"] == "https://drives.example.org/t/…/"
    assert logged["{referer}i"] == "https://drives.example.org/t/…/"
    assert logged["{http_referer}e"] == "https://drives.example.org/t/…/"


def test_a_token_in_the_query_string_is_masked() -> None:
    logged = atoms("/api/v1/me", f"token={TOKEN}&partial=1")
    assert logged["r"] == "GET /api/v1/me?token=…&partial=1 HTTP/1.1"
    assert logged["q"] == "token=…&partial=1"
    assert logged["{query_string}e"] == "token=…&partial=1"


def test_a_password_reset_link_is_logged_without_its_token() -> None:
    assert atoms(f"/accounts/reset/MQ/{TOKEN}/")["r"] == "GET /accounts/reset/MQ/…/ HTTP/1.1"
    # The page it redirects to has no token: nothing to hide.
    after = atoms("/accounts/reset/MQ/set-password/")
    assert after["r"] == "GET /accounts/reset/MQ/set-password/ HTTP/1.1"


def test_a_normal_path_is_logged_as_it_is() -> None:
    logged = atoms("/drives/friday-45s/desk/", "game=3", referer="https://h/drives/")
    assert logged["r"] == "GET /drives/friday-45s/desk/?game=3 HTTP/1.1"
    assert logged["U"] == "/drives/friday-45s/desk/"
    assert logged["q"] == "game=3"
    assert logged["f"] == "https://h/drives/"
    assert logged["a"] == "Mozilla/5.0 (Android 13)"
    assert logged["s"] == "200" and logged["B"] == 512 and logged["M"] == 42


def test_the_access_log_line_has_no_token(tmp_path: Path) -> None:
    config = Config()
    config.set("accesslog", str(tmp_path / "access.log"))
    logger = TokenMaskingLogger(config)
    referer = f"http://127.0.0.1:8001/c/{OTHER}/"
    logger.access(*request(f"/t/{TOKEN}/", "partial=1", referer), timedelta(seconds=0))
    line = (tmp_path / "access.log").read_text()
    assert '"GET /t/…/?partial=1 HTTP/1.1" 200 512 "http://127.0.0.1:8001/c/…/"' in line
    assert TOKEN not in line and OTHER not in line


def test_the_procfile_and_the_stack_run_gunicorn_with_this_config(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    root = Path(settings.BASE_DIR)
    namespace: dict[str, Any] = {}
    exec((root / "config" / "gunicorn.py").read_text(), namespace)  # as gunicorn reads it
    assert namespace["logger_class"].__name__ == "TokenMaskingLogger"
    assert namespace["accesslog"] == "-"
    web = next(line for line in (root / "Procfile").read_text().splitlines() if line[:4] == "web:")
    assert "--config config/gunicorn.py" in web
    spawned: list[list[str]] = []
    monkeypatch.setattr(stack_module.Stack, "_spawn", lambda self, name, argv: spawned.append(argv))
    stack_module.Stack(stack_module.StackConfig(state_dir=tmp_path)).start_web()
    argv = spawned[0]
    assert argv[argv.index("--config") + 1] == str(root / "config" / "gunicorn.py")


# --- every URL that carries a token, and none other ------------------------------------------


def url_patterns(
    patterns: list[Any] | None = None, namespace: str = ""
) -> Iterator[tuple[str, URLPattern]]:
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from url_patterns(entry.url_patterns, inner)
        elif entry.name:
            yield f"{namespace}{entry.name}", entry


def sample_url(name: str, pattern: URLPattern, token: str) -> str | None:
    """The pattern reversed with ``token`` for a token and a plausible value for the rest."""
    converters = getattr(pattern.pattern, "converters", {})
    kwargs: dict[str, Any] = {}
    for group in pattern.pattern.regex.groupindex:
        kind = type(converters.get(group)).__name__
        kwargs[group] = (
            token
            if group == "token"
            else 7
            if kind in ("IntConverter", "NumberConverter")
            else "x7"
        )
    try:
        return reverse(name, kwargs=kwargs)
    except Exception:  # a pattern our sample values do not fit (some admin ones)
        return None


def test_every_url_with_a_token_is_masked_and_no_other_url_changes() -> None:
    with_token, without = [], []
    for name, pattern in url_patterns():
        url = sample_url(name, pattern, TOKEN)
        if url is None:
            continue
        line = f'GET {url}?partial=1 HTTP/1.1 "https://drives.example.org{url}"'
        if "token" in pattern.pattern.regex.groupindex:
            with_token.append(name)
            assert TOKEN not in mask_tokens(line), name
            assert MASK in mask_tokens(url), name
        else:
            without.append(name)
            assert mask_tokens(line) == line, name
    assert sorted(with_token) == [
        "drive-register-cancel",
        "night:couple",
        "night:table",
        "password_reset_confirm",
    ]
    assert len(without) > 50  # the pages, the API and the admin were looked at


# --- Django's own log -----------------------------------------------------------------------------


@pytest.fixture
def console() -> Iterator[io.StringIO]:
    """What the handlers of the LOGGING setting write, for the test to read."""
    handlers = [
        handler
        for name in ("django", "django.server")
        for handler in logging.getLogger(name).handlers
        if any(isinstance(f, MaskTokens) for f in handler.filters)
    ]
    assert len(handlers) == 2  # LOGGING's console and django.server handlers
    stream = io.StringIO()
    old = {handler: handler.setStream(stream) for handler in handlers}
    yield stream
    for handler, previous in old.items():
        handler.setStream(previous)


@pytest.mark.django_db
def test_a_token_that_is_nobodys_is_logged_masked(client: Client, console: io.StringIO) -> None:
    assert client.get(f"/t/{TOKEN}/?partial=1").status_code == 404
    assert client.get(f"/c/{OTHER}/").status_code == 404
    logged = console.getvalue()
    assert "WARNING django.request: Not Found: /t/…/" in logged
    assert "WARNING django.request: Not Found: /c/…/" in logged
    assert TOKEN not in logged and OTHER not in logged


@pytest.mark.django_db
def test_a_closed_drives_page_is_logged_masked(client: Client, console: io.StringIO) -> None:
    drive = night(people().club, 4)
    token = drive.tables.get(number=1).token
    drive_close(drive=drive, actor=DESK)
    assert client.get(f"/t/{token}/").status_code == 410
    assert "Gone: /t/…/" in console.getvalue()
    assert token not in console.getvalue()


def test_runserver_request_lines_are_masked(console: io.StringIO) -> None:
    logging.getLogger("django.server").info('"%s" %s %s', f"GET /t/{TOKEN}/ HTTP/1.1", "200", "512")
    assert re.search(r'"GET /t/…/ HTTP/1\.1" 200 512', console.getvalue())
    assert TOKEN not in console.getvalue()
