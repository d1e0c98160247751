"""Tokens cannot be guessed, and a wrong one tells nothing: table, couple and API tokens are
128 bits or more from ``secrets``, unique, and a token that is nobody's (made up, one
character off, cut short, of the wrong kind, of a deactivated account) gets the same answer,
after the same queries, whatever was wrong with it; text that cannot be a token at all (too
long, a NUL, a space, an invisible character) gets that answer too, without a look-up."""

from __future__ import annotations

import base64
import secrets
from datetime import date
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from drives.models import ApiToken, AuditEntry, Couple, Table, new_token
from drives.services import (
    Actor,
    api_token_create,
    club_create,
    couples_register,
    drive_create,
    drive_start,
    member_add,
)
from tests.factories import UserFactory

SAMPLES = 10_000


def _bytes(token: str) -> bytes:
    """The random bytes of a URL-safe base64 token (padding put back)."""
    return base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))


def _night(couples: int = 8) -> Any:
    club = club_create(name=f"Parish {secrets.token_hex(4)}")
    drive = drive_create(club=club, name="Friday 45s", date=date(2026, 11, 20))
    couples_register(drive=drive, couples=[{"players": [f"A{i}", f"B{i}"]} for i in range(couples)])
    drive_start(drive=drive, actor=Actor(channel=AuditEntry.Channel.DESK))
    drive.refresh_from_db()
    return drive


# --- how tokens are made ------------------------------------------------------------------------


def test_card_tokens_are_128_random_bits() -> None:
    tokens = [new_token() for _ in range(SAMPLES)]
    assert len(set(tokens)) == SAMPLES
    raw = [_bytes(t) for t in tokens]
    assert all(len(r) >= 16 for r in raw)
    assert all(t.isascii() and t.replace("-", "").replace("_", "").isalnum() for t in tokens)
    # Every bit is a coin toss: about half the bits are ones, and each byte of the token
    # averages 127.5 (a counter, a clock or a narrow alphabet would be far off).
    ones = sum(bin(b).count("1") for r in raw for b in r)
    assert abs(ones / (SAMPLES * 16 * 8) - 0.5) < 0.01
    for position in range(16):
        mean = sum(r[position] for r in raw) / SAMPLES
        assert abs(mean - 127.5) < 5, position


@pytest.mark.django_db
def test_tokens_come_from_the_secrets_module(monkeypatch: pytest.MonkeyPatch) -> None:
    """Table, couple and API tokens are drawn by ``secrets`` (the OS's random source), not by
    ``random``: replacing ``secrets.token_urlsafe`` replaces every one of them."""
    drawn: list[int] = []

    def fake(nbytes: int | None = None) -> str:
        drawn.append(nbytes or 0)
        return f"fake{len(drawn):04d}"

    monkeypatch.setattr(secrets, "token_urlsafe", fake)
    drive = _night(4)
    user = UserFactory(username="token-user")
    raw = api_token_create(user=user)
    tokens = [t.token for t in Table.objects.filter(drive=drive)]
    tokens += [c.token for c in Couple.objects.filter(drive=drive)]
    assert all(t.startswith("fake") for t in tokens) and raw.startswith("fake")
    assert min(drawn) >= 16, "at least 16 random bytes (128 bits) each"


@pytest.mark.django_db
def test_tokens_made_for_a_night_are_unique_and_long() -> None:
    drive = _night(60)
    tokens = list(Table.objects.filter(drive=drive).values_list("token", flat=True))
    tokens += list(Couple.objects.filter(drive=drive).values_list("token", flat=True))
    assert len(tokens) == 60 + 30
    assert len(set(tokens)) == len(tokens)
    assert all(len(_bytes(t)) >= 16 for t in tokens)


@pytest.mark.django_db
def test_api_tokens_are_256_bits_and_only_their_digest_is_kept() -> None:
    user = UserFactory(username="api-user")
    raws = [api_token_create(user=user) for _ in range(50)]
    assert len(set(raws)) == 50
    assert all(len(_bytes(r)) >= 32 for r in raws)
    stored = set(ApiToken.objects.values_list("digest", flat=True))
    assert not stored & set(raws)
    assert stored == {ApiToken.digest_of(r) for r in raws}


# --- a wrong token tells nothing ---------------------------------------------------------------


def _off_by_one(token: str) -> str:
    last = "A" if token[-1] != "A" else "B"
    return token[:-1] + last


def _wrong_tokens(drive: Any, api_token: str) -> dict[str, str]:
    """Tokens that are nobody's, each wrong in another way (all of a real token's length)."""
    table = Table.objects.filter(drive=drive).order_by("number").first()
    couple = Couple.objects.filter(drive=drive).order_by("number").first()
    assert table is not None and couple is not None
    return {
        "made up": "A" * len(table.token),
        "a table token one character off": _off_by_one(table.token),
        "a couple token one character off": _off_by_one(couple.token),
        "a table token cut short": table.token[:-1],
        "a table token in upper case": table.token.upper(),
        "an API token one character off": _off_by_one(api_token),
    }


def _not_tokens(token: str) -> dict[str, str]:
    """Text that cannot be a token at all (a token is URL-safe base64), with a real token's
    length: refused without a look-up, and so without a NUL reaching PostgreSQL (which
    cannot compare one). A lone surrogate cannot arrive: a path's bytes that are not UTF-8
    stay percent-encoded, and a header is decoded as Latin-1."""
    return {
        "too long": "x" * 500,
        "ending in NUL": token[:-1] + "\x00",
        "ending in a zero-width space": token[:-1] + "\u200b",
        "ending in a bidi override": token[:-1] + "\u202e",
        "ending in the bytes of a lone surrogate": token[:-3] + "%ED%B0%80",
        "with a space": token[:10] + " " + token[11:],
    }


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["t", "c"])
def test_a_wrong_token_on_a_card_page_is_the_same_404(page: str) -> None:
    drive = _night()
    user = UserFactory(username="card-user")
    wrong = _wrong_tokens(drive, api_token_create(user=user))
    # The other kind of card's token is no better than a made-up one.
    other_kind = Couple if page == "t" else Table
    wrong["a token of the other kind of card"] = other_kind.objects.filter(drive=drive)[0].token
    client = Client()
    answers = {}
    queries = {}
    for why, token in wrong.items():
        with CaptureQueriesContext(connection) as captured:
            response = client.get(f"/{page}/{token}/")
        assert response.status_code == 404, why
        assert token not in response.text, why
        answers[why] = response.content
        queries[why] = len(captured)
    assert len(set(answers.values())) == 1, "every wrong token gets the very same page"
    assert len(set(queries.values())) == 1, queries
    # Something that cannot be a token at all is refused without a look-up, the same way.
    for why, token in _not_tokens(wrong["made up"]).items():
        with CaptureQueriesContext(connection) as captured:
            response = client.get(f"/{page}/{token}/")
        assert response.content == next(iter(answers.values())), why
        assert len(captured) < min(queries.values()), why


@pytest.mark.django_db
def test_a_wrong_bearer_token_is_the_same_401() -> None:
    drive = _night()
    user = UserFactory(username="bearer-user")
    api_token = api_token_create(user=user)
    wrong = _wrong_tokens(drive, api_token)
    gone = UserFactory(username="gone-user")
    wrong["the token of a deactivated account"] = api_token_create(user=gone)
    gone.is_active = False
    gone.save()
    client = Client()
    answers = set()
    queries: dict[bool, set[int]] = {True: set(), False: set()}
    for why, token in wrong.items():
        with CaptureQueriesContext(connection) as captured:
            response = client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {token}")
        assert response.status_code == 401, why
        assert response.json()["code"] == "bad_token", why
        answers.add((response.content, response["WWW-Authenticate"]))
        if why != "the token of a deactivated account":  # its account is read, then refused
            # Card tokens and API tokens differ in length (which is no secret), so each
            # length is looked up where it can be; within a length, every miss is the same.
            queries[len(token) <= len(wrong["made up"])].add(len(captured))
    assert len(answers) == 1, "every wrong token gets the very same answer"
    assert all(len(counts) == 1 for counts in queries.values()), queries
    for why, token in _not_tokens(wrong["made up"]).items():
        with CaptureQueriesContext(connection) as captured:
            response = client.get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {token}")
        assert (response.content, response["WWW-Authenticate"]) in answers, why
        assert len(captured) < min(queries[True]), why


@pytest.mark.django_db
def test_another_clubs_drive_looks_like_no_drive_at_all() -> None:
    """An outsider cannot tell a drive of another club from a slug nobody uses, with an
    account or with another drive's token; nor a tie or a PDF of another drive."""
    ours = _night()
    theirs = _night()
    user = UserFactory(username="outsider")
    member_add(club=theirs.club, user=user, role="organizer")
    token = api_token_create(user=user)
    their_table = Table.objects.filter(drive=theirs)[0].token
    client = Client()
    for credential in (token, their_table):
        auth = {"HTTP_AUTHORIZATION": f"Bearer {credential}"}
        for tail in ("", "/standings", "/games/1", "/prizes/ties/1/decide"):
            method = "POST" if tail.endswith("decide") else "GET"
            real = client.generic(method, f"/api/v1/drives/{ours.slug}{tail}", **auth)
            none = client.generic(method, f"/api/v1/drives/no-such-drive{tail}", **auth)
            assert real.status_code == none.status_code == 404, tail
            assert real.content == none.content, tail
    client.force_login(user)
    real = client.get(f"/drives/{ours.slug}/desk/")
    none = client.get("/drives/no-such-drive/desk/")
    assert real.status_code == none.status_code == 404
    assert real.content == none.content
