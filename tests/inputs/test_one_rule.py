"""Each rule of the night's input (``drives.inputs.RULES``) refuses the same bad value with the
same words through every way in: the API (its code too), the page's form, and the import (the
couples CSV file) or the command line. Parametrized over the declarations themselves: a rule
declared without a case here fails ``test_every_rule_has_a_case``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from drives import inputs
from drives.models import Club, Couple, Drive
from drives.services import SYSTEM, drive_start
from scoring.models import Result, TableCall
from tests.cli.helpers import run
from tests.pages.organizer_helpers import a_drive, club_people, logged_in
from tests.pages.test_drives_new import NEW, form_data
from tests.pages.test_prizes_pages import setup_post

pytestmark = pytest.mark.django_db

NOT_A_BOX = None  # the page cannot send such a value (a checkbox, no such box)


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
