"""What a scorer reads when a table's second entry disagrees, or the advance is refused while
tables are not done: whole sentences in the language active (the English the API has always
answered with, or the hall's French), the numbers filled in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.utils import translation

from drives.errors import Conflict
from drives.services import drive_start
from scoring.services import game_advance, result_record
from tests.scoring.nights import DESK, new_drive

pytestmark = pytest.mark.django_db


def refusal(call: Callable[..., Any], language: str, **kwargs: Any) -> str:
    with translation.override(language), pytest.raises(Conflict) as refused:
        call(**kwargs)
    return refused.value.message


def test_a_second_score_for_a_table_is_said_whole() -> None:
    drive = new_drive(4)
    drive_start(drive=drive, actor=DESK)
    result_record(drive=drive, game=1, table=1, winner=2, points=[50, 40], actor=DESK)
    again = {"drive": drive, "game": 1, "table": 1, "winner": 2, "points": [60, 30]}
    assert refusal(result_record, "en", actor=DESK, **again) == (
        "Table 1 already has couple 2 winning 50–40 in game 1, not couple 2 winning 60–30; "
        "both entries are kept for the desk to resolve."
    )
    assert refusal(result_record, "fr", actor=DESK, **again) == (
        "La table 1 a déjà couple 2 gagnant 50–40 à la partie 1, pas couple 2 gagnant "
        "60–30 ; les deux inscriptions sont gardées pour que le bureau règle ça."
    )


def test_another_winner_and_an_incomplete_game_are_said_in_french_too() -> None:
    drive = new_drive(6)
    drive_start(drive=drive, actor=DESK)
    result_record(drive=drive, game=1, table=1, winner=1, actor=DESK)
    other = {"drive": drive, "game": 1, "table": 1, "winner": 2}
    assert refusal(result_record, "en", actor=DESK, **other) == (
        "Table 1 already has couple 1 as the winner of game 1; both entries are kept for the "
        "desk to resolve."
    )
    assert refusal(result_record, "fr", actor=DESK, **other) == (
        "La table 1 a déjà le couple 1 comme gagnant de la partie 1 ; les deux inscriptions "
        "sont gardées pour que le bureau règle ça."
    )
    assert refusal(game_advance, "en", drive=drive, game=1, actor=DESK) == (
        "Game 1 is not complete: no result at table(s) 2, 3; conflict at table(s) 1."
    )
    assert refusal(game_advance, "fr", drive=drive, game=1, actor=DESK) == (
        "La partie 1 n'est pas complète : aucun résultat à la ou aux tables 2, 3; "
        "conflit à la ou aux tables 1."
    )
