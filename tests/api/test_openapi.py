"""The OpenAPI description covers every URL and method of the API, and holds together."""

import re
from datetime import date
from typing import Any

import pytest

from drives.services import DRIVE_SETTINGS, club_create, couples_register, drive_create
from scoring.api import urls
from scoring.api.openapi import openapi_spec
from scoring.selectors import couple_summary, drive_summary


def api_routes() -> dict[str, set[str]]:
    """Every URL pattern of the API as an OpenAPI path, with its methods."""
    routes = {}
    for pattern in urls.urlpatterns:
        methods = getattr(pattern.callback, "methods", None)
        if methods is None:  # the JSON 404 for everything else
            continue
        route = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", str(pattern.pattern))
        routes["/" + route] = {m.lower() for m in methods}
    return routes


def test_every_url_and_method_is_described() -> None:
    paths = openapi_spec()["paths"]
    routes = api_routes()
    assert len(routes) >= 20
    for route, methods in routes.items():
        assert route in paths, route
        described = set(paths[route]) - {"parameters"}
        assert described == methods, route
    assert set(paths) == set(routes)


def test_path_parameters_are_declared() -> None:
    for route, item in openapi_spec()["paths"].items():
        names = set(re.findall(r"{(\w+)}", route))
        declared = {p["name"] for p in item.get("parameters", [])}
        assert names == declared, route


def refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if "$ref" in node else []
        return found + [r for value in node.values() for r in refs(value)]
    if isinstance(node, list):
        return [r for value in node for r in refs(value)]
    return []


def test_every_reference_resolves_and_every_operation_answers_errors() -> None:
    spec = openapi_spec()
    assert spec["openapi"] == "3.1.0"
    schemas = spec["components"]["schemas"]
    for ref in refs(spec):
        assert ref.startswith("#/components/schemas/") and ref.rsplit("/", 1)[1] in schemas
    operation_ids = []
    for route, item in spec["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            operation_ids.append(operation["operationId"])
            responses = operation["responses"]
            assert any(code.startswith("2") for code in responses), route
            errors = [code for code in responses if code[0] == "4"]
            if route != "/openapi.json":
                assert {"401", "403"} <= set(errors), (route, method)
            for code in errors:
                schema = responses[code]["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/Error"}
            if "requestBody" in operation:
                assert {"400", "413"} <= set(errors), (route, method)
    assert len(operation_ids) == len(set(operation_ids))


@pytest.mark.django_db
def test_the_drive_schemas_follow_the_services_and_selectors() -> None:
    schemas = openapi_spec()["components"]["schemas"]
    assert set(schemas["DriveSettings"]["properties"]) == set(DRIVE_SETTINGS)
    club = club_create(name="Schema Club")
    drive = drive_create(club=club, name="Schema night", date=date(2026, 11, 20))
    assert set(schemas["Drive"]["properties"]) == set(drive_summary(drive))
    couple = couples_register(drive=drive, couples=[{"players": ["A", "B"]}])[0]
    assert set(schemas["Couple"]["properties"]) == set(couple_summary(couple))
