"""The movement sheet of a game: every table with its two couples and who deals first, then a
couple-by-couple list ("couple 17 → table 9") in large type for the wall. Both flow in
columns over as many pages as they need."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scoring.printing.pdf.base import Doc, Progress, chunks

MARGIN = 36


class Movement:
    def __init__(self, data: dict[str, Any], paper: str) -> None:
        self.doc = Doc(data, paper)
        self.data = data

    def _header(self, title: str) -> float:
        doc = self.doc
        drive = self.data["drive"]
        top = doc.height - MARGIN
        doc.draw(
            MARGIN,
            top - 20,
            f"{doc.labels['movement']} · {doc.labels['game']} {self.data['game']}",
            20,
            bold=True,
        )
        doc.draw(doc.width - MARGIN, top - 20, drive["name"], 11, align="right")
        doc.draw(doc.width - MARGIN, top - 34, drive["date_text"], 9, align="right")
        doc.gray(0.4)
        doc.draw(MARGIN, top - 40, title, 10, bold=True)
        doc.gray(0)
        return top - 56

    def _flow(
        self,
        title: str,
        items: list[dict[str, Any]],
        columns: int,
        row_h: float,
        draw: Callable[[dict[str, Any], float, float, float], None],
        head: Callable[[float, float, float], None] | None,
    ) -> list[Callable[[], None]]:
        doc = self.doc
        top = doc.height - MARGIN - 56
        rows = int((top - MARGIN - 30 - row_h * 0.7 - (row_h if head else 0)) // row_h)
        col_w = (doc.width - 2 * MARGIN) / columns
        pages: list[Callable[[], None]] = []
        for group in chunks(items, rows * columns):

            def page(group: list[dict[str, Any]] = group) -> None:
                y0 = self._header(title) - max(0.0, row_h * 0.7 - 8)
                for k, column in enumerate(chunks(group, rows)):
                    x = MARGIN + k * col_w
                    y = y0
                    if head:
                        head(x, y, col_w - 12)
                        y -= row_h
                    for i, item in enumerate(column):
                        if i % 2 == 0:
                            doc.band(x, y - row_h * 0.3, col_w - 12, row_h, 0.94)
                        draw(item, x, y, col_w - 12)
                        y -= row_h

            pages.append(page)
        return pages

    def _table_head(self, x: float, y: float, w: float) -> None:
        doc = self.doc
        doc.gray(0.35)
        doc.draw(x + 4, y, doc.labels["table"], 8, bold=True)
        doc.draw(x + w * 0.45, y, doc.labels["stays"], 8, bold=True, align="center")
        doc.draw(
            x + w * 0.8,
            y,
            f"{doc.labels['arrives']} ({doc.labels['deals']})",
            8,
            bold=True,
            align="center",
        )
        doc.gray(0)

    def _table_row(self, row: dict[str, Any], x: float, y: float, w: float) -> None:
        doc = self.doc
        if row["sit_out"]:
            # A sit-out is no table in the hall: no number, only who sits out.
            doc.draw(x + 4, y, "—", 11, bold=True)
            alone = row["stays"] or row["arrives"]
            doc.draw(x + w * 0.45, y, alone, 11, align="center")
            doc.gray(0.4)
            doc.draw(x + w * 0.8, y, doc.labels["sits_out"], 8, align="center")
            doc.gray(0)
            return
        doc.draw(x + 4, y, row["table"], 11, bold=True)
        doc.draw(x + w * 0.45, y, row["stays"], 11, align="center")
        doc.draw(x + w * 0.8, y, row["arrives"], 11, bold=True, align="center")

    def _couple_row(self, row: dict[str, Any], x: float, y: float, w: float) -> None:
        doc = self.doc
        doc.draw(x + 44, y, row["number"], 18, bold=True, align="right")
        if row["sit_out"]:
            doc.draw(x + 52, y, f"→ {doc.labels['sits_out']}", 15)
            return
        doc.draw(x + 52, y, f"→ {doc.labels['table'].lower()} {row['table']}", 15)
        note = doc.labels["deals"]
        if row["deals"]:
            doc.gray(0.4)
            doc.draw(x + w - 4, y, note, 7.5, align="right")
            doc.gray(0)

    def render(self, progress: Progress | None) -> bytes:
        labels = self.doc.labels
        pages = self._flow(
            labels["by_table"], self.data["tables"], 3, 17, self._table_row, self._table_head
        )
        pages += self._flow(
            labels["by_couple"], self.data["couples"], 3, 26, self._couple_row, None
        )
        return self.doc.run(pages, progress)
