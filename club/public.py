"""Reads of the club's public pages (``/clubs/<club>/`` and a player's page): the upcoming
drives, the past nights with their winners, the current season's standings, and a player's
nights with places, wins, prizes and partners, each name as the club chose to show it
(``Club.public_names``: in full, a first name with an initial, or none).

Only what the club made public is read: a night's results once the organizer published the
drive (its results page), a season's standings once the season is published. Each read takes
a fixed number of queries whatever the number of the club's players and nights (the nights
are counted by the database, ``scoring.selectors.standings_counted``; tests assert it).
Nothing here writes.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.db.models import Count, Exists, Max, OuterRef, Q, QuerySet, Sum
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from club.parts import SeasonPart, season_of
from drives.models import Club, Couple, Drive, Player
from drives.names import name_key
from scoring.models import Award
from scoring.selectors import standings_counted

NAMES = Club.PublicNames
UPCOMING = 20  # drives listed ahead
NIGHTS_A_PAGE = 20  # past nights a page
STANDINGS_SHOWN = 20  # the season's first players on the club's page (the rest: its page)


def shown_name(name: str, names: str) -> str:
    """A name as the club shows it: in full, a first name with the last name's initial
    ("Mary MacDonald" → "Mary M."), or nothing (the empty string)."""
    if names == NAMES.FULL:
        return name
    if names == NAMES.NONE:
        return ""
    words = name.split()
    last = next((w for w in reversed(words[1:]) if w[:1].isalpha()), "")
    return f"{words[0]} {last[0].upper()}." if words and last else " ".join(words[:1])


def club_language(club: Club) -> str:
    """The club's language: that of its latest drive (the hall's), else the site's. One
    query."""
    latest = (
        Drive.objects.filter(club=club).order_by("-date", "-pk").values_list("language", flat=True)
    )
    return latest.first() or settings.LANGUAGE_CODE


@dataclass(frozen=True)
class Name:
    """A player's name as shown, with the player's page when the club lists them."""

    text: str
    player: int | None = None


@dataclass(frozen=True)
class NightRow:
    drive: Drive
    couples: int
    winners: list[list[Name]]  # each winning couple (ties: several), its two names


@dataclass(frozen=True)
class StandingRow:
    place: int | None
    name: Name
    drives: int
    wins: int
    prizes: int


@dataclass(frozen=True)
class ClubPage:
    club: Club
    names: str
    upcoming: list[Drive]
    nights: list[NightRow]
    page: Page[Drive]
    season: SeasonPart | None
    standings: list[StandingRow]


def _named(club: Club, name: str, player: int | None) -> Name:
    return Name(shown_name(name, club.public_names), player if listed(club) else None)


def listed(club: Club) -> bool:
    """Whether the club's players have public pages (not when it shows no names)."""
    return club.public_names != NAMES.NONE


def club_page(club: Club, page: int | str = 1) -> ClubPage:
    """What the club's page shows. The upcoming drives in date order, one page of the past
    (closed) nights newest first, with the winners of those published, and the current
    season's first players."""
    today = timezone.localdate()
    upcoming = list(
        Drive.objects.filter(club=club, date__gte=today)
        .exclude(state=Drive.State.CLOSED)
        .order_by("date", "pk")[:UPCOMING]
    )
    closed = Drive.objects.filter(club=club, state=Drive.State.CLOSED).order_by("-date", "-pk")
    one_page = Paginator(closed, NIGHTS_A_PAGE).get_page(page)
    drives = list(one_page.object_list)
    standings = standings_counted([d for d in drives if d.published])
    nights = []
    for drive in drives:
        rows = standings.get(drive.pk, [])
        winners = (
            [
                [
                    _named(club, row["couple"].player1, row["couple"].member1_id),
                    _named(club, row["couple"].player2, row["couple"].member2_id),
                ]
                for row in rows
                if row["place"] == 1
            ]
            if listed(club)
            else []
        )
        nights.append(NightRow(drive, len(rows), winners))
    season = season_of(club, today, STANDINGS_SHOWN)
    shown: list[StandingRow] = []
    if season is not None and listed(club):
        ids = _players_of_keys(club, [row.key for row in season.standings])
        shown = [
            StandingRow(
                row.place,
                _named(club, row.name, ids.get(row.key)),
                row.drives,
                row.wins,
                row.prizes,
            )
            for row in season.standings
        ]
    return ClubPage(club, club.public_names, upcoming, nights, one_page, season, shown)


def _players_of_keys(club: Club, keys: list[str]) -> dict[str, int]:
    """Each name's key → the club's one player of that key (none when two share it). One
    query."""
    found: dict[str, list[int]] = {}
    for key, pk in Player.objects.filter(club=club, key__in=keys).values_list("key", "pk"):
        found.setdefault(key, []).append(pk)
    return {key: pks[0] for key, pks in found.items() if len(pks) == 1}


# --- a player's page --------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerNight:
    drive: Drive
    number: int
    partner: Name
    place: int | None
    withdrawn: bool
    wins: int
    played: int
    couples: int
    prizes: list[str]


@dataclass(frozen=True)
class PartnerRow:
    name: Name
    nights: int


@dataclass(frozen=True)
class PlayerHistory:
    player: Player
    name: str
    nights: list[PlayerNight]
    partners: list[PartnerRow] = field(default_factory=list)

    @property
    def wins(self) -> int:
        return sum(n.wins for n in self.nights)

    @property
    def firsts(self) -> int:
        return sum(1 for n in self.nights if n.place == 1)

    @property
    def prizes(self) -> int:
        return sum(len(n.prizes) for n in self.nights)

    @property
    def best_place(self) -> int | None:
        return min((n.place for n in self.nights if n.place is not None), default=None)


def prize_label(award: Award) -> str:
    if award.kind == Award.Kind.PLACE:
        return _("place %(place)s") % {"place": award.place}
    return str(award.get_kind_display())


def public_player(club: Club, pk: object) -> Player | None:
    """A player of the club whose page is public: one who played a published night (not one
    only registered, or only at nights kept private), and none when the club shows no names.
    One query."""
    if not listed(club) or not str(pk).isdigit():
        return None
    played = Couple.objects.filter(
        Q(member1_id=OuterRef("pk")) | Q(member2_id=OuterRef("pk")),
        drive__club=club,
        drive__state=Drive.State.CLOSED,
        drive__published=True,
    )
    found = Player.objects.filter(club=club, pk=int(str(pk))).filter(Exists(played))
    return found.first()


def own_player(club: Club, pk: object, key: str) -> Player | None:
    """A player reached by their own page's key (``Player.page_key``), whatever the club
    shows publicly."""
    if not str(pk).isdigit():
        return None
    player = Player.objects.filter(club=club, pk=int(str(pk))).first()
    if player is None or not constant_time_compare(player.page_key(), key):
        return None
    return player


HISTORY_SECONDS = 600  # a player's nights kept this long at most (see player_history)


def _published_couples(club: Club, player: Player) -> QuerySet[Couple]:
    return Couple.objects.filter(Q(member1=player) | Q(member2=player)).filter(
        drive__club=club, drive__state=Drive.State.CLOSED, drive__published=True
    )


def player_history(club: Club, player: Player, *, own: bool = False) -> PlayerHistory:
    """The player's published nights, newest first: place, wins, the partner, prizes; and
    their partners by nights together. ``own``: the player's own page (names in full).

    Kept in the cache under the nights' fingerprint (the player's couples and their drives'
    versions, which every audited change of a drive moves, a night unpublished too), the
    names shown and the language: one query when nothing changed, seven when it did, whatever
    the number of nights. A partner merged into another player meanwhile keeps their old link
    until ``HISTORY_SECONDS`` have passed."""
    names = NAMES.FULL if own else club.public_names
    fingerprint = _published_couples(club, player).aggregate(
        n=Count("pk"), last=Max("pk"), versions=Sum("drive__live__version")
    )
    made = f"{club.pk} {player.pk} {names} {club.public_names} {get_language()} {fingerprint}"
    key = "player-history:" + hashlib.sha256(made.encode()).hexdigest()
    kept = cache.get(key)
    if not isinstance(kept, tuple):
        kept = _nights(club, player, names)
        cache.set(key, kept, HISTORY_SECONDS)
    nights, partners = kept
    return PlayerHistory(player, shown_name(player.name, names), nights, partners)


def _nights(club: Club, player: Player, names: str) -> tuple[list[PlayerNight], list[PartnerRow]]:
    """The player's nights and partners (``player_history``): six queries."""
    couples = list(
        _published_couples(club, player)
        .select_related("drive")
        .order_by("-drive__date", "-drive_id")
    )
    drives = list({c.drive_id: c.drive for c in couples}.values())
    standings = standings_counted(drives)
    prizes: dict[int, list[str]] = {}
    for award in Award.objects.filter(couple__in=couples).order_by("pk"):
        prizes.setdefault(award.couple_id, []).append(prize_label(award))
    nights = []
    together: Counter[str] = Counter()
    partner_of: dict[str, Name] = {}
    for couple in couples:
        rows = standings[couple.drive_id]
        row = next(r for r in rows if r["number"] == couple.number)
        first = couple.member1_id == player.pk
        partner, partner_id = (
            (couple.player2, couple.member2_id) if first else (couple.player1, couple.member1_id)
        )
        shown = Name(shown_name(partner, names), partner_id if listed(club) else None)
        # the same partner: the same player, or the same name where none is linked
        same = f"player {partner_id}" if partner_id else f"name {name_key(partner)}"
        together[same] += 1
        partner_of.setdefault(same, shown)
        nights.append(
            PlayerNight(
                couple.drive,
                couple.number,
                shown,
                row["place"],
                row["withdrawn"],
                row["wins"],
                row["played"],
                len(rows),
                prizes.get(couple.pk, []),
            )
        )
    partners = [PartnerRow(partner_of[same], count) for same, count in together.most_common()]
    return nights, partners
