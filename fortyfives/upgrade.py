"""A data folder brought up to date by the version that starts on it.

(First cut: the database migrated. fortyfives/upgrade.py's whole story — the backup before
migrating, the refusal of a newer version's folder, what changed — comes with its tests.)
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path


def bring_up_to_date(data_dir: Path, say: Callable[[str], None]) -> None:
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
