"""The treasurer's sheet of the night's accounts: a title, the drive and its entry fee, then
three two-column tables (the totals by kind with the money in, out and the net raised; the
net by way of payment; the cash box) and the 50/50's last draw. Every word and figure comes
ready in the data (``accounts``, built by the money app in the drive's language); this lays
them out on one page, as many as it takes when a night has many kinds of lines."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from reportlab.lib.utils import simpleSplit

from scoring.printing.pdf.base import Doc, Progress

# The page's margins (left and right, top and bottom) and the tables' width, centred.
SIDE = 78.0
TOP = 49.0
TABLE_WIDTH = 374.4
AMOUNT_WIDTH = 144.0
ROW = 18.0
TEXT = 10.0
LEADING = 12.0
TITLE = 18.0


class Accounts:
    def __init__(self, data: dict[str, Any], paper: str) -> None:
        self.doc = Doc(data, paper)
        self.sheet: dict[str, Any] = data["accounts"]
        self.pages: list[list[Callable[[], None]]] = [[]]
        self.y = self.doc.height - TOP

    # --- layout ---------------------------------------------------------------------------

    def _step(self, draw: Callable[[], None]) -> None:
        self.pages[-1].append(draw)

    def _need(self, height: float) -> None:
        """A new page when ``height`` more would run into the bottom margin."""
        if self.y - height < TOP:
            self.pages.append([])
            self.y = self.doc.height - TOP

    def _title(self, text: str) -> None:
        doc = self.doc
        self._step(
            partial(doc.draw, doc.width / 2, self.y - TITLE, text, TITLE, bold=True, align="center")
        )
        self.y -= TITLE + 10

    def _paragraph(self, text: str) -> None:
        """A paragraph of the page's width, its lines broken between words."""
        doc = self.doc
        for line in simpleSplit(doc.text(text), doc.regular, TEXT, doc.width - 2 * SIDE):
            self._need(LEADING)
            self._step(partial(doc.draw, SIDE, self.y - TEXT, line, TEXT))
            self.y -= LEADING

    def _table(self, rows: list[list[str]]) -> None:
        """Two columns, the figures on the right; the first row a heading, ruled below."""
        doc = self.doc
        left = (doc.width - TABLE_WIDTH) / 2
        right = left + TABLE_WIDTH
        for index, (label, amount) in enumerate(rows):
            self._need(ROW)
            self._step(partial(self._row, left, right, self.y, label, amount, heading=index == 0))
            self.y -= ROW

    def _row(
        self, left: float, right: float, top: float, label: str, amount: str, *, heading: bool
    ) -> None:
        doc = self.doc
        base = top - 3 - TEXT
        width = right - left - AMOUNT_WIDTH - 12
        doc.draw(left + 6, base, doc.clip(label, TEXT, width, bold=heading), TEXT, bold=heading)
        doc.draw(right - 6, base, amount, TEXT, bold=heading, align="right")
        if heading:
            doc.canvas.setLineWidth(0.8)
            doc.canvas.line(left, top - ROW + 2, right, top - ROW + 2)

    def render(self, progress: Progress | None = None) -> bytes:
        sheet = self.sheet
        self._title(sheet["title"])
        for line in sheet["lines"]:
            self._paragraph(line)
        self.y -= 14.4
        for rows in sheet["tables"]:
            self._table(rows)
            self.y -= 18
        for note in sheet["notes"]:
            self._paragraph(note)

        def page(steps: list[Callable[[], None]]) -> Callable[[], None]:
            def draw() -> None:
                for step in steps:
                    step()

            return draw

        return self.doc.run([page(steps) for steps in self.pages], progress)
