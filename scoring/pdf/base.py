"""What every printed document shares: paper sizes, fonts (DejaVu Sans when installed, so
accents and the suit symbols print; Helvetica otherwise), the labels in English and French,
QR codes drawn from reportlab's own encoder, and the page loop with its progress callback.

Renderers are plain classes: plain data in (``scoring.print_data.build``), PDF bytes out.
Nothing here reads the database.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date, datetime
from functools import cache
from itertools import chain, zip_longest
from operator import itemgetter
from typing import Any

from reportlab import rl_config
from reportlab.graphics.barcode.qrencoder import (
    QRBitBuffer,
    QRCode,
    QRErrorCorrectLevel,
    QRRSBlock,
    QRUtil,
)
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.rl_accel import fp_str
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
        except OSError:  # no DejaVu: the standard fonts (Latin-1 text)
            _fonts = ("Helvetica", "Helvetica-Bold", False)
    return _fonts


LABELS: dict[str, dict[str, str]] = {
    "en": {
        "punch_card": "Punch card",
        "couple": "Couple",
        "couples": "Couples",
        "table": "Table",
        "game": "Game",
        "games": "Games",
        "trumps": "Trumps",
        "red": "red",
        "black": "black",
        "reminder_tail": "off-trump: red high, black low",
        "aces_high": "off-trump aces high",
        "scan": "Scan to report the result",
        "scan_couple": "your page",
        "score_sheet": "Score sheet",
        "stays": "Stays",
        "arrives": "Arrives",
        "deals_first": "Dealt first",
        "winner": "Winner",
        "points": "Final points",
        "initials": "Initials",
        "tally": "Tally (cross off in fives)",
        "cheat_sheet": "Card ranking",
        "trump_suit": "when trumps are",
        "not_trumps": "Not trumps",
        "joker_note": "the joker is always the third-best trump",
        "aofh_note": "the A♥ is always a trump",
        "movement": "Movement",
        "deals": "deals",
        "sits_out": "sits out",
        "by_table": "By table",
        "by_couple": "Couple → table",
        "results": "Results",
        "place": "Place",
        "players": "Players",
        "wins": "Wins",
        "played": "Played",
        "withdrawn": "withdrawn",
        "prizes": "Prizes",
        "booby": "Booby prize",
        "jackpot": "Jackpot",
        "ties": "How ties were settled",
        "no_ties": "No ties to settle.",
        "tie_open": "not settled yet",
        "cookie_jar": "Cookie jar",
        "entrants": "entrants",
        "pot": "pot",
        "drawn_games": "games drawn",
        "carried_over": "carried over",
        "not_drawn": "not drawn yet",
        "empty": "no winner",
        "signed": "Signed off by the organizer",
        "name": "Name",
        "time": "Time",
        "filled": "recorded wins punched",
        "page": "page",
        "of": "of",
        "fold": "fold",
        "no_prize": "—",
        "open": "to be decided",
    },
    "fr": {
        "punch_card": "Carte de pointage",
        "couple": "Équipe",
        "couples": "Équipes",
        "table": "Table",
        "game": "Partie",
        "games": "Parties",
        "trumps": "Atouts",
        "red": "rouge",
        "black": "noir",
        "reminder_tail": "hors atout : rouge haut, noir bas",
        "aces_high": "as hors atout en haut",
        "scan": "Scannez pour inscrire le résultat",
        "scan_couple": "votre page",
        "score_sheet": "Feuille de pointage",
        "stays": "Reste",
        "arrives": "Arrive",
        "deals_first": "Premier donneur",
        "winner": "Gagnant",
        "points": "Points finaux",
        "initials": "Initiales",
        "tally": "Pointage (rayer par cinq)",
        "cheat_sheet": "Valeur des cartes",
        "trump_suit": "quand l'atout est",
        "not_trumps": "Hors atout",
        "joker_note": "le joker est toujours le troisième atout",
        "aofh_note": "l'as de cœur est toujours un atout",
        "movement": "Déplacements",
        "deals": "donne",
        "sits_out": "au repos",
        "by_table": "Par table",
        "by_couple": "Équipe → table",
        "results": "Résultats",
        "place": "Rang",
        "players": "Joueurs",
        "wins": "Victoires",
        "played": "Jouées",
        "withdrawn": "retirée",
        "prizes": "Prix",
        "booby": "Prix citron",
        "jackpot": "Gros lot",
        "ties": "Départage des égalités",
        "no_ties": "Aucune égalité à départager.",
        "tie_open": "pas encore départagée",
        "cookie_jar": "Pot commun",
        "entrants": "participants",
        "pot": "cagnotte",
        "drawn_games": "parties tirées",
        "carried_over": "reporté",
        "not_drawn": "pas encore tiré",
        "empty": "aucun gagnant",
        "signed": "Approuvé par l'organisateur",
        "name": "Nom",
        "time": "Heure",
        "filled": "victoires inscrites poinçonnées",
        "page": "page",
        "of": "de",
        "fold": "plier",
        "no_prize": "—",
        "open": "à décider",
    },
}

MONTHS = {
    "en": [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ],
    "fr": [
        "janvier",
        "février",
        "mars",
        "avril",
        "mai",
        "juin",
        "juillet",
        "août",
        "septembre",
        "octobre",
        "novembre",
        "décembre",
    ],
}

SUIT_NAMES = {
    "en": {"H": "hearts", "D": "diamonds", "C": "clubs", "S": "spades"},
    "fr": {"H": "cœur", "D": "carreau", "C": "trèfle", "S": "pique"},
}
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_PLAIN = str.maketrans({"♣": "C", "♦": "D", "♥": "H", "♠": "S", "→": "->", "œ": "oe"})


def format_date(iso: str, language: str) -> str:
    day = date.fromisoformat(iso[:10])
    month = MONTHS[language][day.month - 1]
    if language == "fr":
        return f"{day.day} {month} {day.year}"
    return f"{month} {day.day}, {day.year}"


def format_time(iso: str, language: str) -> str:
    if not iso:
        return ""
    moment = datetime.fromisoformat(iso)
    return f"{format_date(iso, language)} {moment:%H:%M}"


# The mask is fixed rather than scored eight ways (the encoder's default): any of the eight
# masks decodes, and scoring them is nine tenths of the time a code takes in pure Python.
QR_MASK = 2


# Reed-Solomon over GF(256) (polynomial 0x11d), as QR codes use it. reportlab's encoder builds
# the generator polynomial again for every block with its general polynomial class; these
# tables and a cached generator give the same code words ten times faster.
_EXP = [0] * 512
_LOG = [0] * 256
_x = 1
for _i in range(255):
    _EXP[_i] = _x
    _LOG[_x] = _i
    _x <<= 1
    if _x & 0x100:
        _x ^= 0x11D
for _i in range(255, 512):
    _EXP[_i] = _EXP[_i - 255]


@cache
def _generator_logs(count: int) -> tuple[int, ...]:
    """The logs of the generator polynomial's coefficients (after the leading 1)."""
    poly = [1]
    for i in range(count):
        out = [0] * (len(poly) + 1)
        for j, coef in enumerate(poly):
            out[j] ^= coef
            if coef:
                out[j + 1] ^= _EXP[_LOG[coef] + i]
        poly = out
    return tuple(_LOG[c] for c in poly[1:])


@cache
def _products(count: int) -> tuple[int, ...]:
    """For each byte value, the generator's coefficients times it, packed in one integer
    (``count`` bytes, big end first): the remainder then updates a byte at a time."""
    logs = _generator_logs(count)
    out = [0]
    for factor in range(1, 256):
        lf = _LOG[factor]
        out.append(int.from_bytes(bytes(_EXP[lf + lg] for lg in logs), "big"))
    return tuple(out)


def _error_words(data: list[int], count: int) -> list[int]:
    products = _products(count)
    shift, keep = 8 * (count - 1), (1 << 8 * count) - 1
    rem = 0
    for byte in data:
        rem = ((rem << 8) & keep) ^ products[byte ^ (rem >> shift)]
    return list(rem.to_bytes(count, "big"))


class _Bits(QRBitBuffer):
    """``QRBitBuffer`` with the bits kept in one integer: ``put`` takes a field at once rather
    than bit by bit (the same bytes, read from ``buffer``)."""

    def __init__(self) -> None:
        self.value = 0
        self.length = 0

    def put(self, num: int, length: int) -> None:
        self.value = (self.value << length) | (num & ((1 << length) - 1))
        self.length += length

    def putBit(self, bit: bool) -> None:
        self.put(1 if bit else 0, 1)

    @property
    def buffer(self) -> bytes:
        pad = -self.length % 8
        return (self.value << pad).to_bytes((self.length + pad) // 8, "big")


def _code_words(code: QRCode) -> list[int]:
    """The data and error correction words of a code, interleaved (``QRCode.createData``)."""
    blocks = QRRSBlock.getRSBlocks(code.version, code.errorCorrectLevel)
    buffer = _Bits()
    for data in code.dataList:
        data.write(buffer, code.version)
    capacity = sum(block.dataCount for block in blocks) * 8
    if buffer.getLengthInBits() > capacity:
        raise ValueError("QR code length overflow")
    if buffer.getLengthInBits() + 4 <= capacity:
        buffer.put(0, 4)
    while buffer.getLengthInBits() % 8:
        buffer.putBit(False)
    pads = (QRCode.PAD0, QRCode.PAD1)
    k = 0
    while buffer.getLengthInBits() < capacity:
        buffer.put(pads[k % 2], 8)
        k += 1
    data = buffer.buffer
    words, ecc, offset = [], [], 0
    for block in blocks:
        chunk = list(data[offset : offset + block.dataCount])
        offset += block.dataCount
        words.append(chunk)
        ecc.append(_error_words(chunk, block.totalCount - block.dataCount))
    return [
        w for group in chain(zip_longest(*words), zip_longest(*ecc)) for w in group if w is not None
    ]


@cache
def _data_places(version: int, mask: int) -> tuple[tuple[int, int, bool], ...]:
    """(row, column, mask bit) of every data module of ``version`` in the order
    ``QRCode.mapData`` fills them: its own position iterator and mask function, once."""
    code = QRCode(version, QRErrorCorrectLevel.M)
    code.moduleCount = version * 4 + 17
    masked = QRUtil.getMask(mask)
    return tuple((row, col, bool(masked(row, col))) for col, row in code._dataPosIterator())


class _Frame(QRCode):
    """reportlab's ``QRCode`` drawing the function patterns only (finders, timing, format
    and version information): ``mapData`` leaves the data modules alone."""

    def mapData(self, data: list[int], maskPattern: int) -> None:
        pass


_BYTE_BITS = [bytes(b >> s & 1 for s in (7, 6, 5, 4, 3, 2, 1, 0)) for b in range(256)]


@cache
def _layout(version: int, mask: int) -> tuple[int, bytes, int, Callable[[bytes], Any]]:
    """For ``version`` and ``mask``: the data module count, the function patterns (the
    encoder's own, one byte a module, row after row), the mask bits of the data modules in
    the encoder's order as one integer, and a getter that lays the function patterns
    followed by the data bits out as the grid, row after row."""
    frame = _Frame(version, QRErrorCorrectLevel.M)
    frame.dataCache = []
    frame.makeImpl(False, mask)
    size = frame.moduleCount
    fixed = bytes(bool(m) for row in frame.modules for m in row)
    places = _data_places(version, mask)
    order = list(range(size * size))
    for k, (row, col, _flip) in enumerate(places):
        order[row * size + col] = size * size + k
    flips = int.from_bytes(bytes(flip for _row, _col, flip in places), "big")
    return len(places), fixed, flips, itemgetter(*order)


def _qr_modules(text: str) -> list[bytes]:
    """The rows of the code (one byte, 0 or 1, a module), as ``QRCode.makeImpl`` lays them
    out: its function patterns, then the data bits in its order through its mask."""
    code = QRCode(None, QRErrorCorrectLevel.M)
    code.addData(text)
    code.version = code.calculate_version()
    count, fixed, flips, grid = _layout(code.version, QR_MASK)
    bits = b"".join([_BYTE_BITS[w] for w in _code_words(code)]).ljust(count, b"\0")[:count]
    data = (int.from_bytes(bits, "big") ^ flips).to_bytes(count, "big")
    cells = bytes(grid(fixed + data))
    size = code.version * 4 + 17
    return [cells[i : i + size] for i in range(0, size * size, size)]


def qr_matrix(text: str) -> list[list[bool]]:
    """The modules of a QR code (medium error correction), from reportlab's encoder."""
    return [[bool(m) for m in row] for row in _qr_modules(text)]


_DARK_RUN = re.compile(rb"\x01+")


class _RunOps(dict[tuple[int, int], str]):
    """The ``re`` operator of a run of dark modules (start, end) in row ``y``, made once."""

    def __init__(self, y: int) -> None:
        super().__init__()
        self.y = y

    def __missing__(self, span: tuple[int, int]) -> str:
        op = self[span] = f"{span[0]} {self.y} {span[1] - span[0]} 1 re"
        return op


_RUN_OPS = [_RunOps(y) for y in range(40 * 4 + 17)]  # every row of the largest version


def qr_path(text: str) -> tuple[int, str]:
    """(modules a side, the PDF operators filling its dark modules) in module units, y up:
    a rectangle per run of dark modules in a row."""
    modules = _qr_modules(text)
    size = len(modules)
    ops = [
        row_ops[run.span()]
        for row, row_ops in zip(modules, reversed(_RUN_OPS[:size]), strict=True)
        for run in _DARK_RUN.finditer(row)
    ]
    ops.append("f")
    return size, "\n".join(ops)


@contextmanager
def binary_streams() -> Iterator[None]:
    """reportlab's ``useA85`` off for the duration (it is read as pages are written)."""
    saved = rl_config.useA85
    rl_config.useA85 = 0
    try:
        yield
    finally:
        rl_config.useA85 = saved


class Doc:
    """One document being drawn: the canvas, the page size, fonts, labels and the page loop."""

    def __init__(self, data: dict[str, Any], paper: str) -> None:
        if paper not in PAPER_SIZES:
            raise ValueError(f"unknown paper {paper!r}; choose letter or a4")
        self.data = data
        self.paper = paper
        self.width, self.height = PAPER_SIZES[paper]
        self.regular, self.bold, self.unicode = fonts()
        self.language = data.get("language") or "en"
        if self.language not in LABELS:
            self.language = "en"
        self.labels = LABELS[self.language]
        self.buffer = io.BytesIO()
        drive = data.get("drive", {})
        self.canvas = Canvas(
            self.buffer,
            pagesize=(self.width, self.height),
            pageCompression=1,
            initialFontName=self.regular,
        )
        self.canvas.setTitle(self.text(f"{drive.get('name', '')} — {data.get('document', '')}"))
        self.canvas.setAuthor(self.text(drive.get("club", "")))
        self.canvas.setCreator("fortyfives")
        self._forms: set[str] = set()
        self._qr: dict[str, tuple[int, str]] = {}

    # --- text -----------------------------------------------------------------------------

    def text(self, value: Any) -> str:
        """Text as the font can print it (suit symbols spelt out with the standard fonts)."""
        value = "" if value is None else str(value)
        return value if self.unicode else value.translate(_PLAIN)

    def label(self, key: str) -> str:
        return self.text(self.labels[key])

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
        c = self.canvas
        font = font or (self.bold if bold else self.regular)
        if (
            font != c._fontname or size != c._fontsize
        ):  # setFont is not free (a BT … ET for Helvetica)
            c.setFont(font, size)
        text = self.text(value)
        if align == "center":
            c.drawCentredString(x, y, text)
        elif align == "right":
            c.drawRightString(x, y, text)
        else:
            c.drawString(x, y, text)

    def fit(self, value: Any, size: float, width: float, *, bold: bool = False) -> float:
        """The font size (at most ``size``) at which ``value`` fits in ``width``."""
        font = self.bold if bold else self.regular
        w = pdfmetrics.stringWidth(self.text(value), font, size)
        return size if w <= width else max(4.0, size * width / w)

    def clip(self, value: Any, size: float, width: float, *, bold: bool = False) -> str:
        """``value`` cut with an ellipsis to fit ``width`` at ``size``."""
        font = self.bold if bold else self.regular
        text = self.text(value)
        if pdfmetrics.stringWidth(text, font, size) <= width:
            return text
        # The longest prefix that fits with "…" after it: widths grow with the prefix, so a
        # binary search finds the one that cutting a character at a time would.
        low, high = 0, len(text)
        while low < high:
            mid = (low + high + 1) // 2
            if pdfmetrics.stringWidth(text[:mid] + "…", font, size) > width:
                high = mid - 1
            else:
                low = mid
        return text[:low] + ("…" if self.unicode else "...")

    # --- drawing helpers ------------------------------------------------------------------

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
        quiet zone of 2 modules included)."""
        found = self._qr.get(url)
        if found is None:
            found = self._qr[url] = qr_path(url)
        modules, path = found
        module = size / (modules + 4)
        # What saveState, a white rect, translate, scale and restoreState on the canvas
        # write, as one literal (the canvas's own state is left as it was, as Q restores).
        self.canvas.addLiteral(
            f"q\n1 g\nn {fp_str(x, y, size, size)} re f*\n0 g\n"
            f"{fp_str(module, 0, 0, module, x + 2 * module, y + 2 * module)} cm\n{path}\nQ"
        )

    def cut_marks(self, xs: list[float], ys: list[float], length: float = 10) -> None:
        """Short cut marks outside the grid at every column and row line."""
        c = self.canvas
        c.saveState()
        c.setLineWidth(0.4)
        c.setStrokeGray(0.3)
        left, right, bottom, top = xs[0], xs[-1], ys[0], ys[-1]
        for x in xs:
            c.line(x, top + 3, x, top + 3 + length)
            c.line(x, bottom - 3, x, bottom - 3 - length)
        for y in ys:
            c.line(left - 3, y, left - 3 - length, y)
            c.line(right + 3, y, right + 3 + length, y)
        c.restoreState()

    def footer(self, page: int, pages: int) -> None:
        drive = self.data.get("drive", {})
        parts = [drive.get("name", ""), format_date(drive.get("date", "1970-01-01"), self.language)]
        self.canvas.setFillGray(0.4)
        self.draw(36, 20, " · ".join(p for p in parts if p), 7)
        self.draw(
            self.width - 36,
            20,
            f"{self.label('page')} {page} {self.label('of')} {pages}",
            7,
            align="right",
        )
        self.canvas.setFillGray(0)

    # --- the page loop --------------------------------------------------------------------

    def run(self, pages: list[Callable[[], None]], progress: Progress | None) -> bytes:
        """Draw the pages, calling ``progress(done, total)`` after each, and save. Streams are
        written compressed in binary, not ASCII85 (reportlab's default: a quarter bigger and
        a third of the render time in pure Python)."""
        total = len(pages)
        if total == 0:
            pages = [self.empty_page]
            total = 1
        with binary_streams():
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
