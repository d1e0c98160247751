"""The club's players in the JSON API (docs/api.md, "Players"): a router that
``config.urls`` mounts on the site's API, as it mounts the seasons'. The door's type-ahead reads
it: the players whose name has a word starting with what was typed, with their nights, never
their phone or e-mail.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from ninja import Router
from ninja.params.functions import Query
from pydantic import BaseModel, ConfigDict

from api.auth import AUTH, MEMBERS, caller_of, club_for
from api.schemas import answers
from club import selectors

router = Router(auth=AUTH, tags=["players"])


class ClubPlayerOut(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: int
    name: str
    nights: int
    last_night: str | None


def row_answer(row: selectors.PlayerRow) -> dict[str, object]:
    """A player as the door sees it: no phone, no e-mail."""
    last = row.last_night.isoformat() if row.last_night else None
    return {"id": row.player.pk, "name": row.player.name, "nights": row.nights, "last_night": last}


@router.get(
    "/clubs/{club}/players",
    response=answers({200: list[ClubPlayerOut]}, 404),
    url_name="club-players",
    operation_id="club_players",
    summary="The club's players whose name starts a word with q (the door's type-ahead)",
    description="Organizer or scorer of the club. Up to 10 players, by name; case, accents "
    "and spaces ignored (q=ther finds Thérèse MacNeil). Nothing typed: none.",
)
def club_players(
    request: HttpRequest,
    club: str,
    q: str = Query("", description="What was typed (its first 80 characters count)."),
) -> JsonResponse:
    found = club_for(caller_of(request), club, roles=MEMBERS)
    rows = selectors.players_suggest(found, q)
    return JsonResponse(
        [row_answer(r) for r in rows], safe=False, json_dumps_params={"ensure_ascii": False}
    )
