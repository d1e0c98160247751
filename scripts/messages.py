"""The translation catalogs (locale/<lang>/LC_MESSAGES/*.po), with nothing but Python:

    python scripts/messages.py compile [PO ...]   # each .po → its .mo (make does it: make install)
    python scripts/messages.py todo [PO ...]      # the entries still to translate; exit 1 if any
    .venv/bin/python scripts/messages.py update   # makemessages (django, djangojs), then todo

``compile`` writes the GNU .mo files Django's gettext reads, as GNU msgfmt does (fuzzy
entries left out, contexts as ``context\\x04id``, plural forms joined by NUL), so a fresh
machine needs no GNU gettext: the hall's Windows laptop and a bare ``python3 + make`` alike.
``todo`` lists every entry that is empty (or has an empty plural form) or marked fuzzy, by
file and line: after ``make messages`` brought in the new strings of a merged branch, it is
the list to translate. Without arguments both take every catalog under locale/.
``update`` (``make messages``) is Django's makemessages for every language but English, for
the pages and Python (``django``) and the scripts (``djangojs``), with MAKEMESSAGES; it needs
GNU gettext's xgettext, as makemessages always does. The test that nothing is left unmarked
runs it the same way into a scratch folder (tests/config/test_translations.py).
"""

from __future__ import annotations

import ast
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

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


@dataclass
class Entry:
    line: int
    context: str | None = None
    msgid: str = ""
    plural: str | None = None
    strings: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def untranslated(self) -> bool:
        return not self.strings or any(not text for text in self.strings.values())


def read_po(path: Path) -> list[Entry]:
    """The entries of a .po file (the header is the entry whose msgid is empty). An entry
    ends at a blank line, or where a new one starts right after its msgstr."""
    entries: list[Entry] = []
    entry = Entry(1)
    target = ("", 0)  # the field a bare "string" line continues

    def finish(number: int) -> Entry:
        if entry.strings:
            entries.append(entry)
            return Entry(number)
        return entry

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line:
            entry = finish(number + 1)
            continue
        if line.startswith("#~"):
            continue  # obsolete entries are kept by makemessages but never compiled
        if line.startswith("#"):
            if line.startswith("#,"):
                entry = finish(number)
                entry.flags |= {flag.strip() for flag in line[2:].split(",")}
            continue
        keyword, _, rest = line.partition(" ")
        if keyword.startswith('"'):
            text = ast.literal_eval(line)
            name, index = target
            if name == "msgctxt":
                entry.context = (entry.context or "") + text
            elif name == "msgid":
                entry.msgid += text
            elif name == "msgid_plural":
                entry.plural = (entry.plural or "") + text
            elif name == "msgstr":
                entry.strings[index] += text
            else:
                raise ValueError(f"{path}:{number}: a string continues nothing")
            continue
        text = ast.literal_eval(rest)
        if keyword in ("msgctxt", "msgid"):
            entry = finish(number)
            if keyword == "msgctxt" or entry.context is None:
                entry.line = number
            if keyword == "msgctxt":
                entry.context = text
            else:
                entry.msgid = text
        elif keyword == "msgid_plural":
            entry.plural = text
        elif keyword == "msgstr" or keyword.startswith("msgstr["):
            index = int(keyword[7:-1]) if "[" in keyword else 0
            entry.strings[index] = text
            keyword = "msgstr"
        else:
            raise ValueError(f"{path}:{number}: cannot read {line[:40]!r}")
        target = (keyword, index if keyword == "msgstr" else 0)
    finish(0)
    return entries


def write_mo(entries: list[Entry], path: Path) -> int:
    """The GNU .mo file of ``entries`` (fuzzy and untranslated left out, the header kept);
    the number of messages written."""
    pairs: dict[bytes, bytes] = {}
    for entry in entries:
        if entry.fuzzy and entry.msgid:
            continue
        if entry.msgid and entry.untranslated:
            continue
        key = entry.msgid
        if entry.plural is not None:
            key += "\0" + entry.plural
        if entry.context is not None:
            key = entry.context + "\x04" + key
        value = "\0".join(entry.strings[i] for i in sorted(entry.strings))
        pairs[key.encode()] = value.encode()
    keys = sorted(pairs)
    ids = b"".join(k + b"\0" for k in keys)
    strs = b"".join(pairs[k] + b"\0" for k in keys)
    count = len(keys)
    start_ids = 7 * 4 + 16 * count
    start_strs = start_ids + len(ids)
    offsets: list[int] = []
    position = 0
    for k in keys:
        offsets += [len(k), start_ids + position]
        position += len(k) + 1
    position = 0
    for k in keys:
        offsets += [len(pairs[k]), start_strs + position]
        position += len(pairs[k]) + 1
    header = struct.pack(
        "Iiiiiii", 0x950412DE, 0, count, 7 * 4, 7 * 4 + 8 * count, 0, 0
    )  # magic, version, count, table of ids, table of strings, no hash table
    table = struct.pack(f"{len(offsets)}i", *offsets)
    path.write_bytes(header + table + ids + strs)
    return count - (1 if b"" in pairs else 0)


def shown(path: Path) -> Path:
    resolved = path.resolve()
    return resolved.relative_to(ROOT) if resolved.is_relative_to(ROOT) else path


def catalogs(args: list[str]) -> list[Path]:
    return [Path(a) for a in args] or sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))


def compile_(args: list[str]) -> int:
    for po in catalogs(args):
        mo = po.with_suffix(".mo")
        count = write_mo(read_po(po), mo)
        print(f"{shown(mo)}: {count} messages")
    return 0


def todo(args: list[str]) -> int:
    missing = 0
    for po in catalogs(args):
        entries = [e for e in read_po(po) if e.msgid]
        for entry in entries:
            if entry.fuzzy or entry.untranslated:
                missing += 1
                why = "fuzzy" if entry.fuzzy else "untranslated"
                context = f" [{entry.context}]" if entry.context is not None else ""
                print(f"{shown(po)}:{entry.line}: {why}{context}: {entry.msgid!r}")
        done = sum(1 for e in entries if not (e.fuzzy or e.untranslated))
        print(f"{shown(po)}: {done} of {len(entries)} translated", file=sys.stderr)
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
