"""Table score sheets: one page per table. A row per game of the night (the game printed here
filled in with its two couples and who deals first, the others blank to be written), columns
for the winner and the final points; a tally strip per side to cross off points in fives to
45; and the card ranking of the ruleset (docs/rules.md §1) as a cheat sheet. Everything but the
table number, its QR code, the couples and the page number is one form, drawn once."""

from __future__ import annotations

from functools import partial
from typing import Any

from scoring.printing.pdf.base import SUIT_SYMBOLS, Doc, Progress

MARGIN = 36
QR_SIZE = 58
RED = (0.78, 0.05, 0.1)
# Column widths as shares of the grid: game, stays, arrives, dealt first, winner, points,
# initials.
COLUMNS = ("game", "stays", "arrives", "deals_first", "winner", "points", "initials")
SHARES = (0.09, 0.15, 0.15, 0.15, 0.15, 0.19, 0.12)
TALLY_STEPS = tuple(range(5, 50, 5))


def draw_cards(doc: Doc, x: float, y: float, cards: list[str], size: float, width: float) -> None:
    """Cards in a row within ``width``, red suits in red."""
    c = doc.canvas
    texts = [doc.text(card) for card in cards]
    widths = [doc.string_width(t, doc.regular, size) for t in texts]
    gap = size * 0.5
    if sum(widths) + gap * (len(texts) - 1) > width:
        gap = size * 0.25
        scale = width / (sum(widths) + gap * (len(texts) - 1))
        if scale < 1:
            size, gap = size * scale, gap * scale
            widths = [w * scale for w in widths]
    c.setFont(doc.regular, size)
    for card, text, w in zip(cards, texts, widths, strict=True):
        red = "♥" in card or "♦" in card
        if red:
            c.setFillColorRGB(*RED)
        c.drawString(x, y, text)
        x += w + gap
        if red:
            c.setFillGray(0)


def cheat_sheet(
    doc: Doc,
    ranking: dict[str, Any],
    x: float,
    y: float,
    w: float,
    rules: list[str] | None = None,
) -> float:
    """The card ranking of the ruleset, top-left at (x, y); the height used. A row per suit:
    its order when it is trumps, then when it is not; then the drive's rules in words."""
    c = doc.canvas
    line = 11.5
    height = cheat_sheet_height(rules)
    c.setStrokeGray(0.6)
    c.setLineWidth(0.6)
    c.roundRect(x, y - height, w, height, 5, stroke=1, fill=0)
    doc.draw(x + 8, y - 14, f"{doc.labels['cheat_sheet']} · {ranking['name']}", 9, bold=True)
    size = 8
    names = doc.suits
    head_w = max(doc.string_width(doc.text(f"♦ {n}"), doc.bold, size) for n in names.values()) + 8
    trumps_x = x + 8 + head_w
    inner = w - 16 - head_w
    offsuit_x = trumps_x + inner * 0.53
    c.setFillGray(0.35)
    doc.draw(trumps_x, y - 25, doc.labels["trumps"], 6.5, bold=True)
    doc.draw(offsuit_x, y - 25, doc.labels["not_trumps"], 6.5, bold=True)
    c.setStrokeGray(0.8)
    c.line(offsuit_x - 6, y - 18, offsuit_x - 6, y - height + 16)
    c.setFillGray(0)
    for i, suit in enumerate(("H", "D", "C", "S")):
        row_y = y - 36 - i * line
        if suit in "HD":
            c.setFillColorRGB(*RED)
        doc.draw(x + 8, row_y, f"{SUIT_SYMBOLS[suit]} {names[suit]}", size, bold=True)
        c.setFillGray(0)
        draw_cards(doc, trumps_x, row_y, ranking["trumps"][suit], size, offsuit_x - trumps_x - 14)
        draw_cards(doc, offsuit_x, row_y, ranking["offsuit"][suit], size, x + w - 8 - offsuit_x)
    notes = [doc.labels["aofh_note"]]
    if ranking.get("joker"):
        notes.append(doc.labels["joker_note"])
    if ranking.get("offsuit_aces_high"):
        notes.append(doc.labels["aces_high"])
    c.setFillGray(0.35)
    bottom = y - height + 6
    if rules:
        words = f"{doc.labels['house_rules']}: {' · '.join(rules)}"
        doc.draw(x + 8, bottom, doc.clip(words, 6.5, w - 16), 6.5)
        bottom += 10
    doc.draw(x + 8, bottom, " · ".join(notes), 6.5)
    c.setFillGray(0)
    return height


def cheat_sheet_height(rules: list[str] | None = None) -> float:
    """The card ranking's height, with a line for the drive's rules when there are any."""
    return 22 + 4 * 11.5 + 16 + (10 if rules else 0)


class ScoreSheets:
    def __init__(self, data: dict[str, Any], paper: str) -> None:
        self.doc = Doc(data, paper)
        self.data = data
        self.games: list[int] = list(data["games"])
        self.game = int(data["game"])
        d = self.doc
        self.grid_w = d.width - 2 * MARGIN
        self.xs: list[float] = [MARGIN]
        for share in SHARES:
            self.xs.append(self.xs[-1] + share * self.grid_w)
        self.grid_top = d.height - MARGIN - 84
        self.rules: list[str] = list(data.get("house_rules") or [])
        self.cheat_h = cheat_sheet_height(self.rules)
        self.tally_top = MARGIN + 14 + self.cheat_h + 12 + 74
        rows = len(self.games) + 1
        self.row_h = min(22.0, (self.grid_top - self.tally_top - 10) / rows)

    def _row_y(self, index: int) -> float:
        """The baseline of row ``index`` (0 is the header)."""
        return self.grid_top - (index + 1) * self.row_h + self.row_h * 0.32

    def _frame(self) -> None:
        doc, c = self.doc, self.doc.canvas
        drive = self.data["drive"]
        top = doc.height - MARGIN
        c.setFillGray(0.4)
        doc.draw(MARGIN, top - 10, doc.label("score_sheet").upper(), 8, bold=True)
        c.setFillGray(0)
        name_w = doc.width - 2 * MARGIN - QR_SIZE - 150
        doc.draw(MARGIN, top - 30, doc.clip(drive["name"], 16, name_w, bold=True), 16, bold=True)
        doc.draw(MARGIN, top - 45, drive["date_text"], 9)
        c.setFillGray(0.4)
        doc.draw(
            doc.width - MARGIN - QR_SIZE - 12,
            top - 10,
            doc.label("table").upper(),
            8,
            bold=True,
            align="right",
        )
        c.setFillGray(0)
        # The grid of games.
        rows = len(self.games) + 1
        bottom = self.grid_top - rows * self.row_h
        for i, number in enumerate(self.games, start=1):
            if number == self.game:
                c.setFillGray(0.9)
                c.rect(
                    MARGIN,
                    self.grid_top - (i + 1) * self.row_h,
                    self.grid_w,
                    self.row_h,
                    stroke=0,
                    fill=1,
                )
                c.setFillGray(0)
        c.setFillGray(0.93)
        c.rect(MARGIN, self.grid_top - self.row_h, self.grid_w, self.row_h, stroke=0, fill=1)
        c.setFillGray(0)
        c.setLineWidth(0.5)
        c.setStrokeGray(0.45)
        for i in range(rows + 1):
            y = self.grid_top - i * self.row_h
            c.line(MARGIN, y, MARGIN + self.grid_w, y)
        for x in self.xs:
            c.line(x, self.grid_top, x, bottom)
        head_size = min(8.0, self.row_h * 0.45)
        for key, x0, x1 in zip(COLUMNS, self.xs, self.xs[1:], strict=False):
            label = doc.labels[key]
            doc.draw(
                (x0 + x1) / 2,
                self._row_y(0),
                label,
                doc.fit(label, head_size, x1 - x0 - 4, bold=True),
                bold=True,
                align="center",
            )
        size = min(10.0, self.row_h * 0.55)
        for i, number in enumerate(self.games, start=1):
            doc.draw(
                (self.xs[0] + self.xs[1]) / 2,
                self._row_y(i),
                number,
                size,
                bold=True,
                align="center",
            )
            c.setFillGray(0.6)
            doc.draw((self.xs[5] + self.xs[6]) / 2, self._row_y(i), "–", size, align="center")
            c.setFillGray(0)
        # The tally strips: one per side, points in fives to 45.
        y = self.tally_top
        c.setFillGray(0.4)
        doc.draw(MARGIN, y - 10, doc.labels["tally"], 8, bold=True)
        c.setFillGray(0)
        box_x = MARGIN + 120
        box_w = (doc.width - MARGIN - box_x) / len(TALLY_STEPS)
        for side in range(2):
            row_top = y - 18 - side * 28
            doc.draw(MARGIN, row_top - 17, doc.labels["couple"], 10)
            c.line(MARGIN + 50, row_top - 19, MARGIN + 110, row_top - 19)
            for k, points in enumerate(TALLY_STEPS):
                bx = box_x + k * box_w
                c.rect(bx, row_top - 24, box_w, 24, stroke=1, fill=0)
                c.setFillGray(0.55)
                doc.draw(bx + box_w - 3, row_top - 21, points, 7, align="right")
                c.setFillGray(0)
        cheat_sheet(
            doc, self.data["ranking"], MARGIN, MARGIN + 14 + self.cheat_h, self.grid_w, self.rules
        )
        doc.footer_fixed()

    def _page(self, sheet: dict[str, Any], page: int, pages: int) -> None:
        doc = self.doc
        doc.form("sheet-frame", self._frame)
        top = doc.height - MARGIN
        number = str(sheet["number"])
        right = doc.width - MARGIN - QR_SIZE - 12
        doc.draw(
            right, top - 62, number, doc.fit(number, 52, 140, bold=True), bold=True, align="right"
        )
        doc.qr(sheet["url"], doc.width - MARGIN - QR_SIZE, top - QR_SIZE, QR_SIZE)
        if self.game in self.games:
            i = self.games.index(self.game) + 1
            y = self._row_y(i)
            size = min(10.0, self.row_h * 0.55)
            for col, key in ((1, "stays"), (2, "arrives"), (3, "deals")):
                value = sheet.get(key)
                if value is not None:
                    x = (self.xs[col] + self.xs[col + 1]) / 2
                    doc.draw(x, y, value, size, bold=True, align="center")
        y = self.tally_top
        for side, key in enumerate(("stays", "arrives")):
            value = sheet.get(key)
            if value is not None:
                doc.draw(MARGIN + 80, y - 18 - side * 28 - 17, value, 11, bold=True, align="center")
        doc.footer_page(page, pages)

    def render(self, progress: Progress | None) -> bytes:
        sheets = self.data["tables"]
        total = len(sheets)
        pages = [partial(self._page, s, i, total) for i, s in enumerate(sheets, start=1)]
        return self.doc.run(pages, progress)
