"""A hand-by-hand score sheet (docs/rules.md §6): what the scorer reads for each problem, and
which hand it points at."""

import pytest

from engine.game import HandLine
from engine.rules import get_ruleset, make_ruleset
from engine.scores import CODES, WORDS, check_final_points, check_score_sheet

CB = get_ruleset("cape-breton-45")
AUCTION = get_ruleset("auction-120")


def sheet(*points: tuple[int, int]) -> list[HandLine]:
    return [HandLine(points=p) for p in points]


def auction(*hands: tuple[int, int, int, int]) -> list[HandLine]:
    return [HandLine(points=(a, b), bidder=bidder, bid=bid) for a, b, bidder, bid in hands]


@pytest.mark.parametrize(
    ("lines", "kwargs", "code", "hand", "message"),
    [
        ([], {}, "empty_sheet", None, "The score sheet has no hands."),
        (
            sheet((30, 0), (30, 0), (0, 30)),
            {},
            "hand_after_game_won",
            3,
            "Hand 3 was played after the game was over at 60–0.",
        ),
        (
            sheet((20, 10), (22, 8)),
            {},
            "not_multiple_of_five",
            2,
            "Hand 2: 22 is not a multiple of 5: points come in fives.",
        ),
        (
            sheet((20, 10), (25, 10)),
            {},
            "bad_hand_total",
            2,
            "Hand 2: 25–10 is 35 points; a hand gives 30, or 25 without the bonus.",
        ),
        (
            sheet((20, 5), (20, 5), (0, 25)),
            {},
            "game_not_finished",
            3,
            "The sheet ends at 40–35: no couple has reached 45.",
        ),
        (
            sheet((20, 10), (25, 5)),
            {"final": (50, 10)},
            "final_mismatch",
            2,
            "The hands add up to 45–15, not 50–10.",
        ),
        (
            sheet((20, 10), (25, 5)),
            {"winner": 1},
            "wrong_winner",
            2,
            "At 45–15 the couple on side 0 won, not side 1.",
        ),
    ],
)
def test_a_refused_sheet_says_why_and_where(
    lines: list[HandLine], kwargs: dict, code: str, hand: int | None, message: str
) -> None:
    verdict = check_score_sheet(lines, CB, **kwargs)
    assert (verdict.status, verdict.code, verdict.hand, verdict.message) == (
        "impossible",
        code,
        hand,
        message,
    )


def test_a_regular_sheet_gives_its_final_score() -> None:
    verdict = check_score_sheet(sheet((30, 0), (15, 15)), CB, final=(45, 15), winner=0)
    assert (verdict.status, verdict.message) == ("ok", "The sheet is regular and ends 45–15.")


@pytest.mark.parametrize(
    ("lines", "count"),
    [
        (sheet((20, 10), (25, 0)), "1 hand"),
        (sheet((20, 5), (20, 5), (15, 15)), "2 hands"),
    ],
)
def test_a_sheet_with_trumpless_hands_asks_for_confirmation(
    lines: list[HandLine], count: str
) -> None:
    verdict = check_score_sheet(lines, CB)
    assert (verdict.status, verdict.code, verdict.trumpless_hands) == (
        "unusual",
        "trumpless_hands",
        int(count[0]),
    )
    assert verdict.message == (
        f"This sheet has {count} in which no trump was played. "
        "Check it with the table, then confirm it."
    )


def test_an_equal_score_without_the_dealer_accepts_either_named_winner() -> None:
    lines = sheet((15, 15), (15, 15), (15, 15))
    assert check_score_sheet(lines, CB, winner=0).status == "ok"
    assert check_score_sheet(lines, CB, winner=1).status == "ok"


@pytest.mark.parametrize(
    ("line", "code", "words"),
    [
        (HandLine((20, 10), bidder=0), "missing_bid", "an auction hand without its bidder and bid"),
        (HandLine((20, 10), bid=20), "missing_bid", "an auction hand without its bidder and bid"),
        (HandLine((20, 10), bidder=2, bid=20), "bad_side", "a side that is not 0 or 1"),
        (
            HandLine((20, 10), bidder=0, bid=35),
            "bad_bid",
            "a bid that is not 15, 20, 25 or 30, or below the lowest bid the rules allow",
        ),
    ],
)
def test_an_auction_hand_needs_its_bidder_and_bid(line: HandLine, code: str, words: str) -> None:
    verdict = check_score_sheet([line], AUCTION)
    assert (verdict.code, verdict.hand) == (code, 1)
    assert verdict.message == f"Hand 1: 20–10 cannot come from that bid ({words})."


def test_from_100_a_bid_of_15_is_refused_on_the_sheet() -> None:
    to_105 = auction((30, 0, 0, 30), (30, 0, 0, 30), (30, 0, 0, 30), (15, 15, 0, 15))
    last = auction((15, 15, 0, 15))
    assert check_score_sheet([*to_105, *last], AUCTION).status == "ok"
    verdict = check_score_sheet(
        [*to_105, *last], make_ruleset("auction-120", min_bid_from_100=True)
    )
    assert (verdict.code, verdict.hand) == ("bad_bid", 5)


@pytest.mark.parametrize(("points", "winner"), [((45, 15), 2), ((45,), 0), ((45, 15, 0), 0)])
def test_final_points_need_two_scores_and_a_side(points: tuple[int, ...], winner: int) -> None:
    verdict = check_final_points(points, winner, CB)
    assert (verdict.code, verdict.message) == (
        "bad_side",
        "Give two scores and the winning side, 0 or 1.",
    )


def test_a_sheet_verdict_carries_its_hand_and_numbers() -> None:
    verdict = check_score_sheet(sheet((20, 10), (25, 10)), CB)
    assert (verdict.code, verdict.wording, dict(verdict.params)) == (
        "bad_hand_total",
        "",
        {"hand": 2, "score": "25–10", "total": 35, "full": 30, "trumpless": 25},
    )
    unusual = check_score_sheet(sheet((30, 0), (15, 10)), CB)
    assert (unusual.wording, dict(unusual.params)) == ("sheet_one", {"hands": 1})


@pytest.mark.parametrize("code", ["missing_bid", "bad_side", "bad_bid", "bad_auction_points"])
def test_an_auction_hands_words_give_what_its_code_means(code: str) -> None:
    assert WORDS[code, "sheet"] == (
        f"Hand %(hand)s: %(score)s cannot come from that bid ({CODES[code]})."
    )
