"""``manage.py demo``: the demo organizer, made once however often it runs."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test.utils import override_settings

pytestmark = pytest.mark.django_db


def run_demo() -> str:
    out = StringIO()
    call_command("demo", stdout=out)
    return out.getvalue()


def test_demo_creates_the_organizer_and_prints_the_credentials() -> None:
    output = run_demo()
    user = get_user_model().objects.get(username="organizer")
    assert user.is_superuser and user.is_staff and user.is_active
    assert user.check_password("forty-five")
    assert "created" in output
    assert "username: organizer" in output
    assert "password: forty-five" in output


def test_demo_is_idempotent() -> None:
    run_demo()
    output = run_demo()
    assert get_user_model().objects.filter(username="organizer").count() == 1
    assert "already there" in output


def test_demo_repairs_a_changed_password() -> None:
    run_demo()
    user = get_user_model().objects.get(username="organizer")
    user.set_password("something else")
    user.is_staff = False
    user.save()
    run_demo()
    user.refresh_from_db()
    assert user.check_password("forty-five")
    assert user.is_staff


@override_settings(DEMO_COMMAND_ALLOWED=False)
def test_demo_refuses_where_it_is_turned_off() -> None:
    with pytest.raises(CommandError, match="DEMO_COMMAND_ALLOWED"):
        run_demo()
    assert not get_user_model().objects.filter(username="organizer").exists()
