"""The web process settles before its first request (config/settle.py): what the pages load on
first use is loaded and frozen out of the collector's sight, so that a collection of the oldest
generation under a night's polls looks through what the requests made, not through the whole
of Django (BENCHMARKS.md, "The collector's pauses"); and the frozen application still answers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc, io, json
import config.wsgi
frozen = gc.get_freeze_count()
left = len(gc.get_objects())
got = []
environ = {
    "REQUEST_METHOD": "GET", "PATH_INFO": "/livez", "QUERY_STRING": "", "SERVER_NAME": "127.0.0.1",
    "SERVER_PORT": "80", "HTTP_HOST": "127.0.0.1", "wsgi.input": io.BytesIO(b""),
    "wsgi.url_scheme": "http", "REMOTE_ADDR": "127.0.0.1",
}
b"".join(config.wsgi.application(environ, lambda status, headers: got.append(status)))
print(json.dumps({"frozen": frozen, "left": left, "status": got[0]}))
"""


def test_the_server_freezes_what_it_loaded_and_still_answers(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.hall",
        "HALL_DATA_DIR": str(tmp_path),
        "ALLOWED_HOSTS": "127.0.0.1",
    }
    env.pop("DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["status"].startswith("200")
    # Django, the project, the URL patterns, the templates and catalogs: well over 50,000
    # objects frozen, and a small fraction of that left for the collector to look through.
    assert seen["frozen"] > 50_000
    assert seen["left"] < seen["frozen"] / 10
