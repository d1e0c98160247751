"""The hall's own server (``fortyfives hall``; ``make hall`` in a checkout): one laptop serving
a real night to the phones on the hall's Wi-Fi, on SQLite, with no proxy, no broker and no TLS.

Production settings where they hold on a hall's network: DEBUG off, a secret key of its own,
no demo command, static files from whitenoise's manifest, print tasks run in-process. What
differs from ``config.settings.prod``: plain HTTP (the phones reach the laptop by its address
on the hall's network, where nobody has a certificate), so no HTTPS redirect, HSTS or secure
cookies; the database, the secret key and the backups live in one folder, the hall's data
folder (``HALL_DATA_DIR``, set by ``fortyfives``; default the laptop user's own,
config/paths.py), so that copying that folder keeps the whole club.

- ``HALL_DATA_DIR``: the data folder: ``db.sqlite3``, ``secret_key`` (made once, on first
  start, readable by its owner only), ``backups/`` (the database after every advance),
  ``static/`` (the collected static files), ``media/`` (the printed PDFs).
- ``HALL_URL``: the address the phones use (``http://192.168.1.20:8000``), set by
  ``fortyfives hall``; shown on the home page with its QR code and used for the printed cards'
  QR codes when the organizer prints from the laptop itself (127.0.0.1).
- ``ALLOWED_HOSTS``: the hall address's host, the laptop's name and the loopback names, unless
  given.
- ``HALL_BACKUPS``: how many backups to keep (default 5; 0: none).
- ``HALL_FIRST_RUN``: on: while nobody can log in, the laptop's browser gets the first-run
  page and phones a "being set up" page (config/firstrun.py).
- ``HALL_DISK_MIN_FREE_MB``: below this much free space on the data folder's disk, /healthz
  says the disk is full (default 200).
"""

from pathlib import Path
from urllib.parse import urlsplit

from whitenoise.compress import Compressor

from ..paths import default_data_dir, hall_choices
from .base import *
from .base import LANGUAGE_CODE, MEDIA_ROOT, STATIC_ROOT, environment
from .env import hall_database_settings, hall_secret_key

HALL_DATA_DIR = (
    Path(environment.HALL_DATA_DIR).resolve() if environment.HALL_DATA_DIR else default_data_dir()
)
# The language the hall chose at its first start (the first-run page): the pages' default.
LANGUAGE_CODE = hall_choices(HALL_DATA_DIR).get("language") or LANGUAGE_CODE


DEBUG = False
SECRET_KEY = environment.SECRET_KEY or hall_secret_key(HALL_DATA_DIR)

# The data folder 0700, the database (and its WAL) 0600, committed at synchronous=FULL so that
# a power cut loses no result the phones were told was stored (config/settings/env.py).
DATABASES = {"default": hall_database_settings(environment, HALL_DATA_DIR)}
if not environment.STATIC_ROOT:
    STATIC_ROOT = HALL_DATA_DIR / "static"
if not environment.MEDIA_ROOT:  # the printed PDFs
    MEDIA_ROOT = HALL_DATA_DIR / "media"
# The files Django's storages write (the printed PDFs, the collected static files) for the
# laptop's owner only, as the rest of the folder: Django's default makes them 0644.
FILE_UPLOAD_PERMISSIONS = 0o600
FILE_UPLOAD_DIRECTORY_PERMISSIONS = 0o700

# The hall's one server process answers a phone's unchanged poll before Django; a
# `fortyfives manage` command writing while it serves tells it through this file
# (drives/pageboard.py).
POLL_GATE = True
PAGE_BOARD_SIGNAL = str(HALL_DATA_DIR / "pages-changed")
# ... and tells the pages' streams of each change at once (drives/pagehub.py).
PAGE_EVENTS = "local"
PAGE_EVENTS_URL = "/events/"
# Written by the server's main process when it is told to stop (fortyfives/hall.py): the
# streams end, and the server with them.
PAGE_EVENTS_STOP = str(HALL_DATA_DIR / "server.stopping")

HALL_URL = environment.HALL_URL.rstrip("/")
HALL_BACKUPS = environment.HALL_BACKUPS
HALL_BACKUP_DIR = HALL_DATA_DIR / "backups"
# /healthz says "disk": "full" (503) when the data folder's disk has less free than this: a
# night's database, its backups and PDFs take some tens of megabytes (config/storage.py).
HALL_DISK_MIN_FREE_MB = environment.HALL_DISK_MIN_FREE_MB

_hall_host = urlsplit(HALL_URL).hostname if HALL_URL else None
ALLOWED_HOSTS = environment.ALLOWED_HOSTS or [
    host
    for host in (_hall_host, environment.HALL_HOSTNAME, "localhost", "127.0.0.1", "[::1]")
    if host
]

# Plain HTTP on the hall's network: cookies must travel without TLS. The rest of production's
# hardening stays.
SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# A browser honours Cross-Origin-Opener-Policy only from HTTPS or localhost: on the hall's
# address it ignores the header and says so in the console of every page.
SECURE_CROSS_ORIGIN_OPENER_POLICY = None

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
# What the laptop compresses when it collects the static files (fortyfives hall, before serving):
# the hashed names only (the pages ask for nothing else), and no source maps (only a browser's
# developer tools fetch them): 16 s of CPU instead of 60 at the first start (BENCHMARKS.md,
# "The hall's server starts").
WHITENOISE_KEEP_ONLY_HASHED_FILES = True
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "map")

# A new data folder (nobody can log in yet) opens the first-run page on the laptop: the club,
# the organizer's account, the hall's language (config/firstrun.py).
HALL_FIRST_RUN = True

# No demo account with its published password on a hall's network, unless asked for (as prod).
DEMO_COMMAND_ALLOWED = bool(environment.DEMO_COMMAND_ALLOWED)
