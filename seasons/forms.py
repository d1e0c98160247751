"""Forms of the season pages. They check what was typed by the rules of ``drives.inputs`` (a
season's name and dates, a player's name: the words the API and the command line use) and
offer the club's drives or the season's players to choose from; the season's rules (dates in
order, a drive in one season, a player not merged with itself) are ``seasons.services``' to
judge, and a refusal comes back as a form error."""

from __future__ import annotations

from typing import Any, ClassVar, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from drives import inputs
from drives.forms import PlainForm, RuledForm
from drives.inputs import Rule
from drives.models import Drive


class SeasonForm(RuledForm):
    rules: ClassVar[dict[str, tuple[Rule, ...]]] = {
        "name": inputs.SEASON_NAME,
        "starts": (inputs.SEASON_DATE,),
        "ends": (inputs.SEASON_DATE,),
    }

    name = forms.CharField(
        label=_("Season name"),
        help_text=_("e.g. Fall and winter 2026–27"),
        **inputs.SEASON_NAME_LENGTH.form_options(field="name"),
    )
    starts = forms.DateField(
        label=_("From"),
        widget=forms.DateInput(attrs={"type": "date"}),
        **inputs.SEASON_DATE.form_options(field="starts"),
    )
    ends = forms.DateField(
        label=_("To"),
        widget=forms.DateInput(attrs={"type": "date"}),
        **inputs.SEASON_DATE.form_options(field="ends"),
    )
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


class SplitForm(RuledForm):
    rules: ClassVar[dict[str, tuple[Rule, ...]]] = {
        "name": inputs.SPELLING,
        "as_name": inputs.SPELLING,
    }

    drive = forms.ChoiceField(label=_("At the drive"))
    name = forms.CharField(
        label=_("the player named"), **inputs.SPELLING_LENGTH.form_options(field="name")
    )
    as_name = forms.CharField(
        label=_("is another person: count them as"),
        help_text=_("e.g. John MacDonald (Judique)"),
        **inputs.SPELLING_LENGTH.form_options(field="as_name"),
    )

    def __init__(self, *args: Any, drives: list[Drive], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["drive"]).choices = [
            (d.slug, _drive_label(d)) for d in drives
        ]
