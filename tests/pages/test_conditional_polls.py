"""The polled fragments answer a poll that brings back their ETag with 304 Not Modified, in one
or a few queries, until something they show changes (scoring/pages/conditional.py): then the
next poll is a 200 with the change. The version lives in the database (drives.DriveVersion),
so a change made by another worker is seen as well."""

from __future__ import annotations

import gzip
import io
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.urls import Resolver404, resolve, reverse
from django.utils import timezone

from drives.errors import Conflict
from drives.models import AuditEntry, Couple, Drive, DriveVersion, Seat
from drives.services import (
    Actor,
    couple_delete,
    couple_update,
    couples_register,
    drive_changed,
    drive_close,
    drive_update,
)
from scoring.pages import conditional
from scoring.prizes.services import cookie_jar_draw, prize_setup_update, prizes_open_ties
from scoring.results_import import results_import_csv
from scoring.services import result_confirm, result_record, result_resolve, result_undo
from scoring.simulation import game_simulate
from tests.pages.live_helpers import DESK, advance, logged_in, night, people, play, text

pytestmark = pytest.mark.django_db

TABLE = Actor(channel=AuditEntry.Channel.TABLE)
PAGES = ("desk", "table", "couple", "projector", "projector-standings", "projector-prizes")


@dataclass
class Night:
    drive: Drive
    organizer: Client
    urls: dict[str, str] = field(default_factory=dict)

    def couple(self, number: int) -> Couple:
        return self.drive.couples.get(number=number)

    def url(self, page: str) -> str:
        if page not in self.urls:
            self.urls[page] = self._url(page)
        return self.urls[page]

    def _url(self, page: str) -> str:
        slug = self.drive.slug
        if page == "desk":
            return reverse("night:desk", args=[slug]) + "?partial=grid"
        if page == "table":
            token = self.drive.tables.get(number=1).token
            return reverse("night:table", args=[token]) + "?partial=1"
        if page == "couple":
            return reverse("night:couple", args=[self.couple(1).token]) + "?partial=1"
        show = page.partition("-")[2]
        return (
            reverse("night:projector", args=[slug]) + "?partial=1" + (f"&show={show}" * bool(show))
        )

    def client(self, page: str) -> Client:
        return self.organizer if page in ("desk",) or page.startswith("projector") else Client()

    def poll(self, page: str, etag: str | None = None) -> Any:
        headers = {"If-None-Match": etag} if etag else {}
        return self.client(page).get(self.url(page), headers=headers)


def make_night(couples: int = 8, *, start: bool = True, **settings: Any) -> Night:
    ours = people()
    drive = night(ours.club, couples, start=start, **settings)
    return Night(drive, logged_in(ours.organizer))


@pytest.fixture
def n() -> Night:
    return make_night()


# --- (a) nothing changed: 304, no body, a few queries -------------------------------------------

# What a 304 costs: one query for a phone's page (the card's token with its drive's language,
# state and structure, and the latest change of the card's own results, before the card is
# read); for the members' pages the session, the user, and the drive with its club, its
# version and the user's role (one query).
QUERIES_304 = {
    "desk": 3,
    "table": 1,
    "couple": 1,
    "projector": 3,
    "projector-standings": 3,
    "projector-prizes": 3,
}


@pytest.mark.parametrize("page", PAGES)
def test_a_poll_that_finds_nothing_new_is_a_304(
    n: Night, page: str, django_assert_num_queries
) -> None:
    play(n.drive, 1, skip=(2,))
    first = n.poll(page)
    assert first.status_code == 200
    etag = first["ETag"]
    assert etag.startswith('W/"') and etag.endswith('"')
    assert "no-cache" in first["Cache-Control"] and "private" in first["Cache-Control"]
    with django_assert_num_queries(QUERIES_304[page]):
        again = n.poll(page, etag)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    # Without the ETag (a page just opened), the fragment as before.
    plain = n.poll(page)
    assert plain.status_code == 200 and plain["ETag"] == etag


def test_another_pages_etag_is_no_match(n: Night) -> None:
    desk = n.poll("desk")["ETag"]
    assert n.poll("projector", desk).status_code == 200
    assert n.poll("projector-standings", n.poll("projector")["ETag"]).status_code == 200
    # Another card of the same night.
    table = n.poll("table")["ETag"]
    other = reverse("night:table", args=[n.drive.tables.get(number=2).token]) + "?partial=1"
    assert Client().get(other, headers={"If-None-Match": table}).status_code == 200


def test_the_language_and_the_user_are_part_of_it(n: Night) -> None:
    english = n.poll("couple")
    # A couple's page speaks the drive's language (the hall's), whatever the phone's: a
    # French phone's poll is the same page, so the same ETag.
    french = Client().get(
        n.url("couple"), headers={"If-None-Match": english["ETag"], "Accept-Language": "fr"}
    )
    assert french.status_code == 304
    # The drive's language changed: another page, another ETag.
    drive_update(drive=n.drive, actor=DESK, language="fr")
    changed = Client().get(n.url("couple"), headers={"If-None-Match": english["ETag"]})
    assert changed.status_code == 200 and changed["ETag"] != english["ETag"]
    assert "à jouer" in changed.content.decode()  # the punch card's games to play
    # The desk follows its reader's language: French and English are two pages.
    desk = n.poll("desk")
    french_desk = n.organizer.get(
        n.url("desk"), headers={"If-None-Match": desk["ETag"], "Accept-Language": "fr"}
    )
    assert french_desk.status_code == 200 and french_desk["ETag"] != desk["ETag"]
    desk = n.poll("desk")["ETag"]
    scorer = people()
    assert desk  # another club's scorer is refused before any ETag is compared
    assert (
        logged_in(scorer.scorer).get(n.url("desk"), headers={"If-None-Match": desk}).status_code
        == 404
    )


def test_full_pages_and_posts_are_never_304(n: Night) -> None:
    etag = n.poll("table")["ETag"]
    page = reverse("night:table", args=[n.drive.tables.get(number=1).token])
    assert Client().get(page, headers={"If-None-Match": etag}).status_code == 200
    posted = Client().post(
        page, {"game": "1", "winner": "1", "key": "k1"}, headers={"If-None-Match": etag}
    )
    assert posted.status_code == 201


# --- (b) every kind of change makes the next poll a 200 -----------------------------------------


def _enter(n: Night, table: int = 1, winner: int | None = None, actor: Actor = DESK) -> None:
    seat = Seat.objects.get(
        game__drive=n.drive, game__number=n.drive.current_game, table__number=table
    )
    winner = winner if winner is not None else seat.stays.number
    result_record(drive=n.drive, game=n.drive.current_game, table=table, winner=winner, actor=actor)


def _conflict(n: Night) -> None:
    _enter(n, winner=1)
    with pytest.raises(Conflict):
        _enter(n, winner=2)


def _confirm_setup(n: Night) -> None:
    drive_update(drive=n.drive, actor=DESK, confirm_by_other_couple=True)
    n.drive.refresh_from_db()
    _enter(n, winner=1, actor=TABLE)


def _csv(n: Night) -> None:
    results_import_csv(drive=n.drive, data=b"game,table,winner\n1,1,1\n")


def _next_game(n: Night) -> None:
    play(n.drive, 1)
    advance(n.drive, 1)


def _jar(n: Night) -> None:
    prize_setup_update(drive=n.drive, actor=DESK, cookie_jar=True, cookie_jar_k=1, buy_in=2)
    couple_update(couple=n.couple(1), actor=DESK, cookie_jar=True)
    _last_game(n)


def _last_game(n: Night) -> None:
    play(n.drive, 1)
    advance(n.drive, 1)
    play(n.drive, 2)


@dataclass
class Change:
    name: str
    act: Callable[[Night], Any]
    prepare: Callable[[Night], Any] = lambda n: None
    shows: tuple[str, str] | None = None  # a page, and what it shows after the change
    settings: dict[str, Any] | None = None
    start: bool = True


CHANGES = [
    Change(
        "result entered",
        lambda n: _enter(n, winner=1),
        shows=("table", 'data-testid="table-result"'),
    ),
    Change(
        "result entered from a table",
        lambda n: _enter(n, winner=2, actor=TABLE),
        shows=("couple", "Couple 2 won"),
    ),
    Change(
        "result confirmed",
        lambda n: result_confirm(
            drive=n.drive,
            couple=n.couple(2),
            game=1,
            accept=True,
            actor=Actor(channel=AuditEntry.Channel.COUPLE, couple=n.couple(2)),
        ),
        prepare=_confirm_setup,
        shows=("table", "Saved ✓"),
    ),
    Change(
        "result undone",
        lambda n: result_undo(drive=n.drive, game=1, table=1, actor=TABLE),
        prepare=lambda n: _enter(n, winner=1, actor=TABLE),
        shows=("table", "Who won?"),
    ),
    Change(
        "conflict resolved",
        lambda n: result_resolve(
            drive=n.drive, game=1, table=1, winner=2, reason="asked them", actor=DESK
        ),
        prepare=lambda n: _conflict(n),
        shows=("table", "Couple 2 won"),
    ),
    Change(
        "result corrected",
        lambda n: result_resolve(
            drive=n.drive, game=1, table=1, winner=2, reason="wrong tap", actor=DESK
        ),
        prepare=lambda n: _enter(n, winner=1),
        shows=("couple", "Couple 2 won"),
    ),
    Change(
        "advance",
        lambda n: advance(n.drive, 1),
        prepare=lambda n: play(n.drive, 1),
        shows=("couple", "Game <strong>2</strong>"),
    ),
    Change("check-in", lambda n: couple_update(couple=n.couple(3), actor=DESK, checked_in=False)),
    Change("paid", lambda n: couple_update(couple=n.couple(3), actor=DESK, paid=True)),
    Change("cookie jar", lambda n: couple_update(couple=n.couple(3), actor=DESK, cookie_jar=True)),
    Change(
        "late arrival",
        lambda n: couples_register(
            drive=n.drive, couples=[{"players": ["Late", "Comer"]}], actor=DESK
        ),
    ),
    Change(
        "withdrawal",
        lambda n: couple_update(couple=n.couple(1), actor=DESK, withdrawn=True),
        prepare=lambda n: _next_game(n),
        shows=("couple", "withdrawn"),
    ),
    Change(
        "name edit",
        lambda n: couple_update(couple=n.couple(2), actor=DESK, player1="Zébulon"),
        shows=("couple", "Zébulon"),
    ),
    Change("couple deleted", lambda n: couple_delete(couple=n.couple(8), actor=DESK), start=False),
    Change(
        "prize set-up",
        lambda n: prize_setup_update(drive=n.drive, actor=DESK, prize_places=2),
        settings={"games": 2},
        prepare=_last_game,
    ),
    Change(
        "ties opened and prizes awarded",
        lambda n: prizes_open_ties(drive=n.drive, actor=DESK),
        settings={"games": 2},
        prepare=_last_game,
    ),
    Change(
        "cookie jar drawn",
        lambda n: cookie_jar_draw(drive=n.drive, games=[1], actor=DESK),
        settings={"games": 2},
        prepare=lambda n: _jar(n),
    ),
    Change("published", lambda n: drive_update(drive=n.drive, actor=DESK, published=True)),
    Change(
        "settings", lambda n: drive_update(drive=n.drive, actor=DESK, scorers_may_advance=False)
    ),
    Change("results imported", _csv),
    Change("simulated", lambda n: game_simulate(drive=n.drive, game=1, seed=7)),
]


@pytest.mark.parametrize("change", CHANGES, ids=[c.name for c in CHANGES])
def test_each_change_makes_the_next_poll_a_200(change: Change) -> None:
    n = make_night(start=change.start, **(change.settings or {}))
    change.prepare(n)
    n.drive.refresh_from_db()
    pages = [p for p in PAGES if change.start or p not in ("table",)]
    before = {page: n.poll(page) for page in pages}
    for page, response in before.items():
        assert response.status_code == 200, page
        assert n.poll(page, response["ETag"]).status_code == 304, page
    change.act(n)
    n.drive.refresh_from_db()
    for page in pages:
        after = n.poll(page, before[page]["ETag"])
        assert after.status_code == 200, f"{change.name}: {page} still 304"
        assert after["ETag"] != before[page]["ETag"]
    if change.shows:
        page, words = change.shows
        assert words not in text(before[page]), "the change is shown already"
        assert words in text(n.poll(page, before[page]["ETag"]))


def test_the_close_ends_the_polls(n: Night) -> None:
    etags = {page: n.poll(page)["ETag"] for page in PAGES}
    drive_close(drive=n.drive, actor=DESK)
    for page in PAGES:
        expected = 410 if page in ("table", "couple") else 200
        assert n.poll(page, etags[page]).status_code == expected, page


def test_the_undo_window_ends_the_table_pages_etag(n: Night, monkeypatch) -> None:
    _enter(n, winner=1, actor=TABLE)
    first = n.poll("table")
    assert 'data-testid="undo"' in text(first)
    etag = first["ETag"]
    assert "~" in etag
    assert n.poll("table", etag).status_code == 304
    # The minute passes: nothing changed in the database, but the Undo is gone.
    later = timezone.now() + timedelta(minutes=5)
    monkeypatch.setattr(conditional.time, "time", lambda: later.timestamp())
    monkeypatch.setattr(timezone, "now", lambda: later)
    after = n.poll("table", etag)
    assert after.status_code == 200
    assert 'data-testid="undo"' not in text(after) and "~" not in after["ETag"]
    assert n.poll("table", after["ETag"]).status_code == 304


@pytest.mark.parametrize("until", ["9" * 5000, "\u00b2"], ids=["5000-digits", "superscript"])
def test_a_malformed_moment_in_an_etag_is_no_match(n: Night, until: str) -> None:
    """A tag whose moment has thousands of digits (more than int() reads) or is a digit int()
    does not know: not a match, the page as usual (never a 500)."""
    for page in ("table", "desk"):
        key = n.poll(page)["ETag"].removeprefix('W/"').removesuffix('"').partition("~")[0]
        forged = f'W/"{key}~{until}"'
        answer = n.poll(page, forged.encode("utf-8").decode("latin-1"))
        assert answer.status_code == 200, page
        assert answer.content


def test_a_restore_serves_the_new_drive(n: Night, tmp_path) -> None:
    etag = n.poll("desk")["ETag"]
    export = tmp_path / "night.json"
    call_command("drive", "export", n.drive.slug, "--output", str(export), stdout=io.StringIO())
    call_command("drive", "restore", str(export), "--replace", stdout=io.StringIO())
    assert n.poll("desk", etag).status_code == 200


# --- (c) the version is in the database: another worker's change is seen ------------------------


@pytest.mark.parametrize(("column", "page"), [("version", "desk"), ("structure", "couple")])
def test_the_version_is_read_from_the_database(n: Night, column: str, page: str) -> None:
    etag = n.poll(page)["ETag"]
    before = getattr(DriveVersion.objects.get(drive=n.drive), column)
    # Another worker's change, through its own statement: nothing in this process is told.
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {DriveVersion._meta.db_table} SET {column} = {column} + 1 WHERE drive_id = %s",
            [n.drive.pk],
        )
    assert getattr(DriveVersion.objects.get(drive=n.drive), column) == before + 1
    assert n.poll(page, etag).status_code == 200


def test_every_audited_change_bumps_it_once(n: Night) -> None:
    def versions() -> tuple[int, int]:
        row = DriveVersion.objects.get(drive=n.drive)
        return row.version, row.structure

    version, structure = versions()
    _enter(n, winner=1)
    # A table's result: the drive's version, not its structure.
    assert versions() == (version + 1, structure)
    couple_update(couple=n.couple(3), actor=DESK, paid=True)
    assert versions() == (version + 2, structure + 1)
    drive_changed(n.drive.pk)
    assert versions() == (version + 3, structure + 2)


# --- (d) a result at one table: the other tables' and couples' phones stay at 304 ---------------


def _card(n: Night, kind: str, number: int) -> str:
    if kind == "table":
        token = n.drive.tables.get(number=number).token
        return reverse("night:table", args=[token]) + "?partial=1"
    return reverse("night:couple", args=[n.couple(number).token]) + "?partial=1"


def _poll(url: str, etag: str | None = None) -> Any:
    return Client().get(url, headers={"If-None-Match": etag} if etag else {})


def _seat(n: Night, table: int) -> Seat:
    return Seat.objects.get(
        game__drive=n.drive, game__number=n.drive.current_game, table__number=table
    )


@pytest.mark.parametrize(
    "change",
    [
        "entered",
        "entered from the table, to confirm",
        "conflict",
        "undone",
        "settled",
        "corrected after the advance",
    ],
)
def test_a_result_at_another_table_leaves_this_tables_phones_at_304(change: str) -> None:
    n = make_night(confirm_by_other_couple=change.endswith("to confirm"))
    if change == "corrected after the advance":
        play(n.drive, 1)
        advance(n.drive, 1)
        n.drive.refresh_from_db()
    if change == "undone":
        _enter(n, table=2, winner=_seat(n, 2).stays.number, actor=TABLE)
    if change == "settled":
        _enter(n, table=2, winner=_seat(n, 2).stays.number)
        with pytest.raises(Conflict):
            _enter(n, table=2, winner=_seat(n, 2).arrives.number)
    here, there = _seat(n, 1), _seat(n, 2)
    game = n.drive.current_game
    # Table 2's couples in the game of the change (game 1 for the correction after game 2
    # started: the couples who played table 2 in game 1).
    concerned = Seat.objects.get(game__drive=n.drive, game__number=1, table__number=2)
    cards = {
        ("table", 1): "stays",
        ("couple", here.stays.number): "stays",
        ("couple", here.arrives.number): "stays",
        ("table", 2): "changes",
        ("couple", concerned.stays.number): "changes",
        ("couple", concerned.arrives.number): "changes",
    }
    if change == "corrected after the advance":
        # Table 2's page shows game 2 (its game-1 result is not on it); a 200 costs nothing.
        cards[("table", 2)] = "either"
    first = {card: _poll(_card(n, *card)) for card in cards}
    assert all(r.status_code == 200 for r in first.values())
    desk = n.poll("desk")["ETag"]
    if change == "entered":
        _enter(n, table=2, winner=there.stays.number)
    elif change == "entered from the table, to confirm":
        _enter(n, table=2, winner=there.stays.number, actor=TABLE)
    elif change == "conflict":
        _enter(n, table=2, winner=there.stays.number)
        with pytest.raises(Conflict):
            _enter(n, table=2, winner=there.arrives.number)
    elif change == "undone":
        result_undo(drive=n.drive, game=game, table=2, actor=TABLE)
    else:
        winner = concerned.arrives.number
        result_resolve(drive=n.drive, game=1, table=2, winner=winner, reason="r", actor=DESK)
    for card, expected in cards.items():
        again = _poll(_card(n, *card), first[card]["ETag"])
        if expected == "stays":
            assert again.status_code == 304, f"{change}: {card} is not 304"
        elif expected == "changes":
            assert again.status_code == 200, f"{change}: {card} still 304"
            assert _shows(again) != _shows(first[card]), f"{change}: {card} shows nothing new"
    # The desk shows every table: a 200.
    assert n.poll("desk", desk).status_code == 200


def _shows(response: Any) -> str:
    """What a phone's page shows, in short (its ``data-version``, which its script compares)."""
    found = re.search(r'data-version="([^"]*)"', text(response))
    assert found
    return found.group(1)


def test_a_drive_without_its_row_gets_one_at_its_first_change(n: Night) -> None:
    DriveVersion.objects.filter(drive=n.drive).delete()
    etag = n.poll("couple")["ETag"]
    assert n.poll("couple", etag).status_code == 304
    couple_update(couple=n.couple(2), actor=DESK, paid=True)
    assert DriveVersion.objects.get(drive=n.drive).version == 1
    assert n.poll("couple", etag).status_code == 200


# --- gzip ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("page", PAGES)
def test_the_polled_fragments_are_gzipped_for_who_asks(n: Night, page: str) -> None:
    play(n.drive, 1, skip=(2,))
    plain = n.poll(page)
    packed = n.client(page).get(n.url(page), headers={"Accept-Encoding": "gzip"})
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    # The same fragment (but for the CSRF token, masked afresh in every answer).
    unmasked = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"')
    assert unmasked.sub(b"", gzip.decompress(packed.content)) == unmasked.sub(b"", plain.content)
    assert len(packed.content) < len(plain.content)
    # The same weak ETag, compressed or not: a 304 either way.
    assert packed["ETag"] == plain["ETag"]
    again = n.client(page).get(
        n.url(page), headers={"Accept-Encoding": "gzip", "If-None-Match": packed["ETag"]}
    )
    assert again.status_code == 304 and again.content == b""


@pytest.mark.parametrize(
    ("path", "name"), [("/t/abc/", "night:table"), ("/c/abc/", "night:couple")]
)
def test_the_middleware_finds_the_phone_pages_where_the_site_serves_them(
    path: str, name: str
) -> None:
    """PhonePollMiddleware resolves against the phones' own URL conf: the same views, at the
    same addresses, as the site's; and nothing else of the site is taken for a phone's page."""
    site = resolve(path)
    own = resolve(path, urlconf=conditional.PHONE_URLCONF)
    assert site.view_name == name and own.func is site.func and own.kwargs == site.kwargs
    assert conditional.PHONE_PAGES[own.url_name] == name.split(":")[1]
    for other in ("/drives/abc/desk/", "/drives/abc/projector/", "/t/abc/extra/", "/results/abc/"):
        with pytest.raises(Resolver404):
            resolve(other, urlconf=conditional.PHONE_URLCONF)
