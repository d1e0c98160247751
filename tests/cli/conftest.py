"""Fixtures of the command-line tests: files in the test's folder, drives made through
``drive create``."""

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli.helpers import couples_csv, run


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, str | bytes], str]:
    """Write a file in the test's folder and return its path."""

    def _write(name: str, content: str | bytes) -> str:
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return str(path)

    return _write


@pytest.fixture
def new_drive(write: Callable[[str, str | bytes], str]) -> Callable[..., str]:
    """Create a drive of ``n`` couples through ``drive create``; returns its slug."""

    def _new(n: int, *extra: str, name: str = "Friday 45s") -> str:
        path = write(f"couples-{n}-{name}.csv", couples_csv(n))
        out = run(
            "drive",
            "create",
            "--club",
            "St. Joseph's Parish",
            "--name",
            name,
            "--date",
            "2026-11-20",
            "--couples",
            path,
            *extra,
        )
        return out.strip()

    return _new
