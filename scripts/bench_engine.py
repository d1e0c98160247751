"""Measure how many complete simulated games of Forty-fives the engine plays per second.

    python scripts/bench_engine.py                      # 10,000 cape-breton-45 heuristic games
    python scripts/bench_engine.py --preset auction-120 --bot random --games 2000
    python scripts/bench_engine.py --profile            # and the cProfile top 25
    python scripts/bench_engine.py --rules '{"renege": "five-only"}'   # switches on the preset
    python scripts/bench_engine.py --verdict-table --rules '{"equal_totals": "play-on"}'

One process, one core, seeded (the same seed plays the same games). Prints the figure; copying
it into BENCHMARKS.md with the machine described is left to the person running it.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import platform
import pstats
import random
import sys
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from engine.rules import PRESETS, make_ruleset
    from engine.scores import legal_final_scores
    from engine.simulate import simulate_game

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--preset", choices=sorted(PRESETS), default="cape-breton-45")
    parser.add_argument("--bot", choices=["heuristic", "random"], default="heuristic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="also print a cProfile summary")
    parser.add_argument(
        "--rules", default="{}", help="switches changed from the preset, as JSON (docs/rules.md)"
    )
    parser.add_argument(
        "--verdict-table",
        action="store_true",
        help="time building the table of final scores for these rules instead (not auction)",
    )
    args = parser.parse_args(argv)

    switches = json.loads(args.rules)
    rules = make_ruleset(args.preset, name=args.preset, **switches)
    if args.verdict_table:
        start = time.perf_counter()
        table = legal_final_scores(rules, include_unusual=True)  # a fresh process: built here
        elapsed = time.perf_counter() - start
        print(
            f"{args.preset} {switches}: verdict table of {len(table)} accepted final scores "
            f"built in {elapsed * 1000:.1f} ms (Python {platform.python_version()})"
        )
        return 0

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
        f"{args.preset} {switches} / {args.bot}: {args.games} games ({hands} hands) "
        f"in {elapsed:.2f} s = "
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
