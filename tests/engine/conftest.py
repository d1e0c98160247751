"""Engine tests: each test session computes the score tables from the code under test."""

from collections.abc import Iterator

import pytest

from engine import scores


@pytest.fixture(autouse=True, scope="session")
def _fresh_score_tables() -> Iterator[None]:
    """The score tables are cached per ruleset for the life of the process. A mutation run
    (``make mutation``) forks each mutant's session from a process that already filled them
    with the real code's tables: clear them so each session judges with the code it tests."""
    for cached in (scores._outcomes, scores._final_table, scores._sums_without_stopping):
        cached.cache_clear()
    yield
