from django.contrib import admin

from drives.club_scope import ClubScopedAdmin
from seasons.models import Season


@admin.register(Season)
class SeasonAdmin(ClubScopedAdmin):
    list_display = ("name", "club", "starts", "ends", "published")
    list_filter = ("published",)
