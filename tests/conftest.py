"""Shared test helpers.

Tests that need a real service carry a marker (``postgres``, ``redis``). Without the service
they skip with the reason how to provide it; with ``CI=true`` they fail instead, so that CI
can never go green by skipping what it was meant to check.
"""

import importlib.util
import os
import sys
from pathlib import Path

import pytest
from django.core.cache import cache

SERVICE_MARKERS = {
    "postgres": (
        lambda: os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")),
        "set DATABASE_URL=postgres://… to run",
    ),
    "redis": (
        lambda: os.environ.get("CELERY_BROKER_URL", "").startswith(("redis://", "rediss://")),
        "set CELERY_BROKER_URL=redis://… to run",
    ),
}


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def require_service(name: str, reason: str) -> None:
    """Give up on this test because ``name`` is not available: skip, or fail under CI."""
    message = f"{name} not available: {reason}"
    if in_ci():
        pytest.fail(f"{message} (CI=true, so this is a failure, not a skip)", pytrace=False)
    pytest.skip(message)


ROOT = Path(__file__).resolve().parent.parent


def load_messages_script():
    """scripts/messages.py (the catalogs' compiler and checker) as a module."""
    if "messages_script" in sys.modules:
        return sys.modules["messages_script"]
    spec = importlib.util.spec_from_file_location("messages_script", ROOT / "scripts/messages.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["messages_script"] = module  # loaded once for the whole run
    spec.loader.exec_module(module)
    return module


def pytest_sessionstart(session: pytest.Session) -> None:
    """The compiled catalogs (.mo, never committed) made from the .po files when missing or
    older, as ``make install`` makes them: a bare pytest run reads the same French."""
    stale = [
        po
        for po in sorted(ROOT.glob("locale/*/LC_MESSAGES/*.po"))
        if not po.with_suffix(".mo").exists()
        or po.with_suffix(".mo").stat().st_mtime < po.stat().st_mtime
    ]
    if stale:
        load_messages_script().compile_([str(po) for po in stale])


SERIAL_FOLDERS = ("browser", "integration")


def on_postgres() -> bool:
    return SERVICE_MARKERS["postgres"][0]()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark ``serial`` the tests that do not share the machine well: the browser tests
    (Chromium against a live server, timed waits) and the integration tests (stacks, workers
    and Redis servers started as processes, crashes and load timed). ``make pytest`` runs the
    others spread over the cores (pytest-xdist), then these one at a time.

    The ``any_database`` tests (a page's look: sizes, contrast, axe, screenshots, the practice
    table) check nothing a database changes: on PostgreSQL they are deselected, so that CI's
    second pass does not run them again (its SQLite pass does)."""
    deselected = []
    for item in items:
        folder = item.path.parent.name if item.path.parent.parent.name == "tests" else ""
        if folder in SERIAL_FOLDERS or item.get_closest_marker("integration") is not None:
            item.add_marker(pytest.mark.serial)
        if on_postgres() and item.get_closest_marker("any_database") is not None:
            deselected.append(item)
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = [item for item in items if item not in deselected]


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker, (available, reason) in SERVICE_MARKERS.items():
        if item.get_closest_marker(marker) is not None and not available():
            require_service(marker, reason)


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Each test starts with an empty cache: no test is held back by the failed logins or
    unknown tokens of another (drives/ratelimit.py counts them there)."""
    cache.clear()
