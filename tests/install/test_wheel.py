"""The wheel, as a hall installs it: built from this checkout, installed with pip into a fresh
virtual environment on Python 3.11, 3.12 and 3.13 (its dependencies from the package index),
and its ``fortyfives`` command run through the smoke test (tests/install/smoke.py). It holds
the pages' templates, the static files and the compiled catalogs (config/site/, config/paths.py).

A Python missing from the machine skips its case, or fails it under CI=true (tests/conftest.py):
CI must not go green without having installed on each. pip's own cache is shared by the three
installs (and kept between runs), so the dependencies are downloaded once.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import require_service
from tests.install.smoke import ROOT, smoke, version

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.any_database]

PYTHONS = ["3.11", "3.12", "3.13"]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from this checkout (pip's isolated build fetches hatchling)."""
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", str(ROOT), "-w", str(out)],
        check=True,
        timeout=600,
    )
    (built,) = out.glob("fortyfives-*.whl")
    assert built.name.startswith(f"fortyfives-{version()}-py3-none-any")
    return built


def python(minor: str) -> str | None:
    """An interpreter of that version: on the PATH, or pyenv's (where CI keeps them)."""
    candidates = [shutil.which(f"python{minor}")]
    candidates += sorted(
        glob.glob(os.path.expanduser(f"~/.pyenv/versions/{minor}.*/bin/python{minor}")),
        reverse=True,
    )
    for candidate in filter(None, candidates):
        done = subprocess.run(
            [candidate, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
            capture_output=True,
            text=True,
        )
        if done.returncode == 0 and done.stdout.strip() == minor:
            return candidate
    return None


def bin_of(venv: Path) -> Path:
    return venv / ("Scripts" if os.name == "nt" else "bin")


def tracked(folder: str) -> set[str]:
    """The checkout's files under ``folder`` that git keeps (what a clean clone holds)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--", folder],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {name for name in listed.split("\0") if name}


def test_the_wheel_holds_the_templates_static_files_and_compiled_catalogs(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    site = {f"config/site/{name}" for name in tracked("templates") | tracked("static")}
    assert site, "no templates or static files found in the checkout"
    assert not site - names, sorted(site - names)[:10]
    catalogs = {
        f"config/site/{po[: -len('.po')]}.mo" for po in tracked("locale") if po.endswith(".po")
    }
    assert catalogs, "no catalogs found in the checkout"
    assert not catalogs - names, sorted(catalogs - names)
    with zipfile.ZipFile(wheel) as archive:
        assert all(archive.getinfo(mo).file_size > 0 for mo in catalogs)
    # The packages' own files, not the checkout's tests or developer's scripts.
    assert "fortyfives/cli.py" in names and "config/settings/hall.py" in names
    assert not any(name.startswith(("tests/", "scripts/")) for name in names)


@pytest.mark.parametrize("minor", PYTHONS)
def test_the_wheel_installs_and_runs_a_night(minor: str, wheel: Path, tmp_path: Path) -> None:
    interpreter = python(minor)
    if interpreter is None:
        require_service(f"python{minor}", f"install Python {minor} (pyenv install {minor})")
        return
    venv = tmp_path / "venv"
    subprocess.run([interpreter, "-m", "venv", str(venv)], check=True, timeout=300)
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    subprocess.run(
        [str(bin_of(venv) / "python"), "-m", "pip", "install", "--quiet", str(wheel)],
        check=True,
        timeout=900,
        env=env | {"PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    )
    command = bin_of(venv) / "fortyfives"
    assert command.is_file()
    work = tmp_path / "hall"
    work.mkdir()
    smoke([str(command)], work)
