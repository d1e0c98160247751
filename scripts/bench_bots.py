"""How often the heuristic bot beats the beginner: seeded partnership games, two heuristic bots
against two beginners, with the 95 % confidence interval of the win rate.

    python scripts/bench_bots.py                          # 10,000 games of each preset
    python scripts/bench_bots.py --preset auction-120 --games 2000 --seed 3

The sides change seats every game (the heuristic pair deals first in half of them) so that the
first deal favours neither. One process, seeded: the same seed plays the same games. Prints
the figures; copying them into BENCHMARKS.md is left to the person running it.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

Z95 = 1.959964


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (wins of games)."""
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from engine.beginner import BeginnerBot
    from engine.bots import HeuristicBot
    from engine.rules import PRESETS, get_ruleset
    from engine.simulate import simulate_game

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--preset", choices=sorted(PRESETS), action="append")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    for preset in args.preset or list(PRESETS):
        rules = get_ruleset(preset)
        rng = random.Random(args.seed)
        strong, weak = HeuristicBot(rng), BeginnerBot(rng)
        wins = hands = 0
        start = time.perf_counter()
        for number in range(args.games):
            side = number % 2  # the heuristic pair's side: 0 deals first
            bots = (strong, weak, strong, weak) if side == 0 else (weak, strong, weak, strong)
            record = simulate_game(rules, rng, bot=bots, check=True)
            wins += record.winner == side
            hands += len(record.lines)
        elapsed = time.perf_counter() - start
        low, high = wilson(wins, args.games)
        print(
            f"{preset}: heuristic beat beginner in {wins} of {args.games} games = "
            f"{wins / args.games:.1%} (95 % CI {low:.1%}-{high:.1%}); {hands} hands, "
            f"{elapsed:.1f} s, seed {args.seed}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
