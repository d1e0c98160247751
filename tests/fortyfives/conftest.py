"""Fixtures of the ``fortyfives`` command's tests: the command run as a volunteer runs it (a
process of ``python -m fortyfives``), and a data folder holding a played night."""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
SLUG = "friday-45s-2026-11-20"


def command_environ(**more: str) -> dict[str, str]:
    """The environment a volunteer's shell gives the command: none of the checkout's settings,
    database or data folder variables; ``more`` added."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "CELERY_"))}
    for name in ("DJANGO_SETTINGS_MODULE", "HALL_DATA_DIR", "HALL_URL", "FORTYFIVES_DATA_DIR"):
        env.pop(name, None)
    return env | {"PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", "LANG": "C.UTF-8"} | more


def fortyfives(
    *args: str | Path, cwd: Path = ROOT, env: dict[str, str] | None = None, **extra: Any
) -> subprocess.CompletedProcess[str]:
    """``fortyfives ARGS`` from ``cwd`` (the checkout's code, wherever it is started), with
    ``env`` added to the volunteer's environment."""
    env = command_environ(**(env or {}))
    return subprocess.run(
        [sys.executable, "-m", "fortyfives", *map(str, args)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        **extra,
    )


def manage(data_dir: Path, *args: str | Path) -> str:
    done = fortyfives("manage", "--data-dir", data_dir, *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def refused(done: subprocess.CompletedProcess[str], *words: str) -> str:
    """The one line of a refusal (exit code 2, no traceback), which says ``words``."""
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("fortyfives: "), done.stderr
    for word in words:
        assert word in lines[0]
    return lines[0]


def results_in(database: Path) -> list[tuple[Any, ...]]:
    """Every result of the night, as stored (who won each table of each game, the points)."""
    with contextlib.closing(sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True)) as db:
        return db.execute("SELECT * FROM scoring_result ORDER BY id").fetchall()


def state_of(data_dir: Path) -> dict[str, str]:
    """What the folder holds: a digest of each file, and of the database's contents (its
    rows, schema and marks, whichever of the database and its log holds them)."""
    found = {
        str(path.relative_to(data_dir)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(data_dir.rglob("*"))
        if path.is_file()
        and not path.name.startswith(("db.sqlite3", "server."))
        and "static" not in path.parts
    }
    database = data_dir / "db.sqlite3"
    if database.is_file():
        with contextlib.closing(sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True)) as db:
            dump = "\n".join(db.iterdump())
            marks = [db.execute(f"PRAGMA {name}").fetchone()[0] for name in MARKS]
        found["db.sqlite3"] = hashlib.sha256(f"{dump}{marks}".encode()).hexdigest()
    return found


MARKS = ("application_id", "user_version")


def mark(database: Path, **pragmas: int) -> None:
    """Set SQLite header fields (``user_version=3000``) as another version would have."""
    with contextlib.closing(sqlite3.connect(database)) as db:
        for name, value in pragmas.items():
            db.execute(f"PRAGMA {name} = {int(value)}")
        db.commit()


def add_migration(database: Path, app: str, name: str) -> None:
    """A migration recorded as applied that this version does not have (a newer one's)."""
    with contextlib.closing(sqlite3.connect(database)) as db:
        db.execute(
            "INSERT INTO django_migrations (app, name, applied) VALUES (?, ?, ?)",
            (app, name, "2027-03-01 20:00:00"),
        )
        db.commit()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder whose drive (12 couples) has played its 3 games, made by the commands."""
    data_dir = tmp_path_factory.mktemp("played") / "hall"
    couples = data_dir.parent / "couples.csv"
    couples.write_text(
        "player1,player2\n" + "".join(f"Anne {i},Joe {i}\n" for i in range(1, 13)),
        encoding="utf-8",
    )
    made = manage(
        data_dir,
        *("drive", "create", "--club", "St. Joseph's Parish", "--name", "Friday 45s"),
        *("--date", "2026-11-20", "--games", "3", "--couples", couples),
    )
    assert made.strip() == SLUG
    manage(data_dir, "drive", "simulate", SLUG, "--seed", "7")
    return data_dir


@pytest.fixture
def copy_of(tmp_path: Path) -> Callable[[Path], Path]:
    """A copy of a data folder, for a test that changes it."""

    def _copy(data_dir: Path) -> Path:
        target = tmp_path / f"copy-{data_dir.name}"
        shutil.copytree(data_dir, target, ignore=shutil.ignore_patterns("server.*"))
        return target

    return _copy
