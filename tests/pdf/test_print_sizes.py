"""What a player reads on the printed cards at arm's length is 12 pt or more (issue 31): the
punch card's hole numbers, its trump reminder and its labels, the table card's "Scan to report"
line and its address; the big numbers stay big."""

from __future__ import annotations

import pytest

from scoring.printing.data import build
from scoring.printing.pdf import PAPERS, render
from tests.pdf.helpers import drawn_sizes, running_night

BASE = "https://45s.example.org"
READABLE = 12.0

pytestmark = pytest.mark.django_db


@pytest.fixture
def drive():
    return running_night(couples=20, games=25, played=3)


def small(sizes: list[tuple[str, float]]) -> list[tuple[str, float]]:
    return [(text, size) for text, size in sizes if size < READABLE]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("games", [25, 60])
def test_a_punch_card_is_read_at_arm_s_length(drive, paper: str, games: int) -> None:
    data = build(drive, "punch-cards", base_url=BASE)
    data["drive"]["games"] = games
    sizes = drawn_sizes(render("punch-cards", data, paper=paper))
    assert small(sizes) == []
    holes = {text for text, size in sizes if text.isdigit() and size >= READABLE}
    assert {str(n) for n in range(1, games + 1)} <= holes  # every hole's number
    assert any(text.startswith("Trumps") for text, _ in sizes)  # the reminder
    assert max(size for text, size in sizes if text == "1") >= 36  # the couple's number


def test_a_filled_punch_card_is_read_at_arm_s_length(drive) -> None:
    data = build(drive, "punch-cards", couple=1, filled=True, base_url=BASE)
    assert small(drawn_sizes(render("punch-cards", data))) == []


@pytest.mark.parametrize("paper", PAPERS)
def test_a_table_card_is_read_at_arm_s_length(drive, paper: str) -> None:
    data = build(drive, "table-cards", base_url=BASE)
    sizes = drawn_sizes(render("table-cards", data, paper=paper), page=7)
    assert small(sizes) == []
    assert sum(1 for text, _ in sizes if text.startswith("Scan to report")) == 2  # both faces
    assert min(size for text, size in sizes if text == "7") >= 200  # the table's number
