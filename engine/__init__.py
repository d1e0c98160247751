"""The rules of Forty-fives, in pure Python: the public surface (docs/engine.md).
The game as it plays it, preset by preset: docs/rules.md.

Cards and orders (``Card.parse("10C")``, ``str(card)``, ``trump_order``, ``offsuit_order``),
rulesets (``get_ruleset("cape-breton-45")``, ``make_ruleset``), play (``legal_plays``,
``trick_winner``, ``score_hand``), the deal and the auction, verdicts on scores
(``check_final_score``, ``check_score_sheet``: ``.status``, ``.code``, ``.message``), seeded
simulation (``simulate_game(rules, rng)``), the movement of a drive and places.
"""

from engine.auction import Auction, AuctionError, auction_hand_points
from engine.cards import (
    JOKER,
    Card,
    CardError,
    Suit,
    full_pack,
    offsuit_order,
    parse_cards,
    trump_order,
)
from engine.deal import Deal, DealError, deal_hand, dealer_discard, rob
from engine.game import GameRecord, HandLine, end_of_hand
from engine.movement import (
    MovementError,
    Seating,
    TableSeat,
    check_invariants,
    credited_wins,
    first_seating,
    next_seating,
)
from engine.play import HandScore, IllegalPlay, check_play, legal_plays, score_hand, trick_winner
from engine.rules import PRESETS, Ruleset, RulesetError, get_ruleset, make_ruleset
from engine.scores import (
    Verdict,
    check_final_points,
    check_final_score,
    check_final_scores,
    check_score_sheet,
    legal_final_scores,
)
from engine.simulate import simulate_game, simulate_hand, simulate_table_game
from engine.standings import places, standings

__all__ = [
    "JOKER",
    "PRESETS",
    "Auction",
    "AuctionError",
    "Card",
    "CardError",
    "Deal",
    "DealError",
    "GameRecord",
    "HandLine",
    "HandScore",
    "IllegalPlay",
    "MovementError",
    "Ruleset",
    "RulesetError",
    "Seating",
    "Suit",
    "TableSeat",
    "Verdict",
    "auction_hand_points",
    "check_final_points",
    "check_final_score",
    "check_final_scores",
    "check_invariants",
    "check_play",
    "check_score_sheet",
    "credited_wins",
    "deal_hand",
    "dealer_discard",
    "end_of_hand",
    "first_seating",
    "full_pack",
    "get_ruleset",
    "legal_final_scores",
    "legal_plays",
    "make_ruleset",
    "next_seating",
    "offsuit_order",
    "parse_cards",
    "places",
    "rob",
    "score_hand",
    "simulate_game",
    "simulate_hand",
    "simulate_table_game",
    "standings",
    "trick_winner",
    "trump_order",
]
