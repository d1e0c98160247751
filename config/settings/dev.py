"""Development and the embedded default (``make run``): DEBUG on, an insecure fallback key."""

import os

from .base import *
from .base import EMAIL_BACKEND, PASSWORD_RESET_BY_EMAIL, SECRET_KEY
from .env import CONSOLE_BACKEND, env_bool

DEBUG = env_bool(os.environ, "DEBUG", True)
SECRET_KEY = SECRET_KEY or "django-insecure-dev-only-do-not-use-in-production-45s"
# Without EMAIL_URL/EMAIL_HOST, reset mails are printed to the console.
if not PASSWORD_RESET_BY_EMAIL:
    EMAIL_BACKEND = CONSOLE_BACKEND
    PASSWORD_RESET_BY_EMAIL = True
