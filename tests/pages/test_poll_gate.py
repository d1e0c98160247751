"""A phone's poll that finds nothing new is answered before Django, from what the serving
process learned when Django last answered that page (config/pollgate.py, drives/pageboard.py):
no query, no middleware. Every change of what the page shows makes the next poll Django's
(a 200 with the change, or the closed drive's 410); an empty board (a restart) and another
process's writes go to Django too.

The application is the hall's (Django's WSGI handler behind the gate), called as the server
calls it; real commits (``transaction=True``): the board forgets when a change commits."""

from __future__ import annotations

import contextlib
import io
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler

from config import pollgate
from drives.errors import Conflict
from drives.models import AuditEntry, Drive, Seat
from drives.pageboard import BOARD
from drives.services import Actor, couple_update, drive_close
from scoring.records.restore import drive_delete
from scoring.services import result_record, result_undo
from tests.pages.live_helpers import DESK, advance, night, people, play

pytestmark = pytest.mark.django_db(transaction=True)

TABLE = Actor(channel=AuditEntry.Channel.TABLE)


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes
    # Whether Django's application was called for it (the gate answers alone otherwise).
    django: bool


class Hall:
    """The hall's WSGI application: Django's handler behind the gate, Django's calls counted."""

    def __init__(self) -> None:
        self.django_calls = 0
        inner = WSGIHandler()

        def counted(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
            self.django_calls += 1
            return inner(environ, start_response)

        self.app = pollgate.poll_gate(counted)

    def get(self, path: str, etag: str | None = None, **headers: str) -> Answer:
        route, _sep, query = path.partition("?")
        environ = {
            "REQUEST_METHOD": "GET",
            "PATH_INFO": route,
            "QUERY_STRING": query,
            "SCRIPT_NAME": "",
            "SERVER_NAME": "localhost",
            "SERVER_PORT": "80",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "HTTP_HOST": headers.pop("host", "localhost"),
            "wsgi.input": io.BytesIO(b""),
            "wsgi.url_scheme": "http",
            "REMOTE_ADDR": "127.0.0.1",
            **({"HTTP_IF_NONE_MATCH": etag} if etag else {}),
            **{"HTTP_" + k.upper().replace("-", "_"): v for k, v in headers.items()},
        }
        got: list[Any] = []
        before = self.django_calls
        body: Iterable[bytes] = self.app(environ, lambda s, h, *a: got.append((s, h)))
        content = b"".join(body)
        status, pairs = got[0]
        return Answer(int(status[:3]), dict(pairs), content, self.django_calls > before)


@pytest.fixture
def hall() -> Iterator[Hall]:
    BOARD.forget_all()
    yield Hall()
    BOARD.serving = False
    BOARD.forget_all()


@pytest.fixture
def drive() -> Drive:
    return night(people().club, 8)


def table_url(drive: Drive, number: int) -> str:
    return f"/t/{drive.tables.get(number=number).token}/?partial=1"


def couple_url(drive: Drive, number: int) -> str:
    return f"/c/{drive.couples.get(number=number).token}/?partial=1"


def seat(drive: Drive, table: int) -> Seat:
    return Seat.objects.get(game__drive=drive, game__number=drive.current_game, table__number=table)


def shows(answer: Answer) -> str:
    found = re.search(rb'data-version="([^"]*)"', answer.body)
    assert found, answer.body[:200]
    return found.group(1).decode()


def test_an_unchanged_poll_is_answered_before_django_with_no_query(
    hall: Hall, drive: Drive, django_assert_num_queries
) -> None:
    for url in (table_url(drive, 1), couple_url(drive, 1)):
        first = hall.get(url, **{"Accept-Encoding": "gzip"})
        assert first.status == 200 and first.django
        etag = first.headers["ETag"]
        with django_assert_num_queries(0):
            again = hall.get(url, etag, **{"Accept-Encoding": "gzip"})
        assert again.status == 304 and not again.django, url
        assert again.body == b""
        # The very answer Django gives the same poll (its middleware's headers included).
        BOARD.forget_all()
        django = hall.get(url, etag, **{"Accept-Encoding": "gzip"})
        assert django.status == 304 and django.django
        assert again.headers == django.headers


def test_a_result_at_its_table_reaches_its_phones_and_no_other(hall: Hall, drive: Drive) -> None:
    urls = {
        "table 1": table_url(drive, 1),
        "its stays couple": couple_url(drive, seat(drive, 1).stays.number),
        "its arriving couple": couple_url(drive, seat(drive, 1).arrives.number),
        "table 2": table_url(drive, 2),
        "table 2's couple": couple_url(drive, seat(drive, 2).stays.number),
    }
    first = {name: hall.get(url) for name, url in urls.items()}
    for name, url in urls.items():
        assert not hall.get(url, first[name].headers["ETag"]).django, name
    result_record(drive=drive, game=1, table=1, winner=seat(drive, 1).stays.number, actor=DESK)
    for name, url in urls.items():
        again = hall.get(url, first[name].headers["ETag"])
        if name.startswith("table 2"):
            assert again.status == 304 and not again.django, f"{name}: not answered by the gate"
        else:
            assert again.status == 200, f"{name}: still 304"
            assert shows(again) != shows(first[name]), f"{name}: shows nothing new"


def _advance(drive: Drive) -> None:
    play(drive, 1)
    advance(drive, 1)


def _undo(drive: Drive) -> None:
    result_undo(drive=drive, game=1, table=1, actor=TABLE)


def _withdraw(drive: Drive) -> None:
    couple_update(couple=seat(drive, 1).stays, actor=DESK, withdrawn=True)


def _conflict(drive: Drive) -> None:
    # The result stored is read again without its seat: its keys are found after the commit.
    with pytest.raises(Conflict):
        result_record(
            drive=drive, game=1, table=1, winner=seat(drive, 1).arrives.number, actor=DESK
        )


CHANGES: dict[str, tuple[Callable[[Drive], Any], Callable[[Drive], Any] | None]] = {
    "conflict": (
        _conflict,
        lambda d: result_record(
            drive=d, game=1, table=1, winner=seat(d, 1).stays.number, actor=DESK
        ),
    ),
    "advance": (_advance, None),
    "undo": (
        _undo,
        lambda d: result_record(
            drive=d, game=1, table=1, winner=seat(d, 1).stays.number, actor=TABLE
        ),
    ),
    "withdrawal": (_withdraw, None),
    "close": (lambda d: drive_close(drive=d, actor=DESK), None),
}


@pytest.mark.parametrize("change", CHANGES)
def test_each_change_makes_the_next_poll_djangos(hall: Hall, drive: Drive, change: str) -> None:
    act, prepare = CHANGES[change]
    if prepare:
        prepare(drive)
    urls = [table_url(drive, 1), couple_url(drive, seat(drive, 1).stays.number)]
    first = {url: hall.get(url) for url in urls}
    for url in urls:
        assert not hall.get(url, first[url].headers["ETag"]).django
    act(drive)
    for url in urls:
        again = hall.get(url, first[url].headers["ETag"])
        assert again.django, f"{change}: {url} answered by the gate"
        if change == "close":
            assert again.status == 410
            # and it stays Django's: a closed drive's token is never answered 304 again
            assert hall.get(url, first[url].headers["ETag"]).status == 410
        else:
            assert again.status == 200, f"{change}: {url} still 304"
            assert again.headers["ETag"] != first[url].headers["ETag"]
            if change == "withdrawal":  # the table's game goes on; the couple's page says so
                assert url.startswith("/t/") or b"withdrawn" in again.body
            else:
                assert shows(again) != shows(first[url])


def test_a_deleted_drive_is_djangos_to_answer(hall: Hall, drive: Drive) -> None:
    urls = [table_url(drive, 1), couple_url(drive, 1)]
    etags = {url: hall.get(url).headers["ETag"] for url in urls}
    assert not any(hall.get(url, etags[url]).django for url in urls)
    drive_delete(drive=drive, actor=DESK)
    for url in urls:
        gone = hall.get(url, etags[url])
        assert (gone.status, gone.django) == (404, True), url


def test_an_empty_board_a_restart_goes_to_django_then_learns(hall: Hall, drive: Drive) -> None:
    url = couple_url(drive, 1)
    etag = hall.get(url).headers["ETag"]
    BOARD.forget_all()  # the server restarted: the phone still has its ETag
    again = hall.get(url, etag)
    assert (again.status, again.django) == (304, True)
    assert (hall.get(url, etag).status, hall.get(url, etag).django) == (304, False)
    # A change while the board was empty is Django's to answer.
    BOARD.forget_all()
    result_record(drive=drive, game=1, table=seat(drive, 1).table.number, winner=1, actor=DESK)
    answer = hall.get(url, etag)
    assert (answer.status, answer.django) == (200, True)


def test_a_key_read_before_a_change_is_not_taught_back(drive: Drive) -> None:
    BOARD.serving = True
    try:
        since = BOARD.epoch
        BOARD.forget_drive(drive.pk)  # a change committed while Django was reading
        BOARD.learn("table", "sometoken", "old key", drive.pk, 1, since)
        assert BOARD.key("table", "sometoken") is None
        BOARD.learn("table", "sometoken", "new key", drive.pk, 1, BOARD.epoch)
        assert BOARD.key("table", "sometoken") == "new key"
    finally:
        BOARD.serving = False
        BOARD.forget_all()


@contextlib.contextmanager
def another_process() -> Iterator[None]:
    """Writes as another process makes them (``fortyfives manage`` while the hall serves): it
    does not serve, and its forgetting cannot reach this process's board."""
    forget = BOARD.forget_cards, BOARD.forget_drive
    BOARD.serving = False
    BOARD.forget_cards = BOARD.forget_drive = lambda *args: None  # type: ignore[method-assign]
    try:
        yield
    finally:
        BOARD.forget_cards, BOARD.forget_drive = forget  # type: ignore[method-assign]
        BOARD.serving = True


def test_another_process_writing_makes_the_board_forget(
    hall: Hall, drive: Drive, tmp_path: Path, settings: Any
) -> None:
    settings.PAGE_BOARD_SIGNAL = str(tmp_path / "pages-changed")
    url = table_url(drive, 1)
    etag = hall.get(url).headers["ETag"]
    assert not hall.get(url, etag).django
    with another_process():
        result_record(drive=drive, game=1, table=1, winner=seat(drive, 1).stays.number, actor=DESK)
    marked = Path(settings.PAGE_BOARD_SIGNAL)
    assert marked.exists()
    again = hall.get(url, etag)
    assert again.status == 200
    # Twice within the clock's tick (a coarse file system's): the size tells.
    times = marked.stat().st_atime_ns, marked.stat().st_mtime_ns
    assert not hall.get(url, again.headers["ETag"]).django
    with another_process(), pytest.raises(Conflict):  # another winner, for the desk to settle
        result_record(
            drive=drive, game=1, table=1, winner=seat(drive, 1).arrives.number, actor=DESK
        )
    os.utime(marked, ns=times)
    assert hall.get(url, again.headers["ETag"]).status == 200


def test_the_undo_moment_passed_goes_to_django(
    hall: Hall, drive: Drive, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = table_url(drive, 1)
    result_record(drive=drive, game=1, table=1, winner=seat(drive, 1).stays.number, actor=TABLE)
    first = hall.get(url)
    etag = first.headers["ETag"]
    assert "~" in etag
    assert not hall.get(url, etag).django
    until = int(etag.strip('W/"').partition("~")[2])
    monkeypatch.setattr(pollgate.time, "time", lambda: until + 1.0)
    assert hall.get(url, etag).django


def test_what_the_gate_does_not_answer_goes_to_django(hall: Hall, drive: Drive) -> None:
    url = table_url(drive, 1)
    etag = hall.get(url).headers["ETag"]
    assert not hall.get(url, etag).django
    assert hall.get(url, etag, host="evil.example").status == 400
    assert hall.get(url.replace("?partial=1", ""), etag).django  # the whole page
    assert hall.get(url.replace("partial=1", "partial=0"), etag).django
    assert hall.get(url, etag, **{"If-Match": '"x"'}).django
    assert hall.get(url, 'W/"something else"').django
    assert settings.ALLOWED_HOSTS  # the host above was refused by Django's own check
