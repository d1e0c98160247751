"""Celery tasks of the night. They take ids, run after the transaction that asked for them
commits, and are safe to run twice (acknowledged late: a worker lost mid-task leaves the task
to another). Without a broker they run in-process (``config.celery``)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from scoring.printing import document_run


@shared_task(
    name="scoring.render_document",
    acks_late=True,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
)
def render_document(document_id: int) -> str:
    """Render a printed document (``scoring.printing.document_run``): ``done``,
    ``up-to-date``, ``missing`` or ``failed``."""
    return document_run(document_id)
