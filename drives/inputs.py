"""What the night's input may contain: each rule declared once, with its error code and words.

A :class:`Rule` is one check on one field: a pydantic type (its bounds, its choices, how the
value is tidied), the code the API answers with, and the message a person reads (gettext, so
the French follows). Every way in reaches the same rule:

- the services (``drives.services``, ``scoring.services``, ``scoring.prizes.services``) call
  :meth:`Rule.check` (or :func:`check_field` for a field of several rules), which turns the
  pydantic refusal into a :class:`~drives.errors.ServiceError` with the rule's code, message
  and ``field``; the API, the CSV imports and the command line reach the rules through them;
- the pages' forms take their bounds and their error messages from :meth:`Rule.form_options`
  and run :meth:`Rule.check` in their ``clean`` (``drives.forms.RuledForm``), so a box typed
  wrong says what the API would say;
- the API's OpenAPI description takes each field's JSON Schema from :meth:`Rule.json_schema`.

A new rule goes here, into :data:`RULES` (through :func:`rule`), and ``tests/inputs`` then asks
each way in to refuse a bad value of it with the same words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from datetime import date as Date
from decimal import Decimal
from functools import cached_property
from typing import Annotated, Any, Literal

from django.conf import settings
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext_lazy as _
from pydantic import AfterValidator, BeforeValidator, Field, Strict, TypeAdapter, ValidationError
from pydantic import WithJsonSchema as WithJsonSchema

from drives.errors import ServiceError
from drives.text import name_strip_bidi, name_visible, text_refuse_unstorable
from engine.rules import PRESETS

# The error codes of a Django form field that a rule's message stands for (the form says what
# the API says, whichever of its own checks caught the value).
FORM_ERROR_CODES = (
    "required",
    "invalid",
    "invalid_choice",
    "min_value",
    "max_value",
    "min_length",
    "max_length",
    "max_digits",
    "max_decimal_places",
    "max_whole_digits",
)


@dataclass(frozen=True, eq=False)
class Rule:
    """One check on one field of the night's input.

    ``name`` names the rule (unique); ``field`` the field it judges (the API's, the form's and
    the CSV column's name); ``code`` the API's error code; ``message`` the words, formatted
    with ``params`` (the bounds, the choices); ``type`` the pydantic type that accepts (and
    tidies) a good value; ``form`` the Django form field's options built from the same bounds;
    ``doc`` what the JSON Schema adds (a description, a default)."""

    name: str
    field: str
    code: str
    message: str | Promise
    type: Any
    params: Mapping[str, Any] = dataclass_field(default_factory=dict)
    form: Mapping[str, Any] = dataclass_field(default_factory=dict)
    doc: Mapping[str, Any] = dataclass_field(default_factory=dict)

    def text(self) -> str:
        """The message in the active language."""
        return str(self.message) % dict(self.params) if self.params else str(self.message)

    @cached_property
    def adapter(self) -> TypeAdapter[Any]:
        return TypeAdapter(self.type)

    def check(self, value: Any, where: str = "", *, field: str = "") -> Any:
        """``value`` tidied (spaces, case), or a ServiceError with this rule's code, message
        (after ``where``: "Couple 2: ") and field (``field``: where a body names it otherwise,
        as the start's ``seating`` is the setting ``first_seating``)."""
        try:
            return self.adapter.validate_python(value)
        except ValidationError:
            raise ServiceError(self.code, where + self.text(), field=field or self.field) from None

    def accepts(self, value: Any) -> bool:
        try:
            self.check(value)
        except ServiceError:
            return False
        return True

    def json_schema(self) -> dict[str, Any]:
        """The field's JSON Schema (the API's OpenAPI description)."""
        return {**self.adapter.json_schema(), **self.doc}

    def form_options(self) -> dict[str, Any]:
        """Options of the Django form field: the same bounds, and this rule's message for
        every error the field finds itself."""
        message = lazy(self.text, str)()
        return {**self.form, "error_messages": dict.fromkeys(FORM_ERROR_CODES, message)}


#: Every rule, by name.
RULES: dict[str, Rule] = {}


def rule(
    name: str,
    field: str,
    code: str,
    message: str | Promise,
    type: Any,
    params: Mapping[str, Any] | None = None,
    form: Mapping[str, Any] | None = None,
    **doc: Any,
) -> Rule:
    """Declare a rule (its name unique) and list it in :data:`RULES`."""
    if name in RULES:
        raise ValueError(f"rule {name!r} is declared twice")
    declared = Rule(name, field, code, message, type, params or {}, form or {}, doc)
    RULES[name] = declared
    return declared


def check_field(rules: Sequence[Rule], value: Any, where: str = "") -> Any:
    """``value`` through each rule of one field in turn (each takes the last one's tidy
    value); the first that refuses it raises."""
    for one in rules:
        value = one.check(value, where)
    return value


# --- the building blocks: one set of numbers makes the type, the form's bounds and the words ---


def whole(low: int, high: int) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """A whole number from ``low`` to ``high`` (not a boolean, not text)."""
    return (
        Annotated[int, Strict(), Field(ge=low, le=high)],
        {"min_value": low, "max_value": high},
        {"min": low, "max": high},
    )


def one_of(values: Sequence[str]) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """One of ``values``, as written."""
    return Literal[tuple(values)], {}, {"list": ", ".join(values)}


def _refuse_unstorable(what: str) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        text_refuse_unstorable(value, what=what)
        return value

    return check


def _tidy_line(value: str) -> str:
    """Without the bidi controls that reorder what is printed after it, nor spaces around."""
    return name_strip_bidi(value).strip()


def _tidy_name(value: str) -> str:
    """A player's name: runs of spaces made one, no bidi controls."""
    return " ".join(name_strip_bidi(value).split())


def _visible(value: str) -> str:
    if not name_visible(value):
        raise ValueError("nothing to see")
    return value


def text(
    limit: int, *, what: str, tidy: Callable[[str], str] = _tidy_line, visible: bool = False
) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """Text of at most ``limit`` characters once tidied (with something to see if
    ``visible``); text that cannot be stored is refused first (``bad_text``)."""
    checks: list[Any] = [BeforeValidator(_refuse_unstorable(what)), Strict(), AfterValidator(tidy)]
    if visible:
        checks.append(AfterValidator(_visible))
    return (
        Annotated[(str, *checks, Field(max_length=limit))],
        {"max_length": limit},
        {"max": limit},
    )


def _iso_date(value: Any) -> Date:
    if isinstance(value, Date):
        return value
    if isinstance(value, str):
        return Date.fromisoformat(value)  # ValueError: no date
    raise ValueError("no date")


def yes_no() -> Any:
    """true or false: a boolean, never 1 or "yes"."""
    return Annotated[bool, Strict()]


# --- a drive's settings -------------------------------------------------------------------------

LANGUAGES = [code for code, _name in settings.LANGUAGES]
MOVEMENTS = ("winners-move", "losers-move")  # drives.models.Drive.Movement
FIRST_SEATINGS = ("by-number", "shuffle")  # drives.models.Drive.FirstSeating
RANKINGS = ("dense", "competition")  # drives.models.Drive.Ranking
FEE_PERS = ("person", "couple")  # drives.models.Drive.FeePer
GAMES = (1, 60)
ENTRY_FEE_WHOLE_DIGITS, ENTRY_FEE_PLACES = 6, 2

_type, _form, _params = text(120, what="the name", visible=True)
DRIVE_NAME = rule(
    "drive_name",
    "name",
    "bad_field",
    _("A drive needs a name of at most %(max)s characters."),
    _type,
    _params,
    _form,
    pattern=r"\S",
)
_type, _form, _params = text(200, what="the venue")
VENUE = rule(
    "venue",
    "venue",
    "bad_field",
    _("The venue has at most %(max)s characters."),
    *(_type, _params, _form),
)
DATE = rule(
    "date",
    "date",
    "bad_field",
    _("The date is a day written YYYY-MM-DD."),
    Annotated[
        Date, BeforeValidator(_iso_date), WithJsonSchema({"type": "string", "format": "date"})
    ],
)
_type, _form, _params = whole(*GAMES)
GAMES_RULE = rule(
    "games",
    "games",
    "bad_field",
    _("The games are a whole number from %(min)s to %(max)s."),
    _type,
    _params,
    _form,
    default=25,
)
_type, _form, _params = one_of(list(PRESETS))
RULESET = rule(
    "ruleset",
    "ruleset",
    "bad_field",
    _("The ruleset is one of %(list)s."),
    _type,
    _params,
    _form,
    default="cape-breton-45",
)
_type, _form, _params = one_of(MOVEMENTS)
MOVEMENT = rule(
    "movement",
    "movement",
    "bad_field",
    _("The movement is one of %(list)s."),
    _type,
    _params,
    _form,
    default="winners-move",
)
_type, _form, _params = one_of(FIRST_SEATINGS)
FIRST_SEATING = rule(
    "first_seating",
    "first_seating",
    "bad_field",
    _("The first seating is one of %(list)s."),
    _type,
    _params,
    _form,
    default="by-number",
)
_type, _form, _params = whole(0, 2**63 - 1)
SEED = rule(
    "seed",
    "seed",
    "bad_field",
    _("The seed is a whole number from %(min)s to %(max)s."),
    _type | None,
    _params,
    _form,
)
_type, _form, _params = one_of(RANKINGS)
RANKING = rule(
    "ranking",
    "ranking",
    "bad_field",
    _("The places are one of %(list)s."),
    _type,
    _params,
    _form,
    default="dense",
)
_fee_high = 10**ENTRY_FEE_WHOLE_DIGITS
ENTRY_FEE = rule(
    "entry_fee",
    "entry_fee",
    "bad_field",
    _("The entry fee is an amount from 0 to %(max)s, to the cent."),
    Annotated[
        Decimal,
        Field(ge=0, lt=_fee_high, decimal_places=ENTRY_FEE_PLACES),
        WithJsonSchema(
            {
                "oneOf": [
                    {
                        "type": "string",
                        "pattern": rf"^\d{{1,{ENTRY_FEE_WHOLE_DIGITS}}}"
                        rf"(\.\d{{1,{ENTRY_FEE_PLACES}}})?$",
                    },
                    {"type": "integer", "minimum": 0, "maximum": _fee_high - 1},
                ],
            }
        ),
    ],
    {"max": f"{_fee_high - 1}.99"},
    {
        "min_value": 0,
        "max_digits": ENTRY_FEE_WHOLE_DIGITS + ENTRY_FEE_PLACES,
        "decimal_places": ENTRY_FEE_PLACES,
    },
    description='An amount from 0, to the cent (a string like "5.00").',
)
_type, _form, _params = one_of(FEE_PERS)
ENTRY_FEE_PER = rule(
    "entry_fee_per",
    "entry_fee_per",
    "bad_field",
    _("The entry fee is per one of %(list)s."),
    _type,
    _params,
    _form,
    default="person",
    description="Whom the entry fee is for: each person (a couple pays it twice) or each couple.",
)
CURRENCY = rule(
    "currency",
    "currency",
    "bad_field",
    _("The currency is three letters A–Z, like CAD."),
    # ASCII only: "ßab".upper() is "SSAB", and str.isalpha() takes it
    Annotated[str, Strict(), Field(pattern="^[A-Za-z]{3}$"), AfterValidator(str.upper)],
    form={"min_length": 3, "max_length": 3},
    description="Three letters A–Z, like CAD (either case; stored upper-case).",
)
_type, _form, _params = one_of(LANGUAGES)
LANGUAGE = rule(
    "language",
    "language",
    "bad_field",
    _("The language is one of %(list)s."),
    _type,
    _params,
    _form,
    default=settings.LANGUAGE_CODE,
    description="The hall's language: the projector, the table and couple pages, the "
    "printed documents and the public results are in it.",
)


def _switch(name: str, default: bool, description: str = "") -> Rule:
    doc: dict[str, Any] = {"default": default}
    if description:
        doc["description"] = description
    return rule(
        name,
        name,
        "bad_field",
        _("%(field)s must be true or false."),
        yes_no(),
        {"field": name},
        **doc,
    )


SIT_OUT_COUNTS_AS_WIN = _switch("sit_out_counts_as_win", True)
CONFIRM_BY_OTHER_COUPLE = _switch("confirm_by_other_couple", False)
SCORERS_MAY_ADVANCE = _switch(
    "scorers_may_advance", True, "Scorers may start the next game (organizers always may)."
)
PUBLISHED = _switch("published", False, "The results page is public; may change after the close.")

#: Slow tables: once this share of a game's tables has reported, the missing ones are marked
#: slow after the drive's ``slow_table_minutes``.
SLOW_SHARE = 0.8
SLOW_MINUTES = (0, 60)
_type, _form, _params = whole(*SLOW_MINUTES)
SLOW_TABLE_MINUTES = rule(
    "slow_table_minutes",
    "slow_table_minutes",
    "bad_field",
    _("The minutes before a table is marked slow are a whole number from %(min)s to %(max)s."),
    _type,
    _params,
    _form,
    default=3,
    description="Once 80 % of a game's tables have reported, the missing ones are marked slow "
    "on the desk and the projector's organizer view after this many minutes (0: never).",
)

#: The rule of each drive setting (``rules``, the house-rule switches, is the engine's:
#: ``engine.rules.make_ruleset``).
SETTINGS: dict[str, Rule] = {
    one.field: one
    for one in (
        DRIVE_NAME,
        DATE,
        VENUE,
        GAMES_RULE,
        RULESET,
        MOVEMENT,
        FIRST_SEATING,
        SEED,
        SIT_OUT_COUNTS_AS_WIN,
        RANKING,
        ENTRY_FEE,
        ENTRY_FEE_PER,
        CURRENCY,
        CONFIRM_BY_OTHER_COUPLE,
        SCORERS_MAY_ADVANCE,
        SLOW_TABLE_MINUTES,
        PUBLISHED,
        LANGUAGE,
    )
}


# --- couples --------------------------------------------------------------------------------

MAX_NAME = 80

PLAYER_NAME = rule(
    "player_name",
    "players",
    "missing_player",
    _("A couple needs two player names."),
    Annotated[
        str,
        BeforeValidator(_refuse_unstorable("a player's name")),
        Strict(),
        AfterValidator(_tidy_name),
        AfterValidator(_visible),
    ],
    form={"required": True},
    pattern=r"\S",
)
_type, _form, _params = text(MAX_NAME, what="a player's name", tidy=_tidy_name)
PLAYER_NAME_LENGTH = rule(
    "player_name_length",
    "players",
    "name_too_long",
    _("A player's name has at most %(max)s characters."),
    _type,
    _params,
    _form,
)
#: A player's name: some text to see, at most MAX_NAME characters once its spaces are tidied.
PLAYER = (PLAYER_NAME, PLAYER_NAME_LENGTH)


def player_schema() -> dict[str, Any]:
    """A player's name in JSON Schema (the API's description)."""
    schema: dict[str, Any] = {}
    for one in PLAYER:
        schema |= one.json_schema()
    return schema


def player_form_options() -> dict[str, Any]:
    """A player's name box: the length rule's bound, each rule's words for its errors."""
    options = PLAYER_NAME_LENGTH.form_options()
    options["error_messages"]["required"] = PLAYER_NAME.form_options()["error_messages"]["required"]
    return options


COUPLE_FLAGS = ("paid", "checked_in", "cookie_jar")
FLAGS: dict[str, Rule] = {
    flag: rule(
        f"couple_{flag}",
        flag,
        "bad_field",
        _("%(field)s must be true or false."),
        yes_no(),
        {"field": flag},
    )
    for flag in (*COUPLE_FLAGS, "duplicate_ok", "withdrawn")
}


# --- clubs ----------------------------------------------------------------------------------

_type, _form, _params = text(120, what="the name", visible=True)
CLUB_NAME = rule(
    "club_name",
    "name",
    "bad_name",
    _("A club needs a name of 1 to %(max)s characters."),
    _type,
    _params,
    _form,
)


# --- results --------------------------------------------------------------------------------

#: The highest game, table or couple number (nine digits: the API's paths take no more, and the
#: database's integers hold it).
NUMBER_MAX = 999_999_999

_type, _form, _params = whole(1, NUMBER_MAX)
GAME = rule(
    "game",
    "game",
    "bad_game",
    _("The game is a number from %(min)s to %(max)s."),
    _type,
    _params,
    _form,
)
TABLE = rule(
    "table",
    "table",
    "bad_table",
    _("The table is a number from %(min)s to %(max)s."),
    _type,
    _params,
    _form,
)
WINNER = rule(
    "winner",
    "winner",
    "bad_winner",
    _("The winner is a couple number from %(min)s to %(max)s."),
    _type,
    _params,
    _form,
    description="The winning couple's number.",
)
POINTS = rule(
    "points",
    "points",
    "bad_points",
    _("The points are two whole numbers, like [50, 40]."),
    Annotated[list[Annotated[int, Strict()]], Field(min_length=2, max_length=2)] | None,
    description="Final points, winner's first (either order is understood).",
)
CONFIRM_UNUSUAL = rule(
    "confirm_unusual",
    "confirm_unusual",
    "bad_field",
    _("%(field)s must be true or false."),
    yes_no(),
    {"field": "confirm_unusual"},
)


# --- a table's call to the desk ------------------------------------------------------------

CALL_REASON_MAX = 200
_type, _form, _params = text(CALL_REASON_MAX, what="the reason")
CALL_REASON = rule(
    "call_reason",
    "reason",
    "bad_reason",
    _("The reason for calling the desk has at most %(max)s characters."),
    _type | None,
    _params,
    _form,
    description="Why the table needs the desk, in the players' words (optional).",
)


# --- prize set-up ---------------------------------------------------------------------------

MAX_PLACES = 20
MAX_MONEY = Decimal("99999999.99")
HOUSE_RULES = ("none", "always-cut", "always-split")  # scoring.models.PrizeSetup.HouseRule


def _to_the_cent(value: Decimal) -> Decimal:
    if value != value.quantize(Decimal("0.01")):
        raise ValueError("not to the cent")
    return value.quantize(Decimal("0.01"))


def amount(*, nullable: bool = False) -> Any:
    """An amount of money from 0 to MAX_MONEY, to the cent ("25.50", 25 or 25.5)."""
    checked: Any = Annotated[
        Decimal,
        Field(ge=0, le=MAX_MONEY),
        AfterValidator(_to_the_cent),
        WithJsonSchema({"type": ["string", "number"]}),
    ]
    return checked | None if nullable else checked


_type, _form, _params = whole(0, MAX_PLACES)
PRIZE_PLACES = rule(
    "prize_places",
    "prize_places",
    "bad_field",
    _("The prize places are a whole number from %(min)s to %(max)s."),
    _type,
    _params,
    _form,
)
# The drive's own number of games bounds these too: prizes.services says so for each drive.
_type, _form, _params = whole(1, GAMES[1])
COOKIE_JAR_K = rule(
    "cookie_jar_k",
    "cookie_jar_k",
    "bad_field",
    _("The games drawn for the cookie jar are a whole number from %(min)s to %(max)s."),
    _type,
    _params,
    _form,
)
JACKPOT_THRESHOLD = rule(
    "jackpot_threshold",
    "jackpot_threshold",
    "bad_field",
    _("The jackpot's wins are a whole number from %(min)s to %(max)s, or none."),
    _type | None,
    _params,
    _form,
)
BUY_IN = rule(
    "buy_in",
    "buy_in",
    "bad_field",
    _("The buy-in is an amount from 0 to %(max)s, to the cent."),
    amount(),
    {"max": MAX_MONEY},
)
JACKPOT_AMOUNT = rule(
    "jackpot_amount",
    "jackpot_amount",
    "bad_field",
    _("The jackpot is an amount from 0 to %(max)s, to the cent, or none."),
    amount(nullable=True),
    {"max": MAX_MONEY},
)
_type, _form, _params = one_of(HOUSE_RULES)
HOUSE_RULE = rule(
    "house_rule",
    "house_rule",
    "bad_field",
    _("The house rule for ties is one of %(list)s."),
    _type,
    _params,
    _form,
)
PRIZE_SWITCHES: dict[str, Rule] = {
    name: rule(
        f"prizes_{name}",
        name,
        "bad_field",
        _("%(field)s must be true or false."),
        yes_no(),
        {"field": name},
    )
    for name in ("booby", "booby_late_couples", "cookie_jar", "cut_ace_high", "cut_high_wins")
}
#: The rule of each prize setting with one (``prizes`` and ``booby_prize``: an amount or a
#: description each, prizes.services).
PRIZE_SETUP: dict[str, Rule] = {
    one.field: one
    for one in (
        PRIZE_PLACES,
        COOKIE_JAR_K,
        JACKPOT_THRESHOLD,
        BUY_IN,
        JACKPOT_AMOUNT,
        HOUSE_RULE,
        *PRIZE_SWITCHES.values(),
    )
}
PRIZE_AMOUNT = rule(
    "prize_amount",
    "prizes",
    "bad_field",
    _("A prize's amount is from 0 to %(max)s, to the cent."),
    amount(nullable=True),
    {"max": MAX_MONEY},
)
