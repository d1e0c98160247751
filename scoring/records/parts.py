"""Parts of the drive's record kept by the apps above ``scoring`` (the night's money): each
registers itself here (from its ``AppConfig.ready``) and the export and the restore carry it
under its own key, without ``scoring`` importing the app.

A part is three functions: ``export(drive)`` gives what goes under ``key`` in the export;
``read(value, numbers)`` checks that value before anything is written (against the part's own
pydantic model with ``scoring.records.schema.checked``, then what the model cannot say, each
refusal a ``bad_export`` ``ServiceError`` naming the place at fault; ``numbers`` are the
couples' numbers of the file) and returns the checked model that ``write(drive, read_value,
users)`` then reads and writes, inside the restore's transaction. An export without the key
restores without the part (exports made before it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from drives.models import Drive


@dataclass(frozen=True)
class Part:
    key: str
    export: Callable[[Drive], Any]
    read: Callable[[Any, set[int]], Any]
    write: Callable[[Drive, Any, dict[str, Any]], None]
    users: Callable[[Any], list[str | None]] = lambda _read: []


_parts: dict[str, Part] = {}


def register(part: Part) -> None:
    _parts[part.key] = part


def parts() -> list[Part]:
    return list(_parts.values())
