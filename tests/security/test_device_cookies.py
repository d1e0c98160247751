"""A browser is not locked out by other browsers' failures (drives/ratelimit.py, OWASP's
device cookies). In a hall every phone shares one address: a guest guessing the organizer's
password there must lock out only the guest's own browser, never the organizer's laptop nor
a browser the organizer has not used yet.

A browser that has logged in as a user carries a signed device cookie for that user; its
logins are counted against that cookie alone. Every other browser gets a device cookie of
its own at the login page: its failures are counted per username against that cookie, and
against the address's high ceiling. Requests without one (or with a forged one, or one of
another user) are limited per address and username and by the ceiling. The limits are the
defaults here: 10 failures per username, 1000 per address, 15 minutes."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import signing
from django.test import Client, override_settings

from config.settings import base as base_settings
from drives import ratelimit
from tests.factories import DEFAULT_PASSWORD, UserFactory

HALL = "203.0.113.7"

pytestmark = [pytest.mark.django_db]


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The limiter's clock, at the start of a window: no test straddles two windows."""
    now = [1_000_000 * 900.0]
    monkeypatch.setattr(ratelimit.time, "time", lambda: now[0])
    return now


def _browser() -> Client:
    return Client(REMOTE_ADDR=HALL)


def _login(client: Client, username: str, password: str, url: str = "/accounts/login/") -> Any:
    return client.post(url, {"username": username, "password": password})


def _known_browser(username: str, url: str = "/accounts/login/") -> Client:
    """A browser that has logged in as ``username`` (and logged out again)."""
    client = _browser()
    assert _login(client, username, DEFAULT_PASSWORD, url).status_code == 302
    client.post("/accounts/logout/")
    return client


def _guesses(username: str, count: int) -> list[int]:
    """``count`` wrong passwords, each from a new browser at the hall's address."""
    return [_login(_browser(), username, "guess").status_code for _ in range(count)]


def test_a_known_browser_logs_in_after_50_failures_from_elsewhere_at_its_address() -> None:
    UserFactory(username="organizer")
    laptop = _known_browser("organizer")
    statuses = _guesses("organizer", 50)
    assert statuses[:10] == [200] * 10 and statuses[10:] == [429] * 40
    # An unknown browser is refused even with the right password; the laptop is let in.
    assert _login(_browser(), "organizer", DEFAULT_PASSWORD).status_code == 429
    answer = _login(laptop, "organizer", DEFAULT_PASSWORD)
    assert answer.status_code == 302
    assert laptop.session["_auth_user_id"]


def test_the_device_cookie_is_signed_http_only_and_long_lived() -> None:
    UserFactory(username="organizer")
    answer = _login(_browser(), "organizer", DEFAULT_PASSWORD)
    cookie = answer.cookies[ratelimit.device_cookie_name("organizer")]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    assert cookie["max-age"] == 365 * 24 * 60 * 60
    assert not cookie["secure"], "the test settings serve plain HTTP"
    data = signing.loads(cookie.value, salt=ratelimit.DEVICE_SALT)
    assert data["user"] == "organizer" and len(data["nonce"]) >= 16
    with override_settings(SESSION_COOKIE_SECURE=True):
        answer = _login(_browser(), "organizer", DEFAULT_PASSWORD)
    assert answer.cookies[ratelimit.device_cookie_name("organizer")]["secure"]
    # No cookie for a failed login.
    failed = _login(_browser(), "organizer", "guess")
    assert ratelimit.device_cookie_name("organizer") not in failed.cookies


def test_an_unknown_browser_is_limited_as_before() -> None:
    UserFactory(username="organizer")
    client = _browser()
    for _ in range(10):
        assert _login(client, "organizer", "guess").status_code == 200
    refused = _login(client, "organizer", DEFAULT_PASSWORD)
    assert refused.status_code == 429
    assert refused["Retry-After"] == "900"
    assert "_auth_user_id" not in client.session


def test_a_known_browser_that_keeps_failing_is_locked_on_its_own() -> None:
    """A stolen or shared device cookie buys 10 guesses a window, no more; its failures do
    not count against the address, so other browsers there are not held back by them."""
    UserFactory(username="organizer")
    stolen = _known_browser("organizer")
    for _ in range(10):
        assert _login(stolen, "organizer", "guess").status_code == 200
    refused = _login(stolen, "organizer", DEFAULT_PASSWORD)
    assert refused.status_code == 429 and refused["Retry-After"] == "900"
    assert "_auth_user_id" not in stolen.session
    # The organizer's own laptop, and a new browser at the same address, still get in.
    assert _login(_known_browser("organizer"), "organizer", DEFAULT_PASSWORD).status_code == 302
    assert _login(_browser(), "organizer", DEFAULT_PASSWORD).status_code == 302


def test_a_good_login_clears_the_known_browsers_count() -> None:
    UserFactory(username="organizer")
    laptop = _known_browser("organizer")
    for _ in range(2):
        for _ in range(9):
            assert _login(laptop, "organizer", "typo").status_code == 200
        assert _login(laptop, "organizer", DEFAULT_PASSWORD).status_code == 302


def test_a_device_cookie_of_another_user_gives_no_exemption() -> None:
    UserFactory(username="organizer")
    UserFactory(username="scorer")
    desk = _known_browser("scorer")
    _guesses("organizer", 10)
    assert _login(desk, "organizer", DEFAULT_PASSWORD).status_code == 429
    # Nor under the organizer's cookie name: the signed contents name the scorer.
    scorers = desk.cookies[ratelimit.device_cookie_name("scorer")].value
    desk.cookies[ratelimit.device_cookie_name("organizer")] = scorers
    assert _login(desk, "organizer", DEFAULT_PASSWORD).status_code == 429
    # The scorer's own logins from the desk are still let in.
    _guesses("scorer", 10)
    assert _login(desk, "scorer", DEFAULT_PASSWORD).status_code == 302


@pytest.mark.parametrize(
    "forged",
    [
        "made-up",
        signing.dumps({"user": "organizer", "nonce": "x" * 22}, salt="another salt"),
        signing.dumps({"user": "organizer", "nonce": "x" * 22}, salt=ratelimit.DEVICE_SALT)[:-2]
        + "AA",
    ],
    ids=["garbage", "wrong-salt", "altered-signature"],
)
def test_a_forged_device_cookie_gives_no_exemption(forged: str) -> None:
    UserFactory(username="organizer")
    _guesses("organizer", 10)
    client = _browser()
    client.cookies[ratelimit.device_cookie_name("organizer")] = forged
    assert _login(client, "organizer", DEFAULT_PASSWORD).status_code == 429


def test_a_cookie_signed_with_another_secret_key_gives_no_exemption() -> None:
    UserFactory(username="organizer")
    with override_settings(SECRET_KEY="another installation's key, fifty characters long!!"):
        other = _known_browser("organizer")
    _guesses("organizer", 10)
    assert _login(other, "organizer", DEFAULT_PASSWORD).status_code == 429


def test_the_admin_login_remembers_and_honours_the_browser_too() -> None:
    UserFactory(username="staff", is_staff=True)
    laptop = _known_browser("staff", "/admin/login/")
    statuses = [
        _login(_browser(), "staff", "guess", "/admin/login/").status_code for _ in range(11)
    ]
    assert statuses[-1] == 429
    # One account, two doors: the cookie from the admin's door opens the site's, and back.
    assert _login(laptop, "staff", DEFAULT_PASSWORD, "/admin/login/").status_code == 302
    assert _login(laptop, "staff", DEFAULT_PASSWORD).status_code == 302


# --- every browser has a device cookie of its own, set at the login page ----------------------


def _new_browser(url: str = "/accounts/login/") -> Client:
    """A browser at the hall's address that has opened the login page (and so carries the
    device cookie it sets) but never logged in."""
    client = _browser()
    page = client.get(url)
    assert page.status_code == 200
    assert ratelimit.BROWSER_COOKIE in page.cookies
    return client


@pytest.mark.parametrize("url", ["/accounts/login/", "/admin/login/"])
def test_a_guest_at_the_halls_address_never_locks_the_organizers_new_browser(url: str) -> None:
    """The guest's failures count against the guest's own browser: once over the limit, it
    is refused even with the right password, while the organizer, on a browser that has
    never logged in before but at the same address, logs in at the first try."""
    UserFactory(username="organizer", is_staff=True)
    guest = _new_browser(url)
    statuses = [_login(guest, "organizer", "guess", url).status_code for _ in range(12)]
    assert statuses[:10] == [200] * 10 and statuses[10:] == [429, 429]
    assert _login(guest, "organizer", DEFAULT_PASSWORD, url).status_code == 429
    organizer = _new_browser(url)
    assert _login(organizer, "organizer", DEFAULT_PASSWORD, url).status_code == 302
    assert organizer.session["_auth_user_id"]
    # Another fresh browser has its own count too: a typo, then in.
    scorer = _new_browser(url)
    assert _login(scorer, "organizer", "typo", url).status_code == 200
    assert _login(scorer, "organizer", DEFAULT_PASSWORD, url).status_code == 302


def test_the_login_pages_device_cookie_is_signed_http_only_and_kept() -> None:
    client = _browser()
    cookie = client.get("/accounts/login/").cookies[ratelimit.BROWSER_COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    assert cookie["max-age"] == 365 * 24 * 60 * 60
    assert len(signing.loads(cookie.value, salt=ratelimit.BROWSER_SALT)["nonce"]) >= 16
    # Kept while valid: the page does not hand the browser a new one at each visit.
    assert ratelimit.BROWSER_COOKIE not in client.get("/accounts/login/").cookies
    assert ratelimit.BROWSER_COOKIE not in client.get("/admin/login/").cookies
    # A forged one is no cookie: replaced, and counted as no cookie (the address's count).
    client.cookies[ratelimit.BROWSER_COOKIE] = "made-up"
    assert ratelimit.BROWSER_COOKIE in client.get("/accounts/login/").cookies


def test_browsers_without_the_cookie_share_the_addresss_count() -> None:
    """A script that never opened the page (no cookie) is counted per address and
    username, as before: rotating nothing buys it more guesses."""
    UserFactory(username="organizer")
    _guesses("organizer", 10)
    assert _login(_browser(), "organizer", DEFAULT_PASSWORD).status_code == 429
    assert _login(_new_browser(), "organizer", DEFAULT_PASSWORD).status_code == 302


@override_settings(RATELIMIT_LOGIN_IP_FAILURES=20)
def test_the_addresss_ceiling_counts_every_new_browsers_failures() -> None:
    """Past the address's ceiling (whatever the name and the browser) new browsers there are
    refused; a browser that has logged in before is not. The default ceiling is far above
    what a hall's people mistype (250 phones, three typos each)."""
    UserFactory(username="organizer")
    laptop = _known_browser("organizer")
    for n in range(20):
        assert _login(_new_browser(), f"name{n}", "guess").status_code == 200
    assert _login(_new_browser(), "organizer", DEFAULT_PASSWORD).status_code == 429
    assert _login(laptop, "organizer", DEFAULT_PASSWORD).status_code == 302
    assert base_settings.RATELIMIT_LOGIN_IP_FAILURES > 250 * 3
    assert ratelimit.DEFAULTS["RATELIMIT_LOGIN_IP_FAILURES"] > 250 * 3
