"""Settings: ``base`` plus one module per use (dev, test, prod), all read from the environment.

``manage.py`` uses ``dev``, pytest uses ``test``, ``config.wsgi``/``config.asgi`` and the
Celery app default to ``prod``. Set ``DJANGO_SETTINGS_MODULE`` to choose another.
"""
