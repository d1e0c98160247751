"""Hypothesis against every HTML form: arbitrary values in each box (digits int() refuses,
huge numbers, markup, NUL, long text, nothing at all). Never a 5xx (the test client re-raises
what a view lets through). A refusal (a 4xx page, or an error message on the page it sends
back to) says what is wrong (a form error, an error message) and leaves every row of the
database as it was.

The two refusals that write are documented: a result that contradicts the one stored (409
``result_conflict``) keeps both entries for the desk, and a key sent again with another result
(409 ``key_reused``) stores nothing but is audited.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib import messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.forms import BaseForm
from django.test import Client
from hypothesis import example, given
from hypothesis import strategies as st

from tests.fuzz.helpers import World, changed_tables, fuzzing, rolled_back, snapshot
from tests.fuzz.strategies import form_value

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

EXAMPLES = 25
KEEPS = {"result_conflict", "key_reused"}

Typical = str | list[str]


@dataclass(frozen=True)
class Form:
    """A form: its URL and, for each box, what is typically typed there (a list: several
    typical values, the first one the most usual)."""

    path: str  # {running} {pending} {setup} {over} {closed}: slugs; {tie} {table} {couple}
    fields: dict[str, Typical]
    user: str = "organizer"  # or "anonymous" (a token page, the login page)
    headers: dict[str, str] = field(default_factory=dict)

    def url(self, world: World, tie: int) -> str:
        slugs = {name: drive.slug for name, drive in world.drives.items()}
        return self.path.format(
            tie=tie,
            table=world.tokens["table"],
            couple=world.tokens["pending_other"],
            **slugs,
        )

    def typical(self) -> dict[str, str]:
        return {k: v[0] if isinstance(v, list) else v for k, v in self.fields.items()}

    def strategy(self) -> st.SearchStrategy[dict[str, str]]:
        """Some of the boxes, each with a typical value or anything at all."""
        boxes = {
            name: st.one_of(st.sampled_from(v if isinstance(v, list) else [v]), form_value())
            for name, v in self.fields.items()
        }
        return st.fixed_dictionaries({}, optional=boxes)

    def explicit(self) -> list[dict[str, str]]:
        """The typical submission, and with one box at a time holding text a number check may
        let through and int() may not."""
        typical = self.typical()
        return [typical] + [
            typical | {name: value} for value in ("²", "9" * 30) for name in self.fields
        ]


YES = ["on", "", "1", "off"]
DRIVE_FIELDS: dict[str, Typical] = {
    "name": "Friday 45s",
    "date": "2026-12-04",
    "venue": "Parish hall",
    "games": "20",
    "ruleset": ["cape-breton-45", "auction-120"],
    "movement": "winners-move",
    "first_seating": ["by-number", "shuffle"],
    "seed": "",
    "sit_out_counts_as_win": YES,
    "ranking": ["dense", "competition"],
    "entry_fee": "5.00",
    "currency": "CAD",
    "confirm_by_other_couple": YES,
}
FORMS = {
    "club": Form("/drives/", {"name": "Legion Branch 99"}),
    "new drive": Form("/drives/new", {"club": "1", **DRIVE_FIELDS}),
    "settings (setup)": Form("/drives/{setup}/settings", DRIVE_FIELDS),
    "settings (running)": Form("/drives/{running}/settings", DRIVE_FIELDS),
    "registration": Form(
        "/drives/{running}/couples/",
        {"player1": "Ann", "player2": "Bob", "paid": YES, "cookie_jar": YES, "checked_in": YES},
    ),
    "couple toggle": Form(
        "/drives/{running}/couples/3/toggle", {"set": ["paid:1", "checked_in:0", "paid:²"]}
    ),
    "couple toggle (json)": Form(
        "/drives/{running}/couples/4/toggle",
        {"set": "cookie_jar:1"},
        headers={"Accept": "application/json"},
    ),
    "withdraw": Form("/drives/{running}/couples/5/withdraw", {"withdrawn": ["1", "0"]}),
    "desk entry": Form(
        "/drives/{running}/desk/",
        {
            "action": ["enter", "resolve"],
            "game": "2",
            "table": "3",
            "winner": ["5", "6"],
            "points": ["", "50-40", "45 20"],
            "confirm_unusual": YES,
            "reason": "misread",
        },
    ),
    "desk entry (json)": Form(
        "/drives/{running}/desk/",
        {"table": "4", "winner": "7", "points": ["", "50-40"]},
        headers={"Accept": "application/json"},
    ),
    "start": Form(
        "/drives/{setup}/start",
        {"start-seating": "shuffle", "start-seed": "42", "start-absent": ["seat", "withdraw"]},
    ),
    "advance": Form("/drives/{running}/advance", {"game": ["2", "1"]}),
    "correction": Form(
        "/drives/{running}/resolve",
        {"fix-game": "1", "fix-table": "1", "fix-winner": ["1", "2"], "fix-reason": "misread"},
    ),
    "holes": Form("/drives/{running}/holes", {f"holes-{n}": "1" for n in (1, 2, 9)}),
    "publish": Form("/drives/{closed}/publish", {"published": ["1", "0"]}),
    "prize setup": Form(
        "/drives/{running}/prizes/setup",
        {
            "setup-prize_places": "3",
            "setup-booby": YES,
            "setup-booby_prize": "a ham",
            "setup-booby_late_couples": YES,
            "setup-cookie_jar": YES,
            "setup-cookie_jar_k": "8",
            "setup-buy_in": "2.00",
            "setup-jackpot_threshold": "",
            "setup-jackpot_amount": "",
            "setup-cut_rule": ["low", "high"],
            "setup-house_rule": ["none", "always-cut"],
            "setup-place_1": "$50",
            "setup-place_2": "a turkey",
        },
    ),
    "prize setup (opened)": Form(
        "/drives/{over}/prizes/setup",
        {
            "setup-prize_places": "2",
            "setup-buy_in": "3",
            "setup-cookie_jar_k": "4",
            "setup-house_rule": "none",
        },
    ),
    "settle": Form("/drives/{running}/prizes/settle", {"force": YES}),
    "cookie jar": Form(
        "/drives/{over}/prizes/cookie-jar",
        {"jar-method": ["hat", "system"], "jar-games": "1 2 3"},
    ),
    "tie choice": Form(
        "/drives/{over}/prizes/ties/{tie}/choice", {"choice": ["5:cut", "6:split", "1:forfeit"]}
    ),
    "tie decide": Form("/drives/{over}/prizes/ties/{tie}/decide", {"x": ""}),
    "tie cut": Form(
        "/drives/{over}/prizes/ties/{tie}/cut", {"cut-card_1": "7H", "cut-card_2": "2C"}
    ),
    "tie draw": Form("/drives/{over}/prizes/ties/{tie}/draw", {"x": ""}),
    "tie playoff": Form(
        "/drives/{over}/prizes/ties/{tie}/playoff",
        {"match": "3-4", "winner": ["3", "4"], "points": ["", "45-20"], "confirm_unusual": YES},
    ),
    "print": Form(
        "/drives/{running}/print/request",
        {
            "document": ["punch-cards", "movement", "results"],
            "paper": ["letter", "a4"],
            "game": "",
            "couple": "",
            "filled": YES,
        },
    ),
    "table page": Form(
        "/t/{table}/",
        {
            "game": "2",
            "winner": ["4", "3"],
            "points": ["", "other", "50-40"],
            "points_winner": "45",
            "points_loser": "20",
            "confirm_unusual": YES,
            "key": "k1",
        },
        user="anonymous",
    ),
    "couple page": Form(
        "/c/{couple}/", {"action": ["confirm", "reject"], "game": "1"}, user="anonymous"
    ),
    "login": Form(
        "/accounts/login/",
        {"username": "ours-organizer", "password": "wrong"},
        user="anonymous",
    ),
}


def explained(response: Any) -> bool:
    """Whether the answer says what was wrong: a form with errors, an error on the page or
    in JSON, or an error message for the page it redirects to."""
    if response.get("Content-Type", "").startswith("application/json"):
        return bool(str(response.json().get("message", "")).strip())
    stored = list(messages.get_messages(response.wsgi_request))
    if any(m.level >= messages.WARNING for m in stored):
        return True
    for context in response.context or []:
        for key, value in context.flatten().items():
            if isinstance(value, BaseForm) and value.errors:
                return True
            if key in ("error", "advance_error") and value:
                return True
            if key in ("entry", "answer") and isinstance(value, dict) and value.get("message"):
                return True
    return False


def refused(response: Any) -> bool:
    """A 4xx, an error message for the next page, or the same page again with form errors
    (the login page answers 200)."""
    if response.status_code >= 400:
        return True
    stored = list(messages.get_messages(response.wsgi_request))
    if any(m.level >= messages.ERROR for m in stored):
        return True
    return response.status_code == 200 and form_errors(response)


def form_errors(response: Any) -> bool:
    for context in response.context or []:
        for value in context.flatten().values():
            if isinstance(value, BaseForm) and value.errors:
                return True
    return False


def code_of(response: Any) -> str:
    if response.get("Content-Type", "").startswith("application/json"):
        return str(response.json().get("code", ""))
    for context in response.context or []:
        flat = context.flatten()
        for key in ("entry", "answer"):
            if isinstance(flat.get(key), dict) and flat[key].get("code"):
                return str(flat[key]["code"])
    return ""


def fuzz_form(world: World, form: Form, examples: int = EXAMPLES) -> list[int]:
    client = Client()
    if form.user == "organizer":
        client.force_login(world.ours.organizer)
    statuses: list[int] = []
    before = snapshot()  # every request is undone: each one starts from this

    @fuzzing(examples)
    @given(data=form.strategy(), tie=st.sampled_from(world.ties))
    def check(data: dict[str, Any], tie: int) -> None:
        client.cookies.pop("messages", None)  # only this request's messages count
        with rolled_back():
            response = client.post(form.url(world, tie), data, headers=form.headers)
            assert response.status_code < 500, (data, response.content[:500])
            statuses.append(response.status_code)
            if refused(response):
                assert explained(response), (data, response.status_code, response.content[:2000])
                if code_of(response) not in KEEPS:
                    changed = changed_tables(before, snapshot())
                    assert not changed, (data, response.status_code, changed)

    for data in form.explicit():
        check = example(data=data, tie=world.ties[0])(check)
    check()
    return statuses


@pytest.mark.parametrize("name", [name for name in FORMS if name != "login"])
def test_odd_form_values_are_refused_and_change_nothing(world: World, name: str) -> None:
    statuses = fuzz_form(world, FORMS[name])
    assert any(s >= 400 or s == 302 for s in statuses), statuses


# The pages that read their query string, and what they read.
PAGES = {
    "/drives/{running}/": ("game", "table", "winner"),
    "/drives/{over}/projector/": ("show", "tie", "partial"),
    "/drives/{running}/desk/": ("game", "partial"),
    "/drives/{running}/standings/": ("sort", "_export", "page"),
    "/drives/{running}/grid/": ("sort", "_export", "page"),
    "/results/{closed}/": ("sort", "_export"),
    "/drives/new": ("club",),
    "/drives/{running}/couples/": ("after",),
    "/t/{table}/": ("partial",),
    "/c/{couple}/": ("partial",),
}
QUERY_VALUES: dict[str, Typical] = {
    "show": ["prizes", "standings"],
    "_export": ["csv", "xlsx", "json", "pdf"],
    "sort": ["place", "-wins", "players", "nothing", "-"],
}


@pytest.mark.parametrize("path", list(PAGES))
def test_odd_query_strings_never_break_a_page(world: World, path: str) -> None:
    client = Client()
    client.force_login(world.ours.organizer)
    page = Form(path, {name: QUERY_VALUES.get(name, "2") for name in PAGES[path]})
    url = page.url(world, world.ties[0])
    statuses: list[int] = []

    @fuzzing(20)
    @given(query=page.strategy())
    def check(query: dict[str, str]) -> None:
        response = client.get(url, query)
        assert response.status_code < 500, (query, response.content[:500])
        statuses.append(response.status_code)

    for query in page.explicit():
        check = example(query=query)(check)
    check()
    if world.slug("closed") not in url:
        assert 200 in statuses, statuses


UPLOADS: list[bytes] = [
    b"",
    b"player1,player2\n",
    b"player1,player2\nAnn,Bob\nAnn,Bob\n",
    b"player1,player2\nTh\x81r\x8dse,Zo\x00\n",  # neither UTF-8 nor Windows-1252 text
    "player1,player2\nThérèse,Zoë\n".encode("utf-16"),
    b"\x00\x01\x02\xff" * 100,
    b"player1,player2\n" + b"a," * 5000 + b"\n",
    b'player1,player2\n"Ann,Bob\n',
]


@pytest.mark.parametrize("content", UPLOADS)
def test_bad_couples_files_are_refused_on_the_page(world: World, content: bytes) -> None:
    client = Client()
    client.force_login(world.ours.organizer)
    before = snapshot()
    upload = SimpleUploadedFile("couples.csv", content, content_type="text/csv")
    response = client.post(f"/drives/{world.slug('setup')}/couples/import", {"file": upload})
    assert response.status_code == 422
    assert response.context["form"].errors
    assert not changed_tables(before, snapshot())


def test_the_login_page_survives_odd_values_without_logging_in(world: World) -> None:
    """No odd value logs anyone in (the password is never one of them)."""
    statuses = fuzz_form(world, FORMS["login"], examples=15)
    assert all(s in (200, 429) for s in statuses), statuses
