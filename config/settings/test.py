"""pytest (``DJANGO_SETTINGS_MODULE=config.settings.test``): fast hashing, no DEBUG.

The database and the broker still come from the environment, so the same suite runs on the
SQLite default and, in CI, on PostgreSQL and Redis.
"""

from .base import *
from .base import BASE_DIR, DATABASES, SECRET_KEY
from .env import SQLITE_ENGINE

DEBUG = False
SECRET_KEY = SECRET_KEY or "django-insecure-test-only-key-for-the-45s-test-suite"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
PASSWORD_RESET_BY_EMAIL = True
# Serve static files from the app and project folders, as in development: tests do not
# run collectstatic.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True

# On SQLite the test database is a file, as in a hall (WAL journal, writers waiting on one
# another), not Django's in-memory default: the concurrency tests need threads that share it.
if DATABASES["default"]["ENGINE"] == SQLITE_ENGINE:
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test-db.sqlite3")}
