"""Reading settings from the environment.

Plain functions of a mapping (normally ``os.environ``) so that tests can check what a given
environment produces without reloading settings. The settings modules call them; nothing
else should.
"""

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})

# The embedded default: one laptop, one SQLite file, several processes (web server, tasks)
# writing to it. WAL lets readers go on while one writer writes; IMMEDIATE takes the write
# lock at BEGIN, so two writers queue on busy_timeout instead of failing with "database is
# locked" half-way through a transaction; synchronous=NORMAL is durable across a crash of
# the application in WAL mode.
SQLITE_OPTIONS: dict[str, Any] = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": (
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;"
    ),
}


def env_bool(environ: Mapping[str, str], name: str, default: bool) -> bool:
    """The variable as a boolean (1/true/yes/on or 0/false/no/off); ``default`` if unset."""
    raw = environ.get(name)
    if raw is None:
        return default
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use true or false)")


def env_int(environ: Mapping[str, str], name: str, default: int) -> int:
    """The variable as an integer; ``default`` if unset or empty."""
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer") from None


def env_list(environ: Mapping[str, str], name: str, default: str = "") -> list[str]:
    """The variable as a comma-separated list, blanks dropped; ``default`` if unset."""
    raw = environ.get(name, default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def database_settings(environ: Mapping[str, str], base_dir: Path) -> dict[str, Any]:
    """``DATABASES["default"]``: from ``DATABASE_URL``, else SQLite at base_dir/db.sqlite3."""
    url = environ.get("DATABASE_URL", "").strip()
    if not url:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": base_dir / "db.sqlite3",
            "OPTIONS": dict(SQLITE_OPTIONS),
        }
    config: dict[str, Any] = dict(
        dj_database_url.parse(
            url,
            conn_max_age=env_int(environ, "CONN_MAX_AGE", 60),
            conn_health_checks=True,
        )
    )
    if config["ENGINE"] == "django.db.backends.sqlite3":
        config["CONN_MAX_AGE"] = 0
        config["OPTIONS"] = {**SQLITE_OPTIONS, **config.get("OPTIONS", {})}
    return config


def celery_settings(environ: Mapping[str, str]) -> dict[str, Any]:
    """The ``CELERY_*`` settings: eager in-process without a broker, a real broker with one."""
    broker = environ.get("CELERY_BROKER_URL", "").strip()
    common: dict[str, Any] = {
        # A task is acknowledged once it has run, so a worker killed mid-task leaves it
        # to be run again; tasks are written to be safe to run twice.
        "CELERY_TASK_ACKS_LATE": True,
        "CELERY_TASK_REJECT_ON_WORKER_LOST": True,
        "CELERY_WORKER_PREFETCH_MULTIPLIER": 1,
        "CELERY_TASK_SERIALIZER": "json",
        "CELERY_RESULT_SERIALIZER": "json",
        "CELERY_ACCEPT_CONTENT": ["json"],
        "CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP": True,
        # A task gets a SoftTimeLimitExceeded at the soft limit (to record its failure) and
        # is killed at the hard one. Redis hands an unacknowledged task to another worker
        # after the visibility timeout: it must be longer than any task may run.
        "CELERY_TASK_SOFT_TIME_LIMIT": 300,
        "CELERY_TASK_TIME_LIMIT": 360,
        "CELERY_BROKER_TRANSPORT_OPTIONS": {"visibility_timeout": 3600},
    }
    if not broker:
        return {
            **common,
            "CELERY_BROKER_URL": "memory://",
            "CELERY_RESULT_BACKEND": None,
            "CELERY_TASK_ALWAYS_EAGER": True,
            "CELERY_TASK_EAGER_PROPAGATES": True,
        }
    return {
        **common,
        "CELERY_BROKER_URL": broker,
        "CELERY_RESULT_BACKEND": environ.get("CELERY_RESULT_BACKEND", "").strip() or broker,
        "CELERY_TASK_ALWAYS_EAGER": False,
        "CELERY_TASK_EAGER_PROPAGATES": False,
    }
