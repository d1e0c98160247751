"""One person plays once a night: where the link by name (0014, or the door before this
migration) made one player of two people of the same name in one night, the later couple's
person becomes a new player of the club, named as written there. The organizer merges them
back on the players page if they were one person after all."""

from __future__ import annotations

from typing import Any

from django.db import migrations


def split(apps: Any, schema_editor: Any) -> None:
    Couple = apps.get_model("drives", "Couple")
    Player = apps.get_model("drives", "Player")
    couples = (
        Couple.objects.filter(withdrawn_game__isnull=True)
        .select_related("drive", "member1", "member2")
        .order_by("drive_id", "number")
    )
    seen: set[int] = set()
    night = None
    for couple in couples.iterator(chunk_size=2000):
        if couple.drive_id != night:
            night, seen = couple.drive_id, set()
        changed = []
        for field, name in (("member1", couple.player1), ("member2", couple.player2)):
            member = getattr(couple, field)
            if member is None:
                continue
            if member.pk in seen:
                member = Player.objects.create(
                    club_id=member.club_id,
                    name=name,
                    key=member.key,
                    created_at=couple.drive.created_at,
                )
                setattr(couple, field, member)
                changed.append(field)
            seen.add(member.pk)
        if changed:
            couple.save(update_fields=changed)


class Migration(migrations.Migration):
    dependencies = [("drives", "0014_couples_link_players")]

    operations = [migrations.RunPython(split, migrations.RunPython.noop)]
