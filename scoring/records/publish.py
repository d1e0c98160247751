"""The club's site receiving a night from the hall's laptop (``manage.py drive publish``; the
client is ``scoring.records.sync``): the laptop's export, written into the club whose organizer
sent it, in one transaction.

- A night the site has not seen is created (``created``); the same night sent again changes
  nothing and says so (``unchanged``: the export's digest is the one of the last publish, kept
  in its audit entry); a corrected night (another digest) replaces the earlier one
  (``replaced``, audited with both digests). The site's own upcoming drive (made there and
  fetched to the laptop) becomes the night played (``created``). Nothing else of the site
  changes: an interrupted publish leaves the previous night or the whole new one, never a mix.
- An export of another version of the format is refused with 422 ``other_version`` saying
  which side to update; a slug the site has for another club's drive is 409 ``drive_exists``.
- ``night_published`` tells the apps above (seasons: the night counts in the season of its
  date) after the night is written, in the same transaction.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.dispatch import Signal
from django.utils.translation import gettext

from drives.errors import Conflict, ServiceError
from drives.models import AuditEntry, Club, Drive
from drives.services import Actor, audit
from scoring.records.restore import drive_restore
from scoring.records.schema import FORMAT

# Sent with ``drive`` and ``actor`` once a published night is written (not when unchanged).
night_published = Signal()

PUBLISH = "drive.publish"


@dataclass(frozen=True)
class Received:
    """What the site did with a night: ``created``, ``replaced`` or ``unchanged``."""

    drive: Drive
    status: str
    digest: str


def export_digest(data: dict[str, Any]) -> str:
    """The export's fingerprint: the same night exported twice has the same one."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def format_check(data: Any) -> None:
    """422 ``other_version`` when ``data`` is an export of another version of the format."""
    sent = data.get("format") if isinstance(data, dict) else None
    if sent != FORMAT:
        raise ServiceError(
            "other_version",
            gettext(
                "This installation keeps nights as %(ours)s; the night came as %(theirs)s: "
                "install the same version of the app on the hall's laptop and the club's site."
            )
            % {"ours": FORMAT, "theirs": sent or gettext("something else")},
            expected=FORMAT,
            received=sent,
        )


def night_receive(*, club: Club, data: Any, actor: Actor) -> Received:
    """Write the published night ``data`` (a drive's export) into ``club`` (see the module)."""
    format_check(data)
    digest = export_digest(data)
    drive_part = data.get("drive")
    slug = drive_part.get("slug") if isinstance(drive_part, dict) else None
    with transaction.atomic():
        existing = (
            Drive.objects.select_for_update().filter(slug=slug).first()
            if isinstance(slug, str)
            else None
        )
        if existing is not None and existing.club_id != club.pk:
            raise Conflict(
                "drive_exists",
                gettext("The site has a drive %(slug)s of another club: rename the night.")
                % {"slug": slug},
                slug=slug,
            )
        earlier = ""
        if existing is not None:
            last = AuditEntry.objects.filter(drive=existing, action=PUBLISH).order_by("-id").first()
            earlier = (last.new or {}).get("digest", "") if last is not None else ""
            if earlier == digest:
                return Received(existing, "unchanged", digest)
        report = drive_restore(data=data, replace=existing is not None, actor=actor, club=club)
        # The site's own upcoming drive (made there, fetched to the laptop) becomes the night
        # played: published for the first time. A night published before: replaced.
        status = "replaced" if earlier else "created"
        audit(
            report.drive,
            actor,
            PUBLISH,
            subject=report.drive.slug,
            old={"digest": earlier} if existing is not None else None,
            new={"digest": digest, "couples": report.couples, "results": report.results},
            note="a corrected night replaced the one published before"
            if existing is not None
            else "published from the hall",
        )
        night_published.send(Drive, drive=report.drive, actor=actor)
    return Received(report.drive, status, digest)
