"""The hall's own server: ``fortyfives hall`` serves a real night from the laptop to the phones
on the hall's Wi-Fi (``make hall`` calls it in a checkout).

It finds the laptop's address on the hall's network, holds the data folder (one server per
folder: fortyfives/datafolder.py), brings the folder up to date (the SQLite database made or
migrated, a backup first when an older version's: fortyfives/upgrade.py; a secret key made
once; the static files collected when they changed; see config/settings/hall.py; everything
in it readable by the laptop's owner only), prints the address the phones use with its QR
code, opens the organizer's page in the laptop's browser, and serves with granian (ASGI) on
that address and on 127.0.0.1 until Ctrl-C or the window is closed; then the database's
write-ahead log is folded into it, so the folder is whole as it stands.

Why granian: a hall's laptop is as likely to run Windows as Linux or macOS, and gunicorn
(the production stack's, tools/stack.py) runs only on Unix; granian has wheels for all three.
Its HTTP side is in Rust with an event loop, so the 750 phones' open connections cost nothing
between their polls; waitress, the pure-Python server used before, spent 0.97 ms of CPU on a
phone's 304 with 750 phones connected where granian spends 0.36 (scripts/bench_server_polls.py,
BENCHMARKS.md "What a 304 costs through the hall's server"), and most of a night's polls are
304s. One worker process with threads suits SQLite, which takes one writer at a time whatever
the number of processes, and keeps the cache (the rate limits, the desk grid's rows) in that
one process's memory. BENCHMARKS.md gives its figures for a whole night.

    fortyfives hall                      # address found, port 8000, the user's data folder
    fortyfives hall --address 192.168.1.20 --port 8045 --data-dir /media/usb/hall

The first time, with nobody to log in, the organizer's page on the laptop is the first-run
page (the club, the organizer's account, the hall's language): no question in a terminal.
``--prepare-only`` prepares the folder and exits.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import ipaddress
import os
import socket
import sqlite3
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from granian.constants import Interfaces
from granian.http import HTTP1Settings
from granian.log import LogLevels
from granian.server import MPServer

from config.paths import BASE_DIR, SITE_DIR, hall_choose
from fortyfives.datafolder import Refusal, make_writable, serving
from fortyfives.words import _

DEFAULT_PORT = 8000
# The application's threads: granian's own advice, at most twice the cores and one (Python
# runs one thread at a time; granian's side does the waiting on slow phones), and at most 8.
# On 2 cores, 5: a phone's 304 cost the same with 2, 4 or 8 (BENCHMARKS.md).
DEFAULT_THREADS = min(8, 2 * (os.cpu_count() or 1) + 1)
# A documentation address (RFC 5737): "connecting" a UDP socket to it sends nothing, it only
# asks the system which of its addresses would be used, the one on the network with the route.
PROBE = ("192.0.2.1", 9)


def usable(address: str) -> bool:
    """An IPv4 address other machines could reach: not loopback, link-local or unspecified."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.version == 4 and not (ip.is_loopback or ip.is_link_local or ip.is_unspecified)


def lan_address() -> str | None:
    """The laptop's address on the hall's network, or None if it has none (no network)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE)
            found = probe.getsockname()[0]
        if usable(found):
            return str(found)
    except OSError:
        pass
    try:
        _, _, addresses = socket.gethostbyname_ex(socket.gethostname())
    except OSError:
        return None
    return next((a for a in addresses if usable(a)), None)


def hall_url(address: str, port: int) -> str:
    return f"http://{address}:{port}" if port != 80 else f"http://{address}"


def qr_text(text: str) -> str:
    """``text``'s QR code for a terminal, two rows of modules a line (half blocks), with a
    quiet zone. Light modules are printed, dark ones left blank, as on a dark terminal."""
    from scoring.printing.pdf.base import qr_modules

    modules = qr_modules(text)
    border = 2
    side = len(modules) + 2 * border

    def dark(row: int, col: int) -> bool:
        r, c = row - border, col - border
        return 0 <= r < len(modules) and 0 <= c < len(modules) and modules[r][c]

    lines = []
    for row in range(0, side, 2):
        line = []
        for col in range(side):
            top, bottom = not dark(row, col), row + 1 < side and not dark(row + 1, col)
            line.append("█" if top and bottom else "▀" if top else "▄" if bottom else " ")
        lines.append("".join(line))
    return "\n".join(lines)


def prepare(data_dir: Path, url: str, hostname: str, say: Callable[[str], None] = print) -> None:
    """Point Django at the hall's settings and folder, bring the database up to date, collect
    the static files."""
    from fortyfives.datafolder import hall_environ

    hall_environ(data_dir, url)
    os.environ["HALL_HOSTNAME"] = hostname
    import django

    django.setup()
    from fortyfives.upgrade import bring_up_to_date

    bring_up_to_date(data_dir, say)
    collect_static()
    # In a checkout, the catalogs' .mo files as make install makes them (a Windows laptop has
    # no make); the wheel and the bundle carry theirs compiled (hatch_build.py).
    messages = BASE_DIR / "scripts" / "messages.py"
    if SITE_DIR == BASE_DIR and messages.is_file():
        import runpy

        with contextlib.redirect_stdout(io.StringIO()):
            runpy.run_path(str(messages))["compile_"]([])


def static_sources() -> str:
    """A digest of what collectstatic would collect: every file the static finders list (its
    name, size and time) and the settings that name and store them."""
    from django.conf import settings
    from django.contrib.staticfiles.finders import get_finders

    # The single-file bundle unpacks its files anew at every start (new times, a new folder):
    # there the bundle's own file stands for them, replaced when the program is.
    bundle = os.stat(sys.executable) if getattr(sys, "frozen", False) else None
    found = [f"bundle\0{bundle.st_size}\0{bundle.st_mtime_ns}"] if bundle else []
    for finder in get_finders():
        for name, storage in finder.list([]):
            info = os.stat(storage.path(name))
            found.append(f"{name}\0{info.st_size}" + ("" if bundle else f"\0{info.st_mtime_ns}"))
    found.sort()
    found += [
        repr(getattr(settings, name, None))
        for name in (
            "STATIC_URL",
            "STORAGES",
            "WHITENOISE_KEEP_ONLY_HASHED_FILES",
            "WHITENOISE_SKIP_COMPRESS_EXTENSIONS",
        )
    ]
    return hashlib.sha256("\n".join(found).encode()).hexdigest()


def collect_static() -> bool:
    """collectstatic, unless the files collected last time are still those of the sources.

    Kept for the laptop's start: collectstatic hashes and compresses (brotli and gzip) every
    file again at each run, the API pages' large scripts included: 16 s of CPU before the
    server answers (60 s before config/settings/hall.py left the maps and unhashed names out),
    which a restart in the middle of a night should not wait for. With nothing changed the
    check is some 900 file times, and the start 3 s (BENCHMARKS.md, "The hall's server
    starts")."""
    from django.conf import settings
    from django.core.management import call_command

    root = Path(settings.STATIC_ROOT)
    stamp, sources = root / ".collected", static_sources()
    collected = (root / "staticfiles.json").is_file() and stamp.is_file()
    if collected and stamp.read_text() == sources:
        return False
    stamp.unlink(missing_ok=True)
    call_command("collectstatic", interactive=False, verbosity=0)
    stamp.write_text(sources)
    return True


def needs_account() -> bool:
    from django.contrib.auth import get_user_model

    return not get_user_model().objects.filter(is_active=True).exists()


def banner(url: str, port: int, data_dir: Path, reachable: bool, first: bool) -> str:
    from django.conf import settings

    # config.settings.hall names them (the settings of make typecheck do not).
    keep, folder = getattr(settings, "HALL_BACKUPS", 0), getattr(settings, "HALL_BACKUP_DIR", "")
    here = hall_url("127.0.0.1", port)
    rows = [
        (_("Phones on the hall's Wi-Fi:"), url),
        (_("This laptop:"), here),
        (_("Data folder:"), str(data_dir)),
        (_("Backups:"), _("the last %(count)s, in %(folder)s") % {"count": keep, "folder": folder}),
    ]
    width = max(len(label) for label, _value in rows) + 1
    lines = ["", _("Forty-Fives Card Drives: the hall's server"), ""]
    lines += [f"  {label.ljust(width)}{value}" for label, value in rows]
    lines.append("")

    def said(sentence: str) -> None:
        lines.extend(textwrap.wrap(sentence, 78, initial_indent="  ", subsequent_indent="  "))
        lines.append("")

    if first:
        said(
            _(
                "First start: open %(url)s on this laptop to name the club and make the "
                "organizer's account."
            )
            % {"url": here}
        )
    if reachable:
        lines += [qr_text(url), ""]
    else:
        said(
            _(
                "No network found: only this laptop can open the pages, phones cannot reach it. "
                "Join the hall's Wi-Fi (or give --address) before printing cards: their QR codes "
                "carry the address."
            )
        )
    lines.append(_("Ctrl-C (or closing this window) stops the server."))
    return "\n".join(lines)


class HallServer(MPServer):
    """granian's server, stopped (not restarted) when its window closes: closing a terminal
    sends SIGHUP, which granian takes as "reload the workers"; on a hall's laptop it means the
    volunteer is done. (Closing a Windows console sends CTRL_CLOSE_EVENT, which granian already
    takes as a stop.) The multi-process server, as granian's ``Server`` is on a Python with the
    GIL (every Python the hall's laptop runs: 3.11 to 3.13)."""

    # The file that ends the pages' streams (settings.PAGE_EVENTS_STOP): they never end by
    # themselves, and the worker, told to stop, waits for every request it serves to end.
    stop_mark: Path | None = None

    def signal_handler_interrupt(self, *args: object, **kwargs: object) -> None:
        if self.stop_mark is not None:
            with contextlib.suppress(OSError):
                self.stop_mark.touch()
        super().signal_handler_interrupt(*args, **kwargs)  # type: ignore[no-untyped-call]

    def signal_handler_reload(self, *args: object, **kwargs: object) -> None:
        self.signal_handler_interrupt()


# How long a stopping worker is given to end its requests before it is killed.
STOP_SECONDS = 10


def serve(address: str, port: int, threads: int) -> None:
    """granian's ASGI server (config/asgi.py: the pages' streams and a phone's unchanged poll
    in its event loop, Django in ``threads`` threads), one worker process, on every IPv4
    address of the laptop (the hall's network and 127.0.0.1), until stopped."""
    from django.conf import settings

    # Read by config/asgi.py in the worker process, which inherits the environment.
    os.environ["ASGI_THREADS"] = str(threads)
    stop = Path(settings.PAGE_EVENTS_STOP) if settings.PAGE_EVENTS_STOP else None
    if stop is not None:
        stop.unlink(missing_ok=True)  # a server killed before leaves it behind
    server = HallServer(
        "config.asgi:application",
        # Both the hall's address and 127.0.0.1 (granian binds one address): ALLOWED_HOSTS
        # (config/settings/hall.py) still answers only the hall's names.
        address=bound_address(address),
        port=port,
        # No lifespan: nothing to start or stop beside the requests.
        interface=Interfaces.ASGINL,
        # One process: SQLite takes one writer at a time, the cache (the rate limits, the
        # desk's rows) is that process's memory, and so are the streams' hub and the board.
        workers=1,
        # Every page holds its stream open (750 phones, the desks, the projector) beside the
        # requests in flight: granian's default (the backlog, 1024) would make the 1,025th
        # connection wait.
        backlog=4096,
        backpressure=4096,
        websockets=False,
        # A page's stream and its requests share a connection pool; one that stops in the
        # middle of a request is dropped after 30 s.
        http1_settings=HTTP1Settings(header_read_timeout=30_000, keep_alive=True),
        log_level=LogLevels.warning,
        working_dir=BASE_DIR,
        # Told to stop, a worker that has not ended within this many seconds is killed: the
        # volunteer closing the window gets a stopped server whatever a request or a thread
        # is doing (granian waits for ever without it). Nothing acknowledged is lost: a write
        # not committed is rolled back by SQLite, and checkpoint() runs after.
        workers_kill_timeout=STOP_SECONDS,
    )
    server.stop_mark = stop
    try:
        server.serve()
    finally:
        if stop is not None:
            stop.unlink(missing_ok=True)


def bound_address(address: str) -> str:
    return "0.0.0.0" if address != "127.0.0.1" else "127.0.0.1"


def port_free(address: str, port: int) -> bool:
    """Whether the server can listen on ``port`` (another program may hold it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        if os.name == "posix":  # as granian does; a closed connection's port is free again
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((bound_address(address), port))
        except OSError:
            return False
    return True


def checkpoint(data_dir: Path) -> None:
    """Fold the write-ahead log into the database once the server has stopped, so that the
    folder (copied, backed up or opened by the next start) is whole as it stands."""
    database = data_dir / "db.sqlite3"
    if not database.is_file():
        return
    with contextlib.closing(sqlite3.connect(database, timeout=10)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def open_browser(url: str) -> None:
    import webbrowser

    with contextlib.suppress(Exception):  # no browser on this machine: the banner says where
        webbrowser.open(url)


@dataclass(frozen=True)
class Options:
    data_dir: Path
    address: str | None = None
    port: int = DEFAULT_PORT
    threads: int = DEFAULT_THREADS
    browser: bool = False
    prepare_only: bool = False


def run(options: Options) -> int:
    """``fortyfives hall``: refusals (the folder, the lock, the port) raise Refusal."""
    # What the server writes (the database and its WAL, the backups, the printed PDFs, the
    # collected static files) is the club's, for the laptop's owner only: no other account
    # on the laptop reads it. The server itself reads its static files as their owner.
    os.umask(0o077)
    found = options.address or lan_address()
    reachable = found is not None and usable(found)
    address = found if found is not None and reachable else "127.0.0.1"
    url = hall_url(address, options.port)
    data_dir = options.data_dir
    make_writable(data_dir)
    with serving(data_dir, url):
        if not options.prepare_only and not port_free(address, options.port):
            raise Refusal(
                _(
                    "Port %(port)s is used by another program. Start with another port, "
                    "e.g. fortyfives hall --port 8045."
                )
                % {"port": options.port}
            )
        prepare(data_dir, url, socket.gethostname())
        hall_choose(data_dir, url=url)
        first = needs_account()
        print(banner(url, options.port, data_dir, reachable, first), flush=True)
        if options.prepare_only:
            return 0
        if options.browser:
            open_browser(hall_url("127.0.0.1", options.port))
        try:
            with contextlib.suppress(KeyboardInterrupt):
                serve(address, options.port, options.threads)
        finally:
            checkpoint(data_dir)
    print(_("The server has stopped; the night is kept in %(folder)s.") % {"folder": data_dir})
    return 0
