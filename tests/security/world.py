"""The world the security tests knock on: two clubs, a drive of the first in the middle of its
night, and every kind of caller of the access matrix with its credentials.

- Club A ("Glenora Parish Hall"): an organizer (staff, for the admin) and a scorer, each with
  an API token. Its drive **D** (8 couples, 3 games, the other couple confirms results) has
  game 1 played and game 2 in play, where table 1's result was entered from the table and
  waits for the other couple; the prize ties are open; a punch-card PDF is printed.
  Also in club A: **D2**, another drive in play, and **Dc**, a closed drive whose results
  are published.
- Club B ("Inverness Legion"): an organizer (staff) with an API token, and a drive of its own
  with game 1 played, its ties open and a PDF (whose numbers are tried under D's address).

The couples' names carry markers ("Dmark", "Bmark") that the tests look for in answers that
must not reveal them. ``build_world`` runs inside the caller's transaction; nothing here
commits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import Group
from django.core.files.base import ContentFile
from django.test import Client

from drives.models import AuditEntry, Club, Couple, Drive, Membership, Player, Table
from drives.services import (
    Actor,
    api_token_create,
    club_create,
    couples_register,
    drive_close,
    drive_create,
    drive_start,
    member_add,
)
from practice.models import PracticeGame
from practice.table import start as practice_start
from scoring.models import Document, Tie
from scoring.prizes.services import prizes_open_ties
from scoring.selectors import game_view
from scoring.services import call_open, game_advance, result_record
from seasons.services import season_add_drive, season_create
from tests.factories import UserFactory

DESK = Actor(channel=AuditEntry.Channel.DESK)
TABLE = Actor(channel=AuditEntry.Channel.TABLE)

CLUB_A = "Glenora Parish Hall"
CLUB_B = "Inverness Legion"
D_MARK = "Dmark"
B_MARK = "Bmark"
B_ORGANIZER = "inverness-organizer"
PASSWORD = "a-test-password"  # tests.factories.DEFAULT_PASSWORD

# The callers of the matrix, in its column order.
ANON = "anonymous"
SCORER = "scorer"
ORGANIZER = "organizer"
OTHER_ORG = "other-club-organizer"
TABLE_TOKEN = "table-token"
OTHER_TABLE = "other-table-token"
OTHER_DRIVE = "other-drive-token"
CLOSED = "closed-drive-token"
COUPLE = "couple-token"
CALLERS = (
    ANON,
    SCORER,
    ORGANIZER,
    OTHER_ORG,
    TABLE_TOKEN,
    OTHER_TABLE,
    OTHER_DRIVE,
    CLOSED,
    COUPLE,
)
USERS = (SCORER, ORGANIZER, OTHER_ORG)
TOKENS = (TABLE_TOKEN, OTHER_TABLE, OTHER_DRIVE, CLOSED, COUPLE)

# The practice game every caller may open (its id is its key; no account needed). Seed 5
# starts with the player to play a card, so that robbing is refused as not now (409).
PRACTICE_ID = "5e1f3a52-7c1d-4c55-9f3e-2b0a8d6c4e01"
PRACTICE_SEED = 5

# A token of the right shape that is nobody's.
UNKNOWN_TOKEN = "AAAAAAAAAAAAAAAAAAAAAA"


@dataclass
class Caller:
    """One column of the matrix: a session (users), an API token (users), a table token
    (the table kinds) and a couple token (the couple; the closed drive has both)."""

    kind: str
    user: Any = None
    session_key: str = ""
    api_token: str = ""
    table_token: str = ""
    couple_token: str = ""

    def client(self, **kwargs: Any) -> Client:
        client = Client(**kwargs)
        if self.session_key:
            from django.conf import settings

            client.cookies[settings.SESSION_COOKIE_NAME] = self.session_key
        return client

    @property
    def bearer(self) -> str:
        """What this caller sends as ``Authorization: Bearer``: its API token, else its table
        token, else its couple token (nothing for the anonymous caller)."""
        return self.api_token or self.table_token or self.couple_token


@dataclass
class World:
    club_a: Club
    club_b: Club
    organizer: Any
    scorer: Any
    other_organizer: Any
    drive: Drive
    other_drive: Drive
    closed: Drive
    their_drive: Drive
    tie: Tie
    document: Document
    their_tie: Tie  # of the other club's drive
    their_document: Document
    winner: int  # the couple table 1's token entered as the winner of game 2
    confirmer: Couple  # the other couple at table 1 in game 2, who confirms
    call: int = 0  # table 3's call for the desk in game 2, open
    callers: dict[str, Caller] = field(default_factory=dict)
    memo: dict[str, Any] = field(default_factory=dict)  # what tests work out once a world

    @property
    def closed_player(self) -> Player:
        if "closed_player" not in self.memo:
            couple = Couple.objects.select_related("member1").get(drive=self.closed, number=1)
            self.memo["closed_player"] = couple.member1
        player: Player = self.memo["closed_player"]
        return player

    def values(self) -> dict[str, Any]:
        """What the paths and bodies of the matrix are filled with."""
        return {
            "slug": self.drive.slug,
            "closed_slug": self.closed.slug,
            "club": self.club_a.slug,
            "club_pk": self.club_a.pk,
            "couple": 1,
            "tie": self.tie.pk,
            "doc": self.document.pk,
            "their_tie": self.their_tie.pk,
            "their_doc": self.their_document.pk,
            "winner": self.winner,
            "unknown": UNKNOWN_TOKEN,
            "practice": PRACTICE_ID,
            "season": "fall",
            "call": self.call,
            "player": self.memo.setdefault(
                "player", Player.objects.filter(club=self.club_a).order_by("pk")[0].pk
            ),
            # a player of the closed, published night: their page is public
            "closed_player": self.closed_player.pk,
            "closed_player_key": self.closed_player.page_key(),
        }


def _session(user: Any) -> str:
    client = Client()
    client.force_login(user)
    session_key = client.session.session_key
    assert client.session[SESSION_KEY] == str(user.pk)
    return str(session_key)


def _night(club: Club, names: str, couples: int, **settings: Any) -> Drive:
    settings.setdefault("date", date(2026, 11, 20))
    drive = drive_create(club=club, actor=DESK, **settings)
    couples_register(
        drive=drive,
        couples=[
            {"players": [f"{names} North{i}", f"{names} South{i}"]} for i in range(1, couples + 1)
        ],
        actor=DESK,
    )
    drive_start(drive=drive, actor=DESK)
    drive.refresh_from_db()
    return drive


def _play(drive: Drive, game: int, *, skip: tuple[int, ...] = ()) -> None:
    """Enter the lower number as the winner at every table of ``game`` (but ``skip``)."""
    for row in game_view(drive, game)["tables"]:
        if row["sit_out"] or row["table"] in skip:
            continue
        result_record(
            drive=drive,
            game=game,
            table=row["table"],
            winner=min(row["stays"], row["arrives"]),
            actor=DESK,
        )


def _pdf(drive: Drive) -> Document:
    document = Document.objects.create(
        drive=drive,
        kind=Document.Kind.PUNCH_CARDS,
        status=Document.Status.DONE,
        pages_done=1,
        pages_total=1,
    )
    document.file.save("punch-cards.pdf", ContentFile(b"%PDF-1.4\n% a test file\n"), save=True)
    return document


def build_world() -> World:
    club_a = club_create(name=CLUB_A, actor=DESK)
    club_b = club_create(name=CLUB_B, actor=DESK)
    organizer = UserFactory(username="glenora-organizer", is_staff=True)
    scorer = UserFactory(username="glenora-scorer")
    other_organizer = UserFactory(username=B_ORGANIZER, is_staff=True)
    member_add(club=club_a, user=organizer, role=Membership.Role.ORGANIZER)
    member_add(club=club_a, user=scorer, role=Membership.Role.SCORER)
    member_add(club=club_b, user=other_organizer, role=Membership.Role.ORGANIZER)
    Group.objects.create(name="Volunteers")

    drive = _night(club_a, D_MARK, 8, name="Friday 45s", games=3, confirm_by_other_couple=True)
    _play(drive, 1)
    game_advance(drive=drive, game=1, actor=DESK)
    drive.refresh_from_db()
    table_one = next(r for r in game_view(drive, 2)["tables"] if r["table"] == 1)
    winner, loser = table_one["stays"], table_one["arrives"]
    result_record(drive=drive, game=2, table=1, winner=winner, actor=TABLE)
    prizes_open_ties(drive=drive, actor=DESK, force=True)
    tie = Tie.objects.filter(drive=drive).order_by("pk").first()
    assert tie is not None, "game 1 leaves couples tied on wins"
    document = _pdf(drive)

    other_drive = _night(club_a, "Dtwo", 4, name="Saturday 45s")
    closed = _night(club_a, "Cee", 4, name="Thursday 45s", published=True)
    drive_close(drive=closed, actor=DESK)
    closed.refresh_from_db()
    their_drive = _night(club_b, B_MARK, 4, name="Inverness Friday")
    _play(their_drive, 1)
    prizes_open_ties(drive=their_drive, actor=DESK, force=True)
    their_tie = Tie.objects.filter(drive=their_drive).order_by("pk").first()
    assert their_tie is not None
    their_document = _pdf(their_drive)

    def table(d: Drive, number: int) -> str:
        return Table.objects.get(drive=d, number=number).token

    confirmer = Couple.objects.get(drive=drive, number=loser)
    world = World(
        club_a,
        club_b,
        organizer,
        scorer,
        other_organizer,
        drive,
        other_drive,
        closed,
        their_drive,
        tie,
        document,
        their_tie,
        their_document,
        winner,
        confirmer,
    )
    world.call = call_open(drive=drive, game=2, table=3, actor=TABLE).pk
    # Club A's season: the closed (published) night, published too.
    season = season_create(
        club=club_a,
        actor=DESK,
        name="Fall",
        starts=date(2026, 9, 1),
        ends=date(2026, 12, 31),
        published=True,
    )
    season_add_drive(season=season, drive=closed, actor=DESK)
    PracticeGame.objects.create(
        id=PRACTICE_ID, state=practice_start("cape-breton-45", seed=PRACTICE_SEED)
    )
    world.callers = {
        ANON: Caller(ANON),
        SCORER: Caller(SCORER, scorer, _session(scorer), api_token_create(user=scorer)),
        ORGANIZER: Caller(
            ORGANIZER, organizer, _session(organizer), api_token_create(user=organizer)
        ),
        OTHER_ORG: Caller(
            OTHER_ORG,
            other_organizer,
            _session(other_organizer),
            api_token_create(user=other_organizer),
        ),
        TABLE_TOKEN: Caller(TABLE_TOKEN, table_token=table(drive, 1)),
        OTHER_TABLE: Caller(OTHER_TABLE, table_token=table(drive, 2)),
        OTHER_DRIVE: Caller(OTHER_DRIVE, table_token=table(other_drive, 1)),
        CLOSED: Caller(
            CLOSED,
            table_token=table(closed, 1),
            couple_token=Couple.objects.get(drive=closed, number=1).token,
        ),
        COUPLE: Caller(COUPLE, couple_token=confirmer.token),
    }
    return world
