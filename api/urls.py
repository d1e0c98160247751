"""The API's URLs, included under ``/api/v1/`` by ``config.urls`` once it has mounted every
app's router on ``api.site.api`` (``api_urls``): django-ninja's (every endpoint,
``openapi.json`` and the ``docs`` page, in the namespace ``api``), each answering a method it
does not serve with a JSON 405; anything else under ``/api/v1/`` is a JSON 404."""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.urls import URLPattern, URLResolver, include, path, re_path
from django.utils.translation import gettext
from ninja.utils import replace_path_param_notation

from api.errors import error_response
from api.site import Api, not_found
from drives.errors import ServiceError


def _json_405(view: Callable[..., HttpResponse], methods: list[str]) -> Callable[..., Any]:
    """ninja's plain-text 405 as the API's JSON error, with ``Allow`` and ``allowed``."""

    @wraps(view)
    def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method not in methods:
            response: HttpResponse = HttpResponseNotAllowed(methods)
        else:
            response = view(request, *args, **kwargs)
        if isinstance(response, HttpResponseNotAllowed):
            error = error_response(
                ServiceError(
                    "method_not_allowed",
                    gettext("%(method)s is not allowed here; use %(list)s.")
                    % {"method": request.method, "list": " or ".join(methods)},
                    status=405,
                    allowed=methods,
                )
            )
            error["Allow"] = ", ".join(methods)
            return error
        return response

    answer.methods = methods  # type: ignore[attr-defined]  # as on ninja's views (the access test reads it)
    return answer


def _methods_by_route(api: Api) -> dict[str, list[str]]:
    """The methods each route of the API serves (ninja routes ``/drives/{slug:slug}`` as
    ``drives/<slug:slug>``)."""
    served: dict[str, set[str]] = {}
    for router in api._get_bound_routers():
        for route, view in router.path_operations.items():
            django_route = replace_path_param_notation(route).lstrip("/")
            served.setdefault(django_route, set()).update(
                method for operation in view.operations for method in operation.methods
            )
    return {route: sorted(methods) for route, methods in served.items()}


def _endpoints(api: Api) -> list[Any]:
    patterns, _app_name, _namespace = api.urls
    served = _methods_by_route(api)
    endpoints: list[URLPattern | URLResolver] = []
    for pattern in patterns:
        if not isinstance(pattern, URLPattern):  # ninja's are all patterns; a resolver stays
            endpoints.append(pattern)
            continue
        if pattern.name == "api-root":
            continue  # /api/v1/ itself is no endpoint: the JSON 404 below answers it
        methods = served.get(str(pattern.pattern), ["GET"])  # or the description, its page
        if methods:
            pattern = URLPattern(
                pattern.pattern,
                _json_405(pattern.callback, methods),
                pattern.default_args,
                pattern.name,
            )
        endpoints.append(pattern)
    return endpoints


def api_urls(api: Api) -> list[URLPattern | URLResolver]:
    """The URLs of ``api``, its routers all mounted: it takes no other router afterwards."""
    return [
        path("", include((_endpoints(api), "api"), namespace="api")),
        # Any path at all, line breaks included (an encoded newline in a slug is still a 404
        # in JSON).
        re_path(r"^(?P<path>[\s\S]*)$", not_found, name="not-found"),
    ]
