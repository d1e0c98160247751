"""A practice game kept on the server: the table's state (``practice.table``) as JSON, under an
unguessable id, alive for a day after its last move."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.db import models
from django.utils import timezone

#: How long a game waits for its player after the last move.
LIFETIME = timedelta(days=1)


def expiry() -> datetime:
    return timezone.now() + LIFETIME


class PracticeGame(models.Model):
    # A random UUID (122 random bits): the id is the only key to the game.
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    state = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    expires_at = models.DateTimeField(default=expiry, db_index=True)

    class Meta:
        verbose_name = "practice game"

    def __str__(self) -> str:
        return f"practice game {self.id}"
