"""Measure how many complete simulated games of Forty-fives the engine plays per second.

    python scripts/bench_engine.py                      # 10,000 cape-breton-45 heuristic games
    python scripts/bench_engine.py --preset auction-120 --bot random --games 2000
    python scripts/bench_engine.py --profile            # and the cProfile top 25

One process, one core, seeded (the same seed plays the same games). Prints the figure; copying
it into BENCHMARKS.md with the machine described is left to the person running it.
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import random
import sys
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from engine.rules import PRESETS, get_ruleset
    from engine.simulate import simulate_game

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--preset", choices=sorted(PRESETS), default="cape-breton-45")
    parser.add_argument("--bot", choices=["heuristic", "random"], default="heuristic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="also print a cProfile summary")
    args = parser.parse_args(argv)

    rules = get_ruleset(args.preset)

    def run() -> int:
        rng = random.Random(args.seed)
        hands = 0
        for _ in range(args.games):
            hands += len(simulate_game(rules, rng, bot=args.bot).lines)
        return hands

    start = time.perf_counter()
    hands = run()
    elapsed = time.perf_counter() - start
    print(
        f"{args.preset} / {args.bot}: {args.games} games ({hands} hands) in {elapsed:.2f} s = "
        f"{args.games / elapsed:,.0f} games/s, {hands / elapsed:,.0f} hands/s "
        f"(Python {platform.python_version()}, {platform.machine()}, seed {args.seed})"
    )
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(run)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
