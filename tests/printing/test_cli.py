"""``manage.py drive print``: a document rendered to a file, synchronously (no broker)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from pypdf import PdfReader

from scoring.models import Document
from tests.printing.conftest import Night


@pytest.mark.parametrize(
    ("args", "name"),
    [
        (["--document", "table-cards"], "tables.pdf"),
        (["--document", "punch-cards", "--couple", "2", "--paper", "a4"], "card.pdf"),
        (["--document", "punch-cards", "--filled"], "filled.pdf"),
        (["--document", "movement", "--game", "1"], "movement.pdf"),
        (["--document", "results"], "results.pdf"),
    ],
)
def test_print_writes_a_pdf(
    night: Night, tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], name: str
) -> None:
    output = tmp_path / name
    call_command("drive", "print", night.drive.slug, *args, "--output", str(output))
    reader = PdfReader(output)
    assert len(reader.pages) > 0
    out = capsys.readouterr().out
    assert f"to {output}" in out and f"{len(reader.pages)} pages" in out
    assert Document.objects.count() == 0  # rendered here and now, nothing queued


def test_bad_options_are_one_line(night: Night, tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="Only punch cards take a couple"):
        call_command(
            "drive",
            "print",
            night.drive.slug,
            "--document",
            "results",
            "--couple",
            "1",
            "--output",
            str(tmp_path / "x.pdf"),
        )
    with pytest.raises(CommandError, match="No drive with the slug"):
        call_command("drive", "print", "nope", "--document", "results", "--output", "x.pdf")
    assert not (tmp_path / "x.pdf").exists()
