"""The production stack's sizing (tools/stack.py): two gunicorn workers per core on
PostgreSQL, one per core on SQLite, whose writers share one file; threaded workers that keep
a phone's connection open between its polls (config/gunicorn.py)."""

from pathlib import Path
from typing import Any

import pytest

from scoring.pages.phone import COUPLE_POLL_SECONDS, TABLE_POLL_SECONDS
from tools.stack import Stack, StackConfig, default_web_workers


def test_gunicorn_workers_follow_the_database(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tools.stack.os.cpu_count", lambda: 4)
    assert default_web_workers("postgres://postgres@127.0.0.1:5432/nights") == 8
    assert default_web_workers("sqlite:////tmp/hall.sqlite3") == 4
    assert default_web_workers("SQLite:///hall.sqlite3") == 4
    monkeypatch.setattr("tools.stack.os.cpu_count", lambda: None)
    assert default_web_workers("postgres://db/nights") == 2


def test_a_stack_sizes_its_web_server_unless_told(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr("tools.stack.os.cpu_count", lambda: 3)
    sqlite = Stack(StackConfig(database_url="sqlite:////tmp/x.sqlite3", state_dir=tmp_path))
    assert sqlite.config.web_workers == 3
    postgres = Stack(StackConfig(database_url="postgres://db/nights", state_dir=tmp_path))
    assert postgres.config.web_workers == 6
    told = Stack(StackConfig(web_workers=3, state_dir=tmp_path))
    assert told.config.web_workers == 3


def gunicorn_settings(monkeypatch: pytest.MonkeyPatch, stack: Stack) -> Any:
    """What gunicorn makes of the stack's command line (config/gunicorn.py included)."""
    from gunicorn.app.wsgiapp import WSGIApplication

    monkeypatch.delenv("GUNICORN_CMD_ARGS", raising=False)
    argv = stack.web_argv()
    monkeypatch.setattr("sys.argv", ["gunicorn", *argv[argv.index("config.wsgi") :]])
    return WSGIApplication("%(prog)s [OPTIONS] [APP_MODULE]").cfg


def test_web_workers_are_threaded_and_keep_a_phone_connected_between_polls(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    settings = gunicorn_settings(monkeypatch, Stack(StackConfig(state_dir=tmp_path)))
    assert settings.worker_class_str == "gthread"
    assert settings.threads == 4
    assert settings.keepalive > max(TABLE_POLL_SECONDS, COUPLE_POLL_SECONDS)
    assert settings.logger_class.__name__ == "TokenMaskingLogger"


def test_a_stack_can_be_told_its_worker_class_and_threads(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    sync = Stack(StackConfig(web_worker_class="sync", state_dir=tmp_path))
    settings = gunicorn_settings(monkeypatch, sync)
    assert (settings.worker_class_str, settings.threads) == ("sync", 1)
    threaded = Stack(StackConfig(web_threads=8, state_dir=tmp_path))
    settings = gunicorn_settings(monkeypatch, threaded)
    assert (settings.worker_class_str, settings.threads) == ("gthread", 8)
