"""The sit-out is no table (``Drive.sit_out_last``): the drives already stored keep the
movement they were played with (False: the sit-out stays where a withdrawal leaves it and an
emptied table closes), so their seatings stay what the movement gives; new drives get True."""

from django.db import migrations, models

HELP = (
    "the tables played are 1..F without a hole and the sit-out is no table "
    "(engine.movement: sit_out_last); drives created before it keep their movement"
)


class Migration(migrations.Migration):
    dependencies = [
        ("drives", "0004_drive_scorers_may_advance"),
    ]

    operations = [
        # Every drive already there gets False ...
        migrations.AddField(
            model_name="drive",
            name="sit_out_last",
            field=models.BooleanField(default=False, help_text=HELP),
        ),
        # ... and the drives created from now on True.
        migrations.AlterField(
            model_name="drive",
            name="sit_out_last",
            field=models.BooleanField(default=True, help_text=HELP),
        ),
    ]
