"""Table cards: one page per table, folded along the middle into a tent. Each half shows the
drive name, the table number as large as the half allows, and a QR code to the table's result
page, with "Need the desk? Scan, or raise your hand." above it (the page has the button that
calls the desk); along the foot, "Scan to report the result" and the page's address, in 12 pt
like every word a player reads at arm's length. The top half is drawn upside down so that both
faces read the right way up once folded. The fold line and the half frame are a form drawn
once."""

from __future__ import annotations

from functools import partial
from typing import Any

from scoring.printing.pdf.base import Doc, Progress

MARGIN = 28
READ = 12.0  # what a player reads at arm's length, in points
FOOT = 20.0  # the foot line under the number and the QR code


class TableCards:
    def __init__(self, data: dict[str, Any], paper: str) -> None:
        self.doc = Doc(data, paper)
        self.data = data
        self.half = self.doc.height / 2
        self.qr_size = min(120.0, self.half * 0.34)

    def _frame(self) -> None:
        doc, c = self.doc, self.doc.canvas
        w = doc.width
        c.saveState()
        c.setDash(4, 4)
        c.setLineWidth(0.5)
        c.setStrokeGray(0.5)
        c.line(12, self.half, w - 12, self.half)
        c.restoreState()
        c.setFillGray(0.5)
        doc.draw(w - 14, self.half + 3, doc.label("fold"), READ, align="right")
        c.setFillGray(0)
        name = self.data["drive"]["name"]
        for upside_down in (False, True):
            c.saveState()
            if upside_down:
                c.translate(w, doc.height)
                c.rotate(180)
            size = doc.fit(name, 20, w - 2 * MARGIN, bold=True)
            doc.draw(w / 2, self.half - MARGIN - 12, name, size, bold=True, align="center")
            c.setFillGray(0.4)
            doc.draw(MARGIN, self.half - MARGIN - 32, doc.label("table").upper(), READ, bold=True)
            doc.draw(MARGIN, MARGIN, doc.label("scan"), READ)
            c.setFillGray(0)
            c.restoreState()

    def _half(self, table: dict[str, Any]) -> None:
        doc = self.doc
        w = doc.width
        number = str(table["number"])
        # The number fills the space left of the QR code, under the drive name.
        box_w = w - 2 * MARGIN - self.qr_size - 16
        box_h = self.half - 2 * MARGIN - 48 - FOOT
        by_height = box_h / 0.73  # cap height of the digits ≈ 0.73 em
        by_width = box_w / max(doc.string_width(number, doc.bold, 1), 0.01)
        size = min(by_height, by_width)
        doc.draw(
            MARGIN + box_w / 2,
            MARGIN + FOOT + (box_h - size * 0.73) / 2 + 4,
            number,
            size,
            bold=True,
            align="center",
        )
        qr_x = w - MARGIN - self.qr_size
        qr_y = MARGIN + FOOT
        doc.qr(table["url"], qr_x, qr_y, self.qr_size)
        self._call_desk(qr_y + self.qr_size + 6)
        # The address, after "Scan to report the result" on the foot line, to the right margin.
        url = table["url"].split("://", 1)[-1]
        room = w - 2 * MARGIN - doc.string_width(doc.label("scan"), doc.regular, READ) - 16
        doc.draw(w - MARGIN, MARGIN, url, doc.fit(url, READ, room), align="right")

    def _call_desk(self, bottom: float) -> None:
        """Above the QR code, in its column: "Need the desk? Scan, or raise your hand.", in
        12 pt, each phrase on lines of its own that fit the column (the table number's space
        stays clear)."""
        doc = self.doc
        room = self.qr_size + 12
        lines: list[str] = []
        for key in ("call_desk", "raise_hand"):
            lines += self._wrapped(doc.label(key), room)
        for i, line in enumerate(reversed(lines)):
            doc.draw(doc.width - MARGIN, bottom + i * (READ + 2), line, READ, align="right")

    def _wrapped(self, text: str, room: float) -> list[str]:
        """``text`` in lines of whole words no wider than ``room`` at 12 pt (a word wider than
        that alone on its line)."""
        doc = self.doc
        lines: list[str] = []
        for word in text.split():
            line = f"{lines[-1]} {word}" if lines else word
            if lines and doc.string_width(line, doc.regular, READ) <= room:
                lines[-1] = line
            else:
                lines.append(word)
        return lines

    def _page(self, table: dict[str, Any]) -> None:
        doc, c = self.doc, self.doc.canvas
        doc.form("table-frame", self._frame)
        self._half(table)
        # The top half: the same, turned round about the page's centre.
        c.saveState()
        c.translate(doc.width, doc.height)
        c.rotate(180)
        self._half(table)
        c.restoreState()

    def render(self, progress: Progress | None) -> bytes:
        pages = [partial(self._page, t) for t in self.data["tables"]]
        return self.doc.run(pages, progress)
