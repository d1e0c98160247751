"""``manage.py apitoken USERNAME``: a new API token, printed once, stored as a digest."""

import pytest
from django.core.management.base import CommandError

from drives.models import ApiToken
from tests.cli.helpers import run
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_prints_a_new_token_whose_digest_is_stored() -> None:
    user = UserFactory(username="maggie")
    first = run("apitoken", "maggie").strip()
    second = run("apitoken", "maggie").strip()
    assert first != second and len(first) >= 40 and " " not in first
    digests = set(ApiToken.objects.filter(user=user).values_list("digest", flat=True))
    assert digests == {ApiToken.digest_of(first), ApiToken.digest_of(second)}


def test_an_unknown_or_inactive_user_is_a_message() -> None:
    with pytest.raises(CommandError, match="No user called 'nobody'"):
        run("apitoken", "nobody")
    UserFactory(username="gone", is_active=False)
    with pytest.raises(CommandError, match="not active"):
        run("apitoken", "gone")
    assert not ApiToken.objects.exists()
