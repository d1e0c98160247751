"""The production stack's sizing (tools/stack.py): two gunicorn workers per core on
PostgreSQL, one per core on SQLite, whose writers share one file."""

from pathlib import Path

import pytest

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
