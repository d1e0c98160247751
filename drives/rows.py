"""Hand-written SQL for the few statements every table's phone sends all night.

Recording a result is the request a hall sends most (every table, every game, all at once when
a game ends). Through the ORM, most of its cost was Django compiling the same SQL again on
every request (about 290 quoted names per submission); the SQL itself is a handful of indexed
look-ups and three inserts. The statements on that path (the token's owner, the drive's lock,
the table's seat and result, the inserts) are therefore written here once per database
vendor and run through Django's cursor (so that transactions, query counting and the debug
log see them as usual), and their rows become ordinary model instances:

- :class:`Statement`: a SELECT made once per vendor by a function of :class:`Sql` (column
  lists and table names come from the models' ``_meta``, so a new field is read without
  editing SQL);
- :func:`build`: a row's columns back into a model instance, through the same converters the
  ORM applies (SQLite's dates, booleans and JSON);
- :func:`insert`: a model instance saved as the ORM's ``save()`` would on creation (defaults,
  ``pre_save``, the same column values), without compiling the INSERT each time.

On PostgreSQL each of these statements is also a prepared statement of the connection
(``PREPARE`` on its first use in a connection, then ``EXECUTE``): planning the seat's five-way
join cost the server more than running it. The ``PREPARE`` goes through the driver's own
cursor, like the session set-up Django sends when it connects, so query counts stay those of
the request; ``EXECUTE`` goes through Django's cursor like any query. A pooler that hands one
client's statements to another server session (PgBouncer in transaction mode) would not keep
them: connect to PostgreSQL directly, as docs/deploy.md says.

Only the hot path uses this; everything else keeps the ORM. Tests compare each statement's
instances with the ORM's (tests/drives/test_rows.py).
"""

from __future__ import annotations

import itertools
import re
import weakref
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model

M = TypeVar("M", bound=Model)


def _connection(using: str = DEFAULT_DB_ALIAS) -> BaseDatabaseWrapper:
    return connections[using]


class Sql:
    """What a statement's text is made of, quoted for one database vendor."""

    def __init__(self, connection: BaseDatabaseWrapper) -> None:
        self.connection = connection
        self.vendor = connection.vendor
        self.quote = connection.ops.quote_name

    def table(self, model: type[Model]) -> str:
        return self.quote(model._meta.db_table)

    def column(self, model: type[Model], field: str, alias: str = "") -> str:
        column = self.quote(model._meta.get_field(field).column)  # type: ignore[union-attr]
        return f"{alias}.{column}" if alias else column

    def join(self, model: type[Model], alias: str, on: str, *, left: bool = False) -> str:
        """`` JOIN table alias ON alias.id = on`` (``on``: the other side's foreign key)."""
        pk = self.quote(model._meta.pk.column)  # type: ignore[union-attr]
        kind = "LEFT JOIN" if left else "JOIN"
        return f" {kind} {self.table(model)} {alias} ON {alias}.{pk} = {on}"

    def columns(self, model: type[Model], alias: str) -> str:
        """Every concrete column of ``model`` (in ``_meta`` order, as :func:`build` reads)."""
        return ", ".join(f"{alias}.{self.quote(f.column)}" for f in model._meta.concrete_fields)

    def lock(self, of: str, *, shared: bool = False, nowait: bool = False) -> str:
        """The row-lock clause on PostgreSQL (`` FOR UPDATE OF alias``); nothing on SQLite,
        where the IMMEDIATE transaction holds the write lock of the whole file."""
        if not self.connection.features.has_select_for_update_of:
            return ""
        return f" FOR {'SHARE' if shared else 'UPDATE'} OF {of}"


_PLACEHOLDER = re.compile(r"%s")
# Statement text -> its prepared name (numbered by one counter, so that two threads naming two
# texts at once never give both the same name); per driver connection, the names prepared.
_names: dict[str, str] = {}
_numbers = itertools.count(1)
_prepared: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()


def _numbered(text: str) -> str:
    """``%s`` placeholders as PostgreSQL's ``$1``, ``$2``… (for PREPARE)."""
    count = iter(range(1, 1_000))
    return _PLACEHOLDER.sub(lambda _: f"${next(count)}", text)


def _name_of(text: str) -> str:
    """The prepared statement's name for ``text``: the same for the same text in every
    connection of this process, never the same for two texts."""
    name = _names.get(text)
    if name is None:
        name = _names.setdefault(text, f"fortyfives_{next(_numbers)}")
    return name


def execute(cursor: Any, connection: BaseDatabaseWrapper, text: str, params: Sequence[Any]) -> None:
    """Run ``text`` with ``params`` on Django's ``cursor``; on PostgreSQL as a prepared
    statement of this connection (prepared on first use)."""
    if connection.vendor != "postgresql":
        cursor.execute(text, params)
        return
    name = _name_of(text)
    raw = connection.connection
    done = _prepared.get(raw)
    if done is None:
        done = _prepared.setdefault(raw, set())
    if name not in done:
        with connection.wrap_database_errors:  # a failure is Django's DatabaseError, as usual
            raw.execute(f"PREPARE {name} AS {_numbered(text)}")
        done.add(name)
    arguments = f"({', '.join(['%s'] * len(params))})" if params else ""
    cursor.execute(f"EXECUTE {name}{arguments}", params)


class Statement:
    """A SELECT whose text is made once per database vendor by ``make(sql)``; ``variant``
    names versions of it (with or without a lock)."""

    def __init__(self, make: Callable[..., str]) -> None:
        self.make = make
        self.texts: dict[tuple[str, str, tuple[Any, ...]], str] = {}

    def text(self, connection: BaseDatabaseWrapper, *variant: Any) -> str:
        key = (connection.alias, connection.vendor, variant)
        text = self.texts.get(key)
        if text is None:
            text = self.texts[key] = self.make(Sql(connection), *variant)
        return text

    def one(
        self, params: Sequence[Any], *variant: Any, using: str = DEFAULT_DB_ALIAS
    ) -> tuple[Any, ...] | None:
        """The first row, or None."""
        connection = _connection(using)
        with connection.cursor() as cursor:
            execute(cursor, connection, self.text(connection, *variant), params)
            return cursor.fetchone()


def fits(model: type[Model], field: str, value: int, *, using: str = DEFAULT_DB_ALIAS) -> bool:
    """Whether ``value`` fits the integer column ``field``: the ORM answers "no such row" for
    a look-up by a number out of the column's range, where a driver would raise."""
    connection = _connection(using)
    internal = model._meta.get_field(field).get_internal_type()
    low, high = connection.ops.integer_field_range(internal)
    return (low is None or value >= low) and (high is None or value <= high)


# --- rows back into instances ----------------------------------------------------------------

_converters: dict[tuple[str, type[Model]], list[tuple[int, list[Any], Any]]] = {}


def _converters_of(model: type[Model], connection: BaseDatabaseWrapper) -> list[Any]:
    """For each column that needs it: (position, converters, expression), as the ORM's
    compiler gathers them (the backend's, then the field's)."""
    key = (connection.alias, model)
    found = _converters.get(key)
    if found is None:
        found = []
        for i, field in enumerate(model._meta.concrete_fields):
            expression = field.get_col(model._meta.db_table)
            functions = connection.ops.get_db_converters(expression)
            functions += expression.get_db_converters(connection)
            if functions:
                found.append((i, functions, expression))
        _converters[key] = found
    return found


def build(
    model: type[M], row: Sequence[Any], start: int = 0, *, using: str = DEFAULT_DB_ALIAS
) -> tuple[M | None, int]:
    """The instance whose columns (all concrete ones, as :meth:`Sql.columns` lists them)
    start at ``row[start]``, and where the next model's columns start. None for the empty
    side of a LEFT JOIN (a NULL primary key)."""
    connection = _connection(using)
    width = len(model._meta.concrete_fields)
    values = list(row[start : start + width])
    if values[0] is None:
        return None, start + width
    for i, functions, expression in _converters_of(model, connection):
        value = values[i]
        for function in functions:
            value = function(value, expression, connection)
        values[i] = value
    instance = model.from_db(using, [f.attname for f in model._meta.concrete_fields], values)
    return instance, start + width


def relate(instance: Model, field: str, other: Model | None) -> None:
    """Attach ``other`` as ``instance.<field>`` (as select_related does), so reading it costs
    no query."""
    instance._meta.get_field(field).set_cached_value(instance, other)  # type: ignore[union-attr]


# --- inserts ---------------------------------------------------------------------------------

_inserts: dict[tuple[str, type[Model]], tuple[str, list[Any], bool]] = {}


def _insert_of(model: type[Model], connection: BaseDatabaseWrapper) -> tuple[str, list[Any], bool]:
    key = (connection.alias, model)
    found = _inserts.get(key)
    if found is None:
        sql = Sql(connection)
        meta = model._meta
        fields = [f for f in meta.concrete_fields if f is not meta.pk]
        returning = bool(connection.features.can_return_columns_from_insert)
        text = (
            f"INSERT INTO {sql.table(model)} ({', '.join(sql.quote(f.column) for f in fields)}) "
            f"VALUES ({', '.join(['%s'] * len(fields))})"
        )
        if returning:
            text += f" RETURNING {sql.quote(meta.pk.column)}"  # type: ignore[union-attr]
        found = _inserts[key] = (text, fields, returning)
    return found


def insert(instance: M, *, using: str = DEFAULT_DB_ALIAS) -> M:
    """Store a new ``instance`` (its primary key made by the database), as ``save()`` would:
    the same ``pre_save`` and database values per field. Models on this path send no
    signals; a model that had receivers would need ``save()``."""
    connection = _connection(using)
    text, fields, returning = _insert_of(type(instance), connection)
    values = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    with connection.cursor() as cursor:
        execute(cursor, connection, text, values)
        pk = cursor.fetchone()[0] if returning else cursor.lastrowid
    instance.pk = pk
    instance._state.adding = False
    instance._state.db = using
    return instance
