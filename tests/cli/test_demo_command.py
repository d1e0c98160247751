"""``manage.py demo``: the demo organizer, the scorer, the club and a night in progress, made
once however often it runs."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test.utils import override_settings

from drives.models import AuditEntry, Club, Couple, Drive, Game, Membership
from scoring.models import Result, ResultVersion
from scoring.selectors import game_view

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


def counts() -> dict[str, int]:
    return {
        model.__name__: model.objects.count()
        for model in (Club, Membership, Drive, Couple, Game, Result, ResultVersion, AuditEntry)
    } | {"users": get_user_model().objects.count()}


def test_demo_makes_a_club_a_scorer_and_a_night_in_progress() -> None:
    output = run_demo()
    club = Club.objects.get(name="St. Mary's Parish Hall")
    organizer = get_user_model().objects.get(username="organizer")
    scorer = get_user_model().objects.get(username="scorer")
    assert scorer.check_password("forty-five") and not scorer.is_staff
    assert Membership.objects.get(club=club, user=organizer).role == "organizer"
    assert Membership.objects.get(club=club, user=scorer).role == "scorer"
    assert "username scorer, password forty-five" in output
    drive = Drive.objects.get(club=club)
    assert drive.couples.count() == 40
    assert drive.couples.filter(cookie_jar=True).exists()
    assert drive.couples.filter(paid=False).exists()
    assert (drive.state, drive.current_game) == ("running", 7)
    view = game_view(drive, 7)
    assert view is not None and view["reported"] == view["to_report"] // 2 > 0
    assert Result.objects.filter(game__drive=drive, game__number__lte=6).count() == 6 * 20
    assert drive.slug in output
    assert f"api/v1/drives/{drive.slug}" in output


def test_a_second_run_changes_nothing() -> None:
    run_demo()
    before = counts()
    winners = list(Result.objects.order_by("id").values_list("winner__number", flat=True))
    output = run_demo()
    assert counts() == before
    assert "Demo drive already there" in output
    assert list(Result.objects.order_by("id").values_list("winner__number", flat=True)) == winners
