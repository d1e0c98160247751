"""``fortyfives backup`` and ``fortyfives restore`` (first cut: not yet written)."""

from __future__ import annotations

from pathlib import Path

from fortyfives.datafolder import Refusal


def backup(data_dir: Path, to: Path | None) -> Path:
    raise Refusal("not yet")


def restore(data_dir: Path, file: Path) -> Path:
    raise Refusal("not yet")
