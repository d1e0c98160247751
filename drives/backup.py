"""The hall server's backups: a copy of the SQLite database after every advance, the last few
kept (``HALL_BACKUPS``, in ``HALL_BACKUP_DIR``; config/settings/hall.py).

The copy is SQLite's own online backup (``sqlite3.Connection.backup``) from the connection
that has just committed: consistent, taken while the phones go on reading (WAL), and written
under a temporary name first, so a backup on disk is always whole. The folder and the copies
are readable by their owner only, like the database itself. Nothing happens on other
databases (PostgreSQL has its own backups: docs/deploy.md) or when the settings name no
folder. A backup that fails is logged and never fails the advance.
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
from pathlib import Path

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

logger = logging.getLogger(__name__)

SUFFIX = ".sqlite3"


def backups_wanted() -> bool:
    return (
        connection.vendor == "sqlite"
        and getattr(settings, "HALL_BACKUP_DIR", None) is not None
        and getattr(settings, "HALL_BACKUPS", 0) > 0
    )


def backup_after_commit(label: str) -> None:
    """Back the database up once the current transaction commits (nothing if rolled back)."""
    if backups_wanted():
        transaction.on_commit(lambda: database_backup(label))


def database_backup(label: str) -> Path | None:
    """Copy the database to ``HALL_BACKUP_DIR/<time>-<label>.sqlite3``, keep the newest
    ``HALL_BACKUPS`` copies, and return the path (None if backups are off or it failed)."""
    if not backups_wanted():
        return None
    if connection.in_atomic_block:
        # SQLite's backup cannot read through a connection in the middle of writing (it would
        # wait for ever); on_commit callbacks run after the commit, so this is a caller's error.
        logger.error("backup of the database skipped: called inside a transaction")
        return None
    # Only the hall's settings name them (backups_wanted has checked): read as it reads them.
    folder = Path(getattr(settings, "HALL_BACKUP_DIR", ""))
    keep: int = getattr(settings, "HALL_BACKUPS", 0)
    name = f"{timezone.now():%Y%m%d-%H%M%S-%f}-{re.sub(r'[^a-z0-9-]+', '-', label.lower())}"
    target = folder / f"{name}{SUFFIX}"
    partial = folder / f"{name}.partial"
    try:
        # The club's whole night, for the laptop's owner only: the folder 0700, the copy 0600
        # (made so before SQLite opens it, whatever the process's umask).
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if os.name == "posix":
            folder.chmod(0o700)
        os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
        connection.ensure_connection()
        copy = sqlite3.connect(partial)
        try:
            connection.connection.backup(copy)
        finally:
            copy.close()
        partial.replace(target)
    except (OSError, sqlite3.Error):
        logger.exception("backup of the database to %s failed", target)
        partial.unlink(missing_ok=True)
        return None
    # Its own copies only (named from the time): those ``fortyfives restore`` and an upgrade
    # keep ("before-restore-…", "before-upgrade-…", fortyfives/backups.py) stay.
    for old in sorted(folder.glob(f"[0-9]*{SUFFIX}"))[:-keep]:
        old.unlink(missing_ok=True)
    logger.info("database backed up to %s", target)
    return target
