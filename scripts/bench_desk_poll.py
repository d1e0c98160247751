"""What a desk's poll of its grid spends, part by part, after a few results: the view's parts
timed in-process (wall clock) on the bench night of scripts/bench_polls.py (250 tables).

    python scripts/bench_desk_poll.py --data /tmp/bn5 --results 4 --polls 30 [--whole]

Between two polls, ``--results`` corrections at as many tables (the desks poll every 3 s while
a few results a second come in: each poll finds several rows changed). Prints the poll's
average and each part's (the grid, its rows, the reads, gzip, the member's check). The desk
says which grid it shows, as static/js/poll.js does, and gets the rows changed since;
``--whole``: as a page without the script's header, the whole grid each time.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import os
import re
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--data", required=True, help="the night's folder (bench_polls.py --data)")
    parser.add_argument("--results", type=int, default=1, help="corrections between two polls")
    parser.add_argument("--polls", type=int, default=30)
    parser.add_argument("--whole", action="store_true", help="without X-Poll-Have")
    args = parser.parse_args()
    os.environ.pop("DATABASE_URL", None)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings.hall",
        HALL_DATA_DIR=args.data,
        ALLOWED_HOSTS="127.0.0.1",
    )
    import django

    django.setup()
    import django.middleware.gzip as gzip_middleware
    from django.conf import settings
    from django.core.wsgi import get_wsgi_application
    from django.test import Client

    import scoring.pages.desk as desk
    from drives.models import Drive
    from scripts.bench_polls import corrections, wsgi_environ

    spent: dict[str, float] = defaultdict(float)

    def timed(module: Any, name: str) -> None:
        inner = getattr(module, name)

        @functools.wraps(inner)
        def wrapper(*a: Any, **k: Any) -> Any:
            started = time.perf_counter()
            try:
                return inner(*a, **k)
            finally:
                spent[name] += time.perf_counter() - started

        setattr(module, name, wrapper)

    for name in (
        "_grid_html",
        "_patch_html",
        "_grid_context",
        "_changed_rows",
        "_rows_html",
        "_written_rows",
        "row_html",
        "_row_keys",
        "game_view",
    ):
        timed(desk, name)
    for name in ("result_stamps", "result_versions", "member_drive", "advance_state"):
        timed(desk, name)
    timed(gzip_middleware, "compress_string")

    app = get_wsgi_application()
    drive = Drive.objects.get(name="Bench night")
    client = Client()
    client.force_login(drive.club.memberships.get().user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"

    shown = {"version": "", "bytes": 0}

    def poll() -> None:
        headers = {"Cookie": cookie, "Accept-Encoding": "gzip"}
        if shown["version"] and not args.whole:
            headers["X-Poll-Have"] = str(shown["version"])
        environ = wsgi_environ(f"/drives/{drive.slug}/desk/?partial=grid", headers)
        body = b"".join(app(environ, lambda *_a: None))  # type: ignore[arg-type]
        shown["bytes"] = int(shown["bytes"]) + len(body)
        found = re.search(rb'data-version="([0-9a-f]{16})"', gzip.decompress(body))
        shown["version"] = found.group(1).decode() if found else ""

    a_result = corrections(drive)
    for _ in range(5):
        poll()
    spent.clear()
    shown["bytes"] = 0
    total = 0.0
    for turn in range(args.polls):
        for at in range(args.results):
            a_result(turn * args.results + at)
        started = time.perf_counter()
        poll()
        total += time.perf_counter() - started
    print(
        f"a desk's poll after {args.results} result(s): {total / args.polls * 1e3:.2f} ms, "
        f"{int(shown['bytes']) / args.polls / 1024:.1f} KB gzipped"
        + (" (the whole grid)" if args.whole else " (the rows that changed)")
    )
    for name, seconds in sorted(spent.items(), key=lambda item: -item[1]):
        print(f"  {name:<20} {seconds / args.polls * 1e3:7.2f} ms")


if __name__ == "__main__":
    main()
