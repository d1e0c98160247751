"""Fixtures of the fuzz tests: the seeded world (tests/fuzz/helpers.py), built once per test
module inside a transaction that is rolled back at the end of the module (each test runs in
its own savepoint within it, as usual), the API client, and rendered documents kept in a
folder of the module's own."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.test import override_settings

from scoring.printing import services as print_services
from tests.api.conftest import api  # noqa: F401
from tests.fuzz.helpers import World, seed_world


@pytest.fixture(scope="module", autouse=True)
def media(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    folder = tmp_path_factory.mktemp("media")
    with override_settings(MEDIA_ROOT=str(folder)):
        yield folder


@pytest.fixture(scope="module")
def seeded(django_db_setup: None, django_db_blocker: Any, media: Any) -> Iterator[World]:
    with django_db_blocker.unblock(), transaction.atomic():
        yield seed_world()
        transaction.set_rollback(True)


@pytest.fixture
def world(seeded: World, db: None, monkeypatch: pytest.MonkeyPatch) -> World:
    # The world's queued document has no worker: past the print queue's timeout (2 minutes
    # after the module seeded it, which a loaded machine reaches) the next page showing it
    # would mark it failed, a change no request of the test made.
    monkeypatch.setattr(print_services, "QUEUED_TIMEOUT", timedelta(days=1))
    return seeded
