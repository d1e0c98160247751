"""``manage.py apitoken USERNAME``: print a new API token for that user (for
``Authorization: Bearer …``). The token is shown once; only its SHA-256 is stored, so a lost
token is replaced by running the command again (older tokens keep working)."""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext

from drives.services import api_token_create


class Command(BaseCommand):
    help = "Print a new API token for USERNAME (shown once; only its digest is stored)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")

    def handle(self, *args: Any, **options: Any) -> None:
        model = get_user_model()
        user = model.objects.filter(**{model.USERNAME_FIELD: options["username"]}).first()
        if user is None:
            raise CommandError(
                gettext("No user called %(options)s.") % {"options": f"{options['username']!r}"}
            )
        if not user.is_active:
            raise CommandError(
                gettext("The user %(options)s is not active.")
                % {"options": f"{options['username']!r}"}
            )
        self.stdout.write(api_token_create(user=user))
