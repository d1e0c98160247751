"""Benchmark: verdicts on every final score of a 250-table, 25-game night (6,250 results).

Target ≤ 10 ms (figures in BENCHMARKS.md). This measures; it never fails on a time. Run with
``make bench`` or ``pytest tests/benchmarks --benchmark-enable``.
"""

import random

from pytest_benchmark.fixture import BenchmarkFixture

from engine.rules import get_ruleset
from engine.scores import check_final_score, check_final_scores, legal_final_scores

RULES = get_ruleset("cape-breton-45")


def a_night(seed: int = 45) -> list[tuple[int, int]]:
    """6,250 results: mostly regular scores, some unusual and some mistyped."""
    rng = random.Random(seed)
    ok = legal_final_scores(RULES)
    unusual = [s for s in legal_final_scores(RULES, include_unusual=True) if s not in ok]
    wrong = [(45, 20), (47, 15), (40, 30), (75, 15)]
    pools = (ok, unusual, wrong)
    return [rng.choice(rng.choices(pools, weights=(90, 5, 5))[0]) for _ in range(6250)]


def test_verdicts_for_a_whole_night(benchmark: BenchmarkFixture) -> None:
    night = a_night()
    verdicts = benchmark(lambda: list(check_final_scores(night, RULES)))
    assert len(verdicts) == 6250
    assert {v.status for v in verdicts} == {"ok", "unusual", "impossible"}


def test_verdicts_one_call_per_result(benchmark: BenchmarkFixture) -> None:
    night = a_night()
    verdicts = benchmark(lambda: [check_final_score(w, loser, RULES) for w, loser in night])
    assert len(verdicts) == 6250
