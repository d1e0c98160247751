"""Site-wide pages that belong to no app: the home page and the health check."""

import logging
from functools import lru_cache

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.cache import cache_control, never_cache
from kombu import Connection

from config.cache import TolerantRedisCache
from config.storage import disk_check
from scoring.printing.pdf.base import QR_BORDER, qr_code

logger = logging.getLogger(__name__)


def home(request: HttpRequest) -> HttpResponse:
    """What the product is, and the way in. On the hall's server (``HALL_URL``), a logged-in
    organizer also sees the address the phones use, with its QR code to show or print."""
    hall_url = getattr(settings, "HALL_URL", "")
    hall = None
    if hall_url and request.user.is_authenticated:
        hall = {"url": hall_url, "svg": qr_svg(hall_url)}
    return render(request, "home.html", {"hall": hall})


@cache_control(max_age=24 * 3600)
def favicon(request: HttpRequest) -> HttpResponse:
    """The site's icon for pages that do not name it (the admin's, the API's documentation),
    whose browser asks /favicon.ico: a redirect rather than a 404 at every visit. Not permanent:
    the icon's collected name changes with its content."""
    return redirect(static("img/favicon.svg"))


@lru_cache(maxsize=8)
def qr_svg(text: str) -> SafeString:
    """``text``'s QR code as an SVG element, as on the printed cards (``qr_code``): segno's own
    SVG, one path over the dark modules on a white square with a quiet zone, ``text`` its title
    (escaped by segno). Attributes only, no style: the Content-Security-Policy allows it
    inline."""
    svg = qr_code(text).svg_inline(
        border=QR_BORDER,
        svgclass="hall-qr",
        lineclass=None,
        omitsize=True,
        light="#fff",
        title=text,
    )
    return mark_safe(svg)  # segno's markup, its title escaped


def _check_database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:
        logger.exception("healthz: database check failed")
        return "down"
    return "ok"


def _check_broker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    timeout = settings.HEALTHZ_BROKER_TIMEOUT
    try:
        with Connection(
            settings.CELERY_BROKER_URL,
            connect_timeout=timeout,
            transport_options={"socket_connect_timeout": timeout, "socket_timeout": timeout},
        ) as broker:
            broker.ensure_connection(max_retries=0)
    except Exception:
        logger.exception("healthz: broker check failed")
        return "down"
    return "ok"


def _check_cache() -> str:
    """ "local" for each process's own memory (no CACHE_URL), else whether Redis answers (its
    backend answers a silent server as an empty cache: asked here with a PING)."""
    cache = caches["default"]
    if isinstance(cache, LocMemCache):
        return "local"
    if isinstance(cache, TolerantRedisCache):
        return "ok" if cache.reachable() else "down"
    try:
        cache.get("healthz")
    except Exception:
        logger.exception("healthz: cache check failed")
        return "down"
    return "ok"


@never_cache
def livez(request: HttpRequest) -> JsonResponse:
    """That this process answers, touching neither the database nor the broker.

    For a load balancer's liveness probe (restart a process that stops answering), where
    /healthz is the readiness probe; the load figures also use it as the minimal JSON view.
    """
    return JsonResponse({"status": "ok"})


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """Whether this process can reach its database, broker and cache.

    503 with status "down" if the database or the broker is down: the night cannot be run
    without them. 200 with status "degraded" if only the cache is down: the night goes on
    (the limits on failed logins and unknown tokens are off until it is back, see
    ``drives.ratelimit``), so the process stays in the load balancer. Else 200 "ok".

    ``broker`` is "eager" when there is no broker (tasks run in-process); ``cache`` is
    "local" when there is no shared cache (each process counts for itself). On the hall,
    ``disk`` and ``disk_free_mb``: the free space of its data folder, "full" (503) under
    ``HALL_DISK_MIN_FREE_MB`` (config/storage.py).
    """
    checks = {"database": _check_database(), "broker": _check_broker()}
    disk = disk_check()
    healthy = all(state != "down" for state in checks.values()) and disk.get("disk") != "full"
    cache_state = _check_cache()
    status = "down" if not healthy else "degraded" if cache_state == "down" else "ok"
    body = {**checks, "cache": cache_state, **disk, "status": status}
    return JsonResponse(body, status=200 if healthy else 503)
