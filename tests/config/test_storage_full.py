"""A full disk (config/storage.py): a write that SQLite refuses with "database or disk is full"
(SQLITE_FULL) or PostgreSQL with DiskFull (SQLSTATE 53100) answers 503 ``storage_full`` in
words the organizer understands, as the API's error or as a page, never a traceback, with
nothing half-written; and the hall's /healthz says when its data folder runs short of space."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import psycopg.errors
import pytest
from django.db import OperationalError, connection
from django.test import Client, RequestFactory, override_settings
from django.utils import translation

from config.storage import server_error
from scoring.models import Result, ResultVersion
from tests.api.helpers import Api, make_club, make_drive
from tests.pages.live_helpers import logged_in, night, people

pytestmark = pytest.mark.django_db

SQLITE_FULL = OperationalError("database or disk is full")


def postgres_full() -> OperationalError:
    """What Django raises for PostgreSQL's DiskFull: its own error, psycopg's as the cause."""
    error = OperationalError("could not extend file: No space left on device")
    error.__cause__ = psycopg.errors.DiskFull("could not extend file: No space left on device")
    return error


def full_after_the_result(error: Exception, monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk fills up in the middle of the service's transaction: after the result and its
    version are written, at the audit entry."""

    def audit(*args: Any, **kwargs: Any) -> None:
        assert Result.objects.exists()  # written, and about to be rolled back
        raise error

    monkeypatch.setattr("scoring.services.audit", audit)


def test_the_api_answers_503_storage_full_and_nothing_is_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ours = make_club("St. Joseph's Parish", "ours")
    drive = make_drive(ours.club, 4, start=True)
    full_after_the_result(SQLITE_FULL, monkeypatch)
    answer = Api(Client()).put(
        f"drives/{drive.slug}/games/1/tables/1/result", {"winner": 2}, token=ours.org_token
    )
    assert answer.status_code == 503
    body = answer.json()
    assert body["code"] == "storage_full"
    assert body["message"].startswith("The laptop's disk is full: nothing was saved.")
    assert not Result.objects.exists() and not ResultVersion.objects.exists()


def test_on_postgresql_the_server_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    ours = make_club("St. Joseph's Parish", "ours")
    drive = make_drive(ours.club, 4, start=True)
    full_after_the_result(postgres_full(), monkeypatch)
    answer = Api(Client()).put(
        f"drives/{drive.slug}/games/1/tables/1/result", {"winner": 2}, token=ours.org_token
    )
    assert answer.status_code == 503
    assert answer.json()["code"] == "storage_full"
    assert answer.json()["message"].startswith("The database server's disk is full:")
    assert not Result.objects.exists()


def test_a_page_answers_503_with_the_words_and_the_desk_script_with_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ours = people("St. Joseph's Parish")
    drive = night(ours.club, 4)
    client = logged_in(ours.organizer)
    full_after_the_result(SQLITE_FULL, monkeypatch)
    entry = {"table": "1", "winner": "2", "game": "1"}
    page = client.post(f"/drives/{drive.slug}/desk/", entry)
    assert page.status_code == 503
    assert page["Content-Type"].startswith("text/html")
    words = page.content.decode()
    assert "The laptop&#x27;s disk is full: nothing was saved." in words
    assert "Traceback" not in words and "OperationalError" not in words
    script = client.post(f"/drives/{drive.slug}/desk/", entry, HTTP_ACCEPT="application/json")
    assert script.status_code == 503 and script.json()["code"] == "storage_full"
    assert not Result.objects.exists()


def test_other_database_errors_are_not_taken_for_a_full_disk(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ours = make_club("St. Joseph's Parish", "ours")
    drive = make_drive(ours.club, 4, start=True)
    full_after_the_result(OperationalError("no such table: drives_auditentry"), monkeypatch)
    with pytest.raises(OperationalError, match="no such table"):
        Api(Client()).put(
            f"drives/{drive.slug}/games/1/tables/1/result", {"winner": 2}, token=ours.org_token
        )


def sqlite_io_error() -> OperationalError:
    """What opening a connection on a filled laptop gave (PRAGMA journal_mode=WAL cannot make
    the -shm file): SQLite's I/O error, wrapped by Django."""
    cause = sqlite3.OperationalError("disk I/O error")
    cause.sqlite_errorcode = sqlite3.SQLITE_IOERR_SHMSIZE  # type: ignore[attr-defined]
    error = OperationalError("disk I/O error")
    error.__cause__ = cause
    return error


def free_space(megabytes: float) -> Any:
    def disk_usage(path: Any) -> Any:
        free = int(megabytes * 2**20)
        return shutil._ntuple_diskusage(100_000 * 2**20, 0, free)  # type: ignore[attr-defined]

    return disk_usage


@pytest.mark.parametrize(("free_mb", "status"), [(0.1, 503), (5000, None)])
def test_sqlites_io_error_on_a_disk_with_nothing_free_is_a_full_disk(
    monkeypatch: pytest.MonkeyPatch, free_mb: float, status: int | None
) -> None:
    """Seen on a filled laptop: the error came from opening the connection, when the desk's
    page asked who was logged in, before anything was written."""
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's own error")
    ours = people("St. Joseph's Parish")
    drive = night(ours.club, 4)
    client = logged_in(ours.organizer)
    full_after_the_result(sqlite_io_error(), monkeypatch)
    monkeypatch.setattr(shutil, "disk_usage", free_space(free_mb))
    entry = {"table": "1", "winner": "2", "game": "1"}
    if status is None:  # room on the disk: a real I/O error, Django's 500
        with pytest.raises(OperationalError, match="disk I/O error"):
            client.post(f"/drives/{drive.slug}/desk/", entry, HTTP_ACCEPT="application/json")
        return
    answer = client.post(f"/drives/{drive.slug}/desk/", entry, HTTP_ACCEPT="application/json")
    assert answer.status_code == 503 and answer.json()["code"] == "storage_full"


def test_the_page_asks_nothing_of_the_database(django_assert_num_queries: Any) -> None:
    """Its header does not ask who is logged in: the database may not even open."""

    class Unreadable:
        def __getattr__(self, name: str) -> Any:
            raise SQLITE_FULL

    request = RequestFactory().post("/drives/friday/desk/")
    request.user = Unreadable()  # type: ignore[assignment]
    request.session = Unreadable()  # type: ignore[assignment]
    with django_assert_num_queries(0):
        try:
            raise SQLITE_FULL
        except OperationalError:
            page = server_error(request)
    assert page.status_code == 503
    assert "The laptop&#x27;s disk is full" in page.content.decode()
    assert 'href="/static/css/site.css"' in page.content.decode()
    assert "what you typed was not stored" in page.content.decode()
    with translation.override("fr"):
        try:
            raise SQLITE_FULL
        except OperationalError:
            shown = server_error(RequestFactory().get("/drives/")).content.decode()
    assert 'lang="fr"' in shown and "Le disque du portable est plein" in shown
    assert "Rechargez cette page une fois la place libérée." in shown


def test_the_halls_healthz_reports_the_free_space_of_its_data_folder(
    client: Client, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    asked: list[str] = []

    def usage(free_mb: int) -> Any:
        def disk_usage(path: Any) -> Any:
            asked.append(str(path))
            return shutil._ntuple_diskusage(100_000 * 2**20, 0, free_mb * 2**20)  # type: ignore[attr-defined]

        return disk_usage

    with override_settings(HALL_DATA_DIR=tmp_path, CELERY_TASK_ALWAYS_EAGER=True):
        monkeypatch.setattr(shutil, "disk_usage", usage(5000))
        healthy = client.get("/healthz")
        assert healthy.status_code == 200
        assert healthy.json()["disk"] == "ok" and healthy.json()["disk_free_mb"] == 5000
        assert asked == [str(tmp_path)]
        monkeypatch.setattr(shutil, "disk_usage", usage(150))
        short = client.get("/healthz")
        assert short.status_code == 503
        assert short.json() | {"database": "ok"} == {
            "database": "ok",
            "broker": "eager",
            "cache": "local",
            "disk": "full",
            "disk_free_mb": 150,
            "status": "down",
        }
        with override_settings(HALL_DISK_MIN_FREE_MB=100):
            assert client.get("/healthz").json()["disk"] == "ok"
    # Elsewhere (no data folder of the hall's) the disk is the host's business: not reported.
    assert "disk" not in client.get("/healthz").json()


def test_after_the_view_django_s_500_handler_gives_the_same_answer() -> None:
    """A full disk met on the way out (a session saved by its middleware): handler500."""
    try:
        raise SQLITE_FULL
    except OperationalError:
        page = server_error(RequestFactory().get("/drives/"))
        api = server_error(RequestFactory().put("/api/v1/drives/x/games/1/tables/1/result"))
    assert page.status_code == 503 and b"The laptop&#x27;s disk is full" in page.content
    assert api.status_code == 503 and json.loads(api.content)["code"] == "storage_full"
    try:
        raise OperationalError("no such table: drives_auditentry")
    except OperationalError:
        other = server_error(RequestFactory().get("/drives/"))
    assert other.status_code == 500
