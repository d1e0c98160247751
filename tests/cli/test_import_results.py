"""``manage.py drive import-results``: a results CSV entered game by game with the advance after
each complete game, the movement checked against the file, all or nothing."""

from collections import Counter

import pytest
from django.core.management.base import CommandError

from drives.models import AuditEntry, Drive, Game
from drives.services import Actor
from engine.movement import first_seating, next_seating
from engine.standings import standings
from scoring.models import Result, ResultVersion
from scoring.selectors import game_view, standings_for_drive
from scoring.services import result_record
from tests.cli.helpers import run

pytestmark = pytest.mark.django_db


def night(couples: int, games: int) -> tuple[list[str], Counter[int], Counter[int]]:
    """The rows of ``games`` games of a winners-move night computed with the engine alone,
    with the wins and games played each couple should have once the next game is seated."""
    seating = first_seating(range(1, couples + 1))
    rows: list[str] = []
    wins: Counter[int] = Counter()
    played: Counter[int] = Counter()
    for game in range(1, games + 2):
        winners = {}
        for t in seating.tables:
            present = [c for c in (t.stays, t.arrives) if c is not None]
            for c in present:
                played[c] += 1
            if len(present) == 1:
                wins[present[0]] += 1  # a sit-out counts as a win, from the moment it is seated
                continue
            if game > games:
                continue
            assert t.stays is not None and t.arrives is not None
            winner = max(t.stays, t.arrives) if (t.table + game) % 3 else min(t.stays, t.arrives)
            winners[t.table] = winner
            wins[winner] += 1
            points = ",50-40" if game % 2 else ("," if t.table % 2 else ",40-50")
            rows.append(f"{game},{t.table},{winner}{points}")
        if game <= games:
            seating = next_seating(seating, winners)
    return rows, wins, played


def results_file(write, rows: list[str], name: str = "results.csv") -> str:
    return write(name, "game,table,winner,points\n" + "\n".join(rows) + "\n")


def test_several_games_of_a_nine_couple_night_give_the_engines_standings(new_drive, write) -> None:
    slug = new_drive(9)
    rows, wins, played = night(9, 5)
    out = run("drive", "import-results", slug, results_file(write, rows))
    assert "Game 6 is in play." in out
    drive = Drive.objects.get(slug=slug)
    assert (drive.state, drive.current_game) == ("running", 6)
    table = standings_for_drive(drive)
    assert {r["number"]: r["wins"] for r in table} == {n: wins[n] for n in range(1, 10)}
    expected = standings(wins, played)
    assert [(r["number"], r["place"]) for r in table] == [(r.couple, r.place) for r in expected]
    assert Result.objects.filter(game__drive=drive).count() == len(rows)
    channels = set(ResultVersion.objects.values_list("channel", flat=True))
    assert channels == {"import"}
    assert AuditEntry.objects.filter(
        drive=drive, action="results.import", channel="import"
    ).exists()
    # Points given loser first (40-50) are stored winner first.
    assert set(
        Result.objects.exclude(winner_points=None).values_list("winner_points", "loser_points")
    ) == {(50, 40)}


def test_the_last_game_of_the_file_stays_in_play_when_incomplete(new_drive, write) -> None:
    slug = new_drive(9)
    rows, _, _ = night(9, 3)
    partial = [r for r in rows if not r.startswith("3,1,")]
    run("drive", "import-results", slug, results_file(write, partial))
    drive = Drive.objects.get(slug=slug)
    assert drive.current_game == 3
    assert game_view(drive, 3)["missing"] == [1]
    # The rest of the night can follow in a second file (rows already in are accepted again).
    out = run("drive", "import-results", slug, results_file(write, rows, "all.csv"))
    assert "Game 4 is in play." in out
    assert f"{len(rows)} rows (games 1-3): 1 recorded, {len(rows) - 1} already there." in out


def test_a_sit_out_table_needs_no_row_but_may_name_the_couple_sitting_out(new_drive, write) -> None:
    slug = new_drive(3)
    out = run(
        "drive",
        "import-results",
        slug,
        write("r.csv", "game,table,winner\n1,1,2\n1,2,3\n"),
    )
    assert "Game 2 is in play." in out


def test_a_winner_not_at_that_table_is_refused_with_its_line_and_nothing_is_kept(
    new_drive, write
) -> None:
    slug = new_drive(9)
    rows, _, _ = night(9, 3)
    rows[-1] = rows[-1].split(",")[0] + "," + rows[-1].split(",")[1] + ",9"  # 9 is elsewhere
    path = results_file(write, rows)
    with pytest.raises(CommandError) as info:
        run("drive", "import-results", slug, path)
    message = str(info.value)
    assert f"line {len(rows) + 1}:" in message and "wrong_couple" in message
    drive = Drive.objects.get(slug=slug)
    assert (drive.state, drive.current_game) == ("setup", 0)
    assert Result.objects.count() == 0 and ResultVersion.objects.count() == 0
    assert Game.objects.count() == 0
    assert not AuditEntry.objects.filter(drive=drive, channel="import").exists()


def test_a_winner_from_another_table_in_a_later_game_rolls_back_earlier_games(
    new_drive, write
) -> None:
    slug = new_drive(8)
    path = write("r.csv", "game,table,winner\n1,1,1\n1,2,3\n1,3,5\n1,4,7\n2,1,8\n")
    with pytest.raises(CommandError, match="line 6: Couple 8 is not at table 1"):
        run("drive", "import-results", slug, path)
    assert Result.objects.count() == 0 and Game.objects.count() == 0


def test_conflicting_duplicate_rows_are_named(new_drive, write) -> None:
    slug = new_drive(4)
    path = write("r.csv", "game,table,winner\n1,1,1\n1,2,3\n1,1,1\n1,2,4\n")
    with pytest.raises(
        CommandError, match="line 5: game 1 table 2 already has a different result on line 3"
    ):
        run("drive", "import-results", slug, path)
    assert Result.objects.count() == 0


def test_a_row_against_a_result_already_stored_is_a_conflict_and_nothing_is_kept(
    new_drive, write
) -> None:
    slug = new_drive(4)
    run("drive", "import-results", slug, write("a.csv", "game,table,winner\n1,1,1\n"))
    with pytest.raises(CommandError, match="line 3: table 1 of game 1 already has couple 1"):
        run("drive", "import-results", slug, write("b.csv", "game,table,winner\n1,2,3\n1,1,2\n"))
    assert Result.objects.count() == 1
    assert ResultVersion.objects.count() == 1  # the conflicting entry was rolled back too
    assert Result.objects.get().state == "accepted"


def test_a_row_with_other_points_than_stored_is_refused_not_taken_as_the_same(
    new_drive, write
) -> None:
    slug = new_drive(4)
    run("drive", "import-results", slug, write("a.csv", "game,table,winner,points\n1,1,1,50-40\n"))
    with pytest.raises(
        CommandError,
        match="line 2: table 1 of game 1 already has couple 1 winning 50-40, not 60-30",
    ):
        run(
            "drive",
            "import-results",
            slug,
            write("b.csv", "game,table,winner,points\n1,1,1,60-30\n"),
        )
    result = Result.objects.get()
    assert (result.points, result.state) == ([50, 40], "accepted")
    assert ResultVersion.objects.count() == 1
    # The same row again, or the winner alone, agrees with what is stored.
    run("drive", "import-results", slug, write("c.csv", "game,table,winner\n1,1,1\n"))
    run("drive", "import-results", slug, write("d.csv", "game,table,winner,points\n1,1,1,40-50\n"))
    assert ResultVersion.objects.count() == 1


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (
            "game,table,winner\n1,1,one\n",
            "line 2: The winner is a couple number from 1 to 999999999.",
        ),
        ("game,table,winner\n1,1\n", "line 2: 2 columns, expected 3"),
        ("game,table,winner,points\n1,1,1,50:40:1\n", "line 2: points are written like 50-40"),
        ("game,table,winner\n1,7,1\n", "line 2: Nobody plays at table 7 in game 1"),
        ("game,table,winner\n30,1,1\n", "line 2: the night has 25 games, not 30"),
        ("game,table,winner\n1,1,1\n1,2,3\n3,1,1\n", "line 4: game 3 cannot start: game 2"),
        (
            "game,table,winner\n2,1,1\n",
            "line 2: game 2 cannot start: game 1 is in play and not complete",
        ),
        ("game,table,winner,points\n1,1,1,60-10\n", "line 2: .*not_whole_hands"),
        ("game,table,winner,points\n1,1,1,45-30\n", "line 2: .*trumpless_hands.*confirm-unusual"),
        ("player1,player2\nA,B\n", "line 1: the header must be"),
        ("", "empty"),
        ("game,table,winner\n", "no results"),
    ],
)
def test_bad_files_are_named_with_their_line_and_change_nothing(
    new_drive, write, content: str, words: str
) -> None:
    slug = new_drive(4)
    with pytest.raises(CommandError, match=words):
        run("drive", "import-results", slug, write("r.csv", content))
    assert Result.objects.count() == 0 and Game.objects.count() == 0
    assert Drive.objects.get(slug=slug).state == "setup"


def test_a_game_completed_at_the_desk_is_advanced_before_the_files_next_game(
    new_drive, write
) -> None:
    slug = new_drive(4)
    run("drive", "import-results", slug, write("a.csv", "game,table,winner\n1,1,1\n"))
    drive = Drive.objects.get(slug=slug)
    result_record(drive=drive, game=1, table=2, winner=3, actor=Actor())  # the desk
    out = run("drive", "import-results", slug, write("b.csv", "game,table,winner\n2,1,2\n2,2,4\n"))
    assert "Started game(s) 2, 3." in out


def test_a_game_skipped_by_the_file_is_named(new_drive, write) -> None:
    slug = new_drive(4)
    path = write("r.csv", "game,table,winner\n1,1,1\n1,2,3\n4,1,1\n")
    with pytest.raises(
        CommandError,
        match=r"line 4: game 4 cannot start: game 2 is in play and not complete \(no result for "
        r"table\(s\) 1, 2\)",
    ):
        run("drive", "import-results", slug, path)


def test_malformed_rows_are_all_listed(new_drive, write) -> None:
    slug = new_drive(4)
    with pytest.raises(CommandError) as info:
        run(
            "drive",
            "import-results",
            slug,
            write("r.csv", "game,table,winner\nx,1,1\n1,1,1\n1,-2,3\n"),
        )
    assert "line 2:" in str(info.value) and "line 4:" in str(info.value)
    assert "line 3:" not in str(info.value)


def test_unusual_scores_are_accepted_with_the_flag(new_drive, write) -> None:
    slug = new_drive(4)
    path = write("r.csv", "game,table,winner,points\n1,1,1,45-30\n")
    run("drive", "import-results", slug, path, "--confirm-unusual")
    assert Result.objects.get().verdict == "trumpless_hands"


def test_non_utf8_and_oversized_files(new_drive, write) -> None:
    slug = new_drive(4)
    with pytest.raises(CommandError, match="line 3: the file is not UTF-8"):
        run(
            "drive", "import-results", slug, write("r.csv", b"game,table,winner\n1,1,1\n1,2,\xe9\n")
        )
    big = write("big.csv", b"game,table,winner\n" + b"1,1,1\n" * 200_000)
    with pytest.raises(CommandError, match="larger than"):
        run("drive", "import-results", slug, big)
    assert Result.objects.count() == 0


def test_unknown_slug(write) -> None:
    with pytest.raises(CommandError, match="No drive with the slug 'nope'"):
        run("drive", "import-results", "nope", write("r.csv", "game,table,winner\n1,1,1\n"))
