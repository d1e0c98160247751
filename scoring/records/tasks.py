"""The night published to the club's site by itself at its close (docs/club-site.md), when the
club's settings on the laptop hold the site's address and token and say so: queued after the
close commits, retried while the site cannot be reached, never in the way of the night.

- With a broker (production): the Celery task ``scoring.publish_night``, retried with a growing
  delay (1, 2, 4 … 60 minutes) for up to a day.
- The hall's laptop (no broker: tasks run in-process) must not wait for a site out of reach at
  the close: the same attempts run in a background thread of the server, one after another.

Each outcome is in the club's audit (``site.publish``: published, unchanged, or refused and
why); a refusal that trying again will not change (a token refused, another version of the
app) ends the attempts.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.db import close_old_connections, transaction

from drives.models import AuditEntry, Drive
from drives.services import Actor, audit
from scoring.records.sync import SyncError, night_publish

PUBLISH_NIGHT = "scoring.publish_night"
RETRIES = 30  # at most 60 minutes apart: about a day in all
MAX_DELAY = 3600
SYSTEM = Actor(channel=AuditEntry.Channel.SYSTEM)


def retry_delay(attempt: int) -> int:
    """Seconds before attempt ``attempt + 1``: 60, 120, 240 … at most an hour."""
    return int(min(60 * 2**attempt, MAX_DELAY))


def publish_attempt(drive_id: int) -> bool:
    """One attempt: True when done (published, unchanged, refused for good, or nothing to do),
    False when the site could not be reached and another attempt may succeed."""
    drive = Drive.objects.select_related("club").filter(pk=drive_id).first()
    if drive is None or drive.state != Drive.State.CLOSED:
        return True
    club = drive.club
    if not (club.site_url and club.site_token):
        return True
    try:
        done = night_publish(drive=drive, site=club.site_url, token=club.site_token)
    except SyncError as error:
        transient = error.transient
        audit(
            None,
            SYSTEM,
            "site.publish",
            club=club,
            subject=drive.slug,
            note=("will try again: " if transient else "refused: ") + str(error),
        )
        return not transient
    audit(None, SYSTEM, "site.publish", club=club, subject=drive.slug, note=done.line)
    return True


@shared_task(bind=True, name=PUBLISH_NIGHT, max_retries=RETRIES, acks_late=True)
def publish_night(self: Task[Any, Any], drive_id: int) -> bool:
    """A worker's attempt at publishing the night; retried later while the site is away."""
    if publish_attempt(drive_id):
        return True
    raise self.retry(countdown=retry_delay(self.request.retries))


def _attempts_in_background(drive_id: int) -> None:
    try:
        for attempt in range(RETRIES + 1):
            close_old_connections()
            if publish_attempt(drive_id):
                return
            time.sleep(retry_delay(attempt))
    finally:
        close_old_connections()


def publish_when_closed(sender: Any, *, drive: Drive, **_kw: Any) -> None:
    """drives.signals.drive_closed: queue the night's publishing once the close commits."""
    club = drive.club
    if not (club.publish_at_close and club.site_url and club.site_token):
        return

    def queue() -> None:
        if settings.CELERY_TASK_ALWAYS_EAGER:
            name = f"publish-{drive.slug}"
            threading.Thread(
                target=_attempts_in_background, args=(drive.pk,), name=name, daemon=True
            ).start()
        else:
            publish_night.delay(drive.pk)

    transaction.on_commit(queue)
