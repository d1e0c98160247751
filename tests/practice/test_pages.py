"""The practice table's pages: plain forms, no account, the game found again from the
session, refusals in plain words, and the links from the home and couple pages."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from practice import table
from practice.models import PracticeGame

pytestmark = pytest.mark.django_db


def _start(client: Client, ruleset: str = "cape-breton-45") -> str:
    response = client.post("/practice/", {"ruleset": ruleset})
    assert response.status_code == 302
    match = re.fullmatch(r"/practice/([0-9a-f-]{36})/", response["Location"])
    assert match is not None
    return match.group(1)


def _seeded(client: Client, seed: int) -> str:
    """A game of a known seed, opened once by this browser (as if it had started it)."""
    game = PracticeGame.objects.create(state=table.start("cape-breton-45", seed=seed))
    client.get(f"/practice/{game.id}/")
    return str(game.id)


def _buttons(html: str) -> dict[str, str]:
    """The card buttons of the hand: card → its classes."""
    return dict(
        re.findall(r'name="card" value="[^"]+" data-card="([^"]+)"\s+class="([^"]+)"', html)
    )


def test_the_start_page_needs_no_account_and_deals_a_game(client: Client) -> None:
    page = client.get("/practice/")
    assert page.status_code == 200
    assert "Cape Breton 45" in page.text and "Irish 45 with the joker" in page.text
    game_id = _start(client, "irish-45-joker")
    game = PracticeGame.objects.get(pk=game_id)
    assert game.state["ruleset"] == "irish-45-joker"
    assert client.session["practice_game"] == game_id


def test_a_browser_finds_its_game_again(client: Client) -> None:
    game_id = _start(client)
    again = client.get("/practice/")
    assert f'href="/practice/{game_id}/"' in again.text
    assert 'data-testid="continue"' in again.text
    assert 'data-testid="continue"' not in Client().get("/practice/").text


def test_the_table_marks_legal_cards_and_says_why_the_others_are_refused(client: Client) -> None:
    for seed in range(60):
        game_id = _seeded(client, seed)
        view = table.view(PracticeGame.objects.get(pk=game_id).state, game_id)
        if view["decision"] == "play" and view["refused"]:
            break
    else:
        raise AssertionError("no position with a refused card")
    html = client.get(f"/practice/{game_id}/").text
    buttons = _buttons(html)
    assert set(buttons) == set(view["hand"])
    for card in view["hand"]:
        assert ("legal" in buttons[card].split()) == (card in view["legal"])
        assert ("refused" in buttons[card].split()) == (card not in view["legal"])
    card = next(iter(view["refused"]))
    note = re.search(rf'id="why-{card}"[^>]*>([^<]*)<', html)
    assert note is not None and "You must" in note.group(1)
    # Playing it anyway: back to the table, the reason in plain words, nothing changed.
    before = PracticeGame.objects.get(pk=game_id).state
    response = client.post(f"/practice/{game_id}/play", {"card": card}, follow=True)
    assert response.status_code == 200
    messages = [str(m) for m in response.context["messages"]]
    assert messages and messages[0].startswith("You must")
    assert PracticeGame.objects.get(pk=game_id).state == before


def test_playing_a_legal_card_moves_the_game_on(client: Client) -> None:
    game_id = _seeded(client, 5)
    view = table.view(PracticeGame.objects.get(pk=game_id).state, game_id)
    assert view["decision"] == "play"
    response = client.post(f"/practice/{game_id}/play", {"card": view["legal"][0]})
    assert response.status_code == 302 and response["Location"] == f"/practice/{game_id}/"
    after = table.view(PracticeGame.objects.get(pk=game_id).state, game_id)
    assert view["legal"][0] not in after["hand"]


def test_the_table_shows_the_hint_the_why_and_the_rules(client: Client) -> None:
    game_id = _seeded(client, 1)
    state = PracticeGame.objects.get(pk=game_id).state
    while not any(p["seat"] != 0 for p in state["trick"]) and not state["last_trick"]:
        v = table.view(state, game_id)
        table.play(state, v["legal"][0]) if v["decision"] == "play" else table.rob(state, None)
    PracticeGame.objects.filter(pk=game_id).update(state=state)
    html = client.get(f"/practice/{game_id}/").text
    assert 'data-testid="hint"' in html
    assert "why?" in html and "played the" in html
    assert "Rules in one page" in html
    trump = state["deal"]["trump"]
    chart = re.search(r'data-testid="chart-trumps">([^<]*)<', html)
    assert chart is not None and chart.group(1).split()[0] == "5" + "♣♦♥♠"["CDHS".index(trump)]


def test_robbing_from_the_page(client: Client) -> None:
    game_id = _seeded(client, 12)  # you hold the A♥, the K♥ turned
    html = client.get(f"/practice/{game_id}/").text
    assert 'name="discard" value="3D"' in html and 'data-testid="decline"' in html
    client.post(f"/practice/{game_id}/rob", {"discard": "3D"})
    state = PracticeGame.objects.get(pk=game_id).state
    assert state["rob_settled"] and "3D" not in state["deal"]["hands"][0]


def test_a_finished_game_offers_another(client: Client) -> None:
    game_id = _seeded(client, 3)
    state = PracticeGame.objects.get(pk=game_id).state
    while not state["finished"]:
        v = table.view(state, game_id)
        if v["decision"] == "play":
            table.play(state, v["legal"][0])
        else:
            table.rob(state, v["hand"][0] if v["must_discard"] else None)
    PracticeGame.objects.filter(pk=game_id).update(state=state)
    html = client.get(f"/practice/{game_id}/").text
    assert 'data-testid="game-over"' in html and 'data-testid="again"' in html


def test_an_unknown_game_is_404_with_a_way_back(client: Client) -> None:
    response = client.get("/practice/00000000-0000-4000-8000-000000000000/")
    assert response.status_code == 404
    assert 'href="/practice/"' in response.text
    posted = client.post("/practice/00000000-0000-4000-8000-000000000000/play", {"card": "5H"})
    assert posted.status_code == 404


def test_the_table_page_queries(client: Client, django_assert_num_queries: Any) -> None:
    game_id = _seeded(client, 5)
    # the session, the game (the session is unchanged: no write)
    with django_assert_num_queries(2):
        client.get(f"/practice/{game_id}/")


def test_home_page_links_to_the_practice_table(client: Client) -> None:
    assert 'href="/practice/"' in client.get("/").text


def test_the_couple_page_offers_the_practice_table_while_you_wait(client: Client) -> None:
    from tests.pages.live_helpers import night, people

    drive = night(people().club, 4)
    couple = drive.couples.get(number=1)
    html = client.get(f"/c/{couple.token}/").text
    assert 'data-testid="practice-link"' in html and 'href="/practice/"' in html


def test_an_auction_game_from_the_page(client: Client) -> None:
    game = PracticeGame.objects.create(state=table.start("auction-120", seed=4))
    game_id = str(game.id)
    state = game.state
    while table.view(state, game_id)["decision"] != "bid":
        v = table.view(state, game_id)
        table.play(state, v["legal"][0]) if v["decision"] == "play" else table.name(state, "H")
    PracticeGame.objects.filter(pk=game_id).update(state=state)
    html = client.get(f"/practice/{game_id}/").text
    assert 'data-testid="pass"' in html and "Trump: not named yet" in html
    response = client.post(f"/practice/{game_id}/bid", {"bid": "17"}, follow=True)
    assert [str(m) for m in response.context["messages"]] == ["Bid 15, 20, 25 or 30, or pass."]
    client.post(f"/practice/{game_id}/bid", {"bid": ""})
    after = PracticeGame.objects.get(pk=game_id).state
    assert [0, None, None] in after["bids"]  # your pass: no reason given


def test_the_end_of_a_hand_shows_tricks_bonus_points_and_totals(client: Client) -> None:
    game_id = _seeded(client, 3)
    state = PracticeGame.objects.get(pk=game_id).state
    while not state["hand_scores"]:
        v = table.view(state, game_id)
        if v["decision"] == "play":
            table.play(state, v["legal"][0])
        else:
            table.rob(state, v["hand"][0] if v["must_discard"] else None)
    PracticeGame.objects.filter(pk=game_id).update(state=state)
    view = table.view(state, game_id)
    html = client.get(f"/practice/{game_id}/").text
    panel = html.split('data-testid="hand-over"')[1].split("</section>")[0]
    assert "Hand 1 is over" in panel
    hand = view["hand_scores"][0]
    for side, label in (("us", "Us"), ("them", "Them")):
        row = re.search(rf"<th scope=\"row\">{label}</th>(.*?)</tr>", panel)
        assert row is not None
        cells = re.findall(r"<td>(?:<strong>)?(-?\d+)", row.group(1))
        assert cells == [str(hand["tricks"][side]), str(hand[side]), str(hand["totals"][side])]
    if hand["bonus"]:
        assert "The bonus (5 more)" in panel
    else:
        assert "no bonus" in panel
    assert 'data-testid="next-hand"' in panel
    # Once a trick of the next hand is taken the panel gives way to the table.
    while table.view(state, game_id)["trick_number"] == 0 and not state["finished"]:
        v = table.view(state, game_id)
        if v["decision"] == "play":
            table.play(state, v["legal"][0])
        else:
            table.rob(state, v["hand"][0] if v["must_discard"] else None)
    PracticeGame.objects.filter(pk=game_id).update(state=state)
    html = client.get(f"/practice/{game_id}/").text
    assert ('data-testid="hand-over"' in html) == state["finished"]


def test_the_end_of_the_game_offers_a_new_game(client: Client) -> None:
    game_id = _seeded(client, 5)
    state = PracticeGame.objects.get(pk=game_id).state
    while not state["finished"]:
        v = table.view(state, game_id)
        if v["decision"] == "play":
            table.play(state, v["legal"][0])
        else:
            table.rob(state, v["hand"][0] if v["must_discard"] else None)
    PracticeGame.objects.filter(pk=game_id).update(state=state)
    html = client.get(f"/practice/{game_id}/").text
    assert 'data-testid="game-over"' in html and 'data-testid="hand-over"' in html
    assert 'data-testid="new-game"' in html and 'name="partner" value="sensible"' in html
    response = client.post(
        "/practice/", {"ruleset": "cape-breton-45", "partner": "strong", "opponents": "beginner"}
    )
    assert response.status_code == 302
    state = PracticeGame.objects.latest("created_at").state
    assert state["levels"] == {"partner": "strong", "opponents": "beginner"}
    html = client.get(response["Location"]).text
    assert "Partner: strong · opponents: beginner" in html


def test_the_start_page_offers_three_levels_and_refuses_others(client: Client) -> None:
    html = client.get("/practice/").text
    for role in ("partner", "opponents"):
        assert f'name="{role}" value="sensible" checked' in html
        assert f'name="{role}" value="beginner"' in html
        assert f'name="{role}" value="strong"' in html
    assert "club regular" in html
    response = client.post("/practice/", {"ruleset": "cape-breton-45", "opponents": "expert"})
    assert response.status_code == 422
    assert "a beginner, a club regular or strong" in response.text
    assert not PracticeGame.objects.exists()


def test_the_levels_in_french(client: Client) -> None:
    html = client.get("/practice/", HTTP_ACCEPT_LANGUAGE="fr").text
    assert "Comment jouent vos adversaires?" in html and "habitué du club" in html


def test_every_refusal_the_engine_or_table_can_give_has_plain_words() -> None:
    """Each code raised by the modules the table plays through has its own sentence."""
    from pathlib import Path

    from practice import words

    root = Path(__file__).resolve().parents[2]
    codes: set[str] = set()
    modules = [
        "engine/play.py",
        "engine/deal.py",
        "engine/auction.py",
        "engine/cards.py",
        "engine/individual.py",
        "practice/table.py",
        "practice/services.py",
    ]
    for module in modules:
        source = (root / module).read_text()
        codes |= set(re.findall(r'(?:Error|IllegalPlay|NotFound|Limited)\(\s*"([a-z_]+)"', source))
    internal = {
        "bad_dealer",
        "bad_seat",
        "bad_hand",
        "bad_side",
        "empty_trick",
        "no_trump",
        "bad_pack",
    }
    missing = sorted(codes - set(words.REFUSALS) - set(words.RULE_REFUSALS) - internal)
    assert not missing, missing
    assert "must_follow_trump" in codes and "discard_not_in_hand" in codes


def test_the_computer_players_reasons_have_words_for_every_code() -> None:
    from engine.beginner import BEGINNER_REASONS, BID_REASONS
    from engine.bots import REASONS
    from engine.strong import STRONG_REASONS
    from practice import words

    codes = set(REASONS) | set(BEGINNER_REASONS) | set(BID_REASONS) | set(table.ROB_REASONS)
    codes |= set(STRONG_REASONS)
    assert codes == set(words.REASONS)
    for code, text in STRONG_REASONS.items():  # the same figures in both
        assert sorted(re.findall(r"{(\w+)}", text)) == sorted(
            re.findall(r"{(\w+)}", str(words.REASONS[code]))
        )
    for code in BID_REASONS:  # the same figures in both
        assert re.findall(r"{(\w+)}", BID_REASONS[code]) == re.findall(
            r"{(\w+)}", str(words.REASONS[code])
        )


def test_the_end_of_an_auction_hand_says_whether_the_bid_was_made(client: Client) -> None:
    game = PracticeGame.objects.create(state=table.start("auction-120", seed=4))
    state = game.state
    while not state["hand_scores"]:
        v = table.view(state, str(game.id))
        if v["decision"] == "play":
            table.play(state, v["legal"][0])
        elif v["decision"] == "bid":
            table.bid(state, None)
        else:
            table.name(state, v["hint"]["suit"])
    PracticeGame.objects.filter(pk=game.id).update(state=state)
    hand = state["hand_scores"][0]
    bid = hand["bid"]
    side = "us" if bid["seat"] in ("you", "partner") else "them"
    html = client.get(f"/practice/{game.id}/").text
    panel = html.split('data-testid="hand-over"')[1].split("</section>")[0]
    name = bid["seat"].capitalize()
    if hand["taken"][side] >= bid["bid"]:
        assert f"{name} bid {bid['bid']} and made it." in panel
        assert hand[side] == hand["taken"][side]
    else:
        assert f"{name} bid {bid['bid']} and fell short: minus {bid['bid']}." in panel
        assert hand[side] == -bid["bid"]


def test_the_hint_gives_the_strong_players_chances_in_french(client: Client) -> None:
    for seed in range(20):
        game_id = _seeded(client, seed)
        state = PracticeGame.objects.get(pk=game_id).state
        view = table.view(state, game_id)
        if view["decision"] == "play" and len(view["legal"]) > 1:
            html = client.get(f"/practice/{game_id}/", HTTP_ACCEPT_LANGUAGE="fr").text
            assert "le joueur fort a essayé chaque carte" in html and "fois sur 10" in html
            return
    raise AssertionError("no game began with a choice of card")
