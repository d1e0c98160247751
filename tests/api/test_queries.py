"""Query counts are part of the contract: reading a game, the standings, a result PUT and the
advance take the same number of queries on a night of 4 tables as on one of 40."""

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.api.helpers import Api, make_drive, play, table_token

pytestmark = pytest.mark.django_db

# Generous ceilings, so a change that adds queries is looked at; equality across sizes is the
# real contract.
CEILING = {"game": 8, "standings": 10, "result": 12, "advance": 25, "grid": 10, "tables": 8}


def count(action: Callable[[], Any]) -> int:
    with CaptureQueriesContext(connection) as queries:
        answer = action()
    assert answer.status_code in (200, 201), answer.json()
    return len(queries)


def measure(api: Api, token: str, drive: Any) -> dict[str, int]:
    slug = drive.slug
    api.get("me", token=token)  # the token's last_used_at is written at most once a minute
    counts = {
        "game": count(lambda: api.get(f"drives/{slug}/games/1", token=token)),
        "standings": count(lambda: api.get(f"drives/{slug}/standings", token=token)),
        "grid": count(lambda: api.get(f"drives/{slug}/grid", token=token)),
        "tables": count(lambda: api.get(f"drives/{slug}/tables", token=token)),
        "result": count(
            lambda: api.put(f"drives/{slug}/games/1/tables/1/result", {"winner": 1}, token=token)
        ),
    }
    play(api, drive, 1, token)
    counts["advance"] = count(lambda: api.post(f"drives/{slug}/games/1/advance", token=token))
    return counts


def test_counts_do_not_grow_with_the_night(api, ours) -> None:
    small = measure(api, ours.org_token, make_drive(ours.club, 8, start=True))
    large = measure(api, ours.org_token, make_drive(ours.club, 80, start=True))
    assert small == large
    for name, ceiling in CEILING.items():
        assert small[name] <= ceiling, (name, small[name])


def test_a_table_tokens_result_takes_a_fixed_count(api, ours) -> None:
    counts = []
    for couples in (8, 80):
        drive = make_drive(ours.club, couples, start=True)
        token = table_token(drive, 3)
        counts.append(
            count(
                lambda drive=drive, token=token: api.put(
                    f"drives/{drive.slug}/games/1/tables/3/result", {"winner": 5}, token=token
                )
            )
        )
    assert counts[0] == counts[1]
