"""The seasons' JSON endpoints (docs/api.md, "Seasons"): a router that ``config.urls`` mounts
on the site's API (``api.site``), so that its answers, errors and credentials are the API's
own. Each endpoint finds the club (``api.auth.club_for``: 404 for outsiders), calls one service
or selector of ``seasons`` and answers with what it returned. Members read; organizers write.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from ninja import Router
from pydantic import BaseModel, ConfigDict, Field

from api.auth import AUTH, MEMBERS, ORGANIZER, caller_of, club_for
from api.schemas import answers
from drives import inputs
from drives.errors import NotFound
from drives.inputs import Body
from drives.models import Club, Drive
from seasons import selectors, services
from seasons.models import Season

router = Router(auth=AUTH, tags=["seasons"])

C = "/clubs/{club}/seasons"
S = C + "/{season}"
ORGANIZERS = "Organizer of the club."
MEMBERS_ = "Organizer or scorer of the club."
NAME = inputs.checks(*inputs.SEASON_NAME)
STARTS, ENDS = inputs.SEASON_DATE.at("starts"), inputs.SEASON_DATE.at("ends")


def spelling(field: str) -> inputs.Checks:
    """A player's name sent as ``field``."""
    return inputs.checks(*inputs.SPELLING, field=field)


# --- bodies ---------------------------------------------------------------------------------------


BEST = inputs.checks(inputs.SEASON_BEST, nullable=True)
OF = inputs.checks(inputs.SEASON_OF, nullable=True)


class SeasonIn(Body):
    name: Annotated[str, NAME]
    starts: Annotated[date, STARTS]
    ends: Annotated[date, ENDS]
    published: Annotated[bool, inputs.SEASON_PUBLISHED] = False
    best_count: Annotated[int | None, BEST] = None
    nights_planned: Annotated[int | None, OF] = None
    qualify_nights: Annotated[int, inputs.SEASON_QUALIFY] = 0
    scoring: Annotated[str, inputs.SEASON_SCORING] = "wins"
    place_points: Annotated[list[int], inputs.SEASON_POINTS] = Field(default_factory=list)
    improved_nights: Annotated[int, inputs.SEASON_IMPROVED] = 0
    tie_break: Annotated[str, inputs.SEASON_TIES] = "shared"
    final_size: Annotated[int, inputs.SEASON_FINAL] = 0


class SeasonPatch(Body):
    """Only the fields sent change; best_count and nights_planned sent as null are unset."""

    name: Annotated[str | None, NAME] = None
    starts: Annotated[date | None, STARTS] = None
    ends: Annotated[date | None, ENDS] = None
    published: Annotated[bool | None, inputs.SEASON_PUBLISHED] = None
    best_count: Annotated[int | None, BEST] = None
    nights_planned: Annotated[int | None, OF] = None
    qualify_nights: Annotated[int | None, inputs.SEASON_QUALIFY] = None
    scoring: Annotated[str | None, inputs.SEASON_SCORING] = None
    place_points: Annotated[list[int] | None, inputs.SEASON_POINTS] = None
    improved_nights: Annotated[int | None, inputs.SEASON_IMPROVED] = None
    tie_break: Annotated[str | None, inputs.SEASON_TIES] = None
    final_size: Annotated[int | None, inputs.SEASON_FINAL] = None


class DriveIn(Body):
    drive: Annotated[str, inputs.DRIVE_SLUG]


class MergeIn(Body):
    name: Annotated[str, spelling("name")]
    into: Annotated[str, spelling("into")]


class UnmergeIn(Body):
    name: Annotated[str, spelling("name")]


class SplitIn(Body):
    drive: Annotated[str, inputs.DRIVE_SLUG]
    name: Annotated[str, spelling("name")]
    as_name: Annotated[str, spelling("as_name")]


class UnsplitIn(Body):
    drive: Annotated[str, inputs.DRIVE_SLUG]
    name: Annotated[str, spelling("name")]


# --- answers --------------------------------------------------------------------------------------


class Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeasonDriveOut(Answer):
    slug: str
    name: str
    date: str
    state: str


class RulesOut(Answer):
    """The season's rules as set, and in words (the page's sentences, in the caller's
    language)."""

    best_count: int | None = Field(description="Only each player's best N nights count.")
    nights_planned: int | None = Field(description="Only the season's first M nights count.")
    qualify_nights: int = Field(description="Nights to play to take a place.")
    scoring: str = Field(description="wins or points.")
    place_points: list[int] = Field(description="Points of 1st, 2nd, 3rd… place.")
    improved_nights: int = Field(description="K of most improved (0: none).")
    tie_break: str = Field(description="shared, nights_won or best_night.")
    final_size: int = Field(description="Players of the season final (0: none).")
    words: list[str]


class SeasonOut(Answer):
    slug: str
    club: str
    name: str
    starts: str
    ends: str
    published: bool
    rules: RulesOut
    drives: list[SeasonDriveOut] = Field(default_factory=list)


class PlayerOut(Answer):
    place: int | None = Field(description="None: not qualified yet (listed after the placed).")
    qualified: bool
    player: str
    key: str
    spellings: list[str]
    drives: int
    wins: int
    score: int = Field(description="What places the player: the counted nights' wins or points.")
    counted: int = Field(description="Nights counted in the score.")
    nights_won: int = Field(description="Nights the player's couple placed 1st.")
    best: int
    best_drive: str
    best_drive_name: str
    best_drive_date: str
    average: str
    prizes: int
    clashes: list[str]


class ImprovedOut(Answer):
    player: str
    key: str
    first: str = Field(description="Average score of the player's first K nights.")
    last: str = Field(description="Average score of the player's last K nights.")
    gain: str


class FinalistOut(Answer):
    place: int
    player: str
    key: str


class StandingsOut(Answer):
    season: SeasonOut
    players: list[PlayerOut]
    most_improved: list[ImprovedOut]
    final: list[FinalistOut]


class JarDriveOut(Answer):
    drive: str
    name: str
    date: str
    enabled: bool
    carried_in: str | None
    pot: str | None
    status: str | None
    carried_out: str | None
    winners: list[int]


class JarOut(Answer):
    drives: list[JarDriveOut]
    gaps: list[str]
    any: bool


class MoneyDriveOut(Answer):
    slug: str
    name: str
    date: str
    currency: str
    money_in: str
    money_out: str
    net: str


class MoneyTotalOut(Answer):
    currency: str
    money_in: str
    money_out: str
    net: str


class SeasonMoneyOut(Answer):
    season: SeasonOut
    drives: list[MoneyDriveOut]
    totals: list[MoneyTotalOut]


class MergeOut(Answer):
    key: str
    into: str


class SplitOut(Answer):
    drive: str
    key: str
    as_name: str


class PlayersOut(Answer):
    merges: list[MergeOut]
    splits: list[SplitOut]


# --- helpers --------------------------------------------------------------------------------------


def _ok(data: Any, status: int = 200) -> JsonResponse:
    return JsonResponse(data, status=status, safe=False, json_dumps_params={"ensure_ascii": False})


def _season(request: HttpRequest, club: str, season: str, *, write: bool = False) -> Season:
    found = club_for(caller_of(request), club, roles=(ORGANIZER,) if write else MEMBERS)
    return selectors.season_get(found, season)


def _club_drive(club: Club, slug: Any) -> Drive:
    """A drive of the club by its slug: another club's drive is no drive (the same 404 as a
    slug nobody has, as everywhere else in the API)."""
    slug = inputs.DRIVE_SLUG.check(slug)
    drive = Drive.objects.filter(slug=slug, club=club).first()
    if drive is None:
        raise NotFound("no_such_drive", _("No drive %(drive)r.") % {"drive": slug}, field="drive")
    return drive


def _summary(season: Season) -> dict[str, Any]:
    return selectors.season_summary(season, selectors.season_drives(season))


# --- seasons --------------------------------------------------------------------------------------


@router.get(
    C,
    response=answers({200: list[SeasonOut]}, 404),
    url_name="seasons",
    operation_id="seasons_list",
    summary="The club's seasons",
    description=MEMBERS_,
)
def seasons_list(request: HttpRequest, club: str) -> JsonResponse:
    found = club_for(caller_of(request), club, roles=MEMBERS)
    return _ok([selectors.season_summary(s) for s in selectors.seasons_of(found)])


@router.post(
    C,
    response=answers({201: SeasonOut}, 404, 422, body=True),
    url_name="seasons",
    operation_id="seasons_create",
    summary="Create a season",
    description=f"{ORGANIZERS} A name and the dates from–to (YYYY-MM-DD); the end before the "
    "start is 422 dates_reversed. The season's rules may be set too (each field's description): "
    "best_count more than nights_planned is 422 best_more_than_nights, qualify_nights more "
    "than nights_planned 422 qualify_more_than_nights, scoring points with no place_points 422 "
    "no_points_table; a number out of its bounds 422 bad_number.",
)
def seasons_create(request: HttpRequest, club: str, payload: SeasonIn) -> JsonResponse:
    caller = caller_of(request)
    found = club_for(caller, club)
    season = services.season_create(club=found, actor=caller.actor, **payload.sent())
    return _ok(_summary(season), 201)


@router.get(
    S,
    response=answers({200: SeasonOut}, 404),
    url_name="season",
    operation_id="season_get",
    summary="A season and its drives",
    description=MEMBERS_,
)
def season_detail(request: HttpRequest, club: str, season: str) -> JsonResponse:
    return _ok(_summary(_season(request, club, season)))


@router.patch(
    S,
    response=answers({200: SeasonOut}, 404, 409, 422, body=True),
    url_name="season",
    operation_id="season_patch",
    summary="Change a season's name, dates, publication or rules",
    description=f"{ORGANIZERS} Dates that would leave out a drive of the season are 409 "
    "drive_outside_season. The rules as in creating a season, judged with those kept: "
    "422 best_more_than_nights, qualify_more_than_nights, no_points_table, bad_number.",
)
def season_patch(
    request: HttpRequest, club: str, season: str, payload: SeasonPatch
) -> JsonResponse:
    caller = caller_of(request)
    found = _season(request, club, season, write=True)
    services.season_update(season=found, actor=caller.actor, **payload.sent())
    return _ok(_summary(found))


@router.delete(
    S,
    response=answers({204: None}, 404),
    url_name="season",
    operation_id="season_delete",
    summary="Delete a season (its drives stay)",
    description=ORGANIZERS,
)
def season_delete(request: HttpRequest, club: str, season: str) -> HttpResponse:
    found = _season(request, club, season, write=True)
    services.season_delete(season=found, actor=caller_of(request).actor)
    return HttpResponse(status=204)


@router.post(
    S + "/drives",
    response=answers({200: SeasonOut}, 404, 409, 422, body=True),
    url_name="season_drives",
    operation_id="season_add_drive",
    summary="Add a drive",
    description=f"{ORGANIZERS} A drive of the club within the season's dates: another club's "
    "drive is 404 no_such_drive (as a slug nobody has), one outside the dates 422 "
    "drive_outside_season, one in another season 409 drive_in_another_season.",
)
def season_add_drive(
    request: HttpRequest, club: str, season: str, payload: DriveIn
) -> JsonResponse:
    found = _season(request, club, season, write=True)
    drive = _club_drive(found.club, payload.drive)
    services.season_add_drive(season=found, drive=drive, actor=caller_of(request).actor)
    return _ok(_summary(found))


@router.delete(
    S + "/drives/{slug}",
    response=answers({200: SeasonOut}, 404, 422),
    url_name="season_drive",
    operation_id="season_remove_drive",
    summary="Remove a drive",
    description=f"{ORGANIZERS} A drive not in the season is 404 not_in_season.",
)
def season_remove_drive(request: HttpRequest, club: str, season: str, slug: str) -> JsonResponse:
    found = _season(request, club, season, write=True)
    drive = _club_drive(found.club, slug)
    services.season_remove_drive(season=found, drive=drive, actor=caller_of(request).actor)
    return _ok(_summary(found))


# --- standings and the cookie jar -----------------------------------------------------------------


@router.get(
    S + "/standings",
    response=answers({200: StandingsOut}, 404),
    url_name="season_standings",
    operation_id="season_standings",
    summary="The players' season standings",
    description=f"{MEMBERS_} Per player (names matched within the club, merges and splits "
    "applied): drives played, total wins, best night, average wins per drive, prizes won, and "
    "the season score by its rules (season.rules: the best N nights of M, points per place or "
    "wins, the tie rule). Players not qualified yet come last with place null; most_improved "
    "and the final's players as the rules name them.",
)
def season_standings(request: HttpRequest, club: str, season: str) -> JsonResponse:
    found = _season(request, club, season)
    view = selectors.season_view(found)
    return _ok(
        {
            "season": selectors.season_summary(found, view.drives),
            "players": selectors.standings_rows(view),
            "most_improved": selectors.improved_rows(view),
            "final": selectors.final_rows(view),
        }
    )


@router.get(
    S + "/cookie-jar",
    response=answers({200: JarOut}, 404),
    url_name="season_jar",
    operation_id="season_cookie_jar",
    summary="The cookie jar from drive to drive",
    description=f"{MEMBERS_} What each drive's jar carried in, held and carried out; gaps: "
    "drives whose carry-in is not what the drive before carried out.",
)
def season_cookie_jar(request: HttpRequest, club: str, season: str) -> JsonResponse:
    found = _season(request, club, season)
    return _ok(selectors.season_jar(selectors.season_drives(found)))


@router.get(
    S + "/money",
    response=answers({200: SeasonMoneyOut}, 403, 404),
    url_name="season_money",
    operation_id="season_money",
    summary="The money each drive of the season raised",
    description=f"{ORGANIZERS} Per drive (date order) its money in, money out and net raised "
    "(the night's money's ledger, money/); the season's totals, one per currency.",
)
def season_money(request: HttpRequest, club: str, season: str) -> JsonResponse:
    found = _season(request, club, season, write=True)  # the money is the organizers'
    drives = selectors.season_drives(found)
    return _ok(
        {"season": selectors.season_summary(found, drives), **selectors.season_money(drives)}
    )


# --- players --------------------------------------------------------------------------------------


@router.get(
    S + "/players",
    response=answers({200: PlayersOut}, 404),
    url_name="season_players",
    operation_id="season_players",
    summary="The season's merges and splits of players",
    description=MEMBERS_,
)
def season_players(request: HttpRequest, club: str, season: str) -> JsonResponse:
    return _ok(selectors.identities_view(_season(request, club, season)))


@router.post(
    S + "/players/merge",
    response=answers({200: PlayersOut}, 404, 409, 422, body=True),
    url_name="season_merge",
    operation_id="season_players_merge",
    summary="Merge two spellings of one person",
    description=f"{ORGANIZERS} name counts as into from now on. One player twice is 422 "
    "same_player; a name not played in the season 404 no_such_player; two names that played "
    "the same night 409 played_together.",
)
def season_merge(request: HttpRequest, club: str, season: str, payload: MergeIn) -> JsonResponse:
    found = _season(request, club, season, write=True)
    services.player_merge(
        season=found, name=payload.name, into=payload.into, actor=caller_of(request).actor
    )
    return _ok(selectors.identities_view(found))


@router.post(
    S + "/players/unmerge",
    response=answers({200: PlayersOut}, 404, 422, body=True),
    url_name="season_unmerge",
    operation_id="season_players_unmerge",
    summary="Undo the merges of a player",
    description=f"{ORGANIZERS} 404 not_merged.",
)
def season_unmerge(
    request: HttpRequest, club: str, season: str, payload: UnmergeIn
) -> JsonResponse:
    found = _season(request, club, season, write=True)
    services.player_unmerge(season=found, name=payload.name, actor=caller_of(request).actor)
    return _ok(selectors.identities_view(found))


@router.post(
    S + "/players/split",
    response=answers({200: PlayersOut}, 404, 422, body=True),
    url_name="season_split",
    operation_id="season_players_split",
    summary="Split two people of one name",
    description=f"{ORGANIZERS} At the drive, the player name counts as as_name (another "
    "person). The same name again is 422 same_player; a name not played there 404 "
    "no_such_player.",
)
def season_split(request: HttpRequest, club: str, season: str, payload: SplitIn) -> JsonResponse:
    found = _season(request, club, season, write=True)
    drive = _club_drive(found.club, payload.drive)
    services.player_split(
        season=found,
        drive=drive,
        name=payload.name,
        as_name=payload.as_name,
        actor=caller_of(request).actor,
    )
    return _ok(selectors.identities_view(found))


@router.post(
    S + "/players/unsplit",
    response=answers({200: PlayersOut}, 404, 422, body=True),
    url_name="season_unsplit",
    operation_id="season_players_unsplit",
    summary="Undo a split",
    description=f"{ORGANIZERS} 404 not_split.",
)
def season_unsplit(
    request: HttpRequest, club: str, season: str, payload: UnsplitIn
) -> JsonResponse:
    found = _season(request, club, season, write=True)
    drive = _club_drive(found.club, payload.drive)
    services.player_unsplit(
        season=found, drive=drive, name=payload.name, actor=caller_of(request).actor
    )
    return _ok(selectors.identities_view(found))
