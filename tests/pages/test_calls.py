"""A table calls the desk from its phone: the table page's button (without its script too),
the desk grid and the dashboard showing the waiting tables at once (their polls' ETags move
with each call), the desk's "On my way" that the phone then shows, and the call closed; the
pages take the same statements with calls as without."""

import pytest
from django.core.cache import cache
from django.urls import reverse

from drives.models import AuditEntry
from drives.services import Actor
from scoring.models import TableCall
from scoring.services import call_answer, call_close, call_open
from tests.pages.live_helpers import DESK, logged_in, night, people, queries, text

pytestmark = pytest.mark.django_db

TABLE = Actor(channel=AuditEntry.Channel.TABLE)


@pytest.fixture
def who():
    return people()


@pytest.fixture
def drive(who):
    return night(who.club, 8)  # four tables in game 1


def table_url(drive, table: int) -> str:
    return f"/t/{drive.tables.get(number=table).token}/"


def desk_url(drive) -> str:
    return f"/drives/{drive.slug}/desk/"


def etag_then(client, url: str):
    """The fragment's ETag now, and a function telling whether a poll sending it back is
    answered 304."""
    first = client.get(url)
    assert first.status_code == 200
    tag = first["ETag"]
    return lambda: client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304


def test_the_table_page_offers_the_call_and_sends_it_without_script(client, drive) -> None:
    html = text(client.get(table_url(drive, 2)))
    assert 'id="call-desk"' in html and "Call the desk to table 2" in html
    assert '<label for="call-reason">' in html and '<label for="call-reason-choice">' in html
    assert "A renege claim" in html
    answer = client.post(
        table_url(drive, 2),
        {"action": "call", "game": "1", "reason_choice": "A misdeal", "reason": "  five cards "},
    )
    assert answer.status_code == 201
    assert "The desk knows: someone is coming to your table." in text(answer)
    call = TableCall.objects.get()
    assert call.table.number == 2 and call.reason == "A misdeal — five cards"
    assert call.channel == AuditEntry.Channel.TABLE
    # Pressed again: refused in words, still one call.
    again = client.post(table_url(drive, 2), {"action": "call", "game": "1"})
    assert again.status_code == 409 and "already called the desk" in text(again)
    assert TableCall.objects.count() == 1


def test_the_desk_grid_shows_a_call_at_once_and_answers_it(who, drive) -> None:
    desk = logged_in(who.scorer)
    grid = desk_url(drive) + "?partial=grid"
    unchanged = etag_then(desk, grid)
    assert unchanged()
    call = call_open(drive=drive, game=1, table=3, reason="a dispute", actor=TABLE)
    assert not unchanged(), "the grid's poll would answer 304 and hide the call"
    html = text(desk.get(grid))
    assert 'data-testid="desk-call-3"' in html and "Table 3 needs the desk" in html
    assert "(a dispute)" in html and "waiting 0 min" in html
    assert "On my way to table 3" in html

    unchanged = etag_then(desk, grid)
    answered = desk.post(desk_url(drive), {"action": "call_answer", "call": str(call.pk)})
    assert answered.status_code == 200
    assert "Table 3 is told the desk is on its way." in text(answered)
    assert not unchanged()
    html = text(desk.get(grid))
    assert "on my way" in html and "On my way to table 3" not in html

    unchanged = etag_then(desk, grid)
    desk.post(
        desk_url(drive),
        {"action": "call_close", "call": str(call.pk)},
        HTTP_ACCEPT="application/json",
    )
    assert not unchanged()
    assert "needs the desk" not in text(desk.get(grid))
    assert TableCall.objects.get().state == "closed"


def test_the_table_phone_shows_on_my_way(client, who, drive) -> None:
    poll = table_url(drive, 1) + "?partial=1"
    unchanged = etag_then(client, poll)
    other = etag_then(client, table_url(drive, 2) + "?partial=1")
    call = call_open(drive=drive, game=1, table=1, actor=TABLE)
    assert not unchanged()
    assert other(), "another table's phone keeps its 304"
    assert "The desk knows: someone is coming to your table." in text(client.get(poll))
    unchanged = etag_then(client, poll)
    call_answer(drive=drive, call=call.pk, actor=DESK)
    assert not unchanged()
    assert "On my way: the desk is coming to your table." in text(client.get(poll))
    unchanged = etag_then(client, poll)
    call_close(drive=drive, call=call.pk, actor=DESK)
    assert not unchanged()
    html = text(client.get(poll))
    assert "On my way" not in html and "data-call-state" not in html


def test_the_dashboard_lists_the_waiting_tables(who, drive) -> None:
    organizer = logged_in(who.organizer)
    url = reverse("night:dashboard", args=[drive.slug])
    assert "needs the desk" not in text(organizer.get(url))
    call_open(drive=drive, game=1, table=4, reason="a missing player", actor=TABLE)
    html = text(organizer.get(url))
    assert 'data-testid="dashboard-call-4"' in html and "(a missing player)" in html
    assert "a table called the desk" in html  # the recent changes say it


def test_the_desk_takes_the_same_statements_with_calls_as_without(who, drive) -> None:
    desk = logged_in(who.scorer)
    grid = desk_url(drive) + "?partial=grid"
    cache.clear()  # the grid drawn afresh each time, not taken from the cache
    before = queries(desk, grid)
    for table in (1, 2, 3):
        call_open(drive=drive, game=1, table=table, actor=TABLE)
    cache.clear()
    assert queries(desk, grid) == before
    table = table_url(drive, 1)
    assert queries(desk, table) == queries(desk, table_url(drive, 4))
