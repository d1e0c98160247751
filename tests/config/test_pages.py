"""The site's own pages: home, log in and out, admin login."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import DEFAULT_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def test_home_page_says_what_the_product_is(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    content = response.content.decode()
    assert "Forty-Fives Card Drives" in content
    assert "45 card drives" in content
    assert reverse("login") in content
    assert reverse("admin:index") in content


def test_home_page_greets_a_logged_in_user(client: Client) -> None:
    user = UserFactory(first_name="Mary")
    client.force_login(user)
    response = client.get("/")
    assert "Hello, Mary." in response.content.decode()


def test_login_page_renders(client: Client) -> None:
    response = client.get("/accounts/login/")
    assert response.status_code == 200
    assert 'name="username"' in response.content.decode()


def test_a_user_can_log_in_and_out(client: Client) -> None:
    UserFactory(username="scorer", first_name="Angus")
    response = client.post(
        "/accounts/login/", {"username": "scorer", "password": DEFAULT_PASSWORD}, follow=True
    )
    assert response.redirect_chain[-1] == (reverse("home"), 302)
    assert response.context["user"].username == "scorer"
    assert "Hello, Angus." in response.content.decode()

    response = client.post("/accounts/logout/", follow=True)
    assert response.context["user"].is_authenticated is False


def test_a_wrong_password_is_refused(client: Client) -> None:
    UserFactory(username="scorer")
    response = client.post("/accounts/login/", {"username": "scorer", "password": "wrong"})
    assert response.status_code == 200
    assert "did not match" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_admin_login_page_renders(client: Client) -> None:
    response = client.get("/admin/login/")
    assert response.status_code == 200


def test_admin_requires_login(client: Client) -> None:
    response = client.get("/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")


def test_a_browser_asking_for_favicon_ico_gets_the_sites_icon(client: Client) -> None:
    """The admin and the API's documentation name no icon: their browsers ask /favicon.ico."""
    response = client.get("/favicon.ico", follow=True)
    assert response.redirect_chain and response.redirect_chain[0][1] == 302
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert b"<svg" in b"".join(response.streaming_content)
