"""The season's arithmetic (engine/season.py): players counted across drives, merges of two
spellings, splits of two people of one name, and the totals that no merge or split changes."""

from __future__ import annotations

from decimal import Decimal
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from engine.season import (
    CoupleNight,
    JarNight,
    Night,
    average,
    jar_consistent,
    player_key,
    resolve,
    season_standings,
)

NAMES = ["Ann Boyd", "ann boyd", "Bob Chiasson", "Cy Doucet", "Di Ellis", "Ed Fougère"]
key = str.casefold


def night(drive: str, date: str, *couples: tuple[str, str, int]) -> Night:
    return Night(drive, date, tuple(CoupleNight((a, b), w) for a, b, w in couples))


SEASON = [
    night(
        "sep",
        "2026-09-11",
        ("Mary MacNeil", "Joe Boudreau", 14),
        ("Ann Cormier", "Bill Aucoin", 11),
    ),
    night(
        "oct",
        "2026-10-09",
        ("Mary MacNeil", "Ann Cormier", 9),
        ("Marie MacNeil", "Bill Aucoin", 16),
    ),
    night(
        "nov",
        "2026-11-13",
        ("mary macneil", "Bill Aucoin", 12),
        ("Joe Boudreau", "Ann Cormier", 13),
    ),
]


def by_name(rows: list) -> dict:
    return {row.name: row for row in rows}


def test_a_player_counted_across_drives_whoever_they_partnered() -> None:
    rows = by_name(season_standings(SEASON, key=key))
    mary = rows["Mary MacNeil"]
    assert (mary.drives, mary.wins, mary.best, mary.best_drive) == (3, 35, 14, "sep")
    assert mary.average == Decimal("11.67")
    assert mary.spellings == ("Mary MacNeil", "mary macneil")
    bill = rows["Bill Aucoin"]
    assert (bill.drives, bill.wins, bill.best, bill.best_drive) == (3, 39, 16, "oct")
    # "Marie" is another spelling, a player of her own until merged.
    assert rows["Marie MacNeil"].wins == 16


def test_merging_two_spellings_adds_them_up() -> None:
    rows = by_name(season_standings(SEASON, key=key, merges={"marie macneil": "mary macneil"}))
    assert "Marie MacNeil" not in rows
    mary = rows["Mary MacNeil"]
    # Mary and Marie both played in October: the engine counts both nights and says so.
    assert (mary.drives, mary.wins) == (3, 51)
    assert mary.clashes == ("oct",)


def test_splitting_two_people_of_one_name_at_one_drive() -> None:
    rows = by_name(
        season_standings(
            SEASON, key=key, splits={("nov", "mary macneil"): "Mary MacNeil (Judique)"}
        )
    )
    assert rows["Mary MacNeil"].wins == 23 and rows["Mary MacNeil"].drives == 2
    assert rows["Mary MacNeil (Judique)"].wins == 12
    assert rows["Mary MacNeil (Judique)"].drives == 1


def test_places_share_equal_wins_competition_style() -> None:
    rows = season_standings(
        [night("a", "1", ("A", "B", 5), ("C", "D", 5)), night("b", "2", ("E", "F", 7))]
    )
    assert [(r.name, r.place) for r in rows] == [
        ("E", 1),
        ("F", 1),
        ("A", 3),
        ("B", 3),
        ("C", 3),
        ("D", 3),
    ]


def test_prizes_are_counted_per_player() -> None:
    rows = by_name(
        season_standings(
            [
                Night("a", "1", (CoupleNight(("A", "B"), 9, ("place 1",)),)),
                Night("b", "2", (CoupleNight(("A", "C"), 3, ("booby prize", "cookie jar")),)),
            ]
        )
    )
    assert (rows["A"].prizes, rows["B"].prizes, rows["C"].prizes) == (3, 1, 2)


def test_merge_chains_resolve_and_cycles_stop() -> None:
    assert resolve("a", {"a": "b", "b": "c"}) == "c"
    assert resolve("a", {"a": "b", "b": "a"}) == "b"
    assert player_key("  X ", "d", key=lambda s: s.strip().lower(), merges={"x": "y"}) == "y"


def test_average_rounds_half_up_and_is_zero_without_drives() -> None:
    assert average(5, 2) == Decimal("2.50") and average(2, 3) == Decimal("0.67")
    assert average(0, 0) == Decimal("0.00")


def test_the_jar_check_finds_a_carry_that_does_not_follow() -> None:
    d = Decimal
    nights = [
        JarNight("a", d(0), d(40), d(40)),
        JarNight("b", d(40), d(90), None),
        JarNight("c", d(0), d(30), d(30)),
        JarNight("d", d(10), d(50), None),
    ]
    assert jar_consistent(nights) == ["d"]


# --- properties ----------------------------------------------------------------------------------

couples = st.builds(
    CoupleNight,
    st.tuples(st.sampled_from(NAMES), st.sampled_from(NAMES)),
    st.integers(0, 30),
    st.lists(st.sampled_from(["place 1", "booby prize"]), max_size=2).map(tuple),
)
seasons = st.lists(st.lists(couples, min_size=1, max_size=5), min_size=1, max_size=6).map(
    lambda drives: [
        Night(f"d{i}", f"2026-{i + 1:02d}-01", tuple(cs)) for i, cs in enumerate(drives)
    ]
)
keys = st.sampled_from(sorted({key(n) for n in NAMES}))


def couples_wins(nights: list[Night]) -> int:
    return sum(c.wins for n in nights for c in n.couples)


@given(seasons, st.dictionaries(keys, keys, max_size=3))
def test_total_wins_are_twice_the_couples_wins_whatever_is_merged(nights, merges) -> None:
    rows = season_standings(nights, merges=merges, key=key)
    assert sum(r.wins for r in rows) == 2 * couples_wins(nights)
    assert sum(len(r.nights) for r in rows) == 2 * sum(len(n.couples) for n in nights)
    assert sum(r.prizes for r in rows) == 2 * sum(len(c.prizes) for n in nights for c in n.couples)
    for r in rows:
        assert r.wins == sum(one.wins for one in r.nights)
        assert 1 <= r.drives <= len(nights)
        assert r.best <= r.wins and r.best * r.drives >= r.wins
        assert r.average == average(r.wins, r.drives)


@given(seasons)
def test_places_follow_the_wins(nights) -> None:
    rows = season_standings(nights, key=key)
    assert rows[0].place == 1
    for before, after in pairwise(rows):
        assert before.wins >= after.wins
        assert (after.place == before.place) == (after.wins == before.wins)


@given(seasons, keys, keys)
def test_a_merge_adds_two_players_into_one_and_leaves_the_others(nights, a, b) -> None:
    before = {r.key: r for r in season_standings(nights, key=key)}
    if a == b or a not in before or b not in before:
        return
    after = {r.key: r for r in season_standings(nights, merges={a: b}, key=key)}
    assert a not in after and len(after) == len(before) - 1
    assert after[b].wins == before[a].wins + before[b].wins
    assert after[b].prizes == before[a].prizes + before[b].prizes
    assert after[b].drives == len({n.drive for n in before[a].nights + before[b].nights})
    for k, row in after.items():
        if k != b:
            assert (row.wins, row.drives, row.best) == (
                before[k].wins,
                before[k].drives,
                before[k].best,
            )


@given(seasons, keys, st.integers(0, 5))
def test_a_split_moves_one_drives_wins_to_another_person(nights, k, i) -> None:
    drive = nights[i % len(nights)].drive
    before = {r.key: r for r in season_standings(nights, key=key)}
    split = {(drive, k): "Somebody Else"}
    after = {r.key: r for r in season_standings(nights, splits=split, key=key)}
    moved = sum(one.wins for one in before[k].nights if one.drive == drive) if k in before else 0
    other = after.get("somebody else")
    assert (other.wins if other else 0) == moved
    assert (after[k].wins if k in after else 0) == (before[k].wins if k in before else 0) - moved
    assert sum(r.wins for r in after.values()) == sum(r.wins for r in before.values())
