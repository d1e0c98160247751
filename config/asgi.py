"""ASGI entry point: the hall's server (``fortyfives hall``: granian) and the production
stack's events process (tools/stack.py). Defaults to the production settings.

The pages' event streams (config/events.py) are answered in the event loop, never entering
Django; on the hall, a phone's unchanged poll too (config/pollgate.py). Everything else goes to
Django's WSGI application, run in a pool of threads by a2wsgi: per request it costs about
1.0 ms of CPU where Django's own ASGI handler costs 2.2 (``/livez``, granian, this machine;
BENCHMARKS.md, "Pages told of a change"), since every view and middleware of the site is
synchronous and Django's handler passes each request between the loop and one thread twice.
"""

import os
from typing import Any

from a2wsgi import WSGIMiddleware

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.prod")

from django.conf import settings

from config.events import page_events
from config.wsgi import django_application

# The threads running Django's views: the hall's server sets them (fortyfives/hall.py).
THREADS = int(os.environ.get("ASGI_THREADS", "8"))

_django = WSGIMiddleware(django_application, workers=THREADS)  # type: ignore[arg-type]


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Django's application. a2wsgi reads a request's body from its threads with
    ``asyncio.run_coroutine_threadsafe``, which takes only a coroutine, where granian's
    ``receive`` gives another awaitable: wrapped in one."""

    async def received() -> Any:
        return await receive()

    await _django(scope, received, send)  # type: ignore[arg-type]


if settings.POLL_GATE:
    from config.pollgate import asgi_poll_gate

    application = asgi_poll_gate(application)  # type: ignore[assignment]
application = page_events(application)  # type: ignore[assignment]
