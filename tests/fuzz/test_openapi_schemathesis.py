"""Schemathesis against the API's own description (``/api/v1/openapi.json``): for every
operation, requests generated from the schema (bodies, path parameters, some of them reaching
the seeded drives, games, tables, couples, ties and documents) never get a 5xx, and every
answer conforms to the description: a documented status, JSON (or the PDF), the documented
shape of the body.

Each operation is a test of its own (``max_examples`` each, derandomized so that CI sees the
same requests every run); every request runs in a savepoint rolled back afterwards, so each
one meets the seeded world as it was (a generated ``close`` does not end the fuzzing of the
other operations).
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import given
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from api.site import api
from tests.fuzz.helpers import InProcessApp, World, fuzzing, rolled_back

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

EXAMPLES = 30
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]


@schemathesis.serializer("text/csv")
def _csv(ctx: Any, value: Any) -> bytes:
    """The couples import's body: the generated text as it is."""
    if isinstance(value, bytes):
        return value
    return str(value).encode("utf-8", "surrogatepass")


def load_schema(app: InProcessApp) -> Any:
    """The description as the server serves it, bound to the in-process application."""
    return schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)


SCHEMA = schemathesis.openapi.from_dict(api.get_openapi_schema())
LABELS = [result.ok().label for result in SCHEMA.get_all_operations()]
# The operations that take a body.
WRITES = [
    result.ok().label
    for result in SCHEMA.get_all_operations()
    if "requestBody" in result.ok().definition.raw
]
# The operations a table or couple token may call (the others answer 403 to them).
TOKEN_LABELS = [
    "GET /me",
    "GET /drives/{slug}",
    "GET /drives/{slug}/games/current",
    "GET /drives/{slug}/games/{n}",
    "PUT /drives/{slug}/games/{n}/tables/{t}/result",
    "POST /drives/{slug}/games/{n}/tables/{t}/confirm",
    "GET /drives/{slug}/standings",
    "GET /drives/{slug}/grid",
    "GET /drives/{slug}/tables",
    "GET /drives/{slug}/couples",
    "POST /drives/{slug}/documents",
]


# Body fields steered (three times in four) to values that mean something in the seeded world,
# so that generated requests get past "no such couple" to the night's own rules.
COUPLE_NUMBER = st.integers(1, 10)
STEERED: dict[str, st.SearchStrategy[Any]] = {
    "winner": COUPLE_NUMBER,
    "couple": COUPLE_NUMBER,
    # The seeded play-off is between couples 3 and 4, the cut between 1 and 2.
    "match": st.one_of(st.just([3, 4]), st.lists(COUPLE_NUMBER, min_size=2, max_size=2)),
    "points": st.sampled_from([[45, 20], [50, 40], [40, 50], [45, 0], [120, 85], [30, 30]]),
    "holes": st.dictionaries(COUPLE_NUMBER.map(str), st.integers(0, 5), min_size=1),
    "cards": st.one_of(
        st.fixed_dictionaries({"1": st.sampled_from(["7H", "AS"]), "2": st.just("2C")}),
        st.dictionaries(
            COUPLE_NUMBER.map(str), st.sampled_from(["7H", "2C", "AS", "JK", "10D"]), min_size=1
        ),
    ),
    "games": st.lists(st.integers(1, 4), min_size=1, max_size=4),
    "reason": st.just("A misread score sheet"),
    "seating": st.sampled_from(["by-number", "shuffle"]),
}


def steer(body: Any, data: st.DataObject, world: World) -> Any:
    def often(label: str) -> bool:
        return data.draw(st.integers(0, 3), label=label) != 3

    if isinstance(body, str):  # the couples CSV: a header, then the generated text
        return "player1,player2\n" + body if often("csv header") else body
    if not isinstance(body, dict):
        return body
    steered = dict(body)
    for key in body:
        if key in STEERED and often(f"steer {key}"):
            steered[key] = data.draw(STEERED[key], label=key)
    if "club" in body and often("steer club"):
        steered["club"] = world.ours.club.slug
    return steered


def fuzz(
    label: str,
    world: World,
    authorization: str | None,
    *,
    examples: int = EXAMPLES,
    mode: GenerationMode = GenerationMode.POSITIVE,
) -> list[int]:
    """Run ``examples`` generated requests of the operation ``label``; the statuses answered
    (in the negative mode: to the requests whose body breaks the description)."""
    app = InProcessApp()
    with app.active():
        schema = load_schema(app)
        method, path = label.split(" ", 1)
        operation = schema[path][method]
        names = [p.name for p in operation.path_parameters]
        pools = world.path_values()
        targets = world.targets(names)
        statuses: list[int] = []

        @fuzzing(examples)
        @given(case=operation.as_strategy(generation_mode=mode), data=st.data())
        def check(case: Any, data: st.DataObject) -> None:
            if names:
                generated = dict(case.path_parameters)
                independent = st.fixed_dictionaries({n: st.sampled_from(pools[n]) for n in names})
                coherent = (
                    st.sampled_from(targets).flatmap(st.sampled_from) if targets else independent
                )
                case.path_parameters = data.draw(
                    st.one_of(coherent, coherent, independent, st.just(generated)), label="path"
                )
            if mode == GenerationMode.POSITIVE:
                case.body = steer(case.body, data, world)
            headers = {k: v for k, v in (case.headers or {}).items() if k != "Authorization"}
            if authorization is not None:
                headers["Authorization"] = authorization
            case.headers = headers
            with rolled_back():
                response = case.call(app=app)
            app.raise_errors()
            checks = (
                CHECKS if mode == GenerationMode.POSITIVE else [*CHECKS, negative_data_rejection]
            )
            case.validate_response(response, checks=checks)
            body = case.meta.components.get(ParameterLocation.BODY) if case.meta else None
            if mode == GenerationMode.POSITIVE or (body is not None and body.mode == mode):
                statuses.append(response.status_code)

        check()
    return statuses


@pytest.mark.parametrize("label", LABELS)
def test_every_operation_as_an_organizer(world: World, label: str) -> None:
    statuses = fuzz(label, world, f"Bearer {world.ours.org_token}")
    if label.startswith("GET"):  # the seeded world has something to read at every URL
        assert any(status < 300 for status in statuses), statuses


@pytest.mark.parametrize("label", WRITES)
def test_invalid_bodies_are_refused(world: World, label: str) -> None:
    """Bodies that break the description (a wrong type, a missing or unknown field) get a
    4xx, never a 2xx nor a 5xx."""
    statuses = fuzz(
        label, world, f"Bearer {world.ours.org_token}", examples=20, mode=GenerationMode.NEGATIVE
    )
    assert all(400 <= status < 500 for status in statuses), statuses


# The practice table's operations are open to anyone (tests/practice/test_api.py), and so are
# the club's public pages' twins (tests/club/test_public_pages.py) and registration before the
# night (tests/club/test_registration.py): the operations the description asks no credentials of.
OPEN = [
    result.ok().label
    for result in SCHEMA.get_all_operations()
    if not result.ok().definition.raw.get("security")
]
CLOSED_LABELS = [
    label
    for label in LABELS
    if not label.split(" ", 1)[1].startswith("/practice") and label not in OPEN
]


@pytest.mark.parametrize("label", CLOSED_LABELS)
def test_every_operation_without_credentials(world: World, label: str) -> None:
    """Without a token (and with a made-up session cookie) every operation answers 401 (the
    description itself, which is no operation of its own, is public: tests/api/test_auth)."""
    statuses = fuzz(label, world, None, examples=5)
    assert set(statuses) == {401}, statuses


@pytest.mark.parametrize("token", ["table", "couple", "pending_other"])
@pytest.mark.parametrize("label", TOKEN_LABELS)
def test_token_operations(world: World, label: str, token: str) -> None:
    fuzz(label, world, f"Bearer {world.tokens[token]}", examples=6)


@pytest.mark.parametrize("label", TOKEN_LABELS)
def test_a_closed_drives_token_gets_403_everywhere(world: World, label: str) -> None:
    statuses = fuzz(label, world, f"Bearer {world.tokens['closed_table']}", examples=4)
    assert set(statuses) == {403}, statuses
