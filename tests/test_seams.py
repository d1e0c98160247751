"""Public seams: no module of the project imports another module's underscore names.

ruff's import-private-name (PLC2701, pyproject) catches an import across packages (scoring
from drives); it lets one through within a package (scoring.prizes from scoring.services), so
this test reads every module's imports itself."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {
    "engine",
    "drives",
    "api",
    "scoring",
    "practice",
    "money",
    "seasons",
    "club",
    "config",
    "tools",
    "tests",
}


def private_imports(source: str) -> list[str]:
    """``module.name`` for each underscore name imported from a project module."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
            continue
        if node.module.split(".")[0] not in PACKAGES:
            continue
        for alias in node.names:
            if alias.name.startswith("_") and not alias.name.startswith("__"):
                found.append(f"{node.module}.{alias.name}")
    return found


def test_the_scan_sees_a_private_import() -> None:
    assert private_imports("from scoring.services import _key_seen, result_at\n") == [
        "scoring.services._key_seen"
    ]
    assert private_imports("from django.utils.translation import gettext as _\n") == []


def test_no_module_imports_another_modules_private_names() -> None:
    offenders = []
    for package in sorted(PACKAGES):
        for path in sorted((ROOT / package).rglob("*.py")):
            for name in private_imports(path.read_text(encoding="utf-8")):
                offenders.append(f"{path.relative_to(ROOT)}: {name}")
    assert offenders == []
