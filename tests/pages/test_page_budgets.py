"""Every page a big night shows is built in a fixed number of queries, whatever the size of the
night (the page budgets of BENCHMARKS.md, "A page that did change"): the same count for a night
of 8 couples and one of 40, after a result came in. And what makes the pages cheap keeps them
right: the desk grid's cached rows show each change and carry the asking user's CSRF token, the
standings' and the win grid's lean rows escape what the couples typed and follow the sorting."""

from __future__ import annotations

import re

import pytest
from django.test import override_settings
from django.urls import reverse

import config.cache
from config.settings.env import cache_settings, read
from drives.errors import Conflict
from drives.models import AuditEntry
from drives.services import Actor, couple_update, holes_record
from scoring.selectors import game_view
from scoring.services import result_record
from tests.pages.live_helpers import DESK, advance, logged_in, night, people, play, text

pytestmark = pytest.mark.django_db

TABLE_PHONE = Actor(channel=AuditEntry.Channel.TABLE)

# Statements a page takes (the session, the user, and the drive with the member's role are the
# first three of the members' pages; a card's page finds its token with its drive, and its poll
# the latest change of its own results, for its ETag).
BUDGETS = {
    # The game's tables and the stamps of their results' histories, then the history of the
    # one table whose row changed (the others' rows are kept), and the tables' calls to the
    # desk, and, while tables are missing, when each table reported (slow tables).
    "desk": 9,
    "desk-grid": 9,
    "projector": 7,
    "projector-poll": 7,
    "projector-standings": 6,
    # Until a punch card is counted the reconciliation reads nothing; then three statements.
    # And the tables waiting for the desk.
    "dashboard": 12,
    "dashboard-counted": 15,
    "standings": 6,
    "grid": 6,
    "couple": 5,
    "couple-poll": 4,
    # And the table's call to the desk, if it has one.
    "table": 6,
    "table-poll": 5,
}


def _url(page: str, drive, table_token: str, couple_token: str) -> str:  # type: ignore[no-untyped-def]
    slug = drive.slug
    return {
        "desk": reverse("night:desk", args=[slug]),
        "desk-grid": reverse("night:desk", args=[slug]) + "?partial=grid",
        "projector": reverse("night:projector", args=[slug]),
        "projector-poll": reverse("night:projector", args=[slug]) + "?partial=1",
        "projector-standings": reverse("night:projector", args=[slug])
        + "?partial=1&show=standings",
        "dashboard": reverse("night:dashboard", args=[slug]),
        "dashboard-counted": reverse("night:dashboard", args=[slug]),
        "standings": reverse("night:standings", args=[slug]),
        "grid": reverse("night:grid", args=[slug]),
        "couple": reverse("night:couple", args=[couple_token]),
        "couple-poll": reverse("night:couple", args=[couple_token]) + "?partial=1",
        "table": reverse("night:table", args=[table_token]),
        "table-poll": reverse("night:table", args=[table_token]) + "?partial=1",
    }[page]


@pytest.mark.parametrize("couples", [8, 40])
@pytest.mark.parametrize("page", list(BUDGETS))
def test_each_page_takes_the_same_queries_at_any_size(
    page: str, couples: int, django_assert_num_queries
) -> None:  # type: ignore[no-untyped-def]
    ours = people()
    drive = night(ours.club, couples, games=6)
    play(drive, 1)
    advance(drive, 1)
    play(drive, 2, skip=(2, 3))
    if page == "dashboard-counted":
        holes_record(drive=drive, holes={1: 1, 2: 0}, actor=DESK)
    client = logged_in(ours.organizer)
    table = drive.tables.get(number=1).token
    couple = drive.couples.get(number=1).token
    url = _url(page, drive, table, couple)
    assert client.get(url).status_code == 200  # the cached rows are there: the usual poll
    # A result comes in: the page has changed.
    row = next(r for r in game_view(drive, 2)["tables"] if r["table"] == 2)
    result_record(drive=drive, game=2, table=2, winner=row["stays"], actor=DESK)
    with django_assert_num_queries(BUDGETS[page]):
        response = client.get(url)
    assert response.status_code == 200


def test_the_dashboards_cached_holes_boxes_show_each_card_counted() -> None:
    ours = people()
    drive = night(ours.club, 8, games=6)
    play(drive, 1)
    client = logged_in(ours.organizer)
    url = reverse("night:dashboard", args=[drive.slug])

    def box(number: int) -> str:
        found = re.search(rf'<input[^>]*name="holes-{number}"[^>]*>', text(client.get(url)))
        assert found is not None
        return found.group(0)

    assert "value=" not in box(3)
    holes_record(drive=drive, holes={3: 1}, actor=DESK)
    assert 'value="1"' in box(3)
    holes_record(drive=drive, holes={3: 0}, actor=DESK)
    assert 'value="0"' in box(3) and "value=" not in box(4)
    # A form sent back with a mistake shows what was typed, not the cached boxes.
    sent = client.post(
        reverse("night:dashboard_holes", args=[drive.slug]), {"holes-3": "99", "holes-4": "1"}
    )
    assert sent.status_code == 422
    assert re.search(r'name="holes-3"[^>]*value="99"', text(sent))


def test_the_desk_grids_cached_rows_show_each_change_with_the_users_token() -> None:
    ours = people()
    drive = night(ours.club, 8)
    desk = logged_in(ours.scorer)
    url = reverse("night:desk", args=[drive.slug]) + "?partial=grid"
    before = text(desk.get(url))
    assert 'id="table-1" data-table="1" data-couples="1 2" data-state="missing"' in before
    result_record(drive=drive, game=1, table=1, winner=2, actor=DESK)
    after = text(desk.get(url))
    assert re.search(r'id="table-1"[^>]*data-winner="2"', after)
    # The other rows, from the cache, are as they were.
    assert re.search(r'id="table-2"[^>]*data-state="missing"', after)
    # Another user's grid: the same rows, with that user's token, which the desk accepts.
    organizer = logged_in(ours.organizer)
    page = text(organizer.get(url))
    assert "placeholder" not in page
    organizer_csrf = logged_in(ours.organizer)
    organizer_csrf.handler.enforce_csrf_checks = True
    page = text(organizer_csrf.get(url))
    row = page[page.index('id="table-2"') :]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', row)  # a cached row's
    assert token is not None
    posted = organizer_csrf.post(
        reverse("night:desk", args=[drive.slug]),
        {
            "csrfmiddlewaretoken": token.group(1),
            "action": "enter",
            "game": "1",
            "table": "2",
            "winner": "3",
        },
    )
    assert posted.status_code == 201


def test_a_row_whose_line_is_unchanged_shows_its_results_new_history() -> None:
    """A third entry at a table in conflict leaves its line of the game as it was (in conflict,
    the first winner): the row is rendered again all the same, with the new entry, because its
    history's stamp changed; its layout is one line break where the template indents."""
    ours = people()
    drive = night(ours.club, 8)
    desk = logged_in(ours.scorer)
    url = reverse("night:desk", args=[drive.slug]) + "?partial=grid"

    def history(page: str) -> list[str]:
        row = page[page.index('id="table-1"') : page.index('id="table-2"')]
        return re.findall(r'<li class="v-(\w+)">', row)

    result_record(drive=drive, game=1, table=1, winner=1, actor=DESK)
    with pytest.raises(Conflict):
        result_record(drive=drive, game=1, table=1, winner=2, actor=TABLE_PHONE)
    assert history(text(desk.get(url))) == ["entered", "conflicting"]
    line = game_view(drive, 1)["tables"][0]  # type: ignore[index]
    with pytest.raises(Conflict):
        result_record(drive=drive, game=1, table=1, winner=2, points=[70, 20], actor=DESK)
    assert game_view(drive, 1)["tables"][0] == line  # type: ignore[index]
    page = text(desk.get(url))
    assert history(page) == ["entered", "conflicting", "conflicting"]
    assert "\n  " not in page[page.index('id="table-1"') : page.rindex("</tr>")]


def test_the_lean_rows_escape_names_and_follow_the_sorting() -> None:
    ours = people()
    drive = night(ours.club, 8)
    couple_update(couple=drive.couples.get(number=3), actor=DESK, player1="<b>Zoé</b>")
    play(drive, 1)
    client = logged_in(ours.organizer)
    for name in ("night:standings", "night:grid"):
        page = text(client.get(reverse(name, args=[drive.slug])))
        assert "&lt;b&gt;Zoé&lt;/b&gt; &amp; Joe 3" in page and "<b>Zoé" not in page
    by_players = text(client.get(reverse("night:grid", args=[drive.slug]) + "?sort=players"))
    order = [int(n) for n in re.findall(r'<tr data-couple="(\d+)"', by_players)]
    assert order[0] == 3 and order[1:] == [1, 2, 4, 5, 6, 7, 8]  # "<" sorts before "a"
    assert re.search(r'<tr data-couple="1" class="(even|odd)"><td>1</td>', by_players)
    assert 'class="mark-win">W</td>' in by_players and 'class="mark-loss">L</td>' in by_players


@override_settings(CACHES={"default": cache_settings(read({"CACHE_URL": "redis://127.0.0.1:1/0"}))})
def test_every_page_is_rendered_when_the_cache_does_not_answer(caplog, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Redis stopped (CACHE_URL set, nothing listening): the dashboard (its cached holes boxes),
    the desk grid and the projector are rendered afresh, 200, and the log says so once."""
    monkeypatch.setattr(config.cache, "OUTAGES", {})  # no outage seen before this test
    ours = people()
    drive = night(ours.club, 8)
    client = logged_in(ours.organizer)
    dashboard = client.get(reverse("night:dashboard", args=[drive.slug]))
    assert dashboard.status_code == 200 and 'name="holes-8"' in text(dashboard)
    grid = text(client.get(reverse("night:desk", args=[drive.slug]) + "?partial=grid"))
    assert 'id="table-4" data-table="4"' in grid and "placeholder" not in grid
    assert 'name="csrfmiddlewaretoken"' in grid
    projector = text(client.get(reverse("night:projector", args=[drive.slug]) + "?partial=1"))
    assert 'data-couple="8" data-table="4"' in projector
    said = [r for r in caplog.records if r.name == "config.cache"]
    assert len(said) == 1 and "answered as an empty cache" in said[0].getMessage()
