"""The prize services (docs/rules.md §8–§10): places, the tie procedure, cuts, play-offs, the
booby prize, the jackpot and the cookie jar, on nights built with chosen wins."""

from datetime import date
from decimal import Decimal

import pytest

from drives.errors import ServiceError
from drives.models import AuditEntry
from engine.prizes import draw_cookie_jar_games, draw_cut
from scoring.models import Award, CutCard, PlayoffMatch, Tie, TieChoice
from scoring.prizes.selectors import carried_in, cookie_jar_view, prize_table, ties_list
from scoring.prizes.services import (
    cookie_jar_draw,
    prize_setup_update,
    prizes_open_ties,
    tie_choose,
    tie_cut_draw,
    tie_cut_record,
    tie_decide,
    tie_playoff_result,
)
from scoring.records.export import drive_export
from tests.prizes.helpers import DESK, night

pytestmark = pytest.mark.django_db

MONEY = {"prizes": [{"amount": "60.00"}, {"amount": "30.00"}, {"amount": "10.00"}]}


def tie(drive, key):
    return Tie.objects.get(drive=drive, key=key)


def choose(t, **choices):
    for couple, choice in choices.items():
        tie_choose(tie=t, couple=int(couple.lstrip("c")), choice=choice, actor=DESK)


def awards(drive, kind="place"):
    return sorted(
        (a.place, a.couple.number, a.amount, a.how)
        for a in Award.objects.filter(drive=drive, kind=kind).select_related("couple")
    )


def test_the_halls_example() -> None:
    drive = night([18, 18, 16, 15, 15, 9], prizes=MONEY)
    table = prize_table(drive)
    assert [(p["place"], p["couples"], p["status"]) for p in table["places"]] == [
        (1, [1, 2], "tie"),
        (2, [3], "awarded"),  # second without any tie procedure
        (3, [4, 5], "tie"),
    ]
    assert table["night_over"] and not table["opened"]
    assert table["booby"]["couples"] == [6] and table["booby"]["status"] == "awarded"
    opened = prizes_open_ties(drive=drive, actor=DESK)
    assert [(t.key, t.couples) for t in opened] == [("place:1", [1, 2]), ("place:3", [4, 5])]
    assert awards(drive) == [(2, 3, Decimal("30.00"), "direct")]
    # pressing again changes nothing
    assert [t.pk for t in prizes_open_ties(drive=drive, actor=DESK)] == [t.pk for t in opened]
    assert Award.objects.filter(drive=drive).count() == 2  # place 2 and the booby


def test_ties_wait_for_the_last_game_unless_forced() -> None:
    drive = night([3, 3, 1])
    Tie.objects.all().delete()
    from drives.models import Drive

    Drive.objects.filter(pk=drive.pk).update(games=5)
    drive.refresh_from_db()
    with pytest.raises(ServiceError) as info:
        prizes_open_ties(drive=drive, actor=DESK)
    assert info.value.code == "night_not_over" and info.value.status == 409
    assert prizes_open_ties(drive=drive, actor=DESK, force=True)


@pytest.mark.parametrize(
    ("choices", "method", "winners", "how"),
    [
        ({"c1": "split", "c2": "split"}, "split", [1, 2], "split"),
        ({"c1": "split", "c2": "cut"}, "cut", [], None),
        ({"c1": "play-off", "c2": "play-off"}, "play-off", [], None),
        ({"c1": "play-off", "c2": "forfeit"}, "award", [1], "forfeit-award"),
        ({"c1": "forfeit", "c2": "split"}, "award", [2], "forfeit-award"),
        ({"c1": "forfeit", "c2": "forfeit"}, "empty", [], None),
    ],
)
def test_every_branch_of_the_choice_rule(choices, method, winners, how) -> None:
    drive = night([5, 5, 3], prizes=MONEY)
    prizes_open_ties(drive=drive, actor=DESK)
    t = tie(drive, "place:1")
    choose(t, **choices)
    t = tie_decide(tie=t, actor=DESK)
    assert t.method == method
    got = [a for a in awards(drive) if a[0] == 1]
    assert [a[1] for a in got] == winners
    if how:
        assert {a[3] for a in got} == {how}
    if method == "split":
        assert [a[2] for a in got] == [Decimal("30.00"), Decimal("30.00")]
    row = prize_table(drive)["places"][0]
    assert row["status"] == {"split": "awarded", "award": "awarded", "empty": "empty"}.get(
        method, "tie"
    )


def test_a_play_off_asks_the_others_to_play_or_forfeit() -> None:
    drive = night([5, 5, 5, 2], prizes=MONEY)
    prizes_open_ties(drive=drive, actor=DESK)
    t = tie(drive, "place:1")
    choose(t, c1="play-off", c2="split")
    with pytest.raises(ServiceError) as info:
        tie_decide(tie=t, actor=DESK)
    assert info.value.code == "answer_needed" and info.value.details["couples"] == [3]
    choose(t, c3="cut")
    with pytest.raises(ServiceError) as info:
        tie_decide(tie=t, actor=DESK)
    assert info.value.status == 409 and info.value.details["couples"] == [2, 3]
    choose(t, c2="forfeit", c3="play-off")  # a couple may change its mind until decided
    t = tie_decide(tie=t, actor=DESK)
    assert (t.method, t.playing, t.forfeits) == ("play-off", [1, 3], [2])
    assert TieChoice.objects.filter(tie=t).count() == 5
    with pytest.raises(ServiceError) as info:
        choose(t, c1="split")
    assert info.value.code == "tie_decided"
    with pytest.raises(ServiceError) as info:
        tie_choose(tie=t, couple=4, choice="split", actor=DESK)
    assert info.value.code in ("not_in_tie", "tie_decided")


@pytest.mark.parametrize(
    ("rule", "asked", "applied", "method"),
    [
        ("always-cut", "split", "cut", "cut"),
        ("always-cut", "play-off", "cut", "cut"),
        ("always-split", "cut", "split", "split"),
        ("always-split", "play-off", "split", "split"),
        ("always-split", "forfeit", "forfeit", "award"),
    ],
)
def test_a_house_rule_replaces_the_choice(rule, asked, applied, method) -> None:
    drive = night([5, 5, 3], prizes=MONEY | {"house_rule": rule})
    prizes_open_ties(drive=drive, actor=DESK)
    t = tie(drive, "place:1")
    choose(t, c1=asked, c2="split" if rule == "always-split" else "cut")
    row = TieChoice.objects.filter(tie=t, couple__number=1).get()
    assert (row.asked, row.choice) == (asked, applied)
    assert tie_decide(tie=t, actor=DESK).method == method


def test_a_prize_in_kind_cannot_be_split() -> None:
    drive = night([5, 5, 3], prizes={"prizes": [{"description": "a turkey"}]})
    prizes_open_ties(drive=drive, actor=DESK)
    t = tie(drive, "place:1")
    choose(t, c1="split", c2="split")
    with pytest.raises(ServiceError) as info:
        tie_decide(tie=t, actor=DESK)
    assert info.value.code == "cannot_split" and info.value.status == 422
    choose(t, c2="cut")
    tie_decide(tie=t, actor=DESK)
    tie_cut_record(tie=t, cards={1: "9S", 2: "4H"}, actor=DESK)
    (award,) = Award.objects.filter(drive=drive, place=1)
    assert (award.couple.number, award.description, award.how) == (2, "a turkey", "cut")


def test_a_club_that_always_splits_cuts_for_a_prize_in_kind() -> None:
    drive = night(
        [5, 5, 3], prizes={"prizes": [{"description": "a ham"}], "house_rule": "always-split"}
    )
    prizes_open_ties(drive=drive, actor=DESK)
    t = tie(drive, "place:1")
    choose(t, c1="split", c2="play-off")
    assert tie_decide(tie=t, actor=DESK).method == "cut"


def cut_tie(wins, **prizes):
    drive = night(wins, prizes=MONEY | prizes)
    prizes_open_ties(drive=drive, actor=DESK)
    t = tie(drive, "place:1")
    choose(t, **{f"c{c}": "cut" for c in t.couples})
    return drive, tie_decide(tie=t, actor=DESK)


def test_a_cut_at_the_table_with_repeated_equal_lowest_cards() -> None:
    drive, t = cut_tie([6, 6, 6, 6, 2])
    first = tie_cut_record(tie=t, cards={1: "5S", 2: "5H", 3: "5D", 4: "KC"}, actor=DESK)
    assert first == {"round": 1, "lowest": [1, 2, 3], "decided": False}
    with pytest.raises(ServiceError) as info:
        tie_cut_record(tie=t, cards={1: "2S", 2: "3H", 4: "AC"}, actor=DESK)
    assert info.value.code == "wrong_couples"
    second = tie_cut_record(tie=t, cards={1: "8S", 2: "8H", 3: "JD"}, actor=DESK)
    assert second["lowest"] == [1, 2]
    with pytest.raises(ServiceError) as info:
        tie_cut_record(tie=t, cards={1: "8S", 2: "8S"}, actor=DESK)
    assert info.value.code == "same_card"
    with pytest.raises(ServiceError) as info:
        tie_cut_record(tie=t, cards={1: "JK", 2: "8S"}, actor=DESK)
    assert info.value.code == "joker_in_cut"
    third = tie_cut_record(tie=t, cards={1: "QS", 2: "10H"}, actor=DESK)
    assert third == {"round": 3, "lowest": [2], "decided": True}
    assert awards(drive)[0] == (1, 2, Decimal("60.00"), "cut")
    view = ties_list(drive)[0]
    assert [r["cards"] for r in view["cut_rounds"]][1] == {"1": "8S", "2": "8H", "3": "JD"}
    assert CutCard.objects.filter(tie=t).count() == 9


@pytest.mark.parametrize(("ace_high", "winner"), [(False, 1), (True, 2)])
def test_aces_low_or_high(ace_high, winner) -> None:
    _, t = cut_tie([6, 6, 2], cut_ace_high=ace_high)
    assert tie_cut_record(tie=t, cards={1: "AS", 2: "2H"}, actor=DESK)["lowest"] == [winner]


def test_a_system_cut_reproduces_from_its_recorded_seed() -> None:
    _, t = cut_tie([6, 6, 6, 2])
    with pytest.raises(TypeError):  # the seed is the system's to draw, not the caller's
        tie_cut_draw(tie=t, seed=12345, actor=DESK)
    assert not CutCard.objects.filter(tie=t).exists()
    drawn = tie_cut_draw(tie=t, actor=DESK)
    (recorded,) = set(CutCard.objects.filter(tie=t).values_list("seed", flat=True))
    assert recorded == drawn["seed"] and isinstance(recorded, int)
    again = draw_cut([1, 2, 3], recorded)  # the engine's draw replayed from the recorded seed
    assert drawn["rounds"] == [{str(c): str(card) for c, card in r.cards} for r in again]
    assert drawn["winner"] == again[-1].lowest[0] == awards(t.drive)[0][1]
    assert tie_cut_draw(tie=cut_tie([4, 4, 1])[1], actor=DESK)["seed"] != recorded


def playoff_tie(n):
    drive = night([8] * n + [2], prizes=MONEY)
    prizes_open_ties(drive=drive, actor=DESK)
    t = tie(drive, "place:1")
    choose(t, **{f"c{c}": "play-off" for c in t.couples})
    return drive, tie_decide(tie=t, actor=DESK)


def test_a_three_couple_play_off_with_a_bye() -> None:
    drive, t = playoff_tie(3)
    rounds = list(PlayoffMatch.objects.filter(tie=t).values_list("round", "a__number", "b__number"))
    assert rounds == [(1, 1, 2), (1, 3, None)]
    with pytest.raises(ServiceError) as info:
        tie_playoff_result(tie=t, match=[1, 2], winner=2, points=[45, 50], actor=DESK)
    assert info.value.code not in ("", None) and info.value.status == 422
    with pytest.raises(ServiceError) as info:
        tie_playoff_result(tie=t, match=[2, 3], winner=2, actor=DESK)
    assert info.value.code == "no_such_match"
    step = tie_playoff_result(tie=t, match=[2, 1], winner=2, points=[45, 15], actor=DESK)
    assert step["next"] == [[2, 3]] and step["champion"] is None
    with pytest.raises(ServiceError) as info:
        tie_playoff_result(tie=t, match=[2, 3], winner=1, actor=DESK)
    assert info.value.code == "wrong_couple"
    final = tie_playoff_result(tie=t, match=[2, 3], winner=3, actor=DESK)
    assert final["champion"] == 3
    assert awards(drive)[0] == (1, 3, Decimal("60.00"), "play-off")
    matches = ties_list(drive)[0]["matches"]
    assert matches[0]["points"] == [45, 15] and matches[-1]["winner"] == 3


def test_a_five_couple_play_off() -> None:
    _, t = playoff_tie(5)
    for match, winner in (([1, 2], 2), ([3, 4], 3), ([2, 3], 2)):
        assert tie_playoff_result(tie=t, match=match, winner=winner, actor=DESK)["champion"] is None
    assert tie_playoff_result(tie=t, match=[2, 5], winner=5, actor=DESK)["champion"] == 5
    assert PlayoffMatch.objects.filter(tie=t, b__isnull=True).count() == 2  # two byes of 5
    t.refresh_from_db()
    assert (t.state, t.winner) == ("settled", 5)


def test_split_remainders_go_to_the_lower_numbers() -> None:
    drive = night([5, 5, 5, 1], prizes={"prizes": [{"amount": "100.00"}]})
    prizes_open_ties(drive=drive, actor=DESK)
    t = tie(drive, "place:1")
    choose(t, c1="split", c2="split", c3="split")
    tie_decide(tie=t, actor=DESK)
    assert [a[1:3] for a in awards(drive) if a[0] == 1] == [
        (1, Decimal("33.34")),
        (2, Decimal("33.33")),
        (3, Decimal("33.33")),
    ]


def test_a_tie_across_the_booby_prize() -> None:
    drive = night([9, 7, 5, 2, 2], prizes={"booby_prize": {"amount": "5.00"}})
    table = prize_table(drive)
    assert table["booby"]["couples"] == [4, 5] and table["booby"]["status"] == "tie"
    prizes_open_ties(drive=drive, actor=DESK)
    t = tie(drive, "booby")
    choose(t, c4="split", c5="split")
    tie_decide(tie=t, actor=DESK)
    assert awards(drive, "booby") == [
        (None, 4, Decimal("2.50"), "split"),
        (None, 5, Decimal("2.50"), "split"),
    ]
    assert prize_table(drive)["booby"]["status"] == "awarded"


def test_competition_ranking_shares_the_combined_prizes() -> None:
    drive = night([8, 8, 6, 4], ranking="competition", prizes=MONEY)
    assert [(p["couples"], p["status"]) for p in prize_table(drive)["places"]] == [
        ([1, 2], "tie"),
        ([1, 2], "tie"),
        ([3], "awarded"),
    ]
    prizes_open_ties(drive=drive, actor=DESK)
    t = tie(drive, "place:1")
    assert t.places == [1, 2]
    choose(t, c1="split", c2="split")
    tie_decide(tie=t, actor=DESK)
    assert [a[1:3] for a in awards(drive) if a[0] == 1] == [
        (1, Decimal("45.00")),
        (2, Decimal("45.00")),
    ]
    assert [p["status"] for p in prize_table(drive)["places"]] == ["awarded"] * 3


def test_competition_cut_then_a_tie_for_the_places_left() -> None:
    drive = night([8, 8, 8, 2], ranking="competition", prizes=MONEY)
    prizes_open_ties(drive=drive, actor=DESK)
    t = tie(drive, "place:1")
    assert t.places == [1, 2, 3]
    choose(t, c1="cut", c2="cut", c3="cut")
    tie_decide(tie=t, actor=DESK)
    tie_cut_record(tie=t, cards={1: "9S", 2: "3H", 3: "KD"}, actor=DESK)
    follow = tie(drive, "place:2")
    assert (follow.couples, follow.places) == ([1, 3], [2, 3])
    choose(follow, c1="play-off", c3="forfeit")  # the forfeit gives up place 2 only
    tie_decide(tie=follow, actor=DESK)
    assert [a[:3] for a in awards(drive)] == [
        (1, 2, Decimal("60.00")),
        (2, 1, Decimal("30.00")),
        (3, 3, Decimal("10.00")),
    ]


def test_fewer_couples_than_places_and_withdrawn_couples() -> None:
    drive = night([6, 4, 5], withdrawn=[3], prizes=MONEY)
    rows = prize_table(drive)["places"]
    assert [(r["couples"], r["status"]) for r in rows] == [
        ([1], "awarded"),
        ([2], "awarded"),
        ([], "empty"),
    ]
    assert rows[2]["reason"] == "fewer couples than prize places"
    prizes_open_ties(drive=drive, actor=DESK)
    assert 3 not in [a[1] for a in awards(drive)]
    assert prize_table(drive)["booby"]["couples"] == []  # 1 and 2 take places, 3 withdrew


def test_the_jackpot_is_shared() -> None:
    drive = night([15, 14, 14, 3], prizes={"jackpot_threshold": 14, "jackpot_amount": "100.00"})
    assert prize_table(drive)["jackpot"]["shares"] == {"1": "33.34", "2": "33.33", "3": "33.33"}
    prizes_open_ties(drive=drive, actor=DESK)
    assert sum(a[2] for a in awards(drive, "jackpot")) == Decimal("100.00")


JAR = {"cookie_jar": True, "cookie_jar_k": 2, "buy_in": "2.00"}


def jar_night(won, **kw):
    return night(won, games=4, cookie_jar=[1, 2, 3], prizes=JAR, **kw)


def test_cookie_jar_one_winner() -> None:
    drive = jar_night({1: {1, 2, 3}, 2: {4}, 3: {1}, 4: {2, 3, 4}})
    draw = cookie_jar_draw(drive=drive, games=[1, 3], actor=DESK)
    assert (draw.winners, draw.pot, draw.method) == ([1], Decimal("6.00"), "hat")
    assert awards(drive, "cookie-jar") == [(None, 1, Decimal("6.00"), "direct")]
    with pytest.raises(ServiceError) as info:
        cookie_jar_draw(drive=drive, actor=DESK)
    assert info.value.code == "cookie_jar_drawn"


def test_cookie_jar_several_winners_tie() -> None:
    drive = jar_night({1: {1, 2}, 2: {1, 2, 4}, 3: {3}, 4: {3, 4}})
    draw = cookie_jar_draw(drive=drive, games=[2, 1], actor=DESK)
    assert draw.winners == [1, 2]
    t = tie(drive, "cookie-jar")
    choose(t, c1="split", c2="split")
    tie_decide(tie=t, actor=DESK)
    assert [a[2] for a in awards(drive, "cookie-jar")] == [Decimal("3.00")] * 2
    assert cookie_jar_view(drive)["status"] == "awarded"


def test_cookie_jar_no_winner_carries_over_to_the_next_drive() -> None:
    drive = jar_night({1: {1}, 2: {2}, 3: {3}, 4: {4}})
    with pytest.raises(TypeError):  # the seed is the system's to draw, not the caller's
        cookie_jar_draw(drive=drive, seed=7, actor=DESK)
    draw = cookie_jar_draw(drive=drive, actor=DESK)
    assert draw.winners == [] and draw.method == "system" and isinstance(draw.seed, int)
    assert tuple(draw.games) == draw_cookie_jar_games(4, 2, draw.seed)  # replayed
    assert cookie_jar_view(drive)["carried_over"] == "6.00"
    nxt = jar_night(
        {1: {1, 2, 3, 4}, 2: set(), 3: set(), 4: set()}, club=drive.club, date=date(2026, 12, 4)
    )
    assert carried_in(nxt) == Decimal("6.00")
    view = cookie_jar_view(nxt)
    assert (view["carried_in"], view["pot"]) == ("6.00", "12.00")
    again = cookie_jar_draw(drive=nxt, actor=DESK)
    assert again.pot == Decimal("12.00") and again.winners == [1]
    export = drive_export(nxt)
    assert export["cookie_jar"]["carried_in"] == "6.00"
    assert export["cookie_jar"]["drawn"]["seed"] == again.seed is not None


def test_setup_is_validated_and_fixed_once_opened() -> None:
    drive = night([5, 5, 3])
    for bad in (
        {"prize_places": -1},
        {"prizes": [{"amount": "1.005"}]},
        {"house_rule": "coin"},
        {"jackpot_threshold": 5},
        {"colour": "red"},
        {"prizes": [{}]},
        {"buy_in": "x"},
    ):
        with pytest.raises(ServiceError):
            prize_setup_update(drive=drive, actor=DESK, **bad)
    prize_setup_update(
        drive=drive, actor=DESK, prize_places=2, prizes=[{"amount": 20}, {"description": "a ham"}]
    )
    prizes_open_ties(drive=drive, actor=DESK)
    with pytest.raises(ServiceError) as info:
        prize_setup_update(drive=drive, actor=DESK, prize_places=1)
    assert info.value.code == "prizes_opened" and info.value.status == 409
    actions = set(AuditEntry.objects.filter(drive=drive).values_list("action", flat=True))
    assert {"prizes.setup", "prizes.open"} <= actions


def test_the_export_shows_how_each_prize_went() -> None:
    drive = night([5, 5, 3, 1], prizes=MONEY)
    prizes_open_ties(drive=drive, actor=DESK)
    t = tie(drive, "place:1")
    choose(t, c1="cut", c2="split")
    tie_decide(tie=t, actor=DESK)
    seed = tie_cut_draw(tie=t, actor=DESK)["seed"]
    export = drive_export(drive)
    first = export["prizes"][0]
    assert first["kind"] == "place" and first["status"] == "awarded"
    assert first["awards"][0]["how"] == "cut"
    (shown,) = export["ties"]
    assert [c["choice"] for c in shown["choices"]] == ["cut", "split"]
    assert shown["method"] == "cut" and shown["cut_rounds"][0]["seed"] == seed
    assert export["cookie_jar"] == {"enabled": False}
