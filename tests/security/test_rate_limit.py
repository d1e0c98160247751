"""Guessing is slowed down (drives/ratelimit.py): failed logins per address and username and
per address, unknown table, couple and API tokens per address; over the limit, 429 with
``Retry-After`` until the window ends (the failed logins' fixed slices of the clock; the
others' django-ratelimit windows, each client's starting at its own second). Only failures
count: a hall of phones behind one
address, every one with its valid token, is never held back. With the cache's Redis down,
nothing is limited and nothing fails (a warning in the log). Known browsers (device cookies)
are in test_device_cookies.py.

The limits are lowered here (``override_settings``) so that each test stays small."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import uuid
from datetime import date
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, RequestFactory, override_settings

import config.cache
from config.settings.env import cache_settings, read
from drives import ratelimit
from drives.models import AuditEntry, Couple, Drive, Table
from drives.services import (
    Actor,
    api_token_create,
    club_create,
    couples_register,
    drive_close,
    drive_create,
    drive_start,
    member_add,
)
from tests.factories import DEFAULT_PASSWORD, UserFactory

DESK = Actor(channel=AuditEntry.Channel.DESK)
HALL = "203.0.113.7"
ELSEWHERE = "198.51.100.20"

LIMITS = override_settings(
    RATELIMIT_LOGIN_FAILURES=3,
    RATELIMIT_LOGIN_IP_FAILURES=5,
    RATELIMIT_LOGIN_WINDOW=900,
    RATELIMIT_RESET_REQUESTS=2,
    RATELIMIT_RESET_IP_REQUESTS=3,
    RATELIMIT_RESET_WINDOW=3600,
    RATELIMIT_TOKEN_FAILURES=4,
    RATELIMIT_TOKEN_WINDOW=600,
)

pytestmark = [pytest.mark.django_db]


@pytest.fixture(autouse=True)
def _small_limits() -> Any:
    with LIMITS:
        yield


def _try_again(seconds: int) -> str:
    """What a refused page says of the wait: whole minutes, rounded up."""
    count = ratelimit.minutes(seconds)
    return f"Try again in {count} minute{'s' if count > 1 else ''}."


def _client(ip: str = HALL) -> Client:
    return Client(REMOTE_ADDR=ip)


def _login(client: Client, username: str, password: str, url: str = "/accounts/login/") -> Any:
    return client.post(url, {"username": username, "password": password})


def _night(couples: int = 8, *, closed: bool = False) -> Drive:
    club = club_create(name=f"Parish {uuid.uuid4().hex[:6]}")
    drive = drive_create(club=club, name="Friday 45s", date=date(2026, 11, 20))
    couples_register(
        drive=drive, couples=[{"players": [f"A{i}", f"B{i}"]} for i in range(couples)], actor=DESK
    )
    drive_start(drive=drive, actor=DESK)
    if closed:
        drive_close(drive=drive, actor=DESK)
    drive.refresh_from_db()
    return drive


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The limiter's clock, at the start of a window; tests move it on by hand."""
    now = [1_000_000 * 900.0]
    monkeypatch.setattr(ratelimit.time, "time", lambda: now[0])
    return now


# --- logins ---------------------------------------------------------------------------------------


def test_failed_logins_for_a_username_are_limited(clock: list[float]) -> None:
    user = UserFactory(username="mary")
    client = _client()
    for _ in range(3):
        assert _login(client, "mary", "wrong").status_code == 200
    refused = _login(client, "mary", DEFAULT_PASSWORD)
    assert refused.status_code == 429
    assert refused["Retry-After"] == "900"
    assert "Too many failed logins from here. Try again in 15 minutes." in refused.text
    assert 'name="password"' in refused.text, "the form is still there"
    assert "_auth_user_id" not in client.session, "the right password is not even tried"
    # Another address, or another name from this one, is not held back by mary's failures.
    assert _login(_client(ELSEWHERE), "mary", DEFAULT_PASSWORD).status_code == 302
    UserFactory(username="joe")
    assert _login(client, "joe", DEFAULT_PASSWORD).status_code == 302
    # Once the window is over, mary may try again.
    clock[0] += 900
    assert _login(_client(), "mary", DEFAULT_PASSWORD).status_code == 302
    assert user.is_active


def test_failed_logins_from_one_address_are_limited_whatever_the_name(clock: list[float]) -> None:
    UserFactory(username="mary")
    client = _client()
    for name in ("a", "b", "c", "d", "e"):
        assert _login(client, name, "wrong").status_code == 200
    assert _login(client, "mary", DEFAULT_PASSWORD).status_code == 429
    assert _login(_client(ELSEWHERE), "mary", DEFAULT_PASSWORD).status_code == 302


def test_good_logins_are_never_limited_and_clear_the_count(clock: list[float]) -> None:
    """A desk that logs in and out all night is never refused; a right password forgets the
    typos made before it for that name (not for the address). Each attempt comes from a
    browser that has never logged in (no device cookie)."""
    UserFactory(username="desk")
    for _ in range(20):
        assert _login(_client(), "desk", DEFAULT_PASSWORD).status_code == 302
    for _ in range(2):
        assert _login(_client(), "desk", "typo").status_code == 200
        assert _login(_client(), "desk", "typo").status_code == 200
        assert _login(_client(), "desk", DEFAULT_PASSWORD).status_code == 302
    # Four typos in all: the address's count (5) is not reached yet, the name's (3) was
    # cleared by each good login.
    assert _login(_client(), "desk", "typo").status_code == 200
    assert _login(_client(), "desk", DEFAULT_PASSWORD).status_code == 429


def test_the_admin_login_is_limited_too(clock: list[float]) -> None:
    UserFactory(username="staff", is_staff=True)
    client = _client()
    for _ in range(3):
        assert _login(client, "staff", "wrong", "/admin/login/").status_code == 200
    refused = _login(client, "staff", DEFAULT_PASSWORD, "/admin/login/")
    assert refused.status_code == 429
    assert "Too many failed logins from here" in refused.text
    assert refused["Retry-After"] == "900"
    # The site's login page counts against the same limit (one account, two doors).
    assert _login(client, "staff", DEFAULT_PASSWORD).status_code == 429


def test_the_wait_is_what_is_left_of_the_window(clock: list[float]) -> None:
    UserFactory(username="mary")
    client = _client()
    clock[0] += 600  # five minutes before the window ends
    for _ in range(3):
        _login(client, "mary", "wrong")
    refused = _login(client, "mary", "wrong")
    assert refused["Retry-After"] == "300"
    assert "Try again in 5 minutes." in refused.text


# --- password resets ------------------------------------------------------------------------------


def _reset(client: Client, email: str) -> Any:
    return client.post("/accounts/password_reset/", {"email": email})


def test_reset_emails_asked_for_from_one_address_are_limited(
    clock: list[float], mailoutbox: list[Any]
) -> None:
    UserFactory(username="mary", email="mary@example.org")
    client = _client()
    for _ in range(2):
        assert _reset(client, "mary@example.org").status_code == 302
    assert len(mailoutbox) == 2
    refused = _reset(client, "Mary@Example.org")
    assert refused.status_code == 429
    wait = int(refused["Retry-After"])
    assert 1 <= wait <= 3600, "what is left of this address's hour"
    assert f"Too many reset e-mails asked for from here. {_try_again(wait)}" in refused.text
    assert 'name="email"' in refused.text, "the form is still there"
    assert len(mailoutbox) == 2, "no e-mail is sent when refused"
    # Another address may still ask; this one may for another e-mail address until its own
    # limit (3 in all), whether the address is anybody's or not.
    assert _reset(_client(ELSEWHERE), "mary@example.org").status_code == 302
    assert _reset(client, "nobody@example.org").status_code == 302
    assert _reset(client, "someone@example.org").status_code == 429
    assert len(mailoutbox) == 3
    # Once the window is over, mary may ask again.
    clock[0] += 3600
    assert _reset(client, "mary@example.org").status_code == 302
    assert len(mailoutbox) == 4


# --- tokens ---------------------------------------------------------------------------------------


def _unknown() -> str:
    return uuid.uuid4().hex[:22]


def test_unknown_tokens_on_the_api_are_limited(clock: list[float]) -> None:
    drive = _night()
    good = Table.objects.filter(drive=drive)[0].token
    client = _client()
    for _ in range(4):
        answer = client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {_unknown()}")
        assert answer.status_code == 401
    refused = client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {_unknown()}")
    assert refused.status_code == 429
    wait = int(refused["Retry-After"])
    assert 1 <= wait <= 600, "what is left of this address's ten minutes"
    body = refused.json()
    assert body["code"] == "rate_limited" and body["retry_after"] == wait
    assert f"try again in {wait} seconds" in body["message"]
    # A good token from the same address is still served: the hall's other phones share it.
    assert client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {good}").status_code == 200
    elsewhere = _client(ELSEWHERE).get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {_unknown()}")
    assert elsewhere.status_code == 401
    # Refused until the moment it was told, not a second less.
    clock[0] += wait - 1
    last = client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {_unknown()}")
    assert last.status_code == 429 and last["Retry-After"] == "1"
    clock[0] += 1
    assert client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {_unknown()}").status_code == 401


@pytest.mark.parametrize("page", ["t", "c"])
def test_unknown_tokens_on_card_pages_are_limited(page: str, clock: list[float]) -> None:
    drive = _night()
    model = Table if page == "t" else Couple
    good = model.objects.filter(drive=drive)[0].token
    client = _client()
    for _ in range(4):
        assert client.get(f"/{page}/{_unknown()}/").status_code == 404
    refused = client.get(f"/{page}/{_unknown()}/")
    assert refused.status_code == 429
    wait = int(refused["Retry-After"])
    assert 1 <= wait <= 600
    assert "Too many card codes that do not exist were tried" in refused.text
    assert _try_again(wait) in refused.text
    # The card that is good still opens from here, and unknown ones elsewhere are 404s.
    assert client.get(f"/{page}/{good}/").status_code == 200
    assert _client(ELSEWHERE).get(f"/{page}/{_unknown()}/").status_code == 404


def test_card_pages_and_the_api_share_one_count(clock: list[float]) -> None:
    client = _client()
    client.get(f"/t/{_unknown()}/")
    client.get(f"/c/{_unknown()}/")
    client.post(f"/t/{_unknown()}/", {"game": "1", "winner": "1"})
    client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {_unknown()}")
    assert client.get("/api/v1/me", HTTP_AUTHORIZATION="Bearer x").status_code == 429
    assert client.get(f"/t/{_unknown()}/").status_code == 429


def test_a_hall_of_phones_with_good_tokens_is_never_held_back(clock: list[float]) -> None:
    """Every table and couple of a 40-couple night polls from one address, many times over
    (a limit of 4 failures): nobody is refused."""
    drive = _night(40)
    tokens = [t.token for t in Table.objects.filter(drive=drive)]
    couples = [c.token for c in Couple.objects.filter(drive=drive)]
    client = _client()
    for _round in range(3):
        for token in tokens:
            assert client.get(f"/t/{token}/?partial=1").status_code == 200
            api = client.get(
                f"/api/v1/drives/{drive.slug}/tables", HTTP_AUTHORIZATION=f"Bearer {token}"
            )
            assert api.status_code == 200
        for token in couples:
            assert client.get(f"/c/{token}/?partial=1").status_code == 200


def test_a_closed_drives_cards_are_no_guesses(clock: list[float]) -> None:
    """Phones left on their page after the night closed keep polling: 410 (403 in the API),
    never counted, so the hall is not locked out of the next drive."""
    closed = _night(closed=True)
    token = Table.objects.filter(drive=closed)[0].token
    client = _client()
    for _ in range(10):
        assert client.get(f"/t/{token}/?partial=1").status_code == 410
        answer = client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {token}")
        assert answer.status_code == 403 and answer.json()["code"] == "token_expired"
    assert client.get(f"/t/{_unknown()}/").status_code == 404


def test_api_users_with_good_tokens_are_never_held_back(clock: list[float]) -> None:
    drive = _night()
    organizer = UserFactory(username="organizer")
    member_add(club=drive.club, user=organizer, role="organizer")
    token = api_token_create(user=organizer)
    client = _client()
    for _ in range(20):
        answer = client.get(f"/api/v1/drives/{drive.slug}", HTTP_AUTHORIZATION=f"Bearer {token}")
        assert answer.status_code == 200


# --- the client's address -----------------------------------------------------------------------


def _failures_from(headers: list[str], remote: str = "10.0.0.1") -> list[int]:
    statuses = []
    for forwarded in headers:
        client = Client(REMOTE_ADDR=remote, HTTP_X_FORWARDED_FOR=forwarded)
        statuses.append(client.get(f"/t/{_unknown()}/").status_code)
    return statuses


def test_forwarded_for_is_ignored_unless_a_proxy_is_trusted(clock: list[float]) -> None:
    """Without a trusted proxy, a client cannot dodge the limit by making up addresses."""
    made_up = [f"192.0.2.{n}" for n in range(6)]
    assert _failures_from(made_up) == [404, 404, 404, 404, 429, 429]


def test_behind_a_trusted_proxy_the_address_it_saw_counts(clock: list[float]) -> None:
    """The proxy (one address for everybody, here the default: on this machine) appends the
    address it saw: that one counts, and whatever the client wrote before it is ignored."""
    spoofed = [f"192.0.2.{n}, {HALL}" for n in range(6)]
    with override_settings(RATELIMIT_TRUST_X_FORWARDED_FOR=True):
        assert _failures_from(spoofed, "127.0.0.1") == [404, 404, 404, 404, 429, 429]
        # Another hall behind the same proxy is not held back by this one.
        assert _failures_from([ELSEWHERE], "::1") == [404]


def test_a_forged_forwarded_for_from_a_direct_connection_is_ignored(clock: list[float]) -> None:
    """With the header trusted, a client that reaches the server directly (not through a
    trusted proxy) cannot dodge the limit by making addresses up: its own address counts."""
    made_up = [f"192.0.2.{n}" for n in range(6)]
    with override_settings(RATELIMIT_TRUST_X_FORWARDED_FOR=True):
        assert _failures_from(made_up, HALL) == [404, 404, 404, 404, 429, 429]
        assert ratelimit.client_ip(_request(HALL, forwarded="192.0.2.1")) == HALL


@pytest.mark.parametrize(
    ("remote", "forwarded", "client"),
    [
        # Two proxies of ours (a load balancer, then nginx): the right-most address that is
        # not one of them is the client; what the client wrote before it is ignored.
        ("10.0.0.2", f"192.0.2.1, {HALL}, 10.0.0.3", HALL),
        ("10.0.0.2", f"{HALL}", HALL),
        # A proxy that is not ours before ours: it is the client as far as we can tell.
        ("10.0.0.2", f"{HALL}, {ELSEWHERE}", ELSEWHERE),
        # Only our own proxies in the header: the first of them.
        ("10.0.0.2", "10.0.0.3", "10.0.0.3"),
        # No header, or an empty one: the proxy's address.
        ("10.0.0.2", "", "10.0.0.2"),
        ("10.0.0.2", " , ", "10.0.0.2"),
        # Not a proxy of ours: the header is the client's own words.
        ("10.1.0.2", f"{HALL}", "10.1.0.2"),
        # An IPv4 proxy as a dual-stack server names it.
        ("::ffff:10.0.0.2", f"{HALL}", HALL),
    ],
)
def test_the_right_most_address_not_a_trusted_proxy_counts(
    remote: str, forwarded: str, client: str
) -> None:
    with override_settings(
        RATELIMIT_TRUST_X_FORWARDED_FOR=True, RATELIMIT_TRUSTED_PROXIES=["10.0.0.0/24", "::1"]
    ):
        assert ratelimit.client_ip(_request(remote, forwarded=forwarded)) == client


# --- counting -------------------------------------------------------------------------------------


@override_settings(RATELIMIT_TOKEN_FAILURES=41)
def test_counting_is_atomic_across_threads() -> None:
    """40 failures at once are 40: one more reaches the limit of 41."""
    request = _request(HALL)
    threads = [threading.Thread(target=ratelimit.token_failed, args=(request,)) for _ in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert ratelimit.token_blocked(request) is None
    ratelimit.token_failed(request)
    assert ratelimit.token_blocked(request) is not None


def _request(ip: str, forwarded: str | None = None) -> Any:
    headers = {} if forwarded is None else {"HTTP_X_FORWARDED_FOR": forwarded}
    return RequestFactory().get("/", REMOTE_ADDR=ip, **headers)


@pytest.mark.redis
def test_counts_are_shared_through_redis(clock: list[float]) -> None:
    """With CACHE_URL=redis://…, every app server sees the same counts."""
    url = os.environ["CELERY_BROKER_URL"]
    prefix = f"test-{uuid.uuid4().hex}"
    caches = {"default": {**cache_settings(read({"CACHE_URL": url})), "KEY_PREFIX": prefix}}
    # The prefix is this test's own; its keys expire with their window (ten minutes).
    with override_settings(CACHES=caches):
        for _ in range(4):
            ratelimit.token_failed(_request(HALL))
        assert 1 <= (ratelimit.token_blocked(_request(HALL)) or 0) <= 600
        assert ratelimit.token_blocked(_request(ELSEWHERE)) is None


# --- the cache down -------------------------------------------------------------------------------

# A Redis cache nobody listens on: every call is refused, as with Redis stopped.
CACHE_DOWN = {"default": cache_settings(read({"CACHE_URL": "redis://127.0.0.1:1/0"}))}


def test_with_the_cache_down_the_limits_fail_open(
    clock: list[float],
    caplog: pytest.LogCaptureFixture,
    mailoutbox: list[Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Redis stopped (CACHE_URL set): logins, resets and tokens are answered as if nothing
    were counted, never 500, and the log says why nothing is limited."""
    drive = _night()
    good = Table.objects.filter(drive=drive)[0].token
    UserFactory(username="organizer", email="organizer@example.org")
    caplog.set_level("WARNING", logger="config.cache")
    monkeypatch.setattr(config.cache, "OUTAGES", {})  # no outage seen before this test
    with override_settings(CACHES=CACHE_DOWN):
        client = _client()
        for _ in range(5):  # over the limit of 3: nothing was counted
            assert _login(client, "organizer", "wrong").status_code == 200
        assert _login(client, "organizer", DEFAULT_PASSWORD).status_code == 302
        assert client.get("/").status_code == 200
        assert "_auth_user_id" in client.session
        for _ in range(4):
            assert _reset(_client(), "organizer@example.org").status_code == 302
        for _ in range(6):
            assert client.get(f"/t/{_unknown()}/").status_code == 404
            answer = client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {_unknown()}")
            assert answer.status_code == 401
        assert client.get(f"/t/{good}/").status_code == 200
    assert len(mailoutbox) == 4
    warnings = [r for r in caplog.records if r.name == "config.cache"]
    assert len(warnings) == 1 and warnings[0].levelname == "WARNING"
    assert "Redis is not reachable" in warnings[0].getMessage()
    assert "failed logins and tokens not counted" in warnings[0].getMessage()


def test_a_known_browser_still_logs_in_with_the_cache_down(clock: list[float]) -> None:
    UserFactory(username="organizer")
    laptop = _client()
    assert _login(laptop, "organizer", DEFAULT_PASSWORD).status_code == 302
    with override_settings(CACHES=CACHE_DOWN):
        assert _login(laptop, "organizer", "typo").status_code == 200
        assert _login(laptop, "organizer", DEFAULT_PASSWORD).status_code == 302


# --- settings -------------------------------------------------------------------------------------


def test_the_cache_comes_from_cache_url() -> None:
    assert cache_settings(read({}))["BACKEND"].endswith("LocMemCache")
    redis = cache_settings(read({"CACHE_URL": "redis://cache:6379/1"}))
    assert redis == {
        "BACKEND": "config.cache.TolerantRedisCache",
        "LOCATION": "redis://cache:6379/1",
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
    slow = cache_settings(read({"CACHE_URL": "redis://cache:6379/1", "CACHE_TIMEOUT": "3"}))
    assert slow["OPTIONS"] == {"socket_connect_timeout": 3, "socket_timeout": 3}
    with pytest.raises(ImproperlyConfigured, match="CACHE_URL"):
        cache_settings(read({"CACHE_URL": "memcached://cache:11211"}))


def test_production_trusts_the_proxy_only_when_told() -> None:
    code = (
        "import config.settings.prod as s; "
        "print(s.RATELIMIT_TRUST_X_FORWARDED_FOR, s.RATELIMIT_TRUSTED_PROXIES)"
    )
    env = {"SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "drives.example.org", "PATH": "/usr/bin"}
    for extra, expected in (
        ({}, "False ['127.0.0.1', '::1']"),
        ({"TRUST_X_FORWARDED_FOR": "true"}, "True ['127.0.0.1', '::1']"),
        ({"TRUSTED_PROXIES": "10.0.0.0/24, 172.17.0.1"}, "False ['10.0.0.0/24', '172.17.0.1']"),
    ):
        out = subprocess.run(
            [sys.executable, "-c", code],
            env={**env, **extra},
            capture_output=True,
            text=True,
            check=True,
        )
        assert out.stdout.strip() == expected
    # A name is no address: the settings refuse to load, naming the variable.
    refused = subprocess.run(
        [sys.executable, "-c", code],
        env={**env, "TRUSTED_PROXIES": "127.0.0.1, nginx"},
        capture_output=True,
        text=True,
    )
    assert refused.returncode != 0 and "TRUSTED_PROXIES='nginx'" in refused.stderr
