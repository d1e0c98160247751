"""Fixtures of the browser tests: Debian's Chromium, driven by Playwright, against a live server.

- ``browser``: one headless Chromium (/usr/bin/chromium) for all the tests of this folder;
  Playwright never downloads a browser of its own. Without the binary the tests skip with the
  reason, and fail under CI=true (the rule of tests/conftest.py).
- ``new_context(phone=False, **options)``: makes a fresh browser context (its own cookies)
  whose ``base_url`` is the live server, so ``page.goto("/drives/")`` takes a path; closed
  after the test. For flows with several people at once: the desk, a table, a couple.
- ``contexts_on(browser, base_url)``: the same factory for another server than the live one
  (the hall's own, started as a process: tests/browser/test_page_events.py).
- ``page``: a page in a fresh desktop context (1280×800); ``phone``: a page in a fresh phone
  context (360×740, touch, device scale 2, an Android user agent). ``phone.context`` is its
  context (for ``network_down``).
- Each test gets pytest-django's ``live_server`` and ``transactional_db``: the server runs in
  a thread with its own database connection, so what the test writes must be committed for
  the server to see it, and the other way round (hence transactional, flushed after the test).

A test of this folder fails if a page of it had an uncaught JavaScript error (see
``helpers.js_errors`` to allow one) or if the Content-Security-Policy the server sends (the
test settings have it, as production does) blocked anything on it (``helpers.csp_violations``).
Every test here carries the ``browser`` marker.

Playwright's sync API keeps an asyncio event loop running in the test's thread while it is
started, which Django's ORM takes for an async context (SynchronousOnlyOperation).
DJANGO_ALLOW_ASYNC_UNSAFE is set only while the browser is up, and the browser is package
scoped so that it (and its loop) stops before the tests of other folders run.
"""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright
from pytest_django.live_server_helper import LiveServer

from tests.browser.helpers import (
    CHROMIUM,
    CHROMIUM_ARGS,
    COMMON,
    DESKTOP,
    PHONE,
    TIMEOUT_MS,
    forget_csp_violations,
    forget_js_errors,
    watch_csp_violations,
    watch_js_errors,
)
from tests.conftest import in_ci

HERE = Path(__file__).resolve().parent

ContextFactory = Callable[..., BrowserContext]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.resolve().parents:
            item.add_marker(pytest.mark.browser)


def require_chromium() -> None:
    """Skip without Chromium, or fail under CI=true (as tests/conftest.py does for services)."""
    if CHROMIUM.is_file():
        return
    message = f"Chromium not found at {CHROMIUM}: apt-get install chromium"
    if in_ci():
        pytest.fail(f"{message} (CI=true, so this is a failure, not a skip)", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="package")
def playwright() -> Iterator[Playwright]:
    require_chromium()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as started:
            yield started


@pytest.fixture(scope="package")
def browser(playwright: Playwright) -> Iterator[Browser]:
    chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


@contextmanager
def contexts_on(browser: Browser, base_url: str) -> Iterator[ContextFactory]:
    """A ``new_context`` factory for the server at ``base_url``; on leaving, each context made
    is closed, and the test fails if a page of them had an uncaught JavaScript error or a
    Content-Security-Policy violation. For a test against another server than the live one
    (the hall's own, started as a process: tests/browser/test_page_events.py)."""
    made: list[BrowserContext] = []

    def make(*, phone: bool = False, **options: Any) -> BrowserContext:
        settings = {**COMMON, **(PHONE if phone else DESKTOP), **options}
        context = browser.new_context(base_url=base_url, **settings)
        context.set_default_timeout(TIMEOUT_MS)
        context.set_default_navigation_timeout(TIMEOUT_MS)
        watch_js_errors(context)
        watch_csp_violations(context)
        made.append(context)
        return context

    errors: list[str] = []
    violations: list[str] = []
    try:
        yield make
    finally:
        for context in made:
            errors += forget_js_errors(context)
            violations += forget_csp_violations(context)
            context.close()
    failures = []
    if errors:
        failures.append("uncaught JavaScript errors:\n" + "\n".join(errors))
    if violations:
        failures.append("Content-Security-Policy violations:\n" + "\n".join(violations))
    if failures:
        pytest.fail("\n".join(failures), pytrace=False)


@pytest.fixture
def new_context(
    browser: Browser, live_server: LiveServer, transactional_db: None
) -> Iterator[ContextFactory]:
    with contexts_on(browser, live_server.url) as make:
        yield make


@pytest.fixture
def page(new_context: ContextFactory) -> Page:
    return new_context().new_page()


@pytest.fixture
def phone(new_context: ContextFactory) -> Page:
    return new_context(phone=True).new_page()
