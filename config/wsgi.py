"""WSGI entry point (``gunicorn config.wsgi -c config/gunicorn.py``). Defaults to the production
settings."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.prod")

application = get_wsgi_application()

# Loaded and frozen before the first request: the collector's pauses (config/settle.py).
from config.settle import settle  # noqa: E402 - needs the settings set up above

settle()
