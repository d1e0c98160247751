"""Rulesets: the presets of docs/rules.md §6 and custom ones built from the options."""

import pytest

from engine.rules import PRESETS, Ruleset, RulesetError, get_ruleset, make_ruleset


def test_presets() -> None:
    cb = get_ruleset()
    assert cb.name == "cape-breton-45" and cb.target == 45 and not cb.joker
    assert cb.bonus == "best-trump" and not cb.jink_wins_game and not cb.offsuit_aces_high
    irish = get_ruleset("irish-45-joker")
    assert irish.joker and irish.jink_wins_game and irish.pack_size == 53 and irish.target == 45
    auction = get_ruleset("auction-120")
    assert auction.auction and auction.target == 120 and not auction.dealer_cannot_hold
    assert set(PRESETS) == {"cape-breton-45", "irish-45-joker", "auction-120"}


def test_unknown_preset_is_refused_by_name() -> None:
    with pytest.raises(RulesetError) as info:
        get_ruleset("bridge")
    assert info.value.code == "unknown_ruleset" and "cape-breton-45" in info.value.message


def test_custom_ruleset_round_trips_through_a_dict() -> None:
    custom = make_ruleset(bonus="five-of-trumps", offsuit_aces_high=True, name="west-coast")
    assert custom.bonus == "five-of-trumps" and custom.offsuit_aces_high
    assert Ruleset.from_dict(custom.to_dict()) == custom


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"bonus": "all-tricks"}, "bad_bonus"),
        ({"target": 47}, "bad_target"),
        ({"target": 0}, "bad_target"),
        ({"thirty_for_sixty": True}, "auction_option"),
        ({"colour": "red"}, "unknown_option"),
        ({"joker": "yes"}, "bad_option"),
    ],
)
def test_inconsistent_options_are_refused(options: dict[str, object], code: str) -> None:
    with pytest.raises(RulesetError) as info:
        make_ruleset(**options)
    assert info.value.code == code


def test_auction_options_are_allowed_on_auction() -> None:
    rules = make_ruleset("auction-120", dealer_cannot_hold=True, must_bid_to_go_out=True)
    assert rules.dealer_cannot_hold and rules.must_bid_to_go_out and rules.target == 120
