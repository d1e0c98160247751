"""Benchmarks of the simulator (pytest-benchmark): whole games per preset and bot.

Each round plays a fixed, seeded batch of games, kept small so that the normal test run stays
quick; ``scripts/bench_engine.py`` measures the 10,000-game figure for BENCHMARKS.md. Nothing
here asserts a time.
"""

import random
from typing import TYPE_CHECKING

import pytest

from engine.rules import get_ruleset
from engine.simulate import simulate_game

if TYPE_CHECKING:
    from pytest_benchmark.fixture import BenchmarkFixture

pytest.importorskip("pytest_benchmark")

GAMES_PER_ROUND = 200


def play_batch(preset: str, bot: str) -> int:
    rules = get_ruleset(preset)
    rng = random.Random(2024)
    hands = 0
    for _ in range(GAMES_PER_ROUND):
        hands += len(simulate_game(rules, rng, bot=bot).lines)
    return hands


@pytest.mark.parametrize(
    ("preset", "bot"),
    [
        ("cape-breton-45", "heuristic"),
        ("cape-breton-45", "random"),
        ("irish-45-joker", "heuristic"),
        ("auction-120", "heuristic"),
    ],
)
def test_bench_simulate_games(benchmark: "BenchmarkFixture", preset: str, bot: str) -> None:
    benchmark.group = "simulate"
    benchmark.extra_info["games_per_round"] = GAMES_PER_ROUND
    hands = benchmark.pedantic(play_batch, args=(preset, bot), rounds=3, iterations=1)
    assert hands >= 2 * GAMES_PER_ROUND
