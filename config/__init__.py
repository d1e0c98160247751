"""Project configuration: settings, URLs, the WSGI/ASGI entry points and the Celery app.

The Celery app is loaded here so that ``@shared_task`` functions bind to it as soon as
Django starts.
"""

from .celery import app as celery_app

__all__ = ("celery_app",)
