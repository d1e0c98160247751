"""The hall's house rules (docs/rules.md §3, §5, §6): a drive chooses a preset and the switches
on its settings page and through the API; the desk's verdicts follow them; drives stored, or
exported, before the switches keep the rules they were played under."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse

from drives.models import Drive
from scoring.models import Result
from tests.api.helpers import Api, make_club, make_drive
from tests.pages.organizer_helpers import club_people, logged_in, text

pytestmark = pytest.mark.django_db

NEW = "/drives/new"


def form_data(club_pk: int, **changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "club": club_pk,
        "name": "Friday 45s",
        "date": "2026-11-20",
        "games": "25",
        "ruleset": "cape-breton-45",
        "movement": "winners-move",
        "first_seating": "by-number",
        "ranking": "dense",
        "entry_fee": "10.00",
        "currency": "CAD",
    }
    data.update(changes)
    return data


def test_the_settings_offer_each_switch_in_plain_words_with_an_example() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    page = text(logged_in(ours.organizer).get(NEW))
    assert "Ace of hearts led: players with no trump must play a heart" in page
    assert "Trump ♠, A♥ led, you hold K♥ 9♣" in page
    assert "Auction: after the dealer holds, the bidder may raise again" in page
    assert "as the rules above say" in page


def test_a_drive_is_created_with_its_house_rules() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    client = logged_in(ours.organizer)
    response = client.post(
        NEW,
        form_data(
            ours.club.pk,
            rule_hearts_on_ace_lead="False",
            rule_equal_totals="play-on",
            rule_renege="top-trumps",  # the preset's own: not stored as a change
        ),
    )
    assert response.status_code == 302, response.context["form"].errors
    drive = Drive.objects.get()
    assert drive.rules == {"hearts_on_ace_lead": False, "equal_totals": "play-on"}
    rules = drive.rules_in_play()
    assert not rules.hearts_on_ace_lead and rules.equal_totals == "play-on"
    settings = client.get(reverse("drives:settings", kwargs={"slug": drive.slug}))
    assert settings.context["form"]["rule_equal_totals"].value() == "play-on"


def test_a_switch_that_makes_no_sense_is_named_and_nothing_is_created() -> None:
    ours = club_people("St. Joseph's Parish", "ours")
    response = logged_in(ours.organizer).post(NEW, form_data(ours.club.pk, rule_kitty="3"))
    assert response.status_code == 422
    errors = response.context["form"].errors
    assert list(errors) == ["rule_kitty"]
    assert "This rule is for auction only" in str(errors["rule_kitty"])
    assert not Drive.objects.exists()


def test_the_api_carries_the_rules_and_refuses_nonsense() -> None:
    api, ours = Api(Client()), make_club("St. Joseph's Parish", "ours")
    body = {"club": ours.club.slug, "name": "Friday 45s", "date": "2026-11-20"}
    made = api.post(
        "drives",
        {**body, "ruleset": "auction-120", "rules": {"kitty": 3, "floor": -125}},
        token=ours.org_token,
    )
    assert made.status_code == 201, made.json()
    assert made.json()["rules"] == {"kitty": 3, "floor": -125}
    assert made.json()["rules_in_play"]["rebid_after_hold"] is True
    refused = api.post(
        "drives", {**body, "rules": {"rebid_after_hold": True}}, token=ours.org_token
    )
    assert refused.status_code == 422
    assert refused.json()["code"] == "bad_field" and "rebid_after_hold" in refused.json()["message"]
    odd = api.post("drives", {**body, "rules": ["kitty"]}, token=ours.org_token)
    assert odd.status_code == 422 and odd.json()["code"] == "bad_field"
    assert Drive.objects.count() == 1


def test_the_desks_verdicts_follow_the_house_rules() -> None:
    """docs/rules.md §5: with play-on, 65–55 ends a game (a tie at 45 or more, then one hand)."""
    api, ours = Api(Client()), make_club("St. Joseph's Parish", "ours")
    usual = make_drive(ours.club, 4, start=True)
    play_on = make_drive(ours.club, 4, start=True, rules={"equal_totals": "play-on"})
    for drive, status in ((usual, 422), (play_on, 201)):
        url = f"drives/{drive.slug}/games/1/tables/1/result"
        answer = api.put(url, {"winner": 1, "points": [65, 55]}, token=ours.org_token)
        assert answer.status_code == status, answer.json()


@pytest.mark.django_db(transaction=True)
def test_drives_stored_before_the_switches_keep_their_rules() -> None:
    before, after = [("drives", "0007_drive_language")], [("drives", "0008_drive_rules")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = MigrationExecutor(connection).loader.project_state(before).apps
    Club, OldDrive = old.get_model("drives", "Club"), old.get_model("drives", "Drive")
    club = Club.objects.create(name="St. Joseph's Parish", slug="st-josephs-parish")
    for ruleset in ("cape-breton-45", "irish-45-joker", "auction-120"):
        OldDrive.objects.create(
            club=club, slug=ruleset, name="Friday 45s", date=date(2026, 11, 13), ruleset=ruleset
        )
    try:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(after)
        new = MigrationExecutor(connection).loader.project_state(after).apps
        stored = {d.slug: d.rules for d in new.get_model("drives", "Drive").objects.all()}
        assert stored["cape-breton-45"] == {}
        assert stored["irish-45-joker"] == Drive.RULES_BEFORE_SWITCHES["irish-45-joker"]
        assert stored["auction-120"] == {"rebid_after_hold": False}
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    irish = Drive(ruleset="irish-45-joker", rules=Drive.RULES_BEFORE_SWITCHES["irish-45-joker"])
    rules = irish.rules_in_play()
    assert (rules.bonus, rules.renege, rules.offsuit_aces_high) == (
        "best-trump",
        "top-trumps",
        False,
    )


def test_the_chosen_rules_show_on_the_standings_results_and_score_sheets() -> None:
    from scoring.printing.data import build

    ours = club_people("St. Joseph's Parish", "ours")
    drive = make_drive(
        ours.club, 4, start=True, rules={"renege": "five-only", "hearts_on_ace_lead": False}
    )
    Drive.objects.filter(pk=drive.pk).update(published=True)
    client = logged_in(ours.organizer)
    for url in (
        reverse("night:standings", kwargs={"slug": drive.slug}),
        reverse("night:results", kwargs={"slug": drive.slug}),
    ):
        page = text(client.get(url))
        assert "Rules: Cape Breton 45s" in page
        assert "Trumps that may be held back from a lower trump led: only the 5" in page
        assert "Ace of hearts led: players with no trump must play a heart: no" in page
    sheets = build(drive, "score-sheets")
    assert sheets["house_rules"][1:] == [
        "Ace of hearts led: players with no trump must play a heart: no",
        "Trumps that may be held back from a lower trump led: only the 5",
    ]


def _record_first_result(api: Api, drive: Drive, token: str) -> None:
    url = f"drives/{drive.slug}/games/1/tables/1/result"
    answer = api.put(url, {"winner": 1, "points": [45, 15]}, token=token)
    assert answer.status_code == 201, answer.json()


def test_the_rules_change_after_the_start_until_a_result_is_recorded() -> None:
    """Stored results are not judged again: once one is recorded the rules stay (409)."""
    api, ours = Api(Client()), make_club("St. Joseph's Parish", "ours")
    drive = make_drive(ours.club, 4, start=True)
    url = f"drives/{drive.slug}"
    before = api.patch(url, {"rules": {"renege": "five-only"}}, token=ours.org_token)
    assert before.status_code == 200, before.json()
    assert before.json()["rules"] == {"renege": "five-only"}
    _record_first_result(api, drive, ours.org_token)
    # A result taken back at once is no result: the rules may still change.
    Result.objects.update(state=Result.State.UNDONE)
    undone = api.patch(url, {"rules": {"renege": "none"}}, token=ours.org_token)
    assert undone.status_code == 200, undone.json()
    back = api.patch(url, {"rules": {"renege": "five-only"}}, token=ours.org_token)
    assert back.status_code == 200, back.json()
    Result.objects.update(state=Result.State.ACCEPTED)
    for body, field in (
        ({"rules": {"equal_totals": "play-on"}}, "rules"),
        ({"ruleset": "irish-45-joker"}, "ruleset"),
        ({"rules": {}}, "rules"),
    ):
        refused = api.patch(url, body, token=ours.org_token)
        assert refused.status_code == 409, refused.json()
        assert refused.json()["code"] == "rules_fixed"
        assert refused.json()["field"] == field
        assert "result is recorded" in refused.json()["message"]
    drive.refresh_from_db()
    assert (drive.ruleset, drive.rules) == ("cape-breton-45", {"renege": "five-only"})
    # The same rules sent again, and the other settings, still save.
    same = api.patch(
        url, {"rules": {"renege": "five-only"}, "venue": "Legion Hall"}, token=ours.org_token
    )
    assert same.status_code == 200, same.json()


def test_the_settings_form_names_why_the_rules_are_fixed_and_writes_nothing() -> None:
    api, ours = Api(Client()), make_club("St. Joseph's Parish", "ours")
    drive = make_drive(ours.club, 4, start=True)
    _record_first_result(api, drive, ours.org_token)
    client = logged_in(ours.organizer)
    url = reverse("drives:settings", kwargs={"slug": drive.slug})
    data = {
        k: v
        for k, v in form_data(ours.club.pk, rule_renege="none", venue="Legion Hall").items()
        if k != "club"
    }
    response = client.post(url, data)
    assert response.status_code == 422
    assert "The rules cannot change once a result is recorded" in text(response)
    drive.refresh_from_db()
    assert (drive.rules, drive.venue) == ({}, "")
