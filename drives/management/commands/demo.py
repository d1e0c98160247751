"""``manage.py demo``: make the demo organizer, so that ``make run`` can be tried at once.

Safe to run any number of times: it creates what is missing and leaves the rest as it is
(resetting the demo password, so the credentials it prints always work).
"""

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

DEMO_USERNAME = "organizer"
# Published on purpose: this account exists only on demo installations.
DEMO_PASSWORD = "forty-five"


class Command(BaseCommand):
    help = "Create the demo organizer (a superuser) if missing, and print how to log in."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--url",
            default="http://127.0.0.1:8000/",
            help="The address to print for logging in (default: %(default)s).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.DEMO_COMMAND_ALLOWED:
            raise CommandError(
                "The demo command is turned off here (it makes a superuser with a published "
                "password). Set DEMO_COMMAND_ALLOWED=true to allow it."
            )
        user_model = get_user_model()
        with transaction.atomic():
            user, created = user_model.objects.get_or_create(
                username=DEMO_USERNAME,
                defaults={"first_name": "Demo", "last_name": "Organizer"},
            )
            changed = created
            for field in ("is_staff", "is_superuser", "is_active"):
                if not getattr(user, field):
                    setattr(user, field, True)
                    changed = True
            if not user.check_password(DEMO_PASSWORD):
                user.set_password(DEMO_PASSWORD)
                changed = True
            if changed:
                user.save()

        state = "created" if created else "already there"
        url = options["url"]
        lines = [
            f"Demo organizer {state}. Log in at {url}accounts/login/ with",
            f"    username: {DEMO_USERNAME}",
            f"    password: {DEMO_PASSWORD}",
            f"(the same account opens the admin at {url}admin/)",
        ]
        width = max(len(line) for line in lines)
        rule = "=" * width
        self.stdout.write(self.style.SUCCESS("\n".join([rule, *lines, rule])))
