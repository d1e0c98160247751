"""``manage.py drive export`` and ``drive restore``: the JSON record of a night, and the same
drive back from it (new tokens, one audit entry more)."""

import json
from datetime import date
from pathlib import Path

import pytest
from django.core.management.base import CommandError

from drives.models import AuditEntry, Couple, Drive, Table
from drives.services import (
    Actor,
    club_create,
    couple_update,
    couples_register,
    drive_close,
    drive_create,
    drive_start,
    holes_record,
)
from scoring.models import Result, ResultVersion
from scoring.records.restore import drive_delete
from scoring.selectors import game_view
from scoring.services import game_advance, result_record, result_resolve
from scoring.simulation import drive_simulate
from tests.cli.helpers import run, run_both
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def play(drive: Drive, game: int, actor: Actor, skip: tuple[int, ...] = ()) -> None:
    view = game_view(drive, game)
    assert view is not None
    for t in view["tables"]:
        if not t["sit_out"] and t["winner"] is None and t["table"] not in skip:
            result_record(
                drive=drive,
                game=game,
                table=t["table"],
                winner=t["arrives"],
                points=[50, 40] if t["table"] % 2 else None,
                key=f"k{game}-{t['table']}",
                actor=actor,
            )


def eventful_night() -> Drive:
    """Nine couples and a late tenth, a withdrawal, a conflict settled, a correction after the
    advance, a result with an unusual score, holes, users and every channel of the night."""
    organizer = UserFactory(username="maggie")
    scorer = UserFactory(username="dan.rory")
    desk = Actor(user=scorer, channel=AuditEntry.Channel.DESK)
    boss = Actor(user=organizer, channel=AuditEntry.Channel.API)
    club = club_create(name="St. Mary's Parish Hall", organizer=organizer)
    drive = drive_create(
        club=club,
        actor=boss,
        name="Fall 45s",
        date=date(2026, 10, 9),
        venue="Mabou",
        games=8,
        entry_fee="5.00",
        ranking="competition",
    )
    couples_register(
        drive=drive,
        actor=desk,
        couples=[{"players": [f"Mary {i}", f"Joe {i}"], "paid": i % 3 == 0} for i in range(1, 10)],
    )
    drive_start(drive=drive, actor=boss, seating="shuffle", seed=42)
    play(drive, 1, desk, skip=(1,))
    table_one = Actor(channel=AuditEntry.Channel.TABLE)
    drive.refresh_from_db()
    seat = game_view(drive, 1)["tables"][0]
    result_record(drive=drive, game=1, table=1, winner=seat["stays"], actor=table_one)
    with pytest.raises(Exception, match="already has"):
        result_record(drive=drive, game=1, table=1, winner=seat["arrives"], actor=desk)
    result_resolve(
        drive=drive, game=1, table=1, winner=seat["arrives"], reason="checked the card", actor=boss
    )
    game_advance(drive=drive, game=1, actor=boss)
    couples_register(drive=drive, couples=[{"players": ["Late", "Comers"]}], actor=desk)
    couple_update(couple=Couple.objects.get(drive=drive, number=4), withdrawn=True, actor=desk)
    couple_update(couple=Couple.objects.get(drive=drive, number=7), cookie_jar=True, actor=desk)
    play(drive, 2, desk)
    game_advance(drive=drive, game=2, actor=boss)
    result_resolve(
        drive=drive, game=2, table=2, winner=_other(drive, 2, 2), reason="wrong card", actor=boss
    )
    play(drive, 3, Actor(channel=AuditEntry.Channel.IMPORT))
    game_advance(drive=drive, game=3, actor=boss)
    drive_simulate(drive=drive, seed=5, until_game=5, actor=Actor(channel=AuditEntry.Channel.CLI))
    holes_record(drive=drive, holes={1: 3, 2: 1}, actor=desk)
    drive.refresh_from_db()
    return drive


def _other(drive: Drive, game: int, table: int) -> int:
    result = Result.objects.get(game__drive=drive, game__number=game, seat__table__number=table)
    seat = result.seat
    return seat.stays.number if result.winner_id == seat.arrives_id else seat.arrives.number


def export(slug: str, path: Path) -> dict:
    out = run("drive", "export", slug, "--output", str(path))
    assert out == f"Exported {slug} to {path}.\n"
    return json.loads(path.read_text(encoding="utf-8"))


def test_export_delete_restore_export_gives_the_same_record(tmp_path: Path) -> None:
    drive = eventful_night()
    drive.slow_table_minutes = 7  # a setting not at its default travels too
    drive.save(update_fields=["slow_table_minutes"])
    first = export(drive.slug, tmp_path / "first.json")
    assert first["drive"]["slow_table_minutes"] == 7
    old_tokens = set(Couple.objects.values_list("token", flat=True))
    old_tokens |= set(Table.objects.values_list("token", flat=True))
    drive_delete(drive=drive)
    assert not Drive.objects.exists() and not Result.objects.exists()

    out, err = run_both("drive", "restore", str(tmp_path / "first.json"))
    assert out.startswith(f"Restored {drive.slug}: 10 couples, 6 games,")
    assert "New table and couple tokens" in out and err == ""
    second = export(drive.slug, tmp_path / "second.json")

    restore_entry = second["audit"].pop()
    assert restore_entry["action"] == "drive.restore" and restore_entry["channel"] == "cli"
    assert second == first
    assert Drive.objects.get(slug=drive.slug).slow_table_minutes == 7
    new_tokens = set(Couple.objects.values_list("token", flat=True))
    new_tokens |= set(Table.objects.values_list("token", flat=True))
    assert not old_tokens & new_tokens


def test_an_export_made_before_a_later_setting_restores_with_its_default(tmp_path: Path) -> None:
    """A backup written before ``scorers_may_advance`` existed is still a backup."""
    drive = eventful_night()
    drive.scorers_may_advance = False
    drive.save(update_fields=["scorers_may_advance"])
    record = export(drive.slug, tmp_path / "x.json")
    assert record["drive"].pop("scorers_may_advance") is False
    (tmp_path / "old.json").write_text(json.dumps(record), encoding="utf-8")
    drive_delete(drive=drive)
    run("drive", "restore", str(tmp_path / "old.json"))
    assert Drive.objects.get(slug=drive.slug).scorers_may_advance is True


def test_the_restored_drive_plays_on(tmp_path: Path) -> None:
    drive = eventful_night()
    export(drive.slug, tmp_path / "x.json")
    drive_delete(drive=drive)
    run("drive", "restore", str(tmp_path / "x.json"))
    restored = Drive.objects.get(slug=drive.slug)
    assert restored.current_game == 6
    run("drive", "simulate", drive.slug, "--seed", "3")
    restored.refresh_from_db()
    assert restored.current_game == 8


def test_the_export_is_pretty_utf8_json_on_stdout(new_drive) -> None:
    slug = new_drive(4)
    Couple.objects.filter(number=1).update(player1="Gisèle Thibodeau")
    out = run("drive", "export", slug)
    assert '\n  "drive": {\n' in out and "Gisèle" in out
    data = json.loads(out)
    assert data["format"] == "fortyfives-drive/1" and data["drive"]["slug"] == slug


def test_a_closed_drive_round_trips(tmp_path: Path) -> None:
    drive = eventful_night()
    drive_close(drive=drive, actor=Actor(channel=AuditEntry.Channel.CLI))
    first = export(drive.slug, tmp_path / "a.json")
    run("drive", "restore", str(tmp_path / "a.json"), "--replace")
    second = export(drive.slug, tmp_path / "b.json")
    assert second["audit"].pop()["action"] == "drive.restore"
    assert second == first and second["drive"]["state"] == "closed"
    assert AuditEntry.objects.filter(drive=None, action="drive.delete").exists()


def test_restore_refuses_an_existing_slug_unless_replace(tmp_path: Path, new_drive) -> None:
    slug = new_drive(4)
    export(slug, tmp_path / "a.json")
    with pytest.raises(CommandError, match=r"exists already.*--replace"):
        run("drive", "restore", str(tmp_path / "a.json"))
    assert Drive.objects.count() == 1
    run("drive", "restore", str(tmp_path / "a.json"), "--replace")
    assert Drive.objects.count() == 1


def test_users_missing_here_are_named_on_stderr(tmp_path: Path) -> None:
    drive = eventful_night()
    data = json.loads(run("drive", "export", drive.slug))
    drive_delete(drive=drive)
    for entry in data["audit"]:
        if entry["user"] == "dan.rory":
            entry["user"] = "somebody.else"
    path = tmp_path / "x.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    _, err = run_both("drive", "restore", str(path))
    assert "somebody.else" in err
    assert AuditEntry.objects.filter(drive__slug=drive.slug, user=None, channel="desk").exists()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: d.update(format="other/9"), "format: expected"),
        (lambda d: d["drive"].pop("slug"), "drive.slug: missing"),
        (lambda d: d["drive"].update(games="many"), "drive.games"),
        (lambda d: d["couples"][0].update(players=["Solo"]), r"couples\[0\].players"),
        (lambda d: d["games"][0]["tables"][0].update(winner=99), r"games\[0\].tables\[0\].winner"),
        (
            lambda d: d["games"][1]["tables"][0].update(stays=d["games"][1]["tables"][1]["stays"]),
            "two tables",
        ),
        (lambda d: d["audit"][0].update(channel="pigeon"), r"audit\[0\].channel"),
        (lambda d: d["games"].pop(), "games: 5 games"),
        (lambda d: d["couples"][1].update(players=["Ann\x00", "Joe"]), "NUL"),
        (
            lambda d: d["couples"][1].update(players=["Ann", "Jo\udc00e"]),
            r"couples\[1\]\.players\[1\]: a text is not valid Unicode: a lone surrogate",
        ),
        (lambda d: d["drive"].update(club="Legion\ud83d"), r"drive\.club: .*lone surrogate"),
        (lambda d: d["audit"][0].update(note="\udfff"), r"audit\[0\]\.note: .*lone surrogate"),
        (
            lambda d: d["couples"][1].update(holes=10**6),
            r"couples\[1\].holes: 1000000 is out of range",
        ),
        (lambda d: d["closed_tables"].update({"9": "soon"}), "closed_tables.9"),
        (
            lambda d: d["closed_tables"].update({"nine": 2}),
            "closed_tables.nine: table number → first game with nobody there",
        ),
        (
            lambda d: d["games"][0]["tables"][1].update(points=[50, 40000]),
            r"games\[0\].tables\[1\].points\[1\]: 40000 is out of range: at most 32767\.$",
        ),
    ],
)
def test_a_bad_export_is_refused_with_the_place_named(tmp_path: Path, change, words: str) -> None:
    drive = eventful_night()
    data = json.loads(run("drive", "export", drive.slug))
    drive_delete(drive=drive)
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CommandError, match=words):
        run("drive", "restore", str(path))
    assert not Drive.objects.exists() and not ResultVersion.objects.exists()


@pytest.mark.parametrize(
    ("content", "words"),
    [(b"{not json", "Line 1, column 2: not JSON"), (b"[1]", "JSON object"), (b"\xff", "UTF-8")],
)
def test_unreadable_exports(tmp_path: Path, content: bytes, words: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(CommandError, match=words):
        run("drive", "restore", str(path))


@pytest.mark.parametrize(
    "content",
    [b"[" * 100_000 + b"]" * 100_000, b'{"drive":' * 100_000 + b"1" + b"}" * 100_000],
    ids=["lists", "objects"],
)
def test_an_export_nested_too_deep_is_refused_in_one_line(tmp_path: Path, content: bytes) -> None:
    """A file nested 100,000 deep is JSON Python cannot read (its parser recurses): refused
    like any file that is not an export, nothing written."""
    path = tmp_path / "deep.json"
    path.write_bytes(content)
    with pytest.raises(CommandError) as refused:
        run("drive", "restore", str(path))
    assert str(refused.value) == "The file is nested too deeply to be an export."
    assert not Drive.objects.exists() and not AuditEntry.objects.exists()


def test_export_of_an_unknown_slug_and_an_unwritable_output(tmp_path: Path, new_drive) -> None:
    with pytest.raises(CommandError, match="No drive"):
        run("drive", "export", "nope")
    slug = new_drive(2)
    with pytest.raises(CommandError, match="Cannot write"):
        run("drive", "export", slug, "--output", str(tmp_path / "no" / "such" / "dir.json"))


def prize_night() -> Drive:
    """A finished night with every kind of prize settled: place 1 three ways by a play-off
    (couple 3 has the bye), place 2 split, place 3 cut in two rounds, a booby tie still open,
    the jackpot shared, and the cookie jar drawn from a hat with one winner."""
    from scoring.models import Tie
    from scoring.prizes.services import (
        cookie_jar_draw,
        prizes_open_ties,
        tie_choose,
        tie_cut_record,
        tie_decide,
        tie_playoff_result,
    )
    from tests.prizes.helpers import night

    boss = Actor(user=UserFactory(username="maggie"), channel=AuditEntry.Channel.API)
    desk = Actor(channel=AuditEntry.Channel.DESK)
    top, two, three = set(range(1, 8)), {1, 2, 3, 4, 8}, {5, 6, 7, 8}
    drive = night(
        {1: top, 2: top, 3: top, 4: two, 5: two, 6: three, 7: three, 8: {8}, 9: {8}},
        games=8,
        cookie_jar=[4, 8],
        prizes={
            "prize_places": 3,
            "prizes": [{"amount": "60.00"}, {"amount": "25.01"}, {"description": "a ham"}],
            "booby": True,
            "booby_prize": {"description": "a wooden spoon"},
            "jackpot_threshold": 7,
            "jackpot_amount": "30.00",
            "cookie_jar": True,
            "cookie_jar_k": 2,
            "buy_in": "2.50",
        },
    )
    # the helper stores results directly, without a channel: as if entered at the desk
    ResultVersion.objects.filter(result__game__drive=drive).update(channel="desk")
    prizes_open_ties(drive=drive, actor=boss)
    ties = {t.key: t for t in Tie.objects.filter(drive=drive)}
    for couple in (1, 2, 3):
        tie_choose(tie=ties["place:1"], couple=couple, choice="play-off", actor=desk)
    tie_decide(tie=ties["place:1"], actor=boss)
    tie_playoff_result(tie=ties["place:1"], match=[1, 2], winner=2, points=[45, 15], actor=desk)
    tie_playoff_result(tie=ties["place:1"], match=[2, 3], winner=3, actor=boss)
    tie_choose(tie=ties["place:2"], couple=4, choice="split", actor=boss)
    tie_choose(tie=ties["place:2"], couple=5, choice="cut", actor=desk)
    tie_choose(tie=ties["place:2"], couple=5, choice="split", actor=desk)
    tie_decide(tie=ties["place:2"], actor=desk)
    for couple in (6, 7):
        tie_choose(tie=ties["place:3"], couple=couple, choice="cut", actor=desk)
    tie_decide(tie=ties["place:3"], actor=desk)
    tie_cut_record(tie=ties["place:3"], cards={6: "AS", 7: "AH"}, actor=desk)
    tie_cut_record(tie=ties["place:3"], cards={6: "9C", 7: "3D"}, actor=boss)
    tie_choose(tie=ties["booby"], couple=9, choice="cut", actor=desk)
    cookie_jar_draw(drive=drive, games=[8, 1], actor=boss)
    drive.refresh_from_db()
    return drive


def test_the_prizes_round_trip(tmp_path: Path) -> None:
    from scoring.models import Award, CookieJarDraw, CutCard, PlayoffMatch, Tie, TieChoice

    drive = prize_night()
    first = export(drive.slug, tmp_path / "first.json")
    assert first["prize_setup"]["places"][1]["amount"] == "25.01"
    assert [t["state"] for t in first["ties"]] == ["settled"] * 3 + ["open"]
    assert {a["how"] for a in first["awards"]} == {"play-off", "split", "cut", "direct"}
    assert [(c["round"], c["card"]) for c in first["ties"][2]["cut_cards"]] == [
        (1, "AS"),
        (1, "AH"),
        (2, "9C"),
        (2, "3D"),
    ]
    assert first["ties"][0]["matches"][0]["match"] == [1, 2]
    assert first["ties"][0]["matches"][1]["bye"] is True
    assert first["cookie_jar"]["winners"] == [4] and first["cookie_jar"]["pot"] == "5.00"
    counts = [m.objects.count() for m in (Tie, TieChoice, CutCard, PlayoffMatch, Award)]
    drive_delete(drive=drive)
    assert not Tie.objects.exists() and not CookieJarDraw.objects.exists()

    run("drive", "restore", str(tmp_path / "first.json"))
    second = export(drive.slug, tmp_path / "second.json")
    assert second["audit"].pop()["action"] == "drive.restore"
    assert second == first
    assert [m.objects.count() for m in (Tie, TieChoice, CutCard, PlayoffMatch, Award)] == counts
    assert Award.objects.filter(user__username="maggie").exists()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (
            lambda d: d["ties"][2]["cut_cards"][0].update(couple=1),
            r"ties\[2\].cut_cards\[0\].couple: 1 is not a couple of this drive",
        ),
        (
            lambda d: d["ties"][0]["choices"][0].update(couple=None),
            r"ties\[0\].choices\[0\].couple: Input should be a valid integer",
        ),
        (
            lambda d: d["awards"][0].update(tie="place:9"),
            r"awards\[0\].tie: 'place:9' is not a tie of this drive",
        ),
        (
            lambda d: d["prize_setup"]["places"][0].update(amount="60.005"),
            r"prize_setup.places\[0\].amount: '60.005' is not an amount to the cent",
        ),
        (
            lambda d: d["prize_setup"].update(cookie_jar=False),
            "cookie_jar.drawn: a draw, but the prize set-up has no cookie jar",
        ),
    ],
)
def test_a_bad_prize_in_an_export_is_refused(tmp_path: Path, change, words: str) -> None:
    drive = prize_night()
    data = json.loads(run("drive", "export", drive.slug))
    drive_delete(drive=drive)
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CommandError, match=words) as refused:
        run("drive", "restore", str(path))
    assert "\n" not in str(refused.value)
    assert not Drive.objects.exists()


def test_shares_one_prize_each_and_the_half_time_prize_round_trip(tmp_path: Path) -> None:
    from scoring.models import Award, PrizePlace, PrizeSetup, Tie
    from scoring.prizes.services import prize_setup_update, prizes_open_ties
    from tests.prizes.helpers import night

    desk = Actor(channel=AuditEntry.Channel.DESK)
    drive = night(
        {1: {1, 2, 3, 4}, 2: {1, 3, 4}, 3: {1, 4}, 4: {2}, 5: {2}, 6: {3}},
        games=4,
        entry_fee="10.00",
        entry_fee_per="couple",
    )
    ResultVersion.objects.filter(result__game__drive=drive).update(channel="desk")
    for couple in Couple.objects.filter(drive=drive):
        couple_update(couple=couple, actor=desk, paid=True)
    prize_setup_update(
        drive=drive,
        actor=desk,
        prize_places=2,
        prizes=[{"share_of": "entry", "percent": 30}, {"share_of": "pot", "percent": 15}],
        share_rounding="5.00",
        one_prize_per_couple=True,
        half_time={"after_game": 2, "description": "a pie"},
    )
    before = PrizePlace.objects.filter(drive=drive).count()
    prizes_open_ties(drive=drive, actor=desk)
    first = export(drive.slug, tmp_path / "first.json")
    setup = first["prize_setup"]
    assert [(p["share_of"], p["percent"], p["amount"]) for p in setup["places"]] == [
        ("entry", 30, "15.00"),  # 30 % of 60.00 is 18.00: 15.00 to the five dollars
        ("pot", 15, "5.00"),  # 15 % of 60.00 is 9.00
    ]
    assert setup["one_prize_per_couple"] is True and setup["share_rounding"] == "5.00"
    assert (setup["half_time_after"], setup["half_time_description"]) == (2, "a pie")
    # After game 2, with couples 1 and 2 placed, couples 3, 4 and 5 had one win each.
    assert [(t["key"], t["couples"]) for t in first["ties"]] == [("half-time", [3, 4, 5])]
    drive_delete(drive=drive)
    run("drive", "restore", str(tmp_path / "first.json"))
    second = export(drive.slug, tmp_path / "second.json")
    assert second["audit"].pop()["action"] == "drive.restore"
    assert second == first
    restored = PrizeSetup.objects.get(drive__slug=drive.slug)
    assert restored.one_prize_per_couple and restored.half_time_after == 2
    assert PrizePlace.objects.filter(drive__slug=drive.slug).count() == before
    assert Tie.objects.get(drive__slug=drive.slug).kind == "half-time"
    assert Award.objects.filter(drive__slug=drive.slug, kind="place").count() == 2
