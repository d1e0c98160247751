"""The OpenAPI 3.1 description of the API, served at ``/api/v1/openapi.json``.

Written by hand, next to the URLs it describes; a test checks that every URL pattern and
method of ``scoring.api.urls`` is here and that every ``$ref`` resolves. docs/api.md tells
the same story in words.
"""

from __future__ import annotations

from typing import Any

from drives.models import Drive
from engine.rules import PRESETS

JSON = "application/json"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _nullable(kind: str, **extra: Any) -> dict[str, Any]:
    return {"type": [kind, "null"], **extra}


def _list(item: str) -> dict[str, Any]:
    return {"type": "array", "items": _ref(item)}


ERRORS = {
    400: "The body is not JSON (`bad_json`), not the object or list expected (`bad_body`), or "
    "missing (`missing_body`).",
    401: "No credentials (`not_authenticated`) or a token that is nobody's (`bad_token`).",
    403: "Not allowed: a member without the role (`forbidden`), a closed drive's token "
    "(`token_expired`), another table (`wrong_table`), a token where an account is needed "
    "(`token_not_allowed`), a failed CSRF check of a session request (`csrf_failed`).",
    404: "No such drive, or a drive of another club, or a token of another drive "
    "(`not_found`); no such game or couple.",
    409: "In the way of something already there.",
    413: "The body is larger than 1 MB (`body_too_large`).",
    415: "The body is not text/csv (`unsupported_media_type`).",
    422: "Invalid: the `code` names the problem (an engine code for a score, e.g. "
    "`not_whole_hands`; `unusual_score`; `wrong_couple`; `drive_closed`; `unknown_field`; "
    "`bad_text`: a NUL or a lone surrogate, its place in `path`).",
    429: "Too many unknown tokens from this address (`rate_limited`): wait `retry_after` "
    "seconds (also in the `Retry-After` header).",
    503: "The print queue (the broker) is not reachable (`print_queue_down`): the document is "
    "marked failed; try again in a moment.",
}


def _error(status: int, text: str | None = None) -> dict[str, Any]:
    return {
        "description": text or ERRORS[status],
        "content": {JSON: {"schema": _ref("Error")}},
    }


def _ok(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": schema}}}


def _body(schema: dict[str, Any], *, required: bool = True, media: str = JSON) -> dict[str, Any]:
    return {"required": required, "content": {media: {"schema": schema}}}


def _param(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": name,
        "in": "path",
        "required": True,
        "description": description,
        "schema": schema,
    }


NUMBER = {"type": "integer", "minimum": 1, "maximum": 999_999_999}
# A player's name: some text (spaces are collapsed), at most 80 characters.
NAME = {"type": "string", "maxLength": 80, "pattern": r"\S"}
SLUG = _param("slug", "The drive's slug.", {"type": "string", "pattern": "^[-a-zA-Z0-9_]+$"})
GAME = _param("n", "The game's number (1 = the first game).", NUMBER)
TABLE = _param("t", "The table's number.", NUMBER)
COUPLE = _param("number", "The couple's number.", NUMBER)
ALLOW_DUPLICATES = {
    "name": "allow_duplicates",
    "in": "query",
    "required": False,
    "description": "Register the file's couples even those already registered or listed "
    "twice (409 duplicate_couples otherwise); the audit entry names them.",
    "schema": {"type": "boolean", "default": False},
}


def _op(
    op_id: str,
    summary: str,
    *,
    ok: dict[int, dict[str, Any]],
    errors: tuple[int, ...],
    body: dict[str, Any] | None = None,
    tags: tuple[str, ...] = (),
    description: str = "",
    public: bool = False,
    query: tuple[dict[str, Any], ...] = (),
) -> dict[str, Any]:
    responses: dict[str, Any] = {str(status): value for status, value in ok.items()}
    shown = set(errors) | ({401, 403, 429} if not public else set())
    if body is not None:
        shown |= {400, 413}
    for status in sorted(shown):
        responses[str(status)] = _error(status)
    operation: dict[str, Any] = {
        "operationId": op_id,
        "summary": summary,
        "tags": list(tags),
        "responses": responses,
    }
    if description:
        operation["description"] = description
    if query:
        operation["parameters"] = list(query)
    if body is not None:
        operation["requestBody"] = body
    if public:
        operation["security"] = []
    return operation


SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "description": "Every error: a stable code, words for a person, and details by code "
        "(missing/conflicts/pending tables, CSV errors, the engine's verdict…).",
        "required": ["code", "message"],
        "properties": {
            "code": {"type": "string"},
            "message": {"type": "string"},
            "field": {"type": "string"},
            "path": {
                "type": "string",
                "description": "`bad_text`: where the text is (`prizes[1].description`).",
            },
            "errors": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"line": {"type": "integer"}, "message": {"type": "string"}},
                },
            },
            "duplicates": {
                "type": "array",
                "description": "duplicate_couples: the file's rows already registered "
                "(couple) or listed on an earlier line (same_as_line).",
                "items": {
                    "type": "object",
                    "properties": {
                        "line": {"type": "integer"},
                        "players": {"type": "array", "items": {"type": "string"}},
                        "couple": _nullable("integer"),
                        "same_as_line": _nullable("integer"),
                    },
                },
            },
            "verdict": _ref("Verdict"),
            "missing": {"type": "array", "items": {"type": "integer"}},
            "conflicts": {"type": "array", "items": {"type": "integer"}},
            "pending": {"type": "array", "items": {"type": "integer"}},
            "winner": {"type": "integer"},
            "points": {"type": ["array", "null"], "items": {"type": "integer"}},
            "differs": {
                "type": "array",
                "items": {"enum": ["winner", "points"]},
                "description": "key_reused, result_conflict: what differs from the result "
                "stored (winner and points just above).",
            },
            "key": {"type": "string", "description": "key_reused: the key sent again."},
            "table": _nullable("integer"),
            "game": {"type": "integer"},
            "allowed": {"type": "array", "items": {"type": "string"}},
            "couple": {
                "type": ["integer", "null"],
                "description": "duplicate_couple: the couple the names already are (null "
                "when an earlier item of the list, same_as); started: the couple.",
            },
            "players": {"type": "array", "items": {"type": "string"}},
            "item": {"type": "integer", "description": "duplicate_couple: the list's item."},
            "same_as": _nullable("integer"),
        },
        "additionalProperties": True,
    },
    "Verdict": {
        "type": "object",
        "description": "The engine's judgement on a final score.",
        "properties": {
            "status": {"enum": ["ok", "unusual", "impossible"]},
            "code": {"type": "string"},
            "message": {"type": "string"},
            "hand": {"type": "integer"},
        },
    },
    "DriveSettings": {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "name": {"type": "string", "maxLength": 120, "pattern": r"\S"},
            "date": {"type": "string", "format": "date"},
            "venue": {"type": "string", "maxLength": 200},
            "games": {"type": "integer", "minimum": 1, "maximum": 60, "default": 25},
            "ruleset": {"enum": list(PRESETS), "default": "cape-breton-45"},
            "movement": {"enum": list(Drive.Movement.values), "default": "winners-move"},
            "first_seating": {"enum": list(Drive.FirstSeating.values), "default": "by-number"},
            "seed": _nullable("integer", minimum=0, maximum=2**63 - 1),
            "sit_out_counts_as_win": {"type": "boolean", "default": True},
            "ranking": {"enum": list(Drive.Ranking.values), "default": "dense"},
            "entry_fee": {
                "oneOf": [
                    {"type": "string", "pattern": r"^\d{1,6}(\.\d{1,2})?$"},
                    {"type": "integer", "minimum": 0, "maximum": 999_999},
                ],
                "description": 'An amount from 0, to the cent (a string like "5.00").',
            },
            "currency": {
                "type": "string",
                "pattern": "^[A-Za-z]{3}$",
                "description": "Three letters A–Z, like CAD (either case; stored upper-case).",
            },
            "confirm_by_other_couple": {"type": "boolean", "default": False},
            "scorers_may_advance": {
                "type": "boolean",
                "default": True,
                "description": "Scorers may start the next game (organizers always may).",
            },
            "published": {
                "type": "boolean",
                "default": False,
                "description": "The results page is public; may change after the close.",
            },
        },
    },
    "Drive": {
        "type": "object",
        "properties": {
            "slug": {"type": "string"},
            "club": {"type": "string"},
            "name": {"type": "string"},
            "date": {"type": "string", "format": "date"},
            "venue": {"type": "string"},
            "games": {"type": "integer"},
            "ruleset": {"type": "string"},
            "movement": {"type": "string"},
            "first_seating": {"type": "string"},
            "seed": _nullable("integer"),
            "sit_out_counts_as_win": {"type": "boolean"},
            "sit_out_last": {
                "type": "boolean",
                "description": "The sit-out is no table: the tables played are 1..F without a "
                "hole (false only for drives stored before this rule).",
            },
            "ranking": {"type": "string"},
            "entry_fee": {"type": "string"},
            "currency": {"type": "string"},
            "confirm_by_other_couple": {"type": "boolean"},
            "scorers_may_advance": {"type": "boolean"},
            "published": {"type": "boolean"},
            "state": {"enum": list(Drive.State.values)},
            "current_game": {"type": "integer", "description": "0 before the start."},
            "created_at": {"type": "string", "format": "date-time"},
            "closed_at": _nullable("string", format="date-time"),
        },
    },
    "DriveDetail": {
        "allOf": [
            _ref("Drive"),
            {
                "type": "object",
                "properties": {
                    "counts": {
                        "type": "object",
                        "properties": {
                            "couples": {"type": "integer"},
                            "withdrawn": {"type": "integer"},
                            "tables": {
                                "type": "integer",
                                "description": "Tables of the game in play.",
                            },
                        },
                    },
                    "game": {
                        "type": ["object", "null"],
                        "description": "The game in play: how many tables reported, which "
                        "are missing, in conflict, pending; null before the start.",
                    },
                },
            },
        ],
    },
    "CoupleIn": {
        "type": "object",
        "additionalProperties": False,
        "description": "Two players' names, as players or as player1 and player2.",
        "anyOf": [{"required": ["players"]}, {"required": ["player1", "player2"]}],
        "properties": {
            "players": {"type": "array", "items": NAME, "minItems": 2, "maxItems": 2},
            "player1": NAME,
            "player2": NAME,
            "paid": {"type": "boolean"},
            "checked_in": {"type": "boolean"},
            "cookie_jar": {"type": "boolean"},
            "duplicate_ok": {
                "type": "boolean",
                "default": False,
                "description": "Register the couple even though the same two people are "
                "already an active couple of the drive (or an earlier item of the list); "
                "otherwise 409 duplicate_couple.",
            },
        },
    },
    "CouplePatch": {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "players": {"type": "array", "items": NAME, "minItems": 2, "maxItems": 2},
            "player1": NAME,
            "player2": NAME,
            "paid": {"type": "boolean"},
            "checked_in": {"type": "boolean"},
            "cookie_jar": {"type": "boolean"},
            "withdrawn": {
                "type": "boolean",
                "description": "true: plays no more from the next game.",
            },
        },
    },
    "Couple": {
        "type": "object",
        "properties": {
            "number": {"type": "integer"},
            "players": {"type": "array", "items": {"type": "string"}},
            "paid": {"type": "boolean"},
            "checked_in": {"type": "boolean"},
            "cookie_jar": {"type": "boolean"},
            "withdrawn": {"type": "boolean"},
            "joined_game": {"type": "integer"},
            "withdrawn_game": _nullable("integer"),
            "holes": _nullable("integer"),
        },
    },
    "Start": {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "seating": {"enum": list(Drive.FirstSeating.values)},
            "seed": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1},
            "absent": {
                "enum": ["seat", "withdraw"],
                "default": "seat",
                "description": "The couples not checked in: seated anyway, or left out "
                "(withdrawn before game 1).",
            },
        },
    },
    "TableRow": {
        "type": "object",
        "properties": {
            "table": {"type": "integer"},
            "stays": _nullable("integer"),
            "arrives": _nullable("integer"),
            "deals": {"type": "integer"},
            "sit_out": {"type": "boolean"},
            "winner": _nullable("integer"),
            "points": {"type": ["array", "null"], "items": {"type": "integer"}},
            "state": {"enum": ["missing", "sit-out", "accepted", "pending", "conflict"]},
        },
    },
    "Game": {
        "type": "object",
        "properties": {
            "number": {"type": "integer"},
            "state": {"enum": ["playing", "finished"]},
            "started_at": {"type": "string", "format": "date-time"},
            "tables": _list("TableRow"),
            "missing": {"type": "array", "items": {"type": "integer"}},
            "conflicts": {"type": "array", "items": {"type": "integer"}},
            "pending": {"type": "array", "items": {"type": "integer"}},
            "unusual": {"type": "array", "items": {"type": "integer"}},
            "reported": {"type": "integer"},
            "to_report": {"type": "integer"},
        },
    },
    "ResultIn": {
        "type": "object",
        "additionalProperties": False,
        "required": ["winner"],
        "properties": {
            "winner": {"type": "integer", "description": "The winning couple's number."},
            "points": {
                "type": "array",
                "items": {"type": "integer"},
                "minItems": 2,
                "maxItems": 2,
                "description": "Final points, winner's first (either order is understood).",
            },
            "key": {
                "type": "string",
                "maxLength": 80,
                "description": "A client-generated id: the same key again is a replay (200).",
            },
            "confirm_unusual": {"type": "boolean", "default": False},
        },
    },
    "Confirm": {
        "type": "object",
        "additionalProperties": False,
        "required": ["accept"],
        "properties": {"accept": {"type": "boolean"}},
    },
    "Resolve": {
        "type": "object",
        "additionalProperties": False,
        "required": ["winner", "reason"],
        "properties": {
            "winner": {"type": "integer"},
            "reason": {"type": "string", "maxLength": 1000},
            "points": {"type": "array", "items": {"type": "integer"}, "minItems": 2},
        },
    },
    "Result": {
        "type": "object",
        "properties": {
            "game": {"type": "integer"},
            "table": {"type": "integer"},
            "winner": {"type": "integer"},
            "points": {"type": ["array", "null"], "items": {"type": "integer"}},
            "state": {"enum": ["accepted", "pending", "conflict"]},
            "verdict": _nullable("string", description="The engine's code for the points."),
            "replayed": {
                "type": "boolean",
                "description": "True only when nothing was written because the same thing "
                "had already been done.",
            },
        },
    },
    "Standing": {
        "type": "object",
        "properties": {
            "place": _nullable("integer"),
            "number": {"type": "integer"},
            "players": {"type": "array", "items": {"type": "string"}},
            "wins": {"type": "integer"},
            "played": {"type": "integer"},
            "withdrawn": {"type": "boolean"},
            "eligible": {"type": "boolean"},
        },
    },
    "GridRow": {
        "type": "object",
        "properties": {
            "number": {"type": "integer"},
            "players": {"type": "array", "items": {"type": "string"}},
            "wins": {"type": "integer"},
            "played": {"type": "integer"},
            "withdrawn": {"type": "boolean"},
            "games": {
                "type": "object",
                "description": "Game number → W won, L lost, S sit-out credited, - sit-out "
                "not credited, ? no accepted result yet.",
                "additionalProperties": {"enum": ["W", "L", "S", "-", "?"]},
            },
        },
    },
    "CurrentTable": {
        "type": "object",
        "properties": {
            "number": {"type": "integer"},
            "table": {"type": "integer"},
            "opponents": _nullable("integer"),
            "deals": {"type": "boolean"},
            "sit_out": {"type": "boolean"},
        },
    },
    "Mismatch": {
        "type": "object",
        "properties": {
            "number": {"type": "integer"},
            "holes": {"type": "integer"},
            "wins": {"type": "integer"},
            "difference": {"type": "integer"},
            "won_games": {"type": "array", "items": {"type": "integer"}},
        },
    },
    "Holes": {
        "type": "object",
        "additionalProperties": False,
        "required": ["holes"],
        "properties": {
            "holes": {
                "type": "object",
                "description": 'Couple number → holes counted, e.g. {"12": 18}.',
                "additionalProperties": {"type": "integer", "minimum": 0},
            }
        },
    },
    "HolesRecorded": {
        "type": "object",
        "properties": {
            "recorded": {"type": "integer"},
            "reconciliation": _list("Mismatch"),
        },
    },
    "Export": {
        "type": "object",
        "description": "The drive's full record: drive, couples, games with every table's "
        "seating, result and versions, prizes, ties, cookie jar and audit.",
        "required": ["format", "drive", "couples", "games", "audit"],
        "properties": {
            "format": {"const": "fortyfives-drive/1"},
            "drive": _ref("Drive"),
            "couples": {"type": "array", "items": {"type": "object"}},
            "games": {"type": "array", "items": {"type": "object"}},
            "closed_tables": {"type": "object"},
            "prizes": {"type": "array"},
            "ties": {"type": "array"},
            "cookie_jar": {"type": "object"},
            "audit": {"type": "array", "items": {"type": "object"}},
        },
    },
    "Me": {
        "type": "object",
        "required": ["kind", "via"],
        "properties": {
            "kind": {"enum": ["user", "table", "couple"]},
            "via": {"enum": ["session", "bearer"]},
            "user": {
                "type": "object",
                "properties": {
                    "username": {"type": "string"},
                    "name": {"type": "string"},
                    "superuser": {"type": "boolean"},
                },
            },
            "clubs": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "slug": {"type": "string"},
                        "name": {"type": "string"},
                        "role": {"enum": ["organizer", "scorer"]},
                    },
                },
            },
            "drive": {"type": "object", "description": "The drive of a table or couple token."},
            "table": {"type": "integer"},
            "couple": _ref("Couple"),
            "seat": {"oneOf": [_ref("CurrentTable"), {"type": "null"}]},
        },
    },
}

# A new drive: its club and the settings (an allOf with DriveSettings could not add the club,
# as the settings allow no other property).
SCHEMAS["DriveCreate"] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["club", "name", "date"],
    "properties": {"club": {"type": "string", "description": "The club's slug."}}
    | SCHEMAS["DriveSettings"]["properties"],
}

DRIVE_TAG, COUPLE_TAG, GAME_TAG, END_TAG = "drives", "couples", "games and results", "standings"


def _paths() -> dict[str, Any]:
    d = "/drives/{slug}"
    game = f"{d}/games/{{n}}"
    table = f"{game}/tables/{{t}}"
    organizer = "Organizer of the drive's club."
    members = "Organizer or scorer of the drive's club."
    readers = "Members of the drive's club, and the drive's table and couple tokens."
    return {
        "/me": {
            "get": _op(
                "me", "Who the session or token is", tags=("who",), errors=(),
                ok={200: _ok("A user with their clubs and roles, or a token's table or "
                             "couple and drive.", _ref("Me"))},
            ),
        },
        "/openapi.json": {
            "get": _op(
                "openapi", "This description", public=True, errors=(),
                ok={200: _ok("OpenAPI 3.1", {"type": "object"})},
            ),
        },
        "/drives": {
            "get": _op(
                "drives_list", "The drives of the caller's clubs", tags=(DRIVE_TAG,), errors=(),
                ok={200: _ok("Drives, newest first", _list("Drive"))},
            ),
            "post": _op(
                "drives_create", "Create a drive", tags=(DRIVE_TAG,), errors=(404, 409, 422),
                description=f"{organizer} The club is named by its slug. Drives of the same "
                "name and date get slugs ending -2, -3 …, also when created at the same instant; "
                "409 slug_taken only when too many are created at once (try again).",
                body=_body(_ref("DriveCreate")),
                ok={201: _ok("The new drive", _ref("Drive"))},
            ),
        },
        d: {
            "parameters": [SLUG],
            "get": _op(
                "drive_get", "A drive, its counts and the game in play", tags=(DRIVE_TAG,),
                description=readers, errors=(404,),
                ok={200: _ok("The drive", _ref("DriveDetail"))},
            ),
            "patch": _op(
                "drive_patch", "Change a drive's settings", tags=(DRIVE_TAG,),
                description=f"{organizer} games, first_seating, seed and movement are fixed "
                "once the night started (409 drive_started).",
                errors=(404, 409, 422), body=_body(_ref("DriveSettings")),
                ok={200: _ok("The drive", _ref("Drive"))},
            ),
        },
        f"{d}/start": {
            "parameters": [SLUG],
            "post": _op(
                "drive_start", "Seat game 1", tags=(GAME_TAG,), errors=(404, 409, 422),
                description=f"{organizer} By number, or shuffled from a seed (drawn and "
                "recorded if not given). absent: the couples not checked in are seated "
                "(seat, the default) or withdrawn before game 1 (withdraw); another value is "
                "422 bad_field naming absent. 409 already_started.",
                body=_body(_ref("Start"), required=False),
                ok={201: _ok("Game 1", _ref("Game"))},
            ),
        },
        f"{d}/close": {
            "parameters": [SLUG],
            "post": _op(
                "drive_close", "Close the night", tags=(END_TAG,), errors=(404, 422),
                description=f"{organizer} Read-only from then on; table and couple tokens die.",
                body=_body({"type": "object", "maxProperties": 0}, required=False),
                ok={200: _ok("The closed drive", _ref("Drive"))},
            ),
        },
        f"{d}/couples": {
            "parameters": [SLUG],
            "get": _op(
                "couples_list", "The couples, by number", tags=(COUPLE_TAG,),
                description=members, errors=(404,),
                ok={200: _ok("Couples", _list("Couple"))},
            ),
            "post": _op(
                "couples_add", "Register one couple or a list (numbers assigned in order)",
                tags=(COUPLE_TAG,), errors=(404, 409, 422),
                description=f"{members} All or nothing. Once the night runs they are late "
                "arrivals, seated from the next game. The same two people as an active "
                "couple (either order, ignoring case, accents and spaces) or an earlier item "
                "is 409 duplicate_couple naming the couple, unless duplicate_ok is true.",
                body=_body({"oneOf": [_ref("CoupleIn"), _list("CoupleIn") | {"minItems": 1}]}),
                ok={201: _ok("The new couples", _list("Couple"))},
            ),
        },
        f"{d}/couples/import": {
            "parameters": [SLUG],
            "post": _op(
                "couples_import", "Import couples from a CSV file", tags=(COUPLE_TAG,),
                errors=(404, 409, 415, 422),
                description=f"{members} Header player1,player2 (and optionally paid, "
                "checked_in, cookie_jar as yes/no). All rows or none: 422 bad_rows lists "
                "errors=[{line, message}]. A couple already registered (the same two people, "
                "not withdrawn, in either order, ignoring case, accents and spaces) or listed "
                "twice in the file refuses the whole file with 409 duplicate_couples, whose "
                "duplicates=[{line, players, couple, same_as_line}] name them, unless "
                "allow_duplicates=true.",
                body=_body({"type": "string"}, media="text/csv"),
                ok={201: _ok("The new couples", _list("Couple"))},
                query=(ALLOW_DUPLICATES,),
            ),
        },
        f"{d}/couples/{{number}}": {
            "parameters": [SLUG, COUPLE],
            "patch": _op(
                "couple_patch", "Check in, paid, cookie jar, names, withdraw",
                tags=(COUPLE_TAG,), errors=(404, 409, 422), description=members,
                body=_body(_ref("CouplePatch")),
                ok={200: _ok("The couple", _ref("Couple"))},
            ),
            "delete": _op(
                "couple_delete", "Delete a couple registered by mistake (before the start)",
                tags=(COUPLE_TAG,), errors=(404, 409, 422),
                description=f"{members} Only before the night starts; after, 409 started "
                "(withdraw the couple instead). The other couples keep their numbers; the "
                "next couple registered takes the number after the highest left. Audited.",
                ok={204: {"description": "Deleted"}},
            ),
        },
        f"{d}/games/current": {
            "parameters": [SLUG],
            "get": _op(
                "game_current", "The game in play", tags=(GAME_TAG,), description=readers,
                errors=(404,), ok={200: _ok("The game", _ref("Game"))},
            ),
        },
        game: {
            "parameters": [SLUG, GAME],
            "get": _op(
                "game_get", "A game: seating, who deals, results, missing tables",
                tags=(GAME_TAG,), description=readers, errors=(404,),
                ok={200: _ok("The game", _ref("Game"))},
            ),
        },
        f"{game}/advance": {
            "parameters": [SLUG, GAME],
            "post": _op(
                "game_advance", "Start the next game", tags=(GAME_TAG,),
                errors=(404, 422),
                description=f"{members} (scorers only if the drive's scorers_may_advance is "
                "true, the default). Only when every table has an accepted result. Computed "
                "once: pressing again answers 200 with the same game.",
                body=_body({"type": "object", "maxProperties": 0}, required=False),
                ok={
                    201: _ok("The new game", _ref("Game")),
                    200: _ok("Already advanced: the game that followed", _ref("Game")),
                    409: _error(409, "game_incomplete: missing, conflicts and pending list "
                                     "the tables in the way."),
                },
            ),
        },
        f"{table}/result": {
            "parameters": [SLUG, GAME, TABLE],
            "put": _op(
                "result_put", "Enter a table's result", tags=(GAME_TAG,), errors=(404, 422),
                description=f"{members} (channel desk by session, api by token); a table "
                "token for its own table (another table: 403 wrong_table); a couple token "
                "for the table it plays at. Only the game in play takes new results.",
                body=_body(_ref("ResultIn")),
                ok={
                    201: _ok("Stored", _ref("Result")),
                    200: _ok("A replay (replayed: true), nothing written: the same key with "
                             "the same winner and points, or the same winner with the same "
                             "points or none", _ref("Result")),
                    409: _error(409, "key_reused: the same key came with another body "
                                     "(winner or points; differs names them): refused, "
                                     "nothing stored. result_conflict: another winner, or "
                                     "the same winner with other points, is already there "
                                     "(differs says which); both are kept and the table is "
                                     "in conflict."),
                },
            ),
        },
        f"{table}/confirm": {
            "parameters": [SLUG, GAME, TABLE],
            "post": _op(
                "result_confirm", "The other couple confirms or rejects a pending result",
                tags=(GAME_TAG,), errors=(404, 409, 422),
                description="A couple token of the table's other couple, on a drive with "
                "confirm_by_other_couple. A rejection puts the table in conflict.",
                body=_body(_ref("Confirm")),
                ok={200: _ok("The result (replayed: the same answer again)", _ref("Result"))},
            ),
        },
        f"{table}/resolve": {
            "parameters": [SLUG, GAME, TABLE],
            "post": _op(
                "result_resolve", "Settle a conflict or correct a result", tags=(GAME_TAG,),
                errors=(404, 422),
                description=f"{members} Until the drive is closed; after the next game "
                "started it changes wins and standings, not the seating played.",
                body=_body(_ref("Resolve")),
                ok={200: _ok("The result (replayed: the same settlement again, by the same "
                             "person, nothing written)", _ref("Result"))},
            ),
        },
        f"{d}/standings": {
            "parameters": [SLUG],
            "get": _op(
                "standings", "Standings with places", tags=(END_TAG,), description=readers,
                errors=(404,), ok={200: _ok("Standings", _list("Standing"))},
            ),
        },
        f"{d}/grid": {
            "parameters": [SLUG],
            "get": _op(
                "grid", "The win grid: per couple, game by game", tags=(END_TAG,),
                description=readers, errors=(404,),
                ok={200: _ok("Rows by couple number", _list("GridRow"))},
            ),
        },
        f"{d}/tables": {
            "parameters": [SLUG],
            "get": _op(
                "tables", "Couple → table in the game in play", tags=(GAME_TAG,),
                description=readers, errors=(404,),
                ok={200: _ok("Rows by couple number", _list("CurrentTable"))},
            ),
        },
        f"{d}/export": {
            "parameters": [SLUG],
            "get": _op(
                "export", "The drive's full record", tags=(END_TAG,), description=members,
                errors=(404,), ok={200: _ok("The export", _ref("Export"))},
            ),
        },
        f"{d}/holes": {
            "parameters": [SLUG],
            "post": _op(
                "holes", "Record the holes counted on punch cards", tags=(END_TAG,),
                description=members, errors=(404, 422), body=_body(_ref("Holes")),
                ok={200: _ok("Recorded, with the mismatches", _ref("HolesRecorded"))},
            ),
        },
        f"{d}/reconciliation": {
            "parameters": [SLUG],
            "get": _op(
                "reconciliation", "Punch cards against recorded wins", tags=(END_TAG,),
                description=members, errors=(404,),
                ok={200: _ok("Couples whose holes differ from their wins",
                             _list("Mismatch"))},
            ),
        },
    }  # fmt: skip


# --- prizes and ties ------------------------------------------------------------------------------

PRIZE_TAG = "prizes"
TIE = _param("tie", "The tie's id (from GET …/prizes/ties).", NUMBER)
_PRIZE = {
    "type": "object",
    "description": "Money to the cent in the drive's currency, or a prize in kind.",
    "properties": {
        "amount": _nullable("string", pattern=r"^\d+(\.\d{1,2})?$"),
        "description": {"type": "string", "maxLength": 200},
    },
}
_AWARD = {
    "type": "object",
    "properties": {
        "couple": {"type": "integer"},
        "amount": _nullable("string"),
        "description": {"type": "string"},
        "how": {"enum": ["direct", "split", "cut", "play-off", "forfeit-award"]},
        "tie": _nullable("integer"),
    },
}
_ENTRY = {
    "prize": _ref("Prize"),
    "couples": {"type": "array", "items": {"type": "integer"}},
    "wins": _nullable("integer"),
    "status": {"enum": ["awarded", "tie", "empty"]},
    "tie": _nullable("integer"),
    "awards": _list("Award"),
}
SCHEMAS.update(
    {
        "Prize": _PRIZE,
        "Award": _AWARD,
        "PrizeSetup": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "prize_places": {"type": "integer", "minimum": 0, "maximum": 20},
                "prizes": {"type": "array", "items": {"oneOf": [_ref("Prize"), {"type": "null"}]}},
                "booby": {"type": "boolean"},
                "booby_prize": {"oneOf": [_ref("Prize"), {"type": "null"}]},
                "booby_late_couples": {
                    "type": "boolean",
                    "description": "Couples who missed games (late arrivals) may take the booby "
                    "prize too (false: only couples who played every game).",
                },
                "cookie_jar": {"type": "boolean"},
                "cookie_jar_k": {"type": "integer", "minimum": 1},
                "buy_in": {"type": ["string", "number"]},
                "bought_in": {
                    "type": "integer", "readOnly": True,
                    "description": "Couples who bought into the cookie jar at the door: with "
                    "any, cookie_jar is true (setting it false is refused, 422 "
                    "couples_bought_in).",
                },
                "jackpot_threshold": _nullable("integer"),
                "jackpot_amount": {"type": ["string", "number", "null"]},
                "cut_ace_high": {"type": "boolean"},
                "cut_high_wins": {
                    "type": "boolean",
                    "description": "The highest card wins a cut (false: the lowest).",
                },
                "house_rule": {"enum": ["none", "always-cut", "always-split"]},
                "ranking": {"enum": ["dense", "competition"], "readOnly": True},
                "currency": {"type": "string", "readOnly": True},
            },
        },
        "PrizeTable": {
            "type": "object",
            "properties": {
                "currency": {"type": "string"},
                "ranking": {"enum": ["dense", "competition"]},
                "night_over": {"type": "boolean"},
                "opened": {"type": "boolean"},
                "places": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"place": {"type": "integer"}, "reason": {"type": "string"}}
                        | _ENTRY,
                    },
                },
                "booby": {"type": "object", "properties": {
                    "enabled": {"type": "boolean"},
                    "every_game": {"type": "boolean"},
                    "games": {"type": "integer"},
                    "left_out": {"type": "array", "items": {"type": "object", "properties": {
                        "couple": {"type": "integer"}, "name": {"type": "string"},
                        "played": {"type": "integer"},
                        "wins": {"type": "integer"},
                    }}, "description": "Couples the every-game rule leaves out (not withdrawn, "
                                       "no prize place): they missed games."},
                } | _ENTRY},
                "jackpot": {"type": "object"},
                "cookie_jar": _ref("CookieJar"),
            },
        },
        "Tie": {
            "type": "object",
            "properties": {
                "id": {"type": "integer"},
                "key": {"type": "string"},
                "kind": {"enum": ["place", "booby", "cookie-jar"]},
                "places": {"type": "array", "items": {"type": "integer"}},
                "couples": {"type": "array", "items": {"type": "integer"}},
                "state": {"enum": ["open", "decided", "settled"]},
                "method": {"enum": ["split", "cut", "play-off", "award", "empty", None]},
                "playing": {"type": "array", "items": {"type": "integer"}},
                "forfeits": {"type": "array", "items": {"type": "integer"}},
                "winner": _nullable("integer"),
                "decided_by": _nullable("string"),
                "decided_channel": _nullable("string"),
                "decided_at": _nullable("string"),
                "choices": {"type": "array", "items": {"type": "object"}},
                "cut_rounds": {"type": "array", "items": {"type": "object"}},
                "matches": {"type": "array", "items": {"type": "object"}},
                "awards": _list("Award"),
            },
        },
        "CookieJar": {
            "type": "object",
            "required": ["enabled"],
            "properties": {
                "enabled": {"type": "boolean"},
                "k": {"type": "integer"},
                "buy_in": {"type": "string"},
                "entrants": {"type": "array", "items": {"type": "integer"}},
                "carried_in": {"type": "string"},
                "pot": {"type": "string"},
                "drawn": {"type": ["object", "null"]},
                "winners": {"type": "array", "items": {"type": "integer"}},
                "status": {"enum": ["not-drawn", "awarded", "tie", "empty", "carried-over"]},
                "needs_buy_in": {
                    "type": "boolean",
                    "description": "Couples bought in but no buy-in is set (the draw is "
                    "refused, 422 no_buy_in, until it is).",
                },
                "carried_over": _nullable("string"),
                "tie": _nullable("integer"),
                "awards": _list("Award"),
            },
        },
    }
)  # fmt: skip


def _prize_paths() -> dict[str, Any]:
    p = "/drives/{slug}/prizes"
    tie = f"{p}/ties/{{tie}}"
    organizer = "Organizer of the drive's club."
    members = "Organizer or scorer of the drive's club."
    tags = (PRIZE_TAG,)
    tie_ok = {201: _ok("The tie, with everything recorded", _ref("Tie"))}
    return {
        p: {
            "parameters": [SLUG],
            "get": _op(
                "prizes", "Every prize: places, booby, jackpot, cookie jar", tags=tags,
                description=f"{members} A preview from the standings until the ties are "
                "opened; then the stored ties and awards.", errors=(404,),
                ok={200: _ok("The prize table", _ref("PrizeTable"))},
            ),
        },
        f"{p}/setup": {
            "parameters": [SLUG],
            "get": _op(
                "prize_setup_get", "The prize set-up", tags=tags, description=members,
                errors=(404,), ok={200: _ok("The set-up", _ref("PrizeSetup"))},
            ),
            "patch": _op(
                "prize_setup_patch", "Change the prize set-up", tags=tags, errors=(404, 409, 422),
                description=f"{organizer} Fixed once the ties are opened (409 prizes_opened); "
                "the cookie jar once drawn (409 cookie_jar_drawn).",
                body=_body(_ref("PrizeSetup")),
                ok={200: _ok("The set-up", _ref("PrizeSetup"))},
            ),
        },
        f"{p}/ties": {
            "parameters": [SLUG],
            "get": _op(
                "ties_list", "The ties and how each went", tags=tags, description=members,
                errors=(404,), ok={200: _ok("Ties", _list("Tie"))},
            ),
            "post": _op(
                "ties_open", "Award the unshared prizes and open the ties", tags=tags,
                errors=(404, 409, 422),
                description=f"{organizer} After the last game (409 night_not_over; "
                '{"force": true} to open earlier). Again: no change; 409 standings_changed '
                "if the standings moved since.",
                body=_body({"type": "object", "additionalProperties": False,
                            "properties": {"force": {"type": "boolean"}}}, required=False),
                ok={200: _ok("Ties", _list("Tie"))},
            ),
        },
        f"{tie}/choices": {
            "parameters": [SLUG, TIE],
            "post": _op(
                "tie_choice", "Record a tied couple's choice", tags=tags, errors=(404, 409, 422),
                description=f"{members} split, cut, play-off or forfeit; a house rule replaces "
                "it. 409 tie_decided once decided.",
                body=_body({"type": "object", "required": ["couple", "choice"],
                            "additionalProperties": False, "properties": {
                    "couple": {"type": "integer"},
                    "choice": {"enum": ["split", "cut", "play-off", "forfeit"]}}}),
                ok=tie_ok,
            ),
        },
        f"{tie}/decide": {
            "parameters": [SLUG, TIE],
            "post": _op(
                "tie_decide", "Apply the choice rule", tags=tags, errors=(404, 409, 422),
                description=f"{members} 409 answer_needed names the couples still to choose "
                "(or to play or forfeit); 422 cannot_split for a prize in kind.",
                body=_body({"type": "object", "maxProperties": 0}, required=False),
                ok={200: _ok("The tie", _ref("Tie"))},
            ),
        },
        f"{tie}/cut": {
            "parameters": [SLUG, TIE],
            "post": _op(
                "tie_cut", "A cut: cards cut at the table, or a system draw", tags=tags,
                errors=(404, 409, 422),
                description=f'{members} {{"cards": {{"3": "7H", "5": "2C"}}}} for one round '
                '(equal lowest cut again), or {"draw": true}: the server draws the seed and '
                "records it (cut.seed, the tie's cut_rounds, the export); a seed sent is "
                "refused with 422 seed_not_accepted.",
                body=_body({"oneOf": [
                    {"type": "object", "required": ["cards"], "additionalProperties": False,
                     "properties": {
                         "cards": {"type": "object", "minProperties": 1,
                                   "additionalProperties": {"type": "string"}},
                         "draw": {"const": False}}},
                    {"type": "object", "required": ["draw"], "additionalProperties": False,
                     "properties": {"draw": {"const": True}}}]}),
                ok={201: _ok("The round(s) and the tie", {"type": "object"})},
            ),
        },
        f"{tie}/playoff": {
            "parameters": [SLUG, TIE],
            "post": _op(
                "tie_playoff", "A play-off game's result", tags=tags, errors=(404, 409, 422),
                description=f"{members} Validated like any game (the engine's code for an "
                "impossible score; unusual_score needs confirm_unusual).",
                body=_body({"type": "object", "required": ["match", "winner"],
                            "additionalProperties": False, "properties": {
                    "match": {"type": "array", "items": {"type": "integer"}, "minItems": 2,
                              "maxItems": 2},
                    "winner": {"type": "integer"},
                    "points": {"type": "array", "items": {"type": "integer"}},
                    "confirm_unusual": {"type": "boolean"}}}),
                ok={201: _ok("The match and the tie", {"type": "object"})},
            ),
        },
        f"{p}/cookie-jar": {
            "parameters": [SLUG],
            "get": _op(
                "cookie_jar", "The cookie jar", tags=tags, description=members,
                errors=(404,), ok={200: _ok("The jar", _ref("CookieJar"))},
            ),
        },
        f"{p}/cookie-jar/draw": {
            "parameters": [SLUG],
            "post": _op(
                "cookie_jar_draw", "Draw the cookie jar's games", tags=tags,
                errors=(404, 409, 422),
                description=f"{organizer} {{}} (or no body): the system draws, from a seed the "
                'server draws and records (drawn.seed); or {"games": [3, 7, …]} as drawn from a '
                "hat. After the last game. A seed sent is refused with 422 seed_not_accepted; "
                "couples bought in with no buy-in set, 422 no_buy_in.",
                body=_body({"type": "object", "additionalProperties": False, "properties": {
                    "games": {"type": "array", "items": {"type": "integer"}}}},
                    required=False),
                ok={201: _ok("The jar", _ref("CookieJar"))},
            ),
        },
    }  # fmt: skip


def openapi_spec() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Forty-Fives Card Drives API",
            "version": "1",
            "description": "Every action of a 45 card drive. Errors are JSON "
            '{"code", "message", …details} with a 4xx status. See docs/api.md.',
        },
        "servers": [{"url": "/api/v1"}],
        "security": [{"bearer": []}, {"session": []}],
        "tags": [
            {"name": name}
            for name in ("who", DRIVE_TAG, COUPLE_TAG, GAME_TAG, END_TAG, PRIZE_TAG, PRINT_TAG)
        ],
        "paths": _paths() | _prize_paths() | _document_paths(),
        "components": {
            "schemas": SCHEMAS,
            "securitySchemes": {
                "bearer": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "An organizer's or scorer's API token (manage.py apitoken), "
                    "a table's token or a couple's token.",
                },
                "session": {
                    "type": "apiKey",
                    "in": "cookie",
                    "name": "sessionid",
                    "description": "The browser session; unsafe methods need the CSRF token "
                    "in X-CSRFToken.",
                },
            },
        },
    }


# --- printed documents ----------------------------------------------------------------------------

PRINT_TAG = "printing"
DOCUMENT = _param("pk", "The document's id (from POST …/documents).", NUMBER)
SCHEMAS["Document"] = {
    "type": "object",
    "description": "A printed document and its rendering: pages_done of pages_total while it "
    "runs; stale when the data it shows has changed since (request it again).",
    "required": ["id", "document", "status", "pages_done", "pages_total", "status_url"],
    "properties": {
        "id": {"type": "integer"},
        "document": {"enum": ["punch-cards", "table-cards", "score-sheets", "movement", "results"]},
        "paper": {"enum": ["letter", "a4"]},
        "game": _nullable("integer"),
        "couple": _nullable("integer"),
        "filled": {"type": "boolean"},
        "status": {"enum": ["queued", "running", "done", "failed"]},
        "pages_done": {"type": "integer"},
        "pages_total": {"type": "integer"},
        "progress": {"type": "number", "minimum": 0, "maximum": 1},
        "error": _nullable("string"),
        "stale": {"type": "boolean"},
        "ready": {"type": "boolean"},
        "requested_at": {"type": "string", "format": "date-time"},
        "finished_at": _nullable("string", format="date-time"),
        "filename": {"type": "string"},
        "status_url": {"type": "string", "format": "uri"},
        "download_url": _nullable("string", format="uri"),
    },
}


def _document_paths() -> dict[str, Any]:
    p = "/drives/{slug}/documents"
    members = "Organizer or scorer of the drive's club."
    tags = (PRINT_TAG,)
    return {
        p: {
            "parameters": [SLUG],
            "post": _op(
                "document_request", "Print a document", tags=tags, errors=(404, 422, 503),
                description=f"{members} Renders the document in the background (a worker, or "
                "in-process without a broker): 202 with its status URL (Location). A document "
                "already rendered from the same data: 200, download at once. game: the movement "
                "sheet's (default: the game in play) or the score sheets'; couple: one punch "
                "card; filled: punch cards with the recorded wins. 422 bad_document, bad_paper, "
                "bad_game, no_game, game_not_started, bad_couple, bad_filled, bad_base_url. 503 "
                "print_queue_down: the broker cannot be reached (after a few seconds of "
                "retries); the document (its id in `document`) is marked failed.",
                body=_body({"type": "object", "required": ["document"],
                            "additionalProperties": False, "properties": {
                    "document": {"enum": ["punch-cards", "table-cards", "score-sheets",
                                          "movement", "results"]},
                    "paper": {"enum": ["letter", "a4"]},
                    "game": {"type": "integer", "minimum": 1},
                    "couple": {"type": "integer", "minimum": 1},
                    "filled": {"type": "boolean"},
                    "base_url": {"type": "string", "format": "uri"}}}),
                ok={
                    200: _ok("Already up to date", _ref("Document")),
                    202: _ok("Queued: poll status_url", _ref("Document")),
                },
            ),
        },
        f"{p}/{{pk}}": {
            "parameters": [SLUG, DOCUMENT],
            "get": _op(
                "document_status", "A document's status and progress", tags=tags,
                description=members, errors=(404,),
                ok={200: _ok("The document", _ref("Document"))},
            ),
        },
        f"{p}/{{pk}}/file": {
            "parameters": [SLUG, DOCUMENT],
            "get": _op(
                "document_file", "The document's PDF", tags=tags,
                description=f"{members} 409 not_ready until it has been rendered.",
                errors=(404, 409),
                ok={200: {"description": "The PDF (an attachment)",
                          "content": {"application/pdf": {"schema": {
                              "type": "string", "format": "binary"}}}}},
            ),
        },
    }  # fmt: skip
