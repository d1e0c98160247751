"""Printing a drive's documents: asking for one, sending it to the print task, and its status.

A :class:`~scoring.models.Document` is one drive's document with its options (kind, paper, game,
couple, filled, the base URL of its QR codes; checked by
``scoring.printing.rendering.document_options``). ``document_request`` returns the document at
once when it is done and still up to date (its ``data_version`` is the current
``scoring.printing.data.data_version``): nothing is rendered again. Otherwise it (re)queues the
document and sends ``scoring.printing.tasks.render_document`` once the transaction commits;
without a broker the task runs in-process (eager), with one a worker runs it. The task renders
it with ``scoring.printing.rendering.document_run``.

Every request is audited (``document.print``: who, when, through which channel, which document
and options). A document is never left queued or running for good: when the broker cannot be
reached (after a few seconds of retries) the request fails with a 503 and the document says why;
a document no worker has started within ``PRINT_QUEUED_TIMEOUT`` seconds, or still running well
past the task's hard time limit, is marked failed when its status is next read
(``document_status``), and asking again sends it afresh. A task sent for an older request of the
same document (``task_id`` no longer the document's) leaves it alone.
"""

from __future__ import annotations

import logging
import uuid
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_lazy
from kombu.exceptions import OperationalError

from drives.errors import ServiceError
from drives.models import Drive
from drives.services import Actor
from scoring.models import Document
from scoring.printing.rendering import (
    DEFAULT_BASE_URL,
    audit_print_request,
    document_data_options,
    document_failed,
    document_filename,
    document_has_file,
    document_options,
    prepare_tables,
    print_data_options,
    refuse_unless_allowed,
    version_of,
)
from scoring.printing.tasks import render_document

logger = logging.getLogger(__name__)

# A document no worker has started within QUEUED_TIMEOUT is taken as lost (the broker lost
# its task, or no worker is running); one still running LOST_AFTER later than that is too
# (its worker was killed: the hard time limit would have stopped it by then).
QUEUED_TIMEOUT = timedelta(seconds=int(getattr(settings, "PRINT_QUEUED_TIMEOUT", 120)))
LOST_AFTER = timedelta(seconds=int(getattr(settings, "CELERY_TASK_TIME_LIMIT", 360)) + 60)
QUEUE_DOWN = gettext_lazy("The print queue is not reachable: try again in a moment.")


# --- asking for a document, and its status ----------------------------------------------------


def document_request(
    drive: Drive,
    kind: Any,
    actor: Actor,
    *,
    paper: Any = Document.Paper.LETTER,
    game: Any = None,
    couple: Any = None,
    filled: Any = False,
    base_url: Any = DEFAULT_BASE_URL,
) -> Document:
    """The document ``kind`` of ``drive`` with these options, the request audited
    (``document.print``). Done and up to date: returned as it is (``up_to_date`` True).
    Otherwise queued (or left queued if already on its way) and rendered by
    ``scoring.printing.tasks.render_document`` after the transaction commits (``up_to_date`` False).
    When the broker cannot be reached the document is marked failed and a ``ServiceError``
    ``print_queue_down`` (503) says so; a member who may not print this kind (the treasurer's
    sheet, ``rendering.document_allowed``) is refused with ``not_allowed`` (403)."""
    options = document_options(
        drive, kind, paper=paper, game=game, couple=couple, filled=filled, base_url=base_url
    )
    refuse_unless_allowed(drive, options["kind"], actor)
    prepare_tables(drive, options["kind"], actor)
    version = version_of(drive, options["kind"], **print_data_options(options))
    sent: list[bool | None] = []
    with transaction.atomic():
        Drive.objects.select_for_update().filter(pk=drive.pk).first()
        document = (
            Document.objects.select_for_update()
            .filter(drive=drive, **options)
            .order_by("-created_at")
            .first()
        )
        if document is not None and document.data_version == version:
            if document.status == Document.Status.DONE and document_has_file(document):
                audit_print_request(drive, actor, options, document.status)
                document.up_to_date = True
                return document
            on_its_way = document.status in (Document.Status.QUEUED, Document.Status.RUNNING)
            if on_its_way and not _lost_reason(document):
                audit_print_request(drive, actor, options, document.status)
                document.up_to_date = False
                return document
        if document is None:
            document = Document(drive=drive, **options)
        document.data_version = version
        document.status = Document.Status.QUEUED
        document.pages_done = 0
        document.pages_total = 0
        document.error = ""
        document.requested_by = actor.user if getattr(actor.user, "pk", None) else None
        document.created_at = timezone.now()
        document.finished_at = None
        document.task_id = str(uuid.uuid4())
        document.save()
        audit_print_request(drive, actor, options, document.status)
        document_id, task_id = document.pk, document.task_id
        transaction.on_commit(lambda: sent.append(_send(document_id, task_id)))
    if sent == [False]:
        raise ServiceError("print_queue_down", str(QUEUE_DOWN), status=503, document=document_id)
    document.refresh_from_db()
    document.up_to_date = False
    return document


def _send(document_id: int, task_id: str) -> bool:
    """Send the document's task to the broker (tried again for a few seconds, see
    ``CELERY_TASK_PUBLISH_RETRY_POLICY``); False, and the document marked failed, when the
    broker cannot be reached. The result is not kept: the document is the result. The time
    limits are left out of the message, so that the worker's own settings apply (they must
    stay under its broker's visibility timeout)."""
    try:
        render_document.apply_async(
            args=[document_id],
            task_id=task_id,
            ignore_result=True,
            time_limit=None,
            soft_time_limit=None,
        )
    except (OperationalError, OSError):
        logger.exception("sending the rendering of document %s failed", document_id)
        document_failed(document_id, task_id, str(QUEUE_DOWN))
        return False
    return True


def _lost_reason(document: Document) -> str:
    """Why a queued or running document is taken as lost, or "" when it is not."""
    now = timezone.now()
    if document.status == Document.Status.QUEUED and document.created_at <= now - QUEUED_TIMEOUT:
        seconds = int(QUEUED_TIMEOUT.total_seconds())
        return gettext(
            "No print worker started this document within %(seconds)s s: the print queue or "
            "its worker may be down. Ask for it again."
        ) % {"seconds": seconds}
    lost_after = QUEUED_TIMEOUT + LOST_AFTER
    if document.status == Document.Status.RUNNING and document.created_at <= now - lost_after:
        return gettext("The print worker stopped while rendering this document. Ask for it again.")
    return ""


def document_is_stale(document: Document) -> bool:
    """True when the data the document shows has changed since it was rendered."""
    if document.status != Document.Status.DONE:
        return False
    with translation.override(document.language or settings.LANGUAGE_CODE):
        current = version_of(document.drive, document.kind, **document_data_options(document))
    return current != document.data_version


def document_status(document: Document) -> dict[str, Any]:
    """What the status pages and the API show of a document (without URLs). A document
    lost on its way (``_lost_reason``) is marked failed first, with the reason."""
    reason = _lost_reason(document)
    if reason:
        # Only if no worker has moved it on meanwhile (same status, same request).
        Document.objects.filter(
            pk=document.pk, task_id=document.task_id, status=document.status
        ).update(status=Document.Status.FAILED, error=reason, finished_at=timezone.now())
        document.refresh_from_db()
    total = document.pages_total
    done = document.status == Document.Status.DONE
    return {
        "id": document.pk,
        "document": document.kind,
        "paper": document.paper,
        "game": document.game,
        "couple": document.couple,
        "filled": document.filled,
        "status": document.status,
        "pages_done": document.pages_done,
        "pages_total": total,
        "progress": 1.0 if done else round(document.pages_done / total, 3) if total else 0.0,
        "error": document.error or None,
        "stale": document_is_stale(document),
        "ready": done and document_has_file(document),
        "requested_at": document.created_at.isoformat(),
        "finished_at": document.finished_at.isoformat() if document.finished_at else None,
        "filename": document_filename(document),
    }


# Addresses that reach only the computer they are typed on: a phone scanning a QR code that
# carries one finds nothing.
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


def local_only(url: str) -> bool:
    """Whether ``url``'s host reaches only the computer it is typed on."""
    host = (urlsplit(url).hostname or "").lower()
    return host in LOCAL_HOSTS or host.startswith("127.")


def qr_base_url(request: HttpRequest) -> str:
    """The address the printed QR codes carry: this server's as the request reached it, unless
    that is one only this computer reaches and the hall's server knows its address on the
    hall's network (``HALL_URL``, fortyfives/hall.py): the organizer prints from the laptop itself,
    the phones scan the cards."""
    own = request.build_absolute_uri("/").rstrip("/")
    hall_url = getattr(settings, "HALL_URL", "")
    if hall_url and local_only(own):
        return str(hall_url).rstrip("/")
    return own
