"""What the night's input may contain: each rule declared once, with its error code and words.

A :class:`Rule` is one check on one field: a pydantic type (its bounds, its choices, how the
value is tidied), the code the API answers with, and the message a person reads (gettext, so
the French follows). Every way in reaches the same rule:

- the services (``drives.services``, ``scoring.services``, ``scoring.prizes.services``,
  ``money.services``, ``seasons.services``) call :meth:`Rule.check` (or :func:`check_field`
  for a field of several rules), which turns the pydantic refusal into a
  :class:`~drives.errors.ServiceError` with the rule's code, message and ``field``; the CSV
  imports and the command line reach the rules through them;
- the pages' forms take their bounds and their error messages from :meth:`Rule.form_options`
  and run :meth:`Rule.check` in their ``clean`` (``drives.forms.RuledForm``), so a box typed
  wrong says what the API would say;
- the API's bodies (:class:`Body`) type each field with its rule, ``Annotated[int,
  GAMES_RULE]``: the rule judges the value sent before any service is called, refuses it in
  its own words (:func:`refused`, which the API's refusal translator answers as it is) and
  gives the field's JSON Schema to the OpenAPI description (:meth:`Rule.json_schema`).

A new rule goes here, into :data:`RULES` (through :func:`rule`), and ``tests/inputs`` then asks
each way in to refuse a bad value of it with the same words.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from datetime import UTC, datetime
from datetime import date as Date
from decimal import Decimal
from functools import cached_property
from typing import Annotated, Any, Literal, NamedTuple

from django.conf import settings
from django.utils import timezone
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    JsonValue,
    Strict,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
)
from pydantic import WithJsonSchema as WithJsonSchema
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

from drives.errors import ServiceError
from drives.text import name_strip_bidi, name_visible, text_refuse_unstorable
from engine.prizes import CATEGORY_RULES
from engine.rules import CHOICES, FLOOR_LIMIT, PRESETS, Ruleset

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
    with ``params`` (the bounds, the choices), ``field`` (where the value was sent) and what
    ``words`` takes from the value refused (``%(kind)s``: the kind sent); ``type`` the pydantic
    type that accepts (and tidies) a good value; ``form`` the Django form field's options built
    from the same bounds; ``doc`` what the JSON Schema adds (a description, a default).
    ``named``: the refusal names its ``field`` (a few never did, and keep their answer);
    ``status`` and ``details``: the refusal's HTTP status and what it adds (the choices).

    In a body's model, ``Annotated[int, GAMES_RULE]`` has the rule judge the field."""

    name: str
    field: str
    code: str
    message: str | Promise
    type: Any
    params: Mapping[str, Any] = dataclass_field(default_factory=dict)
    form: Mapping[str, Any] = dataclass_field(default_factory=dict)
    doc: Mapping[str, Any] = dataclass_field(default_factory=dict)
    words: Callable[[Any], Mapping[str, Any]] | None = None
    named: bool = True
    status: int = 422
    details: Mapping[str, Any] = dataclass_field(default_factory=dict)

    def text(self, value: Any = None, *, field: str = "", **parts: Any) -> str:
        """The message in the active language, for ``value`` sent as ``field``; ``parts``:
        what else the words name (``number``: the couple whose holes are counted)."""
        words = {"field": self.field, **self.params}
        if field:
            words["field"] = field
        if self.words is not None:
            words.update(self.words(value))
        words.update(parts)
        message = str(self.message)
        return message % words if "%(" in message else message

    @cached_property
    def adapter(self) -> TypeAdapter[Any]:
        return TypeAdapter(self.type)

    def check(self, value: Any, where: str = "", *, field: str = "", **parts: Any) -> Any:
        """``value`` tidied (spaces, case), or a ServiceError with this rule's code, message
        (after ``where``: "Couple 2: ", with ``parts``) and field (``field``: where a body
        names it otherwise, as the start's ``seating`` is the setting ``first_seating``)."""
        try:
            return self.adapter.validate_python(value, context={"field": field or self.field})
        except ValidationError:
            raise self.refusal(value, where, field=field, **parts) from None

    def refusal(
        self, value: Any, where: str = "", *, field: str = "", **parts: Any
    ) -> ServiceError:
        """The refusal of ``value`` sent as ``field`` (this rule's field unless said)."""
        place = field or self.field
        details = dict(self.details)
        if self.named:
            details["field"] = place
        message = where + self.text(value, field=place, **parts)
        return ServiceError(self.code, message, status=self.status, **details)

    def accepts(self, value: Any) -> bool:
        try:
            self.check(value)
        except ServiceError:
            return False
        return True

    def json_schema(self) -> dict[str, Any]:
        """The field's JSON Schema (the API's OpenAPI description)."""
        return {**self.adapter.json_schema(), **self.doc}

    def form_options(self, field: str = "", **parts: Any) -> dict[str, Any]:
        """Options of the Django form field: the same bounds, and this rule's message for
        every error the field finds itself."""
        message = _lazy_text(self, field, parts)
        return {**self.form, "error_messages": dict.fromkeys(FORM_ERROR_CODES, message)}

    def at(self, field: str) -> Checks:
        """The rule in a body whose field has another name (``seating``: the first seating)."""
        return checks(self, field=field)

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        return checks(self).__get_pydantic_core_schema__(source, handler)

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> dict[str, Any]:
        return self.json_schema()


def _text(rule: Rule, field: str, parts: dict[str, Any]) -> str:
    return rule.text(field=field, **parts)


# Made lazy once: ``lazy()`` builds a proxy class at each call (1.6 ms), and a form of the
# holes has 500 fields (the dashboard took 316 ms a render with one class a field, 2026-11-28,
# scripts/bench_polls.py).
_lazy_text = lazy(_text, str)

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
    *,
    words: Callable[[Any], Mapping[str, Any]] | None = None,
    named: bool = True,
    status: int = 422,
    details: Mapping[str, Any] | None = None,
    **doc: Any,
) -> Rule:
    """Declare a rule (its name unique) and list it in :data:`RULES`."""
    if name in RULES:
        raise ValueError(f"rule {name!r} is declared twice")
    declared = Rule(
        name,
        field,
        code,
        message,
        type,
        params or {},
        form or {},
        doc,
        words,
        named,
        status,
        details or {},
    )
    RULES[name] = declared
    return declared


def check_field(rules: Sequence[Rule], value: Any, where: str = "", *, field: str = "") -> Any:
    """``value`` through each rule of one field in turn (each takes the last one's tidy
    value); the first that refuses it raises."""
    for one in rules:
        value = one.check(value, where, field=field)
    return value


def form_options_of(rules: Sequence[Rule]) -> dict[str, Any]:
    """A box of a field of several rules: the last rule's bounds, the first rule's words for
    an empty box and the last's for the rest."""
    options = rules[-1].form_options()
    options["error_messages"]["required"] = rules[0].form_options()["error_messages"]["required"]
    return options


# --- the API's bodies ---------------------------------------------------------------------------

# Where a refusal raised inside a body's model travels (the context of pydantic's error).
REFUSAL = "refusal"


def refused(error: ServiceError) -> PydanticCustomError:
    """A service's refusal raised while a body is read: the API answers it as it is."""
    return PydanticCustomError(error.code, error.message, {REFUSAL: error})


@dataclass(frozen=True, eq=False)
class Checks:
    """In a body's model, ``Annotated[T, Checks(check, schema)]``: the value sent is judged by
    ``check`` (which tidies it, or raises the ServiceError the API answers with) and described
    by ``schema`` in the OpenAPI description; ``T`` is what a good value becomes."""

    check: Callable[[Any], Any]
    schema: Mapping[str, Any]

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        check = self.check

        def judged(value: Any) -> Any:
            try:
                return check(value)
            except ServiceError as error:
                raise refused(error) from None

        return core_schema.no_info_plain_validator_function(judged)

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> dict[str, Any]:
        return dict(self.schema)


def field_schema(rules: Sequence[Rule]) -> dict[str, Any]:
    """The JSON Schema of a field of several rules: each one's, together."""
    schema: dict[str, Any] = {}
    for one in rules:
        schema |= one.json_schema()
    return schema


def checks(*rules: Rule, field: str = "", nullable: bool = False, **doc: Any) -> Checks:
    """The rules of one field of a body (sent as ``field`` when its name is not the rules'),
    in turn, as :func:`check_field`; ``nullable``: null is taken as none, unjudged; ``doc``
    adds to the description."""

    def check(value: Any) -> Any:
        if nullable and value is None:
            return None
        return check_field(rules, value, field=field)

    schema = field_schema(rules)
    if nullable:
        schema = {"anyOf": [schema, {"type": "null"}]}
    return Checks(check, schema | doc)


def unknown_field(name: str, where: str = "") -> ServiceError:
    """The refusal of a field nobody takes (after ``where``: "Couple 2: ")."""
    return ServiceError(
        "unknown_field",
        where + gettext("Unknown field %(name)s.") % {"name": f"{name!r}"},
        field=name,
    )


def refuse_unknown(given: Iterable[str], known: Iterable[str], where: str = "") -> None:
    """Refuse the first field of ``given`` (in alphabetical order) not among ``known``."""
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise unknown_field(unknown[0], where)


class Body(BaseModel):
    """A JSON object with only the fields named (422 ``unknown_field`` otherwise), each judged
    by its rule. A field left out keeps its default, never judged: ``None`` is "not sent"."""

    model_config = ConfigDict(extra="forbid")

    def sent(self) -> dict[str, Any]:
        """The fields the caller sent, tidied by their rules."""
        return {name: getattr(self, name) for name in self.model_fields_set}


def refusal(errors: Sequence[Mapping[str, Any]], where: str = "") -> ServiceError:
    """The refusal of a body from pydantic's ``errors`` (their ``loc`` from the body's top):
    a field nobody takes first (as the API always named those before looking at any value),
    then the first refusal of a rule as it is, then any other error as ``bad_field`` naming its
    place (``prizes[1].description``); each after ``where``."""
    unknown = sorted(
        (e for e in errors if e["type"] == "extra_forbidden"), key=lambda e: str(e["loc"][-1])
    )
    if unknown:
        return unknown_field(str(unknown[0]["loc"][-1]), where)
    first = errors[0]
    found = (first.get("ctx") or {}).get(REFUSAL)
    if isinstance(found, ServiceError):
        if not where:
            return found
        return type(found)(found.code, where + found.message, status=found.status, **found.details)
    field = place(first["loc"])
    return ServiceError("bad_field", f"{where}{field}: {first['msg']}.", field=field)


def place(loc: Sequence[Any]) -> str:
    """A place in a body as docs/api.md names it: ``prizes[1].description``."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


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

#: Registration before the night: when the public registration page opens and closes (a time
#: with its zone, or null: none; no opening time, no registration), and how many couples it
#: takes before the wait list (null: no limit).
REGISTRATION_CAPACITY = (1, 2000)  # drives.services.MAX_COUPLES


def _iso_time(value: Any) -> datetime:
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str):
        moment = datetime.fromisoformat(value.strip())  # ValueError: no time
    else:
        raise ValueError("no time")
    try:
        if timezone.is_naive(moment):
            moment = timezone.make_aware(moment)
        moment.astimezone(UTC)  # as it is stored: a year 1 or 9999 may not fit
    except (OverflowError, ValueError):
        raise ValueError("no time") from None
    if not 2000 <= moment.year <= 2999:
        raise ValueError("no time")
    return moment


_TIME = Annotated[
    datetime,
    BeforeValidator(_iso_time),
    WithJsonSchema({"type": "string", "format": "date-time"}),
]
REGISTRATION_OPENS = rule(
    "registration_opens",
    "registration_opens",
    "bad_field",
    _("The registration's opening is a time written YYYY-MM-DDTHH:MM, or nothing."),
    _TIME | None,
    default=None,
    description="When the drive's public registration page opens (null: no registration).",
)
REGISTRATION_CLOSES = rule(
    "registration_closes",
    "registration_closes",
    "bad_field",
    _("The registration's closing is a time written YYYY-MM-DDTHH:MM, or nothing."),
    _TIME | None,
    default=None,
    description="When the registration closes (null: at the start of the night).",
)
_type, _form, _params = whole(*REGISTRATION_CAPACITY)
CAPACITY = rule(
    "capacity",
    "capacity",
    "bad_field",
    _("The capacity is a whole number of couples from %(min)s to %(max)s, or nothing."),
    _type | None,
    _params,
    _form,
    default=None,
    description="How many couples the registration takes; the next ones are wait-listed "
    "(null: no limit).",
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
        REGISTRATION_OPENS,
        REGISTRATION_CLOSES,
        CAPACITY,
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
    return field_schema(PLAYER)


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


# --- registration before the night ------------------------------------------------------------

MAX_CONTACT = 120
_type, _form, _params = text(MAX_CONTACT, what="the contact")
REGISTRATION_CONTACT = rule(
    "registration_contact",
    "contact",
    "bad_field",
    _("The contact (a phone or an e-mail) has at most %(max)s characters."),
    _type,
    _params,
    _form,
    description="A phone or an e-mail the club may use; never shown publicly.",
)


def _one_or_two(value: Any) -> list[Any]:
    if isinstance(value, list) and 1 <= len(value) <= 2:
        return value
    raise ValueError("one or two names")


REGISTRATION_PLAYERS = rule(
    "registration_players",
    "players",
    "bad_players",
    _("players must be a list of one or two names (one: looking for a partner)."),
    Annotated[list[Any], BeforeValidator(_one_or_two)],
)


def registration_players_of(value: Any) -> list[str]:
    """``players`` of a registration: one or two names, each a player's name (:data:`PLAYER`);
    one name is a player looking for a partner."""
    return [check_field(PLAYER, name) for name in REGISTRATION_PLAYERS.check(value)]


#: A registration's names in a body, checked as :func:`registration_players_of`.
REGISTRATION_NAMES = Checks(
    registration_players_of,
    {"type": "array", "items": player_schema(), "minItems": 1, "maxItems": 2},
)


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
#: The largest sum of money (the ledger's column: money.models.MAX_AMOUNT).
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
    for name in (
        "booby",
        "booby_late_couples",
        "cookie_jar",
        "cut_ace_high",
        "cut_high_wins",
        "one_prize_per_couple",
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
PRIZE_ITEM = rule(
    "prize_item",
    "prizes",
    "bad_field",
    _(
        '%(field)s: give {"amount": "50.00"}, {"description": "…"} or, for a place or the '
        'half-time prize, a share: {"share_of": "entry", "percent": 30}.'
    ),
    dict[Literal["amount", "description", "share_of", "percent"], object] | None,
)
SHARES_OF = ("entry", "pot")
_type, _form, _params = one_of(SHARES_OF)
PRIZE_SHARE_OF = rule(
    "prize_share_of",
    "prizes",
    "bad_field",
    _("%(field)s: a share is of the entry money (entry) or of the pot (pot)."),
    _type,
    _params,
    _form,
)
_type, _form, _params = whole(1, 100)
PRIZE_PERCENT = rule(
    "prize_percent",
    "prizes",
    "bad_field",
    _("%(field)s: a share is a whole percent from %(min)s to %(max)s."),
    _type,
    _params,
    _form,
)


def _one_kind(prize: tuple[Decimal | None, str | None, int | None]) -> Any:
    amount, share_of, percent = prize
    if (share_of is None) != (percent is None) or (share_of is not None and amount is not None):
        raise ValueError("a share and an amount, or half a share")
    return prize


PRIZE_SHARE = rule(
    "prize_share",
    "prizes",
    "bad_field",
    _("%(field)s: a share gives share_of and percent together, and no amount."),
    Annotated[tuple[Decimal | None, str | None, int | None], AfterValidator(_one_kind)],
)
PRIZE_SHARES_TOTAL = rule(
    "prize_shares_total",
    "prizes",
    "shares_over_100",
    _(
        "The prizes' shares (the places', the half-time prize's and the named prizes') come "
        "to more than 100 % of the money they share: lower them."
    ),
    Annotated[int, Strict(), Field(ge=0, le=100)],
)
#: The units a share of the takings may be rounded (down) to.
SHARE_ROUNDINGS = ("0.01", "0.05", "0.25", "1.00", "5.00", "10.00")
_type, _form, _params = one_of(SHARE_ROUNDINGS)
SHARE_ROUNDING = rule(
    "share_rounding",
    "share_rounding",
    "bad_field",
    _("A share of the takings is rounded down to one of %(list)s."),
    _type,
    _params,
    _form,
    default="1.00",
    description="The unit a prize's share of the takings is rounded down to (what is left "
    "over stays with the hall).",
)
HALF_TIME = rule(
    "half_time",
    "half_time",
    "bad_field",
    _(
        'half_time: give {"after_game": 8, "amount": "10.00"} (or a description, or a share '
        "instead of the amount), or null for none."
    ),
    dict[Literal["after_game", "amount", "description", "share_of", "percent"], object] | None,
)
_type, _form, _params = whole(1, GAMES[1])
HALF_TIME_AFTER = rule(
    "half_time_after",
    "half_time",
    "bad_field",
    _("half_time: after_game is a whole number of games from %(min)s to %(max)s."),
    _type,
    _params,
    _form,
)
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
        SHARE_ROUNDING,
        HALF_TIME,
        *PRIZE_SWITCHES.values(),
    )
}
PRIZE_DESCRIPTION = rule(
    "prize_description",
    "prizes",
    "bad_field",
    _("%(field)s: a description is text of at most 200 characters."),
    Annotated[str, Strict(), AfterValidator(str.strip), Field(max_length=200)],
)
PRIZE_GIVEN = rule(
    "prize_given",
    "prizes",
    "bad_field",
    _("%(field)s: give an amount or a description."),
    Annotated[tuple[Decimal | None, str], AfterValidator(lambda prize: _something(*prize))],
)
PRIZE_LIST = rule(
    "prize_list",
    "prizes",
    "bad_field",
    _("prizes is a list: a prize (or null) for each place."),
    list[object],
)


def _something(amount: Decimal | None, description: str) -> tuple[Decimal | None, str]:
    if amount is None and not description:
        raise ValueError("no prize")
    return amount, description


class PrizeValue(NamedTuple):
    """A prize as sent: an amount, a description, or a share (``percent`` of ``share_of``)."""

    amount: Decimal | None
    description: str
    share_of: str = ""
    percent: int | None = None


def prize_of(value: Any, field: str, *, share: bool = True) -> PrizeValue:
    """A prize sent as ``field`` (``prizes[2]``, ``booby_prize``): ``{"amount": "50.00"}``,
    ``{"description": "a turkey"}`` or (``share``) ``{"share_of": "entry", "percent": 30}``,
    or null (no prize set: ``(None, "")``)."""
    prize = PRIZE_ITEM.check(value, field=field)
    if prize is None:
        return PrizeValue(None, "")
    if not share and ("share_of" in prize or "percent" in prize):
        raise PRIZE_ITEM.refusal(value, field=field)
    amount = PRIZE_AMOUNT.check(prize.get("amount"), field=field)
    description = PRIZE_DESCRIPTION.check(prize.get("description") or "", field=field)
    share_of = prize.get("share_of")
    percent = prize.get("percent")
    if share_of is not None:
        share_of = PRIZE_SHARE_OF.check(share_of, field=field)
    if percent is not None:
        percent = PRIZE_PERCENT.check(percent, field=field)
    PRIZE_SHARE.check((amount, share_of, percent), field=field)
    if share_of is not None:
        return PrizeValue(None, description, share_of, percent)
    given: tuple[Decimal | None, str] = PRIZE_GIVEN.check((amount, description), field=field)
    return PrizeValue(*given)


def prizes_of(value: Any) -> list[PrizeValue]:
    """The prizes of the places in order, each as :func:`prize_of` (``prizes[0]`` first)."""
    return [prize_of(prize, f"prizes[{i}]") for i, prize in enumerate(PRIZE_LIST.check(value))]


def half_time_of(value: Any) -> tuple[int, PrizeValue] | None:
    """The half-time prize: ``{"after_game": 8, "amount": "10.00"}`` (or a description, or a
    share instead of the amount) as (the game, the prize); null: none."""
    given = HALF_TIME.check(value)
    if given is None:
        return None
    after = HALF_TIME_AFTER.check(given.get("after_game"))
    rest = {k: v for k, v in given.items() if k != "after_game"}
    prize = prize_of(rest, "half_time")
    if prize.amount is None and not prize.description and not prize.share_of:
        raise PRIZE_GIVEN.refusal(rest, field="half_time")
    return after, prize


MAX_CATEGORIES = 10
MAX_CATEGORY_NAME = 60
CATEGORY_LIST = rule(
    "category_list",
    "categories",
    "bad_field",
    _("categories is a list of at most %(max)s named prizes, each with its name and rule."),
    Annotated[list[object], Field(max_length=MAX_CATEGORIES)],
    {"max": MAX_CATEGORIES},
)
CATEGORY_ITEM = rule(
    "category_item",
    "categories",
    "bad_field",
    _(
        '%(field)s: give {"name": "Hard luck", "rule": "most_lost_in_a_row", "amount": '
        '"10.00"} (or a description, or a share instead of the amount).'
    ),
    dict[
        Literal["name", "rule", "after_game", "amount", "description", "share_of", "percent"],
        object,
    ],
)
_type, _form, _params = text(MAX_CATEGORY_NAME, what="the name", visible=True)
CATEGORY_NAME = rule(
    "category_name",
    "categories",
    "bad_field",
    _("%(field)s: a named prize needs a name of at most %(max)s characters."),
    _type,
    _params,
    _form,
)
_type, _form, _params = one_of(CATEGORY_RULES)
CATEGORY_RULE = rule(
    "category_rule",
    "categories",
    "unknown_rule",
    _("%(field)s: the rule is one of %(list)s."),
    _type,
    _params,
    _form,
)


def _after_only_for_best_after(given: tuple[str, int | None]) -> Any:
    which, after = given
    if (which == "best_after") != (after is not None):
        raise ValueError("after_game with best_after, and only with it")
    return given


_type, _form, _params = whole(1, GAMES[1])
CATEGORY_AFTER = rule(
    "category_after",
    "categories",
    "bad_field",
    _("%(field)s: after_game is a whole number of games from %(min)s to %(max)s."),
    _type,
    _params,
    _form,
)
CATEGORY_AFTER_GIVEN = rule(
    "category_after_given",
    "categories",
    "bad_field",
    _("%(field)s: the rule best_after takes after_game (the game it counts after); no other does."),
    Annotated[tuple[str, int | None], AfterValidator(_after_only_for_best_after)],
)


def _names_once(names: list[str]) -> Any:
    if len({n.casefold() for n in names}) != len(names):
        raise ValueError("a name twice")
    return names


CATEGORY_NAMES_ONCE = rule(
    "category_names_once",
    "categories",
    "category_twice",
    _("Two named prizes have one name: give each its own."),
    Annotated[list[str], AfterValidator(_names_once)],
)


class CategoryValue(NamedTuple):
    """A named prize as sent: its name, its rule (and the game ``best_after`` counts after),
    and its prize (an amount, a description or a share)."""

    name: str
    rule: str
    after_game: int | None
    prize: PrizeValue


def category_of(value: Any, field: str) -> CategoryValue:
    """One named prize, ``categories[0]``: ``{"name": "Hard luck", "rule":
    "most_lost_in_a_row", "amount": "10.00"}``."""
    given = CATEGORY_ITEM.check(value, field=field)
    name = CATEGORY_NAME.check(given.get("name"), field=field)
    which = CATEGORY_RULE.check(given.get("rule"), field=field)
    after = given.get("after_game")
    if after is not None:
        after = CATEGORY_AFTER.check(after, field=field)
    CATEGORY_AFTER_GIVEN.check((which, after), field=field)
    rest = {k: v for k, v in given.items() if k not in ("name", "rule", "after_game")}
    prize = prize_of(rest, field)
    if prize.amount is None and not prize.description and not prize.share_of:
        raise PRIZE_GIVEN.refusal(rest, field=field)
    return CategoryValue(name, which, after, prize)


def categories_of(value: Any) -> list[CategoryValue]:
    """The hall's named prizes in order, each as :func:`category_of`; two of one name (case
    aside) refused (``category_twice``)."""
    found = [
        category_of(one, f"categories[{i}]") for i, one in enumerate(CATEGORY_LIST.check(value))
    ]
    CATEGORY_NAMES_ONCE.check([c.name for c in found])
    return found


def shares_total(prizes: Iterable[PrizeValue]) -> int:
    """The sum of the prizes' shares (percent), refused past 100 (``shares_over_100``)."""
    total: int = PRIZE_SHARES_TOTAL.check(min(sum(p.percent or 0 for p in prizes), 101))
    return total


def _judged(check: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``check`` as a body's field checks it: refused, or taken as sent."""

    def judged(value: Any) -> Any:
        check(value)
        return value

    return judged


_AMOUNT_SCHEMA = {"type": ["string", "number", "null"], "pattern": r"^\d+(\.\d{1,2})?$"}
_PRIZE_SCHEMA: dict[str, Any] = {
    "oneOf": [
        {
            "type": "object",
            "properties": {
                "amount": _AMOUNT_SCHEMA,
                "description": {"type": "string", "maxLength": 200},
            },
            "additionalProperties": False,
            "description": "Money to the cent in the drive's currency, or a prize in kind.",
        },
        {"type": "null"},
    ]
}
_SHARE_PROPERTIES: dict[str, Any] = {
    "amount": _AMOUNT_SCHEMA,
    "description": {"type": "string", "maxLength": 200},
    "share_of": {"enum": list(SHARES_OF)},
    "percent": {"type": "integer", "minimum": 1, "maximum": 100},
}
_PLACE_PRIZE_SCHEMA: dict[str, Any] = {
    "oneOf": [
        {
            "type": "object",
            "properties": _SHARE_PROPERTIES,
            "additionalProperties": False,
            "description": "Money to the cent in the drive's currency, a prize in kind, or a "
            "share (percent) of the entry money or of the pot, rounded down to the set-up's "
            "share_rounding and fixed when the ties are opened.",
        },
        {"type": "null"},
    ]
}
#: A body's prizes of the places, its booby prize and its half-time prize.
PRIZES = Checks(
    _judged(lambda value: shares_total(prizes_of(value))),
    {
        "type": "array",
        "items": _PLACE_PRIZE_SCHEMA,
        "description": "A prize (or null) for each place; the shares, with the half-time "
        "prize's, come to at most 100 % (422 shares_over_100).",
    },
)
BOOBY_PRIZE = Checks(
    _judged(lambda value: prize_of(value, "booby_prize", share=False)), _PRIZE_SCHEMA
)
HALF_TIME_PRIZE = Checks(
    _judged(half_time_of),
    {
        "oneOf": [
            {
                "type": "object",
                "properties": {
                    "after_game": {"type": "integer", "minimum": 1, "maximum": GAMES[1]},
                    **_SHARE_PROPERTIES,
                },
                "required": ["after_game"],
                "additionalProperties": False,
                "description": "The half-time prize: the best couple after game after_game "
                "(ties settled like the places'); an amount, a description or a share.",
            },
            {"type": "null"},
        ]
    },
)

CATEGORIES = Checks(
    _judged(lambda value: shares_total(c.prize for c in categories_of(value))),
    {
        "type": "array",
        "maxItems": MAX_CATEGORIES,
        "items": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": MAX_CATEGORY_NAME},
                "rule": {"enum": list(CATEGORY_RULES)},
                "after_game": {"type": ["integer", "null"], "minimum": 1, "maximum": GAMES[1]},
                **_SHARE_PROPERTIES,
            },
            "required": ["name", "rule"],
            "additionalProperties": False,
            "description": "A prize the hall names with a rule the night's results decide: "
            "most_lost_in_a_row, most_won_in_a_row, most_lost (games lost in all), best_after "
            "(games won after after_game, which only it takes); an amount, a description or "
            "a share. Ties settled like the places'.",
        },
        "description": "The hall's named prizes, in the order one prize per couple follows "
        "among them (after the places and the half-time prize, before the booby prize); the "
        "list sent replaces the stored one. 422 unknown_rule, category_twice (two of one "
        "name), bad_field (no name, or one too long), shares_over_100.",
    },
)


# --- the night's money (money/) -------------------------------------------------------------------

WAYS = ("cash", "card", "e-transfer", "other")  # money.models.Way
HAND_KINDS = ("donation", "entry", "expense", "prize_paid")  # money.models.HAND_KINDS
MAX_TICKETS = 100_000
MAX_NOTE = 200
MAX_LICENCE_NUMBER = 40
_DIGITS = re.compile(r"^\s*\d+(\.\d+)?\s*$")


def _money_text(value: Any) -> str:
    """A sum as typed or sent, as text without spaces around (a float as Python writes it)."""
    if isinstance(value, bool) or value is None:
        raise ValueError("no sum")
    return str(value).strip()


def _not_negative(text: str) -> str:
    if text.startswith("-"):
        raise ValueError("negative")
    return text


def _written(text: str) -> Decimal:
    if not _DIGITS.match(text):
        raise ValueError("not a sum")
    return Decimal(text)


def _to_the_cent_only(amount: Decimal) -> Decimal:
    if amount != amount.quantize(Decimal("0.01")):
        raise ValueError("parts of a cent")
    return amount.quantize(Decimal("0.01"))


def _text_of(value: Any) -> dict[str, Any]:
    return {"text": value}


def _quoted_text_of(value: Any) -> dict[str, Any]:
    return {"text": f"{value!r}"}


AMOUNT_GIVEN = rule(
    "amount_given",
    "amount",
    "bad_amount",
    _("%(field)s: give a sum of money."),
    Annotated[str, BeforeValidator(_money_text)],
)
AMOUNT_NOT_NEGATIVE = rule(
    "amount_not_negative",
    "amount",
    "negative_amount",
    _("%(field)s: %(text)s is negative; to correct a line, reverse it."),
    Annotated[str, AfterValidator(_not_negative)],
    words=_text_of,
)
AMOUNT_WRITTEN = rule(
    "amount_written",
    "amount",
    "bad_amount",
    _("%(field)s: %(text)s is not a sum of money."),
    Annotated[str, AfterValidator(_written)],
    words=_quoted_text_of,
)
_range = _("%(field)s: give a sum from 0.01 to %(max)s.")
AMOUNT_RANGE = rule(
    "amount_range",
    "amount",
    "bad_amount",
    _range,
    Annotated[Decimal, Field(gt=0, le=MAX_MONEY)],
    {"max": MAX_MONEY},
)
AMOUNT_OR_ZERO_RANGE = rule(
    "amount_or_zero_range",
    "total",
    "bad_amount",
    _range,
    Annotated[Decimal, Field(ge=0, le=MAX_MONEY)],
    {"max": MAX_MONEY},
)
AMOUNT_CENTS = rule(
    "amount_cents",
    "amount",
    "sub_cent_amount",
    _("%(field)s: %(text)s has parts of a cent."),
    Annotated[Decimal, AfterValidator(_to_the_cent_only)],
    words=_text_of,
)
#: A sum of money: digits with at most two decimals, more than zero, at most MAX_MONEY.
AMOUNT = (AMOUNT_GIVEN, AMOUNT_NOT_NEGATIVE, AMOUNT_WRITTEN, AMOUNT_RANGE, AMOUNT_CENTS)
#: The same, or zero (the opening float, the box counted).
AMOUNT_OR_ZERO = (
    AMOUNT_GIVEN,
    AMOUNT_NOT_NEGATIVE,
    AMOUNT_WRITTEN,
    AMOUNT_OR_ZERO_RANGE,
    AMOUNT_CENTS,
)


def amount_of(value: Any, field: str = "amount", *, zero: bool = False) -> Decimal:
    """A sum of money as typed or sent (``zero``: zero too), refused naming ``field``."""
    amount: Decimal = check_field(AMOUNT_OR_ZERO if zero else AMOUNT, value, field=field)
    return amount


def money(field: str, *, zero: bool = False, optional: bool = False, blank: bool = False) -> Checks:
    """A body's sum of money sent as ``field``; ``optional``: null is none, and so is ""
    when ``blank``."""
    none: tuple[Any, ...] = (None, "") if blank else (None,) if optional else ()

    def check(value: Any) -> Decimal | None:
        if any(value is empty or value == empty for empty in none):
            return None
        return amount_of(value, field, zero=zero)

    low = 0 if zero else 0.01
    schema: dict[str, Any] = {
        "type": ["string", "number"] + (["null"] if none else []),
        "pattern": r"^\d+(\.\d{1,2})?$",
        "description": f"A sum of money to the cent, from {low} to {MAX_MONEY} (a string like "
        '"5.00").',
    }
    return Checks(check, schema)


def _money_whole(name: str, field: str, low: int, high: int, **doc: Any) -> Rule:
    return rule(
        name,
        field,
        "bad_number",
        _("%(field)s must be a whole number from %(low)s to %(high)s."),
        Annotated[int, Strict(), Field(ge=low, le=high)],
        {"low": low, "high": high},
        **doc,
    )


STRIP_SIZE = _money_whole("strip_size", "strip_size", 1, 1000)
SHARE_PERCENT = _money_whole("share_percent", "share_percent", 1, 100)
LINE_COUPLE = _money_whole("line_couple", "couple", 1, 10**9)
LINE_ID = _money_whole("line", "line", 1, 2**62)
RAFFLE_ID = _money_whole("raffle", "raffle", 1, 2**62)
TICKET_COUNT = _money_whole("ticket_count", "count", 1, MAX_TICKETS, default=1)
TICKET_FIRST = _money_whole("ticket_first", "first", 1, 10**9)
DENOMINATION_COUNT = _money_whole("denomination_count", "denominations", 0, 1_000_000)


def _cash_when_none(value: str | None) -> str:
    return value or "cash"


WAY = rule(
    "way",
    "way",
    "bad_way",
    _("way must be one of %(ways)s."),
    Annotated[Literal[(*WAYS, "")] | None, AfterValidator(_cash_when_none)],
    {"ways": ", ".join(WAYS)},
    description="How the money was paid (cash when not sent).",
)


def _kind_of(value: Any) -> dict[str, Any]:
    return {"kind": f"{value!r}"}


LINE_KIND = rule(
    "line_kind",
    "kind",
    "kind_not_by_hand",
    _(
        "%(kind)s is not entered by hand (one of %(hand)s); tickets, the cookie jar "
        "and the draws' payouts are recorded where they happen."
    ),
    Literal[HAND_KINDS],
    {"hand": ", ".join(HAND_KINDS)},
    words=_kind_of,
)
NOTE = rule(
    "note",
    "note",
    "bad_note",
    _("note: at most 200 characters."),
    Annotated[str, Strict(), Field(max_length=MAX_NOTE), AfterValidator(str.strip)],
)
#: A correction's note: any text, its first MAX_NOTE characters kept.
ReversalNote = Annotated[str, BeforeValidator(lambda value: str(value)[:MAX_NOTE])]
MONEY_CURRENCY = rule(
    "money_currency",
    "currency",
    "wrong_currency",
    _("The currency is three letters A–Z, like CAD."),
    Annotated[str, Strict()] | None,
    description="The drive's currency, to make sure of it (refused if it is another).",
)


def _raffle_name(value: str) -> str:
    name = value.strip()
    if not name or len(name) > 120:
        raise ValueError("no name")
    return name


RAFFLE_NAME = rule(
    "raffle_name",
    "name",
    "bad_name",
    _("A raffle item needs a name of 1 to 120 characters."),
    Annotated[str, Strict(), AfterValidator(_raffle_name)],
    pattern=r"\S",
    maxLength=120,
)
_type, _form, _params = text(MAX_LICENCE_NUMBER, what="the licence number")
LICENCE_NUMBER = rule(
    "licence_number",
    "licence_number",
    "bad_licence_number",
    _("The licence number has at most %(max)s characters."),
    *(_type, _params, _form),
    description="The number of the lottery licence the 50/50 and the raffles are run under "
    '(the licence report prints it); "" clears it.',
)
SCORERS_ALLOWED = rule(
    "scorers_allowed",
    "scorers_allowed",
    "bad_field",
    _("scorers_allowed must be true or false."),
    yes_no(),
    named=False,
)
DENOMINATIONS = rule(
    "denominations",
    "denominations",
    "bad_count",
    _("denominations: value → how many."),
    dict[str, object],
    description='A note or coin\'s value → how many of it, like {"20": 3, "0.25": 8}.',
)


def denominations_of(value: Any) -> list[tuple[Decimal, int]]:
    """The box counted by denomination, ``{"20": 3, "0.25": "8"}``: each note or coin's value
    (a sum of money) and how many (a whole number, digits as text too), refused naming the
    field ``denominations`` in words that name the value at fault."""
    counted = []
    for face, many in DENOMINATIONS.check(value).items():
        at = f"denominations {face}"
        try:
            amount = amount_of(face, at)
            if isinstance(many, str) and many.strip().isdigit():
                many = int(many)
            counted.append((amount, DENOMINATION_COUNT.check(many, field=at)))
        except ServiceError as error:
            error.details["field"] = "denominations"
            raise
    return counted


def one_count(total: Any, denominations: Any) -> None:
    """The box is counted one way: a total, or the count of each note and coin (422
    ``bad_count`` for both or neither, before either is judged)."""
    if (total is None) == (denominations is None or denominations == {}):
        raise ServiceError(
            "bad_count",
            gettext("Give the total counted, or the count of each note and coin."),
            field="total",
        )


#: A body's count by denomination (or null), judged by :func:`denominations_of`.
DENOMINATIONS_COUNTED = Checks(
    _judged(lambda value: value is None or denominations_of(value)),
    {
        "type": ["object", "null"],
        "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 1_000_000},
        "description": DENOMINATIONS.doc["description"],
    },
)


# --- a club's seasons (seasons/) ------------------------------------------------------------------

TEXT_SENT = rule(
    "text_sent",
    "name",
    "bad_field",
    _("%(field)s: send some text."),
    Annotated[str, Strict()],
)


def _refuse_unstorable_there(value: Any, info: ValidationInfo) -> Any:
    """Text no database stores refused first (``bad_text``), its place the field's."""
    text_refuse_unstorable(value, (info.context or {}).get("field", ""))
    return value


def _spelling(limit: int) -> Any:
    """A name, its runs of spaces made one, with something to see, at most ``limit``
    characters; text no database stores is refused first (``bad_text``)."""
    return Annotated[
        str,
        BeforeValidator(_refuse_unstorable_there),
        AfterValidator(_tidy_name),
        AfterValidator(_visible),
        Field(max_length=limit),
    ]


_name_words = _("%(field)s: a name of 1 to %(limit)s characters.")
SEASON_NAME_LENGTH = rule(
    "season_name",
    "name",
    "bad_name",
    _name_words,
    _spelling(120),
    {"limit": 120},
    {"max_length": 120},
)
#: A season's name: some text, something to see, at most 120 characters once tidied.
SEASON_NAME = (TEXT_SENT, SEASON_NAME_LENGTH)
SPELLING_LENGTH = rule(
    "spelling",
    "name",
    "bad_name",
    _name_words,
    _spelling(MAX_NAME),
    {"limit": MAX_NAME},
    {"max_length": MAX_NAME},
)
#: A player's name as a season's merges and splits take it (name, into, as_name).
SPELLING = (TEXT_SENT, SPELLING_LENGTH)
SEASON_DATE = rule(
    "season_date",
    "starts",
    "bad_date",
    _("%(field)s: a date as YYYY-MM-DD."),
    DATE.type,
)
SEASON_PUBLISHED = rule(
    "season_published",
    "published",
    "bad_field",
    _("published: true or false."),
    yes_no(),
)


# --- a season's rules (seasons/, engine/season.py: Rules) ---

#: The most nights a season's rules speak of (a night a week is 52; a night a day, 366).
SEASON_NIGHTS_MAX = 366
SEASON_POINTS_MAX = 1000
SEASON_POINTS_PLACES = 50


def _season_whole(name: str, field: str, low: int, **doc: Any) -> Rule:
    kind, form, params = whole(low, SEASON_NIGHTS_MAX)
    return rule(
        name,
        field,
        "bad_number",
        _("%(field)s: a whole number from %(min)s to %(max)s."),
        kind,
        params,
        form,
        **doc,
    )


SEASON_BEST = _season_whole(
    "season_best",
    "best_count",
    1,
    description="Only each player's best N nights count (null: every night counts).",
)
SEASON_OF = _season_whole(
    "season_of",
    "nights_planned",
    1,
    description="The season has M nights: nights after the Mth count for nothing (null: the "
    "nights played so far).",
)
SEASON_QUALIFY = _season_whole(
    "season_qualify",
    "qualify_nights",
    0,
    description="Nights a player must play to take a place; those who have not yet are listed "
    "apart (0: no minimum).",
)
SEASON_IMPROVED = _season_whole(
    "season_improved",
    "improved_nights",
    0,
    description="K: most improved is the biggest gain of the average of a player's last K "
    "nights over their first K (0: not named).",
)
SEASON_FINAL = _season_whole(
    "season_final",
    "final_size",
    0,
    description="The season's top N players are listed for the season final (0: no final).",
)
SEASON_SCORING_CHOICES = ("wins", "points")
_type, _form, _params = one_of(SEASON_SCORING_CHOICES)
SEASON_SCORING = rule(
    "season_scoring",
    "scoring",
    "bad_field",
    _("%(field)s: one of %(list)s."),
    _type,
    _params,
    _form,
    description="wins: a night scores its games won; points: the points of the couple's place "
    "that night (place_points).",
)
SEASON_TIES_CHOICES = ("shared", "nights_won", "best_night")
_type, _form, _params = one_of(SEASON_TIES_CHOICES)
SEASON_TIES = rule(
    "season_ties",
    "tie_break",
    "bad_field",
    _("%(field)s: one of %(list)s."),
    _type,
    _params,
    _form,
    description="Players of equal score: shared (they share the place); nights_won (more "
    "nights won, then the better best night, then shared); best_night (the better best night, "
    "then more nights won, then shared).",
)
SEASON_POINTS = rule(
    "season_points",
    "place_points",
    "bad_points",
    _(
        "%(field)s: the points of 1st, 2nd, 3rd… place, whole numbers from 0 to %(max)s "
        "(at most %(places)s places), e.g. 10, 8, 6, 5, 4."
    ),
    Annotated[
        list[Annotated[int, Strict(), Field(ge=0, le=SEASON_POINTS_MAX)]],
        Field(max_length=SEASON_POINTS_PLACES),
    ],
    {"max": SEASON_POINTS_MAX, "places": SEASON_POINTS_PLACES},
    description="Points for 1st, 2nd, 3rd… place of a night (shared places take the points of "
    "the place; a place past the list scores 0). Needed when scoring is points.",
)
DRIVE_SLUG = rule(
    "drive_slug",
    "drive",
    "no_such_drive",
    _("Name the drive by its slug."),
    Annotated[str, Strict(), Field(min_length=1)],
    status=404,
    description="The drive's slug.",
)


# --- the house rules, a drive's club ------------------------------------------------------------


def _switch_schema(option: dataclasses.Field[Any]) -> dict[str, Any]:
    if option.name in CHOICES:
        return {"enum": list(CHOICES[option.name])}
    if option.name == "floor":
        return {"type": ["integer", "null"], "maximum": -5, "minimum": FLOOR_LIMIT}
    if isinstance(option.default, bool):
        return {"type": "boolean"}
    return {"type": "integer"}


HOUSE_SWITCHES = rule(
    "house_rules",
    "rules",
    "bad_field",
    _('rules must be an object of switches, like {"renege": "none"}.'),
    dict[str, JsonValue],  # each switch's value is the engine's to judge (make_ruleset)
    description="The hall's house rules: the switches that differ from the preset "
    "(docs/rules.md lists each with its source); {} plays the preset as it is. A switch "
    "that makes no sense with the preset (an auction switch without the auction) is "
    "refused, naming it.",
    properties={
        option.name: _switch_schema(option)
        for option in dataclasses.fields(Ruleset)
        if option.name != "name"
    },
    additionalProperties=False,
)
CLUB_SLUG = rule(
    "club_slug",
    "club",
    "missing_field",
    _("Name the club by its slug."),
    Annotated[str, Strict(), Field(min_length=1)],
    description="The club's slug.",
)


# --- couples' bodies --------------------------------------------------------------------------


def _two(value: Any) -> list[Any]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ValueError("not two")
    return list(value)


COUPLE_PLAYERS = rule(
    "couple_players",
    "players",
    "bad_couple",
    _("players must be a list of two names."),
    Annotated[list[Any], BeforeValidator(_two)],
    named=False,
)


def players_of(value: Any, where: str = "") -> list[str]:
    """``players``: two names, each a player's name (:data:`PLAYER`)."""
    return [check_field(PLAYER, name, where) for name in COUPLE_PLAYERS.check(value, where)]


_PLAYERS_SCHEMA = {"type": "array", "items": player_schema(), "minItems": 2, "maxItems": 2}
#: A body's two names (``players``), checked as :func:`players_of`; or none (null).
PLAYERS = Checks(players_of, _PLAYERS_SCHEMA)
PLAYERS_OR_NONE = Checks(
    lambda value: None if value is None else players_of(value),
    {"anyOf": [_PLAYERS_SCHEMA, {"type": "null"}]},
)


def couple_named_once(item: Any, where: str = "") -> None:
    """A couple is an object naming its players once: ``players``, or ``player1`` and
    ``player2`` (422 ``bad_couple``)."""
    if not isinstance(item, dict):
        raise ServiceError(
            "bad_couple", gettext("%(where)sgive the two players' names.") % {"where": where}
        )
    if item.get("players") is not None and ("player1" in item or "player2" in item):
        raise ServiceError(
            "bad_couple",
            gettext("%(where)ssend players, or player1 and player2, not both.") % {"where": where}
            if where
            else gettext("Send players, or player1 and player2, not both."),
        )


# --- the start ----------------------------------------------------------------------------------

START_ABSENT = ("seat", "withdraw")


def _absent_of(value: Any) -> dict[str, Any]:
    return {"absent": f"{value!r}"}


ABSENT = rule(
    "absent",
    "absent",
    "bad_field",
    _("absent is seat or withdraw (what to do with the couples not checked in), not %(absent)s."),
    Literal[START_ABSENT],
    words=_absent_of,
    default="seat",
    description="The couples not checked in: seated anyway, or left out (withdrawn before game 1).",
)


# --- results' bodies ----------------------------------------------------------------------------

MAX_KEY = 80
MAX_REASON = 1000

RESULT_KEY = rule(
    "result_key",
    "key",
    "bad_key",
    _("key is text of at most %(MAX_KEY)s characters."),
    Annotated[str, Strict(), Field(max_length=MAX_KEY)] | None,
    {"MAX_KEY": MAX_KEY},
    named=False,
    description="A client-generated id: the same key again is a replay (200).",
)
ACCEPT = rule(
    "accept",
    "accept",
    "bad_field",
    _("accept must be true or false."),
    yes_no(),
    named=False,
)


def _said(value: str) -> str:
    if not value.strip():
        raise ValueError("nothing said")
    return value


REASON_GIVEN = rule(
    "reason_given",
    "reason",
    "reason_required",
    _("Say why: a correction needs a reason."),
    Annotated[str, Strict(), AfterValidator(_said)],
    form={"required": True},
    named=False,
)
REASON_LENGTH = rule(
    "reason_length",
    "reason",
    "reason_too_long",
    _("The reason has at most %(MAX_REASON)s characters."),
    Annotated[str, Field(max_length=MAX_REASON)],
    {"MAX_REASON": MAX_REASON},
    {"max_length": MAX_REASON},
    named=False,
)
#: Why a result is settled or corrected: something said, at most MAX_REASON characters.
REASON = (REASON_GIVEN, REASON_LENGTH)


# --- the holes counted on the punch cards -----------------------------------------------------


def _value_of(value: Any) -> dict[str, Any]:
    return {"value": f"{value!r}"}


HOLES = rule(
    "holes",
    "holes",
    "bad_holes",
    _('holes maps couple numbers to counts, like {"12": 18}.'),
    Annotated[dict[str, object], Field(min_length=1)],
    description='Couple number → holes counted, e.g. {"12": 18}.',
)
HOLES_COUPLE = rule(
    "holes_couple",
    "holes",
    "unknown_couple",
    _("%(value)s is not a couple number."),
    Annotated[str, Strict(), Field(pattern=r"^[0-9]{1,9}$")],
    words=_value_of,
)
HOLES_COUNT = rule(
    "holes_count",
    "holes",
    "bad_holes",
    _("The holes are a whole number from 0."),
    Annotated[int, Strict(), Field(ge=0)],
    form={"min_value": 0},
    named=False,
)


def holes_of(value: Any) -> dict[int, int]:
    """The holes counted: couple number (its digits) → holes, a whole number from 0 (refused
    after "Couple 12: ", as the dashboard names the box)."""
    holes = {}
    for key, count in HOLES.check(value).items():
        number = int(HOLES_COUPLE.check(key))
        where = gettext("Couple %(n)s") % {"n": number} + ": "
        holes[number] = HOLES_COUNT.check(count, where)
    return holes


#: A body's holes counted, checked as :func:`holes_of`.
HOLES_COUNTED = Checks(
    holes_of,
    {
        "type": "object",
        "description": HOLES.doc["description"],
        "minProperties": 1,
        "additionalProperties": {"type": "integer", "minimum": 0},
        "propertyNames": {"pattern": "^[0-9]{1,9}$"},
    },
)


# --- ties, cuts and play-offs, the cookie jar -----------------------------------------------------

TIE_CHOICES = ("split", "cut", "play-off", "forfeit")  # engine.prizes.CHOICES


def _couple_number(value: Any) -> int:
    """A couple number: a whole number, or its digits as text (up to nine)."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 9:
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ValueError("no couple number")


COUPLE_NUMBER = rule(
    "couple_number",
    "couple",
    "bad_couple",
    _("%(value)s is not a couple number."),
    Annotated[int, BeforeValidator(_couple_number)],
    words=_value_of,
)
TIE_CHOICE = rule(
    "tie_choice",
    "choice",
    "bad_field",
    _("Choose split, cut, play-off or forfeit."),
    Literal[TIE_CHOICES],
    named=False,
)
_yes_no_words = _("%(field)s must be true or false.")
DRAW = rule("draw", "draw", "bad_field", _yes_no_words, yes_no(), {"field": "draw"})
FORCE = rule(
    "force",
    "force",
    "bad_field",
    _yes_no_words,
    yes_no(),
    {"field": "force"},
    default=False,
    description="Open the ties before the last game is over.",
)


def _query_yes_no(value: Any) -> bool:
    """true or false in a query: also 1 or 0, any case."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text not in ("true", "false", "1", "0"):
        raise ValueError("not yes or no")
    return text in ("true", "1")


ALLOW_DUPLICATES = rule(
    "allow_duplicates",
    "allow_duplicates",
    "bad_field",
    _yes_no_words,
    Annotated[bool, BeforeValidator(_query_yes_no)],
    {"field": "allow_duplicates"},
)


def _never(value: Any) -> Any:
    raise ValueError("not taken")


NO_SEED = rule(
    "no_seed",
    "seed",
    "seed_not_accepted",
    _("The seed of a draw is drawn by the server and recorded with it; it cannot be sent."),
    Annotated[None, BeforeValidator(_never)],
)


def cards_of(value: Any) -> dict[int, Any]:
    """One round of a cut as sent: couple number → the card it cut (the engine reads the
    cards)."""
    cards = CUT_CARDS.check(value)
    return {COUPLE_NUMBER.check(key, field="cards"): card for key, card in cards.items()}


CUT_CARDS = rule(
    "cut_cards",
    "cards",
    "bad_cards",
    _('cards maps couple numbers to cards, like {"3": "7H"}.'),
    Annotated[dict[str, object], Field(min_length=1)],
)


def _pair(value: Any) -> list[int]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ValueError("not a pair")
    if not all(isinstance(c, int) and not isinstance(c, bool) for c in value):
        raise ValueError("not numbers")
    return list(value)


MATCH = rule(
    "match",
    "match",
    "bad_match",
    _("match is the two couples' numbers, like [3, 5]."),
    Annotated[list[int], BeforeValidator(_pair)],
    named=False,
    minItems=2,
    maxItems=2,
)
PLAYOFF_WINNER = rule(
    "playoff_winner",
    "winner",
    "wrong_couple",
    _("The winner is the number of one of the match's two couples."),
    Annotated[int, Strict()],
    named=False,
)


def _different(games: list[int]) -> list[int]:
    if len(set(games)) != len(games):
        raise ValueError("a game twice")
    return games


COOKIE_JAR_GAMES = rule(
    "cookie_jar_games",
    "games",
    "bad_games",
    _("The games drawn are different game numbers from 1 to %(max)s."),
    Annotated[list[Annotated[int, Strict(), Field(ge=1, le=GAMES[1])]], AfterValidator(_different)]
    | None,
    {"max": GAMES[1]},
    description="The games drawn from a hat (as many as the cookie jar's K); none: the "
    "server draws.",
)


# --- printed documents --------------------------------------------------------------------------

# scoring.models.Document.Kind (the treasurer's sheet, "accounts": money's)
DOCUMENT_KINDS = ("punch-cards", "table-cards", "score-sheets", "movement", "results", "accounts")
PAPERS = ("letter", "a4")  # scoring.models.Document.Paper


def _kind_named(value: Any) -> dict[str, Any]:
    return {"kind": f"{value!r}"}


def _paper_named(value: Any) -> dict[str, Any]:
    return {"paper": f"{value!r}"}


DOCUMENT = rule(
    "document",
    "document",
    "bad_document",
    _("%(kind)s is not a document: use one of %(list)s."),
    Literal[DOCUMENT_KINDS],
    {"list": ", ".join(DOCUMENT_KINDS)},
    words=_kind_named,
    details={"allowed": list(DOCUMENT_KINDS)},
)
PAPER = rule(
    "paper",
    "paper",
    "bad_paper",
    _("%(paper)s is not a paper size: use letter or a4."),
    Literal[PAPERS],
    words=_paper_named,
    default="letter",
)
_option_number = _("%(value)s is not a %(field)s number.")
DOCUMENT_GAME = rule(
    "document_game",
    "game",
    "bad_game",
    _option_number,
    Annotated[int, Strict(), Field(ge=1, le=NUMBER_MAX)] | None,
    words=_value_of,
    description="The movement sheet's game (the game in play when not sent) or the score sheets'.",
)
DOCUMENT_COUPLE = rule(
    "document_couple",
    "couple",
    "bad_couple",
    _option_number,
    Annotated[int, Strict(), Field(ge=1, le=NUMBER_MAX)] | None,
    words=_value_of,
    description="One couple's punch card.",
)
FILLED = rule(
    "filled",
    "filled",
    "bad_filled",
    _("filled must be true or false."),
    yes_no(),
    default=False,
    description="Punch cards with the wins recorded.",
)
BASE_URL = rule(
    "base_url",
    "base_url",
    "bad_base_url",
    _("base_url must be an http(s) URL."),
    Annotated[str, Strict(), Field(pattern=r"^https?://[^\s]{1,180}$")],
    format="uri",
    description="Where the QR codes point (this server when not sent).",
)
