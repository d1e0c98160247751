"""The hall's laptop in step with the club's site (docs/club-site.md): two installations of the
same app, talking through the site's JSON API with an organizer's token of the club.

- ``night_fetch``: before the night, the drive (its settings, its couples) from the site
  (``GET /api/v1/drives/{slug}/export``), restored here when the laptop does not have it yet,
  and its registrations (``GET …/registrations``: those the laptop lacks, and the cancels). A
  drive the laptop has already is otherwise never changed by a fetch: no result, no setting.
- ``night_publish``: after the close, the whole night (the drive's export) to the site
  (``POST /api/v1/clubs/{club}/nights``, ``scoring.records.publish`` there): created,
  replaced by a corrected night, or unchanged.

Every failure is a ``SyncError`` saying what happened in a sentence (the site unreachable, the
token refused, another version of the app): the night stays as it is here.
"""

from __future__ import annotations

import gzip
import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

from django.db import transaction
from django.utils.translation import gettext, ngettext

from drives.errors import ServiceError
from drives.models import Drive
from drives.registrations import registrations_receive
from drives.services import Actor
from scoring.records.export import drive_export
from scoring.records.publish import format_check
from scoring.records.restore import MAX_EXPORT_BYTES, drive_restore

TIMEOUT = 30  # seconds a request may take (a 250-table night is about 2 MB)


class SyncError(Exception):
    """Why the laptop and the site could not be put in step, in a sentence; ``transient`` when
    trying again later may succeed (the site out of reach or failing), not when it refused."""

    def __init__(self, message: str, *, transient: bool = False) -> None:
        super().__init__(message)
        self.transient = transient


@dataclass(frozen=True)
class Outcome:
    """What was done, in one line for the organizer, and whether anything changed."""

    line: str
    changed: bool


def site_root(site: str) -> str:
    """The site's address without a trailing slash; an address that is not http(s) is refused."""
    parts = urlsplit(site.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise SyncError(
            gettext("%(site)s is not a web address (like https://club.example.org).")
            % {"site": site}
        )
    return site.strip().rstrip("/")


def _call(method: str, url: str, token: str, body: bytes | None = None) -> Any:
    """The site's JSON answer to ``method url`` (a body is sent gzipped), or a SyncError."""
    if body is not None:
        body = gzip.compress(body)
    request = urllib.request.Request(url, data=body, method=method)
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("Accept", "application/json")
    if body is not None:
        request.add_header("Content-Type", "application/json")
        request.add_header("Content-Encoding", "gzip")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            return json.loads(answer.read(MAX_EXPORT_BYTES + 1))
    except urllib.error.HTTPError as error:
        raise SyncError(_refusal(error), transient=error.code >= 500) from None
    except (urllib.error.URLError, TimeoutError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise SyncError(
            gettext(
                "The site %(site)s cannot be reached (%(reason)s): the night is kept here; "
                "try again when the laptop is connected."
            )
            % {"site": urlsplit(url).netloc, "reason": reason},
            transient=True,
        ) from None
    except ValueError:
        raise SyncError(
            gettext("The site %(site)s did not answer as this app does: is it the club's site?")
            % {"site": urlsplit(url).netloc}
        ) from None


def _refusal(error: urllib.error.HTTPError) -> str:
    try:
        body = json.loads(error.read(65536))
    except ValueError:
        body = {}
    detail = body.get("message") if isinstance(body, dict) else None
    if error.code == 401:
        return gettext("The site refused the token: %(detail)s") % {
            "detail": detail or gettext("it is not valid.")
        }
    if error.code in (403, 404) and not detail:
        detail = gettext("the token is not an organizer's of this club, or no such drive.")
    return gettext("The site said %(status)s: %(detail)s") % {
        "status": error.code,
        "detail": detail or error.reason,
    }


def night_fetch(*, site: str, slug: str, token: str, actor: Actor) -> Outcome:
    """The drive ``slug`` from the club's site, restored here if the laptop lacks it."""
    root = site_root(site)
    data = _call("GET", f"{root}/api/v1/drives/{quote(slug)}/export", token)
    try:
        format_check(data)
    except ServiceError as error:
        raise SyncError(error.message) from None
    rows = _call("GET", f"{root}/api/v1/drives/{quote(slug)}/registrations", token)
    if not isinstance(rows, list):
        raise SyncError(
            gettext("The site %(site)s did not answer as this app does: is it the club's site?")
            % {"site": urlsplit(root).netloc}
        )
    drive = Drive.objects.filter(slug=slug).first()
    try:
        with transaction.atomic():
            couples = None
            if drive is None:
                report = drive_restore(data=data, actor=actor)
                drive, couples = report.drive, report.couples
            arrived = registrations_receive(drive=drive, rows=rows, actor=actor)
    except (ServiceError, ValueError, TypeError, AttributeError) as error:
        raise SyncError(getattr(error, "message", str(error))) from None
    words = {"slug": slug, "site": urlsplit(root).netloc, "count": arrived}
    if couples is not None:
        return Outcome(
            ngettext(
                "Fetched %(slug)s from %(site)s: %(couples)s couples, %(count)s registration.",
                "Fetched %(slug)s from %(site)s: %(couples)s couples, %(count)s registrations.",
                arrived,
            )
            % (words | {"couples": couples}),
            changed=True,
        )
    if arrived:
        return Outcome(
            ngettext(
                "%(slug)s is already on this laptop: %(count)s registration arrived.",
                "%(slug)s is already on this laptop: %(count)s registrations arrived.",
                arrived,
            )
            % words,
            changed=True,
        )
    return Outcome(
        gettext("%(slug)s is already on this laptop: nothing changed.") % {"slug": slug},
        changed=False,
    )


def night_publish(*, drive: Drive, site: str, token: str, club: str | None = None) -> Outcome:
    """The whole night ``drive`` to the club's site (its club's slug there: ``club``, else the
    same as here). Only a closed night is published."""
    if drive.state != Drive.State.CLOSED:
        raise SyncError(
            gettext("%(slug)s is not closed yet: close the night, then publish it.")
            % {"slug": drive.slug}
        )
    root = site_root(site)
    body = json.dumps(drive_export(drive), ensure_ascii=False).encode()
    slug = club or drive.club.slug
    answer = _call("POST", f"{root}/api/v1/clubs/{quote(slug)}/nights", token, body)
    status = answer.get("status") if isinstance(answer, dict) else None
    where = urlsplit(root).netloc
    lines = {
        "created": gettext("Published %(slug)s to %(site)s."),
        "replaced": gettext("Published %(slug)s to %(site)s: it replaced the earlier one."),
        "unchanged": gettext("%(slug)s is already on %(site)s as it is here: nothing changed."),
    }
    if status not in lines:
        raise SyncError(
            gettext("The site %(site)s did not answer as this app does: is it the club's site?")
            % {"site": where}
        )
    return Outcome(
        lines[status] % {"slug": drive.slug, "site": where}, changed=status != "unchanged"
    )
