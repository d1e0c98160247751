"""Settings shared by every environment. Each value that differs between installations is
read from the environment (``environment``: config/settings/env.py's ``Environment``,
README.md's table); dev, test and prod adjust the rest.
"""

from pathlib import Path
from urllib.parse import urlsplit

from csp.constants import NONE, SELF
from django.utils.translation import gettext_lazy as _

from .. import paths as _paths
from .env import cache_settings, celery_settings, database_settings, email_settings, read

# Every variable, read and checked once (ImproperlyConfigured names a refused one); lower
# case, so that Django takes it for no setting (it holds the secret key).
environment = read()

# The checkout (installed: the packages' folder), and the folder of templates/, static/ and
# locale/: the checkout's, or the copy inside the installed package (config/paths.py).
BASE_DIR = _paths.BASE_DIR
SITE_DIR = _paths.SITE_DIR

SECRET_KEY = environment.SECRET_KEY
DEBUG = bool(environment.DEBUG)
ALLOWED_HOSTS = (
    ["localhost", "127.0.0.1", "[::1]"]
    if environment.ALLOWED_HOSTS is None
    else environment.ALLOWED_HOSTS
)
CSRF_TRUSTED_ORIGINS = environment.CSRF_TRUSTED_ORIGINS

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "csp",
    # django-ninja: the API's docs page (its template and Swagger UI's static files, served
    # from here like every other static file: no CDN)
    "ninja",
    "drives",
    "scoring",
    "practice",
    # a club's season: its drives, players and standings (builds on drives and scoring)
    "seasons",
    "money",
    # the site's own app (config/apps.py; the API's routers are mounted in config/urls.py)
    "config.apps.SiteConfig",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A phone's poll that finds nothing new: 304 before the rest (scoring/pages/conditional.py).
    "scoring.pages.conditional.PhonePollMiddleware",
    "csp.middleware.CSPMiddleware",
    # The hall's first start (HALL_FIRST_RUN): the laptop to the first-run page, phones told
    # to wait, until an account exists; then one flag read a request (config/firstrun.py).
    "config.firstrun.FirstRunMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # A write refused for want of disk space: 503 storage_full, not a 500 (config/storage.py).
    "config.storage.StorageFullMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [SITE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": database_settings(environment, BASE_DIR)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# CACHE_URL=redis://… shares the cache between app servers; unset, each process has its own.
CACHES = {"default": cache_settings(environment)}
# Sessions live in the database, never in the cache: with Redis down, logging in still works.
SESSION_ENGINE = "django.contrib.sessions.backends.db"

# A phone's poll that finds nothing new answered before Django, from the serving process's
# memory (config/pollgate.py, drives/pageboard.py): one process only, so off here (the
# production stack runs several); the hall turns it on. PAGE_BOARD_SIGNAL: a file another
# process's writes touch, so that the serving one forgets what it knew.
POLL_GATE = False
PAGE_BOARD_SIGNAL = ""
# Pages told of a change the moment it commits, by a stream of Server-Sent Events
# (drives/pagehub.py, config/events.py): "" off (the pages poll), "local" (one process: the
# hall), "redis" (the production stack: commits published on PAGE_EVENTS_CHANNEL of
# PAGE_EVENTS_REDIS_URL, each events process listening). PAGE_EVENTS_URL: where the pages
# open their streams (the events process's address when it is not the site's own).
PAGE_EVENTS = environment.PAGE_EVENTS
PAGE_EVENTS_URL = environment.PAGE_EVENTS_URL
# Redis: PAGE_EVENTS_REDIS_URL, or the broker's when it is Redis.
PAGE_EVENTS_REDIS_URL = environment.PAGE_EVENTS_REDIS_URL
PAGE_EVENTS_CHANNEL = environment.PAGE_EVENTS_CHANNEL
# PAGE_EVENTS_STOP ("local" only): a file the hall's server writes when it stops; its streams
# end then, or the server would wait for every page to go away (the streams never end).
PAGE_EVENTS_STOP = ""

# Failed logins and unknown tokens per client address (drives/ratelimit.py): after this many
# within the window, 429 until it ends. Behind a reverse proxy that appends the client's
# address to X-Forwarded-For, set RATELIMIT_TRUST_X_FORWARDED_FOR (prod: TRUST_X_FORWARDED_FOR);
# the header is believed only from RATELIMIT_TRUSTED_PROXIES.
RATELIMIT_LOGIN_FAILURES = 10  # per browser (its device cookie) and username
# per address, whatever the name and the browser: a ceiling far above a hall's typos (250
# phones behind one address, a few each), against a guesser who takes a new cookie each try
RATELIMIT_LOGIN_IP_FAILURES = 1000
RATELIMIT_LOGIN_WINDOW = 15 * 60
# A browser that has logged in as a user is known for this long (its signed device cookie):
# other browsers' failures never lock it out; it has RATELIMIT_LOGIN_FAILURES of its own.
RATELIMIT_DEVICE_COOKIE_AGE = 365 * 24 * 60 * 60
RATELIMIT_TOKEN_FAILURES = 50  # per address
RATELIMIT_TOKEN_WINDOW = 10 * 60
RATELIMIT_TRUST_X_FORWARDED_FOR = False
# The proxies whose X-Forwarded-For is believed (addresses or networks; prod: TRUSTED_PROXIES).
RATELIMIT_TRUSTED_PROXIES = ["127.0.0.1", "::1"]
# django-ratelimit counts them in the cache; with the cache's Redis down, nothing is limited
# (config/cache.py answers as an empty cache): the organizer can still log in.
RATELIMIT_FAIL_OPEN = True

# Content-Security-Policy on every response Django makes (django-csp's middleware; the static
# files WhiteNoise serves before it need none). Scripts and styles come only from our own
# static files: no inline <script>, no on*= attribute, no style= attribute, no <style> block
# (tests/config/test_csp.py reads the templates). Images too: the QR codes are drawn into the
# PDFs, not the pages, so no data: URI is needed. Nothing may frame the pages, and forms post
# only to this site.
_events_split = urlsplit(PAGE_EVENTS_URL)
_events_origin = (
    [f"{_events_split.scheme}://{_events_split.netloc}"] if _events_split.netloc else []
)
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        # and the pages' event streams where another address serves them (PAGE_EVENTS_URL)
        "connect-src": [SELF, *_events_origin],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# The first-run page on a new data folder (config/firstrun.py): the hall's settings only.
HALL_FIRST_RUN = False
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("fr", _("French"))]
LOCALE_PATHS = [SITE_DIR / "locale"]
TIME_ZONE = "America/Halifax"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(environment.STATIC_ROOT or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [SITE_DIR / "static"]
MEDIA_URL = "media/"
MEDIA_ROOT = Path(environment.MEDIA_ROOT or BASE_DIR / "media")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# E-mail, for password resets: EMAIL_URL (smtp://user:password@host:587?tls=1, smtps://…,
# console:) or EMAIL_HOST and the rest; see config.settings.env.email_settings. With none,
# PASSWORD_RESET_BY_EMAIL is off and the reset page says the club's administrator resets
# passwords instead of pretending to send a mail.
_email = email_settings(environment)
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_HOST = _email["EMAIL_HOST"]
EMAIL_PORT = _email["EMAIL_PORT"]
EMAIL_HOST_USER = _email["EMAIL_HOST_USER"]
EMAIL_HOST_PASSWORD = _email["EMAIL_HOST_PASSWORD"]
EMAIL_USE_TLS = _email["EMAIL_USE_TLS"]
EMAIL_USE_SSL = _email["EMAIL_USE_SSL"]
EMAIL_TIMEOUT = _email["EMAIL_TIMEOUT"]
DEFAULT_FROM_EMAIL = _email["DEFAULT_FROM_EMAIL"]
PASSWORD_RESET_BY_EMAIL = _email["PASSWORD_RESET_BY_EMAIL"]

# Celery: see config.settings.env.celery_settings for the rules.
_celery = celery_settings(environment)
if not PAGE_EVENTS_REDIS_URL:
    _broker = str(_celery["CELERY_BROKER_URL"])
    PAGE_EVENTS_REDIS_URL = (
        _broker if _broker.startswith(("redis://", "rediss://")) else "redis://127.0.0.1:6379/0"
    )
CELERY_BROKER_URL = _celery["CELERY_BROKER_URL"]
CELERY_RESULT_BACKEND = _celery["CELERY_RESULT_BACKEND"]
CELERY_TASK_ALWAYS_EAGER = _celery["CELERY_TASK_ALWAYS_EAGER"]
CELERY_TASK_EAGER_PROPAGATES = _celery["CELERY_TASK_EAGER_PROPAGATES"]
CELERY_TASK_ACKS_LATE = _celery["CELERY_TASK_ACKS_LATE"]
CELERY_TASK_REJECT_ON_WORKER_LOST = _celery["CELERY_TASK_REJECT_ON_WORKER_LOST"]
CELERY_WORKER_PREFETCH_MULTIPLIER = _celery["CELERY_WORKER_PREFETCH_MULTIPLIER"]
CELERY_TASK_SERIALIZER = _celery["CELERY_TASK_SERIALIZER"]
CELERY_RESULT_SERIALIZER = _celery["CELERY_RESULT_SERIALIZER"]
CELERY_ACCEPT_CONTENT = _celery["CELERY_ACCEPT_CONTENT"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = _celery["CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP"]
CELERY_TASK_SOFT_TIME_LIMIT = _celery["CELERY_TASK_SOFT_TIME_LIMIT"]
CELERY_TASK_TIME_LIMIT = _celery["CELERY_TASK_TIME_LIMIT"]
CELERY_BROKER_TRANSPORT_OPTIONS = _celery["CELERY_BROKER_TRANSPORT_OPTIONS"]
CELERY_TASK_PUBLISH_RETRY = _celery["CELERY_TASK_PUBLISH_RETRY"]
CELERY_TASK_PUBLISH_RETRY_POLICY = _celery["CELERY_TASK_PUBLISH_RETRY_POLICY"]
CELERY_TIMEZONE = TIME_ZONE
# A printed document that no worker has started within this many seconds is marked failed
# ("ask again"), never left queued for good (scoring.printing.services).
PRINT_QUEUED_TIMEOUT = environment.PRINT_QUEUED_TIMEOUT

# How long /healthz waits for the broker before calling it down.
HEALTHZ_BROKER_TIMEOUT = environment.HEALTHZ_BROKER_TIMEOUT

# The largest CSV file imported (couples, results), in bytes: a larger one is refused by name.
CSV_MAX_BYTES = environment.CSV_MAX_BYTES

# `manage.py demo` creates a superuser with a published password: fine on a hall laptop,
# never on a public server (prod turns it off unless DEMO_COMMAND_ALLOWED=true).
DEMO_COMMAND_ALLOWED = environment.DEMO_COMMAND_ALLOWED is not False

DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"

# Every handler masks the tokens of the table and couple pages (config/redact.py): Django logs
# "Not Found: /t/<token>/" for a token that is nobody's, and runserver each request line.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"mask_tokens": {"()": "config.redact.MaskTokens"}},
    "formatters": {
        "plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"},
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        },
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["mask_tokens"],
        },
        "django.server": {
            "class": "logging.StreamHandler",
            "formatter": "django.server",
            "filters": ["mask_tokens"],
        },
    },
    "root": {"handlers": ["console"], "level": environment.LOG_LEVEL},
    # Django's own default handler for "django" would print its messages a second time.
    "loggers": {
        "django": {"handlers": ["console"], "propagate": False},
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
    },
}
