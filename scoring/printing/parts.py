"""Printed documents whose data belong to an app above ``scoring`` (the treasurer's sheet of the
night's money): the app registers its part here (from its ``AppConfig.ready``) and the document
then prints as scoring's own do (asked for, queued, rendered by the print task, its progress
shown, downloaded; on the print page, through the API and the command line), without
``scoring`` importing the app.

A part names its kind (a ``scoring.models.Document.Kind``, drawn by its renderer in
``scoring.printing.pdf``), ``build(drive)`` gives the plain data that renderer draws (in the
language active: the print path activates the drive's), and ``allowed(drive, user)`` says
which members may print it and see it among the printed documents; the others are told
``refusal``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise

from drives.models import Drive


@dataclass(frozen=True)
class Part:
    kind: str
    build: Callable[[Drive], dict[str, Any]]
    allowed: Callable[[Drive, Any], bool]
    refusal: str | Promise


_parts: dict[str, Part] = {}


def register(part: Part) -> None:
    _parts[part.kind] = part


def part_of(kind: str) -> Part | None:
    """The registered part printing ``kind``, or None for scoring's own documents."""
    return _parts.get(kind)
