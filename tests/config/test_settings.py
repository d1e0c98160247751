"""Settings read from the environment: the SQLite default, Celery, the prod safety checks."""

import os
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db.utils import ConnectionHandler
from pytest_django import DjangoDbBlocker

from config import celery_app
from config.celery import ping
from config.settings.env import (
    celery_settings,
    database_settings,
    env_bool,
    env_int,
    env_list,
)

BASE_DIR = Path(settings.BASE_DIR)


def test_sqlite_is_the_default_database() -> None:
    config = database_settings({}, BASE_DIR)
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == BASE_DIR / "db.sqlite3"
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert config["OPTIONS"]["timeout"] == 20


def test_sqlite_default_runs_in_wal_mode_with_a_busy_timeout(
    tmp_path: Path, django_db_blocker: DjangoDbBlocker
) -> None:
    """Open a real file-backed connection with the default options and ask SQLite.

    A connection of its own, to a file of its own: the suite's database may be in memory
    (where WAL does not apply) or PostgreSQL.
    """
    config = {**database_settings({}, BASE_DIR), "NAME": str(tmp_path / "night.sqlite3")}
    handler = ConnectionHandler({"default": config})
    connection = handler["default"]
    with django_db_blocker.unblock():
        try:
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA journal_mode")
                assert cursor.fetchone()[0] == "wal"
                cursor.execute("PRAGMA busy_timeout")
                assert cursor.fetchone()[0] == 20000
                cursor.execute("PRAGMA synchronous")
                assert cursor.fetchone()[0] == 1  # NORMAL
            assert connection.transaction_mode == "IMMEDIATE"
        finally:
            handler.close_all()
    # WAL is a property of the file: a plain connection sees it too.
    with closing(sqlite3.connect(tmp_path / "night.sqlite3")) as plain:
        assert plain.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_database_url_is_parsed() -> None:
    config = database_settings(
        {"DATABASE_URL": "postgres://drive:secret@db.example.org:5433/nights"}, BASE_DIR
    )
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["NAME"], config["USER"], config["PASSWORD"]) == ("nights", "drive", "secret")
    assert (config["HOST"], config["PORT"]) == ("db.example.org", 5433)
    assert config["CONN_MAX_AGE"] == 60
    assert config["CONN_HEALTH_CHECKS"] is True


def test_a_sqlite_database_url_keeps_the_sqlite_options(tmp_path: Path) -> None:
    config = database_settings({"DATABASE_URL": f"sqlite:///{tmp_path}/x.db"}, BASE_DIR)
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in config["OPTIONS"]["init_command"]
    assert config["CONN_MAX_AGE"] == 60


def test_sqlite_connections_are_kept_between_requests_unless_told_otherwise() -> None:
    assert database_settings({}, BASE_DIR)["CONN_MAX_AGE"] == 60
    assert database_settings({"CONN_MAX_AGE": "0"}, BASE_DIR)["CONN_MAX_AGE"] == 0


def test_celery_is_eager_without_a_broker() -> None:
    config = celery_settings({})
    assert config["CELERY_TASK_ALWAYS_EAGER"] is True
    assert config["CELERY_TASK_EAGER_PROPAGATES"] is True
    assert config["CELERY_BROKER_URL"] == "memory://"


def test_celery_uses_the_broker_when_one_is_set() -> None:
    config = celery_settings({"CELERY_BROKER_URL": "redis://cache:6379/0"})
    assert config["CELERY_TASK_ALWAYS_EAGER"] is False
    assert config["CELERY_BROKER_URL"] == "redis://cache:6379/0"
    assert config["CELERY_RESULT_BACKEND"] == "redis://cache:6379/0"
    assert config["CELERY_TASK_ACKS_LATE"] is True
    assert config["CELERY_WORKER_PREFETCH_MULTIPLIER"] == 1


def test_celery_result_backend_can_differ_from_the_broker() -> None:
    config = celery_settings(
        {"CELERY_BROKER_URL": "redis://cache/0", "CELERY_RESULT_BACKEND": "redis://cache/1"}
    )
    assert config["CELERY_RESULT_BACKEND"] == "redis://cache/1"


def test_the_celery_app_follows_the_environment() -> None:
    broker = os.environ.get("CELERY_BROKER_URL")
    if broker:
        assert celery_app.conf.task_always_eager is False
        assert celery_app.conf.broker_url == broker
    else:
        assert celery_app.conf.task_always_eager is True
        assert ping.delay().get(timeout=5) == "pong"
    assert celery_app.conf.task_acks_late is True
    assert celery_app.conf.worker_prefetch_multiplier == 1


@pytest.mark.parametrize(
    ("raw", "expected"), [("true", True), ("1", True), ("Yes", True), ("false", False), ("", False)]
)
def test_env_bool(raw: str, expected: bool) -> None:
    assert env_bool({"X": raw}, "X", not expected) is expected


def test_env_bool_rejects_nonsense() -> None:
    with pytest.raises(ImproperlyConfigured, match="X='maybe'"):
        env_bool({"X": "maybe"}, "X", False)


def test_env_int_and_list() -> None:
    assert env_int({}, "N", 7) == 7
    assert env_int({"N": "42"}, "N", 7) == 42
    assert env_list({"H": "a.org, b.org,,"}, "H") == ["a.org", "b.org"]
    assert env_list({}, "H", "localhost") == ["localhost"]


def test_project_wide_settings() -> None:
    assert settings.TIME_ZONE == "America/Halifax"
    assert settings.USE_TZ is True
    assert [code for code, _name in settings.LANGUAGES] == ["en", "fr"]
    assert {"django_tables2", "drives", "scoring"} <= set(settings.INSTALLED_APPS)
    assert settings.PASSWORD_HASHERS == ["django.contrib.auth.hashers.MD5PasswordHasher"]
