"""The door's defects found on a first night: the same couple registered twice, a couple
added by mistake, a name to correct, the couples not checked in at the start, and a couple
withdrawn before the start (the couples page and the dashboard)."""

import re

import pytest
from django.urls import reverse

from drives.models import AuditEntry, Couple, Drive
from drives.services import couple_update, couples_register, drive_start
from scoring.services import game_advance
from tests.pages.organizer_helpers import DESK, a_drive, club_people, logged_in, play_game, text

pytestmark = pytest.mark.django_db


def couples_url(drive: Drive) -> str:
    return reverse("drives:couples", kwargs={"slug": drive.slug})


def the_macdonalds(drive: Drive) -> Couple:
    couples_register(drive=drive, couples=[{"players": ["Ann 1", "Joe 1"]}])
    (couple,) = couples_register(
        drive=drive, couples=[{"players": ["Mary MacDonald", "Angus MacDonald"]}]
    )
    return couple


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Mary MacDonald", "Angus MacDonald"),
        ("angus macdonald", "mary macdonald"),
        ("  ANGUS   MacDonald", "Máry MacDonald "),
    ],
)
def test_the_same_couple_again_is_asked_about_before_it_is_registered(
    first: str, second: str
) -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club)
    assert the_macdonalds(drive).number == 2
    client = logged_in(ours.organizer)

    response = client.post(couples_url(drive), {"player1": first, "player2": second})
    assert response.status_code == 409
    page = text(response)
    assert "are already couple 2 — register anyway?" in page
    assert 'data-testid="register-anyway"' in page
    assert f'value="{first.strip()}"' in page or f'value="{first}"' in page
    assert Couple.objects.filter(drive=drive).count() == 2

    # The question answered yes: a new couple, and the audit says it was a duplicate.
    response = client.post(
        couples_url(drive), {"player1": first, "player2": second, "duplicate_ok": "on"}
    )
    assert response.status_code == 302
    assert Couple.objects.filter(drive=drive).count() == 3
    entry = AuditEntry.objects.filter(drive=drive, action="couples.register").latest("pk")
    assert entry.subject == "3-3"
    assert "already couple 2" in entry.note


def test_a_withdrawn_couple_registering_again_is_not_asked() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club)
    couple = the_macdonalds(drive)
    couple_update(couple=couple, actor=DESK, withdrawn=True)
    response = logged_in(ours.organizer).post(
        couples_url(drive), {"player1": "Mary MacDonald", "player2": "Angus MacDonald"}
    )
    assert response.status_code == 302
    assert Couple.objects.filter(drive=drive).count() == 3


def test_the_register_button_comes_before_register_anyway() -> None:
    """Enter in a name submits with the form's first button: it must not say yes."""
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club)
    the_macdonalds(drive)
    page = text(
        logged_in(ours.organizer).post(
            couples_url(drive), {"player1": "Mary MacDonald", "player2": "Angus MacDonald"}
        )
    )
    form = re.search(r'<form method="post"[^>]*class="register".*?</form>', page, re.S)
    assert form is not None
    buttons = re.findall(r'<button type="submit"[^>]*data-testid="([^"]+)"', form.group(0))
    assert buttons == ["register", "register-anyway"]


# --- a couple added by mistake: deleted before the start ------------------------------------


def delete_url(drive: Drive, number: int) -> str:
    return reverse("drives:couples_delete", kwargs={"slug": drive.slug, "number": number})


def test_a_couple_is_deleted_before_the_start_after_a_confirmation() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=4)
    client = logged_in(ours.scorer)
    assert f'href="{delete_url(drive, 2)}"' in text(client.get(couples_url(drive)))
    page = text(client.get(delete_url(drive, 2)))
    assert "Delete couple 2?" in page and "Ann 2 &amp; Joe 2" in page
    assert Couple.objects.filter(drive=drive).count() == 4  # a GET deletes nothing

    response = client.post(delete_url(drive, 2), follow=True)
    assert "Couple 2 (Ann 2 &amp; Joe 2) is deleted." in text(response)
    assert list(Couple.objects.filter(drive=drive).values_list("number", "player1")) == [
        (1, "Ann 1"),
        (3, "Ann 3"),
        (4, "Ann 4"),
    ]
    entry = AuditEntry.objects.filter(drive=drive, action="couple.delete").get()
    assert entry.subject == "couple 2"
    assert entry.old == {"number": 2, "players": ["Ann 2", "Joe 2"]}
    assert entry.user == ours.scorer


def test_after_a_delete_the_others_keep_their_numbers_and_the_next_couple_follows_the_last() -> (
    None
):
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=4)
    client = logged_in(ours.organizer)
    client.post(delete_url(drive, 2))
    client.post(couples_url(drive), {"player1": "Flora Gillis", "player2": "Dan Gillis"})
    assert Couple.objects.get(drive=drive, player1="Flora Gillis").number == 5  # 2 stays free
    client.post(delete_url(drive, 5))  # the last one, entered by mistake
    client.post(couples_url(drive), {"player1": "Ann Beaton", "player2": "Hugh Beaton"})
    assert Couple.objects.get(drive=drive, player1="Ann Beaton").number == 5
    assert list(Couple.objects.filter(drive=drive).values_list("number", flat=True)) == [
        1,
        3,
        4,
        5,
    ]


def test_after_the_start_a_couple_is_withdrawn_not_deleted() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=4)
    drive_start(drive=drive, actor=DESK)
    client = logged_in(ours.organizer)
    assert f'href="{delete_url(drive, 2)}"' not in text(client.get(couples_url(drive)))
    page = text(client.get(delete_url(drive, 2)))
    assert "cannot be deleted" in page and 'data-testid="delete-confirm"' not in page
    response = client.post(delete_url(drive, 2), follow=True)
    assert "Withdraw them instead." in text(response)
    assert Couple.objects.filter(drive=drive).count() == 4
    assert not AuditEntry.objects.filter(action="couple.delete").exists()


# --- a name corrected from the couples list ---------------------------------------------------


def edit_url(drive: Drive, number: int) -> str:
    return reverse("drives:couples_edit", kwargs={"slug": drive.slug, "number": number})


@pytest.mark.parametrize("who", ["organizer", "scorer"])
def test_a_name_is_corrected_from_the_couples_list_and_audited(who: str) -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=3)
    drive_start(drive=drive, actor=DESK)  # a spelling is corrected during the night too
    client = logged_in(getattr(ours, who))
    assert f'href="{edit_url(drive, 2)}"' in text(client.get(couples_url(drive)))
    form = text(client.get(edit_url(drive, 2)))
    assert 'value="Ann 2"' in form and 'value="Joe 2"' in form

    response = client.post(edit_url(drive, 2), {"player1": "Anne  Beaton", "player2": "Joe 2"})
    assert response.status_code == 302
    assert response["Location"].endswith("#couple-2")
    page = text(client.get(response["Location"]))
    assert "Couple 2 is now Anne Beaton &amp; Joe 2." in page
    assert Couple.objects.get(drive=drive, number=2).players == ["Anne Beaton", "Joe 2"]
    entry = AuditEntry.objects.filter(drive=drive, action="couple.update").latest("pk")
    assert entry.old == {"players": ["Ann 2", "Joe 2"]}
    assert entry.new == {"players": ["Anne Beaton", "Joe 2"]}
    assert entry.user == getattr(ours, who)


def test_an_empty_name_is_refused_on_the_edit_page() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=2)
    response = logged_in(ours.organizer).post(
        edit_url(drive, 1), {"player1": "\u200b", "player2": "Joe 1"}
    )
    assert response.status_code == 422
    assert "two player names" in text(response)
    assert Couple.objects.get(drive=drive, number=1).players == ["Ann 1", "Joe 1"]


# --- the couples not checked in at the start ----------------------------------------------------


def dashboard(drive: Drive, name: str = "dashboard") -> str:
    return reverse(f"night:{name}", kwargs={"slug": drive.slug})


def checked_in(drive: Drive, *numbers: int) -> None:
    for couple in Couple.objects.filter(drive=drive, number__in=numbers):
        couple_update(couple=couple, actor=DESK, checked_in=True)


def test_the_start_asks_what_to_do_with_the_couples_not_checked_in() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=6)
    checked_in(drive, 1, 2, 3, 5)
    client = logged_in(ours.organizer)
    page = text(client.get(dashboard(drive)))
    assert "2 couples are not checked in (numbers 4, 6):" in page
    assert 'name="start-absent" value="seat"' in page
    assert 'name="start-absent" value="withdraw"' in page

    response = client.post(dashboard(drive, "dashboard_start"), {"start-seating": "by-number"})
    assert response.status_code == 422
    assert "Say what to do with the couples not checked in." in text(response)
    drive.refresh_from_db()
    assert drive.state == "setup"


def test_leaving_them_out_withdraws_them_before_game_1() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=6)
    checked_in(drive, 1, 2, 3, 5)
    client = logged_in(ours.organizer)
    response = client.post(
        dashboard(drive, "dashboard_start"),
        {"start-seating": "by-number", "start-absent": "withdraw"},
        follow=True,
    )
    page = text(response)
    assert "game 1 is seated at 2 tables" in page
    assert "couples 4, 6" in page
    seated = {c.number: c.withdrawn_game for c in Couple.objects.filter(drive=drive)}
    assert seated == {1: None, 2: None, 3: None, 4: 1, 5: None, 6: 1}
    # Withdrawn before the start: never "games 1 to 1".
    couples = text(client.get(couples_url(drive)))
    assert couples.count("withdrawn before the start") == 2
    assert "games 1 to" not in couples


def test_seating_them_anyway_seats_everyone() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=6)
    checked_in(drive, 1, 2)
    client = logged_in(ours.organizer)
    client.post(
        dashboard(drive, "dashboard_start"),
        {"start-seating": "by-number", "start-absent": "seat"},
    )
    assert not Couple.objects.filter(drive=drive, withdrawn_game__isnull=False).exists()
    drive.refresh_from_db()
    assert drive.state == "running"


def test_everyone_checked_in_is_not_asked() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=4)
    checked_in(drive, 1, 2, 3, 4)
    client = logged_in(ours.organizer)
    assert 'name="start-absent"' not in text(client.get(dashboard(drive)))
    response = client.post(dashboard(drive, "dashboard_start"), {"start-seating": "by-number"})
    assert response.status_code == 302


def test_a_couple_withdrawn_before_the_start_reads_so_on_its_page() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=4)
    couple = Couple.objects.get(drive=drive, number=4)
    couple_update(couple=couple, actor=DESK, withdrawn=True)
    drive_start(drive=drive, actor=DESK)
    page = text(logged_in(ours.organizer).get(reverse("night:couple", args=[couple.token])))
    assert "You were withdrawn before the start" in page
    assert "your wins so far" not in page


# --- the page's script: registering without a reload ------------------------------------------


def test_the_script_gets_the_number_and_the_list_or_the_problem_as_json() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club)
    the_macdonalds(drive)
    client = logged_in(ours.organizer)
    json_post = {"HTTP_ACCEPT": "application/json"}

    response = client.post(
        couples_url(drive), {"player1": "Flora Gillis", "player2": "Dan Gillis"}, **json_post
    )
    assert response.status_code == 201
    body = response.json()
    assert body["number"] == 3 and body["players"] == ["Flora Gillis", "Dan Gillis"]
    assert '<span class="flash-number">Couple 3</span>' in body["flash"]
    assert 'id="couple-3"' in body["list"] and "Flora Gillis &amp; Dan Gillis" in body["list"]

    response = client.post(
        couples_url(drive), {"player1": "Angus MacDonald", "player2": "Mary <b>"}, **json_post
    )
    assert response.status_code == 201  # not the same couple: "Mary <b>" is another name
    response = client.post(
        couples_url(drive),
        {"player1": "angus macdonald", "player2": "mary macdonald", "paid": "on"},
        **json_post,
    )
    assert response.status_code == 409
    problem = response.json()["problem"]
    assert "are already couple 2 — register anyway?" in problem
    assert 'name="duplicate_ok" value="on"' in problem
    assert 'name="player1" value="angus macdonald"' in problem
    assert 'name="paid" value="on"' in problem
    assert "Mary &lt;b&gt;" in text(client.get(couples_url(drive)))
    assert Couple.objects.filter(drive=drive).count() == 4


def test_a_couple_withdrawn_during_the_night_shows_the_games_it_played() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    drive = a_drive(ours.club, couples=6)
    drive_start(drive=drive, actor=DESK)
    play_game(drive, 1)
    game_advance(drive=drive, game=1, actor=DESK)
    couple_update(couple=Couple.objects.get(drive=drive, number=5), actor=DESK, withdrawn=True)
    play_game(drive, 2)
    game_advance(drive=drive, game=2, actor=DESK)  # couple 5 played games 1 and 2
    page = text(logged_in(ours.organizer).get(couples_url(drive)))
    row = re.search(r'<tr id="couple-5".*?</tr>', page, re.S)
    assert row is not None
    assert "games 1 to 2" in row.group(0)
    assert "withdrawn (game 3)" in row.group(0)
