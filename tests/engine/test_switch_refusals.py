"""A house rule that makes no sense with the others is refused with words the hall can act on
(docs/rules.md, the switches): the settings page and the API show these messages."""

import pytest

from engine.rules import RulesetError, make_ruleset


@pytest.mark.parametrize(
    ("base", "options", "code", "message"),
    [
        (
            "auction-120",
            {"equal_totals": "play-on"},
            "not_in_auction",
            "equal_totals does not apply to auction rules (the bidder goes out).",
        ),
        (
            "auction-120",
            {"turned_ace": "may-take"},
            "not_in_auction",
            "turned_ace does not apply to auction rules (no card is turned up).",
        ),
        (
            "auction-120",
            {"thirty_set_loses": 60},
            "needs_thirty_for_sixty",
            "thirty_set_loses applies only with thirty_for_sixty.",
        ),
        (
            "auction-120",
            {"rebid_after_hold": True, "dealer_cannot_hold": True},
            "dealer_cannot_hold",
            "rebid_after_hold is about the dealer's hold, but dealer_cannot_hold is set.",
        ),
        (
            "auction-120",
            {"dealer_min_hold": 20, "dealer_cannot_hold": True},
            "dealer_cannot_hold",
            "dealer_min_hold is about the dealer's hold, but dealer_cannot_hold is set.",
        ),
        (
            "cape-breton-45",
            {"equal_totals": "x"},
            "bad_option",
            "equal_totals must be one of non-dealer, play-on, not 'x'.",
        ),
        (
            "auction-120",
            {"floor": 0},
            "bad_floor",
            "The floor is a score below zero in fives, at least -1000 (like -125).",
        ),
        (
            "auction-120",
            {"floor": -1005},
            "bad_floor",
            "The floor is a score below zero in fives, at least -1000 (like -125).",
        ),
    ],
)
def test_a_switch_that_makes_no_sense_says_why(
    base: str, options: dict[str, object], code: str, message: str
) -> None:
    with pytest.raises(RulesetError) as info:
        make_ruleset(base, **options)
    assert (info.value.code, info.value.message) == (code, message)


@pytest.mark.parametrize(("target", "floor"), [(5, -1000), (500, -5)])
def test_the_edges_of_the_target_and_the_floor_are_allowed(target: int, floor: int) -> None:
    rules = make_ruleset("auction-120", target=target, floor=floor)
    assert (rules.target, rules.floor) == (target, floor)
