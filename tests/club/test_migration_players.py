"""drives 0014: the couples of the nights played before the club kept its players are linked
by name once: one player per name (case, accents and spaces ignored) and club, named as first
written, the same names at two clubs two players."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("drives", "0012_drive_slow_table_minutes")]
AFTER = [("drives", "0014_couples_link_players")]


def migrate(targets: list[tuple[str, str]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection)


def test_older_couples_are_linked_to_one_player_per_name() -> None:
    old = migrate(BEFORE).loader.project_state(BEFORE).apps
    Club = old.get_model("drives", "Club")
    Drive = old.get_model("drives", "Drive")
    Couple = old.get_model("drives", "Couple")
    ours = Club.objects.create(name="St. Joseph's Parish", slug="st-josephs")
    theirs = Club.objects.create(name="Legion Branch 12", slug="legion-12")
    later = Drive.objects.create(club=ours, slug="later", name="Friday", date=date(2026, 11, 13))
    first = Drive.objects.create(club=ours, slug="first", name="Friday", date=date(2026, 11, 6))
    there = Drive.objects.create(club=theirs, slug="there", name="Friday", date=date(2026, 11, 6))
    Couple.objects.create(drive=first, number=1, player1="Thérèse MacNeil", player2="Joe Ng")
    Couple.objects.create(drive=later, number=1, player1="THERESE  macneil", player2="Dan Gillis")
    Couple.objects.create(drive=there, number=1, player1="Thérèse MacNeil", player2="Joe Ng")
    try:
        new = migrate(AFTER).loader.project_state(AFTER).apps
        Couple = new.get_model("drives", "Couple")
        Player = new.get_model("drives", "Player")
        a = Couple.objects.get(drive__slug="first")
        b = Couple.objects.get(drive__slug="later")
        assert a.member1_id == b.member1_id
        assert Player.objects.get(pk=b.member1_id).name == "Thérèse MacNeil"
        assert sorted(Player.objects.filter(club_id=ours.pk).values_list("name", flat=True)) == [
            "Dan Gillis",
            "Joe Ng",
            "Thérèse MacNeil",
        ]
        c = Couple.objects.get(drive__slug="there")
        assert c.member1_id != a.member1_id
        assert Player.objects.filter(club_id=theirs.pk).count() == 2
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def test_two_people_of_one_name_in_one_night_become_two_players() -> None:
    old = migrate(BEFORE).loader.project_state(BEFORE).apps
    Club = old.get_model("drives", "Club")
    Drive = old.get_model("drives", "Drive")
    Couple = old.get_model("drives", "Couple")
    ours = Club.objects.create(name="St. Joseph's Parish", slug="st-josephs")
    first = Drive.objects.create(club=ours, slug="first", name="Friday", date=date(2026, 11, 6))
    later = Drive.objects.create(club=ours, slug="later", name="Friday", date=date(2026, 11, 13))
    Couple.objects.create(drive=first, number=1, player1="John MacNeil", player2="Joe Ng")
    Couple.objects.create(drive=later, number=1, player1="John MacNeil", player2="Dan Gillis")
    Couple.objects.create(drive=later, number=2, player1="john macneil", player2="Flora Gillis")
    try:
        target = [("drives", "0015_players_one_a_night")]
        new = migrate(target).loader.project_state(target).apps
        Couple = new.get_model("drives", "Couple")
        Player = new.get_model("drives", "Player")
        a = Couple.objects.get(drive__slug="first")
        b1 = Couple.objects.get(drive__slug="later", number=1)
        b2 = Couple.objects.get(drive__slug="later", number=2)
        # The first John keeps his history; the second of that night is another person.
        assert a.member1_id == b1.member1_id
        assert b2.member1_id != b1.member1_id
        assert Player.objects.get(pk=b2.member1_id).name == "john macneil"
        assert Player.objects.filter(club_id=ours.pk, key="john macneil").count() == 2
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
