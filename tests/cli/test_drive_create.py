"""``manage.py drive create``: a drive and its couples from a CSV file, the slug alone on
stdout; a bad file leaves nothing behind and names its lines."""

import os

import pytest
from django.core.management.base import CommandError

from drives.models import AuditEntry, Club, Couple, Drive
from tests.cli.helpers import couples_csv, run

pytestmark = pytest.mark.django_db


def create(path: str, *extra: str) -> str:
    return run(
        "drive",
        "create",
        "--club",
        "St. Joseph's Parish",
        "--name",
        "Friday 45s",
        "--date",
        "2026-11-20",
        "--couples",
        path,
        *extra,
    )


def test_create_prints_the_slug_alone_and_numbers_couples_in_row_order(write) -> None:
    path = write(
        "couples.csv",
        "player1,player2\nMary MacNeil,Theresa MacNeil\nJoe Boudreau,Yvonne Boudreau\n",
    )
    out = create(path, "--venue", "Parish hall, Mabou")
    assert out == "friday-45s-2026-11-20\n"
    drive = Drive.objects.get(slug="friday-45s-2026-11-20")
    assert drive.club.name == "St. Joseph's Parish"
    assert (drive.games, drive.ruleset, drive.first_seating) == (25, "cape-breton-45", "by-number")
    assert drive.venue == "Parish hall, Mabou"
    assert [(c.number, c.player1) for c in drive.couples.all()] == [
        (1, "Mary MacNeil"),
        (2, "Joe Boudreau"),
    ]
    assert set(AuditEntry.objects.filter(drive=drive).values_list("channel", flat=True)) == {"cli"}


def test_create_takes_the_settings_and_reuses_the_club(write) -> None:
    path = write("couples.csv", couples_csv(6))
    first = create(path).strip()
    second = create(
        path, "--games", "12", "--ruleset", "irish-45-joker", "--seating", "shuffle", "--seed", "77"
    ).strip()
    assert first != second and second == "friday-45s-2026-11-20-2"
    drive = Drive.objects.get(slug=second)
    assert (drive.games, drive.ruleset, drive.first_seating, drive.seed) == (
        12,
        "irish-45-joker",
        "shuffle",
        77,
    )
    assert Club.objects.count() == 1


def test_flag_columns_are_read(write) -> None:
    path = write("couples.csv", "player1,player2,paid,cookie_jar\nA,B,yes,no\nC,D,no,yes\n")
    slug = create(path).strip()
    assert [(c.paid, c.cookie_jar) for c in Couple.objects.filter(drive__slug=slug)] == [
        (True, False),
        (False, True),
    ]


def test_a_bad_couples_file_names_its_lines_and_creates_nothing(write) -> None:
    path = write("couples.csv", "player1,player2\nA,B\nC\nE,F\n,G\n")
    with pytest.raises(CommandError) as info:
        create(path)
    message = str(info.value)
    assert "line 3" in message and "line 5" in message and "line 2" not in message
    assert "\n" not in message
    assert not Drive.objects.exists() and not Club.objects.exists()


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"name1,name2\nA,B\n", "header"),
        (b"player1,player2\nA,B\n\x81\x00,C\n", "UTF-8"),  # nor Windows-1252 text
        (b"", "empty"),
    ],
)
def test_unreadable_couples_files(write, content: bytes, words: str) -> None:
    with pytest.raises(CommandError, match=words):
        create(write("couples.csv", content))
    assert not Drive.objects.exists()


def test_bad_settings_and_missing_files_are_messages(write) -> None:
    path = write("couples.csv", couples_csv(4))
    with pytest.raises(CommandError, match="The date is a day written YYYY-MM-DD"):
        run(
            "drive",
            "create",
            "--club",
            "X",
            "--name",
            "N",
            "--date",
            "20/11/2026",
            "--couples",
            path,
        )
    with pytest.raises(CommandError, match="The games are a whole number from 1 to 60"):
        create(path, "--games", "0")
    with pytest.raises(CommandError, match="Cannot read"):
        create(path + ".missing")
    with pytest.raises(CommandError, match="The ruleset is one of"):
        create(path, "--ruleset", "snap")
    with pytest.raises(CommandError, match="The games are a whole number from 1 to 60"):
        create(path, "--games", "ten")
    assert not Drive.objects.exists()


@pytest.mark.parametrize("option", ["--club", "--name", "--venue"])
def test_text_a_terminal_could_not_decode_is_refused(write, option: str) -> None:
    # Python decodes command-line arguments with surrogateescape: a Latin-1 "é" typed in a
    # UTF-8 locale arrives as a lone surrogate, which no database can store.
    odd = os.fsdecode(b"Caf\xe9")
    assert odd == "Caf\udce9"
    args = {"--club": "St. Joseph's Parish", "--name": "Friday 45s", option: odd}
    with pytest.raises(CommandError, match=r"lone surrogate \(\\udce9\)"):
        run(
            "drive",
            "create",
            "--club",
            args["--club"],
            "--name",
            args["--name"],
            "--date",
            "2026-11-20",
            "--couples",
            write("couples.csv", couples_csv(4)),
            *(["--venue", odd] if option == "--venue" else []),
        )
    assert not Drive.objects.exists() and not Club.objects.exists()
