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


class ClubSiteForm(forms.Form):
    """The club's site as the hall's laptop knows it: where nights are published."""

    site_url = forms.CharField(
        label=_("The club's site"),
        required=False,
        max_length=200,
        widget=forms.URLInput(attrs={"placeholder": "https://club.example.org"}),
        help_text=_("The address of the club's own installation of the app."),
    )
    site_token = forms.CharField(
        label=_("API token on the site"),
        required=False,
        max_length=200,
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
        help_text=_("An organizer's token there. Left empty, the token kept stays."),
    )
    forget_token = forms.BooleanField(label=_("Forget the token kept"), required=False)
    publish_at_close = forms.BooleanField(
        label=_("Publish each night to the site at its close"),
        required=False,
        help_text=_(
            "Sent in the background once the night is closed, tried again while the site "
            "cannot be reached; the night is never held up."
        ),
    )
