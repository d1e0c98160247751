"""Every couple registered before the club kept its players is linked to them by name, once:
the names of one key (``drives.names.name_key``: case, accents, invisible characters and
spaces ignored) are one player of the club, named as first written (at the club's earliest
night). Names that are close but not the same key are left to the organizer (the players
page lists them as possible duplicates, to merge)."""

from __future__ import annotations

import unicodedata
from typing import Any

from django.db import migrations


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(
        c for c in decomposed if not unicodedata.combining(c) and unicodedata.category(c) != "Cf"
    )


def name_key(name: str) -> str:
    """drives.names.name_key as it was when this migration was written."""
    return " ".join(_fold(_fold(name).casefold()).split())


def link(apps: Any, schema_editor: Any) -> None:
    Couple = apps.get_model("drives", "Couple")
    Player = apps.get_model("drives", "Player")
    couples = (
        Couple.objects.filter(member1__isnull=True)
        .select_related("drive")
        .order_by("drive__date", "drive_id", "number")
    )
    players: dict[tuple[int, str], Any] = {
        (p.club_id, p.key): p for p in Player.objects.order_by("-id")
    }
    for couple in couples.iterator(chunk_size=2000):
        members = []
        for name in (couple.player1, couple.player2):
            found = (couple.drive.club_id, name_key(name)[:160])
            if found not in players:
                players[found] = Player.objects.create(
                    club_id=found[0], name=name, key=found[1], created_at=couple.drive.created_at
                )
            members.append(players[found])
        couple.member1, couple.member2 = members
        couple.save(update_fields=["member1", "member2"])


class Migration(migrations.Migration):
    dependencies = [("drives", "0013_club_players")]

    operations = [migrations.RunPython(link, migrations.RunPython.noop)]
