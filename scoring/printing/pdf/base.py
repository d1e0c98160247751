"""What every printed document shares: paper sizes, fonts (DejaVu Sans when installed, so
accents and the suit symbols print; Helvetica otherwise), the labels (in the data, in the
document's language), QR codes from segno's encoder, and the page loop with its progress
callback.

Every string goes through ``Doc.text`` on its way into a page: a character the fonts cannot
draw (an emoji in a name, past DejaVu's cmap or outside the standard fonts' WinAnsi encoding)
becomes a visible replacement, U+FFFD with DejaVu and "?" with the standard fonts, in the
glyphs drawn and in the text layer alike (``printable``); then the canvas draws it
(``drawString`` and its centred and right-aligned kin, in ``Doc.draw``).

Renderers are plain classes: plain data in (``scoring.printing.data.build``), PDF bytes out.
Nothing here reads the database. Only reportlab's and segno's public APIs are used: what is
the same on every page or card of a document is drawn once as a form (``Doc.form``) and placed
on each; each distinct QR code is drawn once a document as a form too and placed, scaled,
wherever it is printed (``Doc.qr``); the variable text is drawn per card or page. Streams are
compressed by the canvas (``Canvas(pageCompression=1)``); nothing process-wide changes while a
document renders, so renders may run in threads.
"""

from __future__ import annotations

import io
import os
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from itertools import groupby
from typing import Any

import segno
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

Progress = Callable[[int, int], None]

PAPER_SIZES = {"letter": LETTER, "a4": A4}
DEJAVU = "/usr/share/fonts/truetype/dejavu"
MM = 72 / 25.4

_fonts: tuple[str, str, bool] | None = None


def fonts() -> tuple[str, str, bool]:
    """(regular, bold, unicode): DejaVu Sans registered once, else the standard Helvetica."""
    global _fonts
    if _fonts is None:
        regular = os.path.join(DEJAVU, "DejaVuSans.ttf")
        bold = os.path.join(DEJAVU, "DejaVuSans-Bold.ttf")
        try:
            pdfmetrics.registerFont(TTFont("FFSans", regular))
            pdfmetrics.registerFont(TTFont("FFSans-Bold", bold))
            _fonts = ("FFSans", "FFSans-Bold", True)
        except OSError:  # no DejaVu: the standard fonts (WinAnsi text; ``printable``)
            _fonts = ("Helvetica", "Helvetica-Bold", False)
    return _fonts


SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_PLAIN = str.maketrans({"♣": "C", "♦": "D", "♥": "H", "♠": "S", "→": "->", "œ": "oe"})


def _modifier(code: int) -> bool:
    """A character that only changes the one before it or joins it to the next (variation
    selectors, the zero-width joiner of emoji sequences, skin tones, emoji tags)."""
    return (
        0x200B <= code <= 0x200D
        or 0xFE00 <= code <= 0xFE0F
        or 0x1F3FB <= code <= 0x1F3FF
        or 0xE0020 <= code <= 0xE007F
        or 0xE0100 <= code <= 0xE01EF
    )


class _Printable(dict[int, str]):
    """A ``str.translate`` table for a document's fonts, filled as characters are met: a
    character both fonts draw stays itself, any other becomes the replacement. A character
    that only modifies its neighbours (``_modifier``) is left out: it asks for an emoji's
    presentation or joins emoji into one, which a text font does not do (the emoji
    themselves are replaced, one replacement each)."""

    def __init__(self, draws: Callable[[str], bool], replacement: str, fixed: dict[int, str]):
        super().__init__(fixed)
        self.draws = draws
        self.replacement = replacement

    def __missing__(self, code: int) -> str:
        char = chr(code)
        if _modifier(code):
            value = ""
        elif unicodedata.category(char) == "Cc":  # a control byte: no font draws it
            value = self.replacement
        else:
            value = char if self.draws(char) else self.replacement
        self[code] = value
        return value


_PRINTABLE: dict[tuple[str, str], _Printable] = {}


def printable(regular: str, bold: str) -> _Printable:
    """The translate table of the registered fonts ``regular`` and ``bold`` (made once): for
    TrueType fonts, the characters in both cmaps (``face.charToGlyph``), the others replaced by
    U+FFFD (DejaVu draws it, a diamond with a question mark); for the standard Type 1 fonts,
    the characters of their encoding (WinAnsi), the suit symbols spelt out (``_PLAIN``), the
    others replaced by "?"."""
    table = _PRINTABLE.get((regular, bold))
    if table is None:
        fonts = [pdfmetrics.getFont(regular), pdfmetrics.getFont(bold)]
        if all(isinstance(f, TTFont) for f in fonts):
            cmaps = [f.face.charToGlyph for f in fonts]  # type: ignore[attr-defined]  # missing in types-reportlab
            covered = frozenset(cmaps[0]).intersection(cmaps[1])

            def draws(char: str) -> bool:
                return ord(char) in covered

            replacement = "\ufffd" if ord("\ufffd") in covered else "?"
            table = _Printable(draws, replacement, {})
        else:
            encodings = {f.encName for f in fonts}

            def draws(char: str) -> bool:
                try:
                    for encoding in encodings:
                        char.encode(encoding)
                except UnicodeEncodeError:
                    return False
                return True

            table = _Printable(draws, "?", _PLAIN)
        table = _PRINTABLE.setdefault((regular, bold), table)
    return table


# QR codes come from segno (``segno.make_qr``), medium error correction (not raised when a
# higher level would fit: a code keeps its size), with a quiet zone of QR_BORDER modules. The
# mask is fixed rather than scored eight ways: any mask decodes, and scoring them is five sixths
# of the time a code takes (7.2 ms a code against 1.2 ms with the mask fixed; reportlab's
# encoder took 1.7 ms). Each code is drawn as canvas rectangles over its dark modules
# (``qr_rects``, ``Doc.qr``): a big night's set (596 pages, 750 distinct codes) renders in
# 1.5–1.7 s against 1.8–2.4 s with reportlab's encoder, run in turn on the shared test machine
# (users' target 10 s; BENCHMARKS.md, "Printing").
QR_BORDER = 2
QR_MASK = 2
# A worker keeps the rectangles of its last QR_CACHE codes: a table's code is on its table
# card and on every game's score sheets.
QR_CACHE = 2048


def qr_code(text: str) -> segno.QRCode:
    """``text``'s QR code as segno makes it: medium error correction, the mask QR_MASK. The
    printed documents draw its modules; the home page shows it as SVG, the hall's terminal in
    half blocks."""
    return segno.make_qr(text, error="m", boost_error=False, mask=QR_MASK)


def qr_modules(text: str) -> list[list[bool]]:
    """The modules of ``text``'s QR code (``qr_code``), row after row from the top, dark as
    True, without the quiet zone."""
    return [[bool(module) for module in row] for row in qr_code(text).matrix]


@lru_cache(maxsize=QR_CACHE)
def qr_rects(text: str) -> tuple[int, tuple[tuple[int, int, int, int], ...]]:
    """(modules a side with the quiet zone, the rectangles (x, y, width, height) covering
    the dark modules once) in module units, y up: the runs of dark modules in each row, a run
    the same in the rows below it taking them in."""
    modules = qr_modules(text)
    side = len(modules) + 2 * QR_BORDER
    rects = []
    above: dict[tuple[int, int], int] = {}  # (first column, length) → its first row
    for r, row in enumerate([*modules, []]):  # the empty row closes the last runs
        runs, col = {}, QR_BORDER
        for dark, run in groupby(row):
            count = len(list(run))
            if dark:
                runs[col, count] = above.pop((col, count), r)
            col += count
        for (col, count), first in above.items():
            rects.append((col, side - QR_BORDER - r, count, r - first))
        above = runs
    return side, tuple(rects)


class Doc:
    """One document being drawn: the canvas, the page size, fonts, labels and the page loop.

    Text goes through the canvas (``drawString``, ``drawCentredString``, ``drawRightString``)
    after ``text`` has made it printable; fixed parts and QR codes are forms."""

    def __init__(self, data: dict[str, Any], paper: str) -> None:
        if paper not in PAPER_SIZES:
            raise ValueError(f"unknown paper {paper!r}; choose letter or a4")
        self.data = data
        self.paper = paper
        self.width, self.height = PAPER_SIZES[paper]
        self.regular, self.bold, self.unicode = fonts()
        self._printable = printable(self.regular, self.bold)
        # The words come with the data, in the document's language (scoring.printing.labels).
        self.language = data.get("language") or "en"
        self.labels: dict[str, str] = data.get("labels", {})
        self.methods: dict[str, str] = data.get("methods", {})
        self.suits: dict[str, str] = data.get("suits", {})
        self.buffer = io.BytesIO()
        drive = data.get("drive", {})
        self.canvas = Canvas(
            self.buffer,
            pagesize=(self.width, self.height),
            pageCompression=1,
            initialFontName=self.regular,  # type: ignore[arg-type]  # a name: types-reportlab says a size
        )
        self.canvas.setTitle(self.text(f"{drive.get('name', '')} — {data.get('document', '')}"))
        self.canvas.setAuthor(self.text(drive.get("club", "")))
        self.canvas.setCreator("fortyfives")
        self._forms: set[str] = set()
        self._codes: dict[str, tuple[str, int]] = {}  # a QR code's text → (form, modules)

    # --- text -----------------------------------------------------------------------------

    def text(self, value: Any) -> str:
        """Text as the fonts can print it: what they cannot draw replaced (``printable``),
        suit symbols spelt out with the standard fonts. Plain ASCII, most of what is printed,
        passes as it is."""
        text = "" if value is None else str(value)
        if text.isascii() and text.isprintable():
            return text
        return text.translate(self._printable)

    def label(self, key: str) -> str:
        return self.text(self.labels[key])

    def string_width(self, text: str, font: str, size: float) -> float:
        return pdfmetrics.stringWidth(text, font, size)

    def draw(
        self,
        x: float,
        y: float,
        value: Any,
        size: float = 10,
        *,
        bold: bool = False,
        align: str = "left",
        font: str | None = None,
    ) -> None:
        """``value`` made printable (``text``), drawn by the canvas in the fill colour set."""
        c = self.canvas
        c.setFont(font or (self.bold if bold else self.regular), size)
        show = {"center": c.drawCentredString, "right": c.drawRightString}.get(align, c.drawString)
        show(x, y, self.text(value))

    def fit(self, value: Any, size: float, width: float, *, bold: bool = False) -> float:
        """The font size (at most ``size``) at which ``value`` fits in ``width``."""
        w = self.string_width(self.text(value), self.bold if bold else self.regular, size)
        return size if w <= width else max(4.0, size * width / w)

    def clip(self, value: Any, size: float, width: float, *, bold: bool = False) -> str:
        """``value`` cut with an ellipsis to fit ``width`` at ``size``."""
        font = self.bold if bold else self.regular
        text = self.text(value)
        if self.string_width(text, font, size) <= width:
            return text
        # The longest prefix that fits with "…" after it: widths grow with the prefix, so a
        # binary search finds the one that cutting a character at a time would.
        low, high = 0, len(text)
        while low < high:
            mid = (low + high + 1) // 2
            if self.string_width(text[:mid] + "…", font, size) > width:
                high = mid - 1
            else:
                low = mid
        return text[:low] + ("…" if self.unicode else "...")

    # --- drawing helpers ------------------------------------------------------------------

    def gray(self, level: float) -> None:
        self.canvas.setFillGray(level)

    def band(self, x: float, y: float, width: float, height: float, level: float) -> None:
        """A filled gray rectangle (a table's alternate rows); the fill goes back to black."""
        c = self.canvas
        c.setFillGray(level)
        c.rect(x, y, width, height, stroke=0, fill=1)
        c.setFillGray(0)

    def form(self, name: str, draw: Callable[[], None]) -> None:
        """Draw ``name`` (a fixed part of a page) once as a form, then reuse it."""
        if name not in self._forms:
            self.canvas.beginForm(name)
            draw()
            self.canvas.endForm()
            self._forms.add(name)
        self.canvas.doForm(name)

    def qr(self, url: str, x: float, y: float, size: float) -> None:
        """A QR code for ``url`` with its lower-left corner at (x, y), ``size`` wide (a white
        quiet zone of QR_BORDER modules included): drawn once a document as a form, in module
        units, and placed here scaled."""
        c = self.canvas
        form = self._codes.get(url)
        if form is None:
            side, rects = qr_rects(url)
            form = self._codes[url] = (f"qr{len(self._codes)}", side)
            c.beginForm(form[0], 0, 0, side, side)
            c.setFillGray(1)
            c.rect(0, 0, side, side, stroke=0, fill=1)
            c.setFillGray(0)
            path = c.beginPath()
            for rect in rects:
                path.rect(*rect)
            c.drawPath(path, stroke=0, fill=1)
            c.endForm()
        name, side = form
        c.saveState()
        c.translate(x, y)
        c.scale(size / side, size / side)
        c.doForm(name)
        c.restoreState()

    def cut_marks(self, xs: list[float], ys: list[float], length: float = 10) -> None:
        """Short cut marks outside the grid at every column and row line, as one path."""
        left, right, bottom, top = xs[0], xs[-1], ys[0], ys[-1]
        lines = []
        for x in xs:
            lines.append((x, top + 3, x, top + 3 + length))
            lines.append((x, bottom - 3, x, bottom - 3 - length))
        for y in ys:
            lines.append((left - 3, y, left - 3 - length, y))
            lines.append((right + 3, y, right + 3 + length, y))
        c = self.canvas
        c.saveState()
        c.setLineWidth(0.4)
        c.setStrokeGray(0.3)
        c.lines(lines)
        c.restoreState()

    def footer_fixed(self) -> None:
        """The footer's left part: the drive and its date (the same on every page)."""
        drive = self.data.get("drive", {})
        parts = [drive.get("name", ""), drive.get("date_text", "")]
        self.gray(0.4)
        self.draw(36, 20, " · ".join(p for p in parts if p), 7)
        self.gray(0)

    def footer_page(self, page: int, pages: int) -> None:
        """The footer's right part: "page 3 of 12"."""
        self.gray(0.4)
        self.draw(
            self.width - 36,
            20,
            f"{self.label('page')} {page} {self.label('of')} {pages}",
            7,
            align="right",
        )
        self.gray(0)

    def footer(self, page: int, pages: int) -> None:
        self.footer_fixed()
        self.footer_page(page, pages)

    # --- the page loop --------------------------------------------------------------------

    def run(self, pages: Sequence[Callable[[], None]], progress: Progress | None) -> bytes:
        """Draw the pages, calling ``progress(done, total)`` after each, and save."""
        total = len(pages)
        if total == 0:
            pages = [self.empty_page]
            total = 1
        for done, page in enumerate(pages, start=1):
            page()
            self.canvas.showPage()
            if progress is not None:
                progress(done, total)
        self.canvas.save()
        return self.buffer.getvalue()

    def empty_page(self) -> None:
        drive = self.data.get("drive", {})
        self.draw(
            self.width / 2, self.height / 2, drive.get("name", ""), 18, bold=True, align="center"
        )
        self.draw(self.width / 2, self.height / 2 - 24, "—", 14, align="center")


def chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def reminder(doc: Doc, ranking: dict[str, Any]) -> str:
    """A one-line ranking reminder: the top trumps, then "red high, black low"."""
    top = ["5", "J"]
    if ranking.get("joker"):
        top.append("Joker")
    top += ["A♥", "A", "K", "Q"]
    tail = doc.labels["aces_high"] if ranking.get("offsuit_aces_high") else ""
    parts = [f"{doc.labels['trumps']}: {' '.join(top)} …", doc.labels["reminder_tail"]]
    if tail:
        parts.append(tail)
    return doc.text(" · ".join(parts))
