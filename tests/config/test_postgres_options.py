"""PostgreSQL's connection options from the environment (config/settings/env.py): psycopg's
server-side binding and automatic prepared statements by default (DATABASE_PREPARE_THRESHOLD
passed on), Django's client-side binding with DATABASE_SERVER_SIDE_BINDING=false."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.db.utils import ConnectionHandler

from config.settings.env import database_settings, read

BASE_DIR = Path(settings.BASE_DIR)
URL = "postgres://drive:secret@db.example.org:5432/nights"


def options(**environ: str) -> dict[str, Any]:
    config = database_settings(read({"DATABASE_URL": URL, **environ}), BASE_DIR)
    return dict(config["OPTIONS"])


def test_server_side_binding_and_prepared_statements_by_default() -> None:
    assert options() == {"server_side_binding": True, "prepare_threshold": 5}


def test_client_side_binding_when_asked() -> None:
    off = {"DATABASE_SERVER_SIDE_BINDING": "false"}
    assert options(**off) == {}
    assert options(**off, DATABASE_PREPARE_THRESHOLD="2") == {}  # nothing to prepare then


def test_server_side_binding_and_the_prepare_threshold_are_read() -> None:
    on = {"DATABASE_SERVER_SIDE_BINDING": "true"}
    assert options(**on) == {"server_side_binding": True, "prepare_threshold": 5}
    assert options(**on, DATABASE_PREPARE_THRESHOLD="2")["prepare_threshold"] == 2
    assert options(**on, DATABASE_PREPARE_THRESHOLD="none")["prepare_threshold"] is None


@pytest.mark.parametrize(
    "environ",
    [
        {"DATABASE_SERVER_SIDE_BINDING": "maybe"},
        {"DATABASE_SERVER_SIDE_BINDING": "on", "DATABASE_PREPARE_THRESHOLD": "often"},
    ],
)
def test_a_bad_value_is_refused_by_name(environ: dict[str, str]) -> None:
    with pytest.raises(ImproperlyConfigured, match=list(environ)[-1]):
        options(**environ)


def test_the_sqlite_options_are_left_alone() -> None:
    config = database_settings(read({"DATABASE_SERVER_SIDE_BINDING": "true"}), BASE_DIR)
    assert "server_side_binding" not in config["OPTIONS"]


def _prepared_after_repeats(extra: dict[str, Any]) -> int:
    """How many statements a connection with these options has prepared after running one
    look-up six times (the default threshold is 5)."""
    config = {
        **connection.settings_dict,
        "OPTIONS": extra,  # only the options measured (not this run's)
    }
    handler = ConnectionHandler({"default": config})
    other = handler["default"]
    try:
        with other.cursor() as cursor:
            for _ in range(6):
                cursor.execute("SELECT id FROM drives_club WHERE id = %s", [1])
            cursor.execute("SELECT count(*) FROM pg_prepared_statements")
            return int(cursor.fetchone()[0])
    finally:
        handler.close_all()


@pytest.mark.postgres
@pytest.mark.django_db
def test_psycopg_prepares_repeated_statements_only_with_server_side_binding() -> None:
    assert _prepared_after_repeats(options(DATABASE_SERVER_SIDE_BINDING="false")) == 0
    assert _prepared_after_repeats(options()) >= 1
    assert _prepared_after_repeats(options(DATABASE_PREPARE_THRESHOLD="none")) == 0
