"""The API's docs page (Swagger UI, from ninja's own static files: no CDN) loads for a
logged-in organizer under the site's Content-Security-Policy, and shows the operations of the
generated description. (The browser harness fails the test on any CSP violation or uncaught
JavaScript error of the page.)"""

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from drives.models import Membership
from drives.services import club_create, member_add
from tests.browser.helpers import csp_violations, force_login, js_errors, screenshot
from tests.factories import UserFactory

# The page's look, not its data: run in CI's SQLite pass only (tests/conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.any_database]


def test_the_docs_page_shows_the_api_without_csp_violations(
    new_context: Callable[..., BrowserContext], live_server: LiveServer
) -> None:
    organizer = UserFactory(username="maggie")
    member_add(club=club_create(name="St. Mary's"), user=organizer, role=Membership.Role.ORGANIZER)
    context = new_context()
    force_login(context, organizer, live_server.url)
    page: Page = context.new_page()
    outside: list[str] = []
    page.on(
        "request",
        lambda request: (
            outside.append(request.url)
            if not request.url.startswith((live_server.url, "data:"))
            else None
        ),
    )
    response = page.goto("/api/v1/docs")
    assert response is not None and response.status == 200
    # Swagger UI read /api/v1/openapi.json and lists the operations by tag.
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Forty-Fives Card Drives API")
    expect(
        page.locator(".opblock-summary-path", has_text="/drives/{slug}/games/{n}/tables/{t}/result")
    ).to_be_visible()
    page.locator(
        ".opblock-summary-path", has_text="/drives/{slug}/games/{n}/tables/{t}/result"
    ).first.click()
    expect(page.get_by_text("Request body").first).to_be_visible()
    expect(page.get_by_text("Enter a table's result").first).to_be_visible()
    screenshot(page, "api-docs")
    assert outside == []  # nothing from a CDN: the hall may be offline
    assert csp_violations(page) == []
    assert js_errors(page) == []


def test_the_docs_page_sends_a_stranger_to_the_login(page: Page, live_server: LiveServer) -> None:
    page.goto("/api/v1/docs")
    assert page.url.startswith(f"{live_server.url}/accounts/login/")
