"""The browser harness works: pages load from the live server, logging in through the form
works, the phone context fits a small screen, and the helpers do what they say."""

from datetime import date
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Error, Page, expect
from pytest_django.live_server_helper import LiveServer

from drives.services import club_create, drive_create
from tests.browser import conftest as browser_conftest
from tests.browser import helpers
from tests.browser.helpers import (
    csp_violations,
    force_login,
    js_errors,
    login,
    network_down,
    screenshot,
)
from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.browser


def test_home_page_loads_with_the_product_name(page: Page) -> None:
    response = page.goto("/")
    assert response is not None and response.status == 200
    expect(page).to_have_title("Forty-Fives Card Drives")
    expect(page.get_by_role("heading", level=1)).to_have_text("Forty-Fives Card Drives")
    # The stylesheet came from the live server too (static files through the finders).
    assert page.evaluate("document.styleSheets[0].cssRules.length") > 0
    screenshot(page, "home")


def test_the_home_page_asks_for_nothing_that_fails_not_even_an_icon(page: Page) -> None:
    # Without an icon named in the page, a browser asks for /favicon.ico on every visit and
    # gets a 404: noise in the hall server's log and a request for nothing on every phone.
    failed: list[str] = []
    page.on("response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.goto("/")
    page.wait_for_load_state("networkidle")
    assert failed == []
    icon = page.locator("link[rel=icon]").get_attribute("href")
    assert icon is not None
    answer = page.request.get(icon)
    assert answer.status == 200 and "svg" in answer.headers["content-type"]


def test_a_user_made_in_the_test_logs_in_through_the_form(
    page: Page, live_server: LiveServer
) -> None:
    UserFactory(username="mary", first_name="Mary")
    login(page, "mary", DEFAULT_PASSWORD)
    assert page.url == f"{live_server.url}/"
    expect(page.locator(".greeting")).to_have_text("Hello, Mary.")
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
    # And what the server wrote, the test sees.
    assert get_user_model().objects.get(username="mary").last_login is not None


def test_a_wrong_password_is_refused(page: Page) -> None:
    UserFactory(username="mary")
    with pytest.raises(AssertionError, match="did not match"):
        login(page, "mary", "wrong")


def test_login_goes_on_to_the_next_page(page: Page, live_server: LiveServer) -> None:
    UserFactory(username="mary", is_staff=True, is_superuser=True)
    login(page, "mary", DEFAULT_PASSWORD, next_path="/admin/")
    assert page.url == f"{live_server.url}/admin/"


def test_the_admin_login_page_renders(page: Page) -> None:
    response = page.goto("/admin/login/")
    assert response is not None and response.status == 200
    expect(page.locator("#id_username")).to_be_visible()
    expect(page.locator("#id_password")).to_be_visible()


def test_force_login_skips_the_form(page: Page, live_server: LiveServer) -> None:
    user = UserFactory(username="angus", first_name="Angus")
    force_login(page.context, user, live_server.url)
    page.goto("/")
    expect(page.locator(".greeting")).to_have_text("Hello, Angus.")


def test_a_phone_shows_the_home_page_without_scrolling_sideways(phone: Page) -> None:
    phone.goto("/")
    assert phone.viewport_size == {"width": 360, "height": 740}
    assert phone.evaluate("matchMedia('(pointer: coarse)').matches")
    expect(phone.get_by_role("heading", level=1)).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(phone, "home-phone")


def test_network_down_fails_requests_and_comes_back(page: Page) -> None:
    page.goto("/")
    with network_down(page.context):
        assert page.evaluate("navigator.onLine") is False
        failed = page.evaluate("fetch('/healthz').then(() => 'answered', () => 'failed')")
        assert failed == "failed"
        with pytest.raises(Error):
            page.goto("/accounts/login/")
    page.goto("/")
    assert page.evaluate("navigator.onLine") is True
    assert page.evaluate("fetch('/healthz').then(r => r.status)") == 200


def test_uncaught_javascript_errors_are_caught(page: Page) -> None:
    page.goto("/")
    page.evaluate("setTimeout(() => { throw new Error('boom'); })")
    page.wait_for_timeout(100)
    assert any("boom" in error for error in js_errors(page))
    js_errors(page).clear()  # expected here; otherwise the fixture fails the test


def test_the_content_security_policy_blocks_an_injected_script_and_is_caught(page: Page) -> None:
    page.goto("/")
    # What an injection would do: an inline script, an inline handler, an inline style.
    page.evaluate(
        """() => {
            const script = document.createElement('script');
            script.textContent = 'window.injected = true';
            document.body.append(script);
            const holder = document.createElement('div');
            holder.innerHTML = '<img src="/static/none.png" onerror="window.handler = true">';
            document.body.append(holder);
            document.body.setAttribute('style', 'background: red');
        }"""
    )
    page.wait_for_timeout(200)
    assert page.evaluate("window.injected") is None
    assert page.evaluate("window.handler") is None
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgb(255, 0, 0)"
    blocked = "\n".join(csp_violations(page))
    assert "script-src" in blocked and "style-src" in blocked
    csp_violations(page).clear()  # expected here; otherwise the fixture fails the test


def test_the_admin_works_under_the_content_security_policy(
    page: Page, live_server: LiveServer
) -> None:
    """The admin's own scripts and styles (the calendar and clock of date fields, the
    two-list permission picker, the theme switch) are static files: nothing is blocked."""
    admin = UserFactory(username="admin", is_staff=True, is_superuser=True)
    force_login(page.context, admin, live_server.url)
    club = club_create(name="St. Mary's Parish Hall")
    drive = drive_create(club=club, name="Friday", date=date(2026, 11, 20))
    change = f"/admin/drives/drive/{drive.pk}/change/"
    for path in ("/admin/", "/admin/auth/group/add/", change):
        response = page.goto(path)
        assert response is not None and response.status == 200, path
        assert "Content-Security-Policy" in {name.title() for name in response.headers}
    # The scripts ran: the date field got its calendar link, the permissions their filter.
    expect(page.locator(".datetimeshortcuts").first).to_be_visible()
    page.goto("/admin/auth/group/add/")
    expect(page.locator("#id_permissions_filter")).to_be_visible()
    page.goto("/admin/drives/drive/")
    expect(page.locator("#changelist")).to_be_visible()


def test_screenshots_are_saved_only_when_asked(
    page: Page, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(helpers, "SCREENSHOTS_DIR", tmp_path)
    page.goto("/")
    monkeypatch.delenv("SCREENSHOTS", raising=False)
    assert screenshot(page, "smoke") is None
    monkeypatch.setenv("SCREENSHOTS", "1")
    path = screenshot(page, "smoke")
    assert path == tmp_path / "smoke.png"
    assert path.read_bytes().startswith(b"\x89PNG")


def test_without_chromium_the_tests_skip_or_fail_under_ci(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(browser_conftest, "CHROMIUM", tmp_path / "chromium")
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install chromium"):
        browser_conftest.require_chromium()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true"):
        browser_conftest.require_chromium()
