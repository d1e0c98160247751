"""Forms of the season pages. They check the shape of what was typed (a date, a choice among
the club's drives or the season's players); the season's rules (dates in order, a drive in one
season, a player not merged with itself) are ``seasons.services``' to judge, and a refusal
comes back as a form error."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from drives.models import Drive


class PlainForm(forms.Form):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


class SeasonForm(PlainForm):
    name = forms.CharField(
        label=_("Season name"), max_length=120, help_text=_("e.g. Fall and winter 2026–27")
    )
    starts = forms.DateField(label=_("From"), widget=forms.DateInput(attrs={"type": "date"}))
    ends = forms.DateField(label=_("To"), widget=forms.DateInput(attrs={"type": "date"}))
    published = forms.BooleanField(
        label=_("Publish the season standings (a public page anyone may read)"), required=False
    )


def _drive_label(drive: Drive) -> str:
    return f"{drive.date:%Y-%m-%d} · {drive.name}"


class AddDriveForm(PlainForm):
    drive = forms.ChoiceField(label=_("Drive"))

    def __init__(self, *args: Any, drives: list[Drive], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["drive"]).choices = [
            (d.slug, _drive_label(d)) for d in drives
        ]


class MergeForm(PlainForm):
    name = forms.ChoiceField(label=_("This spelling"))
    into = forms.ChoiceField(label=_("is the same person as"))

    def __init__(self, *args: Any, names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(n, n) for n in names]
        cast(forms.ChoiceField, self.fields["name"]).choices = choices
        cast(forms.ChoiceField, self.fields["into"]).choices = choices


class SplitForm(PlainForm):
    drive = forms.ChoiceField(label=_("At the drive"))
    name = forms.CharField(label=_("the player named"), max_length=80)
    as_name = forms.CharField(
        label=_("is another person: count them as"),
        max_length=80,
        help_text=_("e.g. John MacDonald (Judique)"),
    )

    def __init__(self, *args: Any, drives: list[Drive], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["drive"]).choices = [
            (d.slug, _drive_label(d)) for d in drives
        ]
