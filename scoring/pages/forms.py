"""Forms of the organizer's dashboard: starting the night, correcting or settling a table's
result, and the holes counted on the punch cards. The numbers' bounds and words are their
rules' (``drives.inputs``); whether the night accepts them is for ``drives.services`` and
``scoring.services`` to say."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from django import forms
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from drives import inputs
from drives.forms import PlainForm, RuledForm
from drives.inputs import Rule
from drives.models import Couple, Drive


class StartForm(RuledForm):
    rules: ClassVar[dict[str, tuple[Rule, ...]]] = {
        "seating": (inputs.FIRST_SEATING,),
        "seed": (inputs.SEED,),
    }

    seating = forms.ChoiceField(
        label=_("Seat game 1"),
        choices=Drive.FirstSeating.choices,
        widget=forms.RadioSelect,
        **inputs.FIRST_SEATING.form_options(),
    )
    seed = forms.IntegerField(
        label=_("Seed of the shuffle"),
        required=False,
        help_text=_("Only when shuffling. Leave empty: one is drawn and recorded."),
        **inputs.SEED.form_options(),
    )

    absent = forms.ChoiceField(
        label=_("Couples not checked in"),
        choices=[
            ("seat", _("Seat them anyway")),
            ("withdraw", _("Leave them out (withdrawn before game 1)")),
        ],
        widget=forms.RadioSelect,
        error_messages={"required": _("Say what to do with the couples not checked in.")},
    )

    def __init__(
        self, *args: Any, drive: Drive, absent: list[Any] | None = None, **kwargs: Any
    ) -> None:
        """``absent``: the couples not checked in (not withdrawn); when there are any, the
        form asks what to do with them (no answer is chosen for the organizer)."""
        kwargs.setdefault("initial", {"seating": drive.first_seating, "seed": drive.seed})
        kwargs.setdefault("prefix", "start")
        super().__init__(*args, **kwargs)
        self.not_checked_in = absent or []
        if not self.not_checked_in:
            del self.fields["absent"]
            return
        count = len(self.not_checked_in)
        shown = ", ".join(str(c.number) for c in self.not_checked_in[:30])
        more = "…" if count > 30 else ""
        self.fields["absent"].label = ngettext(
            "%(count)s couple is not checked in (number %(numbers)s%(more)s):",
            "%(count)s couples are not checked in (numbers %(numbers)s%(more)s):",
            count,
        ) % {"count": count, "numbers": shown, "more": more}


class CorrectionForm(RuledForm):
    """Settle a conflict or correct any table of any game, with a reason."""

    rules: ClassVar[dict[str, tuple[Rule, ...]]] = {
        "game": (inputs.GAME,),
        "table": (inputs.TABLE,),
        "winner": (inputs.WINNER,),
        "reason": inputs.REASON,
    }

    game = forms.IntegerField(label=_("Game"), **inputs.GAME.form_options())
    table = forms.IntegerField(label=_("Table"), **inputs.TABLE.form_options())
    winner = forms.IntegerField(label=_("Winning couple"), **inputs.WINNER.form_options())
    reason = forms.CharField(
        label=_("Reason"),
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Say why, for the record: e.g. “both couples agree 12 won”."),
        **inputs.form_options_of(inputs.REASON),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "fix")
        super().__init__(*args, **kwargs)
        for name in ("game", "table", "winner"):
            self.fields[name].widget.attrs.update({"inputmode": "numeric"})


class LeanNumberInput(forms.NumberInput):
    """Django's number input with the same markup, written in Python rather than through the
    form renderer's template: the holes form has a box a couple (500 on a big night), and the
    template costs the dashboard about 0.2 ms a box."""

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        parts = [f'<input type="{escape(widget["type"])}" name="{escape(widget["name"])}"']
        if widget["value"] is not None:
            parts.append(f' value="{escape(widget["value"])}"')
        for key, given in widget["attrs"].items():
            if given is True:
                parts.append(f" {escape(key)}")
            elif given is not False:
                parts.append(f' {escape(key)}="{escape(given)}"')
        parts.append(">")
        return mark_safe("".join(parts))


class HolesForm(PlainForm):
    """The holes counted on each couple's punch card; an empty box is a card not yet counted."""

    def __init__(self, *args: Any, couples: Iterable[Couple], games: int, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "holes")
        super().__init__(*args, **kwargs)
        self.numbers: list[int] = []
        options = inputs.HOLES_COUNT.form_options()
        del options["error_messages"]["max_value"]  # more than the night's games
        for couple in couples:
            self.numbers.append(couple.number)
            self.fields[str(couple.number)] = forms.IntegerField(
                label=str(couple.number),
                required=False,
                max_value=games,
                initial=couple.holes,
                widget=LeanNumberInput(attrs={"inputmode": "numeric", "class": "holes"}),
                **options,
            )

    def holes(self) -> dict[int, int]:
        """Couple number → holes, for the boxes filled in."""
        return {
            number: self.cleaned_data[str(number)]
            for number in self.numbers
            if self.cleaned_data.get(str(number)) is not None
        }
