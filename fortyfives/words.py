"""The ``fortyfives`` command's words in the hall's language, before Django starts.

The command speaks as the pages do: its help, its refusals and the server's banner come from
the project's catalog (``locale/<lang>/LC_MESSAGES/django.mo``, the pages' own, read with
Python's gettext), in the language the hall chose at its first start (config/paths.py's
``hall.json``), or else the laptop's (``LANG``), or English. argparse's own words ("usage:",
"the following arguments are required") are in the catalog too (ARGPARSE_WORDS below) and
argparse is given this translation, so a French hall's ``fortyfives --help`` is French
throughout.
"""

from __future__ import annotations

import argparse
import gettext as stdlib_gettext
import locale
import os
from pathlib import Path

from config.paths import SITE_DIR, hall_choices

LANGUAGES = ("en", "fr")
_active: stdlib_gettext.NullTranslations = stdlib_gettext.NullTranslations()


def gettext_noop(message: str) -> str:
    return message


# argparse's words that a volunteer sees (Python's own strings, marked here for the catalog).
ARGPARSE_WORDS = (
    gettext_noop("usage: "),
    gettext_noop("options"),
    gettext_noop("positional arguments"),
    gettext_noop("show this help message and exit"),
    gettext_noop("show program's version number and exit"),
    gettext_noop("%(prog)s: error: %(message)s\n"),
    gettext_noop("the following arguments are required: %s"),
    gettext_noop("unrecognized arguments: %s"),
    gettext_noop("invalid choice: %(value)r (choose from %(choices)s)"),
    gettext_noop("argument %(argument_name)s: %(message)s"),
    gettext_noop("expected one argument"),
    gettext_noop("invalid %(type)s value: %(value)r"),
)


def language_of(data_dir: Path | None) -> str:
    """The hall's language: its choice kept in the data folder, else the laptop's, else en."""
    chosen = hall_choices(data_dir).get("language") if data_dir is not None else None
    if chosen in LANGUAGES:
        return str(chosen)
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "")
        if value:
            code = value.split(":")[0].split("_")[0].split(".")[0].lower()
            return code if code in LANGUAGES else "en"
    try:
        found = locale.getlocale()[0] or ""
    except ValueError:
        found = ""
    code = found.split("_")[0].lower()
    return code if code in LANGUAGES else "en"


def use_language(code: str) -> None:
    """Speak ``code`` from now on (the command's words and argparse's)."""
    global _active
    _active = stdlib_gettext.translation(
        "django", localedir=SITE_DIR / "locale", languages=[code], fallback=True
    )
    # argparse looks its words up through these module names at each call.
    argparse._ = _active.gettext  # type: ignore[attr-defined]
    argparse.ngettext = _active.ngettext  # type: ignore[attr-defined]


def gettext(message: str) -> str:
    return _active.gettext(message)


_ = gettext
