"""The hall's first start in the laptop's browser (config/firstrun.py), as a volunteer meets it:
the address ``fortyfives hall`` opens lands on the first-run page, filled in with the keyboard
alone, a mistake said at the top and beside its box, then the home page in the language
chosen; the page's look at the desk's, a phone's and the smallest phone's width, with axe."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page

from tests.browser.conftest import ContextFactory
from tests.browser.helpers import axe_violations, screenshot

PASSWORD = "card-night-45s"


@pytest.fixture
def hall(settings: Any, tmp_path: Path) -> Path:
    """The hall's settings on a new data folder (the live server reads the same settings)."""
    settings.HALL_FIRST_RUN = True
    settings.HALL_DATA_DIR = tmp_path
    return tmp_path


def focused(page: Page) -> str:
    return str(page.evaluate("document.activeElement.id || document.activeElement.tagName"))


def type_over(page: Page, text: str) -> None:
    page.keyboard.press("Control+A")  # what the box held is typed over
    page.keyboard.type(text)


def fill_by_keyboard(page: Page, club: str, username: str, again: str) -> None:
    """The club's name (the box the page opens in), then Tab from box to box; French by the
    arrow keys; Enter on the button."""
    assert focused(page) == "id_club"
    type_over(page, club)
    page.keyboard.press("Tab")
    assert focused(page) == "id_username"
    type_over(page, username)
    page.keyboard.press("Tab")
    assert focused(page) == "id_password1"
    type_over(page, PASSWORD)
    page.keyboard.press("Tab")
    assert focused(page) == "id_password2"
    type_over(page, again)
    page.keyboard.press("Tab")
    if focused(page) == "id_language_0":  # English, the browser's language, chosen first
        page.keyboard.press("ArrowDown")
    assert focused(page) == "id_language_1"
    assert page.locator("#id_language_1").is_checked()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.testid") == "first-run-submit"
    with page.expect_navigation():
        page.keyboard.press("Enter")


def test_the_organizer_sets_up_the_hall_with_the_keyboard(hall: Path, page: Page) -> None:
    page.goto("/")  # what fortyfives hall opens in the laptop's browser
    assert page.url.endswith("/first-run/")
    assert page.locator("h1").inner_text() == "Welcome: set up the hall"
    # A mistake first: the passwords differ.
    fill_by_keyboard(page, "St. Joseph's Parish", "marie", PASSWORD + "!")
    errors = page.get_by_test_id("first-run-errors")
    assert errors.get_attribute("role") == "alert"
    assert "The two password fields didn\u2019t match." in errors.inner_text()
    assert page.locator("#id_password2").get_attribute("aria-invalid") == "true"
    assert page.locator("#id_club").input_value() == "St. Joseph's Parish"
    assert page.locator("#id_username").input_value() == "marie"
    assert page.locator("#id_password1").input_value() == ""
    # The summary's link takes the focus to the box to correct.
    errors.get_by_role("link").first.click()
    assert focused(page) == "id_password2"
    page.locator("#id_club").focus()
    fill_by_keyboard(page, "St. Joseph's Parish", "marie", PASSWORD)
    # In: the organizer's home page, in French at once.
    assert urlsplit(page.url).path == "/"
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.locator(".greeting").inner_text() == "Bonjour, marie."
    assert "La salle est prête : St. Joseph's Parish" in page.locator(".messages").inner_text()
    assert page.get_by_role("link", name="Mes soirées").first.is_visible()
    # The page is gone.
    assert page.goto("/first-run/").status == 404  # type: ignore[union-attr]


SIZES = {
    "desk": {"width": 1280, "height": 800},
    "phone": {"width": 390, "height": 844},
    "320": {"width": 320, "height": 640},
}


@pytest.mark.any_database
@pytest.mark.parametrize("size", SIZES)
def test_the_first_run_page_fits_and_reads_at_every_width(
    hall: Path, new_context: ContextFactory, size: str
) -> None:
    page = new_context(viewport=SIZES[size]).new_page()
    page.goto("/first-run/")
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    assert axe_violations(page) == []
    screenshot(page, f"first-run-{size}", full_page=True)
    # With a mistake said: still within the width, still no violation.
    page.fill("#id_club", "")
    page.fill("#id_username", "marie")
    page.fill("#id_password1", "45s")
    page.fill("#id_password2", "45s")
    with page.expect_navigation():
        page.get_by_test_id("first-run-submit").click()
    assert page.get_by_test_id("first-run-errors").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]
    assert axe_violations(page) == []
    screenshot(page, f"first-run-errors-{size}", full_page=True)
