"""The practice table's game (practice.table): every rule from the engine, replayed here."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.cards import Card, Suit, ordering
from engine.play import check_play, score_hand, trick_winner
from engine.rules import get_ruleset
from practice import table

# Seeds of cape-breton-45 whose first hand asks you something before the first card.
ROB_SEED = 12  # you hold the A♥ and may rob the turned K♥
DISCARD_SEED = 2  # you dealt and turned the A♣: you must throw a card away


def _first_choice(game: dict[str, Any]) -> None:
    v = table.view(game, "x")
    if v["decision"] == "play":
        table.play(game, v["legal"][0])
    elif v["decision"] == "bid":
        table.bid(game, v["hint"]["bid"])
    elif v["decision"] == "trump":
        table.name(game, v["hint"]["suit"])
    else:
        table.rob(game, v["hand"][0] if v["must_discard"] else None)


@pytest.mark.parametrize("ruleset", table.RULESETS)
@pytest.mark.parametrize("seed", range(12))
def test_whole_games_follow_the_engine(ruleset: str, seed: int) -> None:
    """Whole games end with a winner, the totals being the sum of the hands."""
    rules = get_ruleset(ruleset)
    game = table.start(ruleset, seed=seed)
    hands_checked = 0
    while not game["finished"]:
        before = json.loads(json.dumps(game))
        _first_choice(game)
        game = json.loads(json.dumps(game))  # as stored: JSON all the way
        assert game["hand_number"] >= before["hand_number"]
        hands_checked += game["hand_number"] - before["hand_number"]
    assert game["winner"] in ("us", "them")
    totals = [0, 0]
    for line in game["hand_scores"]:
        assert line["taken"]["us"] + line["taken"]["them"] in (25, 30)
        totals[0] += line["us"]
        totals[1] += line["them"]
    assert totals == game["totals"]
    assert max(totals) >= rules.target or any(h["jink"] for h in game["hand_scores"])


def test_each_trick_is_judged_by_the_engine() -> None:
    rules = get_ruleset("cape-breton-45")
    game = table.start("cape-breton-45", seed=4)
    while game["hand_number"] == 1:
        hands = {seat: [Card.parse(c) for c in h] for seat, h in enumerate(game["deal"]["hands"])}
        trump = Suit.parse(game["deal"]["trump"])
        trick_before = [Card.parse(p["card"]) for p in game["trick"]]
        leader = game["leader"]
        tricks_before = len(game["tricks"]) + (game["hand_number"] - 1) * 5
        _first_choice(game)
        if game["hand_number"] == 1 and len(game["tricks"]) > tricks_before:
            last = game["last_trick"]
            cards = [Card.parse(p["card"]) for p in last["cards"]]
            assert cards[: len(trick_before)] == trick_before
            for i, card in enumerate(cards):
                seat = (leader + i) % 4
                if card in hands[seat]:
                    check_play(card, hands[seat], cards[:i], trump, rules)
            assert last["winner"] == (leader + trick_winner(cards, trump, rules)) % 4
    hand = game["hand_scores"][0]
    # The first hand's score is the engine's, the bonus trick's best trump named.
    assert hand["bonus"] is None or hand["bonus"]["card"]


def test_you_may_rob_the_turn_up_or_keep_your_hand() -> None:
    game = table.start("cape-breton-45", seed=ROB_SEED)
    view = table.view(game, "x")
    assert view["actions"] == ["rob"] and view["may_rob"] and view["legal"] == []
    assert "AH" in view["hand"] and view["turned"] == "KH"
    with pytest.raises(table.TableError) as refused:
        table.play(game, view["hand"][0])
    assert refused.value.code == "not_your_turn"
    robbed = json.loads(json.dumps(game))
    table.rob(robbed, "3D")
    after = table.view(robbed, "x")
    assert "KH" in after["hand"] or "KH" in [p["card"] for p in after["trick"]]
    assert "3D" not in after["hand"]
    assert {"kind": "rob", "seat": "you", "card": "KH"} in robbed["events"]
    kept = json.loads(json.dumps(game))
    table.rob(kept, None)
    assert "KH" not in table.view(kept, "x")["hand"]
    with pytest.raises(table.TableError) as again:
        table.rob(kept, "3D")
    assert again.value.code == "not_now"


def test_robbing_with_a_card_you_do_not_hold_is_the_engine_refusal() -> None:
    game = table.start("cape-breton-45", seed=ROB_SEED)
    with pytest.raises(table.TableError) as refused:
        table.rob(game, "AS")
    assert refused.value.code == "discard_not_in_hand"


def test_the_dealer_who_took_the_turned_ace_must_discard() -> None:
    game = table.start("cape-breton-45", seed=DISCARD_SEED)
    view = table.view(game, "x")
    assert view["must_discard"] and view["actions"] == ["rob"] and len(view["hand"]) == 6
    with pytest.raises(table.TableError) as refused:
        table.rob(game, None)
    assert refused.value.code == "dealer_must_discard"
    table.rob(game, "3S")
    after = table.view(game, "x")
    assert "3S" not in after["hand"]
    assert len(after["hand"]) + (1 if any(p["seat"] == "you" for p in after["trick"]) else 0) == 5


def test_the_hint_is_the_strong_players_card_with_its_chances_and_legal() -> None:
    game = table.start("irish-45-joker", seed=9)
    searched = 0
    for _ in range(15):
        view = table.view(game, "x")
        if view["decision"] == "play":
            assert view["hint"]["card"] in view["legal"]
            assert view["hint"]["why"]
            assert table.view(game, "x")["hint"] == view["hint"]  # the same when asked again
            if len(view["legal"]) > 1:
                reason = view["hint"]["reason"]
                assert reason["code"] == "hint_searched"
                assert 0 <= reason["figures"]["takes"] <= 10
                assert "times in 10" in view["hint"]["why"]
                searched += 1
        _first_choice(game)
    assert searched


def test_bot_plays_carry_their_reason() -> None:
    game = table.start("cape-breton-45", seed=1)
    view = table.view(game, "x")
    plays = view["trick"] + (view["last_trick"]["cards"] if view["last_trick"] else [])
    bots = [p for p in plays if p["seat"] != "you"]
    for _ in range(10):
        if bots:
            break
        _first_choice(game)
        view = table.view(game, "x")
        plays = view["trick"] + (view["last_trick"]["cards"] if view["last_trick"] else [])
        bots = [p for p in plays if p["seat"] != "you"]
    assert bots and all(p["why"] for p in bots)


def test_the_five_may_be_kept_back_when_a_lower_trump_is_led() -> None:
    """Whenever you hold a top trump above the trump led and a non-trump, the table says you
    may keep it back, and the engine indeed allows a non-trump."""
    found = 0
    for seed in range(150):
        game = table.start("cape-breton-45", seed=seed)
        for _ in range(6):
            view = table.view(game, "x")
            if view["keep_back"]:
                found += 1
                rules = get_ruleset("cape-breton-45")
                order = ordering(Suit.parse(view["trump"]), rules)
                assert any(not order.is_trump(Card.parse(c)) for c in view["legal"])
                assert all(Card.parse(c) in order.top for c in view["keep_back"])
            if game["finished"]:
                break
            _first_choice(game)
    assert found


def test_rulesets_and_modes_not_offered() -> None:
    with pytest.raises(table.TableError) as auction:
        table.start("auction-90")
    assert auction.value.code == "unknown_ruleset"
    with pytest.raises(table.TableError) as five:
        table.start("cape-breton-45", "five-handed")
    assert five.value.code == "unknown_mode"
    with pytest.raises(table.TableError) as auction:
        table.start("auction-120", "three-handed")
    assert auction.value.code == "no_individual_play"


def test_score_hand_is_what_the_table_records() -> None:
    rules = get_ruleset("cape-breton-45")
    game = table.start("cape-breton-45", seed=6)
    while len(game["hand_scores"]) < 1:
        tricks = [list(t) for t in game["tricks"]]
        winners = list(game["winners"])
        trump = game["deal"]["trump"]
        _first_choice(game)
        if game["hand_scores"]:
            last = game["last_trick"]
            tricks.append([p["card"] for p in last["cards"]])
            winners.append(last["winner"])
    score = score_hand(
        [[Card.parse(c) for c in t] for t in tricks],
        [w % 2 for w in winners],
        Suit.parse(trump),
        rules,
    )
    assert [game["hand_scores"][0]["us"], game["hand_scores"][0]["them"]] == list(score.points)


def test_the_auction_goes_round_the_engine() -> None:
    """Auction: no card turned, bids in turn from the dealer's left as the engine's Auction
    allows them, the winner names trump and leads, a set bidder loses the bid."""
    game = table.start("auction-120", seed=4)
    view = table.view(game, "x")
    assert view["turned"] is None
    while view["decision"] != "bid":
        _first_choice(game)
        view = table.view(game, "x")
    assert view["trump"] is None and view["legal_bids"]
    with pytest.raises(table.TableError) as low:
        table.bid(game, 17)
    assert low.value.code == "not_a_bid"
    with pytest.raises(table.TableError) as early:
        table.play(game, view["hand"][0])
    assert early.value.code == "not_your_turn"
    table.bid(game, 30 if 30 in view["legal_bids"] else None)
    after = table.view(game, "x")
    if after["auction"] and after["auction"]["seat"] == "you":
        assert after["decision"] == "trump"
        table.name(game, "S")
        named = table.view(game, "x")
        assert named["trump"] == "S" and named["to_play"] == "you" and named["trick"] == []


@pytest.mark.parametrize("ruleset", ["cape-breton-45", "irish-45-joker"])
@pytest.mark.parametrize("seed", range(10))
def test_three_handed_games_follow_the_engine(ruleset: str, seed: int) -> None:
    """Three-handed: three cards a trick, each trick to the engine's winner, each hand scored
    by engine.individual, the first to 45 (or a jink, in Irish 45) wins."""
    rules = get_ruleset(ruleset)
    game = table.start(ruleset, "three-handed", seed=seed)
    while not game["finished"]:
        hands = [[Card.parse(c) for c in h] for h in game["deal"]["hands"]]
        leader, trick_before = game["leader"], [Card.parse(p["card"]) for p in game["trick"]]
        done = len(game["tricks"])
        hand_number = game["hand_number"]
        _first_choice(game)
        game = json.loads(json.dumps(game))
        if (game["hand_number"] == hand_number and len(game["tricks"]) > done) or (
            game["hand_number"] > hand_number or game["finished"]
        ):
            last = game["last_trick"]
            cards = [Card.parse(p["card"]) for p in last["cards"]]
            assert len(cards) == 3 and cards[: len(trick_before)] == trick_before
            trump = (
                Suit.parse(game["hand_scores"][-1]["trump"])
                if (game["hand_number"] > hand_number or game["finished"])
                else Suit.parse(game["deal"]["trump"])
            )
            for i, card in enumerate(cards):
                seat = (leader + i) % 3
                if card in hands[seat]:
                    check_play(card, hands[seat], cards[:i], trump, rules)
            assert last["winner"] == (leader + trick_winner(cards, trump, rules)) % 3
    totals = [0, 0, 0]
    for line in game["hand_scores"]:
        for i, seat in enumerate(("you", "left", "right")):
            totals[i] += line["points"][seat]
    assert totals == game["totals"]
    best = max(totals)
    winner = ("you", "left", "right").index(game["winner"])
    assert totals[winner] == best
    assert best >= rules.target or game["hand_scores"][-1]["jink"] == game["winner"]


@pytest.mark.parametrize(
    ("bots", "code"), [("heuristic", "rob_weakest"), ("beginner", "always_rob")]
)
def test_a_computer_player_who_robs_says_why(bots: str, code: str) -> None:
    from practice import words

    for seed in range(300):
        game = table.start("cape-breton-45", seed=seed, bots=bots)
        robs = [e for e in table.view(game, "x")["events"] if e["kind"] == "rob"]
        if robs and robs[0]["seat"] != "you":
            break
    else:
        raise AssertionError("no computer player robbed")
    assert robs[0]["reason"]["code"] == code and robs[0]["why"] == table.ROB_REASONS[code]
    assert words.reason(robs[0]["reason"]) == str(words.REASONS[code])
