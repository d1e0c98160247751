"""The rule book is part of the repository (docs/rules.md), and every citation of it in the
code, the tests and the documents names a section it has."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
SKIP = {".venv", ".git", "node_modules", "staticfiles", "media"}
OUTSIDE = re.compile("RULES" + r"\.md|\.\./" + "shared/")
CITATION = re.compile(r"rules\.md\)?`? (§\d+(?:\s*(?:–|-|and|,)\s*§\d+)*)")


def _sources() -> list[Path]:
    return [
        path
        for pattern in ("*.py", "*.md", "*.html", "*.js", "*.txt")
        for path in ROOT.rglob(pattern)
        if not SKIP & set(path.relative_to(ROOT).parts)
    ]


def test_the_rule_book_is_in_docs_with_its_ten_sections() -> None:
    text = RULES.read_text()
    numbers = [int(n) for n in re.findall(r"^## (\d+)\. ", text, re.M)]
    assert numbers == list(range(1, 11))


def test_no_citation_points_outside_the_repository() -> None:
    outside = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in _sources()
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), start=1)
        if OUTSIDE.search(line)
    ]
    assert outside == []


def test_every_citation_names_a_section_of_the_rule_book() -> None:
    sections = {int(n) for n in re.findall(r"^## (\d+)\. ", RULES.read_text(), re.M)}
    cited: dict[str, set[int]] = {}
    for path in _sources():
        if path == RULES:
            continue
        for match in CITATION.finditer(path.read_text(errors="replace")):
            numbers = {int(n) for n in re.findall(r"§(\d+)", match.group(1))}
            cited.setdefault(str(path.relative_to(ROOT)), set()).update(numbers)
    assert len(cited) > 20, "the citations were not found"
    wrong = {path: numbers - sections for path, numbers in cited.items() if numbers - sections}
    assert wrong == {}
    # A few whose subject is known: the movement, the places and the ties.
    assert cited["engine/movement.py"] == {7}
    assert cited["engine/standings.py"] == {8}
    assert 9 in cited["engine/prizes.py"]
