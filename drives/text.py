"""Text the night can store: the one check every way in passes through, and what makes a
name (a player's, a drive's, a club's).

``text_refuse_unstorable`` refuses text a database cannot keep: the NUL character (PostgreSQL
stores none, in text or JSON) and lone UTF-16 surrogates (``"\\udc00"`` in JSON: not UTF-8,
so neither SQLite nor PostgreSQL can encode it). It is called where such text can arrive: the
API's JSON bodies (api.errors.JsonBody), the restore of an export (scoring.records.restore), and the
services that clean players', drives' and clubs' names and the venue (drives.services),
through which the pages, the CSV imports and the command line pass. A page's form or a CSV
file cannot carry a surrogate: Django decodes form data as UTF-8 with ``errors="replace"`` and
the imports decode strictly, so there the check only ever meets a NUL; the command line can
(Python decodes its arguments with ``surrogateescape``).

``name_visible`` tells a name with something to see from one made only of invisible
characters; ``name_strip_bidi`` removes the controls that reorder the text around a name.
This module decides nothing else about names (their length, their spaces: drives.inputs).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from drives.errors import ServiceError

BAD_TEXT = "bad_text"

# Embeddings, overrides and isolates (LRE, RLE, PDF, LRO, RLO; LRI, RLI, FSI, PDI): in a name
# they reorder whatever is printed after it. The marks (LRM, RLM) only nudge neighbours and
# belong to some names; they stay.
_BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")


def text_problem(value: str) -> str | None:
    """Why ``value`` cannot be stored, or None."""
    if "\x00" in value:
        return "contains the NUL character (\\u0000)"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as error:
        return f"is not valid Unicode: a lone surrogate (\\u{ord(value[error.start]):04x})"
    return None


def text_refuse_unstorable(data: Any, where: str = "", *, what: str = "a text") -> None:
    """A 422 ``bad_text`` naming the place (``path``: ``where`` and the way into ``data``) of
    the first text in ``data`` (a string, or JSON: lists, objects and their keys) that cannot
    be stored; ``what`` names the text in the message. The bad text itself is never echoed: it
    could not be sent back either."""
    # (path, item, whether the path names a place yet): an empty key ("") is a place too, so
    # "is there a path" cannot be told from the path's text.
    stack: list[tuple[str, Any, bool]] = [(where, data, bool(where))]
    while stack:
        path, item, placed = stack.pop()
        if isinstance(item, str):
            _refuse(path, what, text_problem(item))
        elif isinstance(item, dict):
            for key, value in reversed(item.items()):
                if isinstance(key, str):
                    _refuse(path, "a key", text_problem(key))
                stack.append((f"{path}.{key}" if placed else str(key), value, True))
        elif isinstance(item, list | tuple):
            stack.extend(
                (f"{path}[{i}]", value, True) for i, value in reversed(list(enumerate(item)))
            )


def _refuse(path: str, what: str, problem: str | None) -> None:
    if problem is not None:
        place = f"{path}: " if path else ""
        details: dict[str, Any] = {"path": path} if path else {}
        raise ServiceError(BAD_TEXT, f"{place}{what} {problem}.", **details)


def name_strip_bidi(value: str) -> str:
    """``value`` without bidi embeddings, overrides and isolates."""
    return _BIDI_CONTROLS.sub("", value)


def name_visible(value: str) -> bool:
    """Whether ``value`` has a character to see: not only spaces and format characters
    (Unicode category Cf: zero-width spaces and joiners, the BOM, bidi controls)."""
    return any(not ch.isspace() and unicodedata.category(ch) != "Cf" for ch in value)
