"""Development and the embedded default (``make run``): DEBUG on, an insecure fallback key."""

from .base import *
from .base import EMAIL_BACKEND, PASSWORD_RESET_BY_EMAIL, SECRET_KEY, environment
from .env import CONSOLE_BACKEND

DEBUG = environment.DEBUG is not False
SECRET_KEY = SECRET_KEY or "django-insecure-dev-only-do-not-use-in-production-45s"
# Without EMAIL_URL/EMAIL_HOST, reset mails are printed to the console.
if not PASSWORD_RESET_BY_EMAIL:
    EMAIL_BACKEND = CONSOLE_BACKEND
    PASSWORD_RESET_BY_EMAIL = True
