"""The production settings pass Django's deployment checklist and refuse to start without
a secret key. Each test runs manage.py in a subprocess, with its own environment."""

import os
import subprocess
import sys

from django.conf import settings
from django.core.management.utils import get_random_secret_key


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.prod", **env}
    for name in ("SECRET_KEY", "ALLOWED_HOSTS", "DEBUG", "SECURE_SSL_REDIRECT", "SECURE_COOKIES"):
        if name not in env:
            environ.pop(name, None)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=settings.BASE_DIR,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_reports_no_issues() -> None:
    result = run_manage(
        "check", "--deploy", SECRET_KEY=get_random_secret_key(), ALLOWED_HOSTS="example.org"
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "System check identified no issues" in output, output
    assert "WARNING" not in output, output


def test_prod_refuses_to_start_without_a_secret_key() -> None:
    result = run_manage("check", ALLOWED_HOSTS="example.org")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY must be set" in result.stderr


def test_cookies_are_secure_in_production_unless_told_otherwise() -> None:
    script = (
        "from django.conf import settings as s; "
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE)"
    )
    key = get_random_secret_key()
    default = run_manage("shell", "-c", script, SECRET_KEY=key, ALLOWED_HOSTS="example.org")
    assert default.returncode == 0, default.stderr
    assert default.stdout.splitlines()[-1].split() == ["True", "True"]
    local = run_manage(
        "shell", "-c", script, SECRET_KEY=key, ALLOWED_HOSTS="example.org", SECURE_COOKIES="false"
    )
    assert local.stdout.splitlines()[-1].split() == ["False", "False"], local.stderr
