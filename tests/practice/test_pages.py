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
    assert [0, None] in after["bids"]
