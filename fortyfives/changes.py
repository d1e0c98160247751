"""What changed for a hall from one version of fortyfives to the next, in a volunteer's words.

``fortyfives hall`` (and ``fortyfives manage``) started on a data folder an older version used
says these lines once, after bringing the folder up to date (fortyfives/upgrade.py). Each
version's entry is short: what a volunteer sees or does differently, not how it was built.
The lines are marked for the catalog here and spoken in the hall's language when said.
"""

from __future__ import annotations

import re

from fortyfives.words import gettext_noop

CHANGES: dict[str, tuple[str, ...]] = {
    "0.2.0": (
        gettext_noop(
            "One command, fortyfives: fortyfives hall starts the night, fortyfives manage "
            "runs the drive commands on the same data."
        ),
        gettext_noop(
            "The club's data is kept in one folder of its own (fortyfives hall shows where), "
            "whatever folder the program is started from."
        ),
        gettext_noop(
            "fortyfives backup copies the club into one file for a USB stick, even during "
            "the night; fortyfives restore puts it back."
        ),
        gettext_noop(
            "The first start opens a page on this laptop to name the club, the organizer and "
            "the hall's language."
        ),
    ),
}


def version_key(version: str) -> tuple[int, int, int]:
    """``"0.2.0"`` → ``(0, 2, 0)``; what follows the third number (``rc1``, ``.dev2``) is not
    weighed."""
    major, minor, patch = ([int(n) for n in re.findall(r"\d+", version)[:3]] + [0, 0, 0])[:3]
    return major, minor, patch


def changes_between(old: str | None, new: str) -> list[tuple[str, tuple[str, ...]]]:
    """The entries of the versions after ``old`` (every one when not known) up to ``new``,
    oldest first."""
    return [
        (version, lines)
        for version, lines in sorted(CHANGES.items(), key=lambda item: version_key(item[0]))
        if (old is None or version_key(old) < version_key(version))
        and version_key(version) <= version_key(new)
    ]
