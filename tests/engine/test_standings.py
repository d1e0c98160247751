"""Places of docs/rules.md §8, dense and competition, withdrawn couples left out."""

import pytest

from engine.standings import places, standings

HALL = {1: 18, 2: 18, 3: 16, 4: 15, 5: 15}


def test_the_halls_example_dense() -> None:
    assert places(HALL) == {1: 1, 2: 1, 3: 2, 4: 3, 5: 3}


def test_the_halls_example_competition() -> None:
    assert places(HALL, ranking="competition") == {1: 1, 2: 1, 3: 3, 4: 4, 5: 4}


def test_a_withdrawn_couple_keeps_its_wins_but_takes_no_place() -> None:
    wins = {1: 18, 2: 20, 3: 16}
    assert places(wins, withdrawn=[2]) == {1: 1, 2: None, 3: 2}
    rows = standings(wins, {1: 25, 2: 22, 3: 25}, withdrawn=[2])
    assert [(r.couple, r.wins, r.place, r.withdrawn) for r in rows] == [
        (2, 20, None, True),
        (1, 18, 1, False),
        (3, 16, 2, False),
    ]


def test_standings_order_wins_then_couple_number() -> None:
    rows = standings({7: 3, 2: 5, 4: 3}, {7: 5, 2: 5, 4: 5})
    assert [r.couple for r in rows] == [2, 4, 7] and [r.place for r in rows] == [1, 2, 2]


def test_standings_place_by_the_ranking_asked_and_carry_each_couples_games_played() -> None:
    rows = standings(HALL, {1: 25, 2: 24, 3: 25, 4: 23}, ranking="competition")
    assert [(r.couple, r.wins, r.played, r.place) for r in rows] == [
        (1, 18, 25, 1),
        (2, 18, 24, 1),
        (3, 16, 25, 3),
        (4, 15, 23, 4),
        (5, 15, 0, 4),  # no games counted for couple 5: none played
    ]


def test_an_unknown_ranking_is_refused_with_the_choices_named() -> None:
    with pytest.raises(ValueError, match=r"^ranking must be one of dense, competition$"):
        places(HALL, ranking="olympic")
