"""Site-wide pages that belong to no app: the home page and the health check."""

import logging

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from kombu import Connection

logger = logging.getLogger(__name__)


def home(request: HttpRequest) -> HttpResponse:
    """What the product is, and the way in."""
    return render(request, "home.html")


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


@never_cache
def livez(request: HttpRequest) -> JsonResponse:
    """That this process answers, touching neither the database nor the broker.

    For a load balancer's liveness probe (restart a process that stops answering), where
    /healthz is the readiness probe; the load figures also use it as the minimal JSON view.
    """
    return JsonResponse({"status": "ok"})


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """Whether this process can reach its database and broker: 200 if all are up, else 503.

    ``broker`` is "eager" when there is no broker (tasks run in-process).
    """
    checks = {"database": _check_database(), "broker": _check_broker()}
    healthy = all(state != "down" for state in checks.values())
    body = {**checks, "status": "ok" if healthy else "down"}
    return JsonResponse(body, status=200 if healthy else 503)
