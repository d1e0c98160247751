"""Who may call the API: anonymous callers, bad tokens, sessions and their CSRF check, another
club's organizer, the roles, ``/me``, and the JSON answers for unknown URLs and methods."""

import pytest
from django.test import Client

from drives.models import ApiToken, new_token
from drives.services import api_token_create
from drives.tokens import CARD_TOKEN_LENGTH
from scoring.models import Result
from tests.api.helpers import Api, couple_token, make_drive, table_token
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_anonymous_is_401_with_a_bearer_challenge(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    for method, path in [
        ("GET", "drives"),
        ("GET", "me"),
        ("GET", f"drives/{drive.slug}/games/1"),
        ("PUT", f"drives/{drive.slug}/games/1/tables/1/result"),
        ("GET", "drives/no-such-drive/standings"),
    ]:
        answer = api.call(method, path, {"winner": 1})
        assert answer.status_code == 401, path
        assert answer.json()["code"] == "not_authenticated"
        assert answer["WWW-Authenticate"].startswith("Bearer")


def test_bad_tokens_are_401(api, ours) -> None:
    answer = api.get("me", token="not-a-token")
    assert answer.status_code == 401 and answer.json()["code"] == "bad_token"
    assert 'error="invalid_token"' in answer["WWW-Authenticate"]
    basic = api.get("me", HTTP_AUTHORIZATION="Basic dXNlcjpwYXNz")
    assert basic.status_code == 401 and basic.json()["code"] == "bad_authorization"
    assert api.get("me", token="x" * 5000).status_code == 401
    ours.organizer.is_active = False
    ours.organizer.save()
    assert api.get("me", token=ours.org_token).status_code == 401


def test_a_bearer_token_wins_over_the_session(api, ours, theirs) -> None:
    api.client.force_login(theirs.organizer)
    answer = api.get("me", token=ours.org_token)
    assert answer.json()["user"]["username"] == "ours-organizer"
    assert answer.json()["via"] == "bearer"
    assert api.get("me", token="wrong").status_code == 401


def test_api_token_use_is_recorded(api, ours) -> None:
    token = ApiToken.objects.get(user=ours.organizer)
    assert token.last_used_at is None
    api.get("me", token=ours.org_token)
    token.refresh_from_db()
    assert token.last_used_at is not None


def test_me_for_every_kind_of_caller(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    user = api.get("me", token=ours.scorer_token).json()
    assert user["kind"] == "user" and user["via"] == "bearer"
    assert user["clubs"] == [{"slug": ours.club.slug, "name": ours.club.name, "role": "scorer"}]
    table = api.get("me", token=table_token(drive, 2)).json()
    assert table["kind"] == "table" and table["table"] == 2
    assert table["drive"]["slug"] == drive.slug and table["drive"]["current_game"] == 1
    couple = api.get("me", token=couple_token(drive, 3)).json()
    assert couple["kind"] == "couple" and couple["couple"]["number"] == 3
    assert couple["seat"] == {
        "number": 3,
        "table": 2,
        "opponents": 4,
        "deals": False,
        "sit_out": False,
    }
    session = Api(Client())
    session.client.force_login(ours.organizer)
    assert session.get("me").json()["via"] == "session"


def test_another_clubs_organizer_gets_404_for_everything(api, ours, theirs) -> None:
    drive = make_drive(ours.club, 4, start=True)
    slug = drive.slug
    for method, path, body in [
        ("GET", f"drives/{slug}", None),
        ("PATCH", f"drives/{slug}", {"venue": "Theirs"}),
        ("POST", f"drives/{slug}/start", {}),
        ("POST", f"drives/{slug}/close", {}),
        ("GET", f"drives/{slug}/couples", None),
        ("POST", f"drives/{slug}/couples", {"players": ["A", "B"]}),
        ("PATCH", f"drives/{slug}/couples/1", {"paid": True}),
        ("GET", f"drives/{slug}/games/1", None),
        ("GET", f"drives/{slug}/games/current", None),
        ("PUT", f"drives/{slug}/games/1/tables/1/result", {"winner": 1}),
        ("POST", f"drives/{slug}/games/1/tables/1/resolve", {"winner": 1, "reason": "x"}),
        ("POST", f"drives/{slug}/games/1/advance", {}),
        ("GET", f"drives/{slug}/standings", None),
        ("GET", f"drives/{slug}/grid", None),
        ("GET", f"drives/{slug}/tables", None),
        ("GET", f"drives/{slug}/export", None),
        ("POST", f"drives/{slug}/holes", {"holes": {"1": 0}}),
        ("GET", f"drives/{slug}/reconciliation", None),
    ]:
        answer = api.call(method, path, body, token=theirs.org_token)
        assert answer.status_code == 404, (method, path, answer.json())
        assert answer.json() == {"code": "not_found", "message": "No such drive."}
    assert not Result.objects.exists()
    assert [d["slug"] for d in api.get("drives", token=theirs.org_token).json()] == []
    # Nor can they create a drive in our club.
    create = api.post(
        "drives",
        {"club": ours.club.slug, "name": "X", "date": "2026-12-01"},
        token=theirs.org_token,
    )
    assert create.status_code == 404


def test_a_superuser_sees_every_club(api, ours, theirs) -> None:
    drive = make_drive(ours.club, 2)
    admin = UserFactory(username="root", is_superuser=True, is_staff=True)
    session = Api(Client())
    session.client.force_login(admin)
    assert [d["slug"] for d in session.get("drives").json()] == [drive.slug]
    assert session.get(f"drives/{drive.slug}").status_code == 200


def test_session_unsafe_requests_need_the_csrf_token(ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    client = Client(enforce_csrf_checks=True)
    client.force_login(ours.scorer)
    api = Api(client)
    url = f"drives/{drive.slug}/games/1/tables/1/result"
    # A read needs no token, and hands out the cookie.
    assert api.get(f"drives/{drive.slug}/games/1").status_code == 200
    refused = api.put(url, {"winner": 1})
    assert refused.status_code == 403 and refused.json()["code"] == "csrf_failed"
    assert not Result.objects.exists()
    client.get("/accounts/login/")  # sets the csrftoken cookie
    csrf = client.cookies["csrftoken"].value
    stored = api.put(url, {"winner": 1}, HTTP_X_CSRFTOKEN=csrf)
    assert stored.status_code == 201, stored.json()
    assert Result.objects.get().versions.get().channel == "desk"
    # A bearer request carries no cookie and needs no CSRF token.
    bearer = Api(Client(enforce_csrf_checks=True))
    answer = bearer.put(
        f"drives/{drive.slug}/games/1/tables/2/result", {"winner": 3}, token=ours.scorer_token
    )
    assert answer.status_code == 201


def test_unknown_urls_and_methods_answer_json(api, ours) -> None:
    drive = make_drive(ours.club, 4)
    missing = api.get("nothing/here", token=ours.org_token)
    assert missing.status_code == 404 and missing.json()["code"] == "no_such_endpoint"
    # A line break in the path (an encoded %0A in a slug) is answered in JSON too.
    broken = api.post("drives/%0Aeve/prizes/ties/1/decide", {}, token=ours.org_token)
    assert broken.status_code == 404 and broken.json()["code"] == "no_such_endpoint"
    post_missing = api.post("/api/v1/drives/", {}, token=ours.org_token)
    assert post_missing.status_code == 404
    wrong = api.call("DELETE", f"drives/{drive.slug}", token=ours.org_token)
    assert wrong.status_code == 405
    assert wrong.json()["code"] == "method_not_allowed" and wrong["Allow"] == "GET, PATCH"
    get_result = api.get(f"drives/{drive.slug}/games/1/tables/1/result", token=ours.org_token)
    assert get_result.status_code == 405 and get_result["Allow"] == "PUT"


def test_the_description_is_public(api) -> None:
    answer = api.get("openapi.json")
    assert answer.status_code == 200 and answer.json()["openapi"].startswith("3.1")


def test_tokens_cannot_reach_account_endpoints(api, ours) -> None:
    drive = make_drive(ours.club, 4, start=True)
    for token in (table_token(drive, 1), couple_token(drive, 1)):
        listed = api.get("drives", token=token)
        assert listed.status_code == 403 and listed.json()["code"] == "token_not_allowed"
        created = api.post(
            "drives", {"club": ours.club.slug, "name": "X", "date": "2026-12-01"}, token=token
        )
        assert created.status_code == 403
        assert api.get(f"drives/{drive.slug}", token=token).status_code == 200


def test_the_length_of_a_token_says_which_sort_it_is() -> None:
    """API tokens are longer than any table or couple token, so a token is looked up once."""
    assert all(len(new_token()) <= CARD_TOKEN_LENGTH for _ in range(100))
    user = UserFactory()
    assert all(len(api_token_create(user=user)) > CARD_TOKEN_LENGTH for _ in range(20))
