"""Hooks the apps above ``drives`` listen to (they may import drives; drives never imports
them).

``couple_paid``: a couple's "paid" tick changed (``couple_update``) or a couple was
registered already paid (``couples_register``). Sent inside the service's transaction, after
the couple is saved, with ``drive``, ``couple``, ``paid`` (the new value), ``actor`` and
``way`` (how it was paid, as the caller said, or None). A receiver that raises a
``ServiceError`` undoes the change with it. The night's money (``money.apps``) records the
entry fee from it.
"""

from django.dispatch import Signal

couple_paid = Signal()
