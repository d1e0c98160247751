"""The season's rules worked as a club would check them by hand (engine.season.apply_rules,
most_improved, finalists): the best N nights of M, the nights to qualify, points per place,
most improved, ties and the final's players. Nights are written out below, one couple a line:
names, wins, place."""

from __future__ import annotations

from decimal import Decimal

from engine.season import (
    CoupleNight,
    Night,
    PlayerStanding,
    Rules,
    apply_rules,
    finalists,
    most_improved,
    season_standings,
)

# Four nights. Ann and Bob always play together; Cy and Di too; Ed plays the first night only.
NIGHTS = [
    Night(
        "n1",
        "2026-09-04",
        (
            CoupleNight(("Ann", "Bob"), 2, place=3),
            CoupleNight(("Cy", "Di"), 5, place=1),
            CoupleNight(("Ed", "Flo"), 4, place=2),
        ),
    ),
    Night(
        "n2",
        "2026-09-11",
        (CoupleNight(("Ann", "Bob"), 3, place=2), CoupleNight(("Cy", "Di"), 4, place=1)),
    ),
    Night(
        "n3",
        "2026-09-18",
        (CoupleNight(("Ann", "Bob"), 6, place=1), CoupleNight(("Cy", "Di"), 1, place=2)),
    ),
    Night(
        "n4",
        "2026-09-25",
        (CoupleNight(("Ann", "Bob"), 7, place=1), CoupleNight(("Cy", "Di"), 2, place=2)),
    ),
]
DRIVES = ["n1", "n2", "n3", "n4"]


def ruled(rules: Rules, nights: list[Night] = NIGHTS) -> dict[str, PlayerStanding]:
    players = apply_rules(season_standings(nights), [n.drive for n in nights], rules)
    return {p.name: p for p in players}


def test_with_no_rules_the_standings_are_todays() -> None:
    before = season_standings(NIGHTS)
    after = apply_rules(before, DRIVES)
    assert [(p.name, p.place, p.wins) for p in after] == [(p.name, p.place, p.wins) for p in before]
    assert all(p.score == p.wins and p.qualified for p in after)


def test_the_best_2_nights_of_those_played_count() -> None:
    # Ann: 2, 3, 6, 7 → best two 7 + 6 = 13. Cy: 5, 4, 1, 2 → 5 + 4 = 9.
    players = ruled(Rules(best=2))
    assert players["Ann"].score == 13 and players["Ann"].counted == 2
    assert players["Cy"].score == 9
    assert players["Ann"].wins == 18  # total wins still shown, all nights
    assert players["Ann"].place == 1 and players["Cy"].place == 3  # Bob shares 1st with Ann


def test_the_best_2_nights_of_3_leave_the_4th_night_out() -> None:
    # Only n1–n3 count: Ann 2, 3, 6 → 6 + 3 = 9; Cy 5, 4, 1 → 5 + 4 = 9: level.
    players = ruled(Rules(best=2, of=3))
    assert players["Ann"].score == 9 and players["Cy"].score == 9
    assert players["Ann"].place == players["Cy"].place == 1


def test_those_below_the_minimum_are_listed_apart_after_the_qualified() -> None:
    # Ed played one night of four, with 4 wins: 3 nights to qualify leaves him apart.
    players = apply_rules(season_standings(NIGHTS), DRIVES, Rules(qualify=3))
    names = [p.name for p in players]
    assert names[-2:] == ["Ed", "Flo"]
    ed = players[-2]
    assert not ed.qualified and ed.place == 0
    assert all(p.qualified and p.place >= 1 for p in players[:-2])


def test_points_per_place_with_shared_places() -> None:
    # Table 10, 8, 6. A night where two couples share 1st: both take 10.
    nights = [
        *NIGHTS[:3],
        Night(
            "n4",
            "2026-09-25",
            (CoupleNight(("Ann", "Bob"), 4, place=1), CoupleNight(("Cy", "Di"), 4, place=1)),
        ),
    ]
    players = ruled(Rules(points=(10, 8, 6)), nights)
    # Ann: places 3, 2, 1, 1 → 6 + 8 + 10 + 10 = 34. Cy: 1, 1, 2, 1 → 10 + 10 + 8 + 10 = 38.
    assert players["Ann"].score == 34
    assert players["Cy"].score == 38 and players["Cy"].place == 1
    # Ed: 2nd once → 8.
    assert players["Ed"].score == 8


def test_a_place_past_the_table_scores_nothing() -> None:
    players = ruled(Rules(points=(5,)))
    assert players["Ann"].score == 5 + 5  # 1st twice; 3rd and 2nd score 0
    assert players["Ed"].score == 0


def test_most_improved_compares_the_last_k_nights_with_the_first_k() -> None:
    players = apply_rules(season_standings(NIGHTS), DRIVES, Rules(improved=2))
    # Ann: first two 2, 3 (2.50), last two 6, 7 (6.50): +4.00. Cy: 4.50 → 1.50: -3.00.
    # Ed has one night: fewer than 2·2, not counted. Ann and Bob gained alike: both named.
    best = most_improved(players, DRIVES, Rules(improved=2))
    assert [(g.name, g.first, g.last, g.gain) for g in best] == [
        ("Ann", Decimal("2.50"), Decimal("6.50"), Decimal("4.00")),
        ("Bob", Decimal("2.50"), Decimal("6.50"), Decimal("4.00")),
    ]
    assert most_improved(players, DRIVES, Rules(improved=3)) == []  # 6 nights needed
    assert most_improved(players, DRIVES, Rules()) == []


def test_nobody_is_most_improved_when_nobody_gained() -> None:
    # The same night twice: Ann 2 then 2, Cy 5 then 5: nobody gained.
    falling = [Night("a", "1", NIGHTS[0].couples[:2]), Night("b", "2", NIGHTS[0].couples[:2])]
    players = apply_rules(season_standings(falling), ["a", "b"], Rules(improved=1))
    assert most_improved(players, ["a", "b"], Rules(improved=1)) == []


def _level() -> list[Night]:
    # Ann/Bob and Cy/Di both total 8 wins over two nights; Cy/Di won a night (placed 1st),
    # Ann/Bob never did but had the better best night (6).
    return [
        Night(
            "a",
            "1",
            (
                CoupleNight(("Ann", "Bob"), 6, place=2),
                CoupleNight(("Cy", "Di"), 3, place=3),
                CoupleNight(("Ed", "Flo"), 7, place=1),
            ),
        ),
        Night(
            "b",
            "2",
            (
                CoupleNight(("Ann", "Bob"), 2, place=2),
                CoupleNight(("Cy", "Di"), 5, place=1),
            ),
        ),
    ]


def test_ties_shared() -> None:
    players = ruled(Rules(), _level())
    assert players["Ann"].place == players["Cy"].place == 1


def test_ties_broken_by_nights_won_then_best_night() -> None:
    players = ruled(Rules(ties="nights_won"), _level())
    assert players["Cy"].nights_won == 1 and players["Ann"].nights_won == 0
    assert players["Cy"].place == 1 and players["Ann"].place == 3  # Di shares 1st with Cy


def test_ties_broken_by_best_night_then_nights_won() -> None:
    players = ruled(Rules(ties="best_night"), _level())
    assert players["Ann"].place == 1 and players["Cy"].place == 3


def test_ties_the_rule_cannot_break_stay_shared() -> None:
    players = ruled(Rules(ties="nights_won"), NIGHTS[:1] + NIGHTS[1:2])
    # Ann and Bob are always partners: nothing tells them apart.
    assert players["Ann"].place == players["Bob"].place


def test_the_final_takes_the_top_n_and_everyone_tied_at_the_cut() -> None:
    players = apply_rules(season_standings(NIGHTS), DRIVES, Rules(final=1))
    # Ann and Bob share 1st (18 wins): both go.
    assert [p.name for p in finalists(players, Rules(final=1))] == ["Ann", "Bob"]
    top3 = finalists(players, Rules(final=3))
    assert [p.name for p in top3] == ["Ann", "Bob", "Cy", "Di"]  # Cy and Di share 3rd
    assert finalists(players, Rules()) == []


def test_the_final_leaves_out_those_not_qualified() -> None:
    rules = Rules(qualify=2, final=10)
    players = apply_rules(season_standings(NIGHTS), DRIVES, rules)
    assert {p.name for p in finalists(players, rules)} == {"Ann", "Bob", "Cy", "Di"}
