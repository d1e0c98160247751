"""The night's money (admission, 50/50, raffles, payouts, the cash box).

``ready`` connects the door's hook: ``drives.signals.couple_paid`` is sent by the couple
services inside their transaction when a couple's "paid" tick changes (at the door, in the
API, at registration); ``money.services.on_couple_paid`` writes (or reverses) the entry fee's
ledger line in that same transaction. A signal, because the door (``drives``) and the API
(``scoring.api``, ``api``) lie below this app and may not import it; the tick and its line are
committed together or not at all. ``drives.signals.couple_deleted`` refunds a deleted
couple's entry fee (``money.services.on_couple_deleted``) the same way. ``ready`` also adds
the ledger to the drive's export and restore (``scoring.records.parts``), and the treasurer's
sheet to the printed documents (``scoring.printing.parts``), and registers the reader of the
takings that prizes' shares are shares of (``scoring.prizes.takings``)."""

from django.apps import AppConfig


class MoneyConfig(AppConfig):
    name = "money"
    verbose_name = "The night's money"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from drives.signals import couple_deleted, couple_paid
        from money import printing, records, selectors, services
        from scoring.printing.parts import register as register_document
        from scoring.prizes.takings import register as register_takings
        from scoring.records.parts import register

        couple_paid.connect(services.on_couple_paid, dispatch_uid="money.entry_fee")
        couple_deleted.connect(services.on_couple_deleted, dispatch_uid="money.entry_refund")
        register(records.PART)
        register_document(printing.DOCUMENT)
        register_takings(selectors.prize_takings)
