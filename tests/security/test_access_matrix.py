"""Who may open what: every URL pattern of the site × every kind of caller, each cell the exact
answer expected (the rows are in tests/security/matrix.py, the world and its callers in
tests/security/world.py).

Every pattern of ``django.urls.get_resolver()`` must have a row (the admin's by model): a page
or endpoint added without saying who may use it fails ``test_every_url_pattern_is_in_the_matrix``.
Beyond the status, each answer is searched for the markers of data its caller must not see (the
couples' names of the drive, the other club's name and organizer), and an answer of 4xx must
have written nothing to the audit.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib import admin
from django.urls import URLPattern, URLResolver, get_resolver

from drives.models import AuditEntry
from tests.security.matrix import ADMIN_LOGIN, ADMIN_OBJECTS, CASES, LOGIN, Case, Expected, send
from tests.security.world import (
    ANON,
    B_MARK,
    B_ORGANIZER,
    CALLERS,
    CLOSED,
    CLUB_A,
    CLUB_B,
    D_MARK,
    OTHER_DRIVE,
    OTHER_ORG,
    World,
)

# --- walking the URL patterns ------------------------------------------------------------------


def _routes(patterns: list[Any], prefix: str = "") -> Iterator[str]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            assert isinstance(pattern, URLPattern)
            yield prefix + str(pattern.pattern)


def test_every_url_pattern_is_in_the_matrix() -> None:
    """A page or endpoint nobody said who may open fails here: add its row to CASES."""
    routes = set(_routes(get_resolver().url_patterns))
    covered = {case.route for case in CASES}
    assert sorted(routes - covered) == [], "URL patterns without a row in the access matrix"
    assert sorted(covered - routes) == [], "rows of the matrix for URL patterns that are gone"


def test_every_api_method_is_in_the_matrix() -> None:
    """Each method an API endpoint serves has its row (a new method needs its own)."""
    served: set[tuple[str, str]] = set()

    def walk(patterns: list[Any], prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif hasattr(pattern.callback, "methods"):
                route = prefix + str(pattern.pattern)
                served.update((route, method) for method in pattern.callback.methods)

    walk(get_resolver().url_patterns, "")
    rows = {(case.route, case.method) for case in CASES if case.is_api}
    rows.discard((r"api/v1/^(?P<path>[\s\S]*)$", "GET"))
    assert served == rows


def test_every_admin_model_is_in_the_matrix() -> None:
    registered = {model._meta.label_lower for model in admin.site._registry}
    assert registered == set(ADMIN_OBJECTS)


# --- the cells ------------------------------------------------------------------------------------


# Markers of data a caller must never be shown (compared without case): the drive's couples
# to anyone outside it, club A to outsiders, and club B (its name, its organizer's account)
# to anyone but its organizer.
NOT_FOR: dict[str, set[str]] = {
    ANON: {D_MARK, CLUB_A},
    OTHER_ORG: {D_MARK, CLUB_A},
    OTHER_DRIVE: {D_MARK},
    CLOSED: {D_MARK},
}
OTHER_CLUB = {B_MARK, CLUB_B, B_ORGANIZER}


def _forbidden_markers(case: Case, caller: str) -> set[str]:
    markers = set(NOT_FOR.get(caller, set()))
    if caller != OTHER_ORG:
        markers |= OTHER_CLUB
    return markers - case.reveals


# The API's refusals by who is refused: the code says why, and the same for every endpoint.
API_CODES = {
    (ANON, 401): "not_authenticated",
    (OTHER_ORG, 404): "not_found",
    (OTHER_DRIVE, 404): "not_found",
    (CLOSED, 403): "token_expired",
}


def _body_text(response: Any) -> str:
    # A streamed answer read to its end is closed, as a server would (the test client's wrapper).
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return content.decode("utf-8", "replace")


def _check(case: Case, caller_kind: str, expected: Expected, response: Any) -> None:
    where = f"{case.method} {case.path} as {caller_kind}"
    location = response.get("Location", "")
    if expected == LOGIN:
        assert response.status_code == 302, where
        assert location.startswith("/accounts/login/?next="), (where, location)
    elif expected == ADMIN_LOGIN:
        assert response.status_code == 302, where
        assert location.startswith("/admin/login/?next="), (where, location)
    else:
        assert response.status_code == expected, (where, response.status_code, location)
        if expected in (301, 302):
            assert not location.startswith(("/accounts/login/", "/admin/login/")), where


def _cells() -> Iterator[Any]:
    seen = set()
    for case in CASES:
        # A second row of a route and method is told apart by its path.
        variant = f" {case.path}" if (case.route, case.method) in seen else ""
        seen.add((case.route, case.method))
        for caller, expected in zip(CALLERS, case.row, strict=True):
            yield pytest.param(
                case, caller, expected, id=f"{case.method} {case.route}{variant} × {caller}"
            )


@pytest.mark.django_db
@pytest.mark.parametrize(("case", "caller", "expected"), list(_cells()))
def test_access(world: World, case: Case, caller: str, expected: Expected) -> None:
    audited = AuditEntry.objects.count()
    response = send(case, world, world.callers[caller])
    _check(case, caller, expected, response)
    text = _body_text(response).lower()
    for marker in _forbidden_markers(case, caller):
        assert marker.lower() not in text, f"{marker!r} shown to {caller}"
    code = API_CODES.get((caller, response.status_code))
    if case.is_api and code and case.route != r"api/v1/^(?P<path>[\s\S]*)$":
        assert response.json()["code"] == code
    if response.status_code >= 400 or expected in (LOGIN, ADMIN_LOGIN):
        assert AuditEntry.objects.count() == audited, "a refused request changed something"
