"""Fixtures of the club's players tests: ``api`` (a JSON client), ``ours`` and ``theirs``
(clubs with an organizer and a scorer, each with an API token)."""

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
