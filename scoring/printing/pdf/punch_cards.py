"""Punch cards: eight to a page (two across, four down) with cut marks. Each card shows the
drive, the date, the couple number large, both names, a circle per game to punch, a QR code to
the couple's page and a one-line ranking reminder in the bottom margin. The frame (border,
labels, circles, reminder) is the same on every card, and the cut marks on every full page:
each is drawn once as a form. A filled card shows the recorded wins as punched (black)
circles."""

from __future__ import annotations

import math
from functools import partial
from typing import Any

from scoring.printing.pdf.base import Doc, Progress, chunks, reminder

COLUMNS, ROWS = 2, 4
MARGIN = 24
PAD = 10
QR_SIZE = 64


class PunchCards:
    def __init__(self, data: dict[str, Any], paper: str) -> None:
        self.doc = Doc(data, paper)
        self.data = data
        self.card_w = (self.doc.width - 2 * MARGIN) / COLUMNS
        self.card_h = (self.doc.height - 2 * MARGIN) / ROWS
        self.games = int(data["drive"]["games"])
        self.circles = self._circle_layout()

    def _circle_layout(self) -> list[tuple[float, float, float]]:
        """(x, y, r) of the circle of each game, in the card's coordinates."""
        w, h, n = self.card_w, self.card_h, self.games
        top, bottom = h - 94, 20.0
        width = w - 2 * PAD
        best: tuple[float, int] = (0.0, n)
        for cols in range(1, n + 1):
            rows = math.ceil(n / cols)
            step = min(width / cols, (top - bottom) / rows)
            if step > best[0]:
                best = (step, cols)
        step, cols = best
        r = min(step / 2 - 1.5, 10)
        out = []
        for i in range(n):
            row, col = divmod(i, cols)
            x = PAD + step * (col + 0.5)
            y = top - step * (row + 0.5)
            out.append((x, y, r))
        return out

    def _frame(self) -> None:
        doc, c, w, h = self.doc, self.doc.canvas, self.card_w, self.card_h
        drive = self.data["drive"]
        c.setLineWidth(0.6)
        c.setStrokeGray(0.55)
        c.roundRect(4, 4, w - 8, h - 8, 6, stroke=1, fill=0)
        text_w = w - 2 * PAD - QR_SIZE - 6
        c.setFillGray(0)
        doc.draw(PAD, h - 20, doc.clip(drive["name"], 10, text_w, bold=True), 10, bold=True)
        date = drive["date_text"]
        doc.draw(PAD, h - 31, doc.clip(date, 7.5, text_w), 7.5)
        c.setFillGray(0.35)
        doc.draw(PAD, h - 43, doc.label("couple").upper(), 6.5, bold=True)
        doc.draw(
            w - PAD - QR_SIZE / 2,
            h - PAD - QR_SIZE - 7,
            doc.label("scan_couple"),
            5.5,
            align="center",
        )
        c.setStrokeGray(0.2)
        c.setLineWidth(0.8)
        for i, (x, y, r) in enumerate(self.circles, start=1):
            c.circle(x, y, r, stroke=1, fill=0)
            c.setFillGray(0.3)
            doc.draw(x, y - r * 0.32, i, max(5.0, r * 0.9), align="center")
        text = reminder(doc, self.data["ranking"])
        c.setFillGray(0.35)
        doc.draw(w / 2, 9, text, doc.fit(text, 6, w - 2 * PAD), align="center")
        c.setFillGray(0)

    def _card(self, card: dict[str, Any]) -> None:
        doc, c, w, h = self.doc, self.doc.canvas, self.card_w, self.card_h
        doc.form("punch-frame", self._frame)
        number = str(card["number"])
        size = doc.fit(number, 40, 86, bold=True)
        doc.draw(PAD, h - 80, number, size, bold=True)
        name_x = PAD + doc.string_width(number, doc.bold, size) + 10
        name_w = w - PAD - QR_SIZE - 6 - name_x
        for i, name in enumerate(card["players"]):
            doc.draw(name_x, h - 58 - i * 14, doc.clip(name, 10.5, name_w), 10.5)
        doc.qr(card["url"], w - PAD - QR_SIZE, h - PAD - QR_SIZE + 2, QR_SIZE)
        won = card.get("won") or []
        if won:
            c.setFillGray(0)
            for game in won:
                if 1 <= game <= len(self.circles):
                    x, y, r = self.circles[game - 1]
                    c.circle(x, y, r, stroke=0, fill=1)
                    c.setFillGray(1)
                    doc.draw(x, y - r * 0.32, game, max(5.0, r * 0.9), bold=True, align="center")
                    c.setFillGray(0)
        if self.data.get("filled"):
            c.setFillColorRGB(0.7, 0.1, 0.1)
            doc.draw(
                w - PAD - QR_SIZE / 2,
                h - PAD - QR_SIZE - 15,
                doc.label("filled"),
                5.5,
                bold=True,
                align="center",
            )
            c.setFillGray(0)

    def _cut_marks(self, cards: int) -> None:
        rows = math.ceil(cards / COLUMNS)
        cols = COLUMNS if cards > 1 else 1
        xs = [MARGIN + i * self.card_w for i in range(cols + 1)]
        top = self.doc.height - MARGIN
        ys = [top - i * self.card_h for i in range(rows, -1, -1)]
        self.doc.cut_marks(xs, ys)

    def _page(self, cards: list[dict[str, Any]]) -> None:
        doc = self.doc
        for i, card in enumerate(cards):
            row, col = divmod(i, COLUMNS)
            x = MARGIN + col * self.card_w
            y = doc.height - MARGIN - (row + 1) * self.card_h
            doc.canvas.saveState()
            doc.canvas.translate(x, y)
            self._card(card)
            doc.canvas.restoreState()
        count = len(cards)
        doc.form(f"punch-cuts-{count}", lambda: self._cut_marks(count))

    def render(self, progress: Progress | None) -> bytes:
        pages = [partial(self._page, group) for group in chunks(self.data["cards"], COLUMNS * ROWS)]
        return self.doc.run(pages, progress)
