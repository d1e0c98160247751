"""The entry fee per person or per couple (``Drive.entry_fee_per``): the drives already
stored charged it per couple (the door's tick took the fee once a couple) and keep that;
new drives charge per person, as most halls say it ("$5 a person")."""

from django.db import migrations, models

CHOICES = [("person", "a person"), ("couple", "a couple")]


class Migration(migrations.Migration):
    dependencies = [
        ("drives", "0010_games_rule_in_inputs"),
    ]

    operations = [
        # Every drive already there charged per couple ...
        migrations.AddField(
            model_name="drive",
            name="entry_fee_per",
            field=models.CharField(
                choices=CHOICES, default="couple", max_length=8, verbose_name="entry fee per"
            ),
        ),
        # ... and the drives created from now on per person.
        migrations.AlterField(
            model_name="drive",
            name="entry_fee_per",
            field=models.CharField(
                choices=CHOICES, default="person", max_length=8, verbose_name="entry fee per"
            ),
        ),
    ]
