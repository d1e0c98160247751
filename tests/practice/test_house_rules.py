"""The practice table's house-rule switches (issue 20): chosen at the start through the API or
the start page, checked by the engine (a switch that does not go with the ruleset is 422
naming it), kept with the game and played by the computer players to the end."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from engine.cards import JOKER, Card, Suit
from practice import table
from practice.models import PracticeGame
from tests.practice.test_api import API
from tests.practice.test_api import start as api_start

pytestmark = pytest.mark.django_db


def _post(client: Client, url: str, body: dict[str, Any]) -> Any:
    return client.post(url, body, content_type="application/json")


def _start(client: Client, **body: Any) -> dict[str, Any]:
    return api_start(client, **body)


def _decide(client: Client, state: dict[str, Any]) -> dict[str, Any]:
    """One decision: the first allowed card, the lowest bid every other hand (else a pass),
    the hint's trump, no robbing (the first card thrown away when the dealer must)."""
    url = f"{API}/{state['id']}"
    if "play" in state["actions"]:
        response = _post(client, url + "/play", {"card": state["legal"][0]})
    elif "bid" in state["actions"]:
        amount = (
            state["legal_bids"][0] if state["hand_number"] % 2 and state["legal_bids"] else None
        )
        response = _post(client, url + "/bid", {"bid": amount})
    elif "trump" in state["actions"]:
        response = _post(client, url + "/trump", {"suit": state["hint"]["suit"]})
    elif "draw" in state["actions"]:
        response = _post(client, url + "/draw", {"discards": state["hint"]["discards"]})
    elif state["may_announce"]:
        # Under unannounced_ace_lowest: announce the ace every other hand, else keep quiet.
        announce = state["hand_number"] % 2 == 1
        response = _post(client, url + "/rob", {"discard": None, "announce": announce})
    else:
        discard = state["hand"][0] if state["must_discard"] else None
        response = _post(client, url + "/rob", {"discard": discard})
    assert response.status_code == 200, response.content
    return response.json()  # type: ignore[no-any-return]


def _play_out(client: Client, state: dict[str, Any]) -> dict[str, Any]:
    for _ in range(2000):
        if state["finished"]:
            return state
        state = _decide(client, state)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    ("ruleset", "rules"),
    [
        ("cape-breton-45", {"hearts_on_ace_lead": False, "renege": "none"}),
        ("cape-breton-45", {"equal_totals": "play-on", "turned_ace": "may-take"}),
        ("irish-45-joker", {"renege": "top-trumps", "hearts_on_ace_lead": False}),
        ("cape-breton-45", {"unannounced_ace_lowest": True}),
        ("irish-45-joker", {"unannounced_ace_lowest": True, "renege": "none"}),
        (
            "auction-120",
            {"first_lead": "left-of-bidder", "min_bid": 20, "rebid_after_hold": False},
        ),
        (
            "auction-120",
            {
                "thirty_for_sixty": True,
                "thirty_set_loses": 60,
                "floor": -125,
                "dealer_min_hold": 20,
            },
        ),
    ],
)
def test_a_game_under_house_rules_is_kept_with_them_and_played_to_the_end(
    client: Client, ruleset: str, rules: dict[str, Any]
) -> None:
    state = _start(client, ruleset=ruleset, rules=rules, seed=11)
    assert state["rules"] == rules
    assert PracticeGame.objects.get(pk=state["id"]).state["rules"] == rules
    # The rules in words, the preset first, then each switch as the settings page words it.
    assert len(state["house_rules"]) == 1 + len(rules)
    if "renege" in rules and rules["renege"] == "none":
        assert (
            "Trumps that may be held back from a lower trump led: none: every trump must follow"
            in state["house_rules"]
        )
    again = client.get(f"{API}/{state['id']}").json()
    assert again["rules"] == rules
    final = _play_out(client, state)
    assert final["winner"] is not None


def test_a_switch_equal_to_the_preset_is_not_kept(client: Client) -> None:
    state = _start(client, rules={"renege": "top-trumps", "hearts_on_ace_lead": False})
    assert state["rules"] == {"hearts_on_ace_lead": False}


@pytest.mark.parametrize(
    ("ruleset", "rules", "code", "switch"),
    [
        ("cape-breton-45", {"first_lead": "left-of-bidder"}, "auction_option", "first_lead"),
        ("cape-breton-45", {"min_bid": 20}, "auction_option", "min_bid"),
        ("auction-120", {"renege": "sometimes"}, "bad_option", "renege"),
        ("auction-120", {"turned_ace": "may-take"}, "not_in_auction", "turned_ace"),
        ("auction-120", {"floor": 7}, "bad_floor", "floor"),
        (
            "auction-120",
            {"unannounced_ace_lowest": True},
            "not_in_auction",
            "unannounced_ace_lowest",
        ),
        ("auction-120", {"thirty_set_loses": 60}, "needs_thirty_for_sixty", "thirty_set_loses"),
        ("cape-breton-45", {"no_such_rule": True}, "unknown_option", "no_such_rule"),
        ("cape-breton-45", {"name": "mine"}, "bad_rules", "name"),
    ],
)
def test_a_switch_the_engine_refuses_is_422_naming_it_and_starts_nothing(
    client: Client, ruleset: str, rules: dict[str, Any], code: str, switch: str
) -> None:
    response = _post(client, API, {"ruleset": ruleset, "rules": rules})
    assert response.status_code == 422, response.content
    body = response.json()
    assert body["code"] == code
    assert body["switch"] == switch
    assert body["field"] == "rules"
    assert switch in body["message"]
    assert not PracticeGame.objects.exists()


def test_rules_that_are_not_an_object_are_422(client: Client) -> None:
    response = _post(client, API, {"ruleset": "cape-breton-45", "rules": ["renege"]})
    assert response.status_code == 422
    assert not PracticeGame.objects.exists()


def _find(rules: dict[str, Any], ruleset: str, test: Any) -> dict[str, Any]:
    for seed in range(400):
        game = table.start(ruleset, seed=seed, rules=rules)
        if test(game):
            return game
    raise AssertionError("no seed found")


def test_without_hearts_on_ace_lead_a_player_with_no_trump_may_discard_on_the_ace_of_hearts() -> (
    None
):
    """Bicycle, Peel, Barker: the A♥ led calls for nothing more than any lead of a non-trump
    suit, so a player without trumps or hearts … here, without trumps, may throw any card."""

    def ace_of_hearts_led_to_you(game: dict[str, Any]) -> bool:
        view = table.view(game, "x")
        hand = [Card.parse(c) for c in view["hand"]]
        trump = view["trump"]
        return (
            view["actions"] == ["play"]
            and bool(view["trick"])
            and view["trick"][0]["card"] == "AH"
            and trump != "H"
            and not any(c.suit is Suit.parse(trump) or c is JOKER for c in hand)
            and any(c.suit is Suit.HEARTS for c in hand)
            and any(c.suit is not Suit.HEARTS for c in hand)
        )

    strict = _find({}, "cape-breton-45", ace_of_hearts_led_to_you)
    view = table.view(strict, "x")
    assert all(Card.parse(c).suit is Suit.HEARTS for c in view["legal"])
    loose = table.start("cape-breton-45", seed=strict["seed"], rules={"hearts_on_ace_lead": False})
    assert set(table.view(loose, "x")["legal"]) == set(view["hand"])


def test_first_lead_left_of_bidder_the_player_after_the_bidder_leads() -> None:
    """Auction texts that let the player on the bidder's left lead: the same deal and bids,
    the first trick led by the next player."""
    checked = 0
    for seed in range(60):
        games = [
            table.start("auction-120", seed=seed, rules=rules)
            for rules in ({}, {"first_lead": "left-of-bidder"})
        ]
        for game in games:
            if game["phase"] == "bid":
                table.bid(game, None)  # you pass; the others bid and name trump
        plain, left = games
        if plain["phase"] != "play" or plain["tricks"] or left["tricks"]:
            continue  # you won the bidding, or a trick is already over
        bidder = plain["auction"]["seat"]
        assert left["auction"]["seat"] == bidder
        assert plain["leader"] == bidder
        assert left["leader"] == (bidder + 1) % 4
        checked += 1
    assert checked >= 5


def test_the_start_page_offers_house_rules_in_plain_words_and_keeps_them(client: Client) -> None:
    page = client.get("/practice/").content.decode()
    assert "Ace of hearts led: players with no trump must play a heart" in page
    assert "Auction: who leads the first trick" in page
    assert 'name="renege"' in page
    response = client.post(
        "/practice/",
        {
            "ruleset": "cape-breton-45",
            "mode": "partners",
            "renege": "none",
            "hearts_on_ace_lead": "False",
        },
    )
    assert response.status_code == 302
    game = PracticeGame.objects.get()
    assert game.state["rules"] == {"renege": "none", "hearts_on_ace_lead": False}
    table_page = client.get(response["Location"]).content.decode()
    assert "House rules of this game" in table_page
    assert (
        "Trumps that may be held back from a lower trump led: none: every trump must follow"
        in table_page
    )
    # "Play again", once the game is over, deals under the same house rules.
    _play_out(client, client.get(f"{API}/{game.id}").json())
    table_page = client.get(response["Location"]).content.decode()
    assert 'data-testid="again"' in table_page
    assert '<input type="hidden" name="renege" value="none">' in table_page


def test_the_start_page_refuses_an_auction_rule_for_a_45_game_naming_it(client: Client) -> None:
    response = client.post(
        "/practice/",
        {"ruleset": "cape-breton-45", "mode": "partners", "first_lead": "left-of-bidder"},
    )
    assert response.status_code == 422
    page = response.content.decode()
    assert "This rule is for auction only" in page
    assert "Auction: who leads the first trick" in page
    assert 'value="cape-breton-45" checked' in page
    assert not PracticeGame.objects.exists()
    bad = client.post("/practice/", {"ruleset": "auction-120", "min_bid": "17"})
    assert bad.status_code == 422
    assert not PracticeGame.objects.exists()


def test_the_kitty_the_bidder_takes_it_and_everyone_draws_back_to_five(client: Client) -> None:
    """Every auction text: the bidder takes the kitty, then each player from the dealer's left
    throws away and is dealt back up to five; you do it from the page too."""
    seen_draw = False
    for seed in range(40):
        state = _start(client, ruleset="auction-120", rules={"kitty": 3}, seed=seed)
        for _ in range(60):
            if state["finished"] or state["hand_number"] > 2:
                break
            if "draw" in state["actions"]:
                seen_draw = True
                assert state["hint"]["discards"] is not None
                hand = state["hand"]
                url = f"{API}/{state['id']}/draw"
                # Keeping more than five is refused in words, the game unchanged.
                if len(hand) > 5:
                    refused = _post(client, url, {"discards": []})
                    assert refused.status_code == 422
                    assert refused.json()["code"] == "keeps_too_many"
                page = client.get(f"/practice/{state['id']}/").content.decode()
                assert 'data-testid="draw-turn"' in page
                throw = hand[: max(len(hand) - 5, 2)]
                answer = client.post(f"/practice/{state['id']}/draw", {"discard": throw})
                assert answer.status_code == 302
                state = client.get(f"{API}/{state['id']}").json()
                assert len(state["hand"]) == 5 or state["trick_number"] or state["trick"]
                continue
            if "play" in state["actions"]:
                # Every hand holds five cards before the first trick.
                if state["trick_number"] == 0:
                    assert len(state["hand"]) == 5 - (
                        1 if any(p["seat"] == "you" for p in state["trick"]) else 0
                    )
                kinds = [e["kind"] for e in state["events"]]
                if "kitty" in kinds:
                    assert kinds.count("draw") >= 1
            state = _decide(client, state)
        if seen_draw:
            break
    assert seen_draw


def test_the_unannounced_ace_is_played_at_the_table_now(client: Client) -> None:
    """``unannounced_ace_lowest`` was refused (``not_at_practice``) while the table had no
    place for announcing the ace; it is accepted and kept with the game."""
    state = _start(client, rules={"unannounced_ace_lowest": True}, seed=12)
    assert state["rules"] == {"unannounced_ace_lowest": True}
    assert (
        "An ace of trumps neither robbed with nor announced is the lowest trump: yes"
        in state["house_rules"]
    )
    assert state["may_announce"], "seed 12 deals you the ace of trumps"


def test_a_switch_the_table_does_not_play_is_refused_naming_it(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The refusal stays for any switch the table may not play one day (none today)."""
    assert table.NOT_PLAYED == {}
    monkeypatch.setattr(table, "NOT_PLAYED", {"hearts_on_ace_lead": True})
    response = _post(
        client, API, {"ruleset": "cape-breton-45", "rules": {"hearts_on_ace_lead": False}}
    )
    assert response.status_code == 422
    assert (response.json()["code"], response.json()["switch"]) == (
        "not_at_practice",
        "hearts_on_ace_lead",
    )
    assert not PracticeGame.objects.exists()
