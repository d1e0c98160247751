"""Verdicts on final scores and score sheets: docs/rules.md §5 and §6, each class of score."""

from collections import deque

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.auction import BIDS, auction_hand_points
from engine.game import HandLine, end_of_hand
from engine.rules import Ruleset, get_ruleset, make_ruleset
from engine.scores import (
    CODES,
    check_final_points,
    check_final_score,
    check_final_scores,
    check_score_sheet,
    legal_final_scores,
)

CB = get_ruleset("cape-breton-45")
IRISH = get_ruleset("irish-45-joker")
AUCTION = get_ruleset("auction-120")

RULES_MD_LEGAL = [
    (45, 15),
    (45, 45),
    (50, 10),
    (50, 40),
    (55, 5),
    (55, 35),
    (60, 0),
    (60, 30),
    (65, 25),
    (70, 20),
]


def test_the_legal_final_scores_are_exactly_those_of_the_rule_book() -> None:
    assert sorted(legal_final_scores(CB)) == sorted(RULES_MD_LEGAL)


@pytest.mark.parametrize(("w", "loser"), RULES_MD_LEGAL)
def test_legal_final_scores_are_ok(w: int, loser: int) -> None:
    verdict = check_final_score(w, loser, CB)
    assert (verdict.status, verdict.code) == ("ok", "ok") and verdict.accepted


@pytest.mark.parametrize(
    ("w", "loser", "trumpless"),
    [(45, 30, 3), (45, 40, 1), (50, 25, 3), (55, 50, 3), (70, 40, 2), (65, 45, 2), (50, 0, 2)],
)
def test_scores_needing_trumpless_hands_are_unusual(w: int, loser: int, trumpless: int) -> None:
    verdict = check_final_score(w, loser, CB)
    assert (verdict.status, verdict.code) == ("unusual", "trumpless_hands")
    assert verdict.trumpless_hands == trumpless and verdict.accepted
    assert f"{w}–{loser}" in verdict.message and "confirm" in verdict.message


@pytest.mark.parametrize(
    ("w", "loser", "code"),
    [
        (47, 13, "not_multiple_of_five"),
        (45, 12, "not_multiple_of_five"),
        (45, -15, "negative_points"),
        (40, 20, "winner_below_target"),
        (0, 0, "winner_below_target"),
        (45, 50, "loser_ahead"),
        (50, 60, "loser_ahead"),
        (75, 15, "too_many_points"),
        (100, 0, "too_many_points"),
        (70, 5, "game_already_won"),
        (45, 20, "not_whole_hands"),
        (45, 0, "not_whole_hands"),
        (50, 45, "not_whole_hands"),
    ],
)
def test_impossible_scores_are_refused_with_the_reason(w: int, loser: int, code: str) -> None:
    verdict = check_final_score(w, loser, CB)
    assert (verdict.status, verdict.code) == ("impossible", code)
    assert not verdict.accepted and code in CODES and verdict.message


@pytest.mark.parametrize("value", [45.0, "45", None, True])
def test_non_numbers_are_refused(value: object) -> None:
    assert check_final_score(value, 15, CB).code == "not_a_number"


def test_either_order_of_entry_the_named_winner_decides() -> None:
    assert check_final_points([15, 45], 1, CB).status == "ok"
    assert check_final_points([45, 15], 0, CB).status == "ok"
    assert check_final_points([45, 15], 1, CB).code == "winner_below_target"
    assert check_final_points([45, 45], 1, CB).status == "ok"  # the tie rule: named winner
    assert check_final_points([45, 15], 2, CB).code == "bad_side"


def test_jink_wins_game_makes_short_games_legal() -> None:
    assert check_final_score(30, 0, IRISH).status == "ok"  # five tricks in the first hand
    assert check_final_score(40, 20, IRISH).status == "ok"
    assert check_final_score(30, 0, CB).code == "winner_below_target"
    # 60-0 needs a second hand after a first-hand jink had already won the game.
    assert check_final_score(60, 0, IRISH).code == "game_already_won"
    assert check_final_score(60, 0, CB).status == "ok"
    assert check_final_score(20, 5, IRISH).code == "winner_below_target"


@pytest.mark.parametrize("bonus", ["five-of-trumps", "top-four"])
def test_25_point_hands_are_ordinary_without_the_best_trump_bonus(bonus: str) -> None:
    rules = make_ruleset(bonus=bonus)
    assert check_final_score(45, 30, rules).status == "ok"
    assert check_final_score(45, 30, CB).status == "unusual"
    assert check_final_score(45, 20, rules).code == "not_whole_hands"


def test_a_whole_nights_verdicts_in_one_call() -> None:
    night = [(45, 15), (45, 30), (47, 13)] * 3
    statuses = [v.status for v in check_final_scores(night, CB)]
    assert statuses == ["ok", "unusual", "impossible"] * 3


# --- auction ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("w", "loser", "status", "code", "rules"),
    [
        (120, 50, "ok", "ok", AUCTION),
        (145, 0, "ok", "ok", AUCTION),  # from 115, a made 30
        (120, -300, "ok", "ok", AUCTION),  # scores go below zero
        (120, 125, "ok", "ok", AUCTION),  # both out in one hand: the bidder goes out
        (120, 145, "impossible", "loser_ahead", AUCTION),
        (150, 0, "impossible", "too_many_points", AUCTION),
        (175, 0, "impossible", "too_many_points", AUCTION),
        (175, 0, "ok", "ok", make_ruleset("auction-120", thirty_for_sixty=True)),
        (115, 30, "impossible", "winner_below_target", AUCTION),
        (122, 30, "impossible", "not_multiple_of_five", AUCTION),
        (140, 115, "ok", "ok", AUCTION),
    ],
)
def test_auction_final_scores(w: int, loser: int, status: str, code: str, rules: Ruleset) -> None:
    verdict = check_final_score(w, loser, rules)
    assert (verdict.status, verdict.code) == (status, code), verdict.message


def test_must_bid_to_go_out_stops_defenders_going_out() -> None:
    rules = make_ruleset("auction-120", must_bid_to_go_out=True)
    to_105 = auction((30, 0, 0, 30), (30, 0, 0, 30), (30, 0, 0, 30), (15, 15, 0, 15))
    assert check_score_sheet(to_105, rules).code == "game_not_finished"  # 105-15
    # Side 0 on 105 defends and takes 15: it would go out, but it scores only as bidder.
    defended = [*to_105, *auction((15, 15, 1, 15))]
    assert check_score_sheet(defended, AUCTION).status == "ok"
    assert check_score_sheet(defended, rules).code == "bad_auction_points"
    guarded = [*to_105, *auction((0, 15, 1, 15))]
    assert check_score_sheet(guarded, rules).code == "game_not_finished"
    assert check_score_sheet([*guarded, *auction((20, 10, 0, 20))], rules).status == "ok"


@pytest.mark.parametrize(
    "options",
    [{}, {"thirty_for_sixty": True}, {"must_bid_to_go_out": True}],
)
def test_every_auction_state_below_the_target_is_reachable(options: dict[str, bool]) -> None:
    """The auction verdict works backwards from the last hand, assuming any state below the
    target can precede it; this search checks that assumption over a wide window."""
    rules = make_ruleset("auction-120", **options)
    floor = -150
    seen = {(0, 0)}
    queue = deque([(0, 0)])
    while queue:
        state = queue.popleft()
        for bidder in (0, 1):
            for bid in BIDS:
                for taken in range(0, 31, 5):
                    split = (taken, 30 - taken) if bidder == 0 else (30 - taken, taken)
                    points = auction_hand_points(split, bidder, bid, state, rules)
                    after, winner = end_of_hand(
                        state, HandLine(points, bidder=bidder, bid=bid), rules
                    )
                    if winner is None and min(after) >= floor and after not in seen:
                        seen.add(after)
                        queue.append(after)
    window = range(floor + 60, rules.target, 5)
    assert all((a, b) in seen for a in window for b in window)


# --- score sheets -------------------------------------------------------------------------------


def sheet(*hands: tuple[int, int]) -> list[HandLine]:
    return [HandLine(points=h) for h in hands]


@pytest.mark.parametrize(
    ("lines", "kwargs", "status", "code", "hand"),
    [
        (sheet((20, 10), (25, 5)), {"final": (45, 15), "winner": 0}, "ok", "ok", None),
        (sheet((20, 10), (20, 10), (5, 25)), {"final": (45, 45)}, "ok", "ok", None),
        (sheet((20, 10), (25, 0)), {}, "unusual", "trumpless_hands", None),
        (sheet(), {}, "impossible", "empty_sheet", None),
        (sheet((20, 10), (25, 10)), {}, "impossible", "bad_hand_total", 2),
        (sheet((20, 10), (22, 8)), {}, "impossible", "not_multiple_of_five", 2),
        (sheet((35, -5)), {}, "impossible", "negative_points", 1),
        (sheet((20, 10), (5, 25)), {}, "impossible", "game_not_finished", 2),
        (sheet((30, 0), (20, 10), (10, 20)), {}, "impossible", "hand_after_game_won", 3),
        (sheet((20, 10), (25, 5)), {"final": (50, 10)}, "impossible", "final_mismatch", 2),
        (sheet((20, 10), (25, 5)), {"winner": 1}, "impossible", "wrong_winner", 2),
    ],
)
def test_score_sheets(
    lines: list[HandLine], kwargs: dict[str, object], status: str, code: str, hand: int | None
) -> None:
    verdict = check_score_sheet(lines, CB, **kwargs)
    assert (verdict.status, verdict.code, verdict.hand) == (status, code, hand), verdict.message


def test_the_dealer_settles_an_equal_score_on_a_sheet() -> None:
    lines = [HandLine((20, 10)), HandLine((20, 10)), HandLine((5, 25), dealer=0)]
    assert check_score_sheet(lines, CB, winner=1).status == "ok"
    assert check_score_sheet(lines, CB, winner=0).code == "wrong_winner"


def test_a_jink_ends_the_game_on_the_sheet() -> None:
    assert check_score_sheet(sheet((30, 0)), IRISH, winner=0).status == "ok"
    assert check_score_sheet(sheet((30, 0), (15, 15)), IRISH).code == "hand_after_game_won"
    assert check_score_sheet(sheet((30, 0)), CB).code == "game_not_finished"


def auction(*hands: tuple[int, int, int, int]) -> list[HandLine]:
    return [HandLine(points=(a, b), bidder=bidder, bid=bid) for a, b, bidder, bid in hands]


@pytest.mark.parametrize(
    ("lines", "status", "code", "hand"),
    [
        (auction((30, 0, 0, 30), (30, 0, 0, 25), (30, 0, 0, 20), (30, 0, 0, 15)), "ok", "ok", None),
        (
            auction(
                (-20, 15, 0, 20),
                (30, 0, 0, 30),
                (30, 0, 0, 30),
                (30, 0, 0, 30),
                (30, 0, 0, 30),
                (20, 10, 0, 20),
            ),
            "ok",
            "ok",
            None,
        ),
        (auction((-20, 15, 0, 20), (20, 10, 0, 20)), "impossible", "game_not_finished", 2),
        (auction((-15, 15, 0, 20)), "impossible", "bad_auction_points", 1),
        (auction((20, 10, 0, 25)), "impossible", "bad_auction_points", 1),
        (auction((20, 10, 0, 35)), "impossible", "bad_bid", 1),
        ([HandLine((20, 10))], "impossible", "missing_bid", 1),
        (
            auction((25, 0, 0, 25), (30, 0, 0, 30), (30, 0, 0, 30), (30, 0, 0, 30), (10, 0, 0, 30)),
            "impossible",
            "bad_auction_points",
            5,
        ),
    ],
)
def test_auction_score_sheets(
    lines: list[HandLine], status: str, code: str, hand: int | None
) -> None:
    verdict = check_score_sheet(lines, AUCTION)
    assert (verdict.status, verdict.code, verdict.hand) == (status, code, hand), verdict.message


def test_a_trumpless_auction_hand_is_unusual() -> None:
    lines = auction((25, 0, 0, 25), (30, 0, 0, 30), (30, 0, 0, 30), (30, 0, 0, 30), (30, 0, 0, 30))
    verdict = check_score_sheet(lines, AUCTION)
    assert (verdict.status, verdict.trumpless_hands) == ("unusual", 1)


def test_thirty_for_sixty_on_a_sheet() -> None:
    rules = make_ruleset("auction-120", thirty_for_sixty=True)
    assert check_score_sheet(auction((60, 0, 0, 30), (60, 0, 0, 30)), rules).status == "ok"
    assert check_score_sheet(auction((-30, 10, 0, 30)), rules).code == "game_not_finished"
    assert check_score_sheet(auction((-60, 10, 0, 30)), rules).code == "bad_auction_points"
    assert check_score_sheet(auction((30, 0, 0, 30)), rules).code == "bad_auction_points"
    sixty = make_ruleset("auction-120", thirty_for_sixty=True, thirty_set_loses=60)
    assert check_score_sheet(auction((-60, 10, 0, 30)), sixty).code == "game_not_finished"


# --- properties: every perturbation of a legal score that breaks a rule is refused ----------------

LEGAL = st.sampled_from(RULES_MD_LEGAL)


@given(LEGAL, st.integers(1, 4), st.booleans())
def test_off_by_less_than_five_is_not_a_multiple_of_five(
    score: tuple[int, int], delta: int, on_winner: bool
) -> None:
    w, loser = score
    w, loser = (w + delta, loser) if on_winner else (w, loser + delta)
    assert check_final_score(w, loser, CB).code == "not_multiple_of_five"


@given(LEGAL, st.integers(1, 20))
def test_a_negative_loser_is_refused(score: tuple[int, int], fives: int) -> None:
    assert check_final_score(score[0], -5 * fives, CB).code == "negative_points"


@given(LEGAL, st.integers(1, 9))
def test_a_winner_pulled_under_the_target_is_refused(score: tuple[int, int], fives: int) -> None:
    w = 45 - 5 * fives
    assert check_final_score(w, min(score[1], w), CB).code == "winner_below_target"


@given(LEGAL, st.integers(1, 10))
def test_swapping_winner_and_loser_is_refused(score: tuple[int, int], fives: int) -> None:
    w, loser = score
    if w == loser:
        return
    code = check_final_score(loser, w, CB).code
    assert code == ("winner_below_target" if loser < 45 else "loser_ahead")
    assert check_final_score(w, w + 5 * fives, CB).code == "loser_ahead"


@given(LEGAL, st.integers(1, 40))
def test_a_winner_pushed_past_the_maximum_is_too_many_points(
    score: tuple[int, int], fives: int
) -> None:
    assert check_final_score(70 + 5 * fives, score[1], CB).code == "too_many_points"


@given(st.integers(9, 14), st.integers(0, 14))
def test_every_score_in_range_gets_a_verdict_and_impossible_ones_a_reason(w5: int, l5: int) -> None:
    w, loser = 5 * w5, 5 * l5
    verdict = check_final_score(w, loser, CB)
    if (w, loser) in RULES_MD_LEGAL:
        assert verdict.status == "ok"
    elif verdict.status == "impossible":
        assert verdict.code in {
            "loser_ahead",
            "too_many_points",
            "game_already_won",
            "not_whole_hands",
        }
    else:
        assert verdict.code == "trumpless_hands" and verdict.trumpless_hands >= 1
