"""WSGI entry point (``gunicorn config.wsgi -c config/gunicorn.py``). Defaults to the production
settings."""

import os

from django.core.wsgi import get_wsgi_application

from config.bodies import chunked_bodies

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.prod")

# A body sent in chunks is read, not taken as empty (config/bodies.py).
application = chunked_bodies(get_wsgi_application())

# The hall's one process: a phone's unchanged poll answered before Django (config/pollgate.py).
from django.conf import settings  # noqa: E402 - set up by get_wsgi_application above

if settings.POLL_GATE:
    from config.pollgate import poll_gate

    application = poll_gate(application)

# Loaded and frozen before the first request: the collector's pauses (config/settle.py).
from config.settle import settle  # noqa: E402 - needs the settings set up above

settle()
