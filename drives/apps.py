from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DrivesConfig(AppConfig):
    name = "drives"
    verbose_name = _("Drives")

    def ready(self) -> None:
        # A drive, table or couple saved or deleted: the phones' poll keys of it are
        # forgotten once committed (drives/pageboard.py).
        from django.db.models.signals import post_delete, post_save

        from drives.models import Couple, Drive, Table
        from drives.pageboard import cards_forget, drive_forget

        def drive_gone(sender: object, instance: Drive, **kwargs: object) -> None:
            drive_forget(instance.pk)

        def table_gone(sender: object, instance: Table, **kwargs: object) -> None:
            cards_forget([("table", instance.pk)], instance.drive_id)

        def couple_gone(sender: object, instance: Couple, **kwargs: object) -> None:
            cards_forget([("couple", instance.pk)], instance.drive_id)

        for signal, signal_name in ((post_save, "save"), (post_delete, "delete")):
            signal.connect(
                drive_gone, sender=Drive, dispatch_uid="pageboard-drive-" + signal_name, weak=False
            )
            signal.connect(
                table_gone, sender=Table, dispatch_uid="pageboard-table-" + signal_name, weak=False
            )
            signal.connect(
                couple_gone,
                sender=Couple,
                dispatch_uid="pageboard-couple-" + signal_name,
                weak=False,
            )
