"""The prize pages: set-up, "Settle prizes", the tie flow (choices, decide, split, a cut
recorded through the forms, a system draw, a play-off with a bye), the cookie jar draw, the
public results page and the projector's prize mode, and who may do what."""

from __future__ import annotations

from typing import Any

import pytest

from drives.models import AuditEntry
from drives.services import drive_close, drive_update
from scoring.models import CookieJarDraw, CutCard, Tie
from tests.pages.organizer_helpers import DESK, club_people, logged_in, text
from tests.prizes.helpers import night

pytestmark = pytest.mark.django_db


def url(drive: Any, rest: str = "") -> str:
    return f"/drives/{drive.slug}/prizes/{rest}"


@pytest.fixture
def ours():
    return club_people("Ours", "ours")


def hall(club: Any, **kwargs: Any) -> Any:
    """The hall's example: 18, 18, 16, 15, 15 wins."""
    return night([18, 18, 16, 15, 15], club=club, **kwargs)


def setup_post(**overrides: Any) -> dict[str, Any]:
    data = {
        "setup-prize_places": "3",
        "setup-place_1": "60.01",
        "setup-place_2": "30",
        "setup-place_3": "a ham",
        "setup-booby": "",
        "setup-booby_prize": "",
        "setup-cookie_jar_k": "8",
        "setup-buy_in": "0.00",
        "setup-jackpot_threshold": "",
        "setup-jackpot_amount": "",
        "setup-cut_rule": "low",
        "setup-house_rule": "none",
    }
    data.update(overrides)
    return {k: v for k, v in data.items() if v != ""}


def tie_of(drive: Any, key: str) -> Tie:
    return Tie.objects.get(drive=drive, key=key)


def choose(client: Any, drive: Any, tie: Tie, couple: int, choice: str) -> Any:
    return client.post(url(drive, f"ties/{tie.pk}/choice"), {"choice": f"{couple}:{choice}"})


def test_the_halls_example_through_the_pages(ours) -> None:
    drive = hall(ours.club, games=18)
    org = logged_in(ours.organizer)
    page = org.get(url(drive))
    assert page.status_code == 200 and 'data-testid="prize-table"' in text(page)
    assert 'data-testid="prizes-link"' in text(org.get(f"/drives/{drive.slug}/"))

    # The set-up, with an error first (a jackpot needs both parts).
    bad = org.post(url(drive, "setup"), setup_post(**{"setup-jackpot_threshold": "17"}))
    assert bad.status_code == 422 and "needs both a threshold and an amount" in text(bad)
    saved = org.post(url(drive, "setup"), setup_post(), follow=True)
    assert "The prizes are saved." in text(saved)
    assert 'value="a ham"' in text(saved)

    settled = org.post(url(drive, "settle"), follow=True)
    first, third = tie_of(drive, "place:1"), tie_of(drive, "place:3")
    assert settled.redirect_chain[-1][0] == url(drive, f"ties/{first.pk}/")
    assert first.couples == [1, 2] and third.couples == [4, 5]
    table = text(org.get(url(drive)))
    assert 'data-place="2" data-status="awarded"' in table
    assert 'data-place="1" data-status="tie"' in table

    # First place: both split.
    decide = org.post(url(drive, f"ties/{first.pk}/decide"))
    assert decide.status_code == 409 and "must choose first" in text(decide)
    choose(org, drive, first, 1, "split")
    choose(org, drive, first, 2, "split")
    done = org.post(url(drive, f"ties/{first.pk}/decide"), follow=True)
    html = text(done)
    assert 'data-testid="tie-settled"' in html and "Settled: the prize is split." in html
    assert "30.01" in html and "30.00" in html
    assert 'data-testid="next-tie"' in html

    # Third place (a ham): one wants a split, the other a cut → a cut, recorded at the table.
    choose(org, drive, third, 4, "split")
    choose(org, drive, third, 5, "cut")
    org.post(url(drive, f"ties/{third.pk}/decide"))
    page = text(org.get(url(drive, f"ties/{third.pk}/")))
    assert 'name="cut-card_4"' in page and "Like 7H" in page
    wrong = org.post(url(drive, f"ties/{third.pk}/cut"), {"cut-card_4": "ZZ", "cut-card_5": "2H"})
    assert wrong.status_code == 422 and "Couple 4" in text(wrong) and "not a card" in text(wrong)
    again = org.post(
        url(drive, f"ties/{third.pk}/cut"), {"cut-card_4": "7H", "cut-card_5": "7S"}, follow=True
    )
    assert "cut again" in text(again) and 'name="cut-card_5"' in text(again)
    won = org.post(
        url(drive, f"ties/{third.pk}/cut"), {"cut-card_4": "9C", "cut-card_5": "3D"}, follow=True
    )
    assert "Couple 5 cut the lowest card" in text(won)

    table = text(org.get(url(drive)))
    for place in (1, 2, 3):
        assert f'data-place="{place}" data-status="awarded"' in table
    assert "won the cut" in table
    assert "Cut, round 1:" in table and "Cut, round 2:" in table

    # The public results page, once published, says how each tie was settled.
    assert logged_in(ours.organizer).get(f"/results/{drive.slug}/").status_code == 404
    drive_update(drive=drive, actor=DESK, published=True)
    public = text(logged_in(ours.scorer).get(f"/results/{drive.slug}/"))
    assert 'data-testid="results-prizes"' in public
    assert "Split:" in public and "couple 1 30.01" in public
    assert "Cut, round 1:" in public and "7♥" in public and "equal lowest: cut again" in public
    assert "Couple 5 cut the lowest card." in public

    # The projector's prize mode.
    proj = text(org.get(f"/drives/{drive.slug}/projector/?show=prizes"))
    assert 'data-testid="projector-prizes"' in proj and "a ham" in proj


def test_a_play_off_of_three_with_a_bye(ours) -> None:
    drive = night(
        [10, 10, 10, 4],
        club=ours.club,
        prizes={"prizes": [{"amount": "50.00"}, {"amount": "20.00"}]},
    )
    org, scorer = logged_in(ours.organizer), logged_in(ours.scorer)
    org.post(url(drive, "settle"))
    tie = tie_of(drive, "place:1")
    assert tie.couples == [1, 2, 3]
    choose(scorer, drive, tie, 1, "play-off")
    choose(scorer, drive, tie, 2, "split")
    choose(scorer, drive, tie, 3, "cut")
    needed = scorer.post(url(drive, f"ties/{tie.pk}/decide"))
    assert needed.status_code == 409
    assert "Answer needed: play off or forfeit?" in text(needed)
    choose(scorer, drive, tie, 2, "play-off")
    choose(scorer, drive, tie, 3, "play-off")
    page = text(scorer.post(url(drive, f"ties/{tie.pk}/decide"), follow=True))
    assert 'data-testid="bracket"' in page and "Couple 3: bye" in page
    assert 'data-testid="playoff-1-2-win-2"' in page
    # An impossible score is refused in words; the match stays to play.
    bad = scorer.post(
        url(drive, f"ties/{tie.pk}/playoff"), {"match": "1-2", "winner": "2", "points": "45-50"}
    )
    assert bad.status_code == 422 and 'data-testid="playoff-error"' in text(bad)
    ok = scorer.post(
        url(drive, f"ties/{tie.pk}/playoff"),
        {"match": "1-2", "winner": "2", "points": "45-15"},
        follow=True,
    )
    assert "Couple 2 won the match 1 v 2." in text(ok)
    assert 'data-testid="playoff-2-3-win-3"' in text(ok)
    final = scorer.post(
        url(drive, f"ties/{tie.pk}/playoff"), {"match": "2-3", "winner": "3"}, follow=True
    )
    assert "Couple 3 wins the play-off" in text(final)
    table = text(org.get(url(drive)))
    assert "won the play-off" in table and "1 v 2 → couple 2 won (45–15)" in table
    # Dense ranking: the three shared first place only; couple 4 is second outright.
    assert 'data-place="2" data-status="awarded"' in table and 'data-couple="4"' in table


def test_a_system_cut_and_the_projector_reveal(ours) -> None:
    drive = night(
        [5, 5, 2], club=ours.club, prizes={"prize_places": 1, "prizes": [{"amount": "9"}]}
    )
    org = logged_in(ours.organizer)
    org.post(url(drive, "settle"))
    tie = tie_of(drive, "place:1")
    for n in (1, 2):
        choose(org, drive, tie, n, "cut")
    org.post(url(drive, f"ties/{tie.pk}/decide"))
    page = text(org.get(url(drive, f"ties/{tie.pk}/")))
    assert 'data-testid="cut-draw"' in page and 'name="draw-seed"' not in page
    # The seed is the server's: one sent anyway is not used.
    done = text(org.post(url(drive, f"ties/{tie.pk}/draw"), {"draw-seed": "42"}, follow=True))
    (seed,) = set(CutCard.objects.filter(tie=tie).values_list("seed", flat=True))
    assert seed != 42 and f"Drawn from seed {seed}: couple" in done
    assert f"drawn by the system, seed {seed}" in done
    assert 'data-testid="cut-projector"' in done and "data-reveal" in done
    proj = org.get(f"/drives/{drive.slug}/projector/?show=prizes&tie={tie.pk}")
    assert proj.status_code == 200
    assert 'class="cut-card' in text(proj) and "takes it!" in text(proj)


def test_the_cookie_jar_draw_page(ours) -> None:
    wins = {1: [1, 2, 3], 2: [1, 2], 3: [3], 4: []}
    drive = night(
        wins,
        games=3,
        club=ours.club,
        cookie_jar=[1, 2, 3],
        prizes={"cookie_jar": True, "cookie_jar_k": 2, "buy_in": "2.00"},
    )
    org = logged_in(ours.organizer)
    page = text(org.get(url(drive)))
    assert 'data-testid="jar-draw"' in page and "pot 6.00" in page
    bad = org.post(url(drive, "cookie-jar"), {"jar-method": "hat", "jar-games": "1 9"})
    assert bad.status_code == 422 and "Give 2 different game numbers" in text(bad)
    done = text(
        org.post(url(drive, "cookie-jar"), {"jar-method": "hat", "jar-games": "1, 2"}, follow=True)
    )
    assert "Games 1, 2 drawn: couples 1, 2 won them all" in done and 'data-testid="decide"' in done
    assert 'data-testid="jar-games">1, 2<' in text(org.get(url(drive)))
    # Couples 1 and 2 won both games: a tie, split through the tie flow.
    tie = tie_of(drive, "cookie-jar")
    for n in (1, 2):
        choose(org, drive, tie, n, "split")
    org.post(url(drive, f"ties/{tie.pk}/decide"))
    page = text(org.get(url(drive)))
    assert "Couple 1 wins 3.00 CAD (split)" in page and "Couple 2 wins 3.00 CAD (split)" in page


def test_the_jar_carries_over(ours) -> None:
    drive = night(
        {1: [1], 2: [2]},
        games=2,
        club=ours.club,
        cookie_jar=[1, 2],
        prizes={"cookie_jar": True, "cookie_jar_k": 2, "buy_in": "5"},
    )
    org = logged_in(ours.organizer)
    assert 'name="jar-seed"' not in text(org.get(url(drive)))
    done = text(
        org.post(url(drive, "cookie-jar"), {"jar-method": "system", "jar-seed": "7"}, follow=True)
    )
    draw = CookieJarDraw.objects.get(drive=drive)
    assert draw.seed != 7 and f"drawn by the system, seed {draw.seed}" in done
    assert "No winner: the pot of 10.00" in done and "carries over to the next drive" in done


def test_permissions(ours) -> None:
    drive = hall(ours.club, games=18)
    theirs = club_people("Theirs", "theirs")
    outsider, scorer = logged_in(theirs.organizer), logged_in(ours.scorer)
    from django.test import Client

    assert Client().get(url(drive)).status_code == 302
    assert outsider.get(url(drive)).status_code == 404
    assert outsider.post(url(drive, "settle")).status_code == 404
    page = scorer.get(url(drive))
    assert page.status_code == 200 and 'data-testid="settle"' not in text(page)
    assert 'data-testid="prizes-save"' not in text(page)
    assert scorer.post(url(drive, "setup"), setup_post()).status_code == 403
    assert scorer.post(url(drive, "settle")).status_code == 403
    assert scorer.post(url(drive, "cookie-jar"), {"jar-method": "system"}).status_code == 403
    logged_in(ours.organizer).post(url(drive, "settle"))
    tie = tie_of(drive, "place:1")
    assert outsider.get(url(drive, f"ties/{tie.pk}/")).status_code == 404
    assert (
        outsider.post(url(drive, f"ties/{tie.pk}/choice"), {"choice": "1:cut"}).status_code == 404
    )
    assert scorer.get(url(drive, f"ties/{tie.pk}/")).status_code == 200
    assert scorer.get(url(drive, "ties/999999/")).status_code == 404
    # Another drive's tie is not found through this drive.
    other = hall(ours.club, games=18)
    assert logged_in(ours.organizer).get(url(other, f"ties/{tie.pk}/")).status_code == 404
    # A choice the tie does not know is named, not a 500.
    bad = scorer.post(url(drive, f"ties/{tie.pk}/choice"), {"choice": "9:cut"})
    assert bad.status_code == 422 and "not in this tie" in text(bad)


def test_settle_before_the_last_game_is_refused_in_words(ours) -> None:
    from drives.services import drive_start
    from tests.pages.organizer_helpers import a_drive

    drive = a_drive(ours.club, couples=4)
    drive_start(drive=drive, actor=DESK)
    org = logged_in(ours.organizer)
    refused = org.post(url(drive, "settle"))
    assert refused.status_code == 409 and "The last game is not complete" in text(refused)


def test_the_jars_games_read_in_numeric_order(ours) -> None:
    """Drawn from a hat as 9, 3, 1, 11: the flash message, the prize page and the projector
    list them 1, 3, 9, 11 (numeric, not as drawn and not as text); the record keeps the draw."""
    wins = {1: [1, 3, 9, 11], 2: [2], 3: []}
    drive = night(
        wins,
        games=12,
        club=ours.club,
        cookie_jar=[1, 2],
        prizes={"cookie_jar": True, "cookie_jar_k": 4, "buy_in": "2.00"},
    )
    org = logged_in(ours.organizer)
    done = text(
        org.post(
            url(drive, "cookie-jar"), {"jar-method": "hat", "jar-games": "9 3 1 11"}, follow=True
        )
    )
    assert "Games 1, 3, 9, 11 drawn: couple 1 wins the cookie jar" in done
    assert 'data-testid="jar-games">1, 3, 9, 11<' in text(org.get(url(drive)))
    proj = text(org.get(f"/drives/{drive.slug}/projector/?show=prizes"))
    assert "1, 3, 9, 11" in proj and "9, 3, 1, 11" not in proj
    assert CookieJarDraw.objects.get(drive=drive).games == [9, 3, 1, 11]


def test_the_tie_page_words_agree_with_the_rule(ours) -> None:
    """docs/rules.md §9: once a couple asks for a play-off each other couple plays or forfeits.
    The page says so (not that the others forfeit), and asks them at once, offering just
    those two answers."""
    drive = night(
        [10, 10, 10, 4],
        club=ours.club,
        prizes={"prizes": [{"amount": "50.00"}, {"amount": "20.00"}]},
    )
    org = logged_in(ours.organizer)
    org.post(url(drive, "settle"))
    tie = tie_of(drive, "place:1")
    page = text(org.get(url(drive, f"ties/{tie.pk}/")))
    assert "the others forfeit" not in page
    assert "every other couple then chooses to play off or to forfeit" in page
    choose(org, drive, tie, 1, "play-off")
    choose(org, drive, tie, 2, "cut")
    page = text(org.get(url(drive, f"ties/{tie.pk}/")))
    assert page.count("Answer needed: play off or forfeit?") == 2  # couples 2 and 3
    assert 'data-testid="choose-2-play-off"' in page and 'data-testid="choose-2-forfeit"' in page
    assert 'data-testid="choose-2-cut"' not in page and 'data-testid="choose-3-split"' not in page
    assert 'data-testid="choose-1-split"' in page  # couple 1 may still change its mind


def test_split_is_not_offered_for_a_prize_in_kind(ours) -> None:
    drive = night(
        [5, 5, 2], club=ours.club, prizes={"prize_places": 1, "prizes": [{"description": "a ham"}]}
    )
    org = logged_in(ours.organizer)
    org.post(url(drive, "settle"))
    tie = tie_of(drive, "place:1")
    page = text(org.get(url(drive, f"ties/{tie.pk}/")))
    assert 'data-testid="choose-1-split"' not in page and 'data-testid="choose-1-cut"' in page
    assert "a prize in kind cannot be split" in page
    money = night(
        [5, 5, 2], club=ours.club, prizes={"prize_places": 1, "prizes": [{"amount": "9"}]}
    )
    org.post(url(money, "settle"))
    page = text(org.get(url(money, f"ties/{tie_of(money, 'place:1').pk}/")))
    assert 'data-testid="choose-1-split"' in page


@pytest.mark.parametrize("ruleset", ["cape-breton-45", "irish-45-joker", "auction-120"])
def test_the_play_offs_example_fits_the_drives_game(ours, ruleset) -> None:
    """The example score on the play-off form is one the drive's ruleset accepts; an unusual
    score's refusal says what to tick, not a field's name."""
    from engine.rules import get_ruleset
    from engine.scores import check_final_score

    drive = night(
        [5, 5, 2],
        club=ours.club,
        ruleset=ruleset,
        prizes={"prize_places": 1, "prizes": [{"amount": "9"}]},
    )
    org = logged_in(ours.organizer)
    org.post(url(drive, "settle"))
    tie = tie_of(drive, "place:1")
    for n in (1, 2):
        choose(org, drive, tie, n, "play-off")
    org.post(url(drive, f"ties/{tie.pk}/decide"))
    page = text(org.get(url(drive, f"ties/{tie.pk}/")))
    example = page.split("winner's first, like ", 1)[1].split("<", 1)[0].strip()
    winner, loser = (int(p) for p in example.split("-"))
    assert check_final_score(winner, loser, get_ruleset(ruleset)).status == "ok", example
    if ruleset == "cape-breton-45":
        assert "120-45" not in page
        unusual = org.post(
            url(drive, f"ties/{tie.pk}/playoff"), {"match": "1-2", "winner": "1", "points": "45-35"}
        )
        assert unusual.status_code == 422
        assert "tick “Accept an unusual score”" in text(unusual)
        assert "confirm_unusual" not in text(unusual).split('name="confirm_unusual"')[0]
        assert 'value="45-35"' in text(unusual)  # the points stay typed
    form = {"match": "1-2", "winner": "1", "points": example}
    done = text(org.post(url(drive, f"ties/{tie.pk}/playoff"), form, follow=True))
    assert "Couple 1 wins the play-off" in done


def test_a_cut_by_the_highest_card(ours) -> None:
    """Offered beside the lowest on the tie's page until the first card is cut; the cards
    may be typed with a space ("10 C")."""
    drive = night(
        [5, 5, 2], club=ours.club, prizes={"prize_places": 1, "prizes": [{"amount": "9"}]}
    )
    org = logged_in(ours.organizer)
    org.post(url(drive, "settle"))
    tie = tie_of(drive, "place:1")
    for n in (1, 2):
        choose(org, drive, tie, n, "cut")
    org.post(url(drive, f"ties/{tie.pk}/decide"))
    page = text(org.get(url(drive, f"ties/{tie.pk}/")))
    assert "the lowest card wins" in page and 'value="high"' in page
    assert "Highest card wins, aces high" in page
    chosen = text(
        org.post(url(drive, f"ties/{tie.pk}/cut-rule"), {"rule-rule": "high"}, follow=True)
    )
    assert "the highest card wins" in chosen and "(aces high)" in chosen
    assert scorer_cannot_choose(ours, drive, tie)
    cards = {"cut-card_1": "10 C", "cut-card_2": "AD"}
    won = text(org.post(url(drive, f"ties/{tie.pk}/cut"), cards, follow=True))
    assert "Couple 2 cut the highest card and takes the prize." in won
    assert "Couple 2 cut the highest card." in text(org.get(url(drive)))
    late = org.post(url(drive, f"ties/{tie.pk}/cut-rule"), {"rule-rule": "low"})
    assert late.status_code == 409 and "A cut has begun" in text(late)
    assert AuditEntry.objects.filter(drive=drive, action="prizes.setup").exists()


def scorer_cannot_choose(ours, drive, tie) -> bool:
    scorer = logged_in(ours.scorer)
    assert 'data-testid="cut-rule-form"' not in text(scorer.get(url(drive, f"ties/{tie.pk}/")))
    return (
        scorer.post(url(drive, f"ties/{tie.pk}/cut-rule"), {"rule-rule": "low"}).status_code == 403
    )


def test_a_late_couple_and_the_booby_prize(ours) -> None:
    """Couple 7 came for game 2 and is last; the booby goes to couple 6, and the page says why
    (the rule, couple 7 named as left out) and lets the organizer let late couples in."""
    from tests.prizes.helpers import arrived_late

    drive = night(
        [5, 4, 3, 2, 2, 1, 0], club=ours.club, games=6, prizes={"booby_prize": {"amount": "5"}}
    )
    arrived_late(drive, 7)
    org = logged_in(ours.organizer)
    page = text(org.get(url(drive)))
    booby_row = page.split('data-place="booby"', 1)[1].split("</tr>", 1)[0]
    assert ">6 <" in booby_row or ">6<" in booby_row.replace(" ", "")
    rule = page.split('data-testid="booby-rule"', 1)[1].split("</td>", 1)[0]
    assert "only couples who played every game (6 games)" in rule
    assert 'data-couple="7"' in rule and "played 5 games, 0 wins" in rule
    assert "Late couples may take the booby prize too" in page
    saved = org.post(
        url(drive, "setup"),
        setup_post(
            **{
                "setup-booby": "on",
                "setup-booby_prize": "5",
                "setup-booby_late_couples": "on",
                "setup-cookie_jar_k": "6",
            }
        ),
        follow=True,
    )
    assert "The prizes are saved." in text(saved)
    page = text(org.get(url(drive)))
    assert 'data-place="booby" data-status="awarded"' in page
    assert "late couples included" in page
    booby_row = page.split('data-place="booby"', 1)[1].split("</tr>", 1)[0]
    assert 'data-couple="7"' in booby_row
    entry = AuditEntry.objects.filter(drive=drive, action="prizes.setup").latest("id")
    assert entry.old["booby_late_couples"] is False and entry.new["booby_late_couples"] is True


def test_couples_bought_in_so_the_jar_is_on_and_asks_for_the_buy_in(ours) -> None:
    """Couples bought in at the door, the prize set-up was never touched (jar off, buy-in
    0.00): the jar is on, says no buy-in is set and asks for it; then it can be drawn."""
    drive = night({1: [1, 2], 2: [1], 3: [2]}, games=2, club=ours.club, cookie_jar=[1, 2])
    org = logged_in(ours.organizer)
    page = text(org.get(url(drive)))
    assert 'id="cookie-jar"' in page and 'data-testid="jar-needs-buy-in"' in page
    assert "2 couples bought in at the door, but no buy-in is set" in page
    assert 'data-testid="jar-buy-in"' in page and 'data-testid="jar-draw"' not in page
    assert 'name="setup-cookie_jar" checked' in page.replace(' id="id_setup-cookie_jar"', "")
    assert "2 couple(s) bought in at the door: what did each pay?" in page
    bad = org.post(url(drive, "buy-in"), {"jar-buy_in": "two"})
    assert (
        bad.status_code == 422
        and "The buy-in is an amount from 0 to 99999999.99, to the cent." in text(bad)
    )
    done = text(org.post(url(drive, "buy-in"), {"jar-buy_in": "$2.50"}, follow=True))
    assert "The buy-in is set: the pot is 5.00 CAD." in done
    assert 'data-testid="jar-draw"' in done and 'data-testid="jar-needs-buy-in"' not in done
    entry = AuditEntry.objects.filter(drive=drive, action="prizes.setup").latest("id")
    assert entry.new["buy_in"] == "2.50"
    # Unticking the jar while couples are in it is refused in words.
    off = org.post(
        url(drive, "setup"), setup_post(**{"setup-cookie_jar_k": "2", "setup-buy_in": "2.50"})
    )
    assert off.status_code == 422 and "bought into the cookie jar at the door" in text(off)
    drawn = text(
        org.post(url(drive, "cookie-jar"), {"jar-method": "hat", "jar-games": "1 2"}, follow=True)
    )
    assert "couple 1 wins the cookie jar (5.00)" in drawn


def test_the_prizes_on_the_projector_name_the_couples_and_their_prizes(ours) -> None:
    """Names, each prize with its currency (or the thing), the booby prize and the jar's
    shares: what the hall reads on the wall, not couple numbers alone."""
    from drives.models import Couple

    wins = {1: [1, 2, 3, 4], 2: [1, 2, 3, 4], 3: [1, 2, 3], 4: [1, 2], 5: [1]}
    drive = night(
        wins,
        games=4,
        club=ours.club,
        cookie_jar=[1, 2, 3],
        prizes={
            "prizes": [
                {"amount": "60.00"},
                {"amount": "30.00"},
                {"description": "a Christmas ham"},
            ],
            "booby_prize": {"description": "a wooden spoon"},
            "cookie_jar": True,
            "cookie_jar_k": 2,
            "buy_in": "2.00",
        },
    )
    Couple.objects.filter(drive=drive, number=1).update(
        player1="Mary MacDonald", player2="John Gillis"
    )
    Couple.objects.filter(drive=drive, number=5).update(
        player1="Angus Beaton", player2="Rod Rankin"
    )
    org = logged_in(ours.organizer)
    org.post(url(drive, "settle"))
    first = tie_of(drive, "place:1")
    for n in (1, 2):
        choose(org, drive, first, n, "split")
    org.post(url(drive, f"ties/{first.pk}/decide"))
    org.post(url(drive, "cookie-jar"), {"jar-method": "hat", "jar-games": "2 1"})
    jar = tie_of(drive, "cookie-jar")
    for n in (1, 2, 3):
        choose(org, drive, jar, n, "split")
    org.post(url(drive, f"ties/{jar.pk}/decide"))
    page = text(org.get(f"/drives/{drive.slug}/projector/?show=prizes"))
    wall = page.split('data-testid="projector-prizes"', 1)[1].split("</ol>", 1)[0]

    def row(key: str) -> str:
        return wall.split(f'data-place="{key}"', 1)[1].split("</li>", 1)[0]

    first_row = row("1")
    assert "Mary MacDonald &amp; John Gillis" in first_row and "30.00 CAD" in first_row
    assert "(split)" in first_row
    assert "a Christmas ham" in row("3") and "30.00 CAD" in row("2")
    booby = row("booby")
    assert "Angus Beaton &amp; Rod Rankin" in booby and "a wooden spoon" in booby
    shares = row("cookie-jar")
    assert "games 1, 2" in shares and "Mary MacDonald &amp; John Gillis" in shares
    assert shares.count("2.00 CAD") == 3  # the pot of 6.00 split three ways


def test_the_projectors_prizes_take_the_same_queries_for_a_small_and_a_big_night(ours) -> None:
    """The wall polls every few seconds: its queries do not grow with the couples."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for couples in (6, 30):
        wins = [30, 30, *range(29, 31 - couples, -1)]  # one tie, for first place
        drive = night(
            wins,
            club=ours.club,
            cookie_jar=[1, 2, 3],
            prizes={"cookie_jar": True, "cookie_jar_k": 2, "buy_in": "1"},
        )
        org = logged_in(ours.organizer)
        org.post(url(drive, "settle"))
        org.post(url(drive, "cookie-jar"), {"jar-method": "hat", "jar-games": "1 2"})
        with CaptureQueriesContext(connection) as queries:
            page = org.get(f"/drives/{drive.slug}/projector/?show=prizes&partial=1")
        assert page.status_code == 200 and 'data-testid="projector-prizes"' in text(page)
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_a_tie_left_open_when_the_drive_closed_offers_nothing_to_press(ours) -> None:
    """Once the drive is closed nothing can change (each button would be refused): the tie's
    page says it was left unsettled instead of offering choices, cuts and play-offs."""
    drive = night(
        [10, 10, 10, 4],
        club=ours.club,
        prizes={"prizes": [{"amount": "50.00"}, {"amount": "20.00"}]},
    )
    org = logged_in(ours.organizer)
    org.post(url(drive, "settle"))
    tie = tie_of(drive, "place:1")
    choose(org, drive, tie, 1, "cut")
    assert 'data-testid="choose-2-cut"' in text(org.get(url(drive, f"ties/{tie.pk}/")))
    drive_close(drive=drive, actor=DESK)
    page = text(org.get(url(drive, f"ties/{tie.pk}/")))
    assert "the tie was not settled, and it can no longer be" in page
    assert "<form" not in page.split('data-testid="tie-closed"')[1].split("</section>")[0]
    assert 'data-testid="decide"' not in page and 'data-testid="choose-' not in page
    refused = choose(org, drive, tie, 2, "cut")
    assert refused.status_code == 422 and "closed" in text(refused)
    assert "cut" not in [c.choice for c in tie.choices.filter(couple__number=2)]


def test_before_the_first_result_the_prize_table_shows_the_set_up(ours) -> None:
    """27 couples and three prize places, no result yet: the places and what each pays, not a
    27-couple tie at 0 wins nor places "left empty"; the first result brings the standings."""
    import re

    from drives.services import drive_start
    from scoring.services import result_record
    from tests.pages.organizer_helpers import a_drive

    drive = a_drive(ours.club, couples=27)
    org = logged_in(ours.organizer)
    org.post(url(drive, "setup"), setup_post())
    for started in (False, True):
        if started:
            drive_start(drive=drive, actor=DESK)
        page = text(org.get(url(drive)))
        table = re.search(r'<table class="prize-table".*?</table>', page, re.S).group(0)
        assert "60.01 CAD" in table and "30.00 CAD" in table and "a ham" in table
        assert "tie to settle" not in table and "fewer couples" not in table
        assert "0 wins" not in table and "1, 2, 3" not in table
        assert "No result yet: the prize places and what each pays." in page
    result_record(drive=drive, game=1, table=1, winner=1, actor=DESK)
    page = text(org.get(url(drive)))
    assert "No result yet" not in page and "tie to settle" in page
