"""``manage.py drive import-couples``: more couples from a CSV file, all or nothing; couples
already registered (or listed twice) refuse the file, naming them, unless
``--allow-duplicates``. ``drive create`` refuses a file listing a couple twice the same way."""

import pytest
from django.core.management.base import CommandError

from drives.models import AuditEntry, Couple, Drive
from tests.cli.helpers import run

pytestmark = pytest.mark.django_db

COUPLES = "player1,player2\nMary MacDonald,Angus MacDonald\nFlora Gillis,Dan Gillis\n"


def test_import_couples_numbers_them_after_the_others(new_drive, write) -> None:
    slug = new_drive(2)
    out = run("drive", "import-couples", slug, write("more.csv", COUPLES))
    assert out == "2 couples registered: numbers 3 to 4. Columns separated by commas.\n"
    assert [c.player1 for c in Couple.objects.filter(drive__slug=slug)][2:] == [
        "Mary MacDonald",
        "Flora Gillis",
    ]
    assert AuditEntry.objects.filter(action="couples.register").latest("pk").channel == "cli"


def test_importing_the_same_file_again_is_refused_with_the_list(new_drive, write) -> None:
    slug = new_drive(2)
    path = write("more.csv", COUPLES)
    run("drive", "import-couples", slug, path)
    with pytest.raises(CommandError) as refused:
        run("drive", "import-couples", slug, path)
    message = str(refused.value)
    assert "line 2: Mary MacDonald & Angus MacDonald is already couple 3" in message
    assert "line 3: Flora Gillis & Dan Gillis is already couple 4" in message
    assert "--allow-duplicates" in message and "\n" not in message
    assert Couple.objects.filter(drive__slug=slug).count() == 4


def test_with_allow_duplicates_the_couples_are_registered_again(new_drive, write) -> None:
    slug = new_drive(1)
    path = write("more.csv", COUPLES)
    run("drive", "import-couples", slug, path)
    out = run("drive", "import-couples", slug, path, "--allow-duplicates")
    assert out == "2 couples registered: numbers 4 to 5. Columns separated by commas.\n"
    assert Couple.objects.filter(drive__slug=slug).count() == 5
    entry = AuditEntry.objects.filter(action="couples.register").latest("pk")
    assert "duplicates allowed: line 2: Mary MacDonald & Angus MacDonald" in entry.note


def test_create_refuses_a_couple_listed_twice_unless_allowed(write) -> None:
    path = write("couples.csv", COUPLES + "dan gillis,Flora  Gillis\n")
    args = [
        "drive",
        "create",
        "--club",
        "Legion Branch 12",
        "--name",
        "Friday 45s",
        "--date",
        "2026-11-20",
        "--couples",
        path,
    ]
    with pytest.raises(CommandError, match="line 4: dan gillis & Flora Gillis is the same couple"):
        run(*args)
    assert not Drive.objects.exists()
    slug = run(*args, "--allow-duplicates").strip()
    assert Couple.objects.filter(drive__slug=slug).count() == 3


def test_import_couples_names_an_unknown_drive_and_a_bad_file(new_drive, write) -> None:
    with pytest.raises(CommandError, match="No drive with the slug"):
        run("drive", "import-couples", "nowhere", write("more.csv", COUPLES))
    slug = new_drive(1)
    with pytest.raises(CommandError, match="line 3"):
        run("drive", "import-couples", slug, write("bad.csv", "player1,player2\nA,B\nC\n"))
    assert Couple.objects.filter(drive__slug=slug).count() == 1


def test_import_couples_reads_semicolons_and_windows_1252_and_says_so(new_drive, write) -> None:
    slug = new_drive(1)
    data = "player1;player2\nThérèse Aucoin;Zoë Aucoin\n".encode("cp1252")
    out = run("drive", "import-couples", slug, write("plus.csv", data))
    assert out.startswith("1 couples registered: numbers 2 to 2. Columns separated by semicolons.")
    assert "read as Windows-1252" in out
    assert Couple.objects.get(drive__slug=slug, number=2).players == [
        "Thérèse Aucoin",
        "Zoë Aucoin",
    ]
