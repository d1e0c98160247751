"""The Undo of the table page (a plain form: no script needed): offered for a minute after a
tap, it takes the result back and shows the buttons again; refused with the reason once the
minute is over, the other couple confirmed, or the next game started."""

import re
from datetime import timedelta

import pytest

from drives.models import AuditEntry
from drives.services import Actor
from scoring.models import Result, ResultVersion
from scoring.services import result_confirm
from tests.pages.live_helpers import advance, night, people, play, status_line, text

pytestmark = pytest.mark.django_db


def page(drive, table: int = 1) -> str:
    return f"/t/{drive.tables.get(number=table).token}/"


def undo_form(html: str) -> str | None:
    match = re.search(r'<form[^>]*data-testid="undo-form".*?</form>', html, re.S)
    return match.group(0) if match else None


@pytest.fixture
def drive():
    return night(people().club, 4)


def test_a_wrong_tap_is_undone_from_the_page(client, drive) -> None:
    saved = client.post(page(drive), {"game": "1", "winner": "2", "key": "k1"})
    assert saved.status_code == 201
    form = undo_form(text(saved))
    assert form is not None, "no Undo after the tap"
    assert 'method="post"' in form and f'action="{page(drive)}"' in form
    assert 'name="action" value="undo"' in form and 'name="game" value="1"' in form
    assert "60 seconds" in form
    undone = client.post(page(drive), {"game": "1", "action": "undo"})
    assert undone.status_code == 200
    assert "Undone" in status_line(undone, "table-status")
    html = text(undone)
    assert 'data-testid="win-1"' in html and 'data-testid="win-2"' in html
    assert undo_form(html) is None
    assert Result.objects.get().state == "undone"
    assert AuditEntry.objects.filter(action="result.undo", channel="table").count() == 1
    right = client.post(page(drive), {"game": "1", "winner": "1", "key": "k2"})
    assert right.status_code == 201 and Result.objects.get().winner.number == 1
    assert "Saved ✓ Couple 1 won." in status_line(right, "table-status")


def test_the_undo_is_gone_after_the_minute_and_refused_with_the_reason(client, drive) -> None:
    client.post(page(drive), {"game": "1", "winner": "2"})
    for version in ResultVersion.objects.filter(kind="entered"):
        version.at -= timedelta(seconds=61)
        version.save(update_fields=["at"])
    html = text(client.get(page(drive)))
    assert undo_form(html) is None and "Wrong? Tell the desk." in html
    late = client.post(page(drive), {"game": "1", "action": "undo"})
    assert late.status_code == 409
    assert "Too late to undo" in status_line(late, "table-status")
    assert Result.objects.get().state == "accepted"


def test_the_polled_fragment_drops_the_undo_when_the_minute_is_over(client, drive) -> None:
    def version() -> str:
        html = text(client.get(page(drive) + "?partial=1"))
        return re.search(r'data-version="([^"]*)"', html).group(1)

    client.post(page(drive), {"game": "1", "winner": "2"})
    during = version()
    for row in ResultVersion.objects.filter(kind="entered"):
        row.at -= timedelta(seconds=61)
        row.save(update_fields=["at"])
    assert version() != during  # so the page's script swaps the Undo away


def test_refused_once_the_other_couple_confirmed(client) -> None:
    drive = night(people().club, 4, confirm_by_other_couple=True)
    saved = client.post(page(drive), {"game": "1", "winner": "1"})
    assert undo_form(text(saved)) is not None  # pending: still the table's to take back
    loser = drive.couples.get(number=2)
    result_confirm(
        drive=drive,
        couple=loser,
        game=1,
        accept=True,
        actor=Actor(channel=AuditEntry.Channel.COUPLE, couple=loser),
    )
    assert undo_form(text(client.get(page(drive)))) is None
    refused = client.post(page(drive), {"game": "1", "action": "undo"})
    assert refused.status_code == 409
    assert "already confirmed" in status_line(refused, "table-status")


def test_refused_once_the_next_game_started(client, drive) -> None:
    client.post(page(drive), {"game": "1", "winner": "2"})
    play(drive, 1)
    advance(drive, 1)
    refused = client.post(page(drive), {"game": "1", "action": "undo"})
    assert refused.status_code == 409
    assert "next game has started" in status_line(refused, "table-status")
    assert Result.objects.get(seat__table__number=1).state == "accepted"


def test_no_undo_for_a_result_entered_at_the_desk(client, drive) -> None:
    play(drive, 1)
    assert undo_form(text(client.get(page(drive)))) is None
    refused = client.post(page(drive), {"game": "1", "action": "undo"})
    assert refused.status_code == 409
    assert "only the desk can change it" in status_line(refused, "table-status")
    nothing = client.post(page(drive, 2), {"action": "undo"})
    assert nothing.status_code == 422


# The other phone at the table, the result accepted: no confirming to do, the desk to call.
OTHER_COUPLE = "Entered by the other couple. Wrong? Call the desk."


def test_only_the_phone_that_tapped_is_offered_the_undo(drive) -> None:
    """Both couples open the same table card: the phone that entered the result may undo it;
    the other couple's phone is told who entered it, and its undo is refused."""
    from django.test import Client

    tapper, other = Client(), Client()
    assert "Undo" not in text(tapper.get(page(drive)))
    cookie = tapper.cookies["fortyfives_device"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    assert int(cookie["max-age"]) >= 365 * 24 * 3600
    saved = tapper.post(page(drive), {"game": "1", "winner": "2", "key": "k1"})
    assert saved.status_code == 201 and undo_form(text(saved)) is not None
    assert ResultVersion.objects.get().device != ""

    seen = text(other.get(page(drive)))
    assert undo_form(seen) is None and OTHER_COUPLE in seen
    assert undo_form(text(other.get(page(drive) + "?partial=1"))) is None
    refused = other.post(page(drive), {"game": "1", "action": "undo"})
    assert refused.status_code == 409
    assert "only their phone can undo it" in status_line(refused, "table-status")
    assert Result.objects.get().state == "accepted"

    # A phone that dropped its cookies is another phone, and a forged cookie is none.
    other.cookies["fortyfives_device"] = tapper.cookies["fortyfives_device"].value + "x"
    assert other.post(page(drive), {"game": "1", "action": "undo"}).status_code == 409
    assert tapper.post(page(drive), {"game": "1", "action": "undo"}).status_code == 200
    assert Result.objects.get().state == "undone"


def test_a_tap_sent_through_the_api_is_the_phone_s_own_to_undo(drive) -> None:
    """The page's script sends the tap to the JSON API with the phone's cookie: the entry is
    that phone's, and only that phone is offered its undo."""
    from django.test import Client

    token = drive.tables.get(number=1).token
    tapper, other = Client(), Client()
    tapper.get(page(drive))
    other.get(page(drive))
    sent = tapper.put(
        f"/api/v1/drives/{drive.slug}/games/1/tables/1/result",
        {"winner": 2, "key": "k1"},
        content_type="application/json",
        headers={"authorization": f"Bearer {token}"},
    )
    assert sent.status_code == 201
    assert undo_form(text(tapper.get(page(drive)))) is not None
    assert OTHER_COUPLE in text(other.get(page(drive)))


def test_the_other_phone_is_told_where_to_confirm_a_result_waiting_for_it() -> None:
    """With the other couple's confirmation asked for, the phone that did not tap is sent to
    its punch card's page (the table card has no confirm button), or to the desk."""
    from django.test import Client

    drive = night(people().club, 4, confirm_by_other_couple=True)
    tapper, other = Client(), Client()
    saved = tapper.post(page(drive), {"game": "1", "winner": "2", "key": "k1"})
    assert saved.status_code == 201 and Result.objects.get().state == "pending"
    seen = text(other.get(page(drive)))
    assert "confirm it on your punch card\u2019s page, or call the desk" in seen
    assert "Wrong? Call the desk." not in seen
