"""A body sent in chunks (``Transfer-Encoding: chunked``, no ``Content-Length``: granian and
gunicorn hand it on that way) is read, not taken as empty, and refused past the same cap as
any other body (config/bodies.py). Through Django's WSGI handler as the servers call it;
tests/tools/test_hall.py sends one through the hall's server (granian)."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections

from config.bodies import chunked_bodies
from drives.models import Couple
from tests.api.helpers import BASE, ClubUsers, make_drive

pytestmark = pytest.mark.django_db


def chunked(path: str, body: bytes, token: str, content_type: str = "application/json") -> Any:
    """POST ``body`` as a server hands on a chunked request; (status, JSON answer)."""
    environ = {
        "REQUEST_METHOD": "POST",
        "PATH_INFO": path,
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "HTTP_HOST": "testserver",
        "CONTENT_TYPE": content_type,
        "HTTP_TRANSFER_ENCODING": "chunked",
        "HTTP_AUTHORIZATION": f"Bearer {token}",
        "wsgi.input": io.BytesIO(body),
        "wsgi.url_scheme": "http",
        "wsgi.errors": io.StringIO(),
    }
    started: list[str] = []
    # As Django's test client does: the test's database connection is not closed at the end
    # of the request (the handler's signals would close it).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        response = chunked_bodies(WSGIHandler())(environ, lambda s, _h: started.append(s))
        answer = b"".join(response)
        response.close()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    return int(started[0].split()[0]), json.loads(answer)


def test_a_chunked_body_is_read(ours: ClubUsers) -> None:
    drive = make_drive(ours.club, 0)
    path = f"{BASE}/drives/{drive.slug}/couples"
    body = json.dumps({"players": ["Mary MacNeil", "Joe MacNeil"]}).encode()
    status, answer = chunked(path, body, ours.org_token)
    assert status == 201, answer
    assert Couple.objects.get(drive=drive).players == ["Mary MacNeil", "Joe MacNeil"]


@pytest.mark.parametrize("size", [1_500_000, settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10])
def test_a_chunked_body_past_the_cap_is_413(ours: ClubUsers, size: int) -> None:
    """Past the API's 1 MB, or past what Django reads into memory (and so what is read of a
    chunked body at most): 413 as for any body, nothing stored."""
    drive = make_drive(ours.club, 0)
    path = f"{BASE}/drives/{drive.slug}/couples"
    name = "x" * size
    status, answer = chunked(path, json.dumps({"players": [name, "B"]}).encode(), ours.org_token)
    assert (status, answer["code"]) == (413, "body_too_large")
    assert not Couple.objects.exists()
