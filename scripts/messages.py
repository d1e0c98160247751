"""The translation catalogs (locale/<lang>/LC_MESSAGES/*.po), with Babel and no GNU gettext:

    python scripts/messages.py compile [PO ...]   # each .po → its .mo (make does it: make install)
    python scripts/messages.py todo [PO ...]      # the entries still to translate; exit 1 if any
    .venv/bin/python scripts/messages.py update   # makemessages (django, djangojs), then todo

``compile`` writes the GNU .mo files Django's gettext reads with Babel's compiler
(``babel.messages.mofile.write_mo``: fuzzy and untranslated entries left out, as GNU msgfmt
does), so a fresh machine needs no GNU gettext: the hall's Windows laptop and a bare
``python3 + make`` alike (Babel is pure Python, in the project's dependencies).
``todo`` lists every entry that is empty (or has an empty plural form) or marked fuzzy, by
file and line: after ``make messages`` brought in the new strings of a merged branch, it is
the list to translate. Without arguments both take every catalog under locale/.
``update`` (``make messages``) is Django's makemessages for every language but English, for
the pages and Python (``django``) and the scripts (``djangojs``), with MAKEMESSAGES; it needs
GNU gettext's xgettext, as makemessages always does. The test that nothing is left unmarked
runs it the same way into a scratch folder (tests/config/test_translations.py).
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
# makemessages' options: what is not the product's own text is left out (the tests, the
# tools that run it from outside, these scripts, collected static files and generated files);
# locations by file only, so that a moved line changes nothing.
MAKEMESSAGES = {
    "ignore_patterns": [
        "tests",
        "tools",
        "scripts",
        "staticfiles",
        "media",
        "hall-data",
        "htmlcov",
        # make wheel's and make bundle's output, and the bundle's build environment
        "build",
        "dist",
    ],
    "add_location": "file",
    "no_obsolete": True,
}
DOMAINS = ("django", "djangojs")


def entries(path: Path) -> list[Message]:
    """The catalog's messages, the header (whose ``id`` is empty) first; obsolete ones left
    out (makemessages keeps them, nothing compiles them)."""
    with path.open("rb") as po:
        return list(read_po(po, ignore_obsolete=True, abort_invalid=True))


def singular(message: Message) -> str:
    """The message's English (its singular, for one with plural forms)."""
    return message.id[0] if isinstance(message.id, tuple) else message.id


def untranslated(message: Message) -> bool:
    """Whether the message, or one of its plural forms, is still empty."""
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return not strings or any(not text for text in strings)


def compile_mo(po: Path, mo: Path) -> int:
    """``po`` compiled to ``mo`` (fuzzy and untranslated messages left out, the header
    kept); the number of messages written."""
    with po.open("rb") as source:
        catalog = read_po(source, ignore_obsolete=True, abort_invalid=True)
    with mo.open("wb") as out:
        write_mo(out, catalog)
    return sum(1 for m in catalog if m.id and m.string and not m.fuzzy)


def shown(path: Path) -> Path:
    resolved = path.resolve()
    return resolved.relative_to(ROOT) if resolved.is_relative_to(ROOT) else path


def catalogs(args: list[str]) -> list[Path]:
    return [Path(a) for a in args] or sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))


def compile_(args: list[str]) -> int:
    for po in catalogs(args):
        mo = po.with_suffix(".mo")
        count = compile_mo(po, mo)
        print(f"{shown(mo)}: {count} messages")
    return 0


def todo(args: list[str]) -> int:
    missing = 0
    for po in catalogs(args):
        messages = [m for m in entries(po) if m.id]
        for message in messages:
            if message.fuzzy or untranslated(message):
                missing += 1
                why = "fuzzy" if message.fuzzy else "untranslated"
                context = f" [{message.context}]" if message.context is not None else ""
                print(f"{shown(po)}:{message.lineno}: {why}{context}: {singular(message)!r}")
        done = sum(1 for m in messages if not (m.fuzzy or untranslated(m)))
        print(f"{shown(po)}: {done} of {len(messages)} translated", file=sys.stderr)
    return 1 if missing else 0


def makemessages(languages: list[str], root: Path = ROOT) -> None:
    """Django's makemessages for ``languages`` and both domains, run in ``root`` (the
    project's, or a copy of it; Django set up by the caller), into ``root``/locale."""
    import os

    from django.core.management import call_command

    here = Path.cwd()
    os.chdir(root)
    try:
        for domain in DOMAINS:
            call_command(
                "makemessages", locale=languages, domain=domain, verbosity=0, **MAKEMESSAGES
            )
    finally:
        os.chdir(here)


def update(args: list[str]) -> int:
    import os

    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    import django
    from django.conf import settings

    django.setup()
    makemessages([code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE])
    return todo(args)


def main(argv: list[str]) -> int:
    commands = {"compile": compile_, "todo": todo, "update": update}
    if not argv or argv[0] not in commands:
        print(__doc__, file=sys.stderr)
        return 2
    return commands[argv[0]](argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
