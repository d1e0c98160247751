"""The data folder's SQLite database as a file: how this program's are known, and a copy of
one kept in the folder's ``backups/`` (before a restore or an upgrade replaces or migrates it).

Every database of this program carries SQLite's ``application_id`` (APPLICATION_ID, the header
field SQLite keeps for "which program's file is this") and, in ``user_version``, the version of
fortyfives that last brought it up to date (fortyfives/upgrade.py writes both into the live
database, so the server's own backups after each advance, drives/backup.py, carry them too). A
database made before these marks (``application_id`` 0) is known by its migrations table
naming this program's apps. Copies go through SQLite's online backup
(``sqlite3.Connection.backup``), under a temporary name renamed when whole, owner-only.

Why sqlite3 and not Django's ORM or MigrationRecorder here: the file looked at is not the
configured database but one a volunteer hands in (a USB stick's), opened read-only and judged
before anything trusts it or Django is set up on it; the ORM reads only the databases the
settings name.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import sqlite3
from datetime import datetime
from pathlib import Path

from fortyfives.datafolder import Refusal
from fortyfives.words import _

DATABASE = "db.sqlite3"
BACKUPS = "backups"
SUFFIX = ".sqlite3"
# SQLite's application_id of this program's databases: "45CD" (Forty-Fives Card Drives).
APPLICATION_ID = int.from_bytes(b"45CD", "big")
HEADER = b"SQLite format 3\x00"
# An app whose migrations only this program has: how a database made before the marks is known.
OUR_APP = "drives"


def version_number(version: str) -> int:
    """``"0.2.0"`` as ``user_version`` keeps it: 2000 (major, minor and patch, 3 digits each)."""
    from fortyfives.changes import version_key

    major, minor, patch = version_key(version)
    return major * 1_000_000 + minor * 1_000 + patch


def version_name(number: int) -> str | None:
    """``user_version`` read back as a version (None: not recorded)."""
    if number <= 0:
        return None
    return f"{number // 1_000_000}.{number // 1_000 % 1_000}.{number % 1_000}"


def stamp() -> str:
    return f"{datetime.now():%Y-%m-%d-%H%M}"


def unique(folder: Path, stem: str) -> Path:
    """``folder/stem.sqlite3``, or ``stem-2.sqlite3``… if a backup of that minute exists."""
    target, number = folder / f"{stem}{SUFFIX}", 1
    while target.exists():
        number += 1
        target = folder / f"{stem}-{number}{SUFFIX}"
    return target


def read_only(path: Path, *, fixed: bool) -> sqlite3.Connection:
    """A connection that writes nothing, not even a ``-wal`` or ``-shm`` beside ``path``
    (``fixed``: a file nobody else writes, as a backup on a USB stick: SQLite's ``immutable``)."""
    uri = f"{path.as_uri()}?mode=ro" + ("&immutable=1" if fixed else "")
    return sqlite3.connect(uri, uri=True, timeout=30)


def has_our_tables(db: sqlite3.Connection) -> bool:
    found = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'django_migrations'"
    ).fetchone()
    return bool(found) and bool(
        db.execute("SELECT 1 FROM django_migrations WHERE app = ?", (OUR_APP,)).fetchone()
    )


def copy_into(source: sqlite3.Connection, target: Path) -> None:
    """``source``'s last commit into ``target`` (made owner-only), through SQLite's backup,
    marked as this program's and left as one file (journal mode DELETE)."""
    os.close(os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
    if os.name == "posix":
        target.chmod(0o600)
    copy = sqlite3.connect(target)
    try:
        source.backup(copy)
        copy.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        copy.execute("PRAGMA journal_mode = DELETE")
        copy.commit()
    finally:
        copy.close()


def remove(partial: Path) -> None:
    """A copy that failed removed, with the journal SQLite may have left beside it."""
    for path in (partial, *(Path(f"{partial}{end}") for end in ("-journal", "-wal", "-shm"))):
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)


def full(error: BaseException) -> bool:
    return (isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT)) or (
        isinstance(error, sqlite3.Error) and "full" in str(error)
    )


def reason_of(error: BaseException) -> str:
    return (error.strerror if isinstance(error, OSError) else None) or str(error)


def ours(path: Path, *, fixed: bool = True) -> bool:
    """Whether ``path`` is a database of this program (``fixed``: one nobody writes now)."""
    try:
        with contextlib.closing(read_only(path, fixed=fixed)) as db:
            (mark,) = db.execute("PRAGMA application_id").fetchone()
            return bool(mark == APPLICATION_ID or (mark == 0 and has_our_tables(db)))
    except (OSError, sqlite3.Error):
        return False


def keep_copy(data_dir: Path, stem: str) -> Path | None:
    """The folder's database as it stands, copied into ``backups/`` (``stem`` names it) before
    it is replaced or migrated; None when there is none yet. A Refusal if it cannot be kept."""
    database = data_dir / DATABASE
    if not (database.is_file() and database.stat().st_size > 0):
        return None
    folder = data_dir / BACKUPS
    target = unique(folder, stem)
    partial = target.with_name(f"{target.name}.partial")
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if os.name == "posix":
            folder.chmod(0o700)
        with contextlib.closing(read_only(database, fixed=False)) as source:
            copy_into(source, partial)
        partial.replace(target)
    except sqlite3.Error:
        # A database SQLite cannot copy (damaged: the very reason to restore) is kept as it
        # lies on the disk, with its write-ahead log.
        remove(partial)
        try:
            shutil.copyfile(database, partial)
            if Path(f"{database}-wal").is_file():
                shutil.copyfile(f"{database}-wal", f"{target}-wal")
            partial.replace(target)
        except OSError as error:
            raise cannot_keep(folder, partial, error) from error
    except OSError as error:
        raise cannot_keep(folder, partial, error) from error
    return target


def cannot_keep(folder: Path, partial: Path, error: OSError) -> Refusal:
    remove(partial)
    return Refusal(
        _(
            "The club's current data could not be kept as a backup in %(folder)s "
            "(%(reason)s). Nothing was changed."
        )
        % {"folder": folder, "reason": reason_of(error)}
    )
