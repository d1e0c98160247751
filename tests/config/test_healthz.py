"""/healthz: a JSON report of the database, the broker and the cache."""

from typing import Any

import pytest
from django.test import Client
from django.test.utils import override_settings

from config.settings.env import cache_settings, read

pytestmark = pytest.mark.django_db


def test_healthz_reports_ok(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["database"] == "ok"
    assert body["broker"] in {"eager", "ok"}
    assert body["status"] == "ok"
    assert "no-cache" in response["Cache-Control"]


@override_settings(CELERY_TASK_ALWAYS_EAGER=True)
def test_healthz_says_eager_without_a_broker(client: Client) -> None:
    assert client.get("/healthz").json()["broker"] == "eager"


@override_settings(
    CELERY_TASK_ALWAYS_EAGER=False,
    CELERY_BROKER_URL="redis://127.0.0.1:1/0",
    HEALTHZ_BROKER_TIMEOUT=1,
)
def test_healthz_is_503_when_the_broker_is_down(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {
        "database": "ok",
        "broker": "down",
        "cache": "local",
        "status": "down",
    }


@override_settings(CELERY_TASK_ALWAYS_EAGER=True)
def test_healthz_says_local_without_a_shared_cache(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["cache"] == "local" and response.json()["status"] == "ok"


@override_settings(
    CELERY_TASK_ALWAYS_EAGER=True,
    CACHES={"default": cache_settings(read({"CACHE_URL": "redis://127.0.0.1:1/0"}))},
)
def test_healthz_stays_200_degraded_when_only_the_cache_is_down(client: Client) -> None:
    """The night goes on without the cache (the limits fail open): the process stays in
    the load balancer, and the body says what is missing."""
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "database": "ok",
        "broker": "eager",
        "cache": "down",
        "status": "degraded",
    }


def test_livez_answers_without_touching_the_database(
    client: Client, django_assert_num_queries: Any
) -> None:
    with django_assert_num_queries(0):
        response = client.get("/livez")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert "no-cache" in response["Cache-Control"]
