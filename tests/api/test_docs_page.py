"""The description's docs page (/api/v1/docs): Swagger UI for a logged-in member, from the
app's own static files (no CDN), with data: images allowed on that page alone; a stranger is
sent to the login page; and the page answers only GET, in the API's JSON."""

import pytest
from django.test import Client

from tests.api.helpers import ClubUsers

pytestmark = pytest.mark.django_db


def test_a_member_gets_swagger_ui_from_our_static_files(ours: ClubUsers) -> None:
    client = Client()
    client.force_login(ours.scorer)
    answer = client.get("/api/v1/docs")
    assert answer.status_code == 200
    page = answer.content.decode()
    assert "/static/ninja/swagger-ui-bundle.js" in page
    assert "/static/ninja/swagger-ui-init.js" in page
    assert '"url": "/api/v1/openapi.json"' in page
    assert "cdn" not in page.lower()
    # The directives, in whatever order django-csp writes them.
    policy = {
        name: values
        for name, *values in (
            d.split() for d in answer["Content-Security-Policy"].split(";") if d.strip()
        )
    }
    assert policy["img-src"] == ["'self'", "data:"] and policy["script-src"] == ["'self'"]
    # Everywhere else the site's policy stays as it is.
    assert "data:" not in client.get("/api/v1/openapi.json")["Content-Security-Policy"]
    assert "data:" not in client.get("/")["Content-Security-Policy"]


def test_a_stranger_is_sent_to_the_login_page() -> None:
    answer = Client().get("/api/v1/docs")
    assert answer.status_code == 302
    assert answer["Location"] == "/accounts/login/?next=/api/v1/docs"


def test_the_docs_page_and_the_description_answer_only_get(ours: ClubUsers) -> None:
    client = Client()
    client.force_login(ours.organizer)
    for path in ("/api/v1/docs", "/api/v1/openapi.json"):
        answer = client.post(path)
        assert answer.status_code == 405
        assert answer.json()["code"] == "method_not_allowed" and answer["Allow"] == "GET"
