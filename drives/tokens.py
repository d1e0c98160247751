"""Finding who a bearer token belongs to: an organizer's or scorer's API token, a table's
token (the QR code on the table card) or a couple's token (the QR code on the punch card).

All three are random (128 bits or more) and unique. A table or couple token is short (it is
printed as a QR code) and an API token long, so the length says which table to look in.
Only API tokens are stored as a digest; table and couple tokens are printed on cards and
stored as they are. What a token may do (its drive, its table, a closed drive) is
the API's business; this module only says whose it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.utils import timezone

from drives.models import ApiToken, Couple, Drive, Table

# A token longer than this is none of ours: answer without hashing or querying it.
MAX_TOKEN_LENGTH = 200
# Every token is secrets.token_urlsafe's: URL-safe base64. Anything else (a NUL, which
# PostgreSQL cannot even compare, a space, an invisible character) is none of ours either.
_TOKEN_CHARACTERS = re.compile("[A-Za-z0-9_-]+")
# Table and couple tokens fit their columns (22 characters as made); API tokens are longer
# (43), so one look-up settles a token of either sort.
CARD_TOKEN_LENGTH = Table._meta.get_field("token").max_length or 32
# last_used_at is written at most this often, so a scoreboard polling with a token does not
# turn every read into a write.
LAST_USED_RESOLUTION = timedelta(minutes=1)


@dataclass(frozen=True)
class TokenOwner:
    """Whose a token is: a user (``kind`` "user"), a table or a couple of one drive."""

    kind: str
    user: Any = None
    table: Table | None = None
    couple: Couple | None = None

    @property
    def drive(self) -> Drive | None:
        if self.table is not None:
            return self.table.drive
        if self.couple is not None:
            return self.couple.drive
        return None


def token_possible(raw: str, max_length: int = MAX_TOKEN_LENGTH) -> bool:
    """Whether ``raw`` could be a token at all; if not, it is nobody's, without a look-up."""
    return len(raw) <= max_length and _TOKEN_CHARACTERS.fullmatch(raw) is not None


def token_owner(raw: str) -> TokenOwner | None:
    """The owner of the raw token, or None if it is nobody's (or its user is inactive).
    One query for a table token, two for a couple's; an API token one (two when its
    ``last_used_at`` is written)."""
    if not token_possible(raw):
        return None
    if len(raw) <= CARD_TOKEN_LENGTH:
        # Table and couple tokens are short enough for a QR code; API tokens are longer.
        table = Table.objects.select_related("drive__club").filter(token=raw).first()
        if table is not None:
            return TokenOwner("table", table=table)
        couple = Couple.objects.select_related("drive__club").filter(token=raw).first()
        if couple is not None:
            return TokenOwner("couple", couple=couple)
        return None
    api_token = (
        ApiToken.objects.select_related("user")
        .filter(digest=ApiToken.digest_of(raw))
        .order_by()
        .first()
    )
    if api_token is not None:
        if not api_token.user.is_active:
            return None
        now = timezone.now()
        if api_token.last_used_at is None or now - api_token.last_used_at > LAST_USED_RESOLUTION:
            ApiToken.objects.filter(pk=api_token.pk).update(last_used_at=now)
        return TokenOwner("user", user=api_token.user)
    return None
