"""A full disk: a write the database refuses for want of space answers 503 ``storage_full``,
in words the organizer understands, and the hall's /healthz says when space runs short.

SQLite says "database or disk is full" (SQLITE_FULL, Django's OperationalError), or, when it
cannot even make its WAL's shared-memory file to open a connection, "disk I/O error"
(SQLITE_IOERR, seen on a laptop whose disk was filled): taken for a full disk when the
database's disk has almost nothing free (``NEARLY_FULL``). PostgreSQL says DiskFull (SQLSTATE
53100, psycopg's error as the cause of Django's); writing a file (a backup, a printed PDF)
raises OSError ENOSPC. The service's transaction has rolled back by the time the error
reaches here (``transaction.atomic`` leaves on the error), so nothing is half-written.

One answer for every URL: the API's error (``{"code", "message"}``) for the API and the
pages' scripts (``Accept: application/json``), a page for a browser, one of its own that needs
no database (the header of the site's pages asks it who is logged in).
``StorageFullMiddleware`` answers for the views; ``server_error`` (``handler500``) for what
fails outside them (a session saved on the way out), Django's own 500 page otherwise.
"""

from __future__ import annotations

import errno
import logging
import shutil
import sqlite3
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import get_language, gettext
from django.views.defaults import server_error as django_server_error

logger = logging.getLogger(__name__)

DISK_FULL_SQLSTATE = "53100"  # PostgreSQL's disk_full
SQLITE_FULL_WORDS = "database or disk is full"
SQLITE_IO_WORDS = "disk i/o error"
NEARLY_FULL = 4 * 2**20  # bytes free under which SQLite's "disk I/O error" means a full disk
NO_SPACE = frozenset({errno.ENOSPC, errno.EDQUOT})


def _chain(error: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    found: BaseException | None = error
    while found is not None and id(found) not in seen:
        seen.add(id(found))
        yield found
        found = found.__cause__ or found.__context__


def full_disk(error: BaseException) -> str | None:
    """Whose disk ``error`` says is full: "database server" (PostgreSQL's), "laptop" (SQLite's
    and files' on the hall), "server" (files' elsewhere); None for any other error."""
    for cause in _chain(error):
        if getattr(cause, "sqlstate", None) == DISK_FULL_SQLSTATE:
            return "database server"
        sqlite = isinstance(cause, sqlite3.Error)
        code = getattr(cause, "sqlite_errorcode", None) if sqlite else None
        words = str(cause).lower() if sqlite or isinstance(cause, DatabaseError) else ""
        if code == sqlite3.SQLITE_FULL or SQLITE_FULL_WORDS in words:
            return "laptop"
        io_error = code is not None and code & 0xFF == sqlite3.SQLITE_IOERR
        if (io_error or SQLITE_IO_WORDS in words) and _database_disk_nearly_full():
            return "laptop"
        if isinstance(cause, OSError) and cause.errno in NO_SPACE:
            return "laptop" if connection.vendor == "sqlite" else "server"
    return None


def _database_disk_nearly_full() -> bool:
    if connection.vendor != "sqlite":
        return False
    folder = Path(str(connection.settings_dict["NAME"])).parent
    try:
        return shutil.disk_usage(folder).free < NEARLY_FULL
    except OSError:
        return False


def storage_full_message(whose: str) -> str:
    if whose == "laptop":
        return gettext(
            "The laptop's disk is full: nothing was saved. Free some space on it (empty the "
            "trash, move old files to a USB key), then do it again."
        )
    if whose == "database server":
        return gettext(
            "The database server's disk is full: nothing was saved. Tell the site's "
            "administrator, then do it again."
        )
    return gettext(
        "The server's disk is full: nothing was saved. Tell the site's administrator, then do "
        "it again."
    )


def storage_full_response(request: HttpRequest, error: BaseException) -> HttpResponse | None:
    """The 503 for a full disk, or None when ``error`` is something else."""
    whose = full_disk(error)
    if whose is None:
        return None
    logger.error("a write was refused: the %s's disk is full (%s)", whose, error)
    message = storage_full_message(whose)
    if request.path.startswith("/api/") or "application/json" in request.headers.get("Accept", ""):
        return JsonResponse({"code": "storage_full", "message": message}, status=503)
    sent = request.method not in ("GET", "HEAD")
    context = {"message": message, "language": get_language(), "sent": sent}
    page = render_to_string("storage_full.html", context)
    return HttpResponse(page, status=503)


class StorageFullMiddleware:
    """A view's (or the API's) write refused for want of space: the 503, not a 500."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, error: Exception) -> HttpResponse | None:
        return storage_full_response(request, error)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: the 503 when a full disk failed the request after its view, else
    Django's own page."""
    error = sys.exc_info()[1]
    answer = storage_full_response(request, error) if error is not None else None
    return answer if answer is not None else django_server_error(request)


def free_megabytes(folder: Path) -> int:
    return int(shutil.disk_usage(folder).free // 2**20)


def disk_check() -> dict[str, object]:
    """For /healthz on the hall (``HALL_DATA_DIR``): the free space of the data folder, and
    "full" under ``HALL_DISK_MIN_FREE_MB``. Elsewhere nothing: the host watches its disks."""
    folder = getattr(settings, "HALL_DATA_DIR", None)
    if folder is None:
        return {}
    free = free_megabytes(Path(folder))
    least = int(getattr(settings, "HALL_DISK_MIN_FREE_MB", 200))
    return {"disk": "ok" if free >= least else "full", "disk_free_mb": free}
