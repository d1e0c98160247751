"""The single-file bundle double-clicked: no arguments start the night and open the
organizer's page in the browser (fortyfives/cli.py); outside a bundle, no arguments show the
help, as any command does."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from fortyfives import cli, hall


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[hall.Options]:
    """The hall's starts, kept instead of serving; the data folder a temporary one."""
    monkeypatch.setenv("FORTYFIVES_DATA_DIR", str(tmp_path / "club"))
    seen: list[hall.Options] = []

    def run(options: hall.Options) -> int:
        seen.append(options)
        return 0

    monkeypatch.setattr(hall, "run", run)
    return seen


def test_the_bundle_with_no_arguments_starts_the_hall_and_opens_the_browser(
    started: list[hall.Options], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert cli.main([]) == 0
    (options,) = started
    assert options.browser and not options.prepare_only
    assert options.data_dir == (tmp_path / "club").resolve()
    assert options.port == hall.DEFAULT_PORT


def test_the_command_with_no_arguments_outside_a_bundle_shows_the_help(
    started: list[hall.Options], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delattr(sys, "frozen", raising=False)
    assert cli.main([]) == 0
    assert not started
    assert "fortyfives hall" in capsys.readouterr().out
