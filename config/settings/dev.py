"""Development and the embedded default (``make run``): DEBUG on, an insecure fallback key."""

import os

from .base import *
from .base import SECRET_KEY
from .env import env_bool

DEBUG = env_bool(os.environ, "DEBUG", True)
SECRET_KEY = SECRET_KEY or "django-insecure-dev-only-do-not-use-in-production-45s"
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
