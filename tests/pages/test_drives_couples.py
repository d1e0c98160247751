"""/drives/<slug>/couples/: registration at the door, the list with its toggles, withdrawals
(with a confirmation) and late arrivals."""

import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from drives.models import AuditEntry, Couple, Drive
from drives.services import couple_update, drive_close, drive_start
from tests.pages.organizer_helpers import DESK, a_drive, club_people, logged_in, text

pytestmark = pytest.mark.django_db


def couples_url(drive: Drive) -> str:
    return reverse("drives:couples", kwargs={"slug": drive.slug})


def toggle_url(drive: Drive, number: int) -> str:
    return reverse("drives:couples_toggle", kwargs={"slug": drive.slug, "number": number})


def withdraw_url(drive: Drive, number: int) -> str:
    return reverse("drives:couples_withdraw", kwargs={"slug": drive.slug, "number": number})


def test_the_registration_form_has_the_browser_tests_hooks() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club)
    response = logged_in(ours.organizer).get(couples_url(drive))
    assert response.status_code == 200
    page = text(response)
    assert re.search(r'<input[^>]*id="player1"[^>]*>', page)
    assert re.search(r'<input[^>]*id="player2"[^>]*>', page)
    assert re.search(r'<input[^>]*autofocus[^>]*id="player1"', page)
    assert 'data-testid="register"' in page
    assert "No couples yet." in page


def test_a_couple_registered_gets_its_number_in_large_type_and_the_form_is_ready_again() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=16)
    client = logged_in(ours.organizer)
    response = client.post(
        couples_url(drive),
        {"player1": " Mary  MacNeil ", "player2": "Joe MacNeil", "paid": "on", "checked_in": "on"},
    )
    assert response.status_code == 302
    assert response["Location"] == couples_url(drive)
    couple = Couple.objects.get(drive=drive, number=17)
    assert couple.players == ["Mary MacNeil", "Joe MacNeil"]
    assert (couple.paid, couple.checked_in, couple.cookie_jar) == (True, True, False)

    page = text(client.get(response["Location"]))
    flash = re.search(r'<li class="couple-flash success">(.*?)</li>', page, re.S)
    assert flash is not None
    assert '<span class="flash-number">Couple 17</span>' in flash.group(1)
    assert "Mary MacNeil &amp; Joe MacNeil" in flash.group(1)
    assert re.search(r'<input[^>]*autofocus[^>]*id="player1"', page)
    assert 'value="Mary MacNeil"' not in page  # an empty form for the next couple
    assert 'id="couple-17"' in page
    assert AuditEntry.objects.filter(drive=drive, action="couples.register").count() == 2


def test_empty_names_are_named_and_nothing_is_registered() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club)
    response = logged_in(ours.organizer).post(
        couples_url(drive), {"player1": "Mary", "player2": " "}
    )
    assert response.status_code == 422
    assert response.context["form"].errors == {"player2": ["A couple needs two player names."]}
    assert 'value="Mary"' in text(response)
    assert not Couple.objects.exists()


def test_a_name_of_invisible_characters_is_refused_like_an_empty_one() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club)
    client = logged_in(ours.organizer)
    for invisible in ("\u200b", "\u2060\ufeff", "\u202e\u200f", "\u2066 \u200d\u2069"):
        response = client.post(couples_url(drive), {"player1": invisible, "player2": "Joe"})
        assert response.status_code == 422
        assert response.context["form"].errors == {"player1": ["A couple needs two player names."]}
        assert "A couple needs two player names." in text(response)
    assert not Couple.objects.exists()


def test_bidi_controls_are_taken_out_of_a_name_at_the_door() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club)
    response = logged_in(ours.organizer).post(
        couples_url(drive), {"player1": "\u202eAnn\u202c MacNeil", "player2": "Joe \u2067Dunn"}
    )
    assert response.status_code == 302
    assert Couple.objects.get().players == ["Ann MacNeil", "Joe Dunn"]


def test_a_form_cannot_carry_a_lone_surrogate() -> None:
    """Why the pages need no check of their own for surrogates: Django decodes form data as
    UTF-8 with ``errors="replace"``, so the UTF-8-like bytes of U+DC00 arrive as U+FFFD."""
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club)
    response = logged_in(ours.organizer).post(
        couples_url(drive),
        "player1=Ann%ED%B0%80&player2=Joe",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 302
    assert Couple.objects.get().players == ["Ann\ufffd\ufffd\ufffd", "Joe"]


def test_a_couple_registered_after_the_start_is_a_late_arrival() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=4)
    drive_start(drive=drive, actor=DESK)
    client = logged_in(ours.organizer)
    page = text(client.get(couples_url(drive)))
    assert "a couple registered now is a late arrival and plays from game 2" in page
    response = client.post(couples_url(drive), {"player1": "Late", "player2": "Comer"}, follow=True)
    page = text(response)
    assert "A late arrival: plays from game 2." in page
    assert "late: from game 2" in page
    assert Couple.objects.get(number=5).joined_game == 2


def test_toggles_set_the_value_sent_and_say_so() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=3)
    client = logged_in(ours.organizer)
    page = text(client.get(couples_url(drive)))
    assert 'data-testid="paid-2"' in page
    assert 'value="paid:1"' in page

    response = client.post(toggle_url(drive, 2), {"set": "paid:1"})
    assert response.status_code == 302
    assert response["Location"] == f"{couples_url(drive)}?after=2#couple-2"
    client.post(toggle_url(drive, 2), {"set": "paid:1"})  # pressed twice: still paid
    client.post(toggle_url(drive, 2), {"set": "cookie_jar:1"})
    client.post(toggle_url(drive, 3), {"set": "checked_in:1"})
    couples = {c.number: c for c in Couple.objects.all()}
    assert couples[2].paid and couples[2].cookie_jar and not couples[2].checked_in
    assert couples[3].checked_in and not couples[3].paid

    response = client.get(f"{couples_url(drive)}?after=2")
    page = text(response)
    assert "Couple 2: in the cookie jar." in page
    assert 'value="paid:0"' in page
    assert "autofocus" not in page  # back at the row, not at the top of the page

    client.post(toggle_url(drive, 2), {"set": "paid:0"})
    assert not Couple.objects.get(number=2).paid


def test_a_toggle_answers_json_to_the_script() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=2)
    client = logged_in(ours.organizer)
    response = client.post(
        toggle_url(drive, 1), {"set": "checked_in:1"}, headers={"Accept": "application/json"}
    )
    assert response.status_code == 200
    assert response.json() == {"number": 1, "field": "checked_in", "value": True}
    response = client.post(
        toggle_url(drive, 1), {"set": "number:1"}, headers={"Accept": "application/json"}
    )
    assert response.status_code == 422


def test_a_bad_toggle_or_an_unknown_couple_is_refused() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=2)
    client = logged_in(ours.organizer)
    response = client.post(toggle_url(drive, 1), {"set": "withdrawn:1"}, follow=True)
    assert "Choose paid, checked in or cookie jar" in text(response)
    assert not Couple.objects.get(number=1).withdrawn
    assert client.post(toggle_url(drive, 9), {"set": "paid:1"}).status_code == 404
    assert client.get(toggle_url(drive, 1)).status_code == 405


def test_a_withdrawal_is_confirmed_first_and_can_be_cancelled_until_it_applies() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=4)
    drive_start(drive=drive, actor=DESK)
    client = logged_in(ours.organizer)
    assert f'href="{withdraw_url(drive, 3)}"' in text(client.get(couples_url(drive)))

    response = client.get(withdraw_url(drive, 3))
    page = text(response)
    assert response.status_code == 200
    assert "Withdraw couple 3?" in page
    assert "Ann 3 &amp; Joe 3" in page
    assert "not seated from game 2 on" in page
    assert 'data-testid="withdraw-confirm"' in page
    assert not Couple.objects.get(number=3).withdrawn  # a GET changes nothing

    response = client.post(withdraw_url(drive, 3), {"withdrawn": "1"}, follow=True)
    assert Couple.objects.get(number=3).withdrawn_game == 2
    page = text(response)
    assert "Couple 3 is withdrawn: not seated from game 2 on." in page
    assert "out from game 2" in page
    assert 'data-testid="unwithdraw-3"' in page

    client.post(withdraw_url(drive, 3), {"withdrawn": "0"})
    assert not Couple.objects.get(number=3).withdrawn


def test_a_withdrawal_already_applied_cannot_be_cancelled() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=4)
    couple_update(couple=Couple.objects.get(number=4), actor=DESK, withdrawn=True)
    drive_start(drive=drive, actor=DESK)
    client = logged_in(ours.organizer)
    page = text(client.get(couples_url(drive)))
    assert "withdrawn before the start" in page
    assert "games 1 to 1" not in page
    assert 'data-testid="unwithdraw-4"' not in page
    response = client.post(withdraw_url(drive, 4), {"withdrawn": "0"}, follow=True)
    assert "register them again as a late arrival" in text(response)
    assert "is already withdrawn" in text(client.get(withdraw_url(drive, 4)))


def test_a_scorer_registers_couples_too() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club)
    client = logged_in(ours.scorer)
    assert client.get(couples_url(drive)).status_code == 200
    client.post(couples_url(drive), {"player1": "A", "player2": "B"})
    client.post(toggle_url(drive, 1), {"set": "paid:1"})
    assert Couple.objects.get().paid


def test_permissions() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    theirs = club_people("Legion Branch 12", "theirs")
    drive = a_drive(ours.club, couples=2)
    for url in (couples_url(drive), withdraw_url(drive, 1)):
        assert Client().get(url)["Location"].startswith(reverse("login"))
        assert logged_in(theirs.organizer).get(url).status_code == 404
    outsider = logged_in(theirs.organizer)
    assert outsider.post(couples_url(drive), {"player1": "A", "player2": "B"}).status_code == 404
    assert outsider.post(toggle_url(drive, 1), {"set": "paid:1"}).status_code == 404
    assert outsider.post(withdraw_url(drive, 1), {"withdrawn": "1"}).status_code == 404
    anonymous = Client().post(toggle_url(drive, 1), {"set": "paid:1"})
    assert anonymous.status_code == 302
    assert Couple.objects.count() == 2
    assert not Couple.objects.filter(paid=True).exists()
    assert not Couple.objects.filter(withdrawn_game__isnull=False).exists()


def test_the_toggles_need_the_csrf_token() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=1)
    client = Client(enforce_csrf_checks=True)
    client.force_login(ours.organizer)
    assert client.post(toggle_url(drive, 1), {"set": "paid:1"}).status_code == 403


def test_a_closed_drive_lists_its_couples_read_only() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=2)
    drive_close(drive=drive, actor=DESK)
    client = logged_in(ours.organizer)
    page = text(client.get(couples_url(drive)))
    assert "The drive is closed" in page
    assert 'data-testid="register"' not in page
    assert 'data-testid="paid-1"' not in page
    response = client.post(couples_url(drive), {"player1": "A", "player2": "B"})
    assert response.status_code == 422
    assert "The drive is closed" in text(response)
    client.post(toggle_url(drive, 1), {"set": "paid:1"})
    assert Couple.objects.count() == 2 and not Couple.objects.filter(paid=True).exists()
    page = text(client.get(withdraw_url(drive, 1)))
    assert "The drive is closed" in page
    assert 'data-testid="withdraw-confirm"' not in page
    response = client.post(withdraw_url(drive, 1), {"withdrawn": "1"}, follow=True)
    assert "The drive is closed" in text(response)
    assert not Couple.objects.get(number=1).withdrawn


@pytest.mark.parametrize("size", [4, 40])
def test_the_page_takes_a_fixed_number_of_queries(
    size: int, django_assert_num_queries: Callable[..., object]
) -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=size)
    client = logged_in(ours.organizer)
    client.get(couples_url(drive))  # the session and the user, once
    # session, user, drive, membership, registrations before the night, couples
    with django_assert_num_queries(6):
        response = client.get(couples_url(drive))
    assert response.content.decode().count('data-testid="paid-') == size
