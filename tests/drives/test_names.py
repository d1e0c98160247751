"""drives.names: when two registrations are the same couple (the same two people in either
order, ignoring case, accents, invisible characters and spaces), and which couple of a drive
that is."""

from datetime import date
from typing import Any

import pytest

from drives.models import AuditEntry
from drives.names import couple_key, couples_matching, name_key
from drives.services import Actor, club_create, couple_update, couples_register, drive_create

DESK = Actor(channel=AuditEntry.Channel.DESK)


@pytest.mark.parametrize(
    ("written", "same_as"),
    [
        ("MARY MACDONALD", "Mary MacDonald"),
        ("  Mary \t MacDonald ", "Mary MacDonald"),
        ("Thérèse Aucoin", "therese aucoin"),
        ("Thére\u0300se Aucoin", "Thérèse Aucoin"),  # a combining accent, not a precomposed one
        ("Zoë\u200b O\u2019Neil", "zoe o\u2019neil"),  # a zero-width space inside
        ("Mary\u00a0MacDonald", "Mary MacDonald"),  # a no-break space
        ("STRAẞE", "strasse"),
        ("ﬁona", "Fiona"),  # a ligature
    ],
)
def test_names_are_compared_without_case_accents_or_spacing(written: str, same_as: str) -> None:
    assert name_key(written) == name_key(same_as)


@pytest.mark.parametrize(
    ("one", "other"),
    [("Mary MacDonald", "Mary McDonald"), ("Ann", "Anne"), ("Jean", "Joan"), ("Ève", "Eva")],
)
def test_different_names_stay_different(one: str, other: str) -> None:
    assert name_key(one) != name_key(other)


def test_a_couple_is_the_same_in_either_order() -> None:
    assert couple_key("Mary MacDonald", "Angus MacDonald") == couple_key(
        "angus macdonald", "MARY MACDONALD"
    )
    assert couple_key("Mary", "Angus") != couple_key("Mary", "Mary")


@pytest.mark.django_db
def test_couples_matching_finds_the_registered_couple_in_one_query(
    django_assert_num_queries: Any,
) -> None:
    drive = drive_create(club=club_create(name="Legion Branch 12"), name="F", date=date.today())
    couples_register(
        drive=drive,
        couples=[
            {"players": ["Mary MacDonald", "Angus MacDonald"]},
            {"players": ["Thérèse Aucoin", "Joe Aucoin"]},
            {"players": ["Flora Gillis", "Dan Gillis"]},
            {"players": ["Flora Gillis", "Dan Gillis"]},  # registered twice: the first counts
        ],
    )
    with django_assert_num_queries(1):
        found = couples_matching(
            drive=drive,
            players=[
                ("angus macdonald", "Mary  MacDonald"),
                ("THERESE AUCOIN", "Joe Aucoin"),
                ("Mary MacDonald", "Joe Aucoin"),
                ("Dan Gillis", "Flora Gillis"),
            ],
        )
    assert [c.number if c else None for c in found] == [1, 2, None, 3]


@pytest.mark.django_db
def test_a_withdrawn_couple_and_another_drives_couple_are_no_match() -> None:
    club = club_create(name="Legion Branch 12")
    drive = drive_create(club=club, name="Friday", date=date(2026, 11, 20))
    other = drive_create(club=club, name="Saturday", date=date(2026, 11, 21))
    couples_register(drive=other, couples=[{"players": ["Ann", "Bob"]}])
    (couple,) = couples_register(drive=drive, couples=[{"players": ["Cy", "Di"]}])
    assert couples_matching(drive=drive, players=[("Ann", "Bob"), ("Di", "Cy")])[1] == couple
    assert couples_matching(drive=drive, players=[("Ann", "Bob")]) == [None]
    couple_update(couple=couple, actor=DESK, withdrawn=True)
    assert couples_matching(drive=drive, players=[("Cy", "Di")]) == [None]
