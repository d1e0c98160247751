"""``manage.py demo``: a realistic night to try at once (``make run``).

It makes the demo organizer (a superuser), a scorer, the club "St. Mary's Parish Hall" with
both as members, and a drive of 40 couples with six games played by the engine's bots (a fixed
seed, so every installation shows the same night) and game 7 in play with about half its
tables reported.

Safe to run any number of times: it creates what is missing and leaves the rest as it is
(resetting the demo passwords, so the credentials it prints always work). An existing demo
drive (the club's drive of that name) is left alone, however far it has been played.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from drives.models import AuditEntry, Club, Drive, Membership
from drives.services import Actor, club_create, couples_register, drive_create, member_add
from scoring.selectors import game_view
from scoring.simulation import drive_simulate, game_simulate

DEMO_USERNAME = "organizer"
SCORER_USERNAME = "scorer"
# Published on purpose: these accounts exist only on demo installations.
DEMO_PASSWORD = "forty-five"
DEMO_CLUB = "St. Mary's Parish Hall"
DEMO_DRIVE = "Friday Night 45s"
DEMO_SEED = 1945
DEMO_GAMES_PLAYED = 6

# (player 1, player 2, paid, cookie jar): Cape Breton, Irish and Acadian names.
DEMO_COUPLES: list[tuple[str, str, bool, bool]] = [
    ("Mary MacNeil", "Theresa MacNeil", True, True),
    ("Angus MacDonald", "Flora MacDonald", True, False),
    ("Joe Boudreau", "Yvonne Boudreau", True, True),
    ("Dan Rory MacLean", "Catherine MacLean", True, False),
    ("Margaret Gillis", "Bernadette Beaton", True, False),
    ("Hughie MacIsaac", "Ronnie Rankin", True, True),
    ("Marie LeBlanc", "Jeannette Aucoin", True, False),
    ("Gerard Chiasson", "Léona Chiasson", True, False),
    ("Sheila O'Brien", "Kathleen Walsh", True, True),
    ("John Allan MacKinnon", "Effie MacKinnon", True, False),
    ("Rita Campbell", "Loretta Chisholm", False, False),
    ("Ambrose Doucet", "Gilbert Deveau", True, False),
    ("Agnes MacLellan", "Cecilia MacLellan", True, True),
    ("Father Leo Burke", "Tommy Power", True, False),
    ("Anne Marie Poirier", "Rose Samson", True, False),
    ("Joey Landry", "Monique Cormier", True, True),
    ("Christy MacPhee", "Mairi MacPhee", True, False),
    ("Bridget Doyle", "Nora Fitzgerald", True, False),
    ("Ronald MacEachern", "Jessie MacEachern", True, False),
    ("Alphonse Arsenault", "Rita Gallant", False, True),
    ("Peggy Murphy", "Mick Murphy", True, False),
    ("Allan J. MacDougall", "Dolena MacDougall", True, False),
    ("Florence Muise", "Evangeline Comeau", True, True),
    ("Sandy Morrison", "Jimmy Morrison", True, False),
    ("Theresa Fraser", "Joan MacInnis", True, False),
    ("Leo Bonaparte", "Camille Bourque", True, False),
    ("Bernie MacNeil", "Vincent MacNeil", True, True),
    ("Maureen Kennedy", "Eileen Fitzpatrick", True, False),
    ("Archie Beaton", "Sadie Beaton", False, False),
    ("Paul Thibodeau", "Gisèle Thibodeau", True, False),
    ("Kay MacAulay", "Mary Catherine MacAulay", True, True),
    ("Dougal Rankin", "Marion Rankin", True, False),
    ("Pius MacIntyre", "Ernest Gillis", True, False),
    ("Colette Robichaud", "Denise Maillet", True, False),
    ("Johnny Neil MacKenzie", "Annie MacKenzie", True, True),
    ("Patsy Dunphy", "Siobhán Keating", True, False),
    ("Malcolm MacRae", "Isabel MacRae", True, False),
    ("Ida Pothier", "Elmer Pothier", True, False),
    ("Frankie MacDonald", "Stephen MacDonald", True, True),
    ("Eleanor Cameron", "Hector Cameron", True, False),
]


class Command(BaseCommand):
    help = (
        "Create the demo organizer (a superuser), a scorer, a club and a 40-couple drive with "
        "six games played, if missing, and print how to log in."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--url",
            default="http://127.0.0.1:8000/",
            help="The address to print for logging in (default: %(default)s).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEMO_COMMAND_ALLOWED:
            raise CommandError(
                gettext(
                    "The demo command is turned off here (it makes a superuser with a "
                    "published password). Set DEMO_COMMAND_ALLOWED=true to allow it."
                )
            )
        with transaction.atomic():
            organizer, created = demo_user(DEMO_USERNAME, "Organizer", superuser=True)
            scorer, _ = demo_user(SCORER_USERNAME, "Scorer", superuser=False)
            club = Club.objects.filter(name=DEMO_CLUB).first()
            desk = Actor(user=organizer, channel=AuditEntry.Channel.DESK)
            if club is None:
                club = club_create(name=DEMO_CLUB, actor=desk)
            for user, role in ((organizer, "organizer"), (scorer, "scorer")):
                if not Membership.objects.filter(club=club, user=user, role=role).exists():
                    member_add(club=club, user=user, role=role, actor=desk)
            drive = Drive.objects.filter(club=club, name=DEMO_DRIVE).first()
            drive_created = drive is None
            if drive is None:
                drive = demo_drive(club, organizer, scorer)

        state = "created" if created else "already there"
        url = options["url"]
        view = game_view(drive, drive.current_game) if drive.current_game else None
        progress = (
            f"game {view['number']} in play, {view['reported']} of {view['to_report']} "
            "tables reported"
            if view
            else "not started"
        )
        lines = [
            f"Demo organizer {state}. Log in at {url}accounts/login/ with",
            f"    username: {DEMO_USERNAME}",
            f"    password: {DEMO_PASSWORD}",
            f"(the same account opens the admin at {url}admin/)",
            f"Scorer of {DEMO_CLUB}: username {SCORER_USERNAME}, password {DEMO_PASSWORD}",
            f"Demo drive {'created' if drive_created else 'already there'}: {drive.slug} "
            f"({drive.couples.count()} couples; {progress})",
            f"    API:    {url}api/v1/drives/{drive.slug}",
            f"    export: {url}api/v1/drives/{drive.slug}/export",
            f"    admin:  {url}admin/drives/drive/{drive.pk}/change/",
        ]
        width = max(len(line) for line in lines)
        rule = "=" * width
        self.stdout.write(self.style.SUCCESS("\n".join([rule, *lines, rule])))


def demo_user(username: str, last_name: str, *, superuser: bool) -> tuple[Any, bool]:
    """The demo account, created or repaired (active, the published password, and staff and
    superuser for the organizer); saved only when something changed."""
    user, created = get_user_model().objects.get_or_create(
        username=username, defaults={"first_name": "Demo", "last_name": last_name}
    )
    changed = created
    wanted = ("is_active", "is_staff", "is_superuser") if superuser else ("is_active",)
    for field in wanted:
        if not getattr(user, field):
            setattr(user, field, True)
            changed = True
    if not user.check_password(DEMO_PASSWORD):
        user.set_password(DEMO_PASSWORD)
        changed = True
    if changed:
        user.save()
    return user, created


def demo_drive(club: Club, organizer: Any, scorer: Any) -> Drive:
    """The 40-couple night: six games played from a fixed seed, game 7 half reported."""
    desk = Actor(user=organizer, channel=AuditEntry.Channel.DESK)
    drive = drive_create(
        club=club,
        actor=desk,
        name=DEMO_DRIVE,
        date=timezone.localdate(),
        venue="Parish hall, Mabou, Cape Breton",
        entry_fee="5.00",
        currency="CAD",
    )
    couples_register(
        drive=drive,
        actor=desk,
        couples=[
            {"players": [p1, p2], "paid": paid, "cookie_jar": jar, "checked_in": True}
            for p1, p2, paid, jar in DEMO_COUPLES
        ],
    )
    drive_simulate(drive=drive, seed=DEMO_SEED, until_game=DEMO_GAMES_PLAYED, actor=desk)
    drive.refresh_from_db()
    view = game_view(drive, drive.current_game)
    assert view is not None  # the simulation left the next game in play
    playing = [t["table"] for t in view["tables"] if not t["sit_out"]]
    game_simulate(
        drive=drive,
        game=drive.current_game,
        seed=DEMO_SEED,
        tables=playing[: len(playing) // 2],
        actor=Actor(user=scorer, channel=AuditEntry.Channel.DESK),
    )
    drive.refresh_from_db()
    return drive
