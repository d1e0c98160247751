"""The night published to the club's site by itself at its close (scoring.records.tasks): after
the close commits, in the background on the hall's laptop, retried while the site is out of
reach, stopped by a refusal that trying again will not change; each outcome in the club's
audit."""

from __future__ import annotations

import socket
import threading
import time
from typing import Any
from unittest.mock import patch

import pytest

from drives.models import AuditEntry, Club, Drive
from drives.services import api_token_create, drive_close
from scoring.records.tasks import publish_attempt, retry_delay
from scoring.simulation import drive_simulate
from tests.api.helpers import DESK, make_drive


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def outcomes(club: Club) -> list[str]:
    return list(
        AuditEntry.objects.filter(club=club, action="site.publish")
        .order_by("id")
        .values_list("note", flat=True)
    )


def played(club: Club) -> Drive:
    drive = make_drive(club, 8, start=True, games=2)
    drive_simulate(drive=drive, seed=7)
    return Drive.objects.get(pk=drive.pk)


@pytest.mark.django_db(transaction=True)
def test_the_close_publishes_the_night_in_the_background(
    live_server: Any, ours: Any, settings: Any
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True  # the hall's laptop: no broker, tasks in-process
    club = ours.club
    club.site_url, club.site_token = live_server.url, ours.org_token
    club.publish_at_close = True
    club.save()
    drive = played(club)
    drive_close(drive=drive, actor=DESK)  # returns at once: the site is asked in a thread
    deadline = time.monotonic() + 60
    while not outcomes(club) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert outcomes(club) == [f"Published {drive.slug} to {live_server.url.split('//')[1]}."]
    assert AuditEntry.objects.filter(action="drive.publish", subject=drive.slug).exists()
    for thread in threading.enumerate():
        if thread.name == f"publish-{drive.slug}":
            thread.join(10)


@pytest.mark.django_db
def test_with_a_broker_the_close_sends_the_publishing_task(
    ours: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False  # production: a worker publishes it
    club = ours.club
    club.site_url, club.site_token = "https://club.example.org", "token"
    club.publish_at_close = True
    club.save()
    drive = played(club)
    with (
        patch("scoring.records.tasks.publish_night.delay") as delay,
        django_capture_on_commit_callbacks(execute=True),
    ):
        drive_close(drive=drive, actor=DESK)
    delay.assert_called_once_with(drive.pk)


@pytest.mark.django_db
def test_a_site_out_of_reach_is_tried_again_and_a_refusal_is_not(ours: Any, theirs: Any) -> None:
    club = ours.club
    drive = played(club)
    drive_close(drive=drive, actor=DESK)  # publish_at_close is off: nothing queued
    assert outcomes(club) == []
    club.site_url, club.site_token = f"http://127.0.0.1:{closed_port()}", "x"
    club.save()
    assert publish_attempt(drive.pk) is False  # out of reach: another attempt later
    assert outcomes(club)[-1].startswith("will try again: The site 127.0.0.1:")
    assert [retry_delay(n) for n in (0, 1, 2, 10)] == [60, 120, 240, 3600]


@pytest.mark.django_db(transaction=True)
def test_a_refused_token_ends_the_attempts(live_server: Any, ours: Any, theirs: Any) -> None:
    club = ours.club
    drive = played(club)
    drive_close(drive=drive, actor=DESK)
    club.site_url, club.site_token = live_server.url, api_token_create(user=theirs.organizer)
    club.save()
    assert publish_attempt(drive.pk) is True  # refused for good: no more attempts
    assert outcomes(club)[-1] == (
        "refused: The site said 403: This token is not an organizer's of this club."
    )


@pytest.mark.django_db
def test_the_settings_page_keeps_the_site_and_never_shows_the_token(ours: Any) -> None:
    from django.test import Client

    client = Client()
    client.force_login(ours.organizer)
    url = f"/clubs/{ours.club.slug}/settings"
    # Publishing at the close without a token: refused in words, nothing kept.
    refused = client.post(
        url, {"form": "site", "site_url": "https://club.example.org", "publish_at_close": "on"}
    )
    assert refused.status_code == 422
    assert "address and a token" in refused.content.decode()
    assert Club.objects.get(pk=ours.club.pk).site_url == ""
    bad = client.post(url, {"form": "site", "site_url": "ftp://club.example.org"})
    assert bad.status_code == 422 and "a web address" in bad.content.decode()
    done = client.post(
        url,
        {
            "form": "site",
            "site_url": "https://club.example.org",
            "site_token": "s3cret-token-value",
            "publish_at_close": "on",
        },
    )
    assert done.status_code == 302
    club = Club.objects.get(pk=ours.club.pk)
    assert (club.site_url, club.site_token, club.publish_at_close) == (
        "https://club.example.org",
        "s3cret-token-value",
        True,
    )
    page = client.get(url).content.decode()
    assert "s3cret-token-value" not in page and "with a token kept" in page
    entry = AuditEntry.objects.filter(club=club, action="club.site").latest("id")
    assert "s3cret" not in str(entry.new) + str(entry.old) + entry.note
    # Saved again with the token left empty: the token kept stays.
    client.post(url, {"form": "site", "site_url": "https://club.example.org"})
    assert Club.objects.get(pk=club.pk).site_token == "s3cret-token-value"
    client.post(url, {"form": "site", "site_url": "", "forget_token": "on"})
    club = Club.objects.get(pk=club.pk)
    assert (club.site_url, club.site_token, club.publish_at_close) == ("", "", False)
    scorer = Client()
    scorer.force_login(ours.scorer)
    assert scorer.post(url, {"form": "site", "site_url": ""}).status_code == 403
