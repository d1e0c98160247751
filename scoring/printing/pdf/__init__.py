"""Printed documents: plain data in (``scoring.printing.data.build``), PDF bytes out.

``render(document, data, paper=..., progress=...)`` draws one document with reportlab; no
model or database access happens here (an import-linter contract keeps it so).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scoring.printing.pdf.accounts import Accounts
from scoring.printing.pdf.movement import Movement
from scoring.printing.pdf.punch_cards import PunchCards
from scoring.printing.pdf.results import Results
from scoring.printing.pdf.score_sheets import ScoreSheets
from scoring.printing.pdf.table_cards import TableCards

__all__ = ["PAPERS", "RENDERERS", "render"]

PAPERS = ("letter", "a4")
RENDERERS: dict[str, Any] = {
    "punch-cards": PunchCards,
    "table-cards": TableCards,
    "score-sheets": ScoreSheets,
    "movement": Movement,
    "results": Results,
    "accounts": Accounts,
}


def render(
    document: str,
    data: dict[str, Any],
    *,
    paper: str = "letter",
    progress: Callable[[int, int], None] | None = None,
) -> bytes:
    """The PDF of ``document`` drawn from ``data``; ``progress(done, total)`` after each page."""
    if document not in RENDERERS:
        raise ValueError(f"unknown document {document!r}; choose one of {', '.join(RENDERERS)}")
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; choose one of {', '.join(PAPERS)}")
    renderer = RENDERERS[document](data, paper)
    return bytes(renderer.render(progress))
