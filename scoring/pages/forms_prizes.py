"""Forms of the prize pages: the prize set-up, a round of a cut as cut at the table, a
play-off game's result, and the cookie jar draw. They check the shape of the input and turn
it into the arguments of ``scoring.prizes.services``; whether the night accepts it is the services'
to say (their errors are shown naming the problem)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from drives import inputs
from drives.forms import PlainForm
from scoring.models import PrizeCategory, PrizeSetup

MAX_PLACES = inputs.MAX_PLACES
_MONEY = re.compile(r"^\s*[$€£]?\s*(\d{1,8}(?:[.,]\d{1,})?)\s*$")
# "30%", "30 % entry", "30% of the pot", "30 % des entrées", "30 % de la cagnotte".
_SHARE = re.compile(
    r"^\s*(\d{1,3})\s*%\s*(?:of\s+)?(?:the\s+)?(?:de\s+la\s+|des\s+|du\s+|de\s+)?"
    r"(entry|entries|entry money|entrées?|entree?s?|pot)?\s*$",
    re.IGNORECASE,
)
_POT_WORDS = ("pot",)


def money_or_text(text: str) -> dict[str, Any] | None:
    """A prize as typed in one box: ``50`` or ``$50.00`` is money, ``30%`` (or ``30% entry``)
    a share of the entry money and ``30% pot`` a share of the pot, anything else a prize in
    kind (``a ham``); an empty box is no prize."""
    text = (text or "").strip()
    if not text:
        return None
    match = _MONEY.match(text)
    if match:
        return {"amount": match.group(1).replace(",", ".")}
    share = _SHARE.match(text)
    if share:
        base = "pot" if (share.group(2) or "").lower() in _POT_WORDS else "entry"
        return {"share_of": base, "percent": int(share.group(1))}
    return {"description": text}


def _same_money(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    try:
        return Decimal(str(a)) == Decimal(str(b))
    except InvalidOperation:
        return False


def _same_prize(a: dict[str, Any] | None, b: dict[str, Any] | None) -> bool:
    a = a or {"amount": None, "description": ""}
    b = b or {"amount": None, "description": ""}
    if a.get("share_of") or b.get("share_of"):
        return (a.get("share_of"), a.get("percent")) == (b.get("share_of"), b.get("percent"))
    return _same_money(a.get("amount"), b.get("amount")) and (a.get("description") or "") == (
        b.get("description") or ""
    )


#: How a cut is won, as the pages offer it: (value, label, highest card wins, aces high).
CUT_RULES = (
    ("low", _("Lowest card wins, aces low"), False, False),
    ("low-aces-high", _("Lowest card wins, aces high"), False, True),
    ("high", _("Highest card wins, aces high"), True, True),
    ("high-aces-low", _("Highest card wins, aces low"), True, False),
)


def cut_rule_of(setup: Mapping[str, Any]) -> str:
    """The set-up's ``cut_high_wins`` and ``cut_ace_high`` as one of ``CUT_RULES``."""
    for value, _label, high, ace_high in CUT_RULES:
        if (high, ace_high) == (bool(setup["cut_high_wins"]), bool(setup["cut_ace_high"])):
            return value
    return "low"  # pragma: no cover - the four cover every pair


def cut_fields(rule: str) -> dict[str, bool]:
    """A rule of ``CUT_RULES`` as ``prize_setup_update`` takes it."""
    for value, _label, high, ace_high in CUT_RULES:
        if value == rule:
            return {"cut_high_wins": high, "cut_ace_high": ace_high}
    raise ValueError(rule)


def prize_text(prize: Mapping[str, Any] | None) -> str:
    """A stored prize as it is typed in its box."""
    if not prize:
        return ""
    if prize.get("share_of"):
        return f"{prize['percent']}% {prize['share_of']}"
    if prize.get("amount") is not None:
        return str(prize["amount"])
    return str(prize.get("description") or "")


class PrizeSetupForm(PlainForm):
    """The drive's prizes. Each place's box holds an amount (``50.00``) or a prize in kind."""

    prize_places = forms.IntegerField(
        label=_("Prize places"),
        help_text=_("Change the number and save: the boxes below follow."),
        **inputs.PRIZE_PLACES.form_options(),
    )
    booby = forms.BooleanField(label=_("Booby prize"), required=False)
    booby_prize = forms.CharField(
        label=_("Booby prize"),
        required=False,
        max_length=200,
        help_text=_("An amount, or a prize in kind."),
    )
    booby_late_couples = forms.BooleanField(
        label=_("Late couples may take the booby prize too"),
        required=False,
        help_text=_("Otherwise only couples who played every game."),
    )
    cookie_jar = forms.BooleanField(label=_("Cookie jar"), required=False)
    cookie_jar_k = forms.IntegerField(
        label=_("Games drawn (K)"), **inputs.COOKIE_JAR_K.form_options()
    )
    # Typed as text ("$25,50" is understood: PrizeSetupForm.changes), judged by the rule.
    buy_in = forms.CharField(label=_("Buy-in"), max_length=12)
    jackpot_threshold = forms.IntegerField(
        label=_("Jackpot: at least this many wins"),
        required=False,
        **inputs.JACKPOT_THRESHOLD.form_options(),
    )
    jackpot_amount = forms.CharField(
        label=_("Jackpot amount"),
        required=False,
        max_length=12,
        help_text=_("Both or neither: every couple at or over the threshold shares it."),
    )
    cut_rule = forms.ChoiceField(
        label=_("Cuts"),
        choices=[(v, label) for v, label, *_rest in CUT_RULES],
        help_text=_("Many halls cut high: the highest card, aces high. Fixed once a cut begins."),
    )
    house_rule = forms.ChoiceField(
        label=_("House rule for ties"),
        choices=PrizeSetup.HouseRule.choices,
        **inputs.HOUSE_RULE.form_options(),
    )
    share_rounding = forms.ChoiceField(
        label=_("Shares rounded down to"),
        required=False,
        choices=[(unit, unit) for unit in inputs.SHARE_ROUNDINGS],
        help_text=_(
            "A prize typed as 30% (of the entry money) or 30% pot is paid rounded down to "
            "this; what is left over stays with the hall."
        ),
        **inputs.SHARE_ROUNDING.form_options(),
    )
    one_prize_per_couple = forms.BooleanField(
        label=_("One prize per couple"),
        required=False,
        help_text=_(
            "A couple in two prizes takes the better (a place, then the half-time prize, then "
            "the named prizes in their order, then the booby prize); the next couple moves up."
        ),
    )
    half_time_after = forms.IntegerField(
        label=_("Half-time prize after game"),
        required=False,
        **inputs.HALF_TIME_AFTER.form_options(),
    )
    half_time_prize = forms.CharField(
        label=_("Half-time prize"),
        required=False,
        max_length=200,
        help_text=_("An amount, a share (30%) or a prize in kind; leave the game empty for none."),
    )

    def __init__(self, *args: Any, current: Mapping[str, Any], **kwargs: Any) -> None:
        self.current = current
        places = [prize_text(p) for p in current["prizes"]]
        initial = {
            "prize_places": current["prize_places"],
            "booby": current["booby"],
            "booby_prize": prize_text(current["booby_prize"]),
            "booby_late_couples": current["booby_late_couples"],
            "cookie_jar": current["cookie_jar"],
            "cookie_jar_k": current["cookie_jar_k"],
            "buy_in": current["buy_in"],
            "jackpot_threshold": current["jackpot_threshold"],
            "jackpot_amount": current["jackpot_amount"] or "",
            "cut_rule": cut_rule_of(current),
            "house_rule": current["house_rule"],
            "share_rounding": current["share_rounding"],
            "one_prize_per_couple": current["one_prize_per_couple"],
            "half_time_after": (current["half_time"] or {}).get("after_game"),
            "half_time_prize": prize_text(current["half_time"]),
        } | {f"place_{i}": text for i, text in enumerate(places, 1)}
        kwargs.setdefault("initial", initial)
        kwargs.setdefault("prefix", "setup")
        super().__init__(*args, **kwargs)
        self.category_names: list[tuple[str, str, str, str]] = []
        stored = list(current.get("categories", []))
        for i in range(1, min(len(stored) + 1, inputs.MAX_CATEGORIES) + 1):
            self._category_fields(i, stored[i - 1] if i <= len(stored) else None)
        self.place_names = []
        for i in range(1, current["prize_places"] + 1):
            name = f"place_{i}"
            self.fields[name] = forms.CharField(
                label=_("Prize for place %(n)s") % {"n": i},
                required=False,
                max_length=200,
                error_messages={
                    "max_length": inputs.PRIZE_DESCRIPTION.form_options(field=f"prizes[{i - 1}]")[
                        "error_messages"
                    ]["max_length"]
                },
            )
            self.place_names.append(name)
        for name in ("cookie_jar_k", "jackpot_threshold", "prize_places", "half_time_after"):
            self.fields[name].widget.attrs["inputmode"] = "numeric"
        for name in ("buy_in", "jackpot_amount"):
            self.fields[name].widget.attrs["inputmode"] = "decimal"
        if current["cookie_jar"] and current.get("bought_in") and _same_money(current["buy_in"], 0):
            self.fields["buy_in"].help_text = _(
                "%(n)s couple(s) bought in at the door: what did each pay?"
            ) % {"n": current["bought_in"]}

    def _category_fields(self, i: int, stored: Mapping[str, Any] | None) -> None:
        """The boxes of the i-th named prize (an empty row after the stored ones adds one)."""
        names = tuple(f"category_{i}_{box}" for box in ("name", "rule", "after", "prize"))
        self.fields[names[0]] = forms.CharField(
            label=_("Named prize %(n)s") % {"n": i},
            required=False,
            max_length=inputs.MAX_CATEGORY_NAME,
            help_text=_("Like Hard luck."),
        )
        self.fields[names[1]] = forms.ChoiceField(
            label=_("Named prize %(n)s: its rule") % {"n": i},
            choices=PrizeCategory.Rule.choices,
            required=False,
        )
        self.fields[names[2]] = forms.IntegerField(
            label=_("Named prize %(n)s: after game (for the games won after game N)") % {"n": i},
            required=False,
            **inputs.CATEGORY_AFTER.form_options(),
        )
        self.fields[names[2]].widget.attrs["inputmode"] = "numeric"
        self.fields[names[3]] = forms.CharField(
            label=_("Named prize %(n)s: its prize") % {"n": i},
            required=False,
            max_length=200,
            help_text=_("An amount, a share (30%) or a prize in kind."),
        )
        if stored is not None:
            self.initial = dict(self.initial) | {
                names[0]: stored["name"],
                names[1]: stored["rule"],
                names[2]: stored.get("after_game"),
                names[3]: prize_text(stored),
            }
        self.category_names.append((names[0], names[1], names[2], names[3]))

    def category_rows(self) -> list[list[forms.BoundField]]:
        return [[self[name] for name in names] for names in self.category_names]

    def _categories(self) -> list[dict[str, Any]]:
        """The named prizes as typed: the rows with a name, in order."""
        out = []
        for name, rule, after, prize in self.category_names:
            typed = (self.cleaned_data.get(name) or "").strip()
            if not typed:
                continue
            one: dict[str, Any] = {"name": typed, "rule": self.cleaned_data.get(rule) or ""}
            if self.cleaned_data.get(after) is not None:
                one["after_game"] = self.cleaned_data[after]
            out.append(one | (money_or_text(self.cleaned_data.get(prize) or "") or {}))
        return out

    def place_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.place_names]

    def changes(self) -> dict[str, Any]:
        """What differs from the stored set-up, as ``prize_setup_update`` takes it (only the
        changes are sent: a fixed part left alone does not stop the others)."""
        data, now, out = self.cleaned_data, self.current, {}
        places = data["prize_places"]
        if places != now["prize_places"]:
            out["prize_places"] = places
        prizes = [money_or_text(data.get(name, "")) for name in self.place_names][:places]
        while prizes and prizes[-1] is None:
            prizes.pop()
        stored = now["prizes"][:places]
        if len(prizes) < len(stored) or not all(
            _same_prize(p, s) for p, s in zip(prizes, stored, strict=False)
        ):
            out["prizes"] = prizes
        for name in (
            "booby",
            "booby_late_couples",
            "cookie_jar",
            "house_rule",
            "cookie_jar_k",
            "one_prize_per_couple",
        ):
            if data[name] != now[name]:
                out[name] = data[name]
        if data["share_rounding"] and data["share_rounding"] != now["share_rounding"]:
            out["share_rounding"] = data["share_rounding"]
        half = None
        if data["half_time_after"] is not None:
            half = {"after_game": data["half_time_after"]}
            half |= money_or_text(data["half_time_prize"]) or {}
        stored = now["half_time"]
        if (half is None) != (stored is None) or (
            half is not None
            and stored is not None
            and (half["after_game"] != stored["after_game"] or not _same_prize(half, stored))
        ):
            out["half_time"] = half
        categories = self._categories()
        stored_categories = now.get("categories", [])
        if len(categories) != len(stored_categories) or not all(
            (c["name"], c["rule"], c.get("after_game")) == (s["name"], s["rule"], s["after_game"])
            and _same_prize(c, s)
            for c, s in zip(categories, stored_categories, strict=False)
        ):
            out["categories"] = categories
        if data["cut_rule"] != cut_rule_of(now):
            out |= cut_fields(data["cut_rule"])
        booby = money_or_text(data["booby_prize"])
        if not _same_prize(booby, now["booby_prize"]):
            out["booby_prize"] = booby
        if not _same_money(data["buy_in"].strip() or "0", now["buy_in"]):
            out["buy_in"] = data["buy_in"].strip().lstrip("$€£").replace(",", ".")
        amount = data["jackpot_amount"].strip().lstrip("$€£").replace(",", ".") or None
        if data["jackpot_threshold"] != now["jackpot_threshold"] or not _same_money(
            amount, now["jackpot_amount"]
        ):
            out["jackpot_threshold"] = data["jackpot_threshold"]
            out["jackpot_amount"] = amount
        return out


class BuyInForm(PlainForm):
    """The cookie jar's buy-in, asked for where couples bought in and none is set."""

    buy_in = forms.CharField(
        label=_("Buy-in per couple"),
        max_length=12,
        help_text=_("What each couple paid, like 2.00."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "jar")
        super().__init__(*args, **kwargs)
        self.fields["buy_in"].widget.attrs["inputmode"] = "decimal"

    def amount(self) -> str:
        typed: str = self.cleaned_data["buy_in"]
        return typed.strip().lstrip("$€£").strip().replace(",", ".")


class SettleForm(PlainForm):
    force = forms.BooleanField(
        label=_("Settle now, before the last game is complete"), required=False
    )


class CutCardsForm(PlainForm):
    """One round of a cut as cut at the table: the card each couple still cutting drew."""

    def __init__(self, *args: Any, couples: Iterable[int], **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "cut")
        super().__init__(*args, **kwargs)
        self.couples = list(couples)
        for n in self.couples:
            self.fields[f"card_{n}"] = forms.CharField(
                label=_("Couple %(n)s drew") % {"n": n},
                max_length=6,
                help_text=_("Like 7H, 10C, AS, QD (rank, then suit C D H S)."),
                widget=forms.TextInput(attrs={"autocomplete": "off", "size": 4}),
            )

    def cards(self) -> dict[int, str]:
        """Each couple's card as typed, spaces left out ("10 C" is 10C)."""
        return {n: "".join(self.cleaned_data[f"card_{n}"].split()) for n in self.couples}


class CutRuleForm(PlainForm):
    """How the cut is won, offered on the tie's page until the first card is cut."""

    rule = forms.ChoiceField(
        label=_("How does the hall cut?"),
        choices=[(v, label) for v, label, *_rest in CUT_RULES],
        widget=forms.RadioSelect,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "rule")
        super().__init__(*args, **kwargs)

    def rule_label(self) -> str:
        labels = {v: label for v, label, *_rest in CUT_RULES}
        return str(labels[self.cleaned_data["rule"]]).lower()


class CutDrawForm(PlainForm):
    """The cut drawn by the system: nothing to fill in (the seed is drawn by the server and
    recorded, so the draw can be checked); the form carries the services' refusals."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "draw")
        super().__init__(*args, **kwargs)


class PlayoffForm(PlainForm):
    """A play-off game's result: the match (``3-5``), the winner, optional final points."""

    match = forms.RegexField(regex=r"^\d{1,6}-\d{1,6}$", widget=forms.HiddenInput)
    winner = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    points = forms.CharField(label=_("Final points (optional)"), required=False, max_length=20)
    confirm_unusual = forms.BooleanField(label=_("Accept an unusual score"), required=False)

    def pair(self) -> list[int]:
        a, b = self.cleaned_data["match"].split("-")
        return [int(a), int(b)]


class CookieJarForm(PlainForm):
    method = forms.ChoiceField(
        label=_("How are the games drawn?"),
        choices=[("system", _("Drawn by the system")), ("hat", _("Drawn from a hat"))],
        widget=forms.RadioSelect,
        initial="system",
    )
    games = forms.CharField(
        label=_("Games drawn from the hat"),
        required=False,
        max_length=300,
        help_text=_("Their numbers, like 3 7 12."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("prefix", "jar")
        super().__init__(*args, **kwargs)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("method") == "hat":
            text = data.get("games") or ""
            parts = [p for p in re.split(r"[\s,;]+", text.strip()) if p]
            if not parts or not all(p.isascii() and p.isdigit() and len(p) <= 4 for p in parts):
                self.add_error("games", _("Type the game numbers drawn, like 3 7 12."))
            else:
                data["game_numbers"] = [int(p) for p in parts]
        return data

    def arguments(self) -> dict[str, Any]:
        if self.cleaned_data["method"] == "hat":
            return {"games": self.cleaned_data["game_numbers"]}
        return {}  # the system draws, from a seed of its own (recorded)
