"""The site's own wiring, done once Django's apps are loaded: the practice table's, the
seasons', the club's players' and the night's money's endpoints join the site's API
(``scoring.api.views.api``). Here rather than in ``config.urls`` because django-ninja takes
no router once anything has read the API's URLs or its description."""

from django.apps import AppConfig


class SiteConfig(AppConfig):
    name = "config"
    label = "site"
    verbose_name = "Site wiring"

    def ready(self) -> None:
        from money.api import router as money_api
        from practice.api import router as practice_api
        from scoring.api.views import api

        api.add_router("/", practice_api)

        from seasons.api import router as seasons_api

        api.add_router("/", seasons_api)
        api.add_router("/", money_api)  # the night's money (money/api.py)

        from club.api import router as club_api

        api.add_router("/", club_api)  # the club's players (club/api.py)
