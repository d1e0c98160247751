"""The bridge between the database and the printed documents: ``build`` reads a drive and
returns the plain data (dicts, lists, strings, numbers: JSON-ready, no model instances) that
``scoring.printing.pdf.render`` draws; ``data_version`` is a short hash of that data, so a document
already rendered from the same data is known to be up to date.

Documents: punch cards, table cards, table score sheets, the movement sheet of a game, the
results, and the treasurer's sheet of the night's accounts (its data from the app that
registered it, ``scoring.printing.parts``). The card ranking of the drive's ruleset
(docs/rules.md §1) comes from ``engine.cards``.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.utils import translation

from drives.models import AuditEntry, Couple, Drive, Table
from engine.chart import ranking_chart
from engine.rules import Ruleset, RulesetError, get_ruleset
from scoring.printing.labels import date_text, labels, moment_text, ordinal
from scoring.printing.parts import part_of
from scoring.prizes.selectors import prize_table, ties_list
from scoring.selectors import (
    couple_records,
    game_view,
    standings_for_drive,
)

__all__ = ["DOCUMENTS", "build", "data_version"]

DOCUMENTS = ("punch-cards", "table-cards", "score-sheets", "movement", "results", "accounts")


def _ruleset(drive: Drive) -> Ruleset:
    try:
        return drive.rules_in_play()
    except RulesetError:
        return get_ruleset()


def ranking_data(rules: Ruleset) -> dict[str, Any]:
    """The card ranking of a ruleset, strongest first, as printed card names (``A♥``)."""
    return ranking_chart(rules)


def _common(drive: Drive, document: str) -> dict[str, Any]:
    """What every document's data starts with: its name and language, the printed words and
    the drive."""
    return {
        "document": document,
        "language": drive.language,
        **labels(),
        "drive": {
            "slug": drive.slug,
            "name": drive.name,
            "club": drive.club.name,
            "date": drive.date.isoformat(),
            "date_text": date_text(drive.date),
            "venue": drive.venue,
            "games": drive.games,
            "currency": drive.currency,
        },
    }


def _header(drive: Drive, document: str) -> dict[str, Any]:
    """The common data, with the card ranking and the house rules the cards and sheets
    print."""
    return _common(drive, document) | {
        "ranking": ranking_data(_ruleset(drive)),
        "house_rules": [str(line) for line in drive.house_rules],
    }


def _url(base_url: str, kind: str, token: str) -> str:
    return f"{base_url.rstrip('/')}/{kind}/{token}/"


def _punch_cards(drive: Drive, couple: int | None, filled: bool, base_url: str) -> dict[str, Any]:
    couples = Couple.objects.filter(drive=drive).order_by("number")
    if couple is not None:
        couples = couples.filter(number=couple)
    won: dict[int, list[int]] = {}
    if filled:
        won = {r.couple.number: r.won_games for r in couple_records(drive)}
    cards = [
        {
            "number": c.number,
            "players": [c.player1, c.player2],
            "url": _url(base_url, "c", c.token),
            "won": won.get(c.number, []),
            "withdrawn": c.withdrawn,
        }
        for c in couples
    ]
    return {"filled": filled, "cards": cards}


def _playing_tables(drive: Drive, number: int) -> set[int] | None:
    """The tables where two couples play game ``number``, or None when its seating is not
    known (before the night starts, or a game still to come): a sit-out is no table."""
    seating = _seating(drive, number) if number <= drive.current_game else []
    if not seating:
        return None
    return {row["table"] for row in seating if not row["sit_out"]}


def _table_cards(drive: Drive, base_url: str) -> dict[str, Any]:
    """A card per table the game in play uses (before the night starts: the tables its first
    game will use, set out by ``drives.services.tables_prepare``); none for a sit-out."""
    tables = Table.objects.filter(drive=drive).order_by("number")
    playing = _playing_tables(drive, drive.current_game or 1)
    return {
        "tables": [
            {"number": t.number, "url": _url(base_url, "t", t.token)}
            for t in tables
            if t.closed_game is None and (playing is None or t.number in playing)
        ]
    }


def _game_number(drive: Drive, game: int | None) -> int:
    if game is not None:
        return game
    return drive.current_game or 1


def _seating(drive: Drive, number: int) -> list[dict[str, Any]]:
    view = game_view(drive, number) if drive.current_game else None
    if view is None:
        return []
    return [
        {
            "table": t["table"],
            "stays": t["stays"],
            "arrives": t["arrives"],
            "deals": t["deals"],
            "sit_out": t["sit_out"],
            "winner": t["winner"],
            "points": list(t["points"]) if t["points"] else None,
        }
        for t in view["tables"]
    ]


def _score_sheets(drive: Drive, game: int | None, base_url: str) -> dict[str, Any]:
    number = _game_number(drive, game)
    seating = {row["table"]: row for row in _seating(drive, number)}
    playing = _playing_tables(drive, number)
    tables = Table.objects.filter(drive=drive).order_by("number")
    sheets = []
    for t in tables:
        if t.closed_game is not None and t.closed_game <= number:
            continue
        if playing is not None and t.number not in playing:
            continue  # a sit-out: no sheet, nobody plays there
        row = seating.get(t.number)
        sheets.append(
            {
                "number": t.number,
                "url": _url(base_url, "t", t.token),
                "stays": row["stays"] if row else None,
                "arrives": row["arrives"] if row else None,
                "deals": row["deals"] if row else None,
            }
        )
    return {"game": number, "games": list(range(1, drive.games + 1)), "tables": sheets}


def _movement(drive: Drive, game: int | None) -> dict[str, Any]:
    number = _game_number(drive, game)
    tables = _seating(drive, number)
    couples = []
    for t in tables:
        for couple, other in ((t["stays"], t["arrives"]), (t["arrives"], t["stays"])):
            if couple is not None:
                couples.append(
                    {
                        "number": couple,
                        "table": t["table"],
                        "opponents": other,
                        "deals": t["deals"] == couple,
                        "sit_out": other is None,
                    }
                )
    couples.sort(key=lambda r: r["number"])
    return {"game": number, "tables": tables, "couples": couples}


def _sign_off(drive: Drive) -> tuple[str, str]:
    entry = (
        AuditEntry.objects.filter(drive=drive, action="drive.close")
        .select_related("user")
        .order_by("-at", "-id")
        .first()
    )
    if entry is None or drive.state != Drive.State.CLOSED:
        return "", ""
    who = ""
    if entry.user is not None:
        who = entry.user.get_full_name() or entry.user.get_username()
    return who, entry.at.isoformat(timespec="minutes")


def _results(drive: Drive) -> dict[str, Any]:
    prizes = prize_table(drive)
    ties = [
        {
            "kind": t["kind"],
            "name": t.get("name") or "",
            "places": t["places"],
            "couples": t["couples"],
            "state": t["state"],
            "method": t["method"],
            "winner": t["winner"],
            "decided_by": t["decided_by"],
            "awards": [{"couple": a.get("couple"), "place": a.get("place")} for a in t["awards"]],
        }
        for t in ties_list(drive)
    ]
    signed_by, signed_at = _sign_off(drive)
    standings = [
        {
            "place": row["place"],
            "number": row["number"],
            "players": list(row["players"]),
            "wins": row["wins"],
            "played": row["played"],
            "withdrawn": row["withdrawn"],
        }
        for row in standings_for_drive(drive)
    ]
    # Every place printed (standings, prizes, ties) as its ordinal in the document's language.
    places = {row["place"] for row in standings if row["place"]}
    places |= {row.get("place") for row in prizes.get("places", []) if row.get("place")}
    places |= {place for tie in ties for place in tie["places"] if place}
    return {
        "standings": standings,
        "prizes": prizes,
        "ties": ties,
        "cookie_jar": prizes["cookie_jar"],
        "signed_by": signed_by,
        "signed_at": signed_at,
        "signed_at_text": moment_text(signed_at),
        "ordinals": {str(place): ordinal(place) for place in sorted(places)},
    }


def build(
    drive: Drive,
    document: str,
    *,
    game: int | None = None,
    couple: int | None = None,
    filled: bool = False,
    base_url: str = "http://127.0.0.1:8000",
) -> dict[str, Any]:
    """Plain data for one document (see the module text). ``couple=N`` → one punch card
    alone; ``filled`` → punch cards with the recorded wins; ``game`` → the movement sheet and
    the score sheets of that game (default: the game in play). A registered part's document
    (``scoring.printing.parts``) takes no option: its app builds its data."""
    if document not in DOCUMENTS:
        raise ValueError(f"unknown document {document!r}; choose one of {', '.join(DOCUMENTS)}")
    with translation.override(drive.language):  # the hall's language, whoever asks
        return _build(drive, document, game, couple, filled, base_url)


def _build(
    drive: Drive, document: str, game: int | None, couple: int | None, filled: bool, base_url: str
) -> dict[str, Any]:
    part = part_of(document)
    if part is not None:
        return _common(drive, document) | part.build(drive)
    data = _header(drive, document)
    if document == "punch-cards":
        data |= _punch_cards(drive, couple, filled, base_url)
    elif document == "table-cards":
        data |= _table_cards(drive, base_url)
    elif document == "score-sheets":
        data |= _score_sheets(drive, game, base_url)
    elif document == "movement":
        data |= _movement(drive, game)
    elif document == "results":
        data |= _results(drive)
    else:
        raise ValueError(f"no app has registered the document {document!r}")
    return data


def data_version(drive: Drive, document: str, **options: Any) -> str:
    """A short hash of everything the document shows (changes when the data changes)."""
    data = build(drive, document, **options)
    text = json.dumps(data, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]
