"""Fixtures of the security tests: ``world`` (tests/security/world.py) is built once per
module inside a transaction that is rolled back at the module's end. The tests that use it
are marked ``django_db``: each runs in a savepoint of that transaction, rolled back after it,
so a test may change anything (close the drive, log out) without the next one noticing.
(The mark also makes pytest-django create the test database before the module's fixture.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import transaction
from django.test import override_settings
from pytest_django import DjangoDbBlocker

from tests.security.world import World, build_world


@pytest.fixture(scope="module")
def media_root(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("media")
    with override_settings(MEDIA_ROOT=str(root)):
        yield root


@pytest.fixture(scope="module")
def world(
    django_db_setup: None, django_db_blocker: DjangoDbBlocker, media_root: Path
) -> Iterator[World]:
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)
