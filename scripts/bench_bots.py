"""How often one level of computer player beats another (engine.bots.LEVELS: beginner, sensible,
strong): seeded games, partners and three-handed, with the 95 % Wilson interval of the win rate
and the time each decision of the first level took.

    python scripts/bench_bots.py                               # sensible v beginner, 10,000 games
    python scripts/bench_bots.py --pair strong:sensible --pair strong:beginner --games 200
    python scripts/bench_bots.py --preset auction-120 --games 2000 --seed 3
    python scripts/bench_bots.py --three-handed --pair strong:sensible   # one against two
    python scripts/bench_bots.py --pair strong:sensible --jobs 2 --markdown

Partners: two of the first level against two of the second; the sides change seats every game
(the first pair deals first in half of them) so that the first deal favours neither.
Three-handed (``engine.individual``, not auction): one of the first level against two of the
second, each for themselves, in each seat in turn; a third of the games is what an equal
player would win. Game ``n`` is played from ``random.Random(f"{seed}:{n}")``, whatever
``--jobs``: the same seed plays the same games. The decision time is the wall time of each
question put to a player of the first level (card, bid, trump, rob, discard), p50 and p95,
and its CPU time (the thread's: what the question costs whatever else the machine runs).
Prints the figures (``--markdown``: as table rows); copying them into BENCHMARKS.md is left to
the person running it.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

Z95 = 1.959964
TIMED = ("choose_card", "choose_bid", "choose_trump", "choose_rob", "choose_discard")
THREE_HANDED_PRESETS = ("cape-breton-45", "irish-45-joker")


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (wins of games)."""
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


class Timed:
    """A player whose every answer is timed into ``times`` (wall seconds) and ``cpu`` (the
    CPU seconds of its thread: what it would take on a machine nobody else uses)."""

    def __init__(self, bot: Any, times: list[float], cpu: list[float] | None = None) -> None:
        self._bot = bot
        self._times = times
        self._cpu = cpu

    def __getattr__(self, name: str) -> Any:
        answer = getattr(self._bot, name)
        if name not in TIMED:
            return answer

        def timed(*args: Any) -> Any:
            start, cpu = time.perf_counter(), time.thread_time()
            result = answer(*args)
            self._times.append(time.perf_counter() - start)
            if self._cpu is not None:
                self._cpu.append(time.thread_time() - cpu)
            return result

        return timed


def individual_game(rules: Any, rng: random.Random, bots: list[Any], dealer: int) -> int:
    """One game each for themselves (the engine's deal, legal plays and individual scoring,
    every card checked): the winning seat."""
    from engine.bots import PlayState
    from engine.deal import deal_hand, dealer_discard, rob
    from engine.individual import end_of_individual_hand, score_individual
    from engine.play import check_play, trick_winner

    players = len(bots)
    totals: tuple[int, ...] = (0,) * players
    for _ in range(1000):
        deal = deal_hand(rng, rules, dealer, players)
        trump = deal.trump
        while deal.owed:
            deal = dealer_discard(
                deal, bots[dealer].choose_discard(deal.hands[dealer], trump, rules)
            )
        if deal.robber is not None and deal.turn_up is not None:
            hand = deal.hands[deal.robber]
            discard = bots[deal.robber].choose_rob(hand, deal.turn_up, trump, rules)
            if discard is not None:
                deal = rob(deal, deal.robber, discard)
        held = [list(h) for h in deal.hands]
        leader = (dealer + 1) % players
        played: set[Any] = set()
        history: list[tuple[int, tuple[Any, ...]]] = []
        tricks, winners = [], []
        for number in range(5):
            trick: list[Any] = []
            for i in range(players):
                seat = (leader + i) % players
                state = PlayState(
                    seat,
                    dealer=dealer,
                    leader=leader,
                    trick_number=number,
                    played=played,
                    partners=False,
                    history=history,
                    players=players,
                )
                card = bots[seat].choose_card(held[seat], trick, trump, rules, state)
                check_play(card, held[seat], trick, trump, rules)
                held[seat].remove(card)
                trick.append(card)
            played.update(trick)
            history.append((leader, tuple(trick)))
            leader = (leader + trick_winner(trick, trump, rules)) % players
            tricks.append(tuple(trick))
            winners.append(leader)
        score = score_individual(tricks, winners, trump, rules, players)
        totals, winner = end_of_individual_hand(totals, score, rules, dealer)
        if winner is not None:
            return winner
        dealer = (dealer + 1) % players
    raise RuntimeError("a game did not end in 1000 hands")


def play_games(
    job: tuple[str, str, str, bool, int, range],
) -> tuple[int, int, list[float], list[float]]:
    """Games ``numbers`` of one pairing: (wins of the first level, hands, decision times, their
    CPU times)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from engine.bots import LEVELS
    from engine.rules import get_ruleset
    from engine.simulate import simulate_game

    preset, first, second, three, seed, numbers = job
    rules = get_ruleset(preset)
    make_first: Callable[[random.Random], Any] = LEVELS[first]
    make_second: Callable[[random.Random], Any] = LEVELS[second]
    wins = hands = 0
    times: list[float] = []
    cpu: list[float] = []
    for number in numbers:
        rng = random.Random(f"{seed}:{number}")
        if three:
            seat = number % 3  # the first level's seat; the first dealer is seat 0
            bots: list[Any] = [make_second(rng) for _ in range(3)]
            bots[seat] = Timed(make_first(rng), times, cpu)
            wins += individual_game(rules, rng, bots, 0) == seat
            continue
        ours, theirs = Timed(make_first(rng), times, cpu), make_second(rng)
        side = number % 2  # the first level's side: 0 deals first
        four = [ours, theirs, ours, theirs] if side == 0 else [theirs, ours, theirs, ours]
        record = simulate_game(rules, rng, bot=four, check=True)
        wins += record.winner == side
        hands += len(record.lines)
    return wins, hands, times, cpu


def percentile(times: list[float], share: float) -> float:
    if not times:
        return 0.0
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from engine.bots import LEVELS
    from engine.rules import PRESETS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--preset", choices=sorted(PRESETS), action="append")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--pair", action="append", help="FIRST:SECOND levels (default sensible:beginner)"
    )
    parser.add_argument("--three-handed", action="store_true")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--markdown", action="store_true", help="print table rows")
    args = parser.parse_args(argv)

    pairs = [tuple(p.split(":")) for p in (args.pair or ["sensible:beginner"])]
    for pair in pairs:
        if len(pair) != 2 or not all(level in LEVELS for level in pair):
            parser.error(f"a pair is two of {', '.join(LEVELS)}, like strong:sensible")
    presets = args.preset or (list(THREE_HANDED_PRESETS) if args.three_handed else list(PRESETS))
    jobs = max(1, args.jobs)
    for preset in presets:
        for first, second in pairs:
            chunks = [range(j, args.games, jobs) for j in range(jobs)]
            work = [(preset, first, second, args.three_handed, args.seed, c) for c in chunks]
            start = time.perf_counter()
            if jobs == 1:
                results = [play_games(work[0])]
            else:
                with ProcessPoolExecutor(jobs) as pool:
                    results = list(pool.map(play_games, work))
            elapsed = time.perf_counter() - start
            wins = sum(r[0] for r in results)
            hands = sum(r[1] for r in results)
            times = [t for r in results for t in r[2]]
            cpu = [t for r in results for t in r[3]]
            low, high = wilson(wins, args.games)
            p50, p95 = percentile(times, 0.5) * 1000, percentile(times, 0.95) * 1000
            c50, c95 = percentile(cpu, 0.5) * 1000, percentile(cpu, 0.95) * 1000
            form = "three-handed" if args.three_handed else "partners"
            even = "33.3 %" if args.three_handed else "50 %"
            if args.markdown:
                print(
                    f"| {preset} | {form} | {first} v {second} | {args.games:,} | "
                    f"**{wins / args.games:.1%}** ({wins:,}) | {low:.1%}–{high:.1%} | "
                    f"{p50:.1f} / {p95:.1f} ms | {c50:.1f} / {c95:.1f} ms |",
                    flush=True,
                )
                continue
            print(
                f"{preset} {form}: {first} beat {second} in {wins} of {args.games} games = "
                f"{wins / args.games:.1%} (95 % CI {low:.1%}-{high:.1%}; an equal player: "
                f"{even}); {first}'s decisions p50 {p50:.1f} ms, p95 {p95:.1f} ms (CPU "
                f"{c50:.1f} / {c95:.1f} ms; {len(times)} timed); {hands} hands, "
                f"{elapsed:.1f} s, seed {args.seed}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
