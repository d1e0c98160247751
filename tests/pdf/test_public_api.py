"""The renderers draw through reportlab's public API only: no private module or name of it is
imported, no class of it is subclassed, and no underscored attribute (the canvas's ``_code``,
``_doc``) is touched. The QR codes come from segno, not from reportlab's barcode encoder."""

from __future__ import annotations

import ast
from pathlib import Path

import scoring.printing.pdf

SOURCES = sorted(Path(scoring.printing.pdf.__file__).parent.glob("*.py"))


def reportlab_names(tree: ast.Module) -> dict[str, str]:
    """The names bound by ``from reportlab… import …`` and ``import reportlab…``."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("reportlab"):
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("reportlab"):
                    names[alias.asname or alias.name.split(".")[0]] = alias.name
    return names


def test_the_renderers_use_only_reportlabs_public_api() -> None:
    assert SOURCES
    for source in SOURCES:
        tree = ast.parse(source.read_text(), str(source))
        imported = reportlab_names(tree)
        for full in imported.values():
            assert not any(part.startswith("_") for part in full.split(".")), (source, full)
            assert not full.startswith("reportlab.graphics.barcode"), (source, full)
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = {ast.unparse(base).split(".")[0] for base in node.bases}
                assert not bases & set(imported), (source.name, node.name, bases)
            if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
                if node.attr.endswith("__"):  # super().__init__ and the like
                    continue
                owner = ast.unparse(node.value)
                # the renderers' own state (self._forms) is theirs; nothing of reportlab's
                assert owner == "self", (
                    source.name,
                    node.lineno,
                    ast.unparse(node),
                )
