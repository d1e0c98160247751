"""Admin for rare repairs of results, scoped to the staff member's clubs. Results are
corrected through the desk or the API (``resolve``), which keeps the versions and the audit;
here they are read-only."""

from django.contrib import admin

from drives.club_scope import ClubScopedAdmin
from scoring.models import Result, ResultVersion


class ResultVersionInline(admin.TabularInline):  # type: ignore[type-arg]
    model = ResultVersion
    extra = 0
    can_delete = False
    fields = ["at", "kind", "winner", "previous_winner", "channel", "user", "couple", "reason"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


@admin.register(Result)
class ResultAdmin(ClubScopedAdmin):
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

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False
