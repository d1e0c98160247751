"""Fixtures of the money tests: the API client and a club (from tests/api), a drive of 6
couples with an entry fee of 20.00 CAD a couple."""

from decimal import Decimal

import pytest
from django.test import Client

from drives.models import Drive
from tests.api.helpers import Api, ClubUsers, make_club, make_drive


@pytest.fixture
def api() -> Api:
    return Api(Client())


@pytest.fixture
def ours(db: None) -> ClubUsers:
    return make_club("St. Joseph's Parish", "ours")


@pytest.fixture
def drive(ours: ClubUsers) -> Drive:
    return make_drive(ours.club, 6, entry_fee=Decimal("20.00"), entry_fee_per="couple")
