"""Redis, the Celery broker in production, answers when CELERY_BROKER_URL points at it."""

import os
import uuid

import pytest
import redis
from django.test import Client

pytestmark = [pytest.mark.integration, pytest.mark.redis]


def test_redis_answers_and_keeps_a_key() -> None:
    client = redis.Redis.from_url(os.environ["CELERY_BROKER_URL"], socket_timeout=5)
    try:
        assert client.ping() is True
        key = f"fortyfives:test:{uuid.uuid4()}"
        client.set(key, "forty-five", ex=60)
        assert client.get(key) == b"forty-five"
        client.delete(key)
        assert client.get(key) is None
    finally:
        client.close()


@pytest.mark.django_db
def test_healthz_reaches_the_broker(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["broker"] == "ok"
