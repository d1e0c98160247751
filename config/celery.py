"""The Celery app.

Configuration comes from Django settings (the ``CELERY_`` names; see
``config.settings.env.celery_settings``). Without ``CELERY_BROKER_URL`` tasks run eagerly,
in-process: the embedded default needs no broker and no worker. Start a worker with
``celery -A config worker -l info``.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.prod")

app = Celery("fortyfives")
app.config_from_object("django.conf:settings", namespace="CELERY")
# Each app's ``tasks`` module, and those of scoring's rooms (the print task is
# scoring.printing.tasks; the night published to the club's site, scoring.records.tasks).
app.autodiscover_tasks()
app.autodiscover_tasks(["scoring.printing", "scoring.records"])


@app.task(name="config.ping")
def ping() -> str:
    """Answer "pong": a task for checking that a worker (or eager mode) runs tasks."""
    return "pong"
