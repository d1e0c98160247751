"""Slowing down guessing: failed logins and failed token look-ups (and password-reset e-mails
asked for) are counted per client in
Django's cache, and once a client has failed too often within a window it is refused (429)
until the window ends.

Only failures count. A hall of 250 phones on one Wi-Fi address, each with its card's valid
token, is never held back; a token of a closed drive is no guess either (its pages answer 410
and are not counted). The limits, in ``settings`` (with these defaults):

- ``RATELIMIT_LOGIN_FAILURES`` (10) failed logins per browser and username (the browser's
  device cookie, below; a request without one: per address and username), and
  ``RATELIMIT_LOGIN_IP_FAILURES`` (1000) per address, whatever the name and the browser,
  within ``RATELIMIT_LOGIN_WINDOW`` (900 s); a known browser (below) gets
  ``RATELIMIT_LOGIN_FAILURES`` of its own, and none of the address's counts. The ceiling is
  far above what a hall's people mistype (250 phones behind one address, a few typos each)
  and is there for a guesser who takes a new cookie at every try;
- ``RATELIMIT_RESET_REQUESTS`` (5) password-reset requests per address and e-mail address,
  and ``RATELIMIT_RESET_IP_REQUESTS`` (20) per address, within ``RATELIMIT_RESET_WINDOW``
  (3600 s). Here every request counts, not only failures: each may send an e-mail, and the
  page says the same whether the address is known or not;
- ``RATELIMIT_TOKEN_FAILURES`` (50) unknown table, couple or API tokens per address within
  ``RATELIMIT_TOKEN_WINDOW`` (600 s). Once over it, unknown tokens from that address are
  answered 429 until the window ends; valid ones are still served, so that one guesser on a
  hall's Wi-Fi cannot shut out the phones that share the address (tokens are 128-bit random:
  guessing one is hopeless; the limit keeps the noise down and says so);
- ``RATELIMIT_REGISTRATIONS`` (30, never fewer than ``REGISTRATIONS_FLOOR``: 20) registrations
  before the night made per address within ``RATELIMIT_REGISTRATION_WINDOW`` (3600 s). Only
  registrations made count (a refused one writes nothing): a family registering its couples,
  or a hall's one shared connection, is never stopped before 20 an hour.

The client's address is ``REMOTE_ADDR``. Behind a reverse proxy that appends it to
``X-Forwarded-For`` (``RATELIMIT_TRUST_X_FORWARDED_FOR = True``), and only for a connection
from one of ``RATELIMIT_TRUSTED_PROXIES`` (addresses or networks; the loopback addresses by
default, nginx on the same machine), the right-most address of that header that is not
itself one of those proxies: the one our nearest proxy saw (the earlier ones are whatever
the client sent). A connection from anywhere else is counted by its own address, whatever
header it sends.

The counting is django-ratelimit's (``get_usage``: a count per window of ``window`` seconds,
``cache.add`` then ``cache.incr``, atomic on Redis, shared by every app server, and within one
process on the local-memory cache; each client's window starts at its own second of the
clock, and a refused client is told exactly when it ends). One count is kept here by hand,
:class:`Forgettable`: a browser's failed logins for a username, which a right password
clears; django-ratelimit has no way to forget a count (and django-axes, which can, counts only
by username, address and user agent with one limit for all: no browser of its own, the device
cookie, and no separate ceiling for the address).

**Every browser's own count** (OWASP's device cookies, for new devices too). The login pages
(the site's and the admin's) give a browser that has none a signed device cookie of its own
(``BROWSER_COOKIE``: a random nonce, no username; HttpOnly, ``Secure`` as the session cookie,
SameSite=Lax, ``RATELIMIT_DEVICE_COOKIE_AGE`` seconds). Its failed logins are counted per
username against that cookie: a guest guessing the organizer's password on the hall's Wi-Fi
locks out the guest's own browser, never a browser the organizer opens for the first time
at the same address (until the address's ceiling). A request without a valid one (a script
that never opened the page) is counted per address and username, with every other such
request from there.

**Known browsers**. A browser that has logged in as a user carries a
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
counted as above (its browser cookie's count, or the address's, and the ceiling).

**The cache down** (Redis stopped, with ``CACHE_URL`` set): the limiter fails open
(``RATELIMIT_FAIL_OPEN``). The cache answers as an empty one (config/cache.py, with a warning
in the log), so every check answers "not limited" and every count is lost, so that the
organizer can still log in, reset a password and the phones' tokens are answered (a good one
as always, an unknown one 404/401); ``/healthz`` says ``"cache": "down"``. Guessing is then
slowed only by the password hashing until the cache is back.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import ipaddress
import secrets
import time
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django_ratelimit.core import get_usage

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

DEFAULTS = {
    "RATELIMIT_LOGIN_FAILURES": 10,
    "RATELIMIT_LOGIN_IP_FAILURES": 1000,
    "RATELIMIT_LOGIN_WINDOW": 15 * 60,
    "RATELIMIT_RESET_REQUESTS": 5,
    "RATELIMIT_RESET_IP_REQUESTS": 20,
    "RATELIMIT_RESET_WINDOW": 60 * 60,
    "RATELIMIT_TOKEN_FAILURES": 50,
    "RATELIMIT_TOKEN_WINDOW": 10 * 60,
    "RATELIMIT_DEVICE_COOKIE_AGE": 365 * 24 * 60 * 60,
    "RATELIMIT_REGISTRATIONS": 30,
    "RATELIMIT_REGISTRATION_WINDOW": 60 * 60,
}


def _setting(name: str) -> int:
    return int(getattr(settings, name, DEFAULTS[name]))


@dataclass(frozen=True)
class Count:
    """One count of django-ratelimit's: ``group`` and who (an address, an address and an
    e-mail address), at most ``limit`` within ``window`` seconds."""

    group: str
    who: str
    limit: int
    window: int

    def _usage(self, request: HttpRequest, add: bool) -> dict[str, int] | None:
        who = self.who
        usage: dict[str, int] | None = get_usage(
            request,
            group=self.group,
            key=lambda _group, _request: who,
            rate=f"{self.limit}/{self.window}s",
            increment=add,
        )
        return usage  # None: the cache is down (RATELIMIT_FAIL_OPEN)

    def wait(self, request: HttpRequest) -> int | None:
        """Seconds until this window ends if the count is at its limit, else None."""
        usage = self._usage(request, add=False)
        if usage is None or usage["count"] < self.limit:
            return None
        # django-ratelimit's window still holds at its last second (time_left 0): the next
        # one starts a second later.
        return usage["time_left"] + 1

    def add(self, request: HttpRequest) -> None:
        """One more (none when the cache is down: nothing is kept)."""
        self._usage(request, add=True)


@dataclass(frozen=True)
class Forgettable:
    """A browser's failed logins for a username, which a right password clears (the one
    count kept by hand: see the module's docstring). Windows are fixed slices of the clock;
    ``cache.add`` then ``cache.incr``, as django-ratelimit counts."""

    who: str
    limit: int
    window: int

    def key(self, now: float) -> str:
        digest = hashlib.sha256(self.who.encode()).hexdigest()[:32]
        return f"ratelimit:login:{digest}:{int(now // self.window)}"

    def wait(self, request: HttpRequest) -> int | None:
        now = time.time()
        if int(cache.get(self.key(now), 0)) < self.limit:
            return None
        return max(1, int((int(now // self.window) + 1) * self.window - now + 0.999))

    def add(self, request: HttpRequest) -> None:
        key = self.key(time.time())
        # The key lives a little past its window, so a slow request near the end of one
        # cannot start a counter that never expires.
        cache.add(key, 0, timeout=self.window + 5)
        with contextlib.suppress(ValueError):  # expired between add and incr; the cache down
            cache.incr(key)

    def clear(self) -> None:
        cache.delete(self.key(time.time()))


def client_ip(request: HttpRequest) -> str:
    """The address failures are counted against (see the module's docstring)."""
    remote = str(request.META.get("REMOTE_ADDR") or "unknown")[:100]
    if not getattr(settings, "RATELIMIT_TRUST_X_FORWARDED_FOR", False):
        return remote
    proxies = trusted_proxies(tuple(getattr(settings, "RATELIMIT_TRUSTED_PROXIES", LOOPBACK)))
    if not _is_proxy(remote, proxies):
        return remote  # a direct connection: its X-Forwarded-For is the client's own words
    forwarded: str = request.META.get("HTTP_X_FORWARDED_FOR", "")
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    for hop in reversed(hops):  # each proxy appends the address it saw
        if not _is_proxy(hop, proxies):
            return hop[:100]
    return hops[0][:100] if hops else remote


LOOPBACK = ("127.0.0.1", "::1")


@functools.cache
def trusted_proxies(addresses: tuple[str, ...]) -> tuple[IPNetwork, ...]:
    """The proxies' addresses or networks (``10.0.0.0/24``) as networks; ValueError for one
    that is neither."""
    return tuple(ipaddress.ip_network(address, strict=False) for address in addresses)


def _is_proxy(address: str, proxies: tuple[IPNetwork, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    # A dual-stack server names an IPv4 proxy as ::ffff:127.0.0.1.
    mapped = ip.ipv4_mapped if isinstance(ip, ipaddress.IPv6Address) else None
    return any(ip in network or (mapped is not None and mapped in network) for network in proxies)


def _wait(request: HttpRequest, counts: list[Count | Forgettable]) -> int | None:
    waits = [wait for count in counts if (wait := count.wait(request)) is not None]
    return max(waits) if waits else None


# --- logins -------------------------------------------------------------------------------------


def _username(username: str) -> str:
    return username.strip().lower()[:150]


def _login_counts(request: HttpRequest, username: str) -> tuple[Forgettable, Count | None]:
    """The counts a login as ``username`` from this browser is limited by: the one a good
    password clears (its known-browser cookie's own when it carries a valid one for that
    username; else its browser cookie's for the username, or, with no valid browser cookie,
    this address's for the username), and this address's ceiling, whoever it names (none for
    a known browser)."""
    user = _username(username)
    window = _setting("RATELIMIT_LOGIN_WINDOW")
    failures = _setting("RATELIMIT_LOGIN_FAILURES")
    device = device_nonce(request, user)
    if device is not None:
        return Forgettable(f"device\n{user}\n{device}", failures, window), None
    ip = client_ip(request)
    browser = browser_nonce(request)
    own = f"browser\n{user}\n{browser}" if browser is not None else f"address\n{ip}\n{user}"
    ceiling = Count("login-ip", ip, _setting("RATELIMIT_LOGIN_IP_FAILURES"), window)
    return Forgettable(own, failures, window), ceiling


def login_blocked(request: HttpRequest, username: str) -> int | None:
    """Seconds this client must wait before trying to log in as ``username``, or None."""
    own, ceiling = _login_counts(request, username)
    return _wait(request, [own] if ceiling is None else [own, ceiling])


def login_failed(request: HttpRequest, username: str) -> None:
    own, ceiling = _login_counts(request, username)
    own.add(request)
    if ceiling is not None:
        ceiling.add(request)


def login_succeeded(request: HttpRequest, username: str) -> None:
    """A good password clears this browser's count for this username (its device cookie's,
    or this address's for the username; not the address's), and earns the browser a fresh
    device cookie (set on the response by :func:`remember_device`)."""
    _login_counts(request, username)[0].clear()
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


# Every browser's own cookie, set by the login pages when they are shown (no username in it).
BROWSER_COOKIE = "device"
BROWSER_SALT = "drives.ratelimit.browser"


def browser_nonce(request: HttpRequest) -> str | None:
    """The nonce of this browser's device cookie (set at the login page), or None if it
    carries none, or one that is forged, altered or expired."""
    raw = request.COOKIES.get(BROWSER_COOKIE)
    if not raw:
        return None
    try:
        data = signing.loads(
            raw, salt=BROWSER_SALT, max_age=_setting("RATELIMIT_DEVICE_COOKIE_AGE")
        )
    except signing.BadSignature:
        return None
    nonce = data.get("nonce") if isinstance(data, dict) else None
    return nonce if isinstance(nonce, str) and nonce else None


def browser_remember(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    """``response`` (a login page shown) with a device cookie for a browser that has no valid
    one yet; its failed logins are then counted against that cookie."""
    if browser_nonce(request) is None:
        response.set_cookie(
            BROWSER_COOKIE,
            signing.dumps({"nonce": secrets.token_urlsafe(16)}, salt=BROWSER_SALT),
            max_age=_setting("RATELIMIT_DEVICE_COOKIE_AGE"),
            secure=settings.SESSION_COOKIE_SECURE,
            httponly=True,
            samesite="Lax",
        )
    return response


# --- password resets ----------------------------------------------------------------------------


def _reset_counts(request: HttpRequest, email: str) -> list[Count | Forgettable]:
    """This address's reset e-mails to ``email``, and this address's whoever they are to."""
    ip = client_ip(request)
    address = email.strip().lower()[:254]
    window = _setting("RATELIMIT_RESET_WINDOW")
    return [
        Count("reset", f"{ip}\n{address}", _setting("RATELIMIT_RESET_REQUESTS"), window),
        Count("reset-ip", ip, _setting("RATELIMIT_RESET_IP_REQUESTS"), window),
    ]


def reset_blocked(request: HttpRequest, email: str) -> int | None:
    """Seconds this client must wait before asking for another reset e-mail to ``email``,
    or None."""
    return _wait(request, _reset_counts(request, email))


def reset_requested(request: HttpRequest, email: str) -> None:
    for count in _reset_counts(request, email):
        count.add(request)


# --- tokens -------------------------------------------------------------------------------------


def _token_count(request: HttpRequest) -> Count:
    return Count(
        "token",
        client_ip(request),
        _setting("RATELIMIT_TOKEN_FAILURES"),
        _setting("RATELIMIT_TOKEN_WINDOW"),
    )


def token_blocked(request: HttpRequest) -> int | None:
    """Seconds this client must wait before an unknown token of theirs is answered other
    than 429, or None."""
    return _token_count(request).wait(request)


def token_failed(request: HttpRequest) -> None:
    """An unknown token was presented."""
    _token_count(request).add(request)


# --- registrations before the night ---------------------------------------------------------

#: The registrations an hour from one address that always pass, whatever the settings say.
REGISTRATIONS_FLOOR = 20


def _registration_count(request: HttpRequest) -> Count:
    limit = max(REGISTRATIONS_FLOOR, _setting("RATELIMIT_REGISTRATIONS"))
    window = _setting("RATELIMIT_REGISTRATION_WINDOW")
    return Count("registration", client_ip(request), limit, window)


def registration_blocked(request: HttpRequest) -> int | None:
    """Seconds this address must wait before its next registration, or None."""
    return _registration_count(request).wait(request)


def registration_made(request: HttpRequest) -> None:
    """One more registration from this address."""
    _registration_count(request).add(request)


def minutes(seconds: int) -> int:
    """Seconds as whole minutes for a message, rounded up (at least 1)."""
    return max(1, -(-seconds // 60))
