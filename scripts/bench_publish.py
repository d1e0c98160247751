"""What publishing a whole night to the club's site costs (docs/club-site.md): the export's size
(plain and gzipped, as ``drive publish`` sends it) and the site's time to take it.

    python scripts/bench_publish.py                     # 500 couples (250 tables), 25 games
    python scripts/bench_publish.py --couples 100 --games 10

The night is played by the engine's bots through the services (``scoring.simulation``), closed
and exported, in a database of its own (as scripts/bench_night.py: Django's test machinery; on
SQLite a file in a temporary folder). Then the site's endpoint (POST /api/v1/clubs/{club}/nights,
through Django's test client, gzipped) is timed three ways: the night new to the site (after
the laptop's copy is deleted: the site never saw it), the same night again (unchanged), and a
corrected night (replaced). Times are wall-clock seconds, the best of ``--rounds``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--couples", type=int, default=500)
    parser.add_argument("--games", type=int, default=25)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)

    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()  # the test client's host allowed

    folder = None
    if connection.vendor == "sqlite":
        folder = tempfile.TemporaryDirectory(prefix="bench-publish-")
        connection.settings_dict["TEST"]["NAME"] = str(Path(folder.name) / "site.sqlite3")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        run(args, connection.vendor)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        if folder is not None:
            folder.cleanup()
    return 0


def run(args: argparse.Namespace, vendor: str) -> None:
    from datetime import date

    from django.test import Client

    from drives.models import AuditEntry, Drive, Membership
    from drives.services import (
        Actor,
        api_token_create,
        club_create,
        couples_register,
        drive_close,
        drive_create,
        drive_start,
        member_add,
    )
    from scoring.records.export import drive_export
    from scoring.records.restore import drive_delete
    from scoring.simulation import drive_simulate
    from tests.factories import UserFactory

    desk = Actor(channel=AuditEntry.Channel.DESK)
    club = club_create(name="Benchmark Parish", actor=desk)
    organizer = UserFactory(username="organizer")
    member_add(club=club, user=organizer, role=Membership.Role.ORGANIZER)
    token = api_token_create(user=organizer)
    drive = drive_create(
        club=club, actor=desk, name="Benchmark night", date=date(2026, 11, 20), games=args.games
    )
    couples_register(
        drive=drive,
        couples=[{"players": [f"N{i}", f"S{i}"]} for i in range(args.couples)],
        actor=desk,
    )
    drive_start(drive=drive, actor=desk)
    started = time.perf_counter()
    drive_simulate(drive=Drive.objects.get(pk=drive.pk), seed=args.seed)
    played = time.perf_counter() - started
    drive = drive_close(drive=Drive.objects.get(pk=drive.pk), actor=desk)

    started = time.perf_counter()
    data = drive_export(drive)
    exported = time.perf_counter() - started
    text = json.dumps(data, ensure_ascii=False).encode()
    packed = gzip.compress(text)
    drive_delete(drive=drive)

    client = Client()
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}", "HTTP_CONTENT_ENCODING": "gzip"}
    url = f"/api/v1/clubs/{club.slug}/nights"

    def post(body: bytes) -> tuple[float, str]:
        started = time.perf_counter()
        answer: Any = client.post(url, body, content_type="application/json", **headers)
        took = time.perf_counter() - started
        assert answer.status_code in (200, 201), answer.content[:300]
        return took, answer.json()["status"]

    created, replaced, unchanged = [], [], []
    corrected = json.loads(text)
    corrected["couples"][0]["players"] = ["Corrected Name", corrected["couples"][0]["players"][1]]
    fixed = gzip.compress(json.dumps(corrected, ensure_ascii=False).encode())
    for _ in range(args.rounds):
        for old in Drive.objects.filter(slug=data["drive"]["slug"]):
            drive_delete(drive=old)
        took, status = post(packed)
        assert status == "created", status
        created.append(took)
        took, status = post(packed)
        assert status == "unchanged", status
        unchanged.append(took)
        took, status = post(fixed)
        assert status == "replaced", status
        replaced.append(took)
    tables = args.couples // 2
    print(
        f"{vendor}: a night of {tables} tables, {args.games} games "
        f"({tables * args.games} results); played by the bots in {played:.1f} s"
    )
    print(f"export: {exported:.2f} s; {len(text) / 1e6:.2f} MB, gzipped {len(packed) / 1e6:.2f} MB")
    print(f"site, new night (created):     {min(created):.2f} s (best of {args.rounds})")
    print(f"site, same night (unchanged):  {min(unchanged):.2f} s")
    print(f"site, corrected (replaced):    {min(replaced):.2f} s")


if __name__ == "__main__":
    raise SystemExit(main())
