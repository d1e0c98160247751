"""The practice start page's house-rule switches: a few that change play most visibly, worded
as the drive's settings page words them (``drives.rules_words``); the engine judges them
(``practice.table.house_rules``)."""

from __future__ import annotations

from typing import Any, Final

from django import forms
from django.utils.translation import gettext_lazy as _

from drives.rules_words import SWITCH_WORDS

#: The switches the start page offers, in the rule book's order (the API takes them all).
PAGE_SWITCHES: Final = (
    "hearts_on_ace_lead",
    "renege",
    "equal_totals",
    "first_lead",
    "min_bid",
    "kitty",
    "unannounced_ace_lowest",
)


class HouseRulesForm(forms.Form):
    """One choice per switch; empty is "as the game says" (the preset)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in PAGE_SWITCHES:
            label, example, options = SWITCH_WORDS[name]
            choices = [("", _("as the game says"))]
            choices += [(str(value), words) for value, words in options]
            self.fields[name] = forms.ChoiceField(
                label=label, help_text=example, required=False, choices=choices
            )

    def rules(self) -> dict[str, Any]:
        """The switches chosen, with their stored values (call after ``is_valid``)."""
        chosen: dict[str, Any] = {}
        for name in PAGE_SWITCHES:
            raw = self.cleaned_data.get(name)
            if raw:
                chosen[name] = next(v for v, _w in SWITCH_WORDS[name][2] if str(v) == raw)
        return chosen
