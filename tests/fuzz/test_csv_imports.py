"""CSV imports with bad files: the couples CSV (the service, the couples page's upload, the
API) and the results CSV (the service, ``manage.py drive import-results``). Malformed rows,
duplicates, oversized files, text that is not UTF-8, a byte-order mark, an empty file: each
gets a clear refusal naming the problem (and the line, where there is one), quickly and
without reading a huge file into memory, and nothing is written: every row or none.
"""

from __future__ import annotations

import codecs
import itertools
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management.base import CommandError
from django.test import Client
from hypothesis import event, given
from hypothesis import strategies as st

from drives.errors import ServiceError
from drives.models import Drive
from drives.names import couple_key
from drives.services import couples_import_csv, csv_max_bytes
from scoring.results_import import results_import_csv
from tests.api.helpers import Api
from tests.cli.helpers import run
from tests.fuzz.helpers import World, changed_tables, fuzzing, rolled_back, snapshot

pytestmark = pytest.mark.django_db

MB = 1_000_000
OVERSIZED = {
    "5 MB of one couple again and again": b"player1,player2\n" + b"Ann,Bob\n" * 625_000,
    "100k different couples": b"player1,player2\n"
    + b"".join(b"Player %d,Partner %d\n" % (i, i) for i in range(100_000)),
}
# Couples files and the code each must be refused with.
BAD_COUPLES: dict[str, tuple[bytes, str]] = {
    "empty": (b"", "empty_file"),
    "only a BOM": (codecs.BOM_UTF8, "empty_file"),
    "blank lines": (b"\n\n\n", "bad_header"),
    "header only": (b"player1,player2\n", "no_couples"),
    "wrong header": (b"name,partner\nAnn,Bob\n", "bad_header"),
    "repeated column": (b"player1,player2,paid,paid\nAnn,Bob,yes,no\n", "bad_header"),
    "one name": (b"player1,player2\nAnn,Bob\nCy\n", "bad_rows"),
    "three names": (b"player1,player2\nAnn,Bob,Cy\n", "bad_rows"),
    "blank name": (b"player1,player2\nAnn,  \n", "bad_rows"),
    "open quote": (b'player1,player2\nAnn,Bob\n"Cy,Di\n', "bad_rows"),
    "NUL": (b"player1,player2\nAnn,B\x00b\n", "bad_rows"),
    "only invisible characters": ("player1,player2\nAnn,\u200b\u2066\u2069\n".encode(), "bad_rows"),
    "long name": (b"player1,player2\nAnn," + b"B" * 81 + b"\n", "bad_rows"),
    "the same couple twice": (b"player1,player2\nAnn,Bob\nann ,BOB\n", "duplicate_couples"),
    "a couple already registered": (b"player1,player2\nAnn,Bob\nb2,A2\n", "duplicate_couples"),
    "a flag that is not yes or no": (b"player1,player2,paid\nAnn,Bob,maybe\n", "bad_rows"),
    "neither UTF-8 nor Windows-1252": (b"player1,player2\nAnn,B\x81b\n", "not_utf8"),
    "UTF-16 with a BOM": ("player1,player2\nThérèse,Zoë\n".encode("utf-16"), "not_utf8"),
    "binary garbage": (bytes(range(256)) * 4, "not_utf8"),
    "PNG": (b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "not_utf8"),
}
POOL = ["A1", "b1", " B1", "a2", "B2", "Zoë", "ZOE", "zoe  Aucoin", "Zoé Aucoin", "Ann"]
NAMES = ["Thérèse Aucoin", "Zoë O'Neil", 'Jean "Jack" Doucet', "Ève, Marie"]


def good_couples(bom: bool = False) -> bytes:
    """Three couples with accents, quotes and a comma in their names, all paid."""
    text = "player1,player2,paid\n" + "".join(
        '"{}","{}",yes\n'.format(a.replace('"', '""'), b.replace('"', '""'))
        for a, b in itertools.pairwise(NAMES)
    )
    return (codecs.BOM_UTF8 if bom else b"") + text.encode("utf-8")


# --- couples: the service ---------------------------------------------------------------------


@pytest.mark.parametrize("name", list(BAD_COUPLES))
def test_a_bad_couples_file_is_refused_by_name_and_imports_nothing(world: World, name: str) -> None:
    data, code = BAD_COUPLES[name]
    drive = world.drives["setup"]
    before = snapshot()
    with pytest.raises(ServiceError) as refused:
        couples_import_csv(drive=drive, data=data)
    assert refused.value.code == code, refused.value.to_dict()
    assert refused.value.message.strip()
    if code in ("bad_rows", "not_utf8", "duplicate_couples"):
        listed = refused.value.details.get("errors") or refused.value.details["duplicates"]
        lines = [e["line"] for e in listed]
        assert lines and all(f"ine {n}" in refused.value.message for n in lines[:3])
    assert not changed_tables(before, snapshot())


def test_bytes_that_are_not_utf8_are_read_as_windows_1252_never_as_a_surrogate(
    world: World,
) -> None:
    """A lone surrogate's UTF-8 bytes are no UTF-8: the file is read as Windows-1252, as
    Excel's plain "CSV" writes it, so the name keeps three ordinary characters instead."""
    data = b"player1,player2\nAnn,B\xed\xb0\x80b\nTh\xe9r\xe8se,Zo\xeb\n"
    created = couples_import_csv(drive=world.drives["setup"], data=data)
    assert [c.players for c in created] == [["Ann", "Bí°€b"], ["Thérèse", "Zoë"]]


def test_bad_lines_are_all_listed_with_their_numbers(world: World) -> None:
    data = b"player1,player2\nAnn,Bob\nCy\nDi,Ed\nDi,Ed\nFay,\n"
    with pytest.raises(ServiceError) as refused:
        couples_import_csv(drive=world.drives["setup"], data=data)
    assert [e["line"] for e in refused.value.details["errors"]] == [3, 6]
    # A couple listed twice is no bad line: once the others are fixed, it is named as such.
    with pytest.raises(ServiceError) as refused:
        couples_import_csv(drive=world.drives["setup"], data=b"player1,player2\nDi,Ed\nDi,Ed\n")
    assert refused.value.code == "duplicate_couples"
    assert "line 3: Di & Ed is the same couple as line 2" in refused.value.message


def test_a_utf8_file_with_or_without_a_bom_imports_the_names_as_written(world: World) -> None:
    drive = world.drives["setup"]
    for bom in (False, True):
        with rolled_back():
            created = couples_import_csv(drive=drive, data=good_couples(bom=bom))
            assert [c.players for c in created] == [[a, b] for a, b in itertools.pairwise(NAMES)]
            assert all(c.paid for c in created)


def test_windows_line_ends_and_a_last_line_without_an_end_are_fine(world: World) -> None:
    created = couples_import_csv(
        drive=world.drives["setup"], data=b"player1,player2\r\nAnn,Bob\r\nCy,Di"
    )
    assert [c.players for c in created] == [["Ann", "Bob"], ["Cy", "Di"]]


@pytest.mark.parametrize("name", list(OVERSIZED))
def test_an_oversized_couples_file_is_refused_naming_the_limit(world: World, name: str) -> None:
    before = snapshot()
    with pytest.raises(ServiceError) as refused:
        couples_import_csv(drive=world.drives["setup"], data=OVERSIZED[name])
    assert refused.value.code in ("file_too_large", "too_many_couples")
    assert f"{csv_max_bytes():,}" in refused.value.message or "2000" in refused.value.message
    assert not changed_tables(before, snapshot())


def test_the_size_limit_follows_the_settings(world: World, settings: Any) -> None:
    settings.CSV_MAX_BYTES = 40
    data = b"player1,player2\nAnn,Bob\nCy,Di\nEd,Fay\n"  # 38 bytes
    assert len(couples_import_csv(drive=world.drives["setup"], data=data)) == 3
    with pytest.raises(ServiceError) as refused:
        couples_import_csv(drive=world.drives["setup"], data=data + b"Gil,Hal\n")
    assert refused.value.code == "file_too_large"
    assert "40 bytes" in refused.value.message


@fuzzing(60)
@given(
    data=st.one_of(
        st.binary(max_size=200),
        st.lists(st.lists(st.text(max_size=12), max_size=4).map(",".join), max_size=8).map(
            lambda lines: ("player1,player2\n" + "\n".join(lines)).encode("utf-8", "replace")
        ),
        # Couples from a few names, some of them the setup drive's (A1 & B1 …), in other
        # cases, accents and spacing: files with couples already registered or listed twice.
        st.lists(st.tuples(st.sampled_from(POOL), st.sampled_from(POOL)), max_size=6).map(
            lambda pairs: ("player1,player2\n" + "".join(f"{a},{b}\n" for a, b in pairs)).encode()
        ),
    )
)
def test_any_bytes_are_imported_whole_or_refused_whole(world: World, data: bytes) -> None:
    """Imported whole, or refused whole: 422 for a bad file, 409 for a file whose couples are
    already registered or listed twice — which, duplicates allowed, is imported whole."""
    drive = world.drives["setup"]
    with rolled_back():
        registered = {couple_key(*c.players) for c in drive.couples.all()}
        before = len(registered)
        try:
            created = couples_import_csv(drive=drive, data=data)
        except ServiceError as error:
            assert drive.couples.count() == before
            assert error.message.strip()
            event(error.code)
            if error.code != "duplicate_couples":
                assert error.status == 422
                return
            assert error.status == 409
            listed = error.details["duplicates"]
            created = couples_import_csv(drive=drive, data=data, allow_duplicates=True)
            keys = [couple_key(*c.players) for c in created]
            repeated = [i for i, k in enumerate(keys) if k in registered or k in keys[:i]]
            assert [d["players"] for d in listed] == [created[i].players for i in repeated]
            assert listed
        else:
            keys = [couple_key(*c.players) for c in created]
            assert len(set(keys)) == len(keys) and not registered & set(keys)
        assert drive.couples.count() == before + len(created)


# --- couples: the page and the API ------------------------------------------------------------


def upload(world: World, data: bytes, name: str = "couples.csv") -> Any:
    client = Client()
    client.force_login(world.ours.organizer)
    file = SimpleUploadedFile(name, data, content_type="text/csv")
    return client.post(f"/drives/{world.slug('setup')}/couples/import", {"file": file})


@pytest.mark.parametrize(
    "name", ["neither UTF-8 nor Windows-1252", "UTF-16 with a BOM", "the same couple twice", "NUL"]
)
def test_the_page_lists_what_is_wrong_and_imports_nothing(world: World, name: str) -> None:
    before = snapshot()
    response = upload(world, BAD_COUPLES[name][0])
    assert response.status_code == 422
    assert response.context["form"].non_field_errors()
    assert not changed_tables(before, snapshot())


def test_the_page_refuses_an_empty_upload(world: World) -> None:
    response = upload(world, b"")
    assert response.status_code == 422
    assert "file" in response.context["form"].errors  # Django: "The submitted file is empty."


@pytest.mark.parametrize("name", list(OVERSIZED))
def test_the_page_refuses_an_oversized_file_naming_the_limit(world: World, name: str) -> None:
    before = snapshot()
    response = upload(world, OVERSIZED[name])
    assert response.status_code == 422
    errors = " ".join(response.context["form"].non_field_errors())
    assert f"{csv_max_bytes():,} bytes" in errors or "2000 couples" in errors, errors
    assert not changed_tables(before, snapshot())


def test_the_page_imports_a_file_with_a_bom(world: World) -> None:
    response = upload(world, good_couples(bom=True))
    assert response.status_code == 302
    assert [c.player1 for c in world.drives["setup"].couples.order_by("number")][-3:] == NAMES[:3]


def test_the_api_refuses_an_oversized_body_with_413(api: Api, world: World) -> None:
    data = OVERSIZED["5 MB of one couple again and again"]
    answer = api.post(
        f"drives/{world.slug('setup')}/couples/import",
        raw=data,
        content_type="text/csv",
        token=world.ours.org_token,
    )
    assert answer.status_code == 413
    assert answer.json()["code"] == "body_too_large"
    assert "1,000,000 bytes" in answer.json()["message"]


@pytest.mark.parametrize(
    "name", ["neither UTF-8 nor Windows-1252", "UTF-16 with a BOM", "binary garbage", "open quote"]
)
def test_the_api_names_the_bad_lines(api: Api, world: World, name: str) -> None:
    data, code = BAD_COUPLES[name]
    before = snapshot()
    answer = api.post(
        f"drives/{world.slug('setup')}/couples/import",
        raw=data,
        content_type="text/csv",
        token=world.ours.org_token,
    )
    assert answer.status_code == 422
    assert answer.json()["code"] == code
    assert answer.json()["errors"][0]["line"] >= 1
    assert not changed_tables(before, snapshot())


# --- results ----------------------------------------------------------------------------------

BAD_RESULTS: dict[str, tuple[bytes, str]] = {
    "empty": (b"", "empty_file"),
    "header only": (b"game,table,winner\n", "no_rows"),
    "wrong header": (b"round,table,winner\n1,1,1\n", "bad_rows"),
    "not a number": (b"game,table,winner\n1,one,2\n", "bad_rows"),
    "a digit int() refuses": ("game,table,winner\n1,²,2\n".encode(), "bad_rows"),
    "huge number": (b"game,table,winner\n1,1," + b"9" * 40 + b"\n", "bad_rows"),
    "bad points": (b"game,table,winner,points\n1,1,1,fifty\n", "bad_rows"),
    "two results for one table": (b"game,table,winner\n1,1,1\n1,1,2\n", "bad_rows"),
    "latin-1": ("game,table,winner\n1,1,1 é\n".encode("latin-1"), "bad_rows"),
    "UTF-16": ("game,table,winner\n1,1,1\n".encode("utf-16"), "bad_rows"),
    "binary": (bytes(range(256)), "bad_rows"),
    "a game past the last": (b"game,table,winner\n1,1,1\n99,1,1\n", "bad_rows"),
    "a table nobody plays at": (b"game,table,winner\n1,1,1\n1,2,3\n1,60,1\n", "bad_rows"),
    "a couple not at that table": (b"game,table,winner\n1,1,1\n1,2,1\n", "bad_rows"),
}


@pytest.mark.parametrize("name", list(BAD_RESULTS))
def test_a_bad_results_file_is_refused_by_name_and_enters_nothing(world: World, name: str) -> None:
    data, code = BAD_RESULTS[name]
    drive = world.drives["setup"]
    before = snapshot()
    with pytest.raises(ServiceError) as refused:
        results_import_csv(drive=drive, data=data)
    assert refused.value.code == code, refused.value.to_dict()
    assert refused.value.message.strip()
    assert not changed_tables(before, snapshot()), "the night must not even have started"
    drive.refresh_from_db()
    assert drive.state == Drive.State.SETUP


def test_a_bad_row_in_a_later_game_rolls_back_the_games_before_it(world: World) -> None:
    drive = world.drives["setup"]  # 4 couples: 1 v 2 and 3 v 4 in game 1
    data = b"game,table,winner\n1,1,1\n1,2,3\n2,1,7\n"
    before = snapshot()
    with pytest.raises(ServiceError) as refused:
        results_import_csv(drive=drive, data=data)
    assert [e["line"] for e in refused.value.details["errors"]] == [4]
    assert not changed_tables(before, snapshot())


def test_a_results_file_with_a_bom_is_read(world: World) -> None:
    drive = world.drives["setup"]
    report = results_import_csv(
        drive=drive, data=codecs.BOM_UTF8 + b"game,table,winner,points\r\n1,1,1,50-40\r\n1,2,3,"
    )
    assert (report.rows, report.recorded, report.current_game) == (2, 2, 2)


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(
            b"game,table,winner\n" + b"".join(b"1,%d,1\n" % t for t in range(1, 100_001)),
            id="100k tables",
        ),
        pytest.param(
            b"game,table,winner\n" + b"".join(b"1,%d,1\n" % t for t in range(1, 59_000)),
            id="59k tables (under the size limit)",
        ),
        pytest.param(b"game,table,winner\n" + b"1,1,1\n" * 900_000, id="5 MB"),
    ],
)
def test_an_oversized_results_file_is_refused_quickly(
    world: World, data: bytes, django_assert_max_num_queries: Any
) -> None:
    """Refused before any row is entered: a handful of queries, not one per row."""
    before = snapshot()
    with pytest.raises(ServiceError) as refused, django_assert_max_num_queries(10):
        results_import_csv(drive=world.drives["setup"], data=data)
    assert refused.value.code in ("file_too_large", "too_many_rows", "bad_rows")
    if refused.value.code == "file_too_large":
        assert f"{csv_max_bytes():,} bytes" in refused.value.message
    assert not changed_tables(before, snapshot())


def test_copies_of_one_row_enter_it_once(world: World) -> None:
    data = b"game,table,winner\n" + b"1,1,1\n" * 150_000
    report = results_import_csv(drive=world.drives["setup"], data=data)
    assert (report.rows, report.recorded) == (1, 1)


def test_the_command_refuses_an_oversized_file_naming_the_limit(
    world: World, tmp_path: Path
) -> None:
    path = tmp_path / "results.csv"
    path.write_bytes(b"game,table,winner\n" + b"1,1,1\n" * 900_000)
    with pytest.raises(CommandError, match=f"larger than {csv_max_bytes():,} bytes"):
        run("drive", "import-results", world.slug("setup"), str(path))


@pytest.mark.parametrize("name", ["latin-1", "UTF-16", "a table nobody plays at", "empty"])
def test_the_command_names_the_problem_and_enters_nothing(
    world: World, tmp_path: Path, name: str
) -> None:
    path = tmp_path / "results.csv"
    path.write_bytes(BAD_RESULTS[name][0])
    before = snapshot()
    with pytest.raises(CommandError) as refused:
        run("drive", "import-results", world.slug("setup"), str(path))
    assert str(refused.value).strip()
    assert "Traceback" not in str(refused.value)
    assert not changed_tables(before, snapshot())
