"""The practice table's server CPU per game: whole games played through ``practice.table`` as
the API plays them (each move, then the state with its hint), the learner playing the hinted
card, declining to rob and taking the hinted bid and trump; CPU seconds of this process.

    python scripts/bench_practice_cpu.py --games 10 --partner strong --opponents strong

The storage and the HTTP layer are left out: this is the table's own work. Seeded: game ``n``
is started from seed ``n``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from practice import table

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--ruleset", default="cape-breton-45", choices=table.RULESETS)
    parser.add_argument("--partner", default="strong", choices=table.LEVELS_OFFERED)
    parser.add_argument("--opponents", default="strong", choices=table.LEVELS_OFFERED)
    args = parser.parse_args(argv)

    per_game: list[float] = []
    moves = 0
    for seed in range(args.games):
        start = time.process_time()
        game = table.start(args.ruleset, seed=seed, partner=args.partner, opponents=args.opponents)
        state = table.view(game, "x")
        for _ in range(2000):
            if state["finished"]:
                break
            hint = state["hint"] or {}
            decision = state["decision"]
            if decision == "play":
                table.play(game, hint.get("card") or state["legal"][0])
            elif decision == "bid":
                table.bid(game, hint.get("bid"))
            elif decision == "trump":
                table.name(game, hint["suit"])
            elif decision == "draw":
                table.draw(game, hint.get("discards", []))
            else:
                table.rob(game, state["hand"][0] if state["must_discard"] else None)
            moves += 1
            state = table.view(game, "x")
        per_game.append(time.process_time() - start)
    print(
        f"{args.ruleset}, partner {args.partner}, opponents {args.opponents}: "
        f"{args.games} games, {moves} moves; CPU s a game: mean "
        f"{statistics.mean(per_game):.2f}, max {max(per_game):.2f}; "
        f"{sum(per_game) / max(moves, 1) * 1000:.0f} ms a move"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
