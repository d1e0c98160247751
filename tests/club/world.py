"""A club of many players and nights, written cheaply (``bulk_create``, no services): each
night closed and published, its couples two of the club's players, every game's results in,
one prize place a night, and a published season of all the nights. For the query counts of the
club's public pages and their figures (scripts/bench_club_pages.py)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta

from django.utils import timezone

from drives.models import Club, Couple, Drive, Game, Player, Seat, Table
from drives.names import name_key
from scoring.models import Award, Result
from seasons.models import Season, SeasonDrive

FIRST = [
    "Mary", "Angus", "Thérèse", "John", "Margaret", "Donald", "Catherine", "Neil", "Flora",
    "Hector", "Sadie", "Ronald", "Effie", "Dougald", "Jessie", "Malcolm", "Annie", "Archie",
    "Christine", "Rory",
]  # fmt: skip
LAST = [
    "MacDonald", "MacNeil", "MacLean", "Campbell", "Gillis", "Beaton", "Chisholm", "Rankin",
    "MacIsaac", "Boudreau", "Aucoin", "LeBlanc", "Poirier", "Doucet", "Cameron", "Fraser",
]  # fmt: skip


def player_name(i: int) -> str:
    """A different name for each ``i`` (a number after the surname past the lists' size): each
    first name goes through every surname, from its own one on."""
    first, rest = FIRST[i % len(FIRST)], i // len(FIRST)
    last, again = LAST[(rest + i % len(FIRST)) % len(LAST)], rest // len(LAST)
    return f"{first} {last}{'-' + str(again + 1) if again else ''}"


@dataclass(frozen=True)
class World:
    club: Club
    players: list[Player]
    drives: list[Drive]
    season: Season


def club_world(
    club: Club,
    *,
    players: int,
    nights: int,
    couples: int = 13,
    games: int = 6,
    seed: int = 1,
    first_night: date | None = None,
) -> World:
    """``nights`` closed, published nights a week apart ending yesterday (or from
    ``first_night``), each of ``couples`` couples drawn from ``players`` players (a regular,
    the first player, at every night), ``games`` games each."""
    rnd = random.Random(seed)
    people = Player.objects.bulk_create(
        Player(club=club, name=player_name(i), key=name_key(player_name(i))) for i in range(players)
    )
    start = first_night or timezone.localdate() - timedelta(weeks=nights)
    drives = Drive.objects.bulk_create(
        Drive(
            club=club,
            slug=f"{club.slug}-night-{n}",
            name=f"Night {n + 1}",
            date=start + timedelta(weeks=n),
            venue="Parish hall",
            games=games,
            state=Drive.State.CLOSED,
            current_game=games,
            published=True,
        )
        for n in range(nights)
    )
    couple_rows = []
    for drive in drives:
        chosen = [people[0], *rnd.sample(people[1:], 2 * couples - 1)]
        couple_rows += [
            Couple(
                drive=drive,
                number=i + 1,
                player1=chosen[2 * i].name,
                player2=chosen[2 * i + 1].name,
                member1=chosen[2 * i],
                member2=chosen[2 * i + 1],
            )
            for i in range(couples)
        ]
    made = Couple.objects.bulk_create(couple_rows)
    by_drive = {d.pk: made[i * couples : (i + 1) * couples] for i, d in enumerate(drives)}
    tables_each = (couples + 1) // 2
    tables = Table.objects.bulk_create(
        Table(drive=d, number=t + 1) for d in drives for t in range(tables_each)
    )
    now = timezone.now()
    game_rows = Game.objects.bulk_create(
        Game(drive=d, number=g + 1, finished_at=now) for d in drives for g in range(games)
    )
    seats, winners = [], []
    for i, drive in enumerate(drives):
        its_tables = tables[i * tables_each : (i + 1) * tables_each]
        its_couples = by_drive[drive.pk]
        for g in range(games):
            game = game_rows[i * games + g]
            order = its_couples[g:] + its_couples[:g]
            for t, table in enumerate(its_tables):
                stays = order[2 * t]
                arrives = order[2 * t + 1] if 2 * t + 1 < len(order) else None
                seats.append(Seat(game=game, table=table, stays=stays, arrives=arrives))
                winners.append(rnd.choice([stays, arrives]) if arrives else None)
    Seat.objects.bulk_create(seats, batch_size=2000)
    Result.objects.bulk_create(
        (
            Result(game_id=seat.game_id, seat=seat, winner=winner)
            for seat, winner in zip(seats, winners, strict=True)
            if winner is not None
        ),
        batch_size=2000,
    )
    Award.objects.bulk_create(
        Award(drive=d, kind=Award.Kind.PLACE, place=1, couple=by_drive[d.pk][0], how="direct")
        for d in drives
    )
    season = Season.objects.create(
        club=club,
        slug="season",
        name="The season",
        starts=start,
        ends=start + timedelta(weeks=nights + 20),
        published=True,
    )
    SeasonDrive.objects.bulk_create(SeasonDrive(drive=d, season=season) for d in drives)
    return World(club, people, drives, season)
