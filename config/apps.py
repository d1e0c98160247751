"""The site's own app (label ``site``). The API's routers are mounted in ``config.urls``,
where the URLs are built: django-ninja takes no router once its URLs have been read."""

from django.apps import AppConfig


class SiteConfig(AppConfig):
    name = "config"
    label = "site"
    verbose_name = "Site wiring"
