import pytest

from tests.seasons.helpers import World, make_season


@pytest.fixture
def world(db: None) -> World:
    return make_season()
