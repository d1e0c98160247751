"""How often the heuristic bot beats the beginner: seeded partnership games, two heuristic bots
against two beginners, with the 95 % confidence interval of the win rate.

    python scripts/bench_bots.py                          # 10,000 games of each preset
    python scripts/bench_bots.py --preset auction-120 --games 2000 --seed 3
    python scripts/bench_bots.py --three-handed            # one heuristic against two beginners

The sides change seats every game (the heuristic pair deals first in half of them) so that the
first deal favours neither. Three-handed (``engine.individual``, not auction): one heuristic
against two beginners, each for themselves, the heuristic in each seat in turn; a third of the
games is what an equal player would win. One process, seeded: the same seed plays the same
games. Prints the figures; copying them into BENCHMARKS.md is left to the person running it.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

Z95 = 1.959964


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (wins of games)."""
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


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
                )
                card = bots[seat].choose_card(held[seat], trick, trump, rules, state)
                check_play(card, held[seat], trick, trump, rules)
                held[seat].remove(card)
                trick.append(card)
            played.update(trick)
            leader = (leader + trick_winner(trick, trump, rules)) % players
            tricks.append(tuple(trick))
            winners.append(leader)
        score = score_individual(tricks, winners, trump, rules, players)
        totals, winner = end_of_individual_hand(totals, score, rules, dealer)
        if winner is not None:
            return winner
        dealer = (dealer + 1) % players
    raise RuntimeError("a game did not end in 1000 hands")


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
    parser.add_argument("--three-handed", action="store_true")
    args = parser.parse_args(argv)

    if args.three_handed:
        for preset in args.preset or ["cape-breton-45", "irish-45-joker"]:
            rules = get_ruleset(preset)
            rng = random.Random(args.seed)
            wins = 0
            start = time.perf_counter()
            for number in range(args.games):
                seat = number % 3  # the heuristic's seat; the first dealer is seat 0
                bots: list[Any] = [BeginnerBot(rng) for _ in range(3)]
                bots[seat] = HeuristicBot(rng)
                wins += individual_game(rules, rng, bots, 0) == seat
            elapsed = time.perf_counter() - start
            low, high = wilson(wins, args.games)
            print(
                f"{preset} three-handed: the heuristic beat two beginners in {wins} of "
                f"{args.games} games = {wins / args.games:.1%} (95 % CI {low:.1%}-{high:.1%}; "
                f"an equal player: 33.3%); {elapsed:.1f} s, seed {args.seed}"
            )
        return 0

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
