"""Reads that the live pages make at every render (a phone's page; the game's seats of the
desk grid and the projector, ``scoring.selectors.game_view``; the desk's results' histories and
their stamps), as the ORM writes them, built once per process.

A phone's fragment reads a handful of rows, and building and compiling their ``values()``
queries was most of the ORM's part of a render (the selection of each column, its joins, the
SQL), several times the time the database takes to answer them. Here a query is written once
by the ORM, for the default database, with stand-ins in place of its arguments; each read only
puts the arguments in place, runs the SQL and names the columns. What the database backend
converts (its ``from_db_value`` and backend converters: dates on SQLite, for example) is
converted as the ORM would.

Kept for its figure (scripts/bench_polls.py, 250 tables, CPU ms of a phone's 200 poll): the
couple page 4.8 ms before, about 3.1 with the ORM's ``values()`` alone (60–67 % of before), 1.5
with these reads; the table page 3.5, about 2.3, 1.2. An advance makes all 750 phones' polls
200s within one poll interval, and a night's phones make some 4,400 of them in the hall-night
scenario of BENCHMARKS.md. Kept when the pages came to be told of changes (issue 33): the
polls that found nothing went, the renders after a change stayed (each of 750 phones after an
advance, within its 5-6 s spread; a table's and its couples' after each result): some 37,500
a 25-game night, 60 CPU s fewer with these reads, and 1.2 s fewer in each advance's few
seconds, where the phones' answers queue (BENCHMARKS.md, "Pages told of a change").

The desk's reads after a result: the stamps 4.6 → 0.5 ms (the ORM's read the newest time too),
a table's history 3.4 → 0.3 ms, the game's seats 4.8 → 1.8 ms (BENCHMARKS.md, "The desk's
grid after a result").

Only for ``values()`` querysets (the rows come back as dicts); a stand-in must reach the SQL as
one or more parameters unchanged (a number compared with a whole-number column, or as text with
a text column). ``instance`` makes a model instance of such a row, as the ORM's own loading
does (``Model.from_db``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import connection
from django.db.models import Model, QuerySet

M = TypeVar("M", bound=Model)

# The stand-ins of the arguments while the query is written, one each so that each is found
# again in the parameters: numbers within the range of every whole-number column (the ORM
# writes a comparison with a number out of a column's range as "no rows", not as SQL).
STAND_INS = tuple(range(32_001, 32_021))


@dataclass(frozen=True)
class Prepared:
    sql: str
    params: tuple[Any, ...]
    # Where each argument goes in ``params`` (an argument may be used more than once).
    slots: tuple[tuple[int, ...], ...]
    names: tuple[str, ...]
    # Column position → (the converters of its value, its expression), as the ORM's
    # ``SQLCompiler.get_converters`` gives them.
    converters: dict[int, tuple[list[Any], Any]]

    def rows(self, *args: Any) -> list[dict[str, Any]]:
        params = list(self.params)
        for value, slots in zip(args, self.slots, strict=True):
            for at in slots:
                params[at] = value
        with connection.cursor() as cursor:
            cursor.execute(self.sql, params)
            found: Any = cursor.fetchall()
        rows = [dict(zip(self.names, row, strict=True)) for row in found]
        # As SQLCompiler.apply_converters, with this thread's connection.
        for at, (converters, expression) in self.converters.items():
            name = self.names[at]
            for row in rows:
                value = row[name]
                for convert in converters:
                    value = convert(value, expression, connection)
                row[name] = value
        return rows


def prepared(build: Callable[..., QuerySet[Any, Any]]) -> Callable[..., list[dict[str, Any]]]:
    """``build(*args)`` (a ``values()`` queryset of its arguments) as a function of the same
    arguments that returns its rows, the query written by the ORM at the first call only (and
    again for another database alias: the tests' own)."""

    @functools.cache
    def query(alias: str, arity: int) -> Prepared:
        queryset = build(*STAND_INS[:arity])
        compiler = queryset.query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        slots = tuple(
            # a number, or the same as text (compared with a text column)
            tuple(at for at, param in enumerate(params) if param in (stand_in, str(stand_in)))
            for stand_in in STAND_INS[:arity]
        )
        if not all(slots):
            raise ValueError(f"{build.__name__}: an argument is not a parameter of its SQL")
        columns = [column for column, _sql, _alias in compiler.select[: compiler.col_count]]
        written = queryset.query
        # the names ValuesIterable gives the columns: in the order values() named them (an
        # annotation among the fields included), else the fields, then the annotations
        names = (
            tuple(written.selected)
            if written.selected
            else (*written.extra_select, *written.values_select, *written.annotation_select)
        )
        if len(names) != len(columns):
            raise ValueError(f"{build.__name__}: not a values() query")
        return Prepared(
            sql=sql,
            params=tuple(params),
            slots=slots,
            names=tuple(names),
            converters=compiler.get_converters(columns),
        )

    @functools.wraps(build)
    def rows(*args: Any) -> list[dict[str, Any]]:
        return query(connection.alias, len(args)).rows(*args)

    return rows


def instance(model: type[M], row: dict[str, Any], prefix: str = "") -> M:
    """The ``model`` instance of ``row`` (a ``values()`` row with every concrete column of
    ``model``, by its attribute name, after ``prefix``), loaded as the ORM loads a row."""
    names = [field.attname for field in model._meta.concrete_fields]
    return model.from_db(connection.alias, names, [row[prefix + name] for name in names])


def columns(model: type[Model], prefix: str = "") -> list[str]:
    """Every concrete column of ``model`` by its attribute name, after ``prefix`` (a relation
    followed: ``"drive__"``), for a ``values()`` query that ``instance`` loads."""
    return [prefix + field.attname for field in model._meta.concrete_fields]
