"""The requests of an outside probe of the hall's server and the production stack (issue 31),
each with the answer it must get: never a 500, a refusal in the API's shape with a code
naming the problem, and nothing written. The values also feed the API's Hypothesis run
(tests/fuzz/strategies.py, ``RAW``; test_hypothesis_api.py, ``EXPLICIT``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client, override_settings

from drives import ratelimit
from tests.api.helpers import Api
from tests.fuzz.helpers import World, changed_tables, rolled_back, snapshot
from tests.fuzz.strategies import DEEP_NESTING

pytestmark = [pytest.mark.django_db]


@dataclass(frozen=True)
class Probe:
    method: str
    path: str  # {running} {theirs}: the drives' slugs; {season}: our season's
    body: Any
    status: int
    code: str


PROBES = {
    "players and player1": Probe(
        "POST",
        "drives/{running}/couples",
        {"players": ["Ann", "Bob"], "player1": "Cy"},
        422,
        "bad_couple",
    ),
    "players and player1 in a list": Probe(
        "POST",
        "drives/{running}/couples",
        [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"], "player2": "Ed"}],
        422,
        "bad_couple",
    ),
    "a document's game as text": Probe(
        "POST", "drives/{running}/documents", {"document": "movement", "game": "1"}, 422, "bad_game"
    ),
    "a document's couple as text": Probe(
        "POST",
        "drives/{running}/documents",
        {"document": "punch-cards", "couple": "1"},
        422,
        "bad_couple",
    ),
    "another club's drive into a season": Probe(
        "POST",
        "clubs/st-josephs-parish/seasons/{season}/drives",
        {"drive": "{theirs}"},
        404,
        "no_such_drive",
    ),
    "a body nested 100,000 deep": Probe(
        "POST", "drives/{running}/couples", DEEP_NESTING, 400, "bad_json"
    ),
}


def _filled(text: str, world: World) -> str:
    slugs = {name: drive.slug for name, drive in world.drives.items()}
    return text.format(season=world.seasons[0], **slugs)


@pytest.mark.parametrize("name", list(PROBES))
def test_the_probes_bodies_are_refused_by_name(api: Api, world: World, name: str) -> None:
    probe = PROBES[name]
    body = probe.body
    if isinstance(body, dict):
        body = {k: _filled(v, world) if isinstance(v, str) else v for k, v in body.items()}
    raw = body if isinstance(body, bytes) else None
    before = snapshot()
    with rolled_back():
        answer = api.call(
            probe.method,
            _filled(probe.path, world),
            None if raw is not None else body,
            raw=raw,
            token=world.ours.org_token,
        )
        changed = changed_tables(before, snapshot())
    assert (answer.status_code, answer.json()["code"]) == (probe.status, probe.code), answer.json()
    assert answer.json()["message"].strip()
    assert not changed


@pytest.mark.parametrize("until", ["9" * 5000, "\u00b2" * 3], ids=["5000-digits", "superscripts"])
def test_an_if_none_match_with_a_malformed_moment_is_a_200(world: World, until: str) -> None:
    phone = Client()
    url = f"/t/{world.tokens['table']}/?partial=1"
    key = phone.get(url)["ETag"].removeprefix('W/"').removesuffix('"').partition("~")[0]
    header = f'W/"{key}~{until}"'.encode().decode("latin-1")
    answer = phone.get(url, headers={"If-None-Match": header})
    assert answer.status_code == 200 and answer.content


def test_a_forged_forwarded_for_from_a_direct_connection_counts_its_own_address(
    world: World,
) -> None:
    with override_settings(RATELIMIT_TRUST_X_FORWARDED_FOR=True):
        request = (
            Client(REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="192.0.2.1")
            .get("/")
            .wsgi_request
        )
        assert ratelimit.client_ip(request) == "203.0.113.9"
