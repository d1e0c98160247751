"""Forms of the organizer's setup pages: a club, a drive's settings, a couple at the door, a
couples CSV file. Each field's bounds and error words are its rule's (``drives.inputs``), and
``RuledForm.clean`` runs the same rules as the services, so a page refuses a value with the words
the API and the imports use; what depends on the night (a drive already started, a couple
already there) is the services' (``drives.services``) to judge, and comes back as a form error."""

from __future__ import annotations

from typing import Any, ClassVar, cast

from django import forms
from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from drives import inputs
from drives.errors import ServiceError
from drives.inputs import Rule
from drives.models import Club, Drive
from drives.rules_words import (
    RULE_ERRORS,
    RULE_FIELDS,
    RULESET_DESCRIPTIONS,
    SWITCH_WORDS,
    field_value,
)
from drives.signals import PAID_WAYS
from engine.rules import PRESETS, RulesetError, make_ruleset

# Settings the engine's movement needs fixed once game 1 is seated (drives.services agrees).
FIXED_ONCE_STARTED = ("games", "movement", "first_seating", "seed")


class PlainForm(forms.Form):
    """A form whose labels end without a colon (they sit above their box, or beside it)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


class RuledForm(PlainForm):
    """A form whose fields named in ``rules`` are checked by those rules (``drives.inputs``)
    once Django has read them: the value tidied as the services tidy it, or the rule's words
    on the field."""

    rules: ClassVar[dict[str, tuple[Rule, ...]]] = {}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name, rules in self.rules.items():
            if name in data and name not in self.errors:
                try:
                    data[name] = inputs.check_field(rules, data[name], field=name)
                except ServiceError as error:
                    self.add_error(name, error.message)
        return data


def ruleset_choices() -> list[tuple[str, Any]]:
    choices = []
    for name in PRESETS:
        title, description = RULESET_DESCRIPTIONS.get(name, (name, ""))
        label = format_html('<strong>{}</strong> <span class="hint">{}</span>', title, description)
        choices.append((name, label))
    return choices


class ClubForm(RuledForm):
    rules: ClassVar[dict[str, tuple[Rule, ...]]] = {"name": (inputs.CLUB_NAME,)}

    name = forms.CharField(
        label=_("Club name"),
        **inputs.CLUB_NAME.form_options(),
        help_text=_("Your parish, legion branch, fire hall or club, e.g. St. Joseph's Parish."),
        widget=forms.TextInput(attrs={"autocomplete": "organization"}),
    )


class DriveSettingsForm(RuledForm):
    """A drive's settings (without its club): the settings page, and the base of the new
    drive's form. Settings fixed once the night started are shown read-only."""

    rules: ClassVar[dict[str, tuple[Rule, ...]]] = {
        name: (rule,) for name, rule in inputs.SETTINGS.items()
    }

    name = forms.CharField(
        label=_("Name of the night"),
        **inputs.DRIVE_NAME.form_options(),
        help_text=_("e.g. Friday night 45s"),
    )
    date = forms.DateField(
        label=_("Date"),
        widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}),
        help_text=_("YYYY-MM-DD"),
        **inputs.DATE.form_options(),
    )
    venue = forms.CharField(label=_("Venue"), required=False, **inputs.VENUE.form_options())
    language = forms.ChoiceField(
        label=_("Language of the hall"),
        choices=settings.LANGUAGES,
        initial=settings.LANGUAGE_CODE,
        required=False,  # left out: the drive's own (a new drive's: the site's)
        help_text=_(
            "The projector, the pages of the tables and couples, the printed documents and "
            "the public results are in this language."
        ),
        **inputs.LANGUAGE.form_options(),
    )
    games = forms.IntegerField(
        label=_("Games"),
        initial=25,
        help_text=_("How many games are played (25 on a usual night)."),
        **inputs.GAMES_RULE.form_options(),
    )
    ruleset = forms.ChoiceField(
        label=_("Rules"),
        widget=forms.RadioSelect,
        initial="cape-breton-45",
        **inputs.RULESET.form_options(),
    )
    movement = forms.ChoiceField(
        label=_("Movement"),
        choices=Drive.Movement.choices,
        widget=forms.RadioSelect,
        initial=Drive.Movement.WINNERS_MOVE,
        **inputs.MOVEMENT.form_options(),
    )
    first_seating = forms.ChoiceField(
        label=_("First seating"),
        choices=Drive.FirstSeating.choices,
        widget=forms.RadioSelect,
        initial=Drive.FirstSeating.BY_NUMBER,
        help_text=_("By number: couples 1 and 2 at table 1, 3 and 4 at table 2, and so on."),
        **inputs.FIRST_SEATING.form_options(),
    )
    seed = forms.IntegerField(
        label=_("Seed of the shuffle"),
        required=False,
        help_text=_("Only for a shuffled seating. Leave empty: one is drawn and recorded."),
        **inputs.SEED.form_options(),
    )
    sit_out_counts_as_win = forms.BooleanField(
        label=_("A sit-out counts as a win"), required=False, initial=True
    )
    ranking = forms.ChoiceField(
        label=_("Places"),
        choices=Drive.Ranking.choices,
        widget=forms.RadioSelect,
        initial=Drive.Ranking.DENSE,
        **inputs.RANKING.form_options(),
    )
    entry_fee = forms.DecimalField(
        label=_("Entry fee"),
        initial=0,
        widget=forms.NumberInput(attrs={"step": "0.01", "inputmode": "decimal"}),
        **inputs.ENTRY_FEE.form_options(),
    )
    entry_fee_per = forms.ChoiceField(
        label=_("The entry fee is for"),
        choices=Drive.FeePer.choices,
        widget=forms.RadioSelect,
        initial=Drive.FeePer.PERSON,
        required=False,
        **inputs.ENTRY_FEE_PER.form_options(),
    )
    currency = forms.CharField(
        label=_("Currency"),
        initial="CAD",
        help_text=_("Three letters A–Z: CAD, USD, EUR, NZD…"),
        **inputs.CURRENCY.form_options(),
    )
    confirm_by_other_couple = forms.BooleanField(
        label=_("The other couple confirms a result entered at the table"),
        required=False,
        help_text=_("A result entered on a phone counts once the other couple confirms it."),
    )
    scorers_may_advance = forms.BooleanField(
        label=_("Scorers may start the next game"),
        required=False,
        initial=True,
        help_text=_("At the desk, once every table has reported. Organizers always may."),
    )
    slow_table_minutes = forms.IntegerField(
        label=_("Mark slow tables after (minutes)"),
        initial=3,
        required=False,
        help_text=_(
            "Once 80 % of the tables have reported, the desk and the projector mark the ones "
            "still playing after this many minutes. 0: never."
        ),
        **inputs.SLOW_TABLE_MINUTES.form_options(),
    )

    registration_opens = forms.DateTimeField(
        label=_("Registration opens"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_(
            "Couples may register before the night on the drive's public page from this time. "
            "Empty: no registration."
        ),
        **inputs.REGISTRATION_OPENS.form_options(),
    )
    registration_closes = forms.DateTimeField(
        label=_("Registration closes"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("Empty: when the night starts."),
        **inputs.REGISTRATION_CLOSES.form_options(),
    )
    capacity = forms.IntegerField(
        label=_("Capacity (couples)"),
        required=False,
        help_text=_(
            "The couples the registration takes; the next ones go on the wait list and move "
            "up when a couple cancels. Empty: no limit."
        ),
        **inputs.CAPACITY.form_options(),
    )

    def clean_entry_fee_per(self) -> str:
        """Not sent (a form from before the choice): the drive's own, or per person."""
        chosen: str = self.cleaned_data.get("entry_fee_per") or ""
        if chosen:
            return chosen
        return self.drive.entry_fee_per if self.drive is not None else Drive.FeePer.PERSON

    def clean_slow_table_minutes(self) -> int:
        """Not sent (a form from before the setting): the drive's own, or 3 minutes."""
        chosen = self.cleaned_data.get("slow_table_minutes")
        if chosen is not None:
            return int(chosen)
        return self.drive.slow_table_minutes if self.drive is not None else 3

    def clean_language(self) -> str:
        chosen: str = self.cleaned_data.get("language") or ""
        if chosen:
            return chosen
        return self.drive.language if self.drive is not None else settings.LANGUAGE_CODE

    def __init__(self, *args: Any, drive: Drive | None = None, **kwargs: Any) -> None:
        self.drive = drive
        if drive is not None and "initial" not in kwargs:
            kwargs["initial"] = {
                name: getattr(drive, name) for name in self.base_fields if hasattr(drive, name)
            } | {f"rule_{k}": field_value(v) for k, v in (drive.rules or {}).items()}
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["ruleset"]).choices = ruleset_choices()
        for name in RULE_FIELDS:
            label, example, options = SWITCH_WORDS[name]
            if name == "floor":
                field: forms.Field = forms.IntegerField(
                    label=label, help_text=example, required=False, min_value=-1000, max_value=-5
                )
            else:
                choices = [("", _("as the rules above say"))]
                choices += [(str(value), words) for value, words in options]
                field = forms.ChoiceField(
                    label=label, help_text=example, required=False, choices=choices
                )
            self.fields[f"rule_{name}"] = field
        self.fields["date"].initial = self.fields["date"].initial or timezone.localdate
        # A closed drive: every setting is fixed but the hall's language (the words, not the
        # results: drives.services.AFTER_CLOSE).
        self.read_only = drive is not None and drive.is_closed
        if drive is not None and drive.state != Drive.State.SETUP:
            names = (
                [name for name in self.fields if name != "language"]
                if self.read_only
                else FIXED_ONCE_STARTED
            )
            for name in names:
                field = self.fields[name]
                field.disabled = True
                if name in FIXED_ONCE_STARTED and not self.read_only:
                    field.help_text = _("Fixed: the night has started.")

    @property
    def rule_fields(self) -> list[forms.BoundField]:
        """The house-rule switches, in the order of the rule book."""
        return [self[f"rule_{name}"] for name in RULE_FIELDS]

    def clean(self) -> dict[str, Any]:
        """The switches chosen become ``rules`` (those that differ from the preset), checked
        with the engine: a switch that makes no sense with the preset is named."""
        data = super().clean() or {}
        preset = data.get("ruleset") or (self.drive.ruleset if self.drive else "cape-breton-45")
        rules: dict[str, Any] = {}
        if self.drive is not None and preset == self.drive.ruleset:
            # Options this page does not offer (a drive kept under the rules it was played
            # under, a custom bonus) stay as they are.
            rules = {k: v for k, v in (self.drive.rules or {}).items() if k not in RULE_FIELDS}
        for name in RULE_FIELDS:
            raw = data.pop(f"rule_{name}", None)
            if raw in (None, ""):
                continue
            if name == "floor":
                rules[name] = raw
                continue
            rules[name] = next(v for v, _w in SWITCH_WORDS[name][2] if str(v) == raw)
        try:
            make_ruleset(preset, **rules)
        except RulesetError as error:
            named = [n for n in RULE_FIELDS if error.message.startswith(n)]
            self.add_error(
                f"rule_{named[0]}" if named else None, RULE_ERRORS.get(error.code, error.message)
            )
        data["rules"] = rules
        return data

    def changes(self) -> dict[str, Any]:
        """The settings that differ from the drive's (disabled fields never do); the rules go
        with a new preset, so that they are checked against it."""
        changed = {
            name: value
            for name, value in self.cleaned_data.items()
            if name in self.fields
            and not self.fields[name].disabled
            and value != getattr(self.drive, name)
        }
        rules = self.cleaned_data.get("rules", {})
        if "ruleset" in changed or rules != (self.drive.rules if self.drive else {}):
            changed["rules"] = rules
        return changed


class DriveCreateForm(DriveSettingsForm):
    """A new drive: its club (one the user organizes) and its settings."""

    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.none(), empty_label=None)

    field_order = ("club", "name", "date", "venue")

    def __init__(self, *args: Any, clubs: QuerySet[Club], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast("forms.ModelChoiceField[Club]", self.fields["club"]).queryset = clubs

    def settings(self) -> dict[str, Any]:
        return {k: v for k, v in self.cleaned_data.items() if k != "club"}


class CoupleNamesForm(RuledForm):
    """A couple's two names, to correct a spelling from the couples list."""

    rules: ClassVar[dict[str, tuple[Rule, ...]]] = {
        "player1": inputs.PLAYER,
        "player2": inputs.PLAYER,
    }

    player1 = forms.CharField(
        label=_("First player"),
        widget=forms.TextInput(
            attrs={"autofocus": True, "autocomplete": "off", "autocapitalize": "words"}
        ),
        **inputs.form_options_of(inputs.PLAYER),
    )
    player2 = forms.CharField(
        label=_("Second player"),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "words"}),
        **inputs.form_options_of(inputs.PLAYER),
    )


class CoupleForm(CoupleNamesForm):
    """A couple at the door: the fast form that comes back ready for the next couple."""

    paid = forms.BooleanField(label=_("Paid"), required=False)
    # How they paid, with "Paid" (the night's money records it; cash unless another is picked).
    paid_way = forms.ChoiceField(
        label=_("Paid by"), choices=PAID_WAYS, initial=PAID_WAYS[0][0], required=False
    )
    cookie_jar = forms.BooleanField(label=_("Cookie jar"), required=False)
    checked_in = forms.BooleanField(label=_("Here now (checked in)"), required=False, initial=True)
    # Set by the "register anyway" button once the page said the names are a couple already.
    duplicate_ok = forms.BooleanField(required=False, widget=forms.HiddenInput)
    # The club's player chosen for each name (the type-ahead, static/js/players.js, or the
    # question of which one when the club has two of the name); empty: found by the name.
    player1_id = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    player2_id = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)

    def __init__(self, *args: Any, autofocus: bool = True, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "%s")  # ids "player1", "player2": the browser tests' hooks
        super().__init__(*args, **kwargs)
        if not autofocus:
            del self.fields["player1"].widget.attrs["autofocus"]
        self.duplicate_of: int | None = None  # the couple these names already are, once asked
        # Which name the club has several players of, and them, once asked (which_player).
        self.which: dict[str, Any] | None = None

    def couple(self) -> dict[str, Any]:
        couple = dict(self.cleaned_data)
        ids = [couple.pop("player1_id", None), couple.pop("player2_id", None)]
        if any(ids):
            couple["player_ids"] = ids
        return couple


class CouplesCsvForm(PlainForm):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_(
            "A header line player1,player2 (columns paid, checked_in, cookie_jar may follow, "
            "as yes or no), then one couple a line."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv"}),
    )
    allow_duplicates = forms.BooleanField(
        label=_("Add them again"),
        required=False,
        help_text=_(
            "Register the couples already registered (or listed twice) as new couples anyway."
        ),
    )
