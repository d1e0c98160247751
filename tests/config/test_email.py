"""E-mail for password resets (config/settings/env.py ``email_settings``, config/login.py).

From ``EMAIL_URL`` or Django's ``EMAIL_HOST``… variables; with neither (production's default),
no reset mail is pretended: the reset page says that the club's administrator resets
passwords, offers no form and sends nothing."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, override_settings

from config.settings.env import email_settings, read
from tests.factories import UserFactory

SMTP = "django.core.mail.backends.smtp.EmailBackend"
ADMINISTRATOR = "Passwords are reset by the club's administrator"


def _mail(config: dict[str, Any]) -> dict[str, Any]:
    keys = (
        "EMAIL_BACKEND",
        "EMAIL_HOST",
        "EMAIL_PORT",
        "EMAIL_HOST_USER",
        "EMAIL_HOST_PASSWORD",
        "EMAIL_USE_TLS",
        "EMAIL_USE_SSL",
    )
    return {key: config[key] for key in keys}


# --- settings ------------------------------------------------------------------------------------


def test_no_email_settings_means_no_reset_by_email() -> None:
    config = email_settings(read({}))
    assert config["PASSWORD_RESET_BY_EMAIL"] is False
    assert config["DEFAULT_FROM_EMAIL"] == "webmaster@localhost"


def test_an_smtp_url_with_starttls() -> None:
    config = email_settings(
        read(
            {
                "EMAIL_URL": "smtp://club%40example.org:p%40ss%3Aword@mail.example.org:587?tls=1",
                "DEFAULT_FROM_EMAIL": "Forty-fives <club@example.org>",
            }
        )
    )
    assert _mail(config) == {
        "EMAIL_BACKEND": SMTP,
        "EMAIL_HOST": "mail.example.org",
        "EMAIL_PORT": 587,
        "EMAIL_HOST_USER": "club@example.org",
        "EMAIL_HOST_PASSWORD": "p@ss:word",
        "EMAIL_USE_TLS": True,
        "EMAIL_USE_SSL": False,
    }
    assert config["PASSWORD_RESET_BY_EMAIL"] is True
    assert config["DEFAULT_FROM_EMAIL"] == "Forty-fives <club@example.org>"
    assert config["EMAIL_TIMEOUT"] == 10


def test_an_smtps_url_is_ssl_on_port_465_and_plain_smtp_is_port_25() -> None:
    ssl = email_settings(read({"EMAIL_URL": "smtps://user:secret@mail.example.org?timeout=5"}))
    assert (ssl["EMAIL_PORT"], ssl["EMAIL_USE_SSL"], ssl["EMAIL_USE_TLS"]) == (465, True, False)
    assert ssl["EMAIL_TIMEOUT"] == 5
    plain = email_settings(read({"EMAIL_URL": "smtp://relay.internal"}))
    assert (plain["EMAIL_HOST"], plain["EMAIL_PORT"], plain["EMAIL_HOST_USER"]) == (
        "relay.internal",
        25,
        "",
    )
    assert plain["PASSWORD_RESET_BY_EMAIL"] is True


def test_a_console_url_prints_the_mails() -> None:
    config = email_settings(read({"EMAIL_URL": "console:"}))
    assert config["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    assert config["PASSWORD_RESET_BY_EMAIL"] is True


def test_djangos_own_variables() -> None:
    config = email_settings(
        read(
            {
                "EMAIL_HOST": "mail.example.org",
                "EMAIL_HOST_USER": "club",
                "EMAIL_HOST_PASSWORD": "secret",
                "EMAIL_USE_TLS": "true",
            }
        )
    )
    assert _mail(config) == {
        "EMAIL_BACKEND": SMTP,
        "EMAIL_HOST": "mail.example.org",
        "EMAIL_PORT": 587,
        "EMAIL_HOST_USER": "club",
        "EMAIL_HOST_PASSWORD": "secret",
        "EMAIL_USE_TLS": True,
        "EMAIL_USE_SSL": False,
    }
    assert config["PASSWORD_RESET_BY_EMAIL"] is True
    assert email_settings(read({"EMAIL_HOST": "mx", "EMAIL_PORT": "2525"}))["EMAIL_PORT"] == 2525


@pytest.mark.parametrize(
    ("environ", "names"),
    [
        ({"EMAIL_URL": "imap://mail.example.org"}, "smtp://"),
        ({"EMAIL_URL": "smtp://"}, "no mail server"),
        ({"EMAIL_URL": "smtp://mail.example.org:port"}, "port"),
        ({"EMAIL_URL": "smtp://mail.example.org?tls=1&ssl=1"}, "not both"),
        ({"EMAIL_URL": "smtp://mail.example.org?starttls=1"}, "starttls"),
        ({"EMAIL_URL": "smtp://mail.example.org?tls=maybe"}, "TLS"),
        ({"EMAIL_URL": "smtp://a", "EMAIL_HOST": "b"}, "not both"),
        ({"EMAIL_HOST": "mx", "EMAIL_USE_SSL": "yes", "EMAIL_USE_TLS": "yes"}, "not both"),
    ],
)
def test_bad_email_settings_are_refused_by_name(environ: dict[str, str], names: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=names):
        email_settings(read(environ))


def test_production_resets_by_email_only_when_told_how() -> None:
    code = (
        "import config.settings.prod as s; "
        "print(s.PASSWORD_RESET_BY_EMAIL, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_USE_SSL)"
    )
    env = {"SECRET_KEY": "x" * 50, "ALLOWED_HOSTS": "drives.example.org", "PATH": "/usr/bin"}
    cases = (
        ({}, "False localhost 25 False"),
        ({"EMAIL_URL": "smtps://u:p@mail.example.org"}, "True mail.example.org 465 True"),
    )
    for extra, expected in cases:
        out = subprocess.run(
            [sys.executable, "-c", code],
            env={**env, **extra},
            capture_output=True,
            text=True,
            check=True,
        )
        assert out.stdout.strip() == expected


# --- the reset page ------------------------------------------------------------------------------


@pytest.mark.django_db
@override_settings(PASSWORD_RESET_BY_EMAIL=False)
def test_without_email_the_reset_page_sends_to_the_administrator(
    client: Client, mailoutbox: list[Any]
) -> None:
    UserFactory(username="mary", email="mary@example.org")
    page = client.get("/accounts/password_reset/")
    assert page.status_code == 200
    assert ADMINISTRATOR in page.text
    assert 'name="email"' not in page.text, "no form is offered"
    posted = client.post("/accounts/password_reset/", {"email": "mary@example.org"})
    assert posted.status_code == 200 and ADMINISTRATOR in posted.text
    assert mailoutbox == []
    done = client.get("/accounts/password_reset/done/")
    assert ADMINISTRATOR in done.text and "emailed you" not in done.text
    # The login page points there.
    assert 'href="/accounts/password_reset/"' in client.get("/accounts/login/").text


@pytest.mark.django_db
@override_settings(
    PASSWORD_RESET_BY_EMAIL=True,
    EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend",
    DEFAULT_FROM_EMAIL="club@example.org",
)
def test_with_email_the_reset_page_sends_the_link(client: Client, mailoutbox: list[Any]) -> None:
    UserFactory(username="mary", email="mary@example.org")
    page = client.get("/accounts/password_reset/")
    assert 'name="email"' in page.text and ADMINISTRATOR not in page.text
    posted = client.post("/accounts/password_reset/", {"email": "mary@example.org"})
    assert posted.status_code == 302 and posted["Location"] == "/accounts/password_reset/done/"
    (mail,) = mailoutbox
    assert mail.to == ["mary@example.org"] and mail.from_email == "club@example.org"
    assert "/accounts/reset/" in mail.body
    assert ADMINISTRATOR not in client.get(posted["Location"]).text
