"""A whole night through the API alone: the organizer creates the drive and registers couples,
tables enter their results with their tokens, a couple uses its own, a conflict is resolved,
a late couple arrives and two leave, the night is played to the end, reconciled and closed."""

import random

import pytest

from drives.models import AuditEntry, Drive
from tests.api.helpers import Api

pytestmark = pytest.mark.django_db


def test_a_whole_night_through_the_api(api: Api, ours) -> None:
    org, scorer = ours.org_token, ours.scorer_token
    rng = random.Random(45)
    drive = api.post(
        "drives",
        {"club": ours.club.slug, "name": "Legion 45s", "date": "2026-11-27", "games": 8},
        token=org,
    ).json()
    slug = drive["slug"]
    couples = [{"players": [f"P{i}a", f"P{i}b"]} for i in range(1, 10)]
    assert api.post(f"drives/{slug}/couples", couples, token=scorer).status_code == 201
    api.patch(f"drives/{slug}/couples/9", {"checked_in": True, "paid": True}, token=scorer)
    game = api.post(f"drives/{slug}/start", {"seating": "shuffle", "seed": 7}, token=org).json()
    stored = Drive.objects.get(slug=slug)
    tokens = {t.number: t.token for t in stored.tables.all()}
    couple_tokens = {c.number: c.token for c in stored.couples.all()}
    active = set(range(1, 10))
    expected_wins = {n: 0 for n in range(1, 12)}
    for number in range(1, 9):
        assert game["number"] == number
        seated = [c for t in game["tables"] for c in (t["stays"], t["arrives"]) if c is not None]
        assert sorted(seated) == sorted(active), number
        for row in game["tables"]:
            if row["sit_out"]:
                expected_wins[row["stays"] or row["arrives"]] += 1
                continue
            winner = rng.choice([row["stays"], row["arrives"]])
            path = f"drives/{slug}/games/{number}/tables/{row['table']}"
            if row["table"] == 1:
                # Couple token of whoever stays at table 1.
                token = couple_tokens[row["stays"]]
            else:
                token = tokens.get(row["table"]) or stored.tables.get(number=row["table"]).token
                tokens[row["table"]] = token
            answer = api.put(
                f"{path}/result", {"winner": winner, "key": f"{number}-{row['table']}"}, token=token
            )
            assert answer.status_code == 201, answer.json()
            if row["table"] == 2 and number == 2:
                loser = row["stays"] if winner == row["arrives"] else row["arrives"]
                clash = api.put(f"{path}/result", {"winner": loser}, token=scorer)
                assert clash.status_code == 409
                blocked = api.post(f"drives/{slug}/games/{number}/advance", token=org)
                assert blocked.status_code == 409 and blocked.json()["conflicts"] == [2]
                fixed = api.post(
                    f"{path}/resolve", {"winner": winner, "reason": "Asked the table"}, token=scorer
                )
                assert fixed.status_code == 200
            expected_wins[winner] += 1
        if number == 2:
            late = api.post(f"drives/{slug}/couples", {"players": ["Late", "Pair"]}, token=scorer)
            assert late.json()[0]["number"] == 10
            active.add(10)
            couple_tokens[10] = Drive.objects.get(slug=slug).couples.get(number=10).token
        if number == 4:
            for leaving in (3, 6):
                answer = api.patch(
                    f"drives/{slug}/couples/{leaving}", {"withdrawn": True}, token=org
                )
                assert answer.json()["withdrawn_game"] == 5
                active.discard(leaving)
        if number == 8:
            last = api.post(f"drives/{slug}/games/8/advance", token=org)
            assert last.status_code == 422 and last.json()["code"] == "last_game"
            break
        advanced = api.post(f"drives/{slug}/games/{number}/advance", token=org)
        assert advanced.status_code == 201, advanced.json()
        game = advanced.json()
        again = api.post(f"drives/{slug}/games/{number}/advance", token=org)
        assert again.status_code == 200 and again.json() == game
    standings = api.get(f"drives/{slug}/standings", token=couple_tokens[1]).json()
    assert {r["number"]: r["wins"] for r in standings} == {
        n: w for n, w in expected_wins.items() if n <= 10
    }
    assert {r["number"] for r in standings if not r["eligible"]} == {3, 6}
    grid = api.get(f"drives/{slug}/grid", token=tokens[2]).json()
    assert all(r["wins"] == sum(m in "WS" for m in r["games"].values()) for r in grid)
    assert {r["number"]: min(map(int, r["games"])) for r in grid}[10] == 3
    holes = {str(r["number"]): r["wins"] for r in standings}
    holes["1"] += 1
    recorded = api.post(f"drives/{slug}/holes", {"holes": holes}, token=scorer).json()
    assert [m["number"] for m in recorded["reconciliation"]] == [1]
    assert api.post(f"drives/{slug}/close", token=org).status_code == 200
    export = api.get(f"drives/{slug}/export", token=scorer).json()
    assert len(export["games"]) == 8 and export["drive"]["state"] == "closed"
    channels = set(AuditEntry.objects.filter(drive__slug=slug).values_list("channel", flat=True))
    assert {"api", "table", "couple"} <= channels
    assert api.get(f"drives/{slug}/standings", token=tokens[2]).json()["code"] == "token_expired"
