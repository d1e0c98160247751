"""django-tables2 tables of the night's results: the standings and the per-game win grid.

A shared :class:`BaseTable` sets the look (sortable headers, an empty text) and the exports
(``?_export=csv`` or ``xlsx`` through ``django_tables2.export.TableExport``). The rows come
from ``scoring.selectors`` as plain dicts; nothing here reads the database.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any

import django_tables2 as tables
from django.http import HttpResponse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _
from django_tables2.export import TableExport
from openpyxl import load_workbook

from scoring.selectors import LOSS, PENDING, SIT_OUT, SIT_OUT_WIN, WIN

EXPORT_PARAM = "_export"
EXPORT_FORMATS = (TableExport.CSV, TableExport.XLSX)
# Sorts withdrawn couples (no place) after everyone placed, whichever way the column sorts.
NO_PLACE = 10**6


LEAN_TEMPLATE = "scoring/lean_table.html"


class BaseTable(tables.Table):
    """What every table of results shares: the look, sorting, and CSV/XLSX export."""

    export_formats = EXPORT_FORMATS

    class Meta:
        attrs = {"class": "data-table"}
        # django-tables2's own rows; a table with ``lean_cells`` (the standings and the win
        # grid, hundreds of rows polled by no one but read at every game) names
        # LEAN_TEMPLATE instead.
        template_name = "django_tables2/table.html"
        orderable = True
        empty_text = _("Nothing to show yet.")

    def lean_cells(self, record: dict[str, Any]) -> str:
        """A row's cells as HTML (every text escaped), for :meth:`lean_body`."""
        raise NotImplementedError

    def lean_body(self) -> SafeString:
        """The rows as HTML, in the table's order (sorted by the header asked for), a string a
        row: django-tables2's own template (a bound row and a template node a cell) costs half
        a second for the win grid of 500 couples. The markup is the same."""
        rows = [
            f'<tr data-couple="{int(record["number"])}" class="{"odd" if index % 2 else "even"}">'
            f"{self.lean_cells(record)}</tr>\n"
            for index, record in enumerate(self.data)
        ]
        if not rows and self.empty_text:
            rows.append(
                format_html('<tr><td colspan="{}">{}</td></tr>', len(self.columns), self.empty_text)
            )
        return mark_safe("".join(rows))

    def export_response(self, export_format: str | None, filename: str) -> HttpResponse | None:
        """The export as a download, or None when ``export_format`` is not one we offer."""
        if export_format not in self.export_formats:
            return None
        exporter = TextExport(
            export_format, self, dataset_kwargs={"title": str(filename)[:31] or "export"}
        )
        response: HttpResponse = exporter.response(filename=f"{filename}.{export_format}")
        return response


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def inert(value: Any) -> Any:
    """A CSV cell a spreadsheet will not run: text that starts like a formula ("=", "+", "-",
    "@", a tab or a carriage return) gets a leading apostrophe, as OWASP advises for CSV
    files; numbers ("-5", "+2.5") and a lone "-" stay as they are."""
    if not isinstance(value, str) or len(value) < 2 or not value.startswith(FORMULA_STARTS):
        return value
    try:
        float(value)
    except ValueError:
        return "'" + value
    return value


class TextExport(TableExport):
    """The export, where every cell is what it shows: a couple named "=HYPERLINK(…)" stays a
    name, never a live formula — as a text cell in XLSX (openpyxl makes a formula of any text
    that starts with "="), with a leading apostrophe in CSV and TSV (:func:`inert`). CSV and
    TSV are UTF-8 with a byte order mark, which Excel needs to read "Thérèse" as written
    (without it Excel reads the file in the computer's code page: "ThÃ©rÃ¨se")."""

    def table_to_dataset(self, table: Any, exclude_columns: Any, dataset_kwargs: Any = None) -> Any:
        dataset = super().table_to_dataset(table, exclude_columns, dataset_kwargs)
        if self.format not in (self.CSV, self.TSV):
            return dataset
        rows = [tuple(inert(value) for value in row) for row in dataset]
        headers = [inert(header) for header in dataset.headers or []]
        dataset.wipe()
        dataset.headers = headers
        for row in rows:
            dataset.append(row)
        return dataset

    def export(self) -> Any:
        data = super().export()
        if self.format in (self.CSV, self.TSV):
            return "\ufeff" + data
        if self.format != self.XLSX:
            return data
        book = load_workbook(io.BytesIO(data))
        for sheet in book.worksheets:
            for row in sheet.iter_rows():
                for cell in row:
                    if cell.data_type == "f":
                        cell.data_type = "s"
        out = io.BytesIO()
        book.save(out)
        return out.getvalue()


def td(value: Any) -> str:
    """A cell of text, escaped."""
    return f"<td>{escape(value)}</td>"


def players_text(players: Any) -> str:
    return " & ".join(players) if isinstance(players, list | tuple) else str(players)


class PlayersColumn(tables.Column):
    def render(self, value: Any) -> str:
        return " & ".join(value) if isinstance(value, list | tuple) else str(value)

    def value(self, value: Any) -> str:
        return self.render(value)


class StandingsTable(BaseTable):
    place = tables.Column(verbose_name=_("Place"), order_by=("place_key", "number"))
    number = tables.Column(verbose_name=_("Couple"))
    players = PlayersColumn(verbose_name=_("Players"), order_by=("players_key",))
    wins = tables.Column(verbose_name=_("Wins"), order_by=("wins", "number"))
    played = tables.Column(verbose_name=_("Played"))
    withdrawn = tables.Column(verbose_name=_("Withdrawn"))

    class Meta(BaseTable.Meta):
        row_attrs = {"data-couple": lambda record: record["number"]}
        attrs = {"class": "data-table standings"}
        template_name = LEAN_TEMPLATE

    def render_place(self, value: Any) -> str:
        return "—" if value is None else str(value)

    def value_place(self, value: Any) -> Any:
        return "" if value is None else value

    def render_withdrawn(self, value: Any) -> str:
        return str(_("withdrawn")) if value else ""

    def lean_cells(self, record: dict[str, Any]) -> str:
        return "".join(
            td(value)
            for value in (
                self.render_place(record["place"]),
                record["number"],
                players_text(record["players"]),
                record["wins"],
                record["played"],
                self.render_withdrawn(record["withdrawn"]),
            )
        )

    def value_withdrawn(self, value: Any) -> str:
        return "yes" if value else ""


def standings_rows(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows of ``standings_for_drive`` with the sort keys the table needs."""
    return [
        row
        | {
            "place_key": NO_PLACE if row["place"] is None else row["place"],
            "players_key": " & ".join(row["players"]).casefold(),
        }
        for row in rows
    ]


MARK_CLASSES = {
    WIN: "mark-win",
    LOSS: "mark-loss",
    SIT_OUT_WIN: "mark-sit-win",
    SIT_OUT: "mark-sit",
    PENDING: "mark-pending",
}


def _mark_class(value: Any = None) -> str:
    return MARK_CLASSES.get(value, "mark-none")


def _mark_cell(value: Any) -> str:
    return f'<td class="{_mark_class(value)}">{escape(value)}</td>'


class WinGridTable(BaseTable):
    """Couples down, games across: W, L, S, - or ? per game (``scoring.selectors.win_grid``).
    Build it with :func:`win_grid_table`, which adds a column per game."""

    number = tables.Column(verbose_name=_("Couple"))
    players = PlayersColumn(verbose_name=_("Players"), order_by=("players_key",))
    wins = tables.Column(verbose_name=_("Wins"), order_by=("wins", "number"))

    class Meta(BaseTable.Meta):
        attrs = {"class": "data-table win-grid"}
        row_attrs = {"data-couple": lambda record: record["number"]}
        template_name = LEAN_TEMPLATE

    def __init__(self, *args: Any, games: int = 0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game_keys = [f"g{game}" for game in range(1, games + 1)]
        self.mark_cells = {mark: _mark_cell(mark) for mark in (*MARK_CLASSES, "")}

    def lean_cells(self, record: dict[str, Any]) -> str:
        marks = self.mark_cells
        head = td(record["number"]) + td(players_text(record["players"])) + td(record["wins"])
        return head + "".join(
            marks.get(record[key]) or _mark_cell(record[key]) for key in self.game_keys
        )


def win_grid_table(rows: Iterable[dict[str, Any]], games: int, **kwargs: Any) -> WinGridTable:
    """The win grid of ``win_grid`` rows, with one column per game 1..``games``."""
    data = []
    for row in rows:
        item = {
            "number": row["number"],
            "players": row["players"],
            "players_key": " & ".join(row["players"]).casefold(),
            "wins": row["wins"],
        }
        for game in range(1, games + 1):
            item[f"g{game}"] = row["games"].get(str(game), "")
        data.append(item)
    columns = [
        (
            f"g{game}",
            tables.Column(
                verbose_name=str(game),
                orderable=False,
                default="",
                attrs={"td": {"class": _mark_class}, "th": {"class": "game"}},
            ),
        )
        for game in range(1, games + 1)
    ]
    return WinGridTable(data, extra_columns=columns, games=games, **kwargs)
