"""Celery tasks of the night. They take ids, run after the transaction that asked for them
commits, and are safe to run twice (acknowledged late: a worker lost mid-task leaves the task
to another). Without a broker they run in-process (``config.celery``).

What happens when a worker fails (docs/deploy.md, "Worker faults"):

- The whole worker is killed (``kill -9``, the machine stops): the task was never
  acknowledged, so Redis puts it back on the queue after the visibility timeout and the next
  worker renders the document again, from the start.
- Only the pool process running the task dies (out of memory, ``kill -9`` of the child): the
  task is sent again after ``WORKER_LOST_DELAY`` seconds, at most ``WORKER_LOST_RETRIES``
  times; after that the document is marked failed. A task that kills its worker every time
  never runs in a loop.
- The hard time limit kills the pool process: the task is acknowledged (not run again) and
  the document is marked failed with the limit in its reason.
"""

from __future__ import annotations

from typing import Any

from billiard.exceptions import WorkerLostError
from celery import Task, shared_task
from celery.exceptions import TimeLimitExceeded
from celery.signals import task_failure
from django.conf import settings
from django.db import close_old_connections
from django.utils.translation import gettext

from scoring.printing.rendering import document_failed, document_run

RENDER_DOCUMENT = "scoring.render_document"
WORKER_LOST_RETRIES = 2
WORKER_LOST_DELAY = 5


@shared_task(  # type: ignore[call-overload, untyped-decorator]  # celery-types lacks retry_on_worker_lost
    bind=True,
    name=RENDER_DOCUMENT,
    acks_late=True,
    reject_on_worker_lost=True,
    retry_on_worker_lost=True,
    max_retries=WORKER_LOST_RETRIES,
    default_retry_delay=WORKER_LOST_DELAY,
    soft_time_limit=settings.CELERY_TASK_SOFT_TIME_LIMIT,
    time_limit=settings.CELERY_TASK_TIME_LIMIT,
)
def render_document(self: Task[Any, Any], document_id: int) -> str:
    """Render a printed document (``scoring.printing.rendering.document_run``): ``done``,
    ``up-to-date``, ``superseded``, ``missing`` or ``failed``."""
    return document_run(document_id, task_id=self.request.id)


def failure_reason(exception: BaseException | None) -> str:
    """Why a rendering the task could not record itself failed, in the organizer's words."""
    if isinstance(exception, TimeLimitExceeded):
        limit = settings.CELERY_TASK_TIME_LIMIT
        return gettext("The rendering took longer than %(limit)s s and was stopped.") % {
            "limit": limit
        }
    if isinstance(exception, WorkerLostError):
        return gettext(
            "The print worker stopped while rendering this document, %(value)s times: it was "
            "given up. Ask for it again; if it fails again, the worker may be short of "
            "memory for this document."
        ) % {"value": WORKER_LOST_RETRIES + 1}
    return gettext("The rendering failed: %(exception)s") % {"exception": exception}


@task_failure.connect
def render_document_failed(
    sender: Any = None,
    task_id: str | None = None,
    exception: BaseException | None = None,
    args: Any = None,
    **kwargs: Any,
) -> None:
    """Record a failure the task's body could not record itself (the hard time limit, the
    pool process lost too often: both seen by the worker's main process) on the document."""
    if getattr(sender, "name", None) != RENDER_DOCUMENT or not args or not task_id:
        return
    close_old_connections()  # the worker's main process may have held it idle for hours
    document_failed(args[0], task_id, failure_reason(exception))
