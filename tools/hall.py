"""The hall's own server: ``make hall`` (or ``python -m tools.hall``) serves a real night from
the laptop to the phones on the hall's Wi-Fi.

It finds the laptop's address on the hall's network, prepares the hall's data folder (the
SQLite database migrated, a secret key made once, the static files collected when they
changed; see config/settings/hall.py; everything in it readable by the laptop's owner
only), prints the address the phones use with its QR code, and serves with granian (WSGI)
on that address and on 127.0.0.1 until Ctrl-C.

Why granian: a hall's laptop is as likely to run Windows as Linux or macOS, and gunicorn
(the production stack's, tools/stack.py) runs only on Unix; granian has wheels for all three.
Its HTTP side is in Rust with an event loop, so the 750 phones' open connections cost nothing
between their polls; waitress, the pure-Python server used before, spent 0.97 ms of CPU on a
phone's 304 with 750 phones connected where granian spends 0.36 (scripts/bench_server_polls.py,
BENCHMARKS.md "What a 304 costs through the hall's server"), and most of a night's polls are
304s. One worker process with threads suits SQLite, which takes one writer at a time whatever
the number of processes, and keeps the cache (the rate limits, the desk grid's rows) in that
one process's memory. BENCHMARKS.md gives its figures for a whole night.

    python -m tools.hall                      # address found, port 8000, data in hall-data/
    python -m tools.hall --address 192.168.1.20 --port 8045 --data-dir /media/usb/hall

The first time, with nobody to log in, it asks for the organizer's account (a superuser: the
organizer of every club on this laptop) when run in a terminal; ``--no-input`` skips the
question and says how to make one. ``--prepare-only`` prepares the folder and exits.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import ipaddress
import os
import socket
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
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


def prepare(data_dir: Path, url: str, hostname: str) -> None:
    """Point Django at the hall's settings and folder, migrate, collect the static files."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.hall"
    os.environ["HALL_DATA_DIR"] = str(data_dir)
    os.environ["HALL_URL"] = url
    os.environ["HALL_HOSTNAME"] = hostname
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("CELERY_BROKER_URL", None)
    data_dir.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(BASE_DIR))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", interactive=False, verbosity=0)
    collect_static()
    # The catalogs' .mo files, as make install makes them (a Windows laptop has no make).
    import runpy

    runpy.run_path(str(BASE_DIR / "scripts" / "messages.py"))["compile_"]([])


def static_sources() -> str:
    """A digest of what collectstatic would collect: every file the static finders list (its
    name, size and time) and the settings that name and store them."""
    from django.conf import settings
    from django.contrib.staticfiles.finders import get_finders

    found = []
    for finder in get_finders():
        for name, storage in finder.list([]):
            info = os.stat(storage.path(name))
            found.append(f"{name}\0{info.st_size}\0{info.st_mtime_ns}")
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


def ask_for_account(interactive: bool, data_dir: Path) -> None:
    if not needs_account():
        return
    if interactive and sys.stdin.isatty():
        from django.core.management import call_command

        print("Nobody can log in yet: make the organizer's account (a superuser).")
        call_command("createsuperuser")
        return
    print(
        "Nobody can log in yet. Make the organizer's account with:\n"
        f"  HALL_DATA_DIR={data_dir} DJANGO_SETTINGS_MODULE=config.settings.hall "
        "python manage.py createsuperuser"
    )


def banner(url: str, port: int, data_dir: Path, reachable: bool) -> str:
    from django.conf import settings

    # config.settings.hall names them (the settings of make typecheck do not).
    keep, folder = getattr(settings, "HALL_BACKUPS", 0), getattr(settings, "HALL_BACKUP_DIR", "")
    lines = [
        "",
        "Forty-Fives Card Drives: the hall's server",
        "",
        f"  Phones on the hall's Wi-Fi: {url}",
        f"  This laptop:                {hall_url('127.0.0.1', port)}",
        f"  Data folder:                {data_dir} (database, key, backups)",
        f"  Backups:                    the last {keep}, after every advance and",
        f"                              the close, in {folder}",
        "",
    ]
    if reachable:
        lines += [qr_text(url), ""]
    else:
        lines += [
            "  No network found: only this laptop can open the pages. Join the hall's Wi-Fi",
            "  (or give --address) before printing cards: their QR codes carry the address.",
            "",
        ]
    lines.append("Ctrl-C stops the server.")
    return "\n".join(lines)


def serve(address: str, port: int, threads: int) -> None:
    """granian's WSGI server, one worker process with ``threads`` threads for the application,
    on every IPv4 address of the laptop (the hall's network and 127.0.0.1), until Ctrl-C."""
    from granian.constants import Interfaces
    from granian.http import HTTP1Settings
    from granian.log import LogLevels
    from granian.server import Server

    Server(
        "config.wsgi:application",
        # Both the hall's address and 127.0.0.1 (granian binds one address): ALLOWED_HOSTS
        # (config/settings/hall.py) still answers only the hall's names.
        address="0.0.0.0" if address != "127.0.0.1" else "127.0.0.1",
        port=port,
        interface=Interfaces.WSGI,
        # One process: SQLite takes one writer at a time, and the cache (the rate limits, the
        # desk's rows) is that process's memory.
        workers=1,
        blocking_threads=threads,
        websockets=False,
        # Every phone keeps its connection between polls (5 or 6 s); one that stops in the
        # middle of a request is dropped after 30 s.
        http1_settings=HTTP1Settings(header_read_timeout=30_000, keep_alive=True),
        log_level=LogLevels.warning,
        working_dir=BASE_DIR,
    ).serve()


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m tools.hall", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument(
        "--address", help="the laptop's address on the hall's network (found if not given)"
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument(
        "--data-dir", type=Path, default=BASE_DIR / "hall-data", help="database, key and backups"
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=DEFAULT_THREADS,
        help=f"threads for the pages (default on this laptop: {DEFAULT_THREADS})",
    )
    parser.add_argument("--no-input", action="store_true", help="never ask for an account")
    parser.add_argument("--prepare-only", action="store_true", help="prepare the folder, then exit")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    options = parse(argv)
    # What the server writes (the database and its WAL, the backups, the printed PDFs, the
    # collected static files) is the club's, for the laptop's owner only: no other account
    # on the laptop reads it. The server itself reads its static files as their owner.
    os.umask(0o077)
    found = options.address or lan_address()
    reachable = found is not None and usable(found)
    address = found if found is not None and reachable else "127.0.0.1"
    url = hall_url(address, options.port)
    data_dir = options.data_dir.resolve()
    prepare(data_dir, url, socket.gethostname())
    ask_for_account(not options.no_input, data_dir)
    print(banner(url, options.port, data_dir, reachable), flush=True)
    if options.prepare_only:
        return 0
    with contextlib.suppress(KeyboardInterrupt):
        serve(address, options.port, options.threads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
