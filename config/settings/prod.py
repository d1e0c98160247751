"""Production: PostgreSQL and Redis from the environment, behind a TLS-terminating proxy.

``SECRET_KEY`` and ``ALLOWED_HOSTS`` are required. ``python manage.py check --deploy``
with these settings must report no issues.
"""

from django.core.exceptions import ImproperlyConfigured

from .base import *
from .base import environment

DEBUG = bool(environment.DEBUG)

SECRET_KEY = environment.SECRET_KEY
if not SECRET_KEY:
    raise ImproperlyConfigured(
        "SECRET_KEY must be set in production, e.g. to the output of "
        "python -c 'from django.core.management.utils import get_random_secret_key; "
        "print(get_random_secret_key())'"
    )
ALLOWED_HOSTS = environment.ALLOWED_HOSTS or []

# TLS ends at the reverse proxy, which must set X-Forwarded-Proto.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = environment.SECURE_SSL_REDIRECT
# Load balancers probe /healthz over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^livez$"]
SECURE_HSTS_SECONDS = environment.SECURE_HSTS_SECONDS
SECURE_HSTS_INCLUDE_SUBDOMAINS = environment.SECURE_HSTS_INCLUDE_SUBDOMAINS
SECURE_HSTS_PRELOAD = environment.SECURE_HSTS_PRELOAD
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# Cookies only over HTTPS. SECURE_COOKIES=false is for the local stack (tools/stack.py),
# which serves plain HTTP on 127.0.0.1 with no proxy in front.
SESSION_COOKIE_SECURE = environment.SECURE_COOKIES
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
X_FRAME_OPTIONS = "DENY"
# The proxy appends the client's address to X-Forwarded-For: count failed logins and tokens
# against it rather than against the proxy's own address (drives/ratelimit.py).
RATELIMIT_TRUST_X_FORWARDED_FOR = environment.TRUST_X_FORWARDED_FOR
# ...and only from these addresses or networks (the proxy's own), loopback by default.
RATELIMIT_TRUSTED_PROXIES = environment.TRUSTED_PROXIES

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

DEMO_COMMAND_ALLOWED = bool(environment.DEMO_COMMAND_ALLOWED)
