"""Engine tests: under a mutation run, each test computes the score tables from the code it
tests."""

import os
from collections.abc import Iterator

import pytest

from engine import scores


@pytest.fixture(autouse=True)
def _fresh_score_tables() -> Iterator[None]:
    """The score tables are cached per ruleset for the life of the process. A mutation run
    (``make mutation``) forks each mutant's tests from a process that already filled them with
    the real code's tables, and runs for each mutant only the tests that reached the mutated
    code when the tables were filled: clear them before every test so each one judges with the
    code under test and is counted against what it reaches. Outside a mutation run the cache
    stays (the tables are the same for every test)."""
    if os.environ.get("MUTANT_UNDER_TEST"):
        for cached in (scores._outcomes, scores._final_table, scores._sums_without_stopping):
            cached.cache_clear()
    yield
