"""Punch cards: six to a page (two across, three down; four, two down, for a night of more
than 40 games) with cut marks. Each card shows the drive, the date, the couple number large,
both names, a circle per game to punch, a QR code to the couple's page and the ranking
reminder in the bottom margin. Everything a player reads is 12 pt or more, at arm's length
(the hole numbers and the reminder too: the reminder wraps). The frame (border, labels,
circles, reminder) is the same on every card, and the cut marks on every full page: each is
drawn once as a form. A filled card shows the recorded wins as punched (black) circles."""

from __future__ import annotations

import math
from functools import partial
from typing import Any

from reportlab.lib.utils import simpleSplit

from scoring.printing.pdf.base import Doc, Progress, chunks, reminder

COLUMNS = 2
# Three cards down, or two for a long night, so that a hole holds its number at READ.
ROWS, LONG_NIGHT_ROWS, LONG_NIGHT = 3, 2, 40
MARGIN = 24
PAD = 10
QR_SIZE = 64
READ = 12.0  # what a player reads at arm's length, in points
LINE = 14.0  # a line of READ text
HEAD = 106.0  # the card's head (drive, date, number, names, QR code) above the holes


class PunchCards:
    def __init__(self, data: dict[str, Any], paper: str) -> None:
        self.doc = Doc(data, paper)
        self.data = data
        self.games = int(data["drive"]["games"])
        self.rows = ROWS if self.games <= LONG_NIGHT else LONG_NIGHT_ROWS
        self.card_w = (self.doc.width - 2 * MARGIN) / COLUMNS
        self.card_h = (self.doc.height - 2 * MARGIN) / self.rows
        text = reminder(self.doc, data["ranking"])
        self.reminder = simpleSplit(text, self.doc.regular, READ, self.card_w - 2 * PAD)
        # A filled card says so on a line of its own under the names.
        self.head = HEAD + (LINE if data.get("filled") else 0)
        self.circles = self._circle_layout()

    def _circle_layout(self) -> list[tuple[float, float, float]]:
        """(x, y, r) of the circle of each game, in the card's coordinates."""
        w, h, n = self.card_w, self.card_h, self.games
        top, bottom = h - self.head, 10 + LINE * len(self.reminder)
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
        doc.draw(PAD, h - 22, doc.clip(drive["name"], READ, text_w, bold=True), READ, bold=True)
        date = drive["date_text"]
        doc.draw(PAD, h - 38, doc.clip(date, READ, text_w), READ)
        c.setFillGray(0.35)
        doc.draw(PAD, h - 54, doc.label("couple").upper(), READ, bold=True)
        doc.draw(
            w - PAD - QR_SIZE / 2,
            h - PAD - QR_SIZE - 12,
            doc.clip(doc.label("scan_couple"), READ, QR_SIZE + PAD),
            READ,
            align="center",
        )
        c.setStrokeGray(0.2)
        c.setLineWidth(0.8)
        for i, (x, y, r) in enumerate(self.circles, start=1):
            c.circle(x, y, r, stroke=1, fill=0)
            c.setFillGray(0.3)
            doc.draw(x, y - READ * 0.36, i, READ, align="center")
        c.setFillGray(0.35)
        for i, line in enumerate(reversed(self.reminder)):
            doc.draw(w / 2, 9 + i * LINE, line, READ, align="center")
        c.setFillGray(0)

    def _card(self, card: dict[str, Any]) -> None:
        doc, c, w, h = self.doc, self.doc.canvas, self.card_w, self.card_h
        doc.form("punch-frame", self._frame)
        number = str(card["number"])
        size = doc.fit(number, 40, 86, bold=True)
        doc.draw(PAD, h - 94, number, size, bold=True)
        name_x = PAD + doc.string_width(number, doc.bold, size) + 10
        name_w = w - PAD - QR_SIZE - 6 - name_x
        for i, name in enumerate(card["players"]):
            doc.draw(name_x, h - 72 - i * 16, doc.clip(name, READ, name_w), READ)
        doc.qr(card["url"], w - PAD - QR_SIZE, h - PAD - QR_SIZE + 2, QR_SIZE)
        won = card.get("won") or []
        if won:
            c.setFillGray(0)
            for game in won:
                if 1 <= game <= len(self.circles):
                    x, y, r = self.circles[game - 1]
                    c.circle(x, y, r, stroke=0, fill=1)
                    c.setFillGray(1)
                    doc.draw(x, y - READ * 0.36, game, READ, bold=True, align="center")
                    c.setFillGray(0)
        if self.data.get("filled"):
            c.setFillColorRGB(0.7, 0.1, 0.1)
            doc.draw(w - PAD, h - HEAD - 4, doc.label("filled"), READ, bold=True, align="right")
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
        per_page = COLUMNS * self.rows
        pages = [partial(self._page, group) for group in chunks(self.data["cards"], per_page)]
        return self.doc.run(pages, progress)
