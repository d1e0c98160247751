"""Fixtures of the API tests: ``api`` (a JSON client), ``ours`` (a club with an organizer and
a scorer, each with an API token) and ``theirs`` (another club, for the tests of scope)."""

import pytest
from django.test import Client

from tests.api.helpers import Api, ClubUsers, make_club


@pytest.fixture
def api() -> Api:
    return Api(Client())


@pytest.fixture
def ours(db: None) -> ClubUsers:
    return make_club("St. Joseph's Parish", "ours")


@pytest.fixture
def theirs(db: None) -> ClubUsers:
    return make_club("Legion Branch 12", "theirs")
