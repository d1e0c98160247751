"""The unannounced ace at the practice table (``unannounced_ace_lowest``): dealt the ace of
trumps, you rob, keep your hand, or keep it and announce the ace; kept quiet, the ace plays as
the lowest trump that hand (legal cards, the trick's winner, the bonus); the computer players
announce when their bot says so. Through the table, the API and the page."""

from __future__ import annotations

import json
import random
from typing import Any
from unittest.mock import patch

import pytest
from django.test import Client

from engine import deal as engine_deal
from engine.cards import Card, Suit
from engine.deal import Deal
from practice import table, words
from practice.models import PracticeGame

SWITCH = {"unannounced_ace_lowest": True}
API = "/api/v1/practice"

# Hearts trumps, the 3♥ turned, Partner (seat 2) deals so Right leads. You hold the A♥ (the
# ace of trumps) and clubs; Right holds every other heart dealt, Left clubs, Partner spades.
YOU_HOLD_THE_ACE = {
    0: ["AH", "3C", "4C", "6C", "7C"],
    1: ["8C", "9C", "10C", "QC", "KC"],
    2: ["3S", "4S", "6S", "7S", "8S"],
    3: ["2H", "4H", "6H", "7H", "8H"],
}
# Left holds the A♥ and hearts all better than the turned 2♥: it keeps its hand.
LEFT_HOLDS_THE_ACE = {
    0: ["3C", "4C", "6C", "7C", "8C"],
    1: ["AH", "KH", "QH", "JH", "5H"],
    2: ["3S", "4S", "6S", "7S", "8S"],
    3: ["9C", "10C", "QC", "KC", "9S"],
}
# You hold the A♥ and hearts all better than the turned 2♥: the hint keeps and announces.
YOU_HOLD_FIVE_HEARTS = {
    0: ["AH", "KH", "QH", "JH", "5H"],
    1: ["3C", "4C", "6C", "7C", "8C"],
    2: ["3S", "4S", "6S", "7S", "8S"],
    3: ["9C", "10C", "QC", "KC", "9S"],
}


def _seed_dealt_by(dealer: int) -> int:
    """A seed whose first hand ``dealer`` deals (the table draws the first dealer from it)."""
    return next(s for s in range(100) if random.Random(s).randrange(4) == dealer)


def robbing_seed(rules: dict[str, Any] | None = None) -> int:
    """A seed of cape-breton-45 whose first hand deals you the ace of trumps (you may rob)."""
    for seed in range(200):
        game = table.start("cape-breton-45", seed=seed, rules=rules)
        if table.view(game, "x")["decision"] == "rob":
            return seed
    raise AssertionError("no seed deals you the ace of trumps")


def _build(
    monkeypatch: pytest.MonkeyPatch, hands: dict[int, list[str]], robber: int, turned: str
) -> None:
    """The first hand dealt is ``hands`` (hearts trumps, ``turned`` turned up, Partner
    dealing); the hands after it are dealt as usual."""
    real = engine_deal.deal_hand
    used: list[bool] = []

    def deal_hand(rng: Any, rules: Any, dealer: int, players: int = 4) -> Deal:
        if used:
            return real(rng, rules, dealer, players)
        used.append(True)
        dealt = {c for h in hands.values() for c in h} | {turned}
        stock = [f"{r}D" for r in ("2", "3", "4", "6", "7", "8", "9", "10", "Q", "K")]
        return Deal(
            dealer=dealer,
            hands=tuple(tuple(Card.parse(c) for c in hands[s]) for s in range(4)),
            turn_up=Card.parse(turned),
            trump=Suit.HEARTS,
            stock=tuple(Card.parse(c) for c in stock if c not in dealt),
            robber=robber,
        )

    monkeypatch.setattr(table, "deal_hand", deal_hand)


def _built_game(
    monkeypatch: pytest.MonkeyPatch,
    hands: dict[int, list[str]] = YOU_HOLD_THE_ACE,
    robber: int = 0,
    turned: str = "3H",
    rules: dict[str, Any] | None = None,
) -> dict[str, Any]:
    _build(monkeypatch, hands, robber, turned)
    return table.start(
        "cape-breton-45", seed=_seed_dealt_by(2), rules=SWITCH if rules is None else rules
    )


def _finish_hand(game: dict[str, Any]) -> None:
    """Play your first legal card until the first hand is scored."""
    while game["hand_number"] == 1:
        view = table.view(game, "x")
        if view["decision"] == "play":
            table.play(game, view["legal"][0])
        else:
            table.rob(game, view["hand"][0] if view["must_discard"] else None)


def test_dealt_the_ace_you_may_rob_keep_or_announce(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _built_game(monkeypatch)
    view = table.view(game, "x")
    assert view["decision"] == "rob" and view["may_rob"] and view["may_announce"]
    assert view["actions"] == ["rob"] and not view["ace_low"]
    # Without the switch, nothing to announce.
    plain = table.start("cape-breton-45", seed=robbing_seed())
    assert not table.view(plain, "x")["may_announce"]


def test_announcing_keeps_the_ace_high(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _built_game(monkeypatch)
    table.rob(game, None, announce=True)
    game = json.loads(json.dumps(game))  # as stored
    assert game["deal"]["announced"] is True
    assert {"kind": "announce", "seat": "you"} in game["events"]
    view = table.view(game, "x")
    led = view["trick"][0]
    assert led["seat"] == "right" and led["card"].endswith("H")
    # The A♥ is a top trump again: a lower trump was led, so it may be kept back.
    assert not view["ace_low"]
    assert view["keep_back"] == ["AH"] and set(view["legal"]) == set(view["hand"])
    table.play(game, "AH")
    assert game["winners"][0] == 0, "the announced ace takes the trick"
    _finish_hand(game)
    hand = game["hand_scores"][0]
    assert hand["bonus"] == {"trick": 1, "card": "AH", "seat": "you"}
    # 5 a trick, and the bonus (5 more) to your side with the ace.
    assert hand["taken"]["us"] == 5 * hand["tricks"]["us"] + 5
    assert hand["taken"]["them"] == 5 * hand["tricks"]["them"]


def test_keeping_quiet_makes_the_ace_the_lowest_trump(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _built_game(monkeypatch)
    table.rob(game, None)
    game = json.loads(json.dumps(game))
    assert game["deal"]["announced"] is False
    assert {"kind": "unannounced", "seat": "you"} in game["events"]
    view = table.view(game, "x")
    assert view["ace_low"]
    # The lowest trump is no top trump: a trump was led, so you must play it.
    assert view["legal"] == ["AH"] and view["keep_back"] == []
    assert view["refused"]["3C"]["code"] == "must_follow_trump"
    with pytest.raises(table.TableError) as refused:
        table.play(game, "3C")
    assert refused.value.code == "must_follow_trump"
    table.play(game, "AH")
    assert game["winners"][0] == 3, "Right's lower heart beats the ace played as lowest"
    _finish_hand(game)
    hand = game["hand_scores"][0]
    assert hand["bonus"] is not None
    assert hand["bonus"]["card"] == "8H" and hand["bonus"]["seat"] == "right"
    # The bonus goes to Right's side with the 8♥: the ace counted as the lowest trump.
    assert hand["taken"]["them"] == 5 * hand["tricks"]["them"] + 5
    assert hand["taken"]["us"] == 5 * hand["tricks"]["us"]


def test_a_computer_player_dealt_the_ace_announces_and_says_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = _built_game(monkeypatch, LEFT_HOLDS_THE_ACE, robber=1, turned="2H")
    announced = [e for e in game["events"] if e["kind"] == "announce"]
    assert [e["seat"] for e in announced] == ["left"]
    assert announced[0]["why"]["code"] == "announce_ace"
    shown = [e for e in table.view(game, "x")["events"] if e["kind"] == "announce"]
    assert shown[0]["why"] == table.ROB_REASONS["announce_ace"]
    assert words.reason(shown[0]["reason"]) == str(words.REASONS["announce_ace"])
    assert game["deal"]["announced"] is True
    assert not table.view(game, "x")["ace_low"]


def test_the_hint_says_to_announce(monkeypatch: pytest.MonkeyPatch) -> None:
    game = _built_game(monkeypatch, YOU_HOLD_FIVE_HEARTS, turned="2H")
    hint = table.view(game, "x")["hint"]
    assert hint["discard"] is None and hint["announce"] is True
    assert hint["reason"]["code"] == "keep_announce"
    # Where robbing is better, the hint robs (robbing shows the ace: nothing to announce).
    robbing = table.start("cape-breton-45", seed=robbing_seed(SWITCH), rules=SWITCH)
    hint = table.view(robbing, "x")["hint"]
    assert hint["discard"] and hint["announce"] is False


@pytest.mark.parametrize(
    ("how", "code", "status"),
    [
        ("rob_and_announce", "already_robbed", 422),
        ("no_switch", "announce_not_played", 422),
        ("dealer", "not_entitled_to_rob", 422),
        ("playing", "not_now", 409),
    ],
)
def test_announcing_where_it_makes_no_sense_is_refused(
    monkeypatch: pytest.MonkeyPatch, how: str, code: str, status: int
) -> None:
    if how == "rob_and_announce":
        game = _built_game(monkeypatch)
        text: str | None = "3C"
    elif how == "no_switch":
        game = _built_game(monkeypatch, rules={})
        text = None
    elif how == "dealer":
        game = table.start("cape-breton-45", seed=2, rules=SWITCH)  # you took the turned A♣
        assert table.view(game, "x")["must_discard"]
        text = table.view(game, "x")["hand"][0]
    else:
        game = _built_game(monkeypatch)
        table.rob(game, None, announce=True)
        text = None
    before = json.dumps(game)
    with pytest.raises(table.TableError) as refused:
        table.rob(game, text, announce=True)
    assert (refused.value.code, refused.value.status) == (code, status)
    assert json.dumps(game) == before
    assert code in words.REFUSALS


@pytest.mark.parametrize("mode", table.MODES)
def test_whole_games_under_the_switch_are_played_to_the_end(mode: str) -> None:
    """Games played to the end under the switch, partners and three-handed, announcing every
    other time you may."""
    for seed in (robbing_seed(SWITCH), 3, 6):
        game = table.start("cape-breton-45", mode=mode, seed=seed, rules=SWITCH)
        while not game["finished"]:
            view = table.view(game, "x")
            if view["decision"] == "play":
                table.play(game, view["legal"][-1])
            elif view["may_announce"]:
                table.rob(game, None, announce=game["hand_number"] % 2 == 1)
            else:
                table.rob(game, view["hand"][0] if view["must_discard"] else None)
            game = json.loads(json.dumps(game))
        assert game["winner"] in (("us", "them") if mode == "partners" else table.SEATS_ALONE)


@pytest.mark.django_db
def test_the_api_takes_announce(client: Client) -> None:
    seed = robbing_seed(SWITCH)
    with patch("practice.table.new_seed", return_value=seed):  # the table's own draw
        response = client.post(API, {"rules": SWITCH}, content_type="application/json")
    assert response.status_code == 201
    state = response.json()
    assert state["may_announce"] and state["hint"]["announce"] is False
    url = f"{API}/{state['id']}/rob"
    for bad in ("yes", 1, None):
        refused = client.post(
            url, {"discard": None, "announce": bad}, content_type="application/json"
        )
        assert refused.status_code == 422, bad
        assert refused.json()["code"] == "bad_field"
    both = client.post(
        url, {"discard": state["hand"][0], "announce": True}, content_type="application/json"
    )
    assert (both.status_code, both.json()["code"]) == (422, "already_robbed")
    done = client.post(url, {"discard": None, "announce": True}, content_type="application/json")
    assert done.status_code == 200
    after = done.json()
    assert {"kind": "announce", "seat": "you"} in after["events"]
    assert after["ace_low"] is False
    assert PracticeGame.objects.get(pk=state["id"]).state["deal"]["announced"] is True


@pytest.mark.django_db
def test_the_page_offers_the_announce_choice(client: Client) -> None:
    game = PracticeGame.objects.create(
        state=table.start("cape-breton-45", seed=robbing_seed(SWITCH), rules=SWITCH)
    )
    page = client.get(f"/practice/{game.id}/")
    assert 'data-testid="announce"' in page.text
    assert "Keep my hand and announce the ace" in page.text
    assert "my ace plays as the lowest trump" in page.text
    assert "Robbing shows the ace" in page.text
    moved = client.post(f"/practice/{game.id}/rob", {"announce": "1"})
    assert moved.status_code == 302
    page = client.get(f"/practice/{game.id}/")
    assert "You kept your hand and announced the ace of trumps" in page.text
    game.refresh_from_db()
    assert game.state["deal"]["announced"] is True


@pytest.mark.django_db
def test_the_page_says_the_quiet_ace_is_the_lowest(client: Client) -> None:
    game = PracticeGame.objects.create(
        state=table.start("cape-breton-45", seed=robbing_seed(SWITCH), rules=SWITCH)
    )
    client.post(f"/practice/{game.id}/rob", {"discard": ""})
    page = client.get(f"/practice/{game.id}/")
    assert "You kept your hand without announcing the ace of trumps" in page.text
    game.refresh_from_db()
    assert table.view(game.state, "x")["ace_low"]
    ace = Card(14, Suit.parse(game.state["deal"]["trump"])).pretty
    assert f"This hand the {ace} plays as the lowest trump" in page.text


@pytest.mark.django_db
def test_the_start_page_offers_the_switch(client: Client) -> None:
    page = client.get("/practice/")
    assert 'name="unannounced_ace_lowest"' in page.text
    response = client.post(
        "/practice/", {"ruleset": "cape-breton-45", "unannounced_ace_lowest": "True"}
    )
    assert response.status_code == 302
    assert PracticeGame.objects.get().state["rules"] == SWITCH
