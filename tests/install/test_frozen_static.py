"""The single-file bundle unpacks its static files anew at every start (new times): the hall's
start collects them again only when the bundle itself was replaced, not at every start
(fortyfives/hall.py, collect_static)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from fortyfives import hall


@pytest.fixture
def sources(tmp_path: Path, settings) -> Path:
    source = tmp_path / "source"
    (source / "css").mkdir(parents=True)
    (source / "css" / "site.css").write_text("body { color: black }")
    settings.STATICFILES_DIRS = [source]
    settings.STATICFILES_FINDERS = ["django.contrib.staticfiles.finders.FileSystemFinder"]
    settings.STATIC_ROOT = tmp_path / "collected"
    settings.STORAGES = settings.STORAGES | {
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"}
    }
    return source


def touch(path: Path, seconds: int) -> None:
    info = path.stat()
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + seconds * 1_000_000_000))


def test_a_bundle_started_again_does_not_collect_its_static_files_again(
    sources: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bundle = tmp_path / "fortyfives-bundle"
    bundle.write_bytes(b"the program")
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(bundle))

    assert hall.collect_static() is True
    touch(sources / "css" / "site.css", 60)  # unpacked again at the next start
    assert hall.collect_static() is False
    touch(bundle, 60)  # a new version of the program put in its place
    assert hall.collect_static() is True


def test_outside_a_bundle_a_changed_file_is_collected_again(
    sources: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delattr(sys, "frozen", raising=False)
    assert hall.collect_static() is True
    touch(sources / "css" / "site.css", 60)
    assert hall.collect_static() is True
