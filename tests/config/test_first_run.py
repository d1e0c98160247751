"""The hall's first start in the browser (config/firstrun.py): while nobody can log in, the
laptop's pages lead to the first-run page (the club, the organizer's account, the hall's
language), a phone on the hall's Wi-Fi is told the hall is being set up; the page makes
everything at once or nothing, logs the organizer in and opens the home page in the chosen
language; once set up, the page is gone and a request costs no query more than before."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from config import firstrun
from drives.models import Club, Membership
from drives.services import club_create
from tests.factories import UserFactory
from tests.pages.live_helpers import night, people

pytestmark = pytest.mark.django_db

PHONE = "192.168.1.34"
GOOD = {
    "club": "St. Joseph's Parish",
    "username": "marie",
    "password1": "card-night-45s",
    "password2": "card-night-45s",
    "language": "fr",
}


@pytest.fixture
def hall(settings: Any, tmp_path: Path) -> Path:
    """The hall's settings on a new data folder: the first-run page on, nobody to log in."""
    settings.HALL_FIRST_RUN = True
    settings.HALL_DATA_DIR = tmp_path
    return tmp_path


@pytest.fixture(autouse=True)
def _forgotten() -> Any:
    firstrun.forget()
    yield
    firstrun.forget()


def text(response: Any) -> str:
    return response.content.decode()


def nothing_made() -> bool:
    return not get_user_model().objects.exists() and not Club.objects.exists()


# --- while set-up is pending ------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/drives/", "/admin/"])
def test_the_laptop_is_sent_to_the_first_run_page(hall: Path, client: Client, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"] == "/first-run/"


def test_the_first_run_page_asks_for_the_club_the_account_and_the_language(
    hall: Path, client: Client
) -> None:
    response = client.get("/first-run/")
    assert response.status_code == 200
    page = text(response)
    assert "Welcome: set up the hall" in page
    assert re.search(r'<input[^>]*name="club"[^>]*autocomplete="organization"', page)
    assert re.search(r'<input[^>]*name="username"[^>]*autocomplete="username"', page)
    assert len(re.findall(r'<input[^>]*type="password"[^>]*autocomplete="new-password"', page)) == 2
    for wanted in (
        'for="id_club"',
        'for="id_username"',
        'for="id_password1"',
        'for="id_password2"',
    ):
        assert wanted in page
    # The language in its own name, the browser's (English here) chosen to begin with.
    assert re.search(r'value="en"[^>]*checked', page) and "Français" in page
    assert "no-cache" in response["Cache-Control"]
    # Nobody can log in yet: no "Log in" link that would only lead back here.
    assert 'href="/accounts/login/"' not in page and ">Log in<" not in page


def test_the_health_checks_and_static_files_keep_working(hall: Path, client: Client) -> None:
    assert client.get("/livez").status_code == 200
    assert client.get("/healthz").status_code in (200, 503)  # answered, not redirected
    assert client.get("/static/css/site.css").status_code == 200
    assert client.get("/jsi18n/").status_code == 200
    assert client.get("/favicon.ico")["Location"].startswith("/static/")
    assert client.get("/livez", REMOTE_ADDR=PHONE).status_code == 200


@pytest.mark.parametrize("address", ["::1", "::ffff:127.0.0.1", "127.0.0.2"])
def test_every_loopback_address_is_the_laptop(hall: Path, client: Client, address: str) -> None:
    assert client.get("/first-run/", REMOTE_ADDR=address).status_code == 200


@pytest.mark.parametrize("path", ["/", "/first-run/", "/accounts/login/"])
def test_a_phone_on_the_halls_network_is_told_to_wait(
    hall: Path, client: Client, path: str
) -> None:
    response = client.get(path, REMOTE_ADDR=PHONE)
    assert response.status_code == 503
    assert response["Retry-After"] == "60"
    page = text(response)
    assert "The hall is being set up" in page
    assert "Come back to this page in a few minutes" in page
    assert "<form" not in page


def test_a_french_phone_is_told_in_french(hall: Path, client: Client) -> None:
    response = client.get("/", REMOTE_ADDR=PHONE, headers={"Accept-Language": "fr-CA,fr;q=0.9"})
    assert response.status_code == 503
    assert '<html lang="fr">' in text(response)
    assert "La salle est en cours de préparation" in text(response)


def test_a_phone_cannot_set_up_the_hall(hall: Path, client: Client) -> None:
    response = client.post("/first-run/", GOOD, REMOTE_ADDR=PHONE)
    assert response.status_code == 503
    assert nothing_made()
    assert not (hall / "hall.json").exists()


# --- the page sent ----------------------------------------------------------------------------


def test_the_hall_is_set_up_in_one_go_and_opens_in_the_chosen_language(
    hall: Path, client: Client
) -> None:
    response = client.post("/first-run/", GOOD)
    assert response.status_code == 302 and response["Location"] == "/"
    organizer = get_user_model().objects.get(username="marie")
    assert organizer.is_superuser and organizer.is_staff and organizer.is_active
    assert organizer.check_password("card-night-45s")
    club = Club.objects.get()
    assert club.name == "St. Joseph's Parish"
    assert Membership.objects.get(club=club, user=organizer).role == Membership.Role.ORGANIZER
    assert json.loads((hall / "hall.json").read_text())["language"] == "fr"
    assert int(client.session["_auth_user_id"]) == organizer.pk
    assert response.cookies["django_language"].value == "fr"
    # The next page is the organizer's home, logged in, in French, with the club named.
    home = client.get("/")
    assert home.status_code == 200
    page = text(home)
    assert '<html lang="fr">' in page
    assert "Bonjour, marie." in page
    assert "St. Joseph&#x27;s Parish" in page
    assert "Mes soirées" in page


def test_an_english_hall_stays_english(hall: Path, client: Client) -> None:
    client.post("/first-run/", GOOD | {"language": "en"})
    assert json.loads((hall / "hall.json").read_text())["language"] == "en"
    assert '<html lang="en">' in text(client.get("/"))


def test_a_club_already_made_gets_the_organizer(hall: Path, client: Client) -> None:
    """A drive made with ``fortyfives manage drive create`` before the first start made its
    club: the organizer joins it rather than being refused."""
    club = club_create(name="St. Joseph's Parish")
    assert client.post("/first-run/", GOOD).status_code == 302
    assert Club.objects.get() == club
    assert Membership.objects.get(club=club).user.get_username() == "marie"


# --- errors: said plainly, what was typed kept, nothing made ------------------------------------


@pytest.mark.parametrize(
    "change, field, words",
    [
        ({"password2": "card-night-46s"}, "password2", "password fields didn\u2019t match."),
        ({"password1": "45s", "password2": "45s"}, "password2", "too short"),
        ({"password1": "password", "password2": "password"}, "password2", "too common"),
        ({"password1": "marie-45s", "password2": "marie-45s"}, "password2", "too similar"),
        ({"club": "   "}, "club", "A club needs a name of 1 to 120 characters."),
        ({"club": "x" * 121}, "club", "A club needs a name of 1 to 120 characters."),
        ({"username": ""}, "username", "This field is required."),
        ({"username": "marie curie"}, "username", "Enter a valid username."),
        ({"language": "de"}, "language", "Select a valid choice."),
    ],
)
def test_a_mistake_is_said_and_what_was_typed_kept(
    hall: Path, client: Client, change: dict[str, str], field: str, words: str
) -> None:
    response = client.post("/first-run/", GOOD | change)
    assert response.status_code == 422
    page = text(response)
    summary = re.search(r'<div class="form-errors" role="alert".*?</div>', page, re.DOTALL)
    assert summary and words in summary.group(0)
    assert f'href="#id_{field}' in summary.group(0) or field == "language"
    assert re.search(rf'name="{field}"[^>]*aria-invalid="true"', page) or field == "language"
    # The page opens on the box to correct (the first of them), and only there.
    assert len(re.findall(r"<input[^>]*autofocus", page)) == (1 if field != "language" else 2)
    assert re.search(rf'<input[^>]*name="{field}"[^>]*autofocus', page)
    if field != "club":
        assert 'value="St. Joseph&#x27;s Parish"' in page
    if field != "username":
        assert 'value="marie"' in page
    assert "card-night-4" not in page and 'value="password"' not in page  # never sent back
    assert nothing_made()
    assert not (hall / "hall.json").exists()


def test_text_that_cannot_be_stored_is_refused_not_a_500(hall: Path, client: Client) -> None:
    response = client.post("/first-run/", GOOD | {"club": "St. Joseph\x00", "username": "ma\x00"})
    assert response.status_code == 422
    assert nothing_made()
    assert client.post("/first-run/", {}).status_code == 422


def test_a_data_folder_that_cannot_be_written_leaves_nothing_made(
    settings: Any, hall: Path, client: Client
) -> None:
    settings.HALL_DATA_DIR = hall / "gone"  # no such folder: hall.json cannot be written
    response = client.post("/first-run/", GOOD)
    assert response.status_code == 422
    assert "The hall&#x27;s data folder could not be written" in text(response)
    assert nothing_made()
    assert "_auth_user_id" not in client.session


def test_an_account_made_meanwhile_sends_the_second_tab_to_the_login(
    hall: Path, client: Client
) -> None:
    second = Client()
    assert second.get("/first-run/").status_code == 200
    assert client.post("/first-run/", GOOD).status_code == 302
    response = second.post("/first-run/", GOOD | {"username": "joseph"})
    assert response.status_code == 404
    assert get_user_model().objects.count() == 1


# --- once set up --------------------------------------------------------------------------------


def test_once_an_account_exists_the_page_is_gone_and_nothing_redirects(
    hall: Path, client: Client
) -> None:
    UserFactory()
    assert client.get("/first-run/").status_code == 404
    assert client.post("/first-run/", GOOD).status_code == 404
    assert client.get("/").status_code == 200
    assert client.get("/accounts/login/").status_code == 200
    assert client.get("/", REMOTE_ADDR=PHONE).status_code == 200


def test_an_inactive_account_alone_still_needs_the_first_run(hall: Path, client: Client) -> None:
    UserFactory(username="gone", is_active=False)
    assert client.get("/")["Location"] == "/first-run/"
    # Its username stays taken.
    response = client.post("/first-run/", GOOD | {"username": "gone"})
    assert response.status_code == 422 and "already exists" in text(response)


def test_outside_the_hall_there_is_no_first_run(client: Client) -> None:
    """The test settings, as production and development: no first-run page, even with nobody
    to log in."""
    assert not get_user_model().objects.exists()
    assert client.get("/first-run/").status_code == 404
    assert client.get("/").status_code == 200


def queries(client: Client, path: str, **extra: Any) -> int:
    """The queries of ``path``'s second request (the first fills the caches)."""
    client.get(path, **extra)
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path, **extra)
    assert response.status_code in (200, 304), (path, response.status_code)
    return len(captured)


def test_once_set_up_a_request_costs_no_query_more(
    settings: Any, client: Client, django_assert_num_queries: Any
) -> None:
    ours = people()
    drive = night(ours.club, 4)
    table = drive.tables.get(number=1).token
    phone, organizer = Client(REMOTE_ADDR=PHONE), Client()
    organizer.force_login(ours.organizer)
    pages = [
        (phone, f"/t/{table}/"),
        (phone, f"/t/{table}/?partial=1"),
        (organizer, "/"),
        (organizer, reverse("night:desk", args=[drive.slug]) + "?partial=grid"),
        (client, "/"),
    ]
    before = [queries(who, path) for who, path in pages]
    settings.HALL_FIRST_RUN = True
    # The first request after the start asks once whether an account exists, then remembers.
    with CaptureQueriesContext(connection) as first:
        client.get("/")
    assert len(first) == before[-1] + 1
    after = [queries(who, path) for who, path in pages]
    assert after == before
    # A phone's poll that finds nothing new: one query, as without the hall's first-run check.
    etag = phone.get(f"/t/{table}/?partial=1")["ETag"]
    with django_assert_num_queries(1):
        again = phone.get(f"/t/{table}/?partial=1", headers={"If-None-Match": etag})
    assert again.status_code == 304


# --- the real server, as ``fortyfives hall`` starts it on a new data folder ---------------------


@pytest.mark.slow
def test_fortyfives_hall_on_a_new_folder_opens_the_first_run_page(tmp_path: Path) -> None:
    """granian gives the laptop's own requests a loopback address: the page that
    ``fortyfives hall`` opens in the browser is the first-run page, and once sent the hall
    is set up, in French."""
    import urllib.parse
    import urllib.request
    from http.cookiejar import CookieJar

    from tests.tools.test_hall import free_port, get, start

    data_dir, port = tmp_path / "hall", free_port()
    server = start(data_dir, port)
    base = f"http://127.0.0.1:{port}"
    try:

        class Stay(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args: Any, **kwargs: Any) -> None:
                return None

        status, _body, headers = get(base + "/", urllib.request.build_opener(Stay()))
        location = {name.lower(): value for name, value in headers.items()}["location"]
        assert status == 302 and location == "/first-run/"
        jar = CookieJar()
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        status, page, _ = get(base + "/", browser)
        assert status == 200 and "Welcome: set up the hall" in page
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        assert token
        body = urllib.parse.urlencode(GOOD | {"csrfmiddlewaretoken": token.group(1)}).encode()
        sent = urllib.request.Request(
            base + "/first-run/", data=body, headers={"Referer": base + "/first-run/"}
        )
        with browser.open(sent, timeout=10) as answer:
            home = answer.read().decode()
            assert answer.url == base + "/"
        assert '<html lang="fr">' in home and "Bonjour, marie." in home
        assert json.loads((data_dir / "hall.json").read_text())["language"] == "fr"
        assert get(base + "/first-run/")[0] == 404
        assert get(base + "/")[0] == 200
    finally:
        server.terminate()
        output = server.communicate(timeout=30)[0]
    assert "First start: open http://127.0.0.1:" in output


def test_what_needs_no_account_keeps_working_before_the_set_up(hall: Path, client: Client) -> None:
    """A drive made from the command line (``fortyfives manage drive create``) before anyone
    set up the web account: its tables' and couples' cards open their pages on the phones, and
    the API answers its tokens; the organizer's pages still wait for the first-run page."""
    club = club_create(name="St. Mary's Parish Hall")
    drive = night(club, 4)
    assert not get_user_model().objects.exists()
    table, couple = drive.tables.get(number=1), drive.couples.get(number=1)
    for path in (f"/t/{table.token}/", f"/c/{couple.token}/"):
        assert client.get(path, REMOTE_ADDR=PHONE).status_code == 200, path
    standings = client.get(
        f"/api/v1/drives/{drive.slug}/standings",
        HTTP_AUTHORIZATION=f"Bearer {table.token}",
        REMOTE_ADDR=PHONE,
    )
    assert standings.status_code == 200
    assert len(standings.json()) == 4
    assert client.get(f"/drives/{drive.slug}/desk/", REMOTE_ADDR=PHONE).status_code == 503
    assert client.get(f"/drives/{drive.slug}/desk/")["Location"] == "/first-run/"
