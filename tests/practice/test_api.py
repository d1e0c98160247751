"""The practice table's JSON API: start, read, play whole games, refusals, expiry, the limit."""

from __future__ import annotations

import json
import re
from contextlib import nullcontext
from datetime import timedelta
from typing import Any
from unittest.mock import patch

import pytest
from django.test import Client
from django.utils import timezone

from practice.models import PracticeGame

pytestmark = pytest.mark.django_db
API = "/api/v1/practice"


def _post(client: Client, url: str, body: dict[str, Any]) -> Any:
    return client.post(url, body, content_type="application/json")


def start(client: Client, seed: int | None = None, **body: Any) -> dict[str, Any]:
    """A game started through the API; ``seed``: the one the table draws for it (the caller
    cannot choose it, so the test stands in for the table's own draw)."""
    with patch("practice.table.new_seed", return_value=seed) if seed is not None else nullcontext():
        response = _post(client, API, {"ruleset": "cape-breton-45", **body})
    assert response.status_code == 201, response.content
    return response.json()


def _decide(client: Client, state: dict[str, Any]) -> dict[str, Any]:
    """One decision, always the first allowed card (declining to rob)."""
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
    else:
        discard = state["hand"][0] if state["must_discard"] else None
        response = _post(client, url + "/rob", {"discard": discard})
    assert response.status_code == 200, response.content
    return response.json()


def test_start_gives_the_state_with_every_field(client: Client) -> None:
    state = start(client, seed=7)
    for field in (
        "id",
        "ruleset",
        "mode",
        "seats",
        "dealer",
        "turned",
        "trump",
        "hand",
        "trick",
        "to_play",
        "legal",
        "actions",
        "last_trick",
        "hand_scores",
        "scores",
        "finished",
        "winner",
    ):
        assert field in state, field
    assert [s["seat"] for s in state["seats"]] == ["you", "left", "partner", "right"]
    assert [s["side"] for s in state["seats"]] == ["us", "them", "us", "them"]
    assert state["mode"] == "partners"
    assert state["trump"] in "CDHS"
    assert state["actions"] in (["play"], ["rob"])
    if state["actions"] == ["play"]:
        assert state["to_play"] == "you"
        assert state["legal"] and set(state["legal"]) <= set(state["hand"])
    assert client.get(f"{API}/{state['id']}").json() == state


@pytest.mark.parametrize("ruleset", ["cape-breton-45", "irish-45-joker"])
def test_a_whole_game_through_the_api_ends_with_a_winner(client: Client, ruleset: str) -> None:
    state = start(client, ruleset=ruleset, seed=11)
    hands_seen = set()
    for _ in range(300):
        if state["finished"]:
            break
        hands_seen.add(state["hand_number"])
        state = _decide(client, state)
    assert state["finished"]
    assert state["winner"] in ("us", "them")
    assert state["actions"] == [] and state["legal"] == []
    us, them = state["scores"]["us"], state["scores"]["them"]
    assert max(us, them) >= 45
    assert us == sum(h["us"] for h in state["hand_scores"])
    assert them == sum(h["them"] for h in state["hand_scores"])
    assert all(h["us"] + h["them"] in (25, 30) for h in state["hand_scores"])
    assert len(state["hand_scores"]) >= 2 or any(h["jink"] for h in state["hand_scores"])


def test_the_same_seed_gives_the_same_game(client: Client) -> None:
    a, b = start(client, seed=3), start(client, seed=3)
    assert (a["hand"], a["turned"], a["trick"]) == (b["hand"], b["turned"], b["trick"])


def _find_refusal(client: Client) -> tuple[dict[str, Any], str, str]:
    """A game at a moment when one of your cards is illegal: (state, card, engine code)."""
    for seed in range(60):
        state = start(client, seed=seed)
        for _ in range(40):
            if state["finished"]:
                break
            if "play" in state["actions"] and state["refused"]:
                card, why = next(iter(state["refused"].items()))
                return state, card, why["code"]
            state = _decide(client, state)
    raise AssertionError("no refusal found")


def test_an_illegal_card_is_422_with_the_engine_code_and_the_game_unchanged(
    client: Client,
) -> None:
    state, card, code = _find_refusal(client)
    assert card not in state["legal"]
    url = f"{API}/{state['id']}"
    before = PracticeGame.objects.get(pk=state["id"]).state
    response = _post(client, url + "/play", {"card": card})
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == code
    assert code in ("must_follow_suit", "must_follow_trump", "must_follow_hearts")
    assert body["message"].startswith("You must")
    assert body["rule"]  # the engine's own sentence
    assert PracticeGame.objects.get(pk=state["id"]).state == before
    assert client.get(url).json() == state


def test_a_card_not_in_hand_and_a_non_card_are_refused(client: Client) -> None:
    state = start(client, seed=5)
    while "play" not in state["actions"]:
        state = _decide(client, state)
    missing = next(c for c in ("AS", "2C", "3D", "4H", "9S", "10C") if c not in state["hand"])
    url = f"{API}/{state['id']}/play"
    response = _post(client, url, {"card": missing})
    assert (response.status_code, response.json()["code"]) == (422, "not_in_hand")
    response = _post(client, url, {"card": "ZZ"})
    assert (response.status_code, response.json()["code"]) == (422, "bad_card")
    response = _post(client, url, {"card": "5H", "extra": 1})
    assert (response.status_code, response.json()["code"]) == (422, "unknown_field")


def test_robbing_when_not_entitled_is_409(client: Client) -> None:
    state = start(client, seed=5)
    while "play" not in state["actions"]:
        state = _decide(client, state)
    response = _post(client, f"{API}/{state['id']}/rob", {"discard": None})
    assert (response.status_code, response.json()["code"]) == (409, "not_now")


def test_rulesets_and_modes_not_offered_are_refused(client: Client) -> None:
    response = _post(client, API, {"ruleset": "no-such-game"})
    assert response.status_code == 422
    response = _post(client, API, {"ruleset": "auction-120", "mode": "three-handed"})
    assert (response.status_code, response.json()["code"]) == (422, "no_individual_play")
    response = _post(client, API, {"ruleset": "cape-breton-45", "mode": "five-handed"})
    assert response.status_code == 422


def test_unknown_and_expired_games_are_404(client: Client) -> None:
    assert client.get(f"{API}/00000000-0000-4000-8000-000000000000").status_code == 404
    state = start(client, seed=1)
    PracticeGame.objects.filter(pk=state["id"]).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    response = client.get(f"{API}/{state['id']}")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")
    move = _post(client, f"{API}/{state['id']}/play", {"card": state["hand"][0]})
    assert move.status_code == 404


def test_a_move_keeps_the_game_a_day_longer(client: Client) -> None:
    state = start(client, seed=2)
    PracticeGame.objects.filter(pk=state["id"]).update(
        expires_at=timezone.now() + timedelta(minutes=5)
    )
    _decide(client, state)
    game = PracticeGame.objects.get(pk=state["id"])
    assert game.expires_at > timezone.now() + timedelta(hours=23)


def test_starting_is_limited_per_address_an_hour(client: Client, settings: Any) -> None:
    settings.PRACTICE_GAMES_PER_HOUR = 3
    for _ in range(3):
        start(client)
    response = _post(client, API, {"ruleset": "cape-breton-45"})
    assert response.status_code == 429
    assert response.json()["code"] == "rate_limited"
    assert int(response["Retry-After"]) > 0
    assert PracticeGame.objects.count() == 3
    other = Client(REMOTE_ADDR="10.9.8.7")
    assert _post(other, API, {"ruleset": "cape-breton-45"}).status_code == 201


def test_the_caller_cannot_choose_the_seed_nor_see_it_or_the_other_hands(client: Client) -> None:
    # Choosing the seed would let the caller rebuild every hand: it is refused.
    for seed in (7, True, "7"):
        response = _post(client, API, {"ruleset": "cape-breton-45", "seed": seed})
        assert response.status_code == 422, seed
        assert response.json()["code"] == "unknown_field"
    assert not PracticeGame.objects.exists()
    schema = client.get("/api/v1/openapi.json").json()["components"]["schemas"]["Start"]
    assert "seed" not in schema["properties"]
    state = start(client, seed=123456789, partner="strong", opponents="strong")
    game = PracticeGame.objects.get()
    others = {c for seat in (1, 2, 3) for c in game.state["deal"]["hands"][seat]}
    for answer in (state, _get(client, state["id"])):
        text = json.dumps(answer)
        assert "seed" not in answer and "123456789" not in text
        assert "deal" not in answer and "stock" not in text and 'kitty"' not in text
        # None of the others' cards shows, but for those on the table and the turned card
        # (which everyone saw).
        shown = {p["card"] for p in answer["trick"]} | {answer["turned"]}
        shown |= {c["card"] for c in (answer["last_trick"] or {}).get("cards", [])}
        assert not (others - shown) & set(re.findall(r'"([0-9AKQJ]{1,2}[CDHS]|JK)"', text))


def _get(client: Client, game_id: str) -> dict[str, Any]:
    response = client.get(f"{API}/{game_id}")
    assert response.status_code == 200
    return dict(response.json())


def test_the_partner_and_the_opponents_each_play_at_their_level(client: Client) -> None:
    schema = client.get("/api/v1/openapi.json").json()["components"]["schemas"]["Start"]
    levels = ["beginner", "sensible", "strong"]
    for role in ("partner", "opponents"):
        options = schema["properties"][role]["anyOf"]
        assert next(option["enum"] for option in options if "enum" in option) == levels
    state = start(client, seed=9, partner="strong", opponents="beginner")
    assert state["levels"] == {"partner": "strong", "opponents": "beginner"}
    codes: dict[str, set[str]] = {"partner": set(), "left": set(), "right": set()}
    for _ in range(300):
        if state["finished"]:
            break
        plays = [*state["trick"], *(state["last_trick"] or {}).get("cards", [])]
        for p in plays:
            if p["reason"]:
                codes[p["seat"]].add(p["reason"]["code"])
        state = _decide(client, state)
    assert state["finished"]
    # The strong partner says how its search judged its card; the beginners their habits.
    assert "searched" in codes["partner"]
    assert codes["left"] | codes["right"] <= {
        "only_card",
        "lead_highest",
        "take_highest",
        "cannot_win",
    }
    response = _post(client, API, {"ruleset": "cape-breton-45", "opponents": "expert"})
    assert (response.status_code, response.json()["code"]) == (422, "bad_field")


def test_a_whole_auction_game_through_the_api(client: Client) -> None:
    state = start(client, ruleset="auction-120", seed=4)
    assert state["turned"] is None
    bid_seen = trump_seen = False
    for _ in range(600):
        if state["finished"]:
            break
        bid_seen |= "bid" in state["actions"]
        trump_seen |= "trump" in state["actions"]
        state = _decide(client, state)
    assert state["finished"] and state["winner"] in ("us", "them")
    assert bid_seen and trump_seen
    assert max(state["scores"].values()) >= 120
    for hand in state["hand_scores"]:
        bid = hand["bid"]
        side = "us" if bid["seat"] in ("you", "partner") else "them"
        made = hand["taken"][side] >= bid["bid"]
        assert hand[side] == (hand["taken"][side] if made else -bid["bid"])


def test_bids_and_trump_are_judged_by_the_engine(client: Client) -> None:
    state = start(client, ruleset="auction-120", seed=4)
    while "bid" not in state["actions"]:
        state = _decide(client, state)
    url = f"{API}/{state['id']}"
    for amount, code in ((17, "not_a_bid"), (True, "bad_field")):
        response = _post(client, url + "/bid", {"bid": amount})
        assert (response.status_code, response.json()["code"]) == (422, code)
    response = _post(client, url + "/trump", {"suit": "H"})
    assert (response.status_code, response.json()["code"]) == (409, "not_now")
    assert client.get(url).json() == state


@pytest.mark.parametrize("ruleset", ["cape-breton-45", "irish-45-joker"])
def test_a_whole_three_handed_game_through_the_api(client: Client, ruleset: str) -> None:
    state = start(client, ruleset=ruleset, mode="three-handed", seed=21)
    assert [s["seat"] for s in state["seats"]] == ["you", "left", "right"]
    assert all(s["side"] is None for s in state["seats"])
    assert set(state["scores"]) == {"you", "left", "right"}
    for _ in range(300):
        if state["finished"]:
            break
        assert len(state["trick"]) < 3
        state = _decide(client, state)
    assert state["finished"] and state["winner"] in ("you", "left", "right")
    totals = {
        seat: sum(h["points"][seat] for h in state["hand_scores"]) for seat in state["scores"]
    }
    assert totals == state["scores"]
    assert all(sum(h["points"].values()) in (25, 30) for h in state["hand_scores"])
    winner = state["winner"]
    assert state["scores"][winner] == max(state["scores"].values())
    assert state["scores"][winner] >= 45 or state["hand_scores"][-1]["jink"] == winner


def test_the_description_offers_what_the_table_plays(client: Client) -> None:
    from practice import table

    schema = client.get("/api/v1/openapi.json").json()["components"]["schemas"]["Start"]
    assert schema["properties"]["ruleset"]["enum"] == list(table.RULESETS)
    assert schema["properties"]["mode"]["enum"] == list(table.MODES)


def test_the_computer_players_strength_is_chosen_at_the_start(client: Client) -> None:
    from engine.beginner import BEGINNER_REASONS, STRENGTHS

    schema = client.get("/api/v1/openapi.json").json()["components"]["schemas"]["Start"]
    assert schema["properties"]["bots"]["enum"] == list(STRENGTHS)
    assert schema["properties"]["bots"]["default"] == "heuristic"
    assert start(client, seed=9)["bots"] == "heuristic"
    state = start(client, seed=9, bots="beginner")
    assert state["bots"] == "beginner"
    codes = set()
    for _ in range(300):
        if state["finished"]:
            break
        codes |= {p["reason"]["code"] for p in state["trick"] if p["reason"]}
        state = _decide(client, state)
    assert state["finished"] and state["winner"] in ("us", "them")
    # The beginner's own habits show in its reasons (it never gives its partner the least).
    assert codes & {"lead_highest", "take_highest"} and codes <= set(BEGINNER_REASONS)
    response = _post(client, API, {"ruleset": "cape-breton-45", "bots": "expert"})
    assert (response.status_code, response.json()["code"]) == (422, "bad_field")


@pytest.mark.parametrize("bots", ["heuristic", "beginner"])
def test_every_computer_bid_and_named_trump_says_why(client: Client, bots: str) -> None:
    state = start(client, ruleset="auction-120", seed=4, bots=bots)
    seen_bids = seen_trumps = 0
    for _ in range(200):
        if state["finished"] or state["hand_number"] > 3:
            break
        for entry in state["bids"]:
            if entry["seat"] == "you":
                assert entry["why"] is None
            else:
                assert entry["why"] and "{" not in entry["why"], entry
                seen_bids += 1
        for event in state["events"]:
            if event["kind"] == "trump_named" and event["seat"] != "you":
                assert event["why"] and event["reason"]["figures"]["suit"] == event["suit"]
                seen_trumps += 1
        if state["hint"]:
            assert state["hint"]["why"], state["hint"]
        state = _decide(client, state)
    assert seen_bids and seen_trumps


def test_a_hint_for_every_decision(client: Client, settings: Any) -> None:
    """Play, rob (or keep), the dealer's discard, bid and trump: each hint is a legal answer
    with its reason in words."""
    settings.PRACTICE_GAMES_PER_HOUR = 100
    kinds = set()
    for ruleset, seeds in (("cape-breton-45", range(2, 14)), ("auction-120", range(4, 6))):
        for seed in seeds:
            state = start(client, ruleset=ruleset, seed=seed)
            for _ in range(12):
                if state["finished"]:
                    break
                hint, decision = state["hint"], state["decision"]
                assert hint and hint["why"]
                kinds.add(decision)
                if decision == "play":
                    assert hint["card"] in state["legal"]
                elif decision in ("rob", "discard"):
                    assert hint["discard"] is None or hint["discard"] in state["hand"]
                    assert decision == "rob" or hint["discard"]
                elif decision == "bid":
                    assert hint["bid"] is None or hint["bid"] in state["legal_bids"]
                else:
                    assert hint["suit"] in "CDHS"
                state = _decide(client, state)
    assert kinds == {"play", "rob", "discard", "bid", "trump"}


def test_each_hand_score_carries_the_running_totals(client: Client) -> None:
    for mode in ("partners", "three-handed"):
        state = start(client, seed=13, mode=mode)
        while not state["finished"]:
            state = _decide(client, state)
        running = dict.fromkeys(state["scores"], 0)
        for hand in state["hand_scores"]:
            points = hand.get("points") or {k: hand[k] for k in running}
            running = {k: running[k] + points[k] for k in running}
            assert hand["totals"] == running
        assert running == state["scores"]


def test_a_refused_rob_leaves_the_game_as_it_was(client: Client) -> None:
    state = start(client, seed=12)  # you hold the A♥ and may rob the turned K♥
    assert state["actions"] == ["rob"]
    url = f"{API}/{state['id']}"
    missing = next(c for c in ("2C", "3D", "9S", "10C", "4D") if c not in state["hand"])
    response = _post(client, url + "/rob", {"discard": missing})
    body = response.json()
    assert (response.status_code, body["code"]) == (422, "discard_not_in_hand")
    assert body["message"] == "You can only throw away a card of your hand."
    assert client.get(url).json() == state


def test_cards_are_written_as_the_issue_says(client: Client) -> None:
    """Cards as "10C", "AH", "JK": rank then suit letter, the joker JK, in every card field."""
    import re

    from practice import table

    card = re.compile(r"(10|[2-9JQKA])[CDHS]|JK")
    seed = next(
        s for s in range(200) if "JK" in table.start("irish-45-joker", seed=s)["deal"]["hands"][0]
    )
    state = start(client, ruleset="irish-45-joker", seed=seed)
    assert "JK" in state["hand"]
    for _ in range(40):
        texts = [*state["hand"], *state["legal"], *(p["card"] for p in state["trick"])]
        if state["last_trick"]:
            texts += [p["card"] for p in state["last_trick"]["cards"]]
        if state["turned"]:
            texts.append(state["turned"])
        assert all(card.fullmatch(t) for t in texts), texts
        if state["finished"]:
            break
        state = _decide(client, state)
