"""``fortyfives backup`` and ``fortyfives restore``: the club in one file, and back from it.

``backup`` copies the data folder's database (``db.sqlite3``) through SQLite's own online
backup (``sqlite3.Connection.backup``): a consistent copy of the last commit, taken while the
hall's server goes on answering the phones (the database is in WAL mode, so neither waits for
the other). The copy is ONE file (its journal mode set back to DELETE: no ``-wal`` beside it),
for a USB stick, written under a temporary name and renamed, so that a half-written backup
never exists, and readable by its owner only.

The file is marked as this program's (fortyfives/database.py: SQLite's ``application_id``,
and the version in ``user_version``), as the server's own backups after each advance are.

``restore`` reads the file read-only and refuses, with nothing changed, what is not a
database, what is damaged or cut short (SQLite's ``integrity_check``), another program's
database, and a backup of a newer version (migrations this version does not know); it refuses
while a server holds the folder, and holds the folder's lock itself meanwhile, so that no
server starts half-way. Then it keeps the current database in ``backups/``
("before-restore-…"), puts the file's contents in its place (the backup API into a temporary
file, renamed; the old ``-wal`` and ``-shm`` removed first) and brings it up to date (an older
version's backup is migrated, as an upgrade: fortyfives/upgrade.py).
"""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock, Timeout

from fortyfives.database import (
    APPLICATION_ID,
    DATABASE,
    HEADER,
    SUFFIX,
    copy_into,
    full,
    has_our_tables,
    keep_copy,
    ours,
    read_only,
    reason_of,
    remove,
    stamp,
    version_name,
)
from fortyfives.datafolder import LOCK, Refusal, make_writable, not_while_serving
from fortyfives.words import _

# --- fortyfives backup ---------------------------------------------------------------------------


def target_of(to: Path | None, database: Path) -> Path:
    """Where ``--to`` says (a folder: the usual name in it), the current folder if not given."""
    name = f"fortyfives-backup-{stamp()}{SUFFIX}"
    chosen = (to.expanduser() if to is not None else Path.cwd()).resolve()
    target = chosen / name if chosen.is_dir() else chosen
    if not target.parent.is_dir():
        raise Refusal(
            _("The folder %(folder)s does not exist: give an existing folder with --to.")
            % {"folder": target.parent}
        )
    if target in (database, *(Path(f"{database}{end}") for end in ("-wal", "-shm"))):
        raise Refusal(
            _("A backup cannot be written over the club's own database: choose another place.")
        )
    if target.exists() and not ours(target):
        raise Refusal(
            _("%(file)s already exists and is not a fortyfives backup: choose another name.")
            % {"file": target}
        )
    return target


def backup(data_dir: Path, to: Path | None) -> Path:
    """Copy the club's database into one file (``to``: a folder or a file; the current folder
    if None) and return its path; a Refusal says why not, with nothing left half-written."""
    database = data_dir / DATABASE
    nothing = _("There is no club data to back up in %(folder)s yet: nothing to back up.")
    if not (database.is_file() and database.stat().st_size > 0):
        raise Refusal(nothing % {"folder": data_dir})
    try:
        with contextlib.closing(read_only(database, fixed=False)) as db:
            known = has_our_tables(db)
    except sqlite3.Error as error:
        raise Refusal(
            _("%(file)s cannot be read (%(reason)s).")
            % {"file": database, "reason": reason_of(error)}
        ) from error
    if not known:
        raise Refusal(nothing % {"folder": data_dir})
    target = target_of(to, database)
    wanted = sum(
        path.stat().st_size
        for path in (database, Path(f"{database}-wal"))
        if path.is_file()  # the copy is at most the database and its log
    )
    with contextlib.suppress(OSError):
        if shutil.disk_usage(target.parent).free < wanted:
            raise Refusal(no_room(target.parent, wanted))
    partial = target.with_name(f"{target.name}.partial")
    try:
        with contextlib.closing(read_only(database, fixed=False)) as source:
            copy_into(source, partial)
        partial.replace(target)
    except (OSError, sqlite3.Error) as error:
        remove(partial)
        if full(error):
            raise Refusal(no_room(target.parent, wanted)) from error
        raise Refusal(
            _(
                "The backup cannot be written to %(file)s (%(reason)s). Choose another "
                "place with --to."
            )
            % {"file": target, "reason": reason_of(error)}
        ) from error
    return target


def no_room(folder: Path, wanted: int) -> str:
    return _(
        "There is not enough room on the disk of %(folder)s for the backup (%(size)s MB). "
        "Free some room or choose another place with --to."
    ) % {"folder": folder, "size": max(1, round(wanted / 1_000_000))}


# --- fortyfives restore --------------------------------------------------------------------------


@dataclass(frozen=True)
class Found:
    """What a backup file holds: the version that made it (None: not recorded) and the
    migrations applied to it."""

    version: str | None
    applied: frozenset[tuple[str, str]]


def examine(file: Path) -> Found:
    """The backup ``file`` read (read-only), or a Refusal: not a database, damaged or cut
    short, another program's."""
    nothing = _("Nothing was changed.")
    try:
        with file.open("rb") as read:
            header = read.read(len(HEADER))
    except OSError as error:
        raise Refusal(
            _("%(file)s cannot be read (%(reason)s).") % {"file": file, "reason": reason_of(error)}
            + " "
            + nothing
        ) from error
    if header != HEADER:
        raise Refusal(
            _("%(file)s is not a fortyfives backup (it is not a database).") % {"file": file}
            + " "
            + nothing
        )
    try:
        with contextlib.closing(read_only(file, fixed=True)) as db:
            checked = db.execute("PRAGMA integrity_check").fetchall()
            if checked != [("ok",)]:
                raise sqlite3.DatabaseError(checked[0][0] if checked else "not checked")
            (mark,) = db.execute("PRAGMA application_id").fetchone()
            (number,) = db.execute("PRAGMA user_version").fetchone()
            if mark not in (0, APPLICATION_ID) or not has_our_tables(db):
                raise Refusal(
                    _("%(file)s is another program's database, not a fortyfives backup.")
                    % {"file": file}
                    + " "
                    + nothing
                )
            applied = frozenset(db.execute("SELECT app, name FROM django_migrations"))
    except sqlite3.Error as error:
        raise Refusal(
            _("%(file)s is damaged or incomplete (a copy cut short?) and cannot be restored.")
            % {"file": file}
            + " "
            + nothing
        ) from error
    return Found(version=version_name(int(number)), applied=applied)


@contextlib.contextmanager
def holding(data_dir: Path, doing: str) -> Iterator[None]:
    """The folder's lock held (no server starts meanwhile), or the Refusal of one that runs."""
    lock = FileLock(data_dir / LOCK, timeout=0)
    try:
        lock.acquire()
    except Timeout:
        not_while_serving(data_dir, doing)
        raise Refusal(
            _("A hall server runs on %(folder)s: stop it first.") % {"folder": data_dir}
        ) from None
    try:
        yield
    finally:
        lock.release()


def put_in_place(file: Path, database: Path) -> None:
    """``file``'s contents become the database: copied beside it, then renamed over it, with
    the old database's write-ahead log folded in and removed first (a stale ``-wal`` must never
    meet the new file)."""
    partial = database.with_name(f"{database.name}.restoring")
    try:
        with contextlib.closing(read_only(file, fixed=True)) as source:
            copy_into(source, partial)
        if database.is_file() and database.stat().st_size > 0:
            # (Kept already, whole or as it lay: a damaged one need not fold.)
            with (
                contextlib.suppress(sqlite3.Error),
                contextlib.closing(sqlite3.connect(database, timeout=30)) as old,
            ):
                old.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        for end in ("-wal", "-shm"):
            Path(f"{database}{end}").unlink(missing_ok=True)
        partial.replace(database)
    except (OSError, sqlite3.Error) as error:
        remove(partial)
        if full(error):
            raise Refusal(no_room(database.parent, file.stat().st_size)) from error
        raise Refusal(
            _("The backup could not be put in place in %(folder)s (%(reason)s).")
            % {"folder": database.parent, "reason": reason_of(error)}
        ) from error


def restore(data_dir: Path, file: Path) -> Path | None:
    """Put the club's data back from ``file`` and return where the data it replaced is kept
    (None: the folder had none). A Refusal, with nothing changed, for a file that is not a
    backup of this program (or of a newer version) and while a server runs on the folder."""
    file = file.expanduser().resolve()
    database = data_dir / DATABASE
    if not file.is_file():
        raise Refusal(_("There is no file %(file)s.") % {"file": file})
    if file == database:
        raise Refusal(
            _("%(file)s is the club's database itself: give a backup file.") % {"file": file}
        )
    if data_dir.exists():
        not_while_serving(data_dir, _("restore a backup"))
    found = examine(file)
    new_folder = not data_dir.exists()
    make_writable(data_dir)
    try:
        with holding(data_dir, _("restore a backup")):
            from fortyfives.datafolder import hall_environ

            hall_environ(data_dir)
            import django

            django.setup()
            from fortyfives.upgrade import bring_up_to_date, refuse_newer

            refuse_newer(found.applied, found.version, whose=file)
            kept = keep_copy(data_dir, f"before-restore-{stamp()}")
            put_in_place(file, database)
            bring_up_to_date(data_dir, print, holding=True)
    except Refusal:
        # Nothing half-made: a folder made for this restore (its empty database and key) goes.
        if new_folder:
            shutil.rmtree(data_dir, ignore_errors=True)
        raise
    return kept
