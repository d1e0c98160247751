"""Hypothesis against every write endpoint of the API: arbitrary JSON bodies (wrong types,
huge numbers, unicode, nulls, nested junk, missing and unknown fields) and bytes that are not
JSON at all. Never a 5xx (the test client re-raises what a view lets through); a refusal is a
JSON error with a code and a message, names a field the endpoint knows (or one it was sent),
and leaves every row of the database as it was (drives, couples, games, results, prizes,
documents, the audit).

The two refusals that write are documented: a result that contradicts the one stored (409
``result_conflict``) keeps both entries for the desk, and a key sent again with another result
(409 ``key_reused``) stores nothing but is audited.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from drives.services import DRIVE_SETTINGS
from money.services import SETUP_FIELDS as MONEY_SETUP
from scoring.prizes.services import SETUP_FIELDS
from tests.api.helpers import BASE, Api
from tests.fuzz.helpers import World, changed_tables, fuzzing, rolled_back, snapshot
from tests.fuzz.strategies import UNSTORABLE_TEXT, raw_body

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

EXAMPLES = 30
EXPLICIT: list[Any] = ["²", 2**70, None, "1"]  # "1": a number as text (issue 31's probe)
# Refusals that keep what was sent, by design (docs/api.md).
KEEPS = {"result_conflict", "key_reused"}

couple = st.integers(1, 10)
any_text = st.text(st.characters(exclude_categories=[]), max_size=90)  # surrogates included
points = st.lists(st.sampled_from([0, 5, 20, 40, 45, 50, 120, -10]), min_size=0, max_size=3)
# Sums of money, with an outside probe's: the largest the ledger takes, one cent more, and 30
# digits (past what Decimal's context can round to the cent).
PROBE_AMOUNTS = ["99999999.99", "100000000.00", "1" + "0" * 29]
amounts = st.sampled_from(["5", "2.505", "-1", *PROBE_AMOUNTS]) | st.decimals().map(str)


@dataclass(frozen=True)
class Endpoint:
    method: str
    path: str  # {running} {pending} {setup} {over} {closed}: the drives' slugs; {tie}: a tie
    fields: tuple[str, ...]
    plausible: dict[str, st.SearchStrategy[Any]] = field(default_factory=dict)
    token: str = "organizer"
    content_type: str = "application/json"

    def url(self, world: World, tie: int) -> str:
        slugs = {name: drive.slug for name, drive in world.drives.items()}
        return BASE + "/" + self.path.format(tie=tie, **slugs)


ENDPOINTS = {
    "result": Endpoint(
        "PUT",
        "drives/{running}/games/2/tables/3/result",
        ("winner", "points", "key", "confirm_unusual"),
        {"winner": couple, "points": points, "key": any_text},
    ),
    "result by a table": Endpoint(
        "PUT",
        "drives/{running}/games/2/tables/2/result",
        ("winner", "points", "key", "confirm_unusual"),
        {"winner": couple},
        token="table",
    ),
    "confirm": Endpoint(
        "POST",
        "drives/{pending}/games/1/tables/1/confirm",
        ("accept",),
        {"accept": st.booleans()},
        token="pending_other",
    ),
    "resolve": Endpoint(
        "POST",
        "drives/{running}/games/1/tables/1/resolve",
        ("winner", "reason", "points"),
        {"winner": couple, "reason": any_text, "points": points},
    ),
    "advance": Endpoint("POST", "drives/{running}/games/2/advance", ()),
    "start": Endpoint(
        "POST",
        "drives/{setup}/start",
        ("seating", "seed"),
        {"seating": st.sampled_from(["by-number", "shuffle"]), "seed": st.integers(-1, 2**64)},
    ),
    "close": Endpoint("POST", "drives/{running}/close", ()),
    "couples add": Endpoint(
        "POST",
        "drives/{running}/couples",
        ("players", "player1", "player2", "paid", "checked_in", "cookie_jar"),
        {"players": st.lists(any_text, max_size=3), "player1": any_text},
    ),
    "couple patch": Endpoint(
        "PATCH",
        "drives/{running}/couples/3",
        ("players", "player1", "player2", "paid", "checked_in", "cookie_jar", "withdrawn"),
        {"withdrawn": st.booleans(), "player2": any_text},
    ),
    "drive create": Endpoint(
        "POST",
        "drives",
        ("club", *DRIVE_SETTINGS),
        {
            "club": st.just("st-josephs-parish"),
            "name": any_text,
            "date": st.dates().map(str),
            "games": st.integers(-1, 70),
        },
    ),
    "registration": Endpoint(
        "POST",
        "drives/{setup}/registrations",
        ("players", "contact", "duplicate_ok", "player_ids"),
        {"players": st.lists(any_text, max_size=3), "player_ids": st.lists(st.integers())},
    ),  # no login: the bearer token sent is not read
    "drive patch (setup)": Endpoint(
        "PATCH",
        "drives/{setup}",
        DRIVE_SETTINGS,
        {"games": st.integers(-1, 70), "entry_fee": st.decimals(allow_nan=True).map(str)},
    ),
    "drive patch (running)": Endpoint("PATCH", "drives/{running}", DRIVE_SETTINGS),
    "drive patch (closed)": Endpoint(
        "PATCH", "drives/{closed}", DRIVE_SETTINGS, {"published": st.booleans()}
    ),
    "holes": Endpoint(
        "POST",
        "drives/{running}/holes",
        ("holes",),
        {
            "holes": st.dictionaries(
                st.sampled_from(["1", "2", "9", "99", "²", "-1"]), st.integers(-2, 6)
            )
        },
    ),
    "prize setup": Endpoint(
        "PATCH",
        "drives/{running}/prizes/setup",
        SETUP_FIELDS,
        {
            "prize_places": st.integers(-1, 25),
            "buy_in": st.decimals().map(str),
            "prizes": st.lists(
                st.fixed_dictionaries(
                    {}, optional={"amount": st.text(max_size=8), "description": any_text}
                )
            ),
        },
    ),
    "prize setup (opened)": Endpoint("PATCH", "drives/{over}/prizes/setup", SETUP_FIELDS),
    "ties open": Endpoint("POST", "drives/{running}/prizes/ties", ("force",)),
    "ties open again": Endpoint("POST", "drives/{over}/prizes/ties", ("force",)),
    "tie choice": Endpoint(
        "POST",
        "drives/{over}/prizes/ties/{tie}/choices",
        ("couple", "choice"),
        {"couple": couple, "choice": st.sampled_from(["split", "cut", "play-off", "forfeit"])},
    ),
    "tie decide": Endpoint("POST", "drives/{over}/prizes/ties/{tie}/decide", ()),
    "tie cut": Endpoint(
        "POST",
        "drives/{over}/prizes/ties/{tie}/cut",
        ("cards", "draw"),
        {
            "cards": st.dictionaries(
                st.sampled_from(["1", "2", "3"]),
                st.sampled_from(["7H", "2C", "AS", "JK", "1X", "10D"]),
            ),
            "draw": st.booleans(),
        },
    ),
    "tie playoff": Endpoint(
        "POST",
        "drives/{over}/prizes/ties/{tie}/playoff",
        ("match", "winner", "points", "confirm_unusual"),
        {"match": st.lists(couple, max_size=3), "winner": couple, "points": points},
    ),
    "cookie jar draw": Endpoint(
        "POST",
        "drives/{over}/prizes/cookie-jar/draw",
        ("games",),
        {"games": st.lists(st.integers(-1, 5), max_size=5)},
    ),
    "money line": Endpoint(
        "POST",
        "drives/{running}/accounts/lines",
        ("kind", "amount", "way", "couple", "note", "currency"),
        {"kind": st.sampled_from(["donation", "expense", "entry"]), "amount": amounts},
    ),
    "money count": Endpoint(
        "POST",
        "drives/{running}/accounts/count",
        ("total", "denominations"),
        {"total": amounts, "denominations": st.dictionaries(amounts, st.integers(-1, 10**7))},
    ),
    "money setup": Endpoint(
        "PATCH",
        "drives/{running}/accounts/setup",
        MONEY_SETUP,
        {"ticket_price": amounts, "strip_price": amounts, "strip_size": st.integers(-1, 2000)},
    ),
    "fifty-fifty tickets": Endpoint(
        "POST",
        "drives/{running}/fifty-fifty/tickets",
        ("count", "first", "way", "amount", "currency"),
        {"count": st.integers(-1, 10**6), "amount": amounts},
    ),
    "fifty-fifty tickets (closed)": Endpoint(
        "POST", "drives/{closed}/fifty-fifty/tickets", ("count", "first", "way", "amount")
    ),
    "raffle add": Endpoint(
        "POST",
        "drives/{running}/raffles",
        ("name", "ticket_price"),
        {"name": any_text, "ticket_price": amounts},
    ),
    "documents": Endpoint(
        "POST",
        "drives/{running}/documents",
        ("document", "paper", "game", "couple", "filled", "base_url"),
        {
            "document": st.sampled_from(
                ["punch-cards", "table-cards", "score-sheets", "movement", "results"]
            ),
            "paper": st.sampled_from(["letter", "a4"]),
            "game": st.integers(0, 6),
            "base_url": st.sampled_from(["https://x.org", "javascript:alert(1)", "ftp://x"]),
        },
    ),
}


def tokens(world: World) -> dict[str, str]:
    return {"organizer": world.ours.org_token, "scorer": world.ours.scorer_token, **world.tokens}


def check_refusal(answer: Any, sent: Any, endpoint: Endpoint) -> None:
    """A refusal says what is wrong: a code, a message, and the field it names is one the
    endpoint knows or was sent."""
    error = answer.json()
    assert isinstance(error.get("code"), str) and error["code"], error
    assert isinstance(error.get("message"), str) and error["message"].strip(), error
    # The keys sent: the object's, or those of each object in a list (couples add takes a
    # list of couples, and names the unknown field of the one that has it).
    items = sent if isinstance(sent, list) else [sent]
    sent_keys = {key for item in items if isinstance(item, dict) for key in item}
    if "field" in error:  # a field, or a place in one ("prizes[1]": the second prize)
        known = set(endpoint.fields) | sent_keys | {"club"}
        assert error["field"] in known or re.split(r"[.\[]", error["field"])[0] in known, error
    if error["code"] == "unknown_field":
        assert error.get("field") in sent_keys, error
    if error["code"] == "bad_text" and "path" in error:  # where the text at fault is
        path = error["path"]  # "key", "prizes[0].description", "[1].players[0]" in a list
        assert (path.startswith("[") and isinstance(sent, list)) or any(
            path == key or path.startswith((f"{key}.", f"{key}[")) for key in sent_keys
        ), error


def post(
    api: Api, world: World, endpoint: Endpoint, raw: bytes, tie: int, before: dict[str, Any]
) -> tuple[Any, list[str]]:
    """Send ``raw`` (undone afterwards); the answer and, for a refusal, the tables it changed
    from ``before``."""
    with rolled_back():
        answer = api.call(
            endpoint.method,
            endpoint.url(world, tie),
            raw=raw,
            token=tokens(world)[endpoint.token],
            content_type=endpoint.content_type,
        )
        changed = changed_tables(before, snapshot()) if answer.status_code >= 400 else []
    return answer, changed


def fuzz_endpoint(api: Api, world: World, endpoint: Endpoint, examples: int = EXAMPLES) -> None:
    statuses: list[int] = []
    before = snapshot()  # every request is undone: each one starts from this

    @fuzzing(examples)
    @given(raw=raw_body(endpoint.fields, endpoint.plausible), tie=st.sampled_from(world.ties))
    def check(raw: bytes, tie: int) -> None:
        answer, changed = post(api, world, endpoint, raw, tie, before)
        assert answer.status_code < 500, (raw, answer.content)
        statuses.append(answer.status_code)
        if answer.status_code >= 400:
            try:
                sent = json.loads(raw)
            except (ValueError, RecursionError):
                sent = None
            check_refusal(answer, sent, endpoint)
            if answer.json()["code"] not in KEEPS:
                assert not changed, (raw, answer.json(), changed)

    for odd in EXPLICIT:  # each field alone, with each of a few values that broke parsers
        for name in endpoint.fields:
            raw = json.dumps({name: odd}, ensure_ascii=False).encode()
            check = example(raw=raw, tie=world.ties[0])(check)
    check()
    assert any(400 <= s < 500 for s in statuses), statuses


@pytest.mark.parametrize("name", list(ENDPOINTS))
def test_bad_bodies_are_refused_and_change_nothing(api: Api, world: World, name: str) -> None:
    fuzz_endpoint(api, world, ENDPOINTS[name])


@pytest.mark.parametrize("name", [name for name, e in ENDPOINTS.items() if e.fields])
def test_a_lone_surrogate_in_any_field_is_bad_text(api: Api, world: World, name: str) -> None:
    """Whatever the field and its kind, text no database can store is named, never a 500 nor
    the field's own complaint about its kind."""
    endpoint = ENDPOINTS[name]
    before = snapshot()
    for field_name in endpoint.fields:
        for odd in UNSTORABLE_TEXT[:4]:
            for value, place in [
                (odd, field_name),
                ([odd], f"{field_name}[0]"),
                ({"description": odd}, f"{field_name}.description"),
            ]:
                raw = json.dumps({field_name: value}).encode("ascii")  # "\\udc00" escapes
                answer, changed = post(api, world, endpoint, raw, world.ties[0], before)
                assert answer.status_code == 422, (name, raw, answer.content)
                assert answer.json()["code"] == "bad_text", (name, raw, answer.json())
                assert answer.json()["path"] == place
                assert not changed


def test_a_refusal_after_a_partial_list_writes_no_couple(api: Api, world: World) -> None:
    """A list of couples whose last one is bad registers none of them."""
    drive = world.drives["running"]
    before = snapshot()
    answer = api.post(
        f"drives/{drive.slug}/couples",
        [{"players": ["Ann", "Bob"]}, {"players": ["Cy", "Di"]}, {"players": ["Ed", 7]}],
        token=world.ours.org_token,
    )
    assert answer.status_code == 422
    assert answer.json()["code"] == "missing_player"
    assert "Couple 3" in answer.json()["message"]
    assert not changed_tables(before, snapshot())


def test_an_outside_probes_money_requests_are_refused_and_change_nothing(
    api: Api, world: World
) -> None:
    """A raffle item priced 99,999,999.99 sold two at a time, and 30 digits in each field
    that takes a sum: 422 ``bad_amount`` naming the field, nothing written, and the drive's
    accounts, export and the club's money still answer."""
    slug, tok = world.slug("running"), world.ours.org_token
    with rolled_back():
        quilt = api.post(
            f"drives/{slug}/raffles", {"name": "A quilt", "ticket_price": "99999999.99"}, token=tok
        )
        assert quilt.status_code == 201, quilt.content
        before = snapshot()
        thirty = PROBE_AMOUNTS[-1]
        requests = [
            ("POST", f"raffles/{quilt.json()['id']}/tickets", {"count": 2}, "count"),
            ("POST", "accounts/lines", {"kind": "donation", "amount": thirty}, "amount"),
            ("POST", "accounts/count", {"total": thirty}, "total"),
            ("POST", "accounts/count", {"denominations": {thirty: 1}}, "denominations"),
            ("POST", "accounts/count", {"denominations": {"100": 10**6}}, "denominations"),
            ("POST", "fifty-fifty/tickets", {"amount": thirty}, "amount"),
            ("PATCH", "accounts/setup", {"opening_float": thirty}, "opening_float"),
            ("POST", "raffles", {"name": "A ham", "ticket_price": thirty}, "ticket_price"),
        ]
        for method, tail, body, field_name in requests:
            answer = api.call(method, f"drives/{slug}/{tail}", body, token=tok)
            assert answer.status_code == 422, (tail, body, answer.content)
            error = answer.json()
            assert (error["code"], error["field"]) == ("bad_amount", field_name), error
            endpoint = Endpoint(method, tail, tuple(body))
            check_refusal(answer, body, endpoint)
            assert not changed_tables(before, snapshot()), (tail, body)
        for tail in (f"drives/{slug}/accounts", f"drives/{slug}/export"):
            assert api.get(tail, token=tok).status_code == 200, tail
        assert api.get(f"clubs/{world.ours.club.slug}/money", token=tok).status_code == 200
