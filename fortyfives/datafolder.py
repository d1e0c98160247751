"""The hall's data folder: where it is, that it can be written, and the one server on it.

Everything of the club is in one folder (config/settings/hall.py lists it): the database, its
key, the backups, the printed documents. Every ``fortyfives`` command finds the same folder
(``--data-dir``, or ``FORTYFIVES_DATA_DIR``, or the laptop user's own: config/paths.py), and
``fortyfives hall`` holds an operating-system lock on ``server.lock`` in it for as long as it
serves, so that a second server started on the same folder (a second double-click) is refused
instead of two servers writing one database. The lock is the system's (filelock: ``fcntl`` on
Linux and macOS, ``msvcrt`` on Windows), so it goes with the process however that ends: a
server killed or a laptop switched off leaves no stale lock. Beside it, ``server.json`` says
which server holds it (its address, process and start), for the refusal's words and for
``fortyfives manage`` (the address the printed cards carry).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from config.paths import default_data_dir, hall_choices
from fortyfives.words import _

LOCK = "server.lock"
SERVER = "server.json"


class Refusal(Exception):
    """What the volunteer is told in one line (exit code 2); nothing was changed."""


def data_dir_of(given: Path | None) -> Path:
    return (given.expanduser() if given is not None else default_data_dir()).resolve()


def hall_environ(data_dir: Path, url: str | None = None) -> None:
    """Point Django at the hall's settings and this folder, whatever the shell had set."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.hall"
    os.environ["HALL_DATA_DIR"] = str(data_dir)
    known = url or running_url(data_dir) or hall_choices(data_dir).get("url")
    if known:
        os.environ["HALL_URL"] = str(known)
    for name in ("DATABASE_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"):
        os.environ.pop(name, None)


def make_writable(data_dir: Path) -> None:
    """The folder made (owner-only) and proved writable, or a Refusal saying why not."""
    try:
        data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        if os.name == "posix":
            data_dir.chmod(0o700)
        with tempfile.TemporaryFile(dir=data_dir):
            pass
    except OSError as error:
        reason = error.strerror or str(error)
        raise Refusal(
            _(
                "The data folder %(folder)s cannot be written (%(reason)s). Choose another with "
                "--data-dir."
            )
            % {"folder": data_dir, "reason": reason}
        ) from error


def running(data_dir: Path) -> dict[str, Any] | None:
    """The server holding this folder (``server.json``'s address, process and start), or None
    when none does."""
    lock = FileLock(data_dir / LOCK, timeout=0)
    try:
        lock.acquire()
    except Timeout:
        try:
            found = json.loads((data_dir / SERVER).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            found = {}
        return found if isinstance(found, dict) else {}
    except OSError:  # no folder yet, or one that cannot be written: nobody serves it
        return None
    lock.release()
    return None


def running_url(data_dir: Path) -> str | None:
    found = running(data_dir) if (data_dir / LOCK).exists() else None
    url = (found or {}).get("url")
    return str(url) if url else None


def described(server: dict[str, Any]) -> str:
    parts = [str(server["url"])] if server.get("url") else []
    if server.get("pid"):
        parts.append(_("process %(pid)s") % {"pid": server["pid"]})
    if server.get("started"):
        parts.append(_("started %(time)s") % {"time": server["started"]})
    return f" ({', '.join(parts)})" if parts else ""


@contextmanager
def serving(data_dir: Path, url: str) -> Iterator[None]:
    """Hold the folder's lock while the server runs, or a Refusal if another server holds it."""
    lock = FileLock(data_dir / LOCK, timeout=0)
    try:
        lock.acquire()
    except Timeout:
        other = running(data_dir) or {}
        raise Refusal(
            _(
                "A hall server already runs on %(folder)s%(server)s. Open its address, or stop it "
                "before starting another."
            )
            % {"folder": data_dir, "server": described(other)}
        ) from None
    try:
        info = {"url": url, "pid": os.getpid(), "started": f"{datetime.now():%Y-%m-%d %H:%M}"}
        (data_dir / SERVER).write_text(json.dumps(info) + "\n", encoding="utf-8")
        yield
    finally:
        (data_dir / SERVER).unlink(missing_ok=True)
        lock.release()


def not_while_serving(data_dir: Path, doing: str) -> None:
    """A Refusal if a server holds the folder (``doing`` says what would be refused)."""
    other = running(data_dir)
    if other is not None:
        raise Refusal(
            _(
                "A hall server runs on %(folder)s%(server)s: stop it (Ctrl-C in its window) "
                "before you %(doing)s."
            )
            % {"folder": data_dir, "server": described(other), "doing": doing}
        )
