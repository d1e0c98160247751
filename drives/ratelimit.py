"""Slowing down guessing: failed logins and failed token look-ups (and password-reset e-mails
asked for) are counted per client in
Django's cache, and once a client has failed too often within a window it is refused (429)
until the window ends.

Only failures count. A hall of 250 phones on one Wi-Fi address, each with its card's valid
token, is never held back; a token of a closed drive is no guess either (its pages answer 410
and are not counted). The limits, in ``settings`` (with these defaults):

- ``RATELIMIT_LOGIN_FAILURES`` (10) failed logins per address and username, and
  ``RATELIMIT_LOGIN_IP_FAILURES`` (50) per address, within ``RATELIMIT_LOGIN_WINDOW``
  (900 s), for browsers unknown for that username; a known browser (below) gets
  ``RATELIMIT_LOGIN_FAILURES`` of its own instead, and none of the address's counts;
- ``RATELIMIT_RESET_REQUESTS`` (5) password-reset requests per address and e-mail address,
  and ``RATELIMIT_RESET_IP_REQUESTS`` (20) per address, within ``RATELIMIT_RESET_WINDOW``
  (3600 s). Here every request counts, not only failures: each may send an e-mail, and the
  page says the same whether the address is known or not;
- ``RATELIMIT_TOKEN_FAILURES`` (50) unknown table, couple or API tokens per address within
  ``RATELIMIT_TOKEN_WINDOW`` (600 s). Once over it, unknown tokens from that address are
  answered 429 until the window ends; valid ones are still served, so that one guesser on a
  hall's Wi-Fi cannot shut out the phones that share the address (tokens are 128-bit random:
  guessing one is hopeless; the limit keeps the noise down and says so).

The client's address is ``REMOTE_ADDR``; behind a reverse proxy that appends it to
``X-Forwarded-For`` (``RATELIMIT_TRUST_X_FORWARDED_FOR = True``), the last address of that
header, the one the proxy itself saw (the earlier ones are whatever the client sent).

Windows are fixed slices of the clock (``window`` seconds long), so a refused client is told
exactly when to come back. Counters are ``cache.add`` then ``cache.incr``: atomic on Redis
(shared by every app server) and within one process on the local-memory cache.

**Known browsers** (OWASP's device cookies). A browser that has logged in as a user carries a
signed cookie for that user (``django.core.signing``: the username and a random nonce; one
cookie per username, so that a desk laptop shared by the organizer and a scorer keeps both;
HttpOnly, ``Secure`` as the session cookie, SameSite=Lax, ``RATELIMIT_DEVICE_COOKIE_AGE``
seconds, 365 days by default; a fresh nonce at each login). With a valid cookie for the
username it names, a login is counted against that cookie alone: ``RATELIMIT_LOGIN_FAILURES``
failures of that browser lock that browser out for the window, and failures of other browsers
(at the same address or anywhere) never do. So a guest at the door guessing the organizer's
password on the hall's Wi-Fi (every phone behind one address) cannot lock the organizer's own
laptop out; a stolen or shared cookie that keeps failing is locked on its own. A cookie for
another username, a forged, altered or expired one is no cookie: the browser is unknown, and
counted per address and username and per address as above.

**The cache down** (Redis stopped, with ``CACHE_URL`` set): the limiter fails open. The
cache answers as an empty one (config/cache.py, with a warning in the log), so every check
answers "not limited" and every count is lost, so that the organizer can still log in, reset
a password and the phones' tokens are answered (a good one as always, an unknown one
404/401); ``/healthz`` says ``"cache": "down"``. Guessing is then slowed only by the password
hashing until the cache is back.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

DEFAULTS = {
    "RATELIMIT_LOGIN_FAILURES": 10,
    "RATELIMIT_LOGIN_IP_FAILURES": 50,
    "RATELIMIT_LOGIN_WINDOW": 15 * 60,
    "RATELIMIT_RESET_REQUESTS": 5,
    "RATELIMIT_RESET_IP_REQUESTS": 20,
    "RATELIMIT_RESET_WINDOW": 60 * 60,
    "RATELIMIT_TOKEN_FAILURES": 50,
    "RATELIMIT_TOKEN_WINDOW": 10 * 60,
    "RATELIMIT_DEVICE_COOKIE_AGE": 365 * 24 * 60 * 60,
}


def _setting(name: str) -> int:
    return int(getattr(settings, name, DEFAULTS[name]))


@dataclass(frozen=True)
class Counter:
    """One count of failures: ``scope`` and who (an address, an address and a username)."""

    scope: str
    who: str
    limit: int
    window: int

    def _slice(self, now: float) -> int:
        return int(now // self.window)

    def key(self, now: float) -> str:
        digest = hashlib.sha256(self.who.encode()).hexdigest()[:32]
        return f"ratelimit:{self.scope}:{digest}:{self._slice(now)}"

    def retry_after(self, now: float) -> int:
        """Seconds until this window ends (at least 1)."""
        return max(1, int((self._slice(now) + 1) * self.window - now + 0.999))

    def count(self, now: float) -> int:
        return int(cache.get(self.key(now), 0))

    def add(self, now: float) -> int:
        """One more failure; the count now (1 when the cache is down: nothing is kept)."""
        key = self.key(now)
        # The key lives a little past its window, so a slow request near the end of one
        # cannot start a counter that never expires.
        cache.add(key, 0, timeout=self.window + 5)
        try:
            return int(cache.incr(key))
        except ValueError:  # expired between add and incr: start again
            cache.add(key, 1, timeout=self.window + 5)
            return 1

    def clear(self, now: float) -> None:
        cache.delete(self.key(now))


def client_ip(request: HttpRequest) -> str:
    """The address failures are counted against (see the module's docstring)."""
    if getattr(settings, "RATELIMIT_TRUST_X_FORWARDED_FOR", False):
        forwarded: str = request.META.get("HTTP_X_FORWARDED_FOR", "")
        hops = [h.strip() for h in forwarded.split(",")]
        hops = [h for h in hops if h]
        if hops:
            return hops[-1][:100]
    return str(request.META.get("REMOTE_ADDR") or "unknown")[:100]


def _retry_after(counters: list[Counter]) -> int | None:
    now = time.time()
    keys = [c.key(now) for c in counters]
    counts: dict[str, Any] = cache.get_many(keys)
    waits = [c.retry_after(now) for c in counters if int(counts.get(c.key(now), 0)) >= c.limit]
    return max(waits) if waits else None


# --- logins -------------------------------------------------------------------------------------


def _address_counters(
    request: HttpRequest, scope: str, who: str, each: str, every: str, window: str
) -> list[Counter]:
    """Two counts of one window (the settings named): this address's for ``who`` (a
    username, an e-mail address), limited by ``each``, and this address's whoever it names,
    limited by ``every``."""
    ip = client_ip(request)
    seconds = _setting(window)
    return [
        Counter(scope, f"{ip}\n{who}", _setting(each), seconds),
        Counter(f"{scope}-ip", ip, _setting(every), seconds),
    ]


def _username(username: str) -> str:
    return username.strip().lower()[:150]


def _login_counters(request: HttpRequest, username: str) -> list[Counter]:
    """The counts a login as ``username`` from this browser is limited by: its device
    cookie's own when it carries a valid one for that username, else this address's for the
    username and this address's whoever it names."""
    user = _username(username)
    device = device_nonce(request, user)
    if device is not None:
        return [
            Counter(
                "login-device",
                f"{user}\n{device}",
                _setting("RATELIMIT_LOGIN_FAILURES"),
                _setting("RATELIMIT_LOGIN_WINDOW"),
            )
        ]
    return _address_counters(
        request,
        "login",
        user,
        "RATELIMIT_LOGIN_FAILURES",
        "RATELIMIT_LOGIN_IP_FAILURES",
        "RATELIMIT_LOGIN_WINDOW",
    )


def login_blocked(request: HttpRequest, username: str) -> int | None:
    """Seconds this client must wait before trying to log in as ``username``, or None."""
    return _retry_after(_login_counters(request, username))


def login_failed(request: HttpRequest, username: str) -> None:
    now = time.time()
    for counter in _login_counters(request, username):
        counter.add(now)


def login_succeeded(request: HttpRequest, username: str) -> None:
    """A good password clears this browser's count for this username (its device cookie's,
    or this address's for the username; not the address's), and earns the browser a fresh
    device cookie (set on the response by :func:`remember_device`)."""
    _login_counters(request, username)[0].clear(time.time())
    request._login_device = _username(username)  # type: ignore[attr-defined]  # read by remember_device


# --- device cookies -----------------------------------------------------------------------------

DEVICE_SALT = "drives.ratelimit.device"


def device_cookie_name(username: str) -> str:
    """One cookie per username (a shared laptop keeps each of its users' cookies)."""
    return "device-" + hashlib.sha256(_username(username).encode()).hexdigest()[:16]


def device_nonce(request: HttpRequest, username: str) -> str | None:
    """The nonce of this browser's device cookie for ``username``, or None if it carries
    none, or one that is forged, altered, expired or another username's."""
    user = _username(username)
    raw = request.COOKIES.get(device_cookie_name(user))
    if not raw:
        return None
    try:
        data = signing.loads(raw, salt=DEVICE_SALT, max_age=_setting("RATELIMIT_DEVICE_COOKIE_AGE"))
    except signing.BadSignature:  # forged, altered or expired (SignatureExpired is one)
        return None
    if not isinstance(data, dict) or data.get("user") != user:
        return None
    nonce = data.get("nonce")
    return nonce if isinstance(nonce, str) and nonce else None


def remember_device(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """After a successful login (:func:`login_succeeded`), a fresh device cookie for the
    user on ``response``; otherwise ``response`` unchanged."""
    user = getattr(request, "_login_device", None)
    if user:
        value = signing.dumps({"user": user, "nonce": secrets.token_urlsafe(16)}, salt=DEVICE_SALT)
        response.set_cookie(
            device_cookie_name(user),
            value,
            max_age=_setting("RATELIMIT_DEVICE_COOKIE_AGE"),
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
    return response


# --- password resets ----------------------------------------------------------------------------


def _reset_counters(request: HttpRequest, email: str) -> list[Counter]:
    address = email.strip().lower()[:254]
    return _address_counters(
        request,
        "reset",
        address,
        "RATELIMIT_RESET_REQUESTS",
        "RATELIMIT_RESET_IP_REQUESTS",
        "RATELIMIT_RESET_WINDOW",
    )


def reset_blocked(request: HttpRequest, email: str) -> int | None:
    """Seconds this client must wait before asking for another reset e-mail to ``email``,
    or None."""
    return _retry_after(_reset_counters(request, email))


def reset_requested(request: HttpRequest, email: str) -> None:
    now = time.time()
    for counter in _reset_counters(request, email):
        counter.add(now)


# --- tokens -------------------------------------------------------------------------------------


def _token_counter(request: HttpRequest) -> Counter:
    return Counter(
        "token",
        client_ip(request),
        _setting("RATELIMIT_TOKEN_FAILURES"),
        _setting("RATELIMIT_TOKEN_WINDOW"),
    )


def token_blocked(request: HttpRequest) -> int | None:
    """Seconds this client must wait before an unknown token of theirs is answered other
    than 429, or None."""
    return _retry_after([_token_counter(request)])


def token_failed(request: HttpRequest) -> None:
    """An unknown token was presented."""
    _token_counter(request).add(time.time())


def minutes(seconds: int) -> int:
    """Seconds as whole minutes for a message, rounded up (at least 1)."""
    return max(1, -(-seconds // 60))
