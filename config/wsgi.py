"""WSGI entry point (``gunicorn config.wsgi -c config/gunicorn.py``). Defaults to the production
settings. The hall's server serves config/asgi.py, which runs this application for everything
but the pages' streams and a phone's unchanged poll."""

import os

from django.core.wsgi import get_wsgi_application

from config.bodies import chunked_bodies

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.prod")

# A body sent in chunks is read, not taken as empty (config/bodies.py).
django_application = chunked_bodies(get_wsgi_application())
application = django_application

# Loaded and frozen before the first request: the collector's pauses (config/settle.py).
from config.settle import settle  # noqa: E402 - needs the settings set up above

settle()
