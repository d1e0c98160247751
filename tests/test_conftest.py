"""The rule for missing services: skip on a developer's machine, fail under CI=true."""

import pytest

from tests.conftest import require_service


def test_require_service_skips_outside_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="set DATABASE_URL"):
        require_service("postgres", "set DATABASE_URL=postgres://… to run")


def test_require_service_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true"):
        require_service("postgres", "set DATABASE_URL=postgres://… to run")
