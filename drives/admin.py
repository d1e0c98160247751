"""Admin for rare repairs of drives, scoped so that staff of one club see only their club.

Day-to-day changes go through the organizer's pages and the API; the admin is for what those
cannot reach. It changes a night's data the way they do: through the services
(``drives.services``), so that the same rules refuse a change (a form error on the field the
service names, the page answered 200 and nothing changed) and every change writes an audit
entry with the channel ``admin`` and the staff member who made it. What no service changes is
read-only here, and nothing is added or deleted: drives and couples are created on the
organizer's pages, the API or the command line, and a night's rows are never deleted one by
one. Tokens, seatings and the audit trail are shown, never edited.
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect

from drives.club_scope import ClubScopedAdmin, ReadOnlyAdmin
from drives.errors import ServiceError
from drives.models import AuditEntry, Club, Couple, Drive, Game, Membership, Seat, Table
from drives.services import (
    COUPLE_FLAGS,
    DRIVE_SETTINGS,
    Actor,
    couple_update,
    drive_update,
    holes_record,
    member_add,
)


def admin_actor(request: HttpRequest) -> Actor:
    """The audit's "who": the staff member, through the admin."""
    return Actor(user=request.user, channel=AuditEntry.Channel.ADMIN)


class _Rehearsed(Exception):
    """Rolls back a service call made only to check a form."""


class ServiceForm(forms.ModelForm):  # type: ignore[type-arg]  # not subscriptable at run time
    """An admin form whose changes a service makes (``apply``). ``clean`` rehearses them: the
    service runs in a savepoint that is rolled back, and its refusal becomes an error on the
    field it names (else on the form). ``ServiceAdmin.save_model`` then runs it for real."""

    actor: Actor  # set by ServiceAdmin.get_form

    def changes(self, names: tuple[str, ...]) -> dict[str, Any]:
        """The changed fields among ``names``, with their cleaned values."""
        return {name: self.cleaned_data[name] for name in self.changed_data if name in names}

    def apply(self, actor: Actor) -> None:
        raise NotImplementedError

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or self.cleaned_data
        if self.errors:
            return cleaned
        try:
            with transaction.atomic():
                self.apply(self.actor)
                raise _Rehearsed
        except _Rehearsed:
            pass
        except ServiceError as error:
            field = error.details.get("field")
            self.add_error(field if field in self.fields else None, error.message)
        return cleaned


class ServiceAdmin(ClubScopedAdmin):
    """A scoped admin whose changes go through the services (``form.apply``), audited with
    the channel ``admin``; nothing is added or deleted here."""

    form = ServiceForm

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        # A subclass of self.form, a ServiceForm, built by modelform_factory.
        form = cast("type[ServiceForm]", super().get_form(request, obj, change=change, **kwargs))
        form.actor = admin_actor(request)
        return form

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        form.apply(form.actor)

    def changeform_view(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return super().changeform_view(request, *args, **kwargs)
        except ServiceError as error:
            # Refused between the form's check and the save (another desk got there first):
            # nothing was written (the admin's transaction rolled back); say why.
            self.message_user(request, error.message, messages.ERROR)
            return HttpResponseRedirect(request.get_full_path())

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Club)
class ClubAdmin(ReadOnlyAdmin):
    club_path = "id"
    list_display = ["name", "slug", "created_at"]
    readonly_fields = ["name", "slug", "created_at"]
    search_fields = ["name"]


class MembershipForm(ServiceForm):
    def apply(self, actor: Actor) -> None:
        if self.changes(("role",)):
            member = self.instance
            member_add(
                club=member.club, user=member.user, role=self.cleaned_data["role"], actor=actor
            )


@admin.register(Membership)
class MembershipAdmin(ServiceAdmin):
    form = MembershipForm
    list_display = ["user", "club", "role"]
    list_filter = ["role"]
    readonly_fields = ["user", "club"]


class DriveForm(ServiceForm):
    def apply(self, actor: Actor) -> None:
        changes = self.changes(DRIVE_SETTINGS)
        if changes:
            drive_update(drive=self.instance, actor=actor, **changes)


@admin.register(Drive)
class DriveAdmin(ServiceAdmin):
    form = DriveForm
    list_display = ["name", "date", "club", "state", "current_game", "games"]
    list_filter = ["state"]
    search_fields = ["name", "slug"]
    readonly_fields = [
        "club",
        "slug",
        "state",
        "current_game",
        "seed",
        "created_at",
        "closed_at",
    ]


class CoupleForm(ServiceForm):
    def apply(self, actor: Actor) -> None:
        couple = self.instance
        changes = self.changes(("player1", "player2", *COUPLE_FLAGS))
        if changes:
            couple_update(couple=couple, actor=actor, **changes)
        if self.changes(("holes",)):
            try:
                holes_record(
                    drive=couple.drive,
                    holes={couple.number: self.cleaned_data["holes"]},
                    actor=actor,
                )
            except ServiceError as error:
                error.details.setdefault("field", "holes")
                raise


@admin.register(Couple)
class CoupleAdmin(ServiceAdmin):
    form = CoupleForm
    club_path = "drive__club"
    list_display = ["number", "player1", "player2", "drive", "paid", "checked_in", "withdrawn_game"]
    list_filter = ["paid", "checked_in"]
    search_fields = ["player1", "player2"]
    readonly_fields = [
        "drive",
        "number",
        "token",
        "joined_game",
        "withdrawn_game",
        "member1",
        "member2",
    ]


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    club_path = "drive__club"
    list_display = ["number", "drive", "closed_game"]
    readonly_fields = ["drive", "number", "token", "closed_game"]


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    club_path = "drive__club"
    list_display = ["number", "drive", "started_at", "finished_at"]
    readonly_fields = ["drive", "number", "started_at", "finished_at"]


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    club_path = "game__drive__club"
    list_display = ["game", "table", "stays", "arrives"]
    readonly_fields = ["game", "table", "stays", "arrives"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
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
