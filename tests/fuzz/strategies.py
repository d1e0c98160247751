"""Hypothesis strategies of bad input: odd JSON values, junk bodies, text that looks like
a number to one check and not to the next (``"²".isdigit()`` is true, ``int("²")`` fails), and
text no database can store (lone UTF-16 surrogates, which JSON's ``"\\udc00"`` delivers)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from hypothesis import strategies as st

# Values that have broken parsers before: digits that int() refuses, other scripts' digits,
# numbers too big for a database integer, markup, NUL and other control characters, text
# that is only spaces or only invisible characters (zero-width, BOM, bidi controls), letters
# that upper-case to A-Z but are not ("ßab".upper() is "SSAB"), very long text.
TRICKY_TEXT = [
    "",
    " ",
    "\t\n",
    "²",
    "٣",
    "١٢",
    "½",
    "-1",
    "0",
    "1e3",
    "1.5",
    " 7 ",
    "+3",
    "0x1F",
    "9" * 30,
    "NaN",
    "Infinity",
    "null",
    "true",
    "<script>alert(1)</script>",
    'O\'Neil & "Sons"',
    "\x00",
    "a\x00b",
    "\u202e",
    "\ud7ff",
    "🂡",
    "x" * 5000,
    "50-40",
    "50 - 40",
    "7H",
    "JK",
    "\u200b",
    "\u200c\u200d",
    "\u2060\ufeff",
    "\u2066\u2069",
    "\u202eAnn",
    "ßab",
    "\u017fab",
]
# Lone surrogates: JSON can carry them ("\\udc00"), UTF-8 cannot, so no database stores them
# (a pair, "\\ud83d\\ude00", is one character and fine). Not for the forms: a browser sends
# UTF-8, Django decodes it with errors="replace", and the test client cannot encode them.
UNSTORABLE_TEXT = ["\udc00", "a\ud800b", "\ud83d", "\udfff\ud800", "\ud83d\ude00"]
TRICKY_NUMBERS = [0, -1, 1, 2, 3, 9, 2**31, 2**63, 2**70, -(2**70), 10**30, 1.5, 1e308, -0.0]

# JSON text: the tricky values, and any characters, surrogates included.
text = st.one_of(
    st.sampled_from(TRICKY_TEXT + UNSTORABLE_TEXT),
    st.text(st.characters(exclude_categories=[]), max_size=40),
)
scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 20),
    st.sampled_from(TRICKY_NUMBERS),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    text,
)
junk = st.recursive(
    scalar,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(text, inner, max_size=4)),
    max_leaves=8,
)


def body(
    fields: Iterable[str],
    plausible: Mapping[str, st.SearchStrategy[Any]] | None = None,
) -> st.SearchStrategy[Any]:
    """A JSON body for an endpoint that knows ``fields``: an object with some of them, each a
    plausible value (``plausible``) or junk, sometimes with a field nobody knows; or junk."""
    plausible = plausible or {}
    optional = {
        name: st.one_of(plausible[name], junk) if name in plausible else junk for name in fields
    }
    obj = st.fixed_dictionaries({}, optional=optional)
    with_unknown = st.builds(lambda o, k, v: {**o, k: v}, obj, text, junk)
    return st.one_of(obj, obj, with_unknown, junk)


# JSON nested deeper than Python's parser goes (an outside probe's, issue 31).
DEEP_NESTING = b"[" * 100_000 + b"]" * 100_000

# Raw bodies that are not JSON, or JSON the API refuses as a whole.
RAW = [
    DEEP_NESTING,
    b"",
    b"   ",
    b"{",
    b"NaN",
    b'{"a": NaN}',
    b'{"a": Infinity}',
    b'{"a": 1e999}',
    b"[" * 5000 + b"]" * 5000,
    b'{"a":' * 3000 + b"1" + b"}" * 3000,
    b"\xff\xfe{\x00}\x00",
    b'{"winner": "\\ud800"}',
    b"\xef\xbb\xbf{}",
]


def raw_body(fields: Iterable[str], plausible: Mapping[str, Any] | None = None) -> Any:
    """The bytes of a request body: JSON from :func:`body` (its text as UTF-8, where a lone
    surrogate makes bytes that are not UTF-8; or as ``\\u`` escapes, where it arrives as
    text), or bytes that are not JSON."""
    value = body(fields, plausible)
    as_utf8 = value.map(
        lambda v: json.dumps(v, ensure_ascii=False).encode("utf-8", "surrogatepass")
    )
    as_escapes = value.map(lambda v: json.dumps(v).encode("ascii"))
    return st.one_of(as_utf8, as_escapes, as_escapes, st.sampled_from(RAW), st.binary(max_size=64))


# Text a number check may let through and int() (or the database) may not.
NUMBER_LIKE = ["²", "٣", "9" * 30, "-1", " 7 ", "1.5", "0", "1_000"]


def form_value() -> st.SearchStrategy[str]:
    """What a browser (or anyone) may post in one box."""
    return st.one_of(
        st.sampled_from(NUMBER_LIKE),
        st.sampled_from(TRICKY_TEXT),
        st.text(max_size=30),
        st.integers(-5, 30).map(str),
    )
