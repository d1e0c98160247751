"""Production: PostgreSQL and Redis from the environment, behind a TLS-terminating proxy.

``SECRET_KEY`` and ``ALLOWED_HOSTS`` are required. ``python manage.py check --deploy``
with these settings must report no issues.
"""

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *
from .env import env_bool, env_int, env_list, env_networks

DEBUG = env_bool(os.environ, "DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    raise ImproperlyConfigured(
        "SECRET_KEY must be set in production, e.g. to the output of "
        "python -c 'from django.core.management.utils import get_random_secret_key; "
        "print(get_random_secret_key())'"
    )
ALLOWED_HOSTS = env_list(os.environ, "ALLOWED_HOSTS")

# TLS ends at the reverse proxy, which must set X-Forwarded-Proto.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool(os.environ, "SECURE_SSL_REDIRECT", True)
# Load balancers probe /healthz over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^livez$"]
SECURE_HSTS_SECONDS = env_int(os.environ, "SECURE_HSTS_SECONDS", 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool(os.environ, "SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool(os.environ, "SECURE_HSTS_PRELOAD", True)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# Cookies only over HTTPS. SECURE_COOKIES=false is for the local stack (tools/stack.py),
# which serves plain HTTP on 127.0.0.1 with no proxy in front.
SESSION_COOKIE_SECURE = env_bool(os.environ, "SECURE_COOKIES", True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
X_FRAME_OPTIONS = "DENY"
# The proxy appends the client's address to X-Forwarded-For: count failed logins and tokens
# against it rather than against the proxy's own address (drives/ratelimit.py).
RATELIMIT_TRUST_X_FORWARDED_FOR = env_bool(os.environ, "TRUST_X_FORWARDED_FOR", False)
# ...and only from these addresses or networks (the proxy's own), loopback by default.
RATELIMIT_TRUSTED_PROXIES = env_networks(os.environ, "TRUSTED_PROXIES", "127.0.0.1,::1")

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

DEMO_COMMAND_ALLOWED = env_bool(os.environ, "DEMO_COMMAND_ALLOWED", False)
