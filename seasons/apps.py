from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "seasons"
    verbose_name = _("Seasons")

    def ready(self) -> None:
        # The season's part of a drive's export and restore (scoring.records: "season").
        from seasons.records import register_record_part

        register_record_part()
        # A night published from the hall counts in the season of its date.
        from scoring.records.publish import night_published
        from seasons.records import season_of_published

        night_published.connect(season_of_published, dispatch_uid="seasons.published")
        # The current season's standings on the club's public page (club.parts).
        from club.parts import register_season
        from seasons.selectors import club_season

        register_season(club_season)
        # manage.py drive season … (seasons/cli.py), imported only when the command runs.
        from scoring.management import SUBCOMMANDS

        SUBCOMMANDS["season"] = "seasons.cli"
