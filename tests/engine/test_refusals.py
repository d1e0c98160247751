"""The engine's refusals are a contract: the API and the pages show their codes and words
(docs/engine.md). Each refusal of the rulesets and of the prizes' money, with its exact code
and message, and the edges of the rules they guard (mutation testing found them unchecked:
docs/quality.md)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from engine.prizes import PrizeError, booby_couples, split_money
from engine.rules import Ruleset, RulesetError, get_ruleset, make_ruleset

AUCTION_ONLY = "applies only to auction rules."


@pytest.mark.parametrize(
    ("options", "code", "message"),
    [
        ({"bonus": "highest"}, "bad_bonus", "bonus must be one of "),
        ({"target": 0}, "bad_target", "The target must be a positive multiple of 5."),
        ({"target": 47}, "bad_target", "The target must be a positive multiple of 5."),
        ({"target": 505}, "bad_target", "The target may be at most 500."),
        ({"target": 500}, None, None),  # the largest target allowed
        ({"thirty_for_sixty": True}, "auction_option", f"thirty_for_sixty {AUCTION_ONLY}"),
        ({"dealer_cannot_hold": True}, "auction_option", f"dealer_cannot_hold {AUCTION_ONLY}"),
        ({"must_bid_to_go_out": True}, "auction_option", f"must_bid_to_go_out {AUCTION_ONLY}"),
    ],
)
def test_a_ruleset_refuses_inconsistent_options(
    options: dict[str, Any], code: str | None, message: str | None
) -> None:
    if code is None:
        assert Ruleset(**options).target == options["target"]
        return
    with pytest.raises(RulesetError) as info:
        Ruleset(**options)
    assert info.value.code == code and info.value.message.startswith(message or "")
    assert str(info.value) == info.value.message


@pytest.mark.parametrize(
    ("data", "code", "message"),
    [
        ({"colour": "red"}, "unknown_option", "Unknown ruleset option(s): colour."),
        ({"joker": 1}, "bad_option", "joker must be true or false."),
        ({"joker": "yes"}, "bad_option", "joker must be true or false."),
        ({"target": "45"}, "bad_target", "The target must be a whole number."),
        ({"target": True}, "bad_target", "The target must be a whole number."),
        ({"target": None}, "bad_target", "The target must be a whole number."),
        ({"min_bid": None}, "bad_option", "min_bid must be a whole number."),
        ({"floor": "-125"}, "bad_option", "floor must be a whole number."),
        (
            {"colour": "red", "bold": 1},
            "unknown_option",
            "Unknown ruleset option(s): bold, colour.",
        ),
        ({"name": 7}, "bad_option", "The name must be text."),
    ],
)
def test_stored_options_are_refused_by_name(data: dict[str, Any], code: str, message: str) -> None:
    with pytest.raises(RulesetError) as info:
        Ruleset.from_dict(data)
    assert (info.value.code, info.value.message) == (code, message)


def test_an_unknown_preset_or_bonus_lists_the_ones_there_are() -> None:
    with pytest.raises(RulesetError) as info:
        get_ruleset("euchre")
    assert (info.value.code, info.value.message) == (
        "unknown_ruleset",
        "No ruleset called 'euchre'; choose one of cape-breton-45, irish-45-joker, auction-120.",
    )
    with pytest.raises(RulesetError) as info:
        Ruleset(bonus="highest")  # type: ignore[arg-type]  # the refusal under test
    assert info.value.message == (
        "bonus must be one of best-trump, five-of-trumps, top-four, not 'highest'."
    )


def test_stored_options_come_back_as_they_were() -> None:
    custom = make_ruleset("auction-120", name="legion", thirty_for_sixty=True, target=125)
    again = Ruleset.from_dict(custom.to_dict())
    assert again == custom and again.name == "legion" and again.thirty_for_sixty


def test_money_is_split_to_the_cent_the_extra_cents_to_the_lower_numbers() -> None:
    assert split_money(Decimal("10.00"), [5, 2, 9]) == {
        2: Decimal("3.34"),
        5: Decimal("3.33"),
        9: Decimal("3.33"),
    }
    assert str(split_money(Decimal("0.01"), [3, 1])[3]) == "0.00"
    with pytest.raises(PrizeError) as nobody:
        split_money(Decimal("5.00"), [])
    assert (nobody.value.code, nobody.value.message) == (
        "nobody",
        "A prize cannot be split among nobody.",
    )
    for amount in ("1.005", "-1.00"):
        with pytest.raises(PrizeError) as bad:
            split_money(Decimal(amount), [1, 2])
        assert (bad.value.code, bad.value.message) == (
            "bad_amount",
            f"{amount} is not an amount to the cent.",
        )


def test_the_booby_prize_skips_couples_who_missed_a_game_unless_told() -> None:
    wins = {1: 9, 2: 2, 3: 4}
    played = {1: 10, 3: 10}  # couple 2 came late: no games counted
    assert booby_couples(wins, played, games=10) == (3,)
    assert booby_couples(wins, played, games=10, every_game=False) == (2,)
