"""Hooks the apps above ``drives`` listen to (they may import drives; drives never imports
them).

``couple_paid``: a couple's "paid" tick changed (``couple_update``) or a couple was
registered already paid (``couples_register``). Sent inside the service's transaction, after
the couple is saved, with ``drive``, ``couple``, ``paid`` (the new value), ``actor`` and
``way`` (how it was paid, as the caller said, or None). A receiver that raises a
``ServiceError`` undoes the change with it. The night's money (``money.apps``) records the
entry fee from it.

``couple_deleted``: a couple registered by mistake is about to be deleted (``couple_delete``,
before the start), sent inside the service's transaction before the row goes, with ``drive``,
``couple`` and ``actor``. The night's money reverses the entry fee the couple paid (a refund
line), so the box's expected cash no longer counts it; committed with the deletion or not at
all.

``drive_closed``: the night was closed (``drive_close``), sent inside its transaction with
``drive`` and ``actor``. The night's publishing to the club's site (``scoring.records``) queues
it after the commit.
"""

from django.dispatch import Signal
from django.utils.translation import gettext_lazy as _

couple_paid = Signal()
couple_deleted = Signal()
drive_closed = Signal()

#: The ways a couple may pay at the door, cash first (the default), as the door's page offers
#: them with the "paid" tick; the same values as ``money.models.Way`` (a test holds them equal).
PAID_WAYS = (
    ("cash", _("cash")),
    ("card", _("card")),
    ("e-transfer", _("e-transfer")),
    ("other", _("other")),
)
