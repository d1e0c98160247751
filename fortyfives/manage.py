"""``fortyfives manage COMMAND …``: a Django command on the hall's settings and data folder.

What docs/cli.md shows (``drive create``, ``drive simulate``, ``drive export``, ``apitoken``…)
reaches the same database as ``fortyfives hall``, during the night too: the settings are the
hall's, the folder the one every ``fortyfives`` command finds, and the address the printed
cards carry the running server's (or the last one's). The folder is brought up to date first,
as the server's start does; a newer version's folder is refused.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from fortyfives.datafolder import hall_environ, make_writable


def run_command(data_dir: Path, arguments: list[str]) -> int:
    os.umask(0o077)
    make_writable(data_dir)
    hall_environ(data_dir)
    import django
    from django.core.management import execute_from_command_line

    django.setup()
    from fortyfives.upgrade import bring_up_to_date

    # What the upgrade says goes to stderr: a command's stdout is its answer (``drive create``
    # prints the slug alone, for scripts).
    bring_up_to_date(data_dir, lambda line: print(line, file=sys.stderr))
    try:
        execute_from_command_line(["fortyfives manage", *(arguments or ["help"])])
    except SystemExit as done:
        code = done.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    return 0
