"""Auction final scores under each switch that changes them (docs/rules.md §5, auction): the
verdict a scorer sees, with the reason in words, when a night's result is entered.

Each case is worked out by hand from the rule book; the comment says how the game can (or
cannot) end so.
"""

import pytest

from engine.rules import Ruleset, get_ruleset, make_ruleset
from engine.scores import check_final_score

AUCTION = get_ruleset("auction-120")
FLOOR = make_ruleset("auction-120", floor=-125)
MUST_BID_OUT = make_ruleset("auction-120", must_bid_to_go_out=True)
THIRTY_FOR_SIXTY = make_ruleset("auction-120", thirty_for_sixty=True)
MIN_BID_25 = make_ruleset("auction-120", min_bid=25)
MIN_20_FROM_100 = make_ruleset("auction-120", min_bid_from_100=True)


@pytest.mark.parametrize(
    ("w", "loser", "rules"),
    [
        (145, 0, AUCTION),  # from 115, a 30 bid made with all 30
        (120, 125, AUCTION),  # 105–110, bid 15 made 15–15: both out, the bidder goes out
        (120, -150, AUCTION),  # scores go below zero without limit
        (70, -150, FLOOR),  # the losers at -120 set 30: at the floor, they lose
        (115, -125, FLOOR),
        (175, 0, THIRTY_FOR_SIXTY),  # from 115, a made 30 scores 60
        (120, 95, MIN_BID_25),  # 95–90, a 25 bid made 25–5
        (125, 95, MUST_BID_OUT),  # 100–90: the bidders go out from 100
    ],
)
def test_possible_auction_finals(w: int, loser: int, rules: Ruleset) -> None:
    verdict = check_final_score(w, loser, rules)
    assert (verdict.status, verdict.code) == ("ok", "ok")
    assert verdict.message == f"{w}–{loser} is a possible final score.".replace("-", "−")


@pytest.mark.parametrize(
    ("w", "loser", "rules", "code", "message"),
    [
        (
            115,
            30,
            AUCTION,
            "winner_below_target",
            "115–30: the winner needs at least 120 points.",
        ),
        (
            115,
            30,
            FLOOR,
            "winner_below_target",
            "115–30: the winner needs at least 120 points, or the losers at -125 or below.",
        ),
        (
            150,
            0,
            AUCTION,
            "too_many_points",
            "150–0: more points than the hands could give; a winner ends with at most 145.",
        ),
        (
            180,
            0,
            THIRTY_FOR_SIXTY,
            "too_many_points",
            "180–0: more points than the hands could give; a winner ends with at most 175.",
        ),
        (
            120,
            145,
            AUCTION,
            "loser_ahead",
            "120–145: the losing couple can be ahead only when both reach 120 in the same hand "
            "and the winners were the bidders.",
        ),
        # Stopped at the floor: from -120 at worst a set 30 bid, -150.
        (70, -155, FLOOR, "not_reachable", "70–−155: no last hand of auction ends a game so."),
        # Defenders on 100 score nothing: both sides cannot reach 120 in one hand.
        (
            120,
            120,
            MUST_BID_OUT,
            "not_reachable",
            "120–120: no last hand of auction ends a game so.",
        ),
        (
            125,
            120,
            MUST_BID_OUT,
            "not_reachable",
            "125–120: no last hand of auction ends a game so.",
        ),
        # Both out needs a 15 or 20 bid made with 15 or 20 and the rest to the defenders.
        (125, 125, MIN_BID_25, "not_reachable", "125–125: no last hand of auction ends a game so."),
        (
            120,
            130,
            MIN_20_FROM_100,
            "loser_ahead",
            "120–130: the losing couple can be ahead only when both reach 120 in the same hand "
            "and the winners were the bidders.",
        ),
    ],
)
def test_impossible_auction_finals_say_why(
    w: int, loser: int, rules: Ruleset, code: str, message: str
) -> None:
    verdict = check_final_score(w, loser, rules)
    assert (verdict.status, verdict.code, verdict.message) == ("impossible", code, message)


@pytest.mark.parametrize(("w", "loser"), [(120, 125), (120, 130), (125, 125), (130, 130)])
def test_both_out_in_one_hand_needs_a_low_bid(w: int, loser: int) -> None:
    """Both couples reach 120 in one hand only if the bidders made a low bid and the defenders
    took the rest; a minimum bid of 25 forbids what 15 allows."""
    assert check_final_score(w, loser, AUCTION).status == "ok"
    assert check_final_score(w, loser, MIN_BID_25).status == "impossible"


def test_from_100_the_bidders_need_20_to_go_out_together() -> None:
    assert check_final_score(120, 125, MIN_20_FROM_100).status == "ok"  # 100–115, 20 made 20–10
    assert check_final_score(130, 130, MIN_20_FROM_100).status == "impossible"  # 110–110


def test_a_floor_win_without_a_point_needs_a_trumpless_hand() -> None:
    """At the floor, the winners at -120 scored nothing in the last hand: as defenders of a
    set 30 bid they took no trick, which a 30-point hand cannot give (the bidders would have
    taken all 30 and made it); only a hand without a trump (25 points) can. Without the
    best-trump bonus a 25-point hand is common."""
    verdict = check_final_score(-120, -150, FLOOR)
    assert (verdict.status, verdict.code, verdict.trumpless_hands) == (
        "unusual",
        "trumpless_hands",
        1,
    )
    assert verdict.message == (
        "−120–−150 can only happen with 1 hand in which no trump was played. "
        "Check it with the table, then confirm it."
    )
    assert verdict.accepted
    common = make_ruleset("auction-120", floor=-125, bonus="top-four")
    assert check_final_score(-120, -150, common).status == "ok"
    assert check_final_score(-120, -150, AUCTION).code == "winner_below_target"
