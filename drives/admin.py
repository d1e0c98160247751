"""Admin for rare repairs of drives, scoped so that staff of one club see only their club.
Day-to-day changes go through the organizer's pages and the API (which audit them); the admin
is for what those cannot do. Tokens and seatings are shown, never edited."""

from django.contrib import admin

from drives.club_scope import ClubScopedAdmin
from drives.models import AuditEntry, Club, Couple, Drive, Game, Membership, Seat, Table


@admin.register(Club)
class ClubAdmin(ClubScopedAdmin):
    club_path = "id"
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name"]


@admin.register(Membership)
class MembershipAdmin(ClubScopedAdmin):
    list_display = ["user", "club", "role"]
    list_filter = ["role"]


@admin.register(Drive)
class DriveAdmin(ClubScopedAdmin):
    list_display = ["name", "date", "club", "state", "current_game", "games"]
    list_filter = ["state"]
    search_fields = ["name", "slug"]
    readonly_fields = ["slug", "state", "current_game", "seed", "created_at", "closed_at"]


@admin.register(Couple)
class CoupleAdmin(ClubScopedAdmin):
    club_path = "drive__club"
    list_display = ["number", "player1", "player2", "drive", "paid", "checked_in", "withdrawn_game"]
    list_filter = ["paid", "checked_in"]
    search_fields = ["player1", "player2"]
    readonly_fields = ["drive", "number", "token", "joined_game", "withdrawn_game"]


@admin.register(Table)
class TableAdmin(ClubScopedAdmin):
    club_path = "drive__club"
    list_display = ["number", "drive", "closed_game"]
    readonly_fields = ["drive", "number", "token", "closed_game"]


@admin.register(Game)
class GameAdmin(ClubScopedAdmin):
    club_path = "drive__club"
    list_display = ["number", "drive", "started_at", "finished_at"]
    readonly_fields = ["drive", "number", "started_at", "finished_at"]


@admin.register(Seat)
class SeatAdmin(ClubScopedAdmin):
    club_path = "game__drive__club"
    list_display = ["game", "table", "stays", "arrives"]
    readonly_fields = ["game", "table", "stays", "arrives"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ClubScopedAdmin):
    list_display = ["at", "drive", "user", "channel", "action", "subject"]
    list_filter = ["channel", "action"]
    readonly_fields = [
        "club",
        "drive",
        "at",
        "user",
        "channel",
        "action",
        "subject",
        "old",
        "new",
        "note",
    ]

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False
