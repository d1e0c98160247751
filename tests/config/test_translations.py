"""The French catalog: complete (nothing unmarked left for makemessages to find, no fuzzy or
empty entry, the same placeholders as the English), compiled by Babel (scripts/messages.py)
exactly as GNU msgfmt would, and read by the pages."""

from __future__ import annotations

import gettext
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import override_settings

from tests.conftest import ROOT, load_messages_script, require_service

messages = load_messages_script()
CATALOGS = sorted(ROOT.glob("locale/*/LC_MESSAGES/*.po"))
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w*\}")


def keys(path: Path) -> set[tuple[str | None, str | tuple[str, ...]]]:
    return {(m.context, m.id) for m in messages.entries(path) if m.id}


def forms(message: Any) -> list[tuple[str, str]]:
    """Each translated form beside the English it translates (the plural forms beside the
    singular or the plural)."""
    if isinstance(message.id, tuple):
        return [(message.id[min(i, 1)], text) for i, text in enumerate(message.string)]
    return [(message.id, message.string)]


def test_every_language_but_english_has_both_catalogs() -> None:
    wanted = {
        ROOT / "locale" / code / "LC_MESSAGES" / f"{domain}.po"
        for code, _name in settings.LANGUAGES
        if code != settings.LANGUAGE_CODE
        for domain in messages.DOMAINS
    }
    assert wanted <= set(CATALOGS)


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_no_entry_is_fuzzy_or_empty(po: Path) -> None:
    entries = [m for m in messages.entries(po) if m.id]
    assert len(entries) > 10
    left = [m.id for m in entries if m.fuzzy or messages.untranslated(m)]
    assert left == [], f"{po}: run scripts/messages.py todo and translate these"


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_translations_keep_the_placeholders(po: Path) -> None:
    wrong = []
    for entry in messages.entries(po):
        if not entry.id:
            continue
        plural = isinstance(entry.id, tuple)
        for index, (source, text) in enumerate(forms(entry)):
            want, got = set(PLACEHOLDER.findall(source)), set(PLACEHOLDER.findall(text))
            if plural and index == 0:  # the singular may spell the count out
                want -= {"%(count)d", "%(count)s", "%(n)s", "%s"}
                got -= {"%(count)d", "%(count)s", "%(n)s", "%s"}
            if want != got:
                wrong.append((source, text))
    assert wrong == []


def test_makemessages_finds_nothing_new(tmp_path: Path) -> None:
    """Every string the code marks is in the catalog, and nothing the code no longer has:
    makemessages run as ``make messages`` runs it, into a scratch folder, finds the same."""
    if shutil.which("xgettext") is None:
        require_service("GNU gettext (xgettext)", "apt-get install gettext (.ci/run does)")
    copy = tmp_path / "project"  # the sources only: makemessages writes beside them
    shutil.copytree(
        ROOT,
        copy,
        ignore=shutil.ignore_patterns(
            ".*",
            "locale",
            "media",
            "staticfiles",
            "hall-data",
            "__pycache__",
            "*.sqlite3*",
            "node_modules",
            "htmlcov",
            "docs",
            "build",
            "dist",
        ),
    )
    scratch = copy / "locale"
    (scratch / "fr" / "LC_MESSAGES").mkdir(parents=True)
    with override_settings(LOCALE_PATHS=[scratch]):
        messages.makemessages(["fr"], root=copy)
    for domain in messages.DOMAINS:
        found = keys(scratch / "fr" / "LC_MESSAGES" / f"{domain}.po")
        kept = keys(ROOT / "locale" / "fr" / "LC_MESSAGES" / f"{domain}.po")
        assert sorted(found - kept, key=str) == [], f"{domain}: new strings: make messages"
        assert sorted(kept - found, key=str) == [], f"{domain}: strings gone: make messages"


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_babels_compile_matches_gnu_msgfmt(po: Path, tmp_path: Path) -> None:
    if shutil.which("msgfmt") is None:
        require_service("GNU gettext (msgfmt)", "apt-get install gettext (.ci/run does)")
    ours, gnu = tmp_path / "ours.mo", tmp_path / "gnu.mo"
    messages.compile_mo(po, ours)
    subprocess.run(["msgfmt", "--check", "-o", str(gnu), str(po)], check=True)
    with ours.open("rb") as a, gnu.open("rb") as b:
        mine, theirs = gettext.GNUTranslations(a), gettext.GNUTranslations(b)
    mine_catalog = {k: v for k, v in mine._catalog.items() if k != ""}
    gnu_catalog = {k: v for k, v in theirs._catalog.items() if k != ""}
    assert len(mine_catalog) > 10
    assert mine_catalog == gnu_catalog
    assert mine.plural(1) == theirs.plural(1) == 0 and mine.plural(2) == theirs.plural(2) == 1


def test_todo_lists_an_untranslated_or_fuzzy_entry(tmp_path: Path, capsys) -> None:
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Game"\nmsgstr "Partie"\n\n'
        'msgid "Table"\nmsgstr ""\n\n'
        '#, fuzzy\nmsgid "Couple"\nmsgstr "Équipe"\n',
        encoding="utf-8",
    )
    assert messages.todo([str(po)]) == 1
    out = capsys.readouterr().out
    assert "untranslated: 'Table'" in out and "fuzzy: 'Couple'" in out and "'Game'" not in out
    # A fuzzy entry is never compiled: the English shows rather than a doubtful French.
    messages.compile_mo(po, tmp_path / "django.mo")
    with (tmp_path / "django.mo").open("rb") as f:
        compiled = gettext.GNUTranslations(f)
    assert compiled.gettext("Game") == "Partie"
    assert compiled.gettext("Couple") == "Couple" and compiled.gettext("Table") == "Table"


def test_the_glossary_words_are_the_catalogs() -> None:
    """docs/glossary-fr.md's words for the hall's things are the ones the catalog uses."""
    glossary = (ROOT / "docs" / "glossary-fr.md").read_text(encoding="utf-8")
    translated = {
        m.id: m.string
        for m in messages.entries(ROOT / "locale/fr/LC_MESSAGES/django.po")
        if isinstance(m.id, str) and m.id and m.context is None
    }
    for english, french in [
        ("Game", "Partie"),
        ("Table", "Table"),
        ("Couple", "Couple"),
        ("Punch card", "Carte à poinçonner"),
        ("Booby prize", "Prix citron"),
        ("Cookie jar", "Cagnotte"),
        ("Standings", "Classement"),
    ]:
        assert translated[english] == french
        assert f"| {english.lower()} | {french.lower()}" in glossary.lower()
