"""Scoping the Django admin to a club: staff see and change only the rows of the clubs they
are organizers of; superusers see everything. Each admin class says how its rows reach a
club (``club_path``). ``ReadOnlyAdmin``: such rows shown, never changed, added or deleted."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django.http import HttpRequest

from drives.models import Membership


def organizer_club_ids(request: HttpRequest) -> list[int] | None:
    """The clubs the user organizes, or None for a superuser (no limit)."""
    user: Any = request.user
    if user.is_superuser:
        return None
    if not hasattr(request, "_organizer_club_ids"):
        request._organizer_club_ids = list(  # type: ignore[attr-defined]  # cached on the request
            Membership.objects.filter(user=user, role=Membership.Role.ORGANIZER).values_list(
                "club_id", flat=True
            )
        )
    return request._organizer_club_ids  # type: ignore[attr-defined,no-any-return]  # cached above


class ClubScopedAdmin(admin.ModelAdmin):  # type: ignore[type-arg]  # not subscriptable at run time
    """A ModelAdmin whose rows belong to a club through ``club_path`` (``"club"``,
    ``"drive__club"``, …). Foreign-key choices are limited the same way (accounts to the
    members of the user's clubs)."""

    club_path = "club"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        queryset = super().get_queryset(request)
        clubs = organizer_club_ids(request)
        if clubs is None:
            return queryset
        return queryset.filter(**{f"{self.club_path}__in": clubs})

    def _allowed(self, request: HttpRequest, obj: Any = None) -> bool:
        clubs = organizer_club_ids(request)
        if clubs is None:
            return True
        if not clubs:
            return False
        if obj is None:
            return True
        return self.get_queryset(request).filter(pk=obj.pk).exists()

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_staff) and self._allowed(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_staff) and self._allowed(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_staff) and self._allowed(request, obj)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        clubs = organizer_club_ids(request)
        related = db_field.related_model
        if clubs is not None and related is not None:
            path = _club_path_of(related)
            if related is get_user_model():
                # Accounts: only the members of the user's clubs, never every account.
                path = "memberships__club"
            if path is not None:
                kwargs["queryset"] = related._default_manager.filter(
                    **{f"{path}__in": clubs}
                ).distinct()
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class ReadOnlyAdmin(ClubScopedAdmin):
    """Shown, never changed, added or deleted."""

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _club_path_of(model: Any) -> str | None:
    name = model.__name__
    return {
        "Club": "id",
        "Drive": "club",
        "Couple": "drive__club",
        "Table": "drive__club",
        "Game": "drive__club",
        "Seat": "game__drive__club",
        "Result": "game__drive__club",
    }.get(name)
