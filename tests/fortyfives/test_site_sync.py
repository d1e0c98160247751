"""The hall's laptop in step with the club's site (docs/club-site.md): two installations of the
app, each with its own data folder. The drive is made on the site, fetched to the laptop,
played and closed there, published back; it then counts on the site, in the season of its date.
A second publish changes nothing and says so; another club's organizer is refused; a site that
cannot be reached leaves the night as it is."""

from __future__ import annotations

import json
import signal
import urllib.request
from pathlib import Path

import pytest

from tests.fortyfives.conftest import fortyfives
from tests.fortyfives.test_cli import COUPLES, CREATE, PASSWORD, free_port, start_hall

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def test_a_night_fetched_played_on_the_laptop_and_published_back(tmp_path: Path) -> None:
    site_dir, laptop_dir, work = tmp_path / "site", tmp_path / "laptop", tmp_path / "work"
    work.mkdir()
    (work / "couples.csv").write_text(COUPLES)

    def on(folder: Path, *args: str, ok: bool = True, **env: str) -> str:
        done = fortyfives("manage", "--data-dir", str(folder), *args, cwd=work, env=env)
        if ok:
            assert done.returncode == 0, done.stderr
            return done.stdout.strip()
        assert done.returncode == 1, (done.stdout, done.stderr)
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        return done.stderr.strip()

    port = free_port()
    site = f"http://127.0.0.1:{port}"
    server = start_hall(site_dir, work, port)
    try:
        slug = on(site_dir, *CREATE)
        club = on(
            site_dir,
            "shell",
            "-c",
            "from drives.models import Club; print(Club.objects.get().slug)",
            "--no-imports",
        )
        season = on(site_dir, "drive", "season", "create", club, "--name", "Winter", "--from",
                    "2026-12-01", "--to", "2027-03-31")  # fmt: skip
        on(
            site_dir, "createsuperuser", "--noinput", "--username", "mary",
            "--email", "m@example.org", DJANGO_SUPERUSER_PASSWORD=PASSWORD,
        )  # fmt: skip
        token = on(site_dir, "apitoken", "mary").split()[-1]

        # A couple registers on the site's public page before the night.
        on(site_dir, "shell", "--no-imports", "-c", (
            "from datetime import timedelta; from django.utils import timezone; "
            "from drives.models import Drive; Drive.objects.update("
            "registration_opens=timezone.now() - timedelta(hours=1))"
        ))  # fmt: skip
        register = urllib.request.Request(
            f"{site}/api/v1/drives/{slug}/registrations",
            data=json.dumps({"players": ["Mary MacDonald", "Angus MacDonald"]}).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(register, timeout=10) as answer:
            assert json.load(answer)["status"] == "registered"

        # Before the night: the drive, its couples and its registrations come to the laptop.
        fetched = on(laptop_dir, "drive", "fetch", site, slug, "--token", token)
        assert fetched == f"Fetched {slug} from 127.0.0.1:{port}: 8 couples, 1 registration."
        listed = on(laptop_dir, "shell", "--no-imports", "-c", (
            "from drives.models import Registration; "
            "print(*Registration.objects.values_list('player1', 'player2', 'status').get())"
        ))  # fmt: skip
        assert listed == "Mary MacDonald Angus MacDonald registered"
        again = on(laptop_dir, "drive", "fetch", site, slug, "--token", token)
        assert again == f"{slug} is already on this laptop: nothing changed."

        # The night on the laptop, then published.
        on(laptop_dir, "drive", "simulate", slug, "--seed", "1945")
        on(laptop_dir, "drive", "close", slug)
        publish = ("drive", "publish", slug, "--site", site, "--token", token)
        assert on(laptop_dir, *publish) == f"Published {slug} to 127.0.0.1:{port}."
        assert on(laptop_dir, *publish) == (
            f"{slug} is already on 127.0.0.1:{port} as it is here: nothing changed."
        )

        # On the site: the night's results, and the season counts it.
        def get(path: str) -> object:
            request = urllib.request.Request(
                f"{site}/api/v1/{path}", headers={"Authorization": f"Bearer {token}"}
            )
            with urllib.request.urlopen(request, timeout=10) as answer:
                return json.load(answer)

        rows = get(f"drives/{slug}/standings")
        assert isinstance(rows, list) and sum(row["wins"] for row in rows) == 5 * 4
        found = get(f"clubs/{club}/seasons/{season.split()[-1]}")
        assert isinstance(found, dict) and [d["slug"] for d in found["drives"]] == [slug]
        # The club's public page lists the night once it is published on the site.
        on(site_dir, "shell", "--no-imports", "-c",
           "from drives.models import Drive; Drive.objects.update(published=True)")  # fmt: skip
        with urllib.request.urlopen(f"{site}/clubs/{club}/", timeout=10) as answer:
            page = answer.read().decode()
        assert f"/results/{slug}/" in page

        # Another club's organizer: refused, and the site keeps the night.
        on(site_dir, "shell", "-c", (
            "from django.contrib.auth.models import User; from drives.models import Club, "
            "Membership; u = User.objects.create_user('ann', password='x'); "
            "Membership.objects.create(club=Club.objects.create(name='Legion', slug='legion'), "
            "user=u, role='organizer')"
        ))  # fmt: skip
        other = on(site_dir, "apitoken", "ann").split()[-1]
        refused = on(laptop_dir, "drive", "publish", slug, "--site", site, "--token", other,
                     ok=False)  # fmt: skip
        assert "403" in refused and "not an organizer's of this club" in refused
    finally:
        server.send_signal(signal.SIGHUP)
        server.communicate(timeout=60)

    # The site gone: the laptop says so in one line and keeps its night.
    gone = on(laptop_dir, *publish, ok=False)
    assert "cannot be reached" in gone and "the night is kept here" in gone
