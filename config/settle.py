"""The web process settles before its first request: what every page would load on first use is
loaded, then everything alive is moved out of the garbage collector's sight (``gc.freeze``).

Python's collector looks through every object that could hold a cycle each time it collects its
oldest generation. In the hall's server those are some 200,000 objects, nearly all Django's,
the project's modules, the URL patterns, the compiled templates and the catalogs, alive for as
long as the process; one such collection took 160 to 270 ms on the hall's laptop under a night's
polls, and every request in flight waited for it (BENCHMARKS.md, "The collector's pauses").
Frozen, they are never looked through again: the collections look only at what the requests
made since.

Called by ``config.wsgi`` (gunicorn's workers and the hall's granian worker each import it).
"""

from __future__ import annotations

import gc
import logging

from django.conf import settings
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.urls import get_resolver
from django.utils import translation

log = logging.getLogger(__name__)

# The pages polled through a night, and the pages around them (their templates compiled once).
LIVE_TEMPLATES = (
    "base.html",
    "scoring/table_page.html",
    "scoring/table_page_live.html",
    "scoring/couple_page.html",
    "scoring/couple_page_live.html",
    "scoring/projector.html",
    "scoring/projector_live.html",
    "scoring/projector_tables.html",
    "scoring/desk.html",
    "scoring/desk_grid.html",
    "scoring/organizer_dashboard.html",
)


def settle() -> int:
    """Load the URL patterns (and with them every view's module), the live pages' templates and
    each language's catalog; collect what that left behind; freeze the rest. Returns how many
    objects were frozen."""
    get_resolver().url_patterns  # noqa: B018 - imports the URL conf and every view's module
    get_resolver()._populate()  # the lookups reverse() and resolve() build on first use
    for name in LIVE_TEMPLATES:
        try:
            get_template(name)
        except TemplateDoesNotExist:  # pragma: no cover - a template renamed: nothing to warm
            log.warning("settle: no template %s", name)
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Game")
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
