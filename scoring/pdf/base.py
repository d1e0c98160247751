"""What every printed document shares: paper sizes, fonts (DejaVu Sans when installed, so
accents and the suit symbols print; Helvetica otherwise), the labels in English and French,
QR codes drawn from reportlab's own encoder, and the page loop with its progress callback.

Every string goes through ``Doc.text`` on its way into a page: a character the fonts cannot
draw (an emoji in a name, past DejaVu's cmap or outside the standard fonts' WinAnsi encoding)
becomes a visible replacement, U+FFFD with DejaVu and "?" with the standard fonts, in the
glyphs drawn and in the text layer alike (``printable``).

Renderers are plain classes: plain data in (``scoring.print_data.build``), PDF bytes out.
Nothing here reads the database. What is the same on every page or card of a document is
drawn once as a reportlab form (``Doc.form``) and placed on each; only the variable parts
(numbers, names, QR codes) are drawn per card or page, as operators written straight into
the page (``Doc.draw``, ``Doc.qr``). Each canvas (``PdfCanvas``) writes its own streams
Flate-compressed, so a render changes nothing process-wide and renders may run in threads.
"""

from __future__ import annotations

import io
import os
import unicodedata
import zlib
from collections.abc import Callable, Iterator
from datetime import date, datetime
from functools import cache, lru_cache, reduce
from itertools import repeat
from operator import getitem, xor
from typing import Any

from reportlab.graphics.barcode.qrencoder import (
    QR8bitByte,
    QRAlphaNum,
    QRBitBuffer,
    QRCode,
    QRErrorCorrectLevel,
    QRNumber,
    QRRSBlock,
    QRUtil,
)
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.rl_accel import escapePDF
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfdoc import PDFFormXObject, PDFPage, PDFStream, PDFStreamFilterZCompress
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
            cmaps = [f.face.charToGlyph for f in fonts]  # type: ignore[attr-defined]
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
# the generator polynomial again for every block with its general polynomial class; log
# tables, a cached generator and tables of each data word's part in the remainder give the
# same code words (the tests compare every module with the encoder's) in a few C calls.
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


@cache
def _remainders(length: int, count: int) -> tuple[tuple[int, ...], ...]:
    """For each place of a block of ``length`` data words, what a word of each value there
    adds to the ``count`` error correction words (as one integer). The remainder is linear in
    the data (over GF(2)), so a block's is the XOR of its words' parts: the last word's part
    is the product table itself, each earlier one the next's moved on by a zero word."""
    products = _products(count)
    shift, keep = 8 * (count - 1), (1 << 8 * count) - 1
    tables = [products]
    for _ in range(length - 1):
        tables.append(tuple(((rem << 8) & keep) ^ products[rem >> shift] for rem in tables[-1]))
    return tuple(reversed(tables))


def _error_words(data: bytes, count: int) -> bytes:
    """The ``count`` error correction words of a block (polynomial division by the code's
    generator), from the parts of its words."""
    return reduce(xor, map(getitem, _remainders(len(data), count), data)).to_bytes(count, "big")


def _interleave(blocks: list[bytes]) -> bytes:
    """The blocks' words, the first of each block, then the second, … (shorter blocks
    end early)."""
    count = len(blocks)
    if count == 1:
        return blocks[0]
    short = min(map(len, blocks))
    out = bytearray(short * count)
    for k, block in enumerate(blocks):
        out[k::count] = block[:short]
    for place in range(short, max(map(len, blocks))):
        out += bytes(block[place] for block in blocks if len(block) > place)
    return bytes(out)


_PADS = bytes([QRCode.PAD0, QRCode.PAD1]) * 1500  # more than the largest code holds


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


@cache
def _blocks(version: int) -> tuple[tuple[tuple[int, int], ...], int]:
    """The (data, error correction) word counts of the blocks of ``version`` (medium error
    correction), from the encoder's table, and the data capacity in bits."""
    blocks = QRRSBlock.getRSBlocks(version, QRErrorCorrectLevel.M)
    counts = tuple((b.dataCount, b.totalCount - b.dataCount) for b in blocks)
    return counts, 8 * sum(data for data, _ecc in counts)


_VERSIONS: dict[tuple[tuple[type, int], ...], int] = {}


def _version(code: QRCode) -> int:
    """``QRCode.calculate_version``, asked once for each kind and length of data."""
    key = tuple((type(data), len(data)) for data in code.dataList)
    version = _VERSIONS.get(key)
    if version is None:
        version = _VERSIONS[key] = code.calculate_version()
    return version


def _code_words(code: QRCode) -> bytes:
    """The data and error correction words of a code, interleaved (``QRCode.createData``)."""
    blocks, capacity = _blocks(code.version)
    buffer = _Bits()
    for data in code.dataList:
        if type(data) is QR8bitByte:  # the encoder writes it a byte at a time
            data.write_header(buffer, code.version)
            buffer.put(int.from_bytes(data.data, "big"), 8 * len(data.data))
        else:
            data.write(buffer, code.version)
    if buffer.length > capacity:
        raise ValueError("QR code length overflow")
    if buffer.length + 4 <= capacity:
        buffer.put(0, 4)
    buffer.put(0, -buffer.length % 8)
    data = buffer.buffer + _PADS[: (capacity - buffer.length) // 8]
    words, ecc, offset = [], [], 0
    for data_count, ecc_count in blocks:
        chunk = data[offset : offset + data_count]
        offset += data_count
        words.append(chunk)
        ecc.append(_error_words(chunk, ecc_count))
    return _interleave(words) + _interleave(ecc)


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


# The grid is built a column at a time. The encoder places the data bits up and down
# strips two modules wide, from the right, right module then left one, row after row,
# leaving out the function patterns and the vertical timing column. Laid along that path
# with the function modules put back in their places, a strip's two columns are every
# other module of its part: two slices each, where laying the grid out row after row would
# take a look-up a module.


class _Layout:
    """What a version's codes share (with the renderers' mask): the data module count, the
    mask bits of the data modules in the encoder's order as one integer, the pieces of the
    path along the strips (a slice of the data bits, or function modules as "0"/"1"), and
    the grid's columns in the order they come out, with their rows in order."""

    def __init__(self, version: int, mask: int) -> None:
        frame = _Frame(version, QRErrorCorrectLevel.M)
        frame.dataCache = []
        frame.makeImpl(False, mask)
        modules = frame.modules
        self.size = size = frame.moduleCount
        path: list[tuple[int, int]] = []  # (row, column) along the strips
        self.columns: list[tuple[int, list[int]]] = []  # (column, its rows in order)
        col, up = size - 1, True
        while col > 0:
            if col == 6:  # the vertical timing pattern: no strip
                col -= 1
            rows = list(range(size - 1, -1, -1)) if up else list(range(size))
            path += [(row, c) for row in rows for c in (col, col - 1)]
            self.columns += [(col, rows), (col - 1, rows)]
            col, up = col - 2, not up
        self.columns.append((6, list(range(size))))
        self.timing = "".join("01"[bool(modules[row][6])] for row in range(size))
        places = _data_places(version, mask)
        cells = [(row, col) for row, col, _flip in places]
        data = set(cells)
        if [place for place in path if place in data] != cells:  # the encoder's own order
            raise AssertionError(f"QR version {version}: the data path differs")
        self.count = len(places)
        self.flips = int("".join("01"[flip] for _row, _col, flip in places) or "0", 2)
        pieces: list[tuple[int, int, str]] = []
        taken = 0
        for row, col in path:
            if (row, col) in data:  # the next data bit: grow or start a slice
                if pieces and not pieces[-1][2]:
                    pieces[-1] = (pieces[-1][0], taken + 1, "")
                else:
                    pieces.append((taken, taken + 1, ""))
                taken += 1
            elif pieces and pieces[-1][2]:
                pieces[-1] = (0, 0, pieces[-1][2] + "01"[bool(modules[row][col])])
            else:
                pieces.append((0, 0, "01"[bool(modules[row][col])]))
        self.pieces = tuple(pieces)
        # A strip's part of the path: its right column at even places, its left at odd.
        n = 2 * size
        self.parts = [
            slice(k * n + side, (k + 1) * n, 2) for k in range(len(path) // n) for side in (0, 1)
        ]

    def grid(self, digits: str) -> str:
        """The modules as "0"/"1", a column at a time in ``columns`` order, each column
        followed by a "0"; ``digits`` are the data bits, masked, in the encoder's order."""
        along = "".join([fixed or digits[a:b] for a, b, fixed in self.pieces])
        columns = [along[part] for part in self.parts]
        columns.append(self.timing)
        return "0".join(columns) + "0"


@cache
def _layout(version: int, mask: int) -> _Layout:
    return _Layout(version, mask)


def _qr_grid(text: str) -> tuple[_Layout, str]:
    """The version's layout and the modules, "0"/"1", a column at a time (``_Layout.grid``),
    as ``QRCode.makeImpl`` lays them out: its function patterns, then the data bits in its
    order through its mask."""
    code = QRCode(None, QRErrorCorrectLevel.M)
    if text and text.isascii() and not QRNumber.valid(text) and not QRAlphaNum.valid(text):
        # What addData settles on for such a text (not digits only, not of the alphanumeric
        # set, no kanji), without raising and catching an error for each mode it tries.
        code.addData(QR8bitByte(text))
    else:
        code.addData(text)
    code.version = _version(code)
    layout = _layout(code.version, QR_MASK)
    words = _code_words(code)
    # The words' bits, then light remainder bits up to the module count, through the mask:
    # as binary digits, one a module.
    data = (int.from_bytes(words, "big") << (layout.count - 8 * len(words))) ^ layout.flips
    return layout, layout.grid(format(data, f"0{layout.count}b"))


def qr_matrix(text: str) -> list[list[bool]]:
    """The modules of a QR code (medium error correction), from reportlab's encoder, row
    after row."""
    layout, grid = _qr_grid(text)
    size = layout.size
    matrix = [[False] * size for _ in range(size)]
    for j, (col, rows) in enumerate(layout.columns):
        for t, row in enumerate(rows):
            matrix[row][col] = grid[j * (size + 1) + t] == "1"
    return matrix


# Finding the runs of dark modules: each dark module becomes a character naming its place
# in its group of columns, each light one a space; splitting a group at the spaces leaves
# its runs as strings, each naming its column, rows and length, and the group's table makes
# each run's operator once. The marking is integer arithmetic on the whole grid at once, a
# byte a module (Latin-1); a group has as many columns as there are characters that are not
# whitespace to name its places (seven of a version 4 code's 33).
_NAMES = "".join(c for c in map(chr, range(256)) if not c.isspace())


class _RunOps(dict[str, str]):
    """The ``re`` operator (module units, y up) of each run of dark modules in one group of
    columns, made once."""

    def __init__(self, layout: _Layout, first: int) -> None:
        super().__init__()
        self.layout = layout
        self.first = first  # the group's first column (in the grid's order)

    def __missing__(self, run: str) -> str:
        size = self.layout.size
        j, t = divmod(_NAMES.index(run[0]), size + 1)
        col, rows = self.layout.columns[self.first + j]
        top = min(rows[t], rows[t + len(run) - 1])
        op = self[run] = f"{col} {size - top - len(run)} 1 {len(run)} re"
        return op


class _Runs:
    """A version's groups of columns: their slices of the grid and run tables, and the
    integers that mark the grid (see qr_path)."""

    def __init__(self, layout: _Layout) -> None:
        stride = layout.size + 1
        per = len(_NAMES) // stride  # columns a group
        columns = len(layout.columns)
        self.groups = [
            (slice(first * stride, min(first + per, columns) * stride), _RunOps(layout, first))
            for first in range(0, columns, per)
        ]
        names = "".join(
            " " if t == layout.size else _NAMES[(j % per) * stride + t]
            for j in range(columns)
            for t in range(stride)
        )
        length = columns * stride
        self.spaces = int.from_bytes(b" " * length, "big")
        self.names = int.from_bytes(names.encode("latin-1"), "big") ^ self.spaces
        self.zeros = int.from_bytes(b"0" * length, "big")


_RUNS: dict[int, _Runs] = {}


# The codes of a big night (500 couples' pages, 250 tables') are about 3.5 kB of operators
# each; a worker keeps the last QR_CACHE of them: the table pages' codes come back on the
# table cards and on every game's score sheets.
QR_CACHE = 2048


@lru_cache(maxsize=QR_CACHE)
def qr_path(text: str) -> tuple[int, str]:
    """(modules a side, the PDF operators filling its dark modules) in module units, y up:
    a rectangle per run of dark modules in a column, all in one path."""
    layout, grid = _qr_grid(text)
    runs = _RUNS.get(layout.size)
    if runs is None:
        runs = _RUNS.setdefault(layout.size, _Runs(layout))
    # A byte a module, "0" or "1"; less "0", 0 or 1; times 0xFF, 0 or all ones (no carry
    # crosses a module); then a dark module's name or, for a light one, a space.
    ones = (int.from_bytes(grid.encode("latin-1"), "big") - runs.zeros) * 0xFF
    marked = ((ones & runs.names) ^ runs.spaces).to_bytes(len(grid), "big").decode("latin-1")
    ops: list[str] = []
    for part, table in runs.groups:
        ops += map(table.__getitem__, marked[part].split())
    ops.append("f")
    return layout.size, "\n".join(ops)


# Page and form streams are Flate-compressed at this level. Most of a page's bytes are QR
# code rectangles: for a big night's set, zlib's default (6) makes streams an eighth smaller
# than level 4 in about twice the time (BENCHMARKS.md, "Printing").
FLATE_LEVEL = 4


class _Flate(PDFStreamFilterZCompress):
    def encode(self, text: str | bytes) -> bytes:
        return zlib.compress(text.encode("utf-8") if isinstance(text, str) else text, FLATE_LEVEL)


_FLATE = _Flate()


class PdfCanvas(Canvas):
    """A reportlab canvas whose page and form streams are written Flate-compressed in binary,
    whatever ``rl_config.useA85`` says: reportlab's default adds ASCII85 on top (a quarter
    bigger, and a third of the render time in pure Python). The choice is the canvas's own,
    made as it saves: nothing process-wide changes while a document renders, so renders in
    threads of one process do not disturb one another."""

    def save(self) -> None:
        for obj in list(self._doc.idToObject.values()):
            if (
                isinstance(obj, PDFPage | PDFFormXObject)
                and obj.compression
                and obj.Contents is None
                and obj.stream
            ):
                stream = PDFStream(content=obj.stream, filters=[_FLATE])
                stream.__Comment__ = "page stream" if isinstance(obj, PDFPage) else "form stream"
                obj.Contents = stream
                obj.compression = 0  # the form would set its filters again from rl_config
        super().save()


# reportlab's escapePDF goes a byte at a time in Python; the same escapes (taken from it)
# as one str.translate.
_ESCAPES = {c: escapePDF(bytes([c])) for c in range(256)}
_ESCAPES = {c: escaped for c, escaped in _ESCAPES.items() if escaped != chr(c)}


def _escape(part: bytes) -> str:
    """``escapePDF(part)``: a string's bytes as they go between parentheses."""
    return part.decode("latin-1").translate(_ESCAPES)


def num(value: float) -> str:
    """A number as a PDF operand: at most five decimals, no trailing zeros."""
    if value == int(value):
        return str(int(value))
    return f"{value:.5f}".rstrip("0").rstrip(".")


class Doc:
    """One document being drawn: the canvas, the page size, fonts, labels and the page loop.

    Text goes straight into the page's operators (``BT … Tj ET``, what ``drawString`` writes
    without the text object built for each string); the operators of each string with its
    font and size are made once a document."""

    def __init__(self, data: dict[str, Any], paper: str) -> None:
        if paper not in PAPER_SIZES:
            raise ValueError(f"unknown paper {paper!r}; choose letter or a4")
        self.data = data
        self.paper = paper
        self.width, self.height = PAPER_SIZES[paper]
        self.regular, self.bold, self.unicode = fonts()
        self._printable = printable(self.regular, self.bold)
        self.language = data.get("language") or "en"
        if self.language not in LABELS:
            self.language = "en"
        self.labels = LABELS[self.language]
        self.buffer = io.BytesIO()
        drive = data.get("drive", {})
        self.canvas = PdfCanvas(
            self.buffer,
            pagesize=(self.width, self.height),
            pageCompression=1,
            initialFontName=self.regular,
        )
        self.canvas.setTitle(self.text(f"{drive.get('name', '')} — {data.get('document', '')}"))
        self.canvas.setAuthor(self.text(drive.get("club", "")))
        self.canvas.setCreator("fortyfives")
        self._fonts = {name: pdfmetrics.getFont(name) for name in (self.regular, self.bold)}
        self._shown: dict[tuple[str, float, str], str] = {}
        self._forms: set[str] = set()

    # --- text -----------------------------------------------------------------------------

    def text(self, value: Any) -> str:
        """Text as the fonts can print it: what they cannot draw replaced (``printable``),
        suit symbols spelt out with the standard fonts. Plain ASCII, most of what is printed,
        passes as it is."""
        value = "" if value is None else str(value)
        if value.isascii() and value.isprintable():
            return value
        return value.translate(self._printable)

    def label(self, key: str) -> str:
        return self.text(self.labels[key])

    def string_width(self, text: str, font: str, size: float) -> float:
        """``pdfmetrics.stringWidth``; for the TrueType fonts summed in C, not in a generator."""
        ttf = self._fonts.get(font) if self.unicode else None
        if ttf is None:
            return pdfmetrics.stringWidth(text, font, size)
        face = ttf.face
        widths = map(face.charWidths.get, map(ord, text), repeat(face.defaultWidth))
        return 0.001 * size * sum(widths)

    def _show(self, font: str, size: float, text: str) -> str:
        """The operators showing ``text`` in ``font`` at ``size`` (TrueType fonts), made once:
        for each font subset its name, size and leading, then its part of the string, and a
        line end, as ``drawString`` writes them (``PDFTextObject._formatText``)."""
        key = (font, size, text)
        shown = self._shown.get(key)
        if shown is None:
            ttf, doc = self._fonts[font], self.canvas._doc
            tf = f"{num(size)} Tf {num(size * 1.2)} TL"
            parts = [
                f"{ttf.getSubsetInternalName(subset, doc)} {tf} ({_escape(part)}) Tj"
                for subset, part in self._split(ttf, text)
            ]
            shown = self._shown[key] = " ".join([*parts, "T*"])
        return shown

    def _split(self, ttf: TTFont, text: str) -> list[tuple[int, bytes]]:
        """``ttf.splitString(text, doc)``: when every character already has its code in the
        document's first subset, looked up in C; else reportlab's own loop, which assigns
        codes to new characters."""
        doc = self.canvas._doc
        state = ttf.state.get(doc)
        if state is not None:
            try:
                codes = bytes(map(state.assignments.__getitem__, map(ord, text)))
            except (KeyError, ValueError):  # a new character, or one past the first subset
                pass
            else:
                return [(0, codes)] if codes else []
        return ttf.splitString(text, doc)

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
        font = font or (self.bold if bold else self.regular)
        text = self.text(value)
        if not self.unicode or font not in self._fonts:  # the standard fonts: the canvas's own
            c = self.canvas
            c.setFont(font, size)  # always: a literal Q may have restored another font
            {"center": c.drawCentredString, "right": c.drawRightString}.get(align, c.drawString)(
                x, y, text
            )
            return
        if align != "left":
            width = self.string_width(text, font, size)
            x -= width if align == "right" else width / 2
        self.canvas._code.append(
            f"BT 1 0 0 1 {num(x)} {num(y)} Tm {self._show(font, size, text)} ET"
        )

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

    def literal(self, ops: str) -> None:
        """PDF operators written as they are (the canvas's own state is left alone)."""
        self.canvas._code.append(ops)

    def gray(self, level: float) -> None:
        """The fill gray (``setFillGray`` without its bookkeeping)."""
        self.canvas._code.append(f"{num(level)} g")

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
        modules, path = qr_path(url)
        module = size / (modules + 4)
        # What saveState, a white rect, translate, scale and restoreState on the canvas
        # write, as one literal (the canvas's own state is left as it was, as Q restores).
        self.canvas._code.append(
            f"q\n1 g\nn {num(x)} {num(y)} {num(size)} {num(size)} re f*\n0 g\n"
            f"{num(module)} 0 0 {num(module)} {num(x + 2 * module)} {num(y + 2 * module)} cm\n"
            f"{path}\nQ"
        )

    def cut_marks(self, xs: list[float], ys: list[float], length: float = 10) -> None:
        """Short cut marks outside the grid at every column and row line, as one path."""
        left, right, bottom, top = xs[0], xs[-1], ys[0], ys[-1]
        ops = ["q 0.4 w 0.3 G"]
        for x in xs:
            ops.append(f"{num(x)} {num(top + 3)} m {num(x)} {num(top + 3 + length)} l")
            ops.append(f"{num(x)} {num(bottom - 3)} m {num(x)} {num(bottom - 3 - length)} l")
        for y in ys:
            ops.append(f"{num(left - 3)} {num(y)} m {num(left - 3 - length)} {num(y)} l")
            ops.append(f"{num(right + 3)} {num(y)} m {num(right + 3 + length)} {num(y)} l")
        ops.append("S Q")
        self.literal("\n".join(ops))

    def footer_fixed(self) -> None:
        """The footer's left part: the drive and its date (the same on every page)."""
        drive = self.data.get("drive", {})
        parts = [drive.get("name", ""), format_date(drive.get("date", "1970-01-01"), self.language)]
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

    def run(self, pages: list[Callable[[], None]], progress: Progress | None) -> bytes:
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
