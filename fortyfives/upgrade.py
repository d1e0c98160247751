"""A data folder brought up to date by the version that starts on it (``fortyfives hall``,
``fortyfives manage`` and ``fortyfives restore`` call ``bring_up_to_date`` once Django is set
up on the folder).

- A new folder (no tables yet): migrated, nothing said.
- A folder of this version: nothing done (the common case: every start, every command).
- An older version's folder (migrations to apply, or an older version recorded, or none
  recorded: made before the record): the database copied first into ``backups/``
  ("before-upgrade-from-0.1.0-…"), then migrated, the version recorded, and what changed
  between the two versions said in the hall's words (fortyfives/changes.py).
- A newer version's folder (migrations applied that this version does not know): refused,
  naming the version it needs, with nothing changed. Never migrated backwards. A newer
  version recorded with no migration unknown (a patch release) is served as it is, and its
  record kept: what it holds this version reads whole.

The version is recorded in the database itself (SQLite's ``user_version``, beside the
``application_id`` that says the file is this program's: fortyfives/database.py), so that it
travels with every backup, and in ``hall.json`` (``config.paths.hall_choose``) for the
volunteer's eyes.

While another process serves the folder (``fortyfives manage`` run during the night), the
folder is used as it stands when nothing has to change; a migration is refused then, since the
running server's code would go on with tables it does not know (and SQLite's schema changes
would wait on its writes): stop the server, and its next start (the newer version) migrates.
Recording the version alone, or the copy before it, changes nothing the server reads.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection
from pathlib import Path

from config.paths import hall_choices, hall_choose
from fortyfives import __version__
from fortyfives.changes import changes_between, version_key
from fortyfives.database import (
    APPLICATION_ID,
    DATABASE,
    keep_copy,
    stamp,
    version_name,
    version_number,
)
from fortyfives.datafolder import Refusal, not_while_serving, running
from fortyfives.words import _


def known_migrations() -> set[tuple[str, str]]:
    """Every migration this version has (those a squashed one replaces too)."""
    from django.db.migrations.loader import MigrationLoader

    loader = MigrationLoader(None, ignore_no_migrations=True)
    known = set(loader.disk_migrations)
    for migration in loader.disk_migrations.values():
        known |= {(app, name) for app, name in migration.replaces}
    return known


def refuse_newer(
    applied: Collection[tuple[str, str]], version: str | None, whose: Path | None = None
) -> None:
    """A Refusal if ``applied`` holds migrations this version does not know (a newer
    version's database: ``version`` names it when recorded; ``whose``: a backup file's)."""
    unknown = set(applied) - known_migrations()
    if not unknown:
        return
    words = {"version": version, "ours": __version__, "file": whose}
    if whose is not None and version and version_key(version) > version_key(__version__):
        said = _(
            "%(file)s was made by fortyfives %(version)s, newer than this one (%(ours)s): "
            "install %(version)s or newer to restore it. Nothing was changed."
        )
    elif whose is not None:
        said = _(
            "%(file)s was made by a newer version of fortyfives than this one (%(ours)s): "
            "install the newest version to restore it. Nothing was changed."
        )
    elif version and version_key(version) > version_key(__version__):
        said = _(
            "This data folder was used by fortyfives %(version)s, newer than this one "
            "(%(ours)s): install %(version)s or newer. Nothing was changed."
        )
    else:
        said = _(
            "This data folder was used by a newer version of fortyfives than this one "
            "(%(ours)s): install the newest version. Nothing was changed."
        )
    raise Refusal(said % words)


def bring_up_to_date(data_dir: Path, say: Callable[[str], None], *, holding: bool = False) -> None:
    """Migrate the folder's database as the module says (``holding``: the caller holds the
    folder's lock, as ``fortyfives restore`` does)."""
    from django.core.management import call_command
    from django.db import DatabaseError, connection
    from django.db.migrations.executor import MigrationExecutor

    database = data_dir / DATABASE
    try:
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA application_id")
            (mark,) = cursor.fetchone()
            cursor.execute("PRAGMA user_version")
            (number,) = cursor.fetchone()
        tables = set(connection.introspection.table_names())
        executor = MigrationExecutor(connection)
        applied = set(executor.recorder.applied_migrations())
    except DatabaseError as error:
        raise Refusal(
            _(
                "The club's database %(file)s cannot be read (%(reason)s): put a backup "
                "back with fortyfives restore FILE."
            )
            % {"file": database, "reason": error}
        ) from error
    if mark not in (0, APPLICATION_ID):
        raise Refusal(
            _(
                "%(file)s is another program's database: move it away, or choose another "
                "data folder with --data-dir. Nothing was changed."
            )
            % {"file": database}
        )
    recorded = version_name(int(number)) or hall_choices(data_dir).get("version")
    refuse_newer(applied, recorded)
    new = "django_migrations" not in tables or not applied
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    older = not new and (recorded is None or version_key(recorded) < version_key(__version__))
    if plan and not new and not holding:
        other = running(data_dir)
        if other is not None and other.get("pid") != os.getpid():
            not_while_serving(data_dir, _("bring its data up to date for this version"))
    kept = None
    if older or (plan and not new):
        was = recorded or "earlier"
        kept = keep_copy(data_dir, f"before-upgrade-from-{was}-{stamp()}")
    if plan or new:
        call_command("migrate", interactive=False, verbosity=0)
    newest = __version__ if recorded is None else max(recorded, __version__, key=version_key)
    if (mark, int(number)) != (APPLICATION_ID, version_number(newest)):
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            cursor.execute(f"PRAGMA user_version = {version_number(newest)}")
    if hall_choices(data_dir).get("version") != newest:
        hall_choose(data_dir, version=newest)
    if kept is not None:
        tell(say, recorded, kept)


def tell(say: Callable[[str], None], old: str | None, kept: Path) -> None:
    """What changed since ``old`` (None: an earlier version, not recorded), for the volunteer."""
    if old is not None and version_key(old) >= version_key(__version__):
        # The same version with migrations to apply: a checkout between two releases.
        say(_("The data folder's database is brought up to date."))
        say(_("The data as it was is kept in %(file)s.") % {"file": kept})
        return
    if old is None:
        say(
            _(
                "This data folder was used by an earlier version of fortyfives: it is now "
                "up to date for %(new)s."
            )
            % {"new": __version__}
        )
    else:
        say(
            _("This data folder was used by fortyfives %(old)s: it is now up to date for %(new)s.")
            % {"old": old, "new": __version__}
        )
    say(_("The data as it was is kept in %(file)s.") % {"file": kept})
    changes = changes_between(old, __version__)
    if changes:
        say(_("What changed:"))
    for version, lines in changes:
        say(f"  fortyfives {version}:")
        for line in lines:
            say(f"  - {_(line)}")
