"""Each rule of the night's input (``drives.inputs.RULES``) refuses the same bad value with the
same words through every way in: the API (its code too), the page's form (or the money page's
message), and the import (the couples CSV file) or the command line. Parametrized over the
declarations themselves: a rule declared without a case here fails
``test_every_rule_has_a_case``."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from drives import inputs
from drives.models import Club, Couple, Drive, Registration
from drives.services import SYSTEM, drive_start
from money.models import Line
from scoring.models import CookieJarDraw, PrizePlace, Result, TableCall
from seasons.models import PlayerMerge, PlayerSplit, Season
from seasons.services import season_add_drive, season_create
from tests.cli.helpers import run
from tests.pages.organizer_helpers import a_drive, club_people, logged_in
from tests.pages.test_drives_new import NEW, form_data
from tests.pages.test_prizes_pages import setup_post
from tests.prizes.helpers import night

pytestmark = pytest.mark.django_db

NOT_A_BOX = None  # the page cannot send such a value (a checkbox, no such box)
LEFT_OUT = "<the box left out>"  # the page's post without the box


@dataclass(frozen=True)
class Case:
    """A bad value of one rule: as a JSON body sends it, as a form posts it, as an import or
    the command line reads it (None: that way in has no such field)."""

    api: Any
    page: Any
    cli: Any = None


CASES: dict[str, Case] = {
    "drive_name": Case(api="\u200b", page="\u200b", cli="\u200b"),
    "venue": Case(api="x" * 201, page="x" * 201, cli="x" * 201),
    "date": Case(api="2026-13-40", page="2026-13-40", cli="20/11/2026"),
    "games": Case(api=61, page="61", cli="61"),
    "ruleset": Case(api="snap", page="snap", cli="snap"),
    "movement": Case(api="sideways", page="sideways"),
    "first_seating": Case(api="random", page="random", cli="random"),
    "seed": Case(api=-1, page="-1", cli="-1"),
    "ranking": Case(api="olympic", page="olympic"),
    "entry_fee": Case(api="1.001", page="1.001"),
    "entry_fee_per": Case(api="family", page="family"),
    "currency": Case(api="C1D", page="C1D"),
    "language": Case(api="xx", page="xx"),
    "sit_out_counts_as_win": Case(api="yes", page=NOT_A_BOX),
    "confirm_by_other_couple": Case(api="yes", page=NOT_A_BOX),
    "scorers_may_advance": Case(api="yes", page=NOT_A_BOX),
    "published": Case(api="yes", page=NOT_A_BOX),
    "slow_table_minutes": Case(api=61, page="61"),
    "player_name": Case(api="\u200b", page="\u200b", cli="\u200b"),
    "player_name_length": Case(api="x" * 81, page="x" * 81, cli="x" * 81),
    "couple_paid": Case(api="yes", page=NOT_A_BOX),
    "couple_checked_in": Case(api="yes", page=NOT_A_BOX),
    "couple_cookie_jar": Case(api="yes", page=NOT_A_BOX),
    "couple_duplicate_ok": Case(api="yes", page=NOT_A_BOX),
    "couple_withdrawn": Case(api="yes", page=NOT_A_BOX),
    "club_name": Case(api=None, page="\u200b", cli="\u200b"),
    # The desk's line reads its own text ("50-40") before a value reaches these rules; the
    # correction form on the dashboard takes the numbers as they are.
    "game": Case(api=0, page="0", cli="0"),
    "table": Case(api=0, page="0", cli="0"),
    "winner": Case(api=0, page="0", cli="0"),
    "call_reason": Case(api="x" * 201, page="x" * 201),
    "points": Case(api=[50], page=NOT_A_BOX),
    "confirm_unusual": Case(api="yes", page=NOT_A_BOX),
}
CASES |= {
    "prize_places": Case(api=21, page="21"),
    "cookie_jar_k": Case(api=0, page="0"),
    "jackpot_threshold": Case(api=0, page="0"),
    "buy_in": Case(api="2.505", page="2.505"),
    "jackpot_amount": Case(api="-5", page="-5"),
    "house_rule": Case(api="sometimes", page="sometimes"),
    "prize_amount": Case(api="1.001", page="1.001"),
    **{f"prizes_{name}": Case(api="yes", page=NOT_A_BOX) for name in inputs.PRIZE_SWITCHES},
}
CASES |= {
    "amount_given": Case(api=True, page=LEFT_OUT),
    "amount_not_negative": Case(api="-5", page="-5"),
    "amount_written": Case(api="12O.50", page="12O.50"),
    "amount_range": Case(api="0", page="0"),
    "amount_or_zero_range": Case(api="100000000", page="100000000"),
    "amount_cents": Case(api="1.001", page="1.001"),
    "strip_size": Case(api=0, page="0"),
    "share_percent": Case(api=101, page="101"),
    "line_couple": Case(api=0, page="0"),
    "line": Case(api=0, page="0"),
    "raffle": Case(api=0, page="0"),
    "ticket_count": Case(api=0, page="0"),
    "ticket_first": Case(api=0, page="0"),
    "denomination_count": Case(api=-1, page="-1"),
    "way": Case(api="bitcoin", page="bitcoin"),
    "line_kind": Case(api="jar_paid", page="jar_paid"),
    "note": Case(api="x" * 201, page="x" * 201),
    "money_currency": Case(api=5, page=NOT_A_BOX),
    "raffle_name": Case(api=" ", page=" "),
    "scorers_allowed": Case(api="yes", page=NOT_A_BOX),
    "licence_number": Case(api="x" * 41, page="x" * 41),
    "denominations": Case(api=[20], page=NOT_A_BOX),
}

CASES |= {
    "text_sent": Case(api=5, page=NOT_A_BOX),
    "season_name": Case(api="\u200b", page="\u200b", cli="\u200b"),
    "spelling": Case(api="x" * 81, page="x" * 81, cli="x" * 81),
    "season_date": Case(api="2026-13-40", page="2026-13-40", cli="2026-13-40"),
    "season_published": Case(api="yes", page=NOT_A_BOX),
    "drive_slug": Case(api=5, page=NOT_A_BOX, cli=""),
}
# The season's rules: set on the season's edit page (not the new season's form).
SEASON_RULES = {
    "season_best": Case(api=0, page="0"),
    "season_of": Case(api=367, page="367"),
    "season_qualify": Case(api=-1, page="-1"),
    "season_improved": Case(api=-1, page="-1"),
    "season_final": Case(api=367, page="367"),
    "season_scoring": Case(api="tricks", page="tricks"),
    "season_ties": Case(api="coin", page="coin"),
    "season_points": Case(api=[10, -1], page="10, -1"),
}
CASES |= SEASON_RULES
SEASON = {"name": "Fall", "starts": "2026-09-01", "ends": "2026-12-31"}


@dataclass(frozen=True)
class Route:
    """Where a rule of the night's money is reached: the API's method, path (after the drive's,
    ``{bad}`` where the bad value goes in it) and body, the field the bad value is sent as;
    the money page's action and post. ``place``: what the words call the field, when not it."""

    method: str
    path: str
    body: dict[str, Any]
    field: str
    page: dict[str, str]
    place: str = ""

    def api_body(self, bad: Any) -> dict[str, Any]:
        if "{bad}" in self.path:
            return dict(self.body)
        if self.field == "denominations" and not isinstance(bad, list):
            return self.body | {"denominations": {"20": bad}}
        return self.body | {self.field: bad}

    def page_post(self, bad: str) -> dict[str, str]:
        box = "d-20" if self.field == "denominations" else self.field
        if bad == LEFT_OUT:
            return {key: value for key, value in self.page.items() if key != box}
        return self.page | {box: bad}


LINE = Route(
    "POST",
    "accounts/lines",
    {"kind": "donation", "amount": "5"},
    "amount",
    {"action": "line", "kind": "donation", "amount": "5"},
)
SETUP = Route("PATCH", "accounts/setup", {}, "", {"action": "setup"})
SELL = Route("POST", "fifty-fifty/tickets", {}, "", {"action": "sell", "count": "1"})
COUNT = Route("POST", "accounts/count", {}, "", {"action": "count"})
RAFFLE = Route("POST", "raffles", {"name": "Quilt"}, "", {"action": "raffle", "name": "Quilt"})
MONEY_ROUTES: dict[str, Route] = {
    "amount_given": LINE,
    "amount_not_negative": LINE,
    "amount_written": LINE,
    "amount_range": LINE,
    "amount_or_zero_range": replace(COUNT, field="total"),
    "amount_cents": LINE,
    "strip_size": replace(SETUP, field="strip_size"),
    "share_percent": replace(SETUP, field="share_percent"),
    "line_couple": replace(LINE, field="couple"),
    "line": Route("POST", "accounts/lines/{bad}/reverse", {}, "line", {"action": "reverse"}),
    "raffle": replace(SELL, path="raffles/{bad}/tickets", field="raffle"),
    "ticket_count": replace(SELL, field="count"),
    "ticket_first": replace(SELL, field="first"),
    "denomination_count": replace(COUNT, field="denominations", place="denominations 20"),
    "way": replace(LINE, field="way"),
    "line_kind": replace(LINE, field="kind"),
    "note": replace(LINE, field="note"),
    "money_currency": replace(LINE, field="currency"),
    "raffle_name": replace(RAFFLE, field="name"),
    "scorers_allowed": replace(SETUP, field="scorers_allowed"),
    "licence_number": replace(SETUP, field="licence_number"),
    "denominations": replace(COUNT, field="denominations"),
}
# The rules of the API's other bodies: a bad value, as the body sends it and the page's box.
CASES |= {
    "house_rules": Case(api=["renege"], page=NOT_A_BOX),
    "club_slug": Case(api=5, page=NOT_A_BOX),
    "couple_players": Case(api="Ann", page=NOT_A_BOX),
    "absent": Case(api="sometimes", page=NOT_A_BOX),
    "result_key": Case(api="x" * 81, page=NOT_A_BOX),
    "accept": Case(api="yes", page=NOT_A_BOX),
    "reason_given": Case(api=" ", page=" "),
    "reason_length": Case(api="x" * 1001, page="x" * 1001),
    "holes": Case(api={}, page=NOT_A_BOX),
    "holes_couple": Case(api="x", page=NOT_A_BOX),
    "holes_count": Case(api=-1, page="-1"),
    "couple_number": Case(api="x", page=NOT_A_BOX),
    "tie_choice": Case(api="toss", page=NOT_A_BOX),
    "draw": Case(api="yes", page=NOT_A_BOX),
    "force": Case(api="yes", page=NOT_A_BOX),
    "allow_duplicates": Case(api="maybe", page=NOT_A_BOX),
    "no_seed": Case(api=5, page=NOT_A_BOX),
    "cut_cards": Case(api=[], page=NOT_A_BOX),
    "match": Case(api=[1], page=NOT_A_BOX),
    "playoff_winner": Case(api="1", page=NOT_A_BOX),
    "cookie_jar_games": Case(api=[0], page="70"),
    "document": Case(api="flyer", page=NOT_A_BOX),
    "paper": Case(api="legal", page=NOT_A_BOX),
    "document_game": Case(api="1", page=NOT_A_BOX),
    "document_couple": Case(api="1", page=NOT_A_BOX),
    "filled": Case(api="yes", page=NOT_A_BOX),
    "base_url": Case(api="ftp://x", page=NOT_A_BOX),
    "prize_item": Case(api="a ham", page=NOT_A_BOX),
    "prize_description": Case(api="x" * 201, page="x" * 201),
    "prize_given": Case(api=" ", page=NOT_A_BOX),
    "prize_list": Case(api="a ham", page=NOT_A_BOX),
    "prize_share_of": Case(api="door", page=NOT_A_BOX),
    "prize_percent": Case(api=101, page=NOT_A_BOX),
    "prize_share": Case(api={"share_of": "entry"}, page=NOT_A_BOX),
    "prize_shares_total": Case(api=60, page=NOT_A_BOX),
    "share_rounding": Case(api="0.10", page="0.10"),
    "half_time": Case(api="a ham", page=NOT_A_BOX),
    "half_time_after": Case(api=0, page="0"),
    "category_list": Case(api="Hard luck", page=NOT_A_BOX),
    "category_item": Case(api="Hard luck", page=NOT_A_BOX),
    "category_name": Case(api=" ", page=NOT_A_BOX),
    "category_rule": Case(api="most_drinks", page=NOT_A_BOX),
    "category_after": Case(api=0, page=NOT_A_BOX),
    "category_after_given": Case(api="most_lost", page=NOT_A_BOX),
    "category_names_once": Case(api="Hard luck", page=NOT_A_BOX),
}
# Registration before the night: the drive's settings, and the public page's body.
CASES |= {
    "registration_opens": Case(api="tomorrow", page="tomorrow"),
    "registration_closes": Case(api="tomorrow", page="tomorrow"),
    "capacity": Case(api=0, page="0"),
    "registration_contact": Case(api="x" * 121, page="x" * 121),
    "registration_players": Case(api="Ann", page=NOT_A_BOX),
}


@dataclass(frozen=True)
class Call:
    """How the API is sent a bad value of one of these rules: the method, the path (after
    ``/api/v1/``, ``{slug}`` the drive's), the body around the bad value; ``place``: where the
    words say it was sent, ``where`` what they follow ("Couple 1: ")."""

    method: str
    path: str
    body: Any
    place: str = ""
    where: str = ""


def _with(bad: Any, **around: Any) -> Any:
    """The body ``around`` with the bad value where ``BAD`` stands."""
    return json.loads(json.dumps(around).replace('"BAD"', json.dumps(bad)))


DRIVE = {"club": "CLUB", "name": "N", "date": "2026-11-20"}
TIE = "drives/{slug}/prizes/ties/999"
RESULT = "drives/{slug}/games/1/tables/1"
DOCUMENTS = "drives/{slug}/documents"
SETUP_PATH = "drives/{slug}/prizes/setup"
CALLS: dict[str, Call] = {
    "house_rules": Call("POST", "drives", DRIVE | {"rules": "BAD"}),
    "club_slug": Call("POST", "drives", DRIVE | {"club": "BAD"}),
    "couple_players": Call("POST", "drives/{slug}/couples", {"players": "BAD"}),
    "absent": Call("POST", "drives/{slug}/start", {"absent": "BAD"}),
    "result_key": Call("PUT", f"{RESULT}/result", {"winner": 1, "key": "BAD"}),
    "accept": Call("POST", f"{RESULT}/confirm", {"accept": "BAD"}),
    "reason_given": Call("POST", f"{RESULT}/resolve", {"winner": 1, "reason": "BAD"}),
    "reason_length": Call("POST", f"{RESULT}/resolve", {"winner": 1, "reason": "BAD"}),
    "holes": Call("POST", "drives/{slug}/holes", {"holes": "BAD"}),
    "holes_couple": Call("POST", "drives/{slug}/holes", {"holes": {"BAD": 1}}),
    "holes_count": Call("POST", "drives/{slug}/holes", {"holes": {"1": "BAD"}}, where="Couple 1: "),
    "couple_number": Call("POST", f"{TIE}/choices", {"couple": "BAD", "choice": "cut"}),
    "tie_choice": Call("POST", f"{TIE}/choices", {"couple": 1, "choice": "BAD"}),
    "draw": Call("POST", f"{TIE}/cut", {"draw": "BAD"}),
    "force": Call("POST", "drives/{slug}/prizes/ties", {"force": "BAD"}),
    "allow_duplicates": Call("POST", "drives/{slug}/couples/import?allow_duplicates=BAD", None),
    "no_seed": Call("POST", "drives/{slug}/prizes/cookie-jar/draw", {"seed": "BAD"}),
    "cut_cards": Call("POST", f"{TIE}/cut", {"cards": "BAD"}),
    "match": Call("POST", f"{TIE}/playoff", {"match": "BAD", "winner": 1}),
    "playoff_winner": Call("POST", f"{TIE}/playoff", {"match": [1, 2], "winner": "BAD"}),
    "cookie_jar_games": Call("POST", "drives/{slug}/prizes/cookie-jar/draw", {"games": "BAD"}),
    "document": Call("POST", DOCUMENTS, {"document": "BAD"}),
    "paper": Call("POST", DOCUMENTS, {"document": "results", "paper": "BAD"}),
    "document_game": Call("POST", DOCUMENTS, {"document": "movement", "game": "BAD"}),
    "document_couple": Call("POST", DOCUMENTS, {"document": "punch-cards", "couple": "BAD"}),
    "filled": Call("POST", DOCUMENTS, {"document": "punch-cards", "filled": "BAD"}),
    "base_url": Call("POST", DOCUMENTS, {"document": "results", "base_url": "BAD"}),
    "prize_item": Call("PATCH", "drives/{slug}/prizes/setup", {"prizes": ["BAD"]}, "prizes[0]"),
    "prize_description": Call(
        "PATCH", "drives/{slug}/prizes/setup", {"prizes": [{"description": "BAD"}]}, "prizes[0]"
    ),
    "prize_given": Call(
        "PATCH", "drives/{slug}/prizes/setup", {"prizes": [{"description": "BAD"}]}, "prizes[0]"
    ),
    "prize_list": Call("PATCH", "drives/{slug}/prizes/setup", {"prizes": "BAD"}),
    "prize_share_of": Call(
        "PATCH", SETUP_PATH, {"prizes": [{"share_of": "BAD", "percent": 30}]}, "prizes[0]"
    ),
    "prize_percent": Call(
        "PATCH", SETUP_PATH, {"prizes": [{"share_of": "entry", "percent": "BAD"}]}, "prizes[0]"
    ),
    "prize_share": Call("PATCH", SETUP_PATH, {"prizes": ["BAD"]}, "prizes[0]"),
    # 60 % of the entry money for first place and 50 % of the pot at half time: 110 %.
    "prize_shares_total": Call(
        "PATCH",
        SETUP_PATH,
        {
            "prizes": [{"share_of": "entry", "percent": "BAD"}],
            "half_time": {"after_game": 1, "share_of": "pot", "percent": 50},
        },
    ),
    "half_time_after": Call(
        "PATCH", SETUP_PATH, {"half_time": {"after_game": "BAD", "amount": "10.00"}}
    ),
    "registration_contact": Call(
        "POST", "drives/{slug}/registrations", {"players": ["Ann", "Joe"], "contact": "BAD"}
    ),
    "registration_players": Call("POST", "drives/{slug}/registrations", {"players": "BAD"}),
    "category_list": Call("PATCH", SETUP_PATH, {"categories": "BAD"}),
    "category_item": Call("PATCH", SETUP_PATH, {"categories": ["BAD"]}, "categories[0]"),
    "category_name": Call(
        "PATCH",
        SETUP_PATH,
        {"categories": [{"name": "BAD", "rule": "most_lost", "amount": "5"}]},
        "categories[0]",
    ),
    "category_rule": Call(
        "PATCH",
        SETUP_PATH,
        {"categories": [{"name": "Hard luck", "rule": "BAD", "amount": "5"}]},
        "categories[0]",
    ),
    "category_after": Call(
        "PATCH",
        SETUP_PATH,
        {"categories": [{"name": "Late", "rule": "best_after", "after_game": "BAD"}]},
        "categories[0]",
    ),
    # An after_game with a rule that takes none.
    "category_after_given": Call(
        "PATCH",
        SETUP_PATH,
        {"categories": [{"name": "Late", "rule": "BAD", "after_game": 3, "amount": "5"}]},
        "categories[0]",
    ),
    "category_names_once": Call(
        "PATCH",
        SETUP_PATH,
        {
            "categories": [
                {"name": "Hard luck", "rule": "most_lost", "amount": "5"},
                {"name": "BAD", "rule": "most_lost_in_a_row", "amount": "5"},
            ]
        },
    ),
}
RESULT_FIELDS = ("game", "table", "winner", "points", "confirm_unusual")
# The CLI's option of each drive setting it takes (manage.py drive create).
CLI_OPTIONS = {"drive_name": "--name", "first_seating": "--seating", "club_name": "--club"}

RULES = list(inputs.RULES.values())


def test_every_rule_has_a_case() -> None:
    assert set(CASES) == set(inputs.RULES)


def test_every_rule_is_reached_by_the_api_or_a_page() -> None:
    for name, case in CASES.items():
        assert case.api is not None or case.page is not None, name


def _is_setting(rule: inputs.Rule) -> bool:
    return inputs.SETTINGS.get(rule.field) is rule


def _is_player(rule: inputs.Rule) -> bool:
    return rule in inputs.PLAYER


def _is_result(rule: inputs.Rule) -> bool:
    return rule.field in RESULT_FIELDS


def _is_prize(rule: inputs.Rule) -> bool:
    return rule.name == "prize_amount" or inputs.PRIZE_SETUP.get(rule.field) is rule


def _is_season(rule: inputs.Rule) -> bool:
    return (
        rule.name in {one.name for one in (*inputs.SEASON_NAME, *inputs.SPELLING)}
        or rule in (inputs.SEASON_DATE, inputs.SEASON_PUBLISHED, inputs.DRIVE_SLUG)
        or rule.name in SEASON_RULES
    )


def _season(club: Club) -> tuple[Season, Drive]:
    """A season of the club with a drive of two couples in it."""
    drive = a_drive(club, couples=2)
    season = season_create(club=club, name="Fall", starts=date(2026, 9, 1), ends=date(2026, 12, 31))
    season_add_drive(season=season, drive=drive)
    return season, drive


def _started(club: Club) -> Drive:
    drive = a_drive(club, couples=4)
    drive_start(drive=drive, actor=SYSTEM)
    return drive


@pytest.fixture
def ours() -> Any:
    return club_people("St. Joseph's Parish", "ours")


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
def test_the_api_refuses_with_the_rules_code_and_words(rule: inputs.Rule, ours: Any) -> None:
    bad = CASES[rule.name].api
    if bad is None:
        pytest.skip("no API field")
    client = logged_in(ours.organizer)
    if rule.name in CALLS:
        call = CALLS[rule.name]
        drive = a_drive(ours.club, couples=2)
        path = call.path.replace("{slug}", drive.slug)
        if call.body is None:  # the couples file: the bad value in the query
            path = path.replace("BAD", str(bad))
            sent = "player1,player2\nAnn,Joe\n"
            content_type = "text/csv"
        else:
            body = _with(bad, **call.body)
            if body.get("club") == "CLUB":
                body["club"] = ours.club.slug
            sent, content_type = json.dumps(body), "application/json"
        answer = client.generic(call.method, f"/api/v1/{path}", sent, content_type=content_type)
        assert answer.status_code == rule.status, answer.content
        body = answer.json()
        place = call.place or rule.field
        assert (body["code"], body["message"], body.get("field")) == (
            rule.code,
            call.where + rule.text(bad, field=place),
            place if rule.named else None,
        )
        assert Drive.objects.count() == 1 and Couple.objects.count() == 2
        return
    if rule is inputs.HALF_TIME_AFTER:
        drive = a_drive(ours.club)
        url = reverse("night:prizes_setup", kwargs={"slug": drive.slug})
        data = setup_post(**{"setup-half_time_after": bad, "setup-half_time_prize": "10"})
        response = client.post(url, data)
        assert response.status_code == 422
        assert response.context["setup_form"].errors["half_time_after"] == [rule.text()]
        assert not PrizePlace.objects.exists()
        return
    if rule.name in MONEY_ROUTES:
        route = MONEY_ROUTES[rule.name]
        drive = a_drive(ours.club, couples=2)
        path = route.path.replace("{bad}", str(bad))
        answer = client.generic(
            route.method,
            f"/api/v1/drives/{drive.slug}/{path}",
            json.dumps(route.api_body(bad)),
            content_type="application/json",
        )
        assert answer.status_code == 422, answer.content
        body = answer.json()
        assert (body["code"], body["message"], body.get("field")) == (
            rule.code,
            rule.text(bad, field=route.place or route.field),
            route.field if rule.named else None,
        )
        assert not Line.objects.exists()
        return
    if _is_season(rule):
        season, drive = _season(ours.club)
        seasons = f"/api/v1/clubs/{ours.club.slug}/seasons"
        if rule is inputs.SPELLING_LENGTH:
            path, body = f"{seasons}/{season.slug}/players/merge", {"name": bad, "into": "Ann 1"}
        elif rule is inputs.DRIVE_SLUG:
            path, body = f"{seasons}/{season.slug}/drives", {"drive": bad}
        else:
            path, body = seasons, SEASON | {rule.field: bad}
        answer = client.post(path, body, content_type="application/json")
        assert answer.status_code == rule.status, answer.content
        body = answer.json()
        assert (body["code"], body["message"], body.get("field")) == (
            rule.code,
            rule.text(bad),
            rule.field,
        )
        assert Season.objects.count() == 1 and not PlayerMerge.objects.exists()
        return
    if _is_prize(rule):
        drive = a_drive(ours.club)
        change = {"prizes": [{"amount": bad}]} if rule.field == "prizes" else {rule.field: bad}
        if rule.field == "jackpot_amount":
            change["jackpot_threshold"] = 5
        answer = client.patch(
            f"/api/v1/drives/{drive.slug}/prizes/setup", change, content_type="application/json"
        )
        assert answer.status_code == 422, answer.content
        body = answer.json()
        field = "prizes[0]" if rule.field == "prizes" else rule.field
        assert (body["code"], body["message"], body.get("field")) == (
            rule.code,
            rule.text(),
            field,
        )
        return
    if rule is inputs.CALL_REASON:
        drive = _started(ours.club)
        answer = client.post(
            f"/api/v1/drives/{drive.slug}/games/1/tables/1/call",
            {"reason": bad},
            content_type="application/json",
        )
        assert answer.status_code == 422, answer.content
        body = answer.json()
        assert (body["code"], body["message"], body.get("field")) == (
            rule.code,
            rule.text(),
            rule.field,
        )
        assert not TableCall.objects.exists()
        return
    if _is_result(rule):
        drive = _started(ours.club)
        where = {"game": 1, "table": 1}
        result: dict[str, Any] = {"winner": 1, "points": [50, 40], "confirm_unusual": False}
        if rule.field in where:
            where[rule.field] = bad
        else:
            result[rule.field] = bad
        answer = client.put(
            f"/api/v1/drives/{drive.slug}/games/{where['game']}/tables/{where['table']}/result",
            result,
            content_type="application/json",
        )
        assert answer.status_code == 422, answer.content
        body = answer.json()
        assert (body["code"], body["message"], body.get("field")) == (
            rule.code,
            rule.text(),
            rule.field,
        )
        assert not Result.objects.exists()
        return
    drive = a_drive(ours.club, couples=1)
    if _is_setting(rule):
        body = {"club": ours.club.slug, "name": "N", "date": "2026-11-20", rule.field: bad}
        answer = client.post("/api/v1/drives", body, content_type="application/json")
    elif rule.field == "withdrawn":
        answer = client.patch(
            f"/api/v1/drives/{drive.slug}/couples/1",
            {"withdrawn": bad},
            content_type="application/json",
        )
    else:
        couple: dict[str, Any] = {"players": ["Ann", "Joe"]}
        if _is_player(rule):
            couple["players"] = [bad, "Joe"]
        else:
            couple[rule.field] = bad
        answer = client.post(
            f"/api/v1/drives/{drive.slug}/couples", couple, content_type="application/json"
        )
    assert answer.status_code == 422, answer.content
    body = answer.json()
    assert (body["code"], body["message"], body.get("field")) == (
        rule.code,
        rule.text(),
        rule.field,
    )
    assert Drive.objects.count() == 1 and Couple.objects.count() == 1


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
def test_the_page_refuses_with_the_rules_words(rule: inputs.Rule, ours: Any) -> None:
    bad = CASES[rule.name].page
    if bad is None:
        pytest.skip("the form has no box that can send it")
    client = logged_in(ours.organizer)
    if rule in inputs.REASON:
        drive = _started(ours.club)
        data = {"fix-game": "1", "fix-table": "1", "fix-winner": "1", "fix-reason": bad}
        url = reverse("night:dashboard_resolve", kwargs={"slug": drive.slug})
        response = client.post(url, data)
        assert response.status_code == 422
        assert response.context["correction_form"].errors["reason"] == [rule.text()]
        assert not Result.objects.exists()
        return
    if rule is inputs.HOLES_COUNT:
        drive = _started(ours.club)
        url = reverse("night:dashboard_holes", kwargs={"slug": drive.slug})
        response = client.post(url, {"holes-1": bad})
        assert response.status_code == 422
        assert response.context["holes_form"].errors["1"] == [rule.text()]
        assert not Couple.objects.filter(holes__isnull=False).exists()
        return
    if rule is inputs.COOKIE_JAR_GAMES:
        drive = night([3, 2, 1, 1], club=ours.club, cookie_jar=[1], prizes={"buy_in": "2"})
        url = reverse("night:prizes_cookie_jar", kwargs={"slug": drive.slug})
        response = client.post(url, {"jar-method": "hat", "jar-games": bad})
        assert response.status_code == 422
        assert response.context["jar_form"].non_field_errors() == [rule.text()]
        assert not CookieJarDraw.objects.exists()
        return
    if rule is inputs.PRIZE_DESCRIPTION:
        drive = a_drive(ours.club)
        url = reverse("night:prizes_setup", kwargs={"slug": drive.slug})
        response = client.post(url, setup_post(**{"setup-place_1": bad}))
        assert response.status_code == 422
        assert response.context["setup_form"].errors["place_1"] == [rule.text(field="prizes[0]")]
        assert not PrizePlace.objects.exists()
        return
    if rule is inputs.HALF_TIME_AFTER:
        drive = a_drive(ours.club)
        url = reverse("night:prizes_setup", kwargs={"slug": drive.slug})
        data = setup_post(**{"setup-half_time_after": bad, "setup-half_time_prize": "10"})
        response = client.post(url, data)
        assert response.status_code == 422
        assert response.context["setup_form"].errors["half_time_after"] == [rule.text()]
        assert not PrizePlace.objects.exists()
        return
    if rule.name in MONEY_ROUTES:
        route = MONEY_ROUTES[rule.name]
        drive = a_drive(ours.club, couples=2)
        url = reverse("money:page", kwargs={"slug": drive.slug})
        response = client.post(url, route.page_post(bad), follow=True)
        place = route.place or route.field
        told = [str(m) for m in response.context["messages"]]
        assert told == [rule.text(None if bad == LEFT_OUT else bad, field=place)]
        assert not Line.objects.exists()
        return
    if _is_season(rule):
        season, drive = _season(ours.club)
        if rule is inputs.SPELLING_LENGTH:
            url = reverse(
                "seasons:season_players", kwargs={"club": ours.club.slug, "season": season.slug}
            )
            data = {"action": "split", "drive": drive.slug, "name": bad, "as_name": "Ann 9"}
            response = client.post(url, data)
            form = response.context["split_form"]
        elif rule.name in SEASON_RULES:
            url = reverse(
                "seasons:season_edit", kwargs={"club": ours.club.slug, "season": season.slug}
            )
            response = client.post(url, {**SEASON, rule.field: bad})
            assert response.status_code == 422
            form = response.context["form"]
        else:
            data = {"club": ours.club.slug, **SEASON, rule.field: bad}
            response = client.post(reverse("seasons:list"), data)
            assert response.status_code == 422
            form = response.context["clubs"][0]["form"]
        assert form.errors[rule.field] == [rule.text(bad)]
        assert Season.objects.count() == 1 and not PlayerSplit.objects.exists()
        return
    if _is_prize(rule):
        drive = a_drive(ours.club)
        data = setup_post()
        if rule.field == "prizes":
            data["setup-place_1"] = bad
        else:
            data[f"setup-{rule.field}"] = bad
        if rule.field == "jackpot_amount":
            data["setup-jackpot_threshold"] = "5"
        url = reverse("night:prizes_setup", kwargs={"slug": drive.slug})
        response = client.post(url, data)
        assert response.status_code == 422
        form = response.context["setup_form"]
        field = rule.field if rule.field in form.fields else "__all__"
        assert form.errors[field] == [rule.text()]
        return
    if rule is inputs.CALL_REASON:
        # The table page's button "Call the desk" (no login: the table card's address).
        drive = _started(ours.club)
        table = drive.tables.get(number=1)
        response = Client().post(f"/t/{table.token}/", {"action": "call", "reason": bad})
        assert response.status_code == 422
        assert rule.text() in response.content.decode()
        assert not TableCall.objects.exists()
        return
    if _is_result(rule):
        drive = _started(ours.club)
        data = {"fix-game": "1", "fix-table": "1", "fix-winner": "1", "fix-reason": "asked"}
        data[f"fix-{rule.field}"] = bad
        url = reverse("night:dashboard_resolve", kwargs={"slug": drive.slug})
        response = client.post(url, data)
        assert response.status_code == 422
        assert response.context["correction_form"].errors[rule.field] == [rule.text()]
        assert not Result.objects.exists()
        return
    if rule is inputs.REGISTRATION_CONTACT:
        # The drive's public registration page (no login).
        drive = a_drive(ours.club, registration_opens=timezone.now() - timedelta(hours=1))
        url = reverse("drive-register", kwargs={"slug": drive.slug})
        response = Client().post(url, {"player1": "Ann", "player2": "Joe", "contact": bad})
        assert response.status_code == 422
        assert response.context["form"].errors["contact"] == [rule.text()]
        assert not Registration.objects.exists()
        return
    if _is_setting(rule):
        url, data, field = NEW, form_data(ours.club.pk, **{rule.field: bad}), rule.field
    elif _is_player(rule):
        drive = a_drive(ours.club)
        url, data, field = (
            f"/drives/{drive.slug}/couples/",
            {"player1": bad, "player2": "Joe"},
            "player1",
        )
    else:
        url, data, field = "/drives/", {"name": bad}, "name"
    response = client.post(url, data)
    assert response.status_code == 422
    assert response.context["form"].errors[field] == [rule.text()]
    assert Drive.objects.count() <= 1 and Club.objects.count() == 1
    assert not Couple.objects.exists()


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
def test_the_import_or_the_command_line_refuses_with_the_rules_words(
    rule: inputs.Rule, ours: Any, tmp_path: Path
) -> None:
    bad = CASES[rule.name].cli
    if bad is None:
        pytest.skip("no column nor option")
    path = tmp_path / "couples.csv"
    if _is_season(rule):
        season, drive = _season(ours.club)
        club = ours.club.slug
        if rule is inputs.SPELLING_LENGTH:
            args = ["merge", club, season.slug, bad, "Ann 1"]
        elif rule is inputs.DRIVE_SLUG:
            args = ["add", club, season.slug, bad]
        else:
            options = {"--name": "Winter", "--from": "2027-01-01", "--to": "2027-03-31"}
            options[{"starts": "--from", "ends": "--to"}.get(rule.field, "--name")] = bad
            args = ["create", club, *[item for pair in options.items() for item in pair]]
        with pytest.raises(CommandError) as refused:
            run("drive", "season", *args)
        assert str(refused.value) == rule.text(bad)
        assert Season.objects.count() == 1 and not PlayerMerge.objects.exists()
        return
    if _is_result(rule):
        drive = _started(ours.club)
        cells = {"game": "1", "table": "1", "winner": "1"}
        cells[rule.field] = bad
        path.write_text(
            "game,table,winner\n1,2,3\n" + ",".join(cells.values()) + "\n", encoding="utf-8"
        )
        with pytest.raises(CommandError) as refused:
            run("drive", "import-results", drive.slug, str(path))
        assert f"line 3: {rule.text()}" in str(refused.value)
        assert not Result.objects.exists()
        return
    if _is_player(rule):
        drive = a_drive(ours.club)
        path.write_text(f"player1,player2\nAnn,Joe\n{bad},Joe\n", encoding="utf-8")
        with pytest.raises(CommandError) as refused:
            run("drive", "import-couples", drive.slug, str(path))
        assert f"line 3: {rule.text()}" in str(refused.value)
        assert not Couple.objects.exists()
        return
    path.write_text("player1,player2\nAnn,Joe\n", encoding="utf-8")
    options = {"--club": "X", "--name": "N", "--date": "2026-11-20"}
    options[CLI_OPTIONS.get(rule.name, f"--{rule.field}")] = bad
    args = [item for pair in options.items() for item in pair]
    with pytest.raises(CommandError) as refused:
        run("drive", "create", *args, "--couples", str(path))
    assert str(refused.value) == rule.text()
    assert not Drive.objects.exists()
