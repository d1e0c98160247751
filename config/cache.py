"""The shared cache (``CACHE_URL=redis://…``): Django's own Redis backend, except that a Redis
that cannot be reached is an empty cache rather than an error.

The cache holds nothing that matters beyond a few minutes (rendered fragments of the pages, the
counts of failed logins and tokens: config/settings/env.py), so with Redis stopped every page
is rendered afresh and the limits count nothing (drives/ratelimit.py fails open), instead of
each caller catching the error (the dashboard's ``{% cache %}`` did not, and answered 500).
A read is a miss (``get`` → the default, ``get_many`` → ``{}``, ``incr`` → ``ValueError``
as for a missing key), a write does nothing (``add``, ``touch``, ``delete`` → False). The log
says so at most once a minute (``LOG_EVERY``). After a failure the server is not asked again
for ``RETRY_AFTER`` seconds: a Redis host that has gone away (no refusal, only the socket's
timeout, ``CACHE_TIMEOUT``) costs a request one timeout, not one per cache call.
``reachable()`` asks the server itself, for /healthz.

Only the server's silence is forgiven (redis-py's ConnectionError and TimeoutError, the
socket's OSError); any other error of Redis is raised as Django's backend raises it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import Any, TypeVar

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)
LOG_EVERY = 60.0
RETRY_AFTER = 5.0

T = TypeVar("T")


class Outage:
    """What this process knows of one server's silence (shared by its threads' clients)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.until = 0.0  # not asked again before this (time.monotonic)
        self.logged = -LOG_EVERY  # when the log last said so

    def started(self, error: BaseException) -> None:
        now = time.monotonic()
        with self.lock:
            self.until = now + RETRY_AFTER
            say = now - self.logged >= LOG_EVERY
            if say:
                self.logged = now
        if say:
            logger.warning(
                "Redis is not reachable (%s: %s): the cache is answered as an empty cache "
                "(pages rendered afresh, failed logins and tokens not counted) until it is "
                "back; said at most once a minute",
                type(error).__name__,
                error,
            )


# One per server list, for the whole process: each thread has its own backend and client.
OUTAGES: dict[tuple[str, ...], Outage] = {}


class TolerantRedisCacheClient(RedisCacheClient):
    """Django's client, each command answered as a miss while the server cannot be reached."""

    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        self._outage_key = tuple(servers)

    @property
    def _outage(self) -> Outage:
        return OUTAGES.setdefault(self._outage_key, Outage())

    def _or(self, miss: T, call: Callable[[], T]) -> T:
        outage = self._outage
        if time.monotonic() < outage.until:
            return miss
        try:
            return call()
        except UNREACHABLE as error:
            outage.started(error)
            return miss

    def reachable(self) -> bool:
        try:
            self.get_client(None).ping()
        except UNREACHABLE:
            return False
        self._outage.until = 0.0
        return True

    def add(self, key: Any, value: Any, timeout: Any) -> bool:
        return self._or(False, partial(super().add, key, value, timeout))

    def get(self, key: Any, default: Any) -> Any:
        return self._or(default, partial(super().get, key, default))

    def set(self, key: Any, value: Any, timeout: Any) -> None:
        self._or(None, partial(super().set, key, value, timeout))

    def touch(self, key: Any, timeout: Any) -> bool:
        return self._or(False, partial(super().touch, key, timeout))

    def delete(self, key: Any) -> bool:
        return self._or(False, partial(super().delete, key))

    def get_many(self, keys: Iterable[Any]) -> dict[Any, Any]:
        return self._or({}, partial(super().get_many, keys))

    def has_key(self, key: Any) -> bool:
        return self._or(False, partial(super().has_key, key))

    def incr(self, key: Any, delta: int) -> Any:
        missing = object()
        found = self._or(missing, partial(super().incr, key, delta))
        if found is missing:
            raise ValueError(f"Key '{key}' not found.")
        return found

    def set_many(self, data: Mapping[Any, Any], timeout: Any) -> None:
        self._or(None, partial(super().set_many, data, timeout))

    def delete_many(self, keys: Iterable[Any]) -> None:
        self._or(None, partial(super().delete_many, keys))

    def clear(self) -> bool:
        return self._or(False, partial(super().clear))


class TolerantRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` on the tolerant client (see above)."""

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = TolerantRedisCacheClient

    def reachable(self) -> bool:
        """Whether the server answers a PING now (not the remembered outage)."""
        client = self._cache
        assert isinstance(client, TolerantRedisCacheClient)
        return client.reachable()
