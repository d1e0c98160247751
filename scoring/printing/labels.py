"""The printed documents' words, from the site's catalog (locale/): ``labels()`` gives them in
the language active (``scoring.printing.data.build`` activates the drive's), as plain strings
the PDF renderers draw (they import no Django). Keys name the places a word is printed."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.utils.dates import MONTHS
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

LABELS: dict[str, Any] = {
    "punch_card": _("Punch card"),
    "couple": _("Couple"),
    "couples": _("Couples"),
    "table": _("Table"),
    "game": _("Game"),
    "games": _("Games"),
    "trumps": _("Trumps"),
    "red": _("red"),
    "black": _("black"),
    "reminder_tail": _("off-trump: red high, black low"),
    "aces_high": _("off-trump aces high"),
    "scan": _("Scan to report the result"),
    "scan_couple": _("your page"),
    # Above a table card's QR code: the table's page has the button that calls the desk.
    "call_desk": _("Need the desk? Scan,"),
    "raise_hand": _("or raise your hand."),
    "score_sheet": _("Score sheet"),
    "stays": pgettext_lazy("movement sheet: the couple that stays at the table", "Stays"),
    "arrives": pgettext_lazy("movement sheet: the couple that comes to the table", "Arrives"),
    "deals_first": _("Dealt first"),
    "winner": _("Winner"),
    "points": _("Final points"),
    "initials": _("Initials"),
    "tally": _("Tally (cross off in fives)"),
    "cheat_sheet": _("Card ranking"),
    "house_rules": _("Rules"),
    "trump_suit": _("when trumps are"),
    "not_trumps": _("Not trumps"),
    "joker_note": _("the joker is always the third-best trump"),
    "aofh_note": _("the A♥ is always a trump"),
    "movement": _("Movement"),
    "deals": pgettext_lazy("movement sheet: this couple deals first", "deals"),
    "sits_out": _("sits out"),
    "by_table": _("By table"),
    "by_couple": _("Couple → table"),
    "results": _("Results"),
    "place": _("Place"),
    "players": _("Players"),
    "wins": _("Wins"),
    "played": pgettext_lazy("games played, a column of the results", "Played"),
    "withdrawn": pgettext_lazy("a couple that left the night", "withdrawn"),
    "prizes": _("Prizes"),
    "booby": _("Booby prize"),
    "half_time": _("Half-time prize"),
    "jackpot": _("Jackpot"),
    "ties": _("How ties were settled"),
    "no_ties": _("No ties to settle."),
    "tie_open": _("not settled yet"),
    "cookie_jar": _("Cookie jar"),
    "entrants": _("entrants"),
    "pot": _("pot"),
    "drawn_games": _("games drawn"),
    "carried_over": _("carried over"),
    "not_drawn": _("not drawn yet"),
    "empty": _("no winner"),
    "signed": _("Signed off by the organizer"),
    "name": _("Name"),
    "time": _("Time"),
    "filled": _("recorded wins punched"),
    "page": _("page"),
    "of": pgettext_lazy("page 1 of 3", "of"),
    "fold": _("fold"),
    "no_prize": "—",
    "open": _("to be decided"),
    # A date as printed: {day}, {month} (its name) and {year}.
    "date": pgettext_lazy("a printed date", "{month} {day}, {year}"),
}

# How a tie was settled, by the tie's method.
METHODS: dict[str, Any] = {
    "split": _("prize split"),
    "cut": _("cut of the cards"),
    "play-off": _("play-off"),
    "playoff": _("play-off"),
    "empty": _("left empty"),
    "direct": pgettext_lazy("a prize given straight to its couple", "direct"),
    "forfeit-award": _("the others forfeited"),
    "award": _("the others forfeited"),
}

SUIT_NAMES: dict[str, Any] = {
    "H": _("hearts"),
    "D": _("diamonds"),
    "C": _("clubs"),
    "S": _("spades"),
}

# Places as printed: the first apart (1st, 1er), then by the last digit (English's 21st, 22nd,
# 23rd; 11th to 13th take "th").
ORDINALS: dict[str, Any] = {
    "first": pgettext_lazy("the place 1", "1st"),
    "st": pgettext_lazy("a place ending in 1 (21, 31…)", "{n}st"),
    "nd": pgettext_lazy("a place ending in 2 (2, 22…)", "{n}nd"),
    "rd": pgettext_lazy("a place ending in 3 (3, 23…)", "{n}rd"),
    "th": pgettext_lazy("any other place (4, 11, 12, 13…)", "{n}th"),
}


def ordinal(place: int) -> str:
    """A place as printed, in the language active: 1st, 2nd… (1er, 2e… in French)."""
    if place == 1:
        return str(ORDINALS["first"])
    teens = 10 <= place % 100 <= 20
    key = "th" if teens else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return str(ORDINALS[key]).format(n=place)


def date_text(day: date) -> str:
    return str(LABELS["date"]).format(day=day.day, month=MONTHS[day.month], year=day.year)


def labels() -> dict[str, Any]:
    """The words of every printed document in the language active, as plain strings:
    ``labels`` by key, ``methods`` of settling a tie, ``suits`` by letter."""
    return {
        "labels": {key: str(value) for key, value in LABELS.items()},
        "methods": {key: str(value) for key, value in METHODS.items()},
        "suits": {key: str(value) for key, value in SUIT_NAMES.items()},
    }


def moment_text(iso: str) -> str:
    """A moment (ISO 8601) as printed: its date, then the time of day."""
    if not iso:
        return ""
    moment = datetime.fromisoformat(iso)
    return f"{date_text(moment.date())} {moment:%H:%M}"
