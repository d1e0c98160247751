"""The hall's named prizes ("Hard luck", "Hot streak"): each with a rule the engine computes
from the night's results, a prize like the others, ties settled like the others, one prize per
couple in the order places, half-time, named prizes, booby; on the API, the pages, the
treasurer's sheet and in the drive's record."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest

from drives.models import AuditEntry, Couple, Drive
from engine.prizes import PrizeError, category_scores, category_winners, longest_run
from scoring.models import Award, PrizeCategory, PrizeSetup, ResultVersion, Tie
from scoring.prizes.selectors import prize_table
from scoring.prizes.services import prize_setup_update, prizes_open_ties, tie_choose, tie_decide
from scoring.records.export import drive_export
from scoring.records.restore import drive_delete, drive_restore
from tests.api.helpers import Api, ClubUsers
from tests.prizes.helpers import DESK, night

# Couple 1 W L L L W L, couple 2 L W W W L W, couple 3 loses every game, couple 4 wins every
# game, couple 5 L L L L L and sits out game 6 (credited as a win).
WON = {1: {1, 5}, 2: {2, 3, 4, 6}, 3: set(), 4: {1, 2, 3, 4, 5, 6}, 5: {6}}
GAMES: dict[int, dict[int, bool]] = {
    c: {g: g in won for g in range(1, 7)} for c, won in WON.items()
}


# --- the rules, worked by hand -------------------------------------------------------------------


def test_the_longest_run_of_losses_and_of_wins() -> None:
    assert longest_run(GAMES[1], won=False) == 3  # games 2, 3, 4
    assert longest_run(GAMES[1], won=True) == 1
    assert longest_run(GAMES[2], won=True) == 3
    assert longest_run({}, won=False) == 0
    # A game not played (sat out, not credited) ends a run: 2 and 2, never 4.
    assert longest_run({1: False, 2: False, 4: False, 5: False}, won=False) == 2


def test_each_rule_scores_a_small_night_as_worked_by_hand() -> None:
    assert category_scores("most_lost_in_a_row", GAMES) == {1: 3, 2: 1, 3: 6, 4: 0, 5: 5}
    assert category_scores("most_won_in_a_row", GAMES) == {1: 1, 2: 3, 3: 0, 4: 6, 5: 1}
    assert category_scores("most_lost", GAMES) == {1: 4, 2: 2, 3: 6, 4: 0, 5: 5}
    # Games 4, 5 and 6 only.
    assert category_scores("best_after", GAMES, after=3) == {1: 1, 2: 2, 3: 0, 4: 3, 5: 1}
    with pytest.raises(PrizeError):
        category_scores("most_drinks", GAMES)
    with pytest.raises(PrizeError):
        category_scores("best_after", GAMES)


def test_the_winners_of_a_rule_ties_and_those_left_out() -> None:
    assert category_winners("most_lost_in_a_row", GAMES) == ((3,), 6)
    # Couple 3 already has a prize: couple 5 (five in a row) takes it.
    assert category_winners("most_lost_in_a_row", GAMES, exclude={3}) == ((5,), 5)
    assert category_winners("most_lost_in_a_row", GAMES, withdrawn={3, 5}) == ((1,), 3)
    # 1 and 5 both won one game after game 3 once 4 and 2 are out: a tie.
    assert category_winners("best_after", GAMES, after=3, exclude={2, 4}) == ((1, 5), 1)
    # Nobody scores: nobody wins.
    assert category_winners("most_won_in_a_row", {3: GAMES[3]}) == ((), 0)


# --- the night: awards, ties, one prize per couple -----------------------------------------------

pytestmark = pytest.mark.django_db
HARD_LUCK = {"name": "Hard luck", "rule": "most_lost_in_a_row", "amount": "10.00"}
HOT_STREAK = {"name": "Hot streak", "rule": "most_won_in_a_row", "description": "a ham"}


def _awards(drive: Any) -> list[tuple[str, int | None, int, Any]]:
    return [
        (a.kind, a.place, a.couple.number, a.amount or a.description)
        for a in Award.objects.filter(drive=drive).order_by("kind", "place", "couple__number")
    ]


def test_a_named_prize_is_awarded_beside_the_places_and_the_booby_prize() -> None:
    # Wins: 4 → 6, 2 → 4, 1 → 2, 5 → 1, 3 → 0. Places 4, 2, 1; the booby prize to 3.
    drive = night(WON, prizes={"booby_prize": {"amount": "2.00"}})
    prize_setup_update(drive=drive, actor=DESK, categories=[HARD_LUCK, HOT_STREAK])
    table = prize_table(drive)
    hard, hot = table["categories"]
    assert (hard["name"], hard["couples"], hard["score"], hard["status"]) == (
        "Hard luck",
        [3],
        6,
        "awarded",
    )
    assert hard["prize"]["amount"] == "10.00"
    assert (hot["couples"], hot["score"]) == ([4], 6)  # a couple may take a place and this too
    prizes_open_ties(drive=drive, actor=DESK)
    assert ("category", 1, 3, Decimal("10.00")) in _awards(drive)
    assert ("category", 2, 4, "a ham") in _awards(drive)
    assert ("booby", None, 3, Decimal("2.00")) in _awards(drive)


def test_one_prize_per_couple_places_then_named_prizes_in_order_then_booby() -> None:
    drive = night(WON, prizes={"booby_prize": {"amount": "2.00"}, "one_prize_per_couple": True})
    prize_setup_update(drive=drive, actor=DESK, categories=[HARD_LUCK, HOT_STREAK])
    prizes_open_ties(drive=drive, actor=DESK)
    # Hard luck: couple 3 (six lost in a row). Hot streak: 4, 2 and 1 have places, 3 has Hard
    # luck: couple 5 (its credited sit-out). The booby prize: nobody is left.
    assert _awards(drive) == [
        ("category", 1, 3, Decimal("10.00")),
        ("category", 2, 5, "a ham"),
        ("place", 1, 4, ""),
        ("place", 2, 2, ""),
        ("place", 3, 1, ""),
    ]
    assert not Award.objects.filter(drive=drive, kind="booby").exists()
    assert prize_table(drive)["booby"]["status"] == "empty"


def test_one_prize_per_couple_the_named_prize_before_the_booby_prize() -> None:
    drive = night(WON, prizes={"booby_prize": {"amount": "2.00"}, "one_prize_per_couple": True})
    prize_setup_update(drive=drive, actor=DESK, categories=[HARD_LUCK])
    prizes_open_ties(drive=drive, actor=DESK)
    # Couple 3 would take both: it keeps Hard luck, the booby prize moves up to couple 5.
    assert ("category", 1, 3, Decimal("10.00")) in _awards(drive)
    assert ("booby", None, 5, Decimal("2.00")) in _awards(drive)


def test_a_tie_for_a_named_prize_is_settled_like_the_others() -> None:
    # Couple 1 W W W L L L, couple 2 L L L W W W: three lost in a row each.
    drive = night({1: {1, 2, 3}, 2: {4, 5, 6}}, prizes={"prize_places": 0, "booby": False})
    prize_setup_update(drive=drive, actor=DESK, categories=[HARD_LUCK | {"amount": "15.00"}])
    assert prize_table(drive)["categories"][0]["status"] == "tie"
    (tie,) = prizes_open_ties(drive=drive, actor=DESK)
    assert (tie.key, tie.kind, tie.couples) == ("category:1", Tie.Kind.CATEGORY, [1, 2])
    tie_choose(tie=tie, couple=1, choice="split", actor=DESK)
    tie_choose(tie=tie, couple=2, choice="split", actor=DESK)
    tie_decide(tie=tie, actor=DESK)
    assert _awards(drive) == [
        ("category", 1, 1, Decimal("7.50")),
        ("category", 1, 2, Decimal("7.50")),
    ]
    row = prize_table(drive)["categories"][0]
    assert row["status"] == "awarded" and [a["how"] for a in row["awards"]] == ["split", "split"]


# --- the API and bad input -----------------------------------------------------------------------


def test_the_api_sets_named_prizes_and_shows_them(api: Api, ours: ClubUsers) -> None:
    drive = night(WON, club=ours.club)
    path = f"drives/{drive.slug}/prizes/setup"
    sent = [
        HARD_LUCK,
        {
            "name": "Late bloomers",
            "rule": "best_after",
            "after_game": 3,
            "share_of": "entry",
            "percent": 10,
        },
    ]
    answer = api.patch(path, {"categories": sent}, token=ours.org_token)
    assert answer.status_code == 200, answer.json()
    assert [(c["name"], c["rule"], c["after_game"]) for c in answer.json()["categories"]] == [
        ("Hard luck", "most_lost_in_a_row", None),
        ("Late bloomers", "best_after", 3),
    ]
    table = api.get(f"drives/{drive.slug}/prizes", token=ours.org_token).json()
    late = table["categories"][1]
    assert (late["couples"], late["score"], late["prize"]["percent"]) == ([4], 3, 10)
    entry = AuditEntry.objects.filter(drive=drive, action="prizes.setup").last()
    assert entry is not None
    assert entry.new["categories"][0] == ["Hard luck", "most_lost_in_a_row", "10.00"]
    # An empty list takes them all away.
    assert api.patch(path, {"categories": []}, token=ours.org_token).json()["categories"] == []
    assert not PrizeCategory.objects.filter(drive=drive).exists()


@pytest.mark.parametrize(
    ("categories", "code", "words"),
    [
        ([HARD_LUCK | {"rule": "most_drinks"}], "unknown_rule", "the rule is one of"),
        ([HARD_LUCK | {"name": "  "}], "bad_field", "needs a name"),
        ([HARD_LUCK | {"name": "x" * 61}], "bad_field", "at most 60 characters"),
        ([HARD_LUCK, HOT_STREAK | {"name": "HARD LUCK"}], "category_twice", "one name"),
        ([HARD_LUCK | {"after_game": 3}], "bad_field", "best_after takes after_game"),
        ([{"name": "Late", "rule": "best_after", "amount": "5"}], "bad_field", "best_after"),
        ([{"name": "Hard luck", "rule": "most_lost"}], "bad_field", "an amount or a description"),
        (
            [HARD_LUCK | {"amount": None, "share_of": "entry", "percent": 50}],
            "shares_over_100",
            "more than 100 %",
        ),
    ],
)
def test_bad_named_prizes_are_refused_with_nothing_written(
    api: Api, ours: ClubUsers, categories: list[dict[str, Any]], code: str, words: str
) -> None:
    drive = night(WON, club=ours.club, prizes={"prizes": [{"share_of": "entry", "percent": 60}]})
    prize_setup_update(drive=drive, actor=DESK, categories=[HOT_STREAK])
    before = AuditEntry.objects.filter(drive=drive).count()
    answer = api.patch(
        f"drives/{drive.slug}/prizes/setup",
        {"categories": categories, "one_prize_per_couple": True},
        token=ours.org_token,
    )
    assert answer.status_code == 422, answer.json()
    assert answer.json()["code"] == code
    assert words in answer.json()["message"]
    assert [c.name for c in PrizeCategory.objects.filter(drive=drive)] == ["Hot streak"]
    assert not PrizeSetup.objects.get(drive=drive).one_prize_per_couple
    assert AuditEntry.objects.filter(drive=drive).count() == before


def test_the_shares_of_the_places_and_the_named_prizes_are_counted_together() -> None:
    drive = night(WON, prizes={"prizes": [{"share_of": "entry", "percent": 60}]})
    with pytest.raises(Exception, match="more than 100 %"):
        prize_setup_update(
            drive=drive,
            actor=DESK,
            categories=[HARD_LUCK | {"amount": None, "share_of": "pot", "percent": 41}],
        )
    assert not PrizeCategory.objects.filter(drive=drive).exists()


def test_named_prizes_are_fixed_once_the_ties_are_opened(api: Api, ours: ClubUsers) -> None:
    drive = night(WON, club=ours.club)
    prize_setup_update(drive=drive, actor=DESK, categories=[HARD_LUCK])
    prizes_open_ties(drive=drive, actor=DESK)
    answer = api.patch(
        f"drives/{drive.slug}/prizes/setup", {"categories": []}, token=ours.org_token
    )
    assert (answer.status_code, answer.json()["code"]) == (409, "prizes_opened")


# --- the drive's record ---------------------------------------------------------------------------


def test_named_prizes_their_tie_and_awards_round_trip_through_the_export() -> None:
    # 1 W W W L L L, 2 L L L W W W, 3 W W L W L L, 4 L L W L W W: two winners a game.
    drive = night({1: {1, 2, 3}, 2: {4, 5, 6}, 3: {1, 2, 4}, 4: {3, 5, 6}}, prizes={"booby": False})
    ResultVersion.objects.filter(result__game__drive=drive).update(channel="desk")
    prize_setup_update(
        drive=drive,
        actor=DESK,
        prize_places=1,
        categories=[
            HARD_LUCK,
            {
                "name": "Late bloomers",
                "rule": "best_after",
                "after_game": 3,
                "description": "a pie",
            },
        ],
    )
    prizes_open_ties(drive=drive, actor=DESK)
    first = drive_export(drive)
    stored = first["prize_setup"]["categories"]
    assert [(c["name"], c["rule"], c["after_game"], c["amount"]) for c in stored] == [
        ("Hard luck", "most_lost_in_a_row", None, "10.00"),
        ("Late bloomers", "best_after", 3, None),
    ]
    assert [(t["key"], t["name"], t["couples"]) for t in first["ties"]] == [
        ("place:1", None, [1, 2, 3, 4]),
        ("category:1", "Hard luck", [1, 2]),  # three lost in a row each
    ]
    assert [(a["kind"], a["place"], a["couple"]) for a in first["awards"]] == [
        ("category", 2, 2)  # three won after game 3
    ]
    drive_delete(drive=drive)
    drive_restore(data=json.loads(json.dumps(first)))
    restored = Drive.objects.get(slug=first["drive"]["slug"])
    second = drive_export(restored)
    assert second["audit"].pop()["action"] == "drive.restore"
    assert second == first
    assert [c.name for c in PrizeCategory.objects.filter(drive=restored)] == [
        "Hard luck",
        "Late bloomers",
    ]


# --- what the couple, the printed results and the treasurer see -----------------------------------


def test_the_couples_page_the_printed_results_and_the_treasurers_sheet_name_it() -> None:
    from money.printing import accounts_document
    from money.selectors import accounts
    from scoring.pages.selectors_live import couple_night
    from scoring.printing.data import build
    from scoring.printing.rendering import render_pdf
    from tests.pdf.helpers import pdf_text

    drive = night(WON, prizes={"booby": False})
    prize_setup_update(drive=drive, actor=DESK, categories=[HARD_LUCK, HOT_STREAK])
    prizes_open_ties(drive=drive, actor=DESK)
    mine = couple_night(Couple.objects.get(drive=drive, number=3))["prizes"]
    assert [(p["kind"], p["name"], p["amount"]) for p in mine] == [
        ("category", "Hard luck", "10.00")
    ]
    text = pdf_text(render_pdf("results", build(drive, "results"), paper="letter"))
    assert "Hard luck" in text and "Hot streak" in text and "a ham" in text
    sheet = accounts_document(drive)["accounts"]["notes"]
    assert f"Hard luck to couple 3: 10.00 {drive.currency}." in sheet
    assert not any("Hot streak" in line for line in sheet)  # a ham is not money paid
    paid = [(line["note"], line["amount"]) for line in accounts(drive)["lines"]]
    assert ("Hard luck", Decimal("10.00")) in paid  # the ledger's line names it too


def test_the_prize_page_and_a_named_prizes_tie_in_french(ours: ClubUsers) -> None:
    from django.urls import reverse

    from tests.pages.organizer_helpers import logged_in

    drive = night(
        {1: {1, 2, 3}, 2: {4, 5, 6}}, club=ours.club, prizes={"prize_places": 0, "booby": False}
    )
    prize_setup_update(drive=drive, actor=DESK, categories=[HARD_LUCK])
    (tie,) = prizes_open_ties(drive=drive, actor=DESK)
    client = logged_in(ours.organizer)
    french = {"HTTP_ACCEPT_LANGUAGE": "fr-CA,fr;q=0.9"}
    page = client.get(reverse("night:prizes", kwargs={"slug": drive.slug}), **french)
    text = page.content.decode()
    assert "Hard luck" in text and "le plus de parties perdues de suite" in text
    assert "Prix nommé 1" in text  # the set-up's boxes
    url = reverse("night:prizes_tie", args=[drive.slug, tie.pk])
    assert "Égalité pour « Hard luck »" in client.get(url, **french).content.decode()
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en-CA,en;q=0.9").content.decode()
    assert "Tie for “Hard luck”" in english


def test_a_named_prize_as_a_share_is_fixed_when_the_ties_are_opened() -> None:
    from money.printing import accounts_document
    from tests.prizes.test_as_paid import paid

    # Five couples at $8.00 a couple: $40.00 of entry money; 15 % is $6.00.
    drive = night(WON, entry_fee="8.00", entry_fee_per="couple", prizes={"booby": False})
    paid(drive, 1, 2, 3, 4, 5)
    share = {"name": "Hard luck", "rule": "most_lost_in_a_row", "share_of": "entry", "percent": 15}
    prize_setup_update(drive=drive, actor=DESK, categories=[share])
    assert prize_table(drive)["categories"][0]["prize"]["amount"] == "6.00"
    prizes_open_ties(drive=drive, actor=DESK)
    assert PrizeCategory.objects.get(drive=drive).amount == Decimal("6.00")
    opened = AuditEntry.objects.get(drive=drive, action="prizes.open")
    assert "Hard luck: 15% of entry = 6.00" in opened.new
    sheet = accounts_document(drive)["accounts"]["notes"]
    assert f"Hard luck (15% of the entry money) to couple 3: 6.00 {drive.currency}." in sheet
