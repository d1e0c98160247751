"""The players page's forms: a player's name and contact, a new player, a merge."""

from __future__ import annotations

from typing import ClassVar

from django import forms
from django.utils.translation import gettext_lazy as _

from club.services import MAX_EMAIL, MAX_PHONE
from drives import inputs
from drives.forms import RuledForm
from drives.inputs import Rule
from drives.models import Club


class PlayerNameForm(RuledForm):
    rules: ClassVar[dict[str, tuple[Rule, ...]]] = {"name": inputs.PLAYER}

    name = forms.CharField(
        label=_("Name"),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "words"}),
        **inputs.form_options_of(inputs.PLAYER),
    )


class PlayerForm(PlayerNameForm):
    """A player's name, phone and e-mail (the club's own: never shown publicly), and whether
    a member of the club."""

    phone = forms.CharField(
        label=_("Phone"),
        required=False,
        max_length=MAX_PHONE,
        widget=forms.TextInput(attrs={"type": "tel", "autocomplete": "off"}),
    )
    email = forms.CharField(
        label=_("E-mail"),
        required=False,
        max_length=MAX_EMAIL,
        widget=forms.TextInput(attrs={"type": "email", "autocomplete": "off"}),
        help_text=_("For the club's own use: never shown on a public page."),
    )
    member = forms.BooleanField(
        label=_("A member of the club"),
        required=False,
        help_text=_("Pays the members' entry fee where the drive has one."),
    )


class ClubSettingsForm(forms.Form):
    """What the club's public pages show of its players' names."""

    public_names = forms.ChoiceField(
        label=_("Players' names on the club's public pages"),
        choices=Club.PublicNames.choices,
        widget=forms.RadioSelect,
        help_text=_(
            "With no names, a player's page is not listed: each player reaches their own "
            "from their couple's page after the night."
        ),
    )
