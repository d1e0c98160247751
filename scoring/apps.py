from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scoring")

    def ready(self) -> None:
        # A result or one of its changes stored: its table's and its couples' phones' poll
        # keys are forgotten once committed (drives/pageboard.py), and their pages told
        # (drives/pagehub.py). Results are deleted only
        # with their drive, which forgets all of its keys (drives.apps).
        from django.db.models.signals import post_save

        from drives.models import Seat
        from drives.pageboard import cards_forget, seat_forget
        from scoring.models import Result, ResultVersion

        def result_changed(sender: object, instance: Result, **kwargs: object) -> None:
            if not Result.seat.is_cached(instance) or not Seat.table.is_cached(instance.seat):
                seat_forget(pk=instance.seat_id)  # read after the commit, not in the writer's
                return
            seat = instance.seat
            cards = [("table", seat.table_id)]
            cards += [("couple", pk) for pk in (seat.stays_id, seat.arrives_id) if pk]
            cards_forget(cards, seat.table.drive_id)

        def version_changed(sender: object, instance: ResultVersion, **kwargs: object) -> None:
            if ResultVersion.result.is_cached(instance):
                result_changed(sender, instance.result)
            else:
                seat_forget(result__pk=instance.result_id)

        post_save.connect(
            result_changed, sender=Result, dispatch_uid="pageboard-result", weak=False
        )
        post_save.connect(
            version_changed, sender=ResultVersion, dispatch_uid="pageboard-version", weak=False
        )
        # A night closed: published to the club's site when the club says so (docs/club-site.md).
        from drives.signals import drive_closed
        from scoring.records.tasks import publish_when_closed

        drive_closed.connect(publish_when_closed, dispatch_uid="publish-at-close")
