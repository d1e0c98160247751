"""The shared cache (CACHE_URL=redis://…, config/cache.py): a Redis that cannot be reached is an
empty cache, never an error, and the log says so at most once a minute; /healthz still tells."""

from __future__ import annotations

import pytest

import config.cache
from config.cache import TolerantRedisCache
from config.settings.env import cache_settings, read

# Nobody listens on port 1: every connection is refused, as with Redis stopped.
CLOSED = cache_settings(read({"CACHE_URL": "redis://127.0.0.1:1/0"}))


@pytest.fixture
def down(monkeypatch: pytest.MonkeyPatch) -> TolerantRedisCache:
    monkeypatch.setattr(config.cache, "OUTAGES", {})
    return TolerantRedisCache(CLOSED["LOCATION"], {"OPTIONS": CLOSED["OPTIONS"]})


def test_the_settings_name_the_tolerant_backend_with_short_timeouts() -> None:
    assert CLOSED["BACKEND"] == "config.cache.TolerantRedisCache"
    assert CLOSED["OPTIONS"] == {"socket_connect_timeout": 1, "socket_timeout": 1}


def test_an_unreachable_redis_answers_as_an_empty_cache(
    down: TolerantRedisCache, caplog: pytest.LogCaptureFixture
) -> None:
    assert down.get("rows") is None and down.get("rows", "kept") == "kept"
    down.set("rows", "html", 60)
    assert down.add("rows", "html") is False
    assert down.get_or_set("rows", "fresh") == "fresh"
    assert down.get_many(["a", "b"]) == {}
    assert down.set_many({"a": 1}) == []
    assert down.has_key("a") is False and down.touch("a") is False
    assert down.delete("a") is False
    down.delete_many(["a", "b"])
    with pytest.raises(ValueError, match="not found"):  # a miss, as Django's incr says it
        down.incr("failures")
    down.clear()
    assert down.reachable() is False
    said = [r for r in caplog.records if r.name == "config.cache"]
    assert len(said) == 1 and said[0].levelname == "WARNING"
    assert "Redis is not reachable" in said[0].getMessage()
    assert "answered as an empty cache" in said[0].getMessage()


def test_the_outage_is_logged_at_most_once_a_minute(
    down: TolerantRedisCache, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [1000.0]
    monkeypatch.setattr(config.cache.time, "monotonic", lambda: clock[0])
    for step in range(30):  # two calls every 2 s, for a minute (asked again every 5 s)
        clock[0] += 2
        down.get("a")
        down.set("a", step)
    assert len([r for r in caplog.records if r.name == "config.cache"]) == 1
    clock[0] += 6  # 64 s after the first
    down.get("a")
    assert len([r for r in caplog.records if r.name == "config.cache"]) == 2
