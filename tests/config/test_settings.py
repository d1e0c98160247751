"""Settings read from the environment: every variable's reading (config/settings/env.py's
``Environment``), the SQLite default, Celery, the prod safety checks."""

import os
import re
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
from config.settings.env import Environment, celery_settings, database_settings, read

BASE_DIR = Path(settings.BASE_DIR)


def test_sqlite_is_the_default_database() -> None:
    config = database_settings(read({}), BASE_DIR)
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
    config = {**database_settings(read({}), BASE_DIR), "NAME": str(tmp_path / "night.sqlite3")}
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
        read({"DATABASE_URL": "postgres://drive:secret@db.example.org:5433/nights"}), BASE_DIR
    )
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["NAME"], config["USER"], config["PASSWORD"]) == ("nights", "drive", "secret")
    assert (config["HOST"], config["PORT"]) == ("db.example.org", 5433)
    assert config["CONN_MAX_AGE"] == 60
    assert config["CONN_HEALTH_CHECKS"] is True


def test_a_sqlite_database_url_keeps_the_sqlite_options(tmp_path: Path) -> None:
    config = database_settings(read({"DATABASE_URL": f"sqlite:///{tmp_path}/x.db"}), BASE_DIR)
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in config["OPTIONS"]["init_command"]
    assert config["CONN_MAX_AGE"] == 60


def test_sqlite_connections_are_kept_between_requests_unless_told_otherwise() -> None:
    assert database_settings(read({}), BASE_DIR)["CONN_MAX_AGE"] == 60
    assert database_settings(read({"CONN_MAX_AGE": "0"}), BASE_DIR)["CONN_MAX_AGE"] == 0


def test_celery_is_eager_without_a_broker() -> None:
    config = celery_settings(read({}))
    assert config["CELERY_TASK_ALWAYS_EAGER"] is True
    assert config["CELERY_TASK_EAGER_PROPAGATES"] is True
    assert config["CELERY_BROKER_URL"] == "memory://"


def test_celery_uses_the_broker_when_one_is_set() -> None:
    config = celery_settings(read({"CELERY_BROKER_URL": "redis://cache:6379/0"}))
    assert config["CELERY_TASK_ALWAYS_EAGER"] is False
    assert config["CELERY_BROKER_URL"] == "redis://cache:6379/0"
    assert config["CELERY_RESULT_BACKEND"] == "redis://cache:6379/0"
    assert config["CELERY_TASK_ACKS_LATE"] is True
    assert config["CELERY_WORKER_PREFETCH_MULTIPLIER"] == 1


def test_celery_result_backend_can_differ_from_the_broker() -> None:
    config = celery_settings(
        read({"CELERY_BROKER_URL": "redis://cache/0", "CELERY_RESULT_BACKEND": "redis://cache/1"})
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
    ("raw", "expected"),
    [
        *[("true", True), ("1", True), (" Yes ", True), ("on", True)],
        *[("false", False), ("0", False), ("no", False), ("OFF", False), ("", False), (" ", False)],
    ],
)
def test_a_boolean_variable(raw: str, expected: bool) -> None:
    """true/yes/on/1 or false/no/off/0, any case; an empty one is false (not its default)."""
    assert read({"DEBUG": raw}).DEBUG is expected
    assert read({"DATABASE_SERVER_SIDE_BINDING": raw}).DATABASE_SERVER_SIDE_BINDING is expected


@pytest.mark.parametrize(
    ("environ", "named"),
    [
        ({"DEBUG": "maybe"}, "DEBUG='maybe' is not a boolean"),
        ({"SECURE_COOKIES": "yes please"}, "SECURE_COOKIES='yes please' is not a boolean"),
        ({"CONN_MAX_AGE": "a minute"}, "CONN_MAX_AGE='a minute' is not an integer"),
        ({"CSV_MAX_BYTES": "1e6"}, "CSV_MAX_BYTES='1e6' is not an integer"),
        ({"PAGE_EVENTS": "kafka"}, "PAGE_EVENTS='kafka'"),
        ({"TRUSTED_PROXIES": "10.0.0.1, nginx"}, "TRUSTED_PROXIES='nginx' is not an IP address"),
    ],
)
def test_a_refused_variable_is_named_with_its_value(environ: dict[str, str], named: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=named):
        read(environ)


def test_every_refused_variable_is_named_at_once() -> None:
    with pytest.raises(ImproperlyConfigured) as refused:
        read({"DEBUG": "maybe", "HALL_BACKUPS": "five"})
    assert "DEBUG='maybe'" in str(refused.value) and "HALL_BACKUPS='five'" in str(refused.value)


def test_numbers_and_lists() -> None:
    """An unset or empty number is its default; a list is comma-separated, blanks dropped."""
    assert read({}).CONN_MAX_AGE == 60
    assert read({"CONN_MAX_AGE": ""}).CONN_MAX_AGE == 60
    assert read({"CONN_MAX_AGE": " 42 "}).CONN_MAX_AGE == 42
    hosts = read({"ALLOWED_HOSTS": "a.org, b.org,,", "CSRF_TRUSTED_ORIGINS": "https://a.org"})
    assert hosts.ALLOWED_HOSTS == ["a.org", "b.org"]
    assert hosts.CSRF_TRUSTED_ORIGINS == ["https://a.org"]
    # Unset is not empty: the settings module chooses the default of an unset one.
    assert read({}).ALLOWED_HOSTS is None and read({"ALLOWED_HOSTS": ""}).ALLOWED_HOSTS == []
    assert read({"TRUSTED_PROXIES": "10.0.0.0/24, 172.17.0.1"}).TRUSTED_PROXIES == [
        "10.0.0.0/24",
        "172.17.0.1",
    ]
    assert read({}).TRUSTED_PROXIES == ["127.0.0.1", "::1"]


def test_the_prepare_threshold_may_be_none() -> None:
    assert read({}).DATABASE_PREPARE_THRESHOLD == 5
    assert read({"DATABASE_PREPARE_THRESHOLD": "None"}).DATABASE_PREPARE_THRESHOLD is None
    assert read({"DATABASE_PREPARE_THRESHOLD": "12"}).DATABASE_PREPARE_THRESHOLD == 12


def test_the_process_environment_is_read_by_the_same_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``read()`` (pydantic-settings on os.environ) and ``read(mapping)`` agree; names are
    case-sensitive, and variables that are none of ours are ignored."""
    given = {"DEBUG": "yes", "ALLOWED_HOSTS": "a.org,b.org", "HALL_BACKUPS": "", "debug": "no"}
    for name in Environment.model_fields:
        monkeypatch.delenv(name, raising=False)
    for name, value in given.items():
        monkeypatch.setenv(name, value)
    assert read().model_dump() == read(given).model_dump()
    assert read().DEBUG is True and read().HALL_BACKUPS == 5
    # A given mapping is read alone: the process's DEBUG=yes is not in it.
    assert read({}).DEBUG is None


def test_every_variable_of_the_readme_is_declared() -> None:
    """README.md's table of variables and the declared ones are the same list (the settings
    module's own, DJANGO_SETTINGS_MODULE, and the hall's, set by fortyfives, apart)."""
    readme = (Path(settings.BASE_DIR) / "README.md").read_text(encoding="utf-8")
    table = readme.split("| Variable | Default | Meaning |", 1)[1].split("\n\n", 1)[0]
    # every upper-case name with an underscore (or DEBUG) a row names, in any of its columns
    documented = {
        name
        for row in table.splitlines()
        if row.startswith("| `")
        for name in re.findall(r"`([A-Z][A-Z0-9]*_[A-Z0-9_]+|DEBUG)`", row)
    }
    declared = set(Environment.model_fields)
    assert documented - declared == {"DJANGO_SETTINGS_MODULE"}
    hall = {"HALL_DATA_DIR", "HALL_URL", "HALL_HOSTNAME", "HALL_BACKUPS", "HALL_DISK_MIN_FREE_MB"}
    assert declared - documented == hall


def test_project_wide_settings() -> None:
    assert settings.TIME_ZONE == "America/Halifax"
    assert settings.USE_TZ is True
    assert [code for code, _name in settings.LANGUAGES] == ["en", "fr"]
    assert {"django_tables2", "drives", "scoring"} <= set(settings.INSTALLED_APPS)
    assert settings.PASSWORD_HASHERS == ["django.contrib.auth.hashers.MD5PasswordHasher"]
