"""gunicorn's settings for the web process, shared by the Procfile and tools/stack.py:

    gunicorn config.wsgi --config config/gunicorn.py --bind 0.0.0.0:8000

The access log goes to standard output (``--access-logfile`` on the command line wins: the
stack writes it to a file), through :class:`TokenMaskingLogger`: a table's or couple's page
is logged as ``/t/…/`` and ``/c/…/``, never with the token of its card (config/redact.py).
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any, cast

from gunicorn.glogging import Logger

if TYPE_CHECKING:
    from gunicorn.glogging import _AtomsDict

from config.redact import mask_tokens


class TokenMaskingLogger(Logger):
    """gunicorn's logger, with the tokens masked in every atom of the access log format: the
    request line (``r``), the path (``U``), the query (``q``), the Referer (``f``), and the
    request headers and WSGI environment (``{referer}i``, ``{authorization}i``,
    ``{raw_uri}e``…) that a custom ``access_log_format`` may name."""

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: timedelta) -> _AtomsDict:
        atoms = super().atoms(resp, req, environ, request_time)
        masked = {
            name: mask_tokens(value) if isinstance(value, str) else value
            for name, value in atoms.items()
        }
        return cast("_AtomsDict", masked)  # the same atoms, each text masked


logger_class = TokenMaskingLogger
accesslog = "-"

# Threaded workers that keep a connection open between two polls of the same phone (a table's
# every 5 s, a couple's every 6 s, scoring/pages/phone.py): a sync worker answers one request
# at a time and closes every connection, so 750 phones queue for the workers whenever a few
# renders hold them. The hall night on PostgreSQL, 4 workers on 2 cores, back to back: polls
# p95 97 ms threaded, 210 ms sync, the same CPU (BENCHMARKS.md, "The production stack's
# workers"). Four threads: each holds a database connection, and the GIL makes more a queue.
worker_class = "gthread"
threads = 4
keepalive = 10
