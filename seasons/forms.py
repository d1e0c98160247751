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


def _whole(rule: Rule, label: Any, help_text: Any) -> forms.Field:
    return forms.IntegerField(
        label=label,
        help_text=help_text,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        **rule.form_options(),
    )


def points_of(text: str) -> list[int] | str:
    """The points table as typed ("10, 8, 6, 5, 4": commas or spaces between), or the text
    itself when it is not whole numbers (the rule then refuses it with its words)."""
    parts = [p for p in text.replace(";", ",").replace(",", " ").split() if p]
    try:
        return [int(p) for p in parts]
    except ValueError:
        return text


class SeasonRulesForm(SeasonForm):
    """The season with its rules (the edit page): each rule in its own box, the rules together
    (N no more than M, a table of points for points) judged by ``seasons.services``."""

    # best_count and nights_planned may be empty: their boxes judge them (the rules' bounds).
    rules: ClassVar[dict[str, tuple[Rule, ...]]] = {
        **SeasonForm.rules,
        "qualify_nights": (inputs.SEASON_QUALIFY,),
        "scoring": (inputs.SEASON_SCORING,),
        "place_points": (inputs.SEASON_POINTS,),
        "improved_nights": (inputs.SEASON_IMPROVED,),
        "tie_break": (inputs.SEASON_TIES,),
        "final_size": (inputs.SEASON_FINAL,),
    }

    scoring = forms.ChoiceField(
        label=_("A night scores"),
        choices=[
            ("wins", _("its games won (the season counts total wins)")),
            ("points", _("points for the couple's place, from the table below")),
        ],
        widget=forms.RadioSelect,
        initial="wins",
        required=False,
        **inputs.SEASON_SCORING.form_options(),
    )
    place_points = forms.CharField(
        label=_("Points per place"),
        help_text=_("1st, 2nd, 3rd… place, e.g. 10, 8, 6, 5, 4; places past the list score 0"),
        required=False,
        max_length=400,
    )
    best_count = _whole(
        inputs.SEASON_BEST,
        _("Count each player's best nights"),
        _("how many nights count, e.g. 8; empty: every night counts"),
    )
    nights_planned = _whole(
        inputs.SEASON_OF,
        _("Nights in the season"),
        _("e.g. 12: nights after the 12th count for nothing; empty: the nights played so far"),
    )
    qualify_nights = _whole(
        inputs.SEASON_QUALIFY,
        _("Nights to qualify"),
        _("players with fewer nights are listed apart, below; 0: no minimum"),
    )
    tie_break = forms.ChoiceField(
        label=_("Players of equal score"),
        choices=[
            ("shared", _("share the place")),
            ("nights_won", _("more nights won first, then the better best night, else shared")),
            ("best_night", _("the better best night first, then more nights won, else shared")),
        ],
        widget=forms.RadioSelect,
        initial="shared",
        required=False,
        **inputs.SEASON_TIES.form_options(),
    )
    improved_nights = _whole(
        inputs.SEASON_IMPROVED,
        _("Most improved: compare the first and last nights, this many of each"),
        _(
            "e.g. 3: the biggest gain of the average of the last 3 nights over the first 3; "
            "0: no most improved"
        ),
    )
    final_size = _whole(
        inputs.SEASON_FINAL,
        _("Players in the season final"),
        _("the season's top players, listed for the door of the final; 0: no final"),
    )

    def clean_place_points(self) -> list[int] | str:
        return points_of(self.cleaned_data.get("place_points") or "")

    def clean(self) -> dict[str, Any]:
        """A rule not sent at all is left as it is (a box sent empty is judged)."""
        data = super().clean()
        for name in RULE_NAMES:
            if name not in self.data:
                data.pop(name, None)
                self.errors.pop(name, None)
        return data


RULE_NAMES = (
    "best_count",
    "nights_planned",
    "qualify_nights",
    "scoring",
    "place_points",
    "improved_nights",
    "tie_break",
    "final_size",
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
