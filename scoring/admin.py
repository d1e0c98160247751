"""Admin of results, scoped to the staff member's clubs. Results are corrected through the
desk or the API (``resolve``), which keeps the versions and the audit; here they are shown
with their versions, never changed, added or deleted (drives.club_scope.ReadOnlyAdmin)."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from drives.club_scope import ReadOnlyAdmin
from scoring.models import Result, ResultVersion


class ResultVersionInline(admin.TabularInline):  # type: ignore[type-arg]  # not subscriptable at run time
    model = ResultVersion
    extra = 0
    can_delete = False
    readonly_fields = (
        "at",
        "kind",
        "winner",
        "previous_winner",
        "channel",
        "user",
        "couple",
        "reason",
    )
    fields = readonly_fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Result)
class ResultAdmin(ReadOnlyAdmin):
    club_path = "game__drive__club"
    list_display = ["game", "seat", "winner", "winner_points", "loser_points", "state"]
    list_filter = ["state"]
    readonly_fields = [
        "game",
        "seat",
        "winner",
        "winner_points",
        "loser_points",
        "verdict",
        "state",
    ]
    inlines = [ResultVersionInline]
