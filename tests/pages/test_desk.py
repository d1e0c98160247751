"""The desk grid: who may open it, the grid of tables with their states and who entered what,
the keyboard entry line (stored, replayed, conflict, wrong couple, unusual score), settling a
conflict inline with a reason, the fragment the page polls, and a fixed number of queries."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from drives.models import AuditEntry
from drives.services import Actor, drive_close, drive_update
from engine.rules import get_ruleset
from engine.scores import legal_final_scores
from scoring.models import Result, ResultVersion
from scoring.selectors import game_view
from scoring.services import result_record, result_undo
from tests.pages.live_helpers import (
    DESK,
    advance,
    logged_in,
    night,
    people,
    play,
    queries,
    status_line,
    text,
)

pytestmark = pytest.mark.django_db
TABLE = Actor(channel=AuditEntry.Channel.TABLE)


def desk_url(drive) -> str:
    return f"/drives/{drive.slug}/desk/"


def row(html: str, table: int) -> str:
    """The grid row of ``table``."""
    match = re.search(rf'<tr id="table-{table}" data-table="{table}".*?</tr>', html, re.S)
    assert match is not None, f"no row for table {table}"
    return match.group(0)


def unusual_score() -> str:
    rules = get_ruleset("cape-breton-45")
    ok = set(legal_final_scores(rules))
    winner, loser = next(s for s in legal_final_scores(rules, include_unusual=True) if s not in ok)
    return f"{winner}-{loser}"


@pytest.fixture
def ours():
    return people("St. Joseph's Parish")


@pytest.fixture
def drive(ours):
    return night(ours.club, 5)  # tables 1 (1 v 2), 2 (3 v 4), 3 (5 sits out)


# --- who may open it -----------------------------------------------------------------------------


def test_anonymous_is_sent_to_log_in(client, drive) -> None:
    response = client.get(desk_url(drive))
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_another_clubs_organizer_gets_a_404(drive) -> None:
    theirs = people("Legion Branch 12")
    client = logged_in(theirs.organizer)
    assert client.get(desk_url(drive)).status_code == 404
    response = client.post(desk_url(drive), {"table": "1", "winner": "1", "game": "1"})
    assert response.status_code == 404
    assert not Result.objects.exists()


def test_unknown_drive_is_a_404(ours) -> None:
    assert logged_in(ours.organizer).get("/drives/no-such-drive/desk/").status_code == 404


def test_scorer_and_organizer_see_the_grid(ours, drive) -> None:
    for user in (ours.scorer, ours.organizer):
        html = text(logged_in(user).get(desk_url(drive)))
        assert 'id="desk-table"' in html and 'id="desk-winner"' in html
        assert 'data-testid="desk-submit"' in html
        first = row(html, 1)
        assert 'data-couples="1 2"' in first and 'data-state="missing"' in first
        assert 'data-testid="desk-win-1-1"' in first and 'data-testid="desk-win-1-2"' in first
        assert "deals" in first  # couple 2 arrives and deals
        assert 'data-state="sit-out"' in row(html, 3)
        assert "0 of 2 tables reported" in html


# --- the grid ---------------------------------------------------------------------------------


def test_states_stand_out_and_say_who_entered_what(ours, drive) -> None:
    client = logged_in(ours.scorer)
    client.post(desk_url(drive), {"table": "1", "winner": "2", "game": "1"})
    result_record(drive=drive, game=1, table=2, winner=3, points=[70, 20], key="k", actor=TABLE)
    result_record(drive=drive, game=1, table=2, winner=3, points=[70, 20], key="k", actor=TABLE)
    html = text(client.get(desk_url(drive)))
    first, second = row(html, 1), row(html, 2)
    assert 'data-state="accepted"' in first and "2 won" in first
    assert "desk" in first and ours.scorer.username in first
    assert "table" in second and "70–20" in second
    assert "2 of 2 tables reported" in html
    assert "Every table has reported" in html


def test_a_conflict_shows_both_versions_and_can_be_settled(ours, drive) -> None:
    client = logged_in(ours.scorer)
    result_record(drive=drive, game=1, table=1, winner=1, actor=TABLE)
    response = client.post(desk_url(drive), {"table": "1", "winner": "2", "game": "1"})
    assert response.status_code == 409
    assert "Conflict at table 1" in status_line(response, "desk-status")
    conflict = row(text(response), 1)
    assert 'data-state="conflict"' in conflict
    assert "1 won" in conflict and "2 won" in conflict  # both claims
    assert 'data-testid="desk-resolve-1-2"' in conflict
    assert "Conflict:" in text(response)

    no_reason = client.post(
        desk_url(drive),
        {"action": "resolve", "table": "1", "winner": "2", "game": "1", "reason": " "},
    )
    assert no_reason.status_code == 422
    assert "needs a reason" in status_line(no_reason, "desk-status")

    settled = client.post(
        desk_url(drive),
        {"action": "resolve", "table": "1", "winner": "2", "game": "1", "reason": "slip"},
    )
    assert settled.status_code == 200
    assert "Table 1 settled: couple 2 won" in status_line(settled, "desk-status")
    result = Result.objects.get(seat__table__number=1)
    assert result.state == "accepted" and result.winner.number == 2
    version = result.versions.get(kind="resolved")
    assert version.reason == "slip" and version.user == ours.scorer and version.channel == "desk"
    assert "slip" in row(text(settled), 1)


def test_another_score_is_a_conflict_settled_with_the_score_chosen(ours, drive) -> None:
    client = logged_in(ours.scorer)
    result_record(drive=drive, game=1, table=1, winner=2, points=[70, 20], key="k", actor=TABLE)
    entry = {"table": "1", "winner": "2", "points": "65-25", "game": "1"}
    response = client.post(desk_url(drive), entry)
    assert response.status_code == 409
    line = status_line(response, "desk-status")
    assert "Conflict at table 1" in line and "70–20" in line and "65–25" in line
    conflict = row(text(response), 1)
    assert 'data-state="conflict"' in conflict
    assert "70–20" in conflict and "65–25" in conflict  # both claims, with their scores
    assert 'data-testid="desk-resolve-points-1"' in conflict
    settled = client.post(
        desk_url(drive), entry | {"action": "resolve", "reason": "the score sheet says 65-25"}
    )
    assert settled.status_code == 200
    result = Result.objects.get(seat__table__number=1)
    assert (result.winner.number, result.points, result.state) == (2, [65, 25], "accepted")


# --- the keyboard entry line --------------------------------------------------------------------


def test_entry_is_stored_then_replayed(ours, drive) -> None:
    client = logged_in(ours.scorer)
    response = client.post(desk_url(drive), {"table": "1", "winner": "2", "game": "1"})
    assert response.status_code == 201
    assert status_line(response, "desk-status") == "Table 1: couple 2 won (game 1)."
    result = Result.objects.get()
    assert result.winner.number == 2 and result.state == "accepted"
    version = result.versions.get()
    assert version.channel == "desk" and version.user == ours.scorer
    # The fields are empty again for the next table.
    assert re.search(r'id="desk-table" name="table" value=""', text(response))

    again = client.post(desk_url(drive), {"table": "1", "winner": "2", "game": "1"})
    assert again.status_code == 200
    assert "already recorded" in status_line(again, "desk-status")
    assert ResultVersion.objects.count() == 1


def test_a_scorer_corrects_their_own_typo_by_typing_the_table_again(ours, drive) -> None:
    """8 → 15, then 8 → 16 by the same scorer a moment later: their own entry is replaced,
    kept as a correction, and the status line says so; no conflict to settle."""
    client = logged_in(ours.scorer)
    assert (
        client.post(desk_url(drive), {"table": "1", "winner": "1", "game": "1"}).status_code == 201
    )
    fixed = client.post(desk_url(drive), {"table": "1", "winner": "2", "game": "1"})
    assert fixed.status_code == 201
    assert (
        status_line(fixed, "desk-status") == "Table 1: your entry corrected to couple 2 (game 1)."
    )
    result = Result.objects.get()
    assert (result.winner.number, result.state) == (2, "accepted")
    kinds = list(result.versions.values_list("kind", "winner__number", "previous_winner__number"))
    assert kinds == [("entered", 1, None), ("corrected", 2, 1)]
    audit = AuditEntry.objects.get(action="result.correct")
    assert audit.old["winner"] == 1 and audit.new["winner"] == 2 and audit.user == ours.scorer
    assert 'data-state="conflict"' not in row(text(fixed), 1)
    assert "corrected to 2" in row(text(fixed), 1)  # the table's history says so
    # A score typed wrong is corrected the same way.
    points = client.post(desk_url(drive), {"table": "1", "winner": "2", "points": "70-20"})
    assert points.status_code == 201 and Result.objects.get().points == [70, 20]


def test_another_source_still_makes_a_conflict(ours, drive) -> None:
    """Another scorer, a phone, or the same scorer once the minute is over: a conflict."""
    client = logged_in(ours.scorer)
    client.post(desk_url(drive), {"table": "1", "winner": "1", "game": "1"})
    other = logged_in(ours.organizer)
    assert other.post(desk_url(drive), {"table": "1", "winner": "2"}).status_code == 409
    assert Result.objects.get(seat__table__number=1).state == "conflict"

    result_record(drive=drive, game=1, table=2, winner=3, actor=TABLE)
    assert client.post(desk_url(drive), {"table": "2", "winner": "4"}).status_code == 409

    drive3 = night(ours.club, 4)
    client.post(desk_url(drive3), {"table": "1", "winner": "1"})
    ResultVersion.objects.filter(result__game__drive=drive3).update(
        at=timezone.now() - timedelta(seconds=61)
    )
    late = client.post(desk_url(drive3), {"table": "1", "winner": "2"})
    assert late.status_code == 409 and "Conflict at table 1" in status_line(late, "desk-status")


def test_entry_answers_json_to_the_pages_script(ours, drive) -> None:
    client = logged_in(ours.scorer)
    post = {"table": "2", "winner": "4", "game": "1"}
    answer = client.post(desk_url(drive), post, HTTP_ACCEPT="application/json")
    assert answer.status_code == 201
    assert answer.json() == {
        "ok": True,
        "status": 201,
        "code": "stored",
        "level": "success",
        "message": "Table 2: couple 4 won (game 1).",
        "game": 1,
        "table": 2,
        "winner": 4,
        "field": None,
    }
    wrong = client.post(desk_url(drive), post | {"winner": "1"}, HTTP_ACCEPT="application/json")
    assert wrong.status_code == 422
    assert wrong.json()["code"] == "wrong_couple" and not wrong.json()["ok"]
    assert wrong.json()["field"] == "winner"


def entry_field(html: str, field_id: str) -> str:
    """The ``<input>`` of the entry line with this id."""
    match = re.search(rf'<input[^>]*id="{field_id}"[^>]*>', html)
    assert match is not None, f"no field {field_id}"
    return match.group(0)


def test_wrong_couple_is_named_and_the_winner_not_kept(ours, drive) -> None:
    """A refused winner must not stay in its field: the next table's Enter would send it."""
    client = logged_in(ours.scorer)
    response = client.post(desk_url(drive), {"table": "1", "winner": "4", "game": "1"})
    assert response.status_code == 422
    assert "Couple 4 is not at table 1" in status_line(response, "desk-status")
    html = text(response)
    assert 'value="1"' in entry_field(html, "desk-table")
    assert "autofocus" in entry_field(html, "desk-table")
    assert 'value=""' in entry_field(html, "desk-winner")
    assert not Result.objects.exists()


@pytest.mark.parametrize(
    ("post", "field", "kept"),
    [
        ({"table": "9", "winner": "1", "points": "50-40"}, "table", {"desk-table": "9"}),
        ({"table": "1", "winner": "3", "points": "50-40"}, "winner", {"desk-table": "1"}),
        (
            {"table": "1", "winner": "1", "points": "95-0"},
            "points",
            {"desk-table": "1", "desk-winner": "1", "desk-points": "95-0"},
        ),
    ],
)
def test_a_refusal_names_its_field_and_keeps_only_what_was_right(
    ours, drive, post, field, kept
) -> None:
    client = logged_in(ours.scorer)
    answer = client.post(desk_url(drive), post | {"game": "1"}, HTTP_ACCEPT="application/json")
    assert (answer.status_code, answer.json()["field"]) == (422, field)
    html = text(client.post(desk_url(drive), post | {"game": "1"}))
    for field_id in ("desk-table", "desk-winner", "desk-points"):
        assert f'value="{kept.get(field_id, "")}"' in entry_field(html, field_id), field_id
    focused = "desk-points" if field == "points" else "desk-table"
    assert "autofocus" in entry_field(html, focused)
    assert not Result.objects.exists()


@pytest.mark.parametrize(
    ("post", "words"),
    [
        ({"table": "", "winner": "1"}, "Type the table number."),
        ({"table": "1", "winner": ""}, "Type the number of the couple that won at table 1."),
        ({"table": "x", "winner": "1"}, "Type the table number."),
        ({"table": "9", "winner": "1"}, "Nobody plays at table 9 in game 1."),
        ({"table": "3", "winner": "5"}, "Table 3 is a sit-out: it needs no result."),
        ({"table": "1", "winner": "1", "points": "fifty"}, "Points are two numbers"),
        ({"table": "1", "winner": "1", "points": "95-0"}, "more points than the hands could give"),
    ],
)
def test_bad_entries_are_named(ours, drive, post, words) -> None:
    response = logged_in(ours.scorer).post(desk_url(drive), post | {"game": "1"})
    assert response.status_code == 422
    assert words in status_line(response, "desk-status")
    assert not Result.objects.exists()


def test_an_unusual_score_needs_the_tick(ours, drive) -> None:
    client = logged_in(ours.scorer)
    post = {"table": "1", "winner": "1", "game": "1", "points": unusual_score()}
    refused = client.post(desk_url(drive), post)
    assert refused.status_code == 422
    assert "tick “Unusual score”" in status_line(refused, "desk-status")
    assert not Result.objects.exists()
    stored = client.post(desk_url(drive), post | {"confirm_unusual": "on"})
    assert stored.status_code == 201
    assert "Unusual score, confirmed." in status_line(stored, "desk-status")
    assert "unusual score" in row(text(stored), 1)
    assert 'class="state-accepted is-unusual"' in row(text(stored), 1)


def test_a_finished_game_is_shown_and_corrected_not_entered(ours, drive) -> None:
    play(drive, 1)
    advance(drive, 1)
    client = logged_in(ours.scorer)
    html = text(client.get(desk_url(drive)))
    assert 'data-game="2"' in html and "Game 2 of 25" in html
    old = client.get(desk_url(drive) + "?game=1")
    assert "finished" in text(old) and 'data-game="1"' in text(old)
    assert "game=1" in re.search(r'data-poll-url="([^"]*)"', text(old)).group(1)
    late = client.post(desk_url(drive), {"table": "1", "winner": "2", "game": "1"})
    assert late.status_code == 422
    assert "Game 1 is over" in status_line(late, "desk-status")
    fixed = client.post(
        desk_url(drive),
        {"action": "resolve", "table": "1", "winner": "2", "game": "1", "reason": "card"},
    )
    assert fixed.status_code == 200
    version = ResultVersion.objects.get(kind="resolved")
    assert version.after_advance


def test_before_the_start_and_after_the_close(ours) -> None:
    drive = night(ours.club, 4, start=False)
    client = logged_in(ours.scorer)
    html = text(client.get(desk_url(drive)))
    assert "has not started yet" in html and 'id="desk-table"' not in html
    assert 'id="desk-grid"' in html  # polled: the first game appears by itself
    started = night(ours.club, 4)
    drive_close(drive=started, actor=DESK)
    html = text(client.get(desk_url(started)))
    assert "This drive is closed" in html
    assert 'id="desk-table"' not in html and "desk-win-" not in html
    refused = client.post(desk_url(started), {"table": "1", "winner": "1", "game": "1"})
    assert refused.status_code == 422
    assert "closed" in status_line(refused, "desk-status")


def test_the_grid_fragment_is_the_grid_alone(ours, drive) -> None:
    response = logged_in(ours.scorer).get(desk_url(drive) + "?partial=grid")
    html = text(response).strip()
    assert html.startswith('<section id="desk-grid"')
    assert 'data-table="1"' in html and "<html" not in html
    version = re.search(r'data-version="([^"]+)"', html).group(1)
    again = text(logged_in(ours.scorer).get(desk_url(drive) + "?partial=grid"))
    assert f'data-version="{version}"' in again  # unchanged: the script does not swap it
    play(drive, 1, skip=(2,))
    changed = text(logged_in(ours.scorer).get(desk_url(drive) + "?partial=grid"))
    assert f'data-version="{version}"' not in changed


def test_the_other_desks_get_the_grid_rendered_once_with_their_own_token(ours, drive) -> None:
    url = desk_url(drive) + "?partial=grid"
    first, second = logged_in(ours.scorer), logged_in(ours.scorer)
    second.handler.enforce_csrf_checks = True
    rendered = text(first.get(url))
    assert queries(second, url) == 3  # the session, the user, the drive with the role: no more
    kept = text(second.get(url))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', kept)
    assert token is not None and "placeholder" not in kept
    mask = re.compile(r'(name="csrfmiddlewaretoken" value=)"[^"]+"')
    assert mask.sub(r"\1", kept) == mask.sub(r"\1", rendered)  # the same grid, another token
    posted = second.post(
        desk_url(drive),
        {
            "csrfmiddlewaretoken": token.group(1),
            "action": "enter",
            "game": "1",
            "table": "1",
            "winner": "2",
        },
    )
    assert posted.status_code == 201
    # The change is in both desks' next grid.
    assert re.search(r'id="table-1"[^>]*data-winner="2"', text(first.get(url)))
    assert re.search(r'id="table-1"[^>]*data-winner="2"', text(second.get(url)))


def grid_version(html: str) -> str:
    found = re.search(r'<section id="desk-grid"[^>]*data-version="([0-9a-f]{16})"', html)
    assert found is not None
    return found.group(1)


def patched(page: str, patch: str) -> str:
    """What static/js/poll.js makes of ``page`` and ``patch``: the patch's grid with the
    page's rows, those the patch brings in their place."""
    of = re.search(r'data-patch-of="([0-9a-f]+)"', patch)
    assert of is not None and of.group(1) == grid_version(page)
    rows = {t: row(patch, int(t)) for t in re.findall(r'<tr id="table-(\d+)"', patch)}
    body = re.search(r"<tbody data-patch-rows>(.*?)</tbody>", page, re.S).group(1)
    for table, fresh in rows.items():
        body = body.replace(row(page, int(table)), fresh)
    head, _rest = re.split(r"<tbody data-patch-rows>", patch)
    tail = patch[patch.index("</tbody>") :]
    return re.sub(r' data-patch-of="[0-9a-f]+"', "", head) + "<tbody data-patch-rows>" + body + tail


def strip_tokens(html: str) -> str:
    return re.sub(r'(name="csrfmiddlewaretoken" value=)"[^"]+"', r"\1", html)


def test_a_desk_that_says_which_grid_it_shows_gets_only_the_rows_that_changed(ours) -> None:
    drive = night(ours.club, 12)  # 6 tables
    desk = logged_in(ours.scorer)
    url = desk_url(drive) + "?partial=grid"
    page = text(desk.get(url))
    assert "data-patch-of" not in page and "data-poll-patch" in page
    result_record(drive=drive, game=1, table=2, winner=3, actor=TABLE)
    result_record(drive=drive, game=1, table=5, winner=10, actor=DESK)
    response = desk.get(url, headers={"X-Poll-Have": grid_version(page)})
    assert "X-Poll-Have" in response["Vary"]
    patch = text(response)
    assert re.findall(r'<tr id="table-(\d+)"', patch) == ["2", "5"]
    assert "2 of 6 tables reported" in patch  # the summary is the new one
    # Put in place, the page is the grid a desk would get whole.
    whole = text(desk.get(url))
    assert strip_tokens(patched(page, patch)) == strip_tokens(whole)
    # Nothing changed since: no rows, the same version (the page's script leaves it).
    again = text(desk.get(url, headers={"X-Poll-Have": grid_version(whole)}))
    assert grid_version(again) == grid_version(whole)
    assert re.findall(r'<tr id="table-', again) == []
    # Two versions behind: the rows changed since the older one.
    result_record(drive=drive, game=1, table=1, winner=1, actor=DESK)
    behind = text(desk.get(url, headers={"X-Poll-Have": grid_version(page)}))
    assert re.findall(r'<tr id="table-(\d+)"', behind) == ["1", "2", "5"]


def test_the_sit_out_setting_changed_mid_night_reaches_the_desks_grid(ours, drive) -> None:
    """Table 3's couple sits out: whether that counts as a win is said in its row. Changed in
    the drive's settings during the night, the grid's version changes (the page's script swaps
    it) and the row says the new rule, to a desk that says which grid it shows too."""
    desk = logged_in(ours.scorer)
    url = desk_url(drive) + "?partial=grid"
    page = text(desk.get(url))
    counts = "counts as a win" in row(page, 3)
    drive_update(drive=drive, actor=DESK, sit_out_counts_as_win=not counts)
    after = text(desk.get(url, headers={"X-Poll-Have": grid_version(page)}))
    assert grid_version(after) != grid_version(page)
    assert ("counts as a win" in row(after, 3)) is not counts


def test_a_grid_the_server_does_not_know_gets_the_whole_grid(ours, drive) -> None:
    desk = logged_in(ours.scorer)
    url = desk_url(drive) + "?partial=grid"
    page = text(desk.get(url))
    for have in ("0123456789abcdef", "not a version", "<b>" * 10):
        whole = text(desk.get(url, headers={"X-Poll-Have": have}))
        assert "data-patch-of" not in whole
        assert re.findall(r'<tr id="table-(\d+)"', whole) == ["1", "2", "3"]
    # The next game: other tables, the whole grid.
    play(drive, 1)
    advance(drive, 1)
    next_game = text(desk.get(url, headers={"X-Poll-Have": grid_version(page)}))
    assert "data-patch-of" not in next_game and "Game 2 of" in next_game
    assert len(re.findall(r'<tr id="table-', next_game)) == 3


def test_more_rows_changed_than_a_patch_takes_gets_the_whole_grid(ours, monkeypatch) -> None:
    import scoring.pages.desk as desk_page

    monkeypatch.setattr(desk_page, "PATCH_ROWS", 2)
    drive = night(ours.club, 12)
    desk = logged_in(ours.scorer)
    url = desk_url(drive) + "?partial=grid"
    page = text(desk.get(url))
    for table, winner in ((1, 1), (2, 3), (3, 5)):
        result_record(drive=drive, game=1, table=table, winner=winner, actor=DESK)
    whole = text(desk.get(url, headers={"X-Poll-Have": grid_version(page)}))
    assert "data-patch-of" not in whole and len(re.findall(r'<tr id="table-', whole)) == 6


def test_a_patch_takes_no_more_queries_than_the_whole_grid(ours) -> None:
    drive = night(ours.club, 80)
    desk = logged_in(ours.scorer)
    url = desk_url(drive) + "?partial=grid"
    page = text(desk.get(url))
    result_record(drive=drive, game=1, table=7, winner=13, actor=TABLE)
    assert queries(desk, url, headers={"X-Poll-Have": grid_version(page)}) == 9


def test_the_page_takes_the_same_queries_for_4_and_40_tables(ours) -> None:
    counts = []
    for couples in (8, 80):
        drive = night(ours.club, couples)
        play(drive, 1)
        advance(drive, 1)
        play(drive, 2, skip=(1, 2))
        first = game_view(drive, 2)["tables"][0]
        result_record(drive=drive, game=2, table=1, winner=first["stays"], actor=TABLE)
        client = logged_in(ours.scorer)
        counts.append(
            (queries(client, desk_url(drive)), queries(client, desk_url(drive) + "?partial=grid"))
        )
    assert counts[0] == counts[1], counts


# --- starting the next game from the desk -------------------------------------------------------


def test_the_desk_starts_the_next_game_once_every_table_is_in(ours, drive) -> None:
    client = logged_in(ours.scorer)
    play(drive, 1, skip=(2,))
    waiting = text(client.get(desk_url(drive)))
    assert 'data-testid="desk-advance" disabled' in waiting
    assert "no result yet at table(s) 2" in waiting
    refused = client.post(
        desk_url(drive), {"action": "advance", "game": "1"}, HTTP_ACCEPT="application/json"
    )
    assert refused.status_code == 409 and refused.json()["code"] == "game_incomplete"
    drive.refresh_from_db()
    assert drive.current_game == 1

    play(drive, 1)
    ready = text(client.get(f"{desk_url(drive)}?partial=grid"))  # what the page polls
    assert 'data-testid="desk-advance">' in ready and "Start game 2" in ready
    started = client.post(desk_url(drive), {"action": "advance", "game": "1"})
    assert started.status_code == 201
    assert "Game 2 has started" in status_line(started, "desk-status")
    assert "Game 2 of " in text(started)
    drive.refresh_from_db()
    assert drive.current_game == 2
    entry = AuditEntry.objects.get(drive=drive, action="game.advance")
    assert (entry.user, entry.channel) == (ours.scorer, AuditEntry.Channel.DESK)
    again = client.post(
        desk_url(drive), {"action": "advance", "game": "1"}, HTTP_ACCEPT="application/json"
    )
    assert again.status_code == 200 and again.json()["code"] == "replayed"
    drive.refresh_from_db()
    assert drive.current_game == 2


def test_the_desk_has_no_advance_for_scorers_when_the_settings_say_so(ours) -> None:
    drive = night(ours.club, 4, scorers_may_advance=False)
    play(drive, 1)
    scorer = logged_in(ours.scorer)
    page = text(scorer.get(desk_url(drive)))
    assert "desk-advance" not in page
    assert "an organizer can start the next game" in page
    refused = scorer.post(desk_url(drive), {"action": "advance", "game": "1"})
    assert refused.status_code == 403
    drive.refresh_from_db()
    assert drive.current_game == 1
    assert 'data-testid="desk-advance">' in text(logged_in(ours.organizer).get(desk_url(drive)))


def test_the_last_game_has_no_advance_button(ours) -> None:
    drive = night(ours.club, 4, games=1)
    play(drive, 1)
    page = text(logged_in(ours.organizer).get(desk_url(drive)))
    assert "desk-advance" not in page
    assert "This is the last game" in page


def test_an_entry_taken_back_says_so_in_the_tables_history(ours, drive) -> None:
    """A table's card that took its entry back at once: the desk's history of the table says
    the entry was undone (not that the other couple rejected it), and the row is missing
    again with its buttons."""
    client = logged_in(ours.scorer)
    result_record(drive=drive, game=1, table=1, winner=2, actor=TABLE)
    result_undo(drive=drive, game=1, table=1, actor=TABLE)
    grid = row(text(client.get(desk_url(drive) + "?partial=grid")), 1)
    assert 'data-state="missing"' in grid and 'data-testid="desk-win-1-2"' in grid
    assert re.findall(r'<li class="v-(\w+)">', grid) == ["entered", "undone"]
    assert "undone at once by whoever entered it" in grid and "rejected" not in grid
