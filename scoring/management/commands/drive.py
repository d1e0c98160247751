"""``manage.py drive …``: a night from the command line, for organizers who keep spreadsheets
and for scripts. One command, one subcommand per use (docs/cli.md is the reference):

    create          a drive and its couples from a CSV file; prints the slug
    import-couples  more couples from a CSV file, all or nothing
    import-results  a results CSV, game by game, all or nothing
    export          the drive's full JSON record
    restore         a drive back from its JSON export
    fetch, publish  the hall's laptop in step with the club's site (docs/club-site.md)
    simulate        the rest of the night played by the engine's bots
    list, show      what drives there are; where one stands
    close           close the night (read-only from then on)
    print           a printed document (punch cards, table cards…) rendered to a PDF file
    tokens          each table's and couple's page address (the links on the QR codes)
    check           the stored night against the rules of the movement (docs/rules.md §7)

The command only parses, reads files and prints: every change goes through a service, with the
channel ``cli`` (``import`` for results files) in the audit. A ``ServiceError`` becomes one line
on stderr and exit code 1 (``CommandError``); a wrong option is argparse's exit code 2. A
couples file with couples already registered (or listed twice) is refused unless
``--allow-duplicates``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from importlib import import_module
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext

from drives.errors import ServiceError
from drives.models import AuditEntry, Drive
from drives.services import (
    Actor,
    club_get_or_create,
    couples_csv_read,
    couples_import_csv,
    csv_max_bytes,
    drive_close,
    drive_create,
)
from engine.bots import BOTS
from engine.rules import PRESETS
from scoring.integrity import drive_check
from scoring.management import SUBCOMMANDS
from scoring.printing.rendering import DEFAULT_BASE_URL, KINDS, PAPERS, document_render
from scoring.records.export import drive_export
from scoring.records.restore import MAX_EXPORT_BYTES, drive_restore, load_export
from scoring.records.sync import SyncError, night_fetch, night_publish
from scoring.results_import import results_import_csv
from scoring.selectors import game_view, standings_for_drive
from scoring.simulation import GamePlayed, drive_simulate

CLI = Actor(channel=AuditEntry.Channel.CLI)
IMPORT = Actor(channel=AuditEntry.Channel.IMPORT)


class Command(BaseCommand):
    help = (
        "Run a drive from the command line: create, import-couples, import-results, export, "
        "restore, fetch, publish, simulate, list, show, close, print, tokens, check. "
        "See docs/cli.md."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--language",
            choices=[code for code, _name in settings.LANGUAGES],
            default=settings.LANGUAGE_CODE,
            help="the language of the output and the refusals (default: %(default)s)",
        )
        subs = parser.add_subparsers(dest="subcommand", required=True, metavar="SUBCOMMAND")

        create = subs.add_parser(
            "create",
            help="create a drive and register its couples from a CSV file; prints the slug",
        )
        create.add_argument("--club", required=True, help="the club (created if missing)")
        create.add_argument("--name", required=True, help="the drive's name")
        create.add_argument("--date", required=True, help="the night's date, YYYY-MM-DD")
        create.add_argument(
            "--couples",
            required=True,
            metavar="FILE.csv",
            help="CSV with a header player1,player2 (optional paid,checked_in,cookie_jar)",
        )
        # The settings are taken as typed and judged by their rules (drives.inputs), so a
        # bad one is refused in the words of the API and the settings page.
        create.add_argument("--games", type=whole, default=25, help="games (default: 25)")
        create.add_argument(
            "--ruleset", default="cape-breton-45", help=f"ruleset preset: {', '.join(PRESETS)}"
        )
        create.add_argument(
            "--seating",
            default=Drive.FirstSeating.BY_NUMBER,
            help="first seating: by-number (default) or shuffle",
        )
        create.add_argument("--seed", type=whole, help="seed of a shuffled first seating")
        create.add_argument("--venue", default="", help="where the night is held")
        create.add_argument(
            "--allow-duplicates", action="store_true", help="register a couple listed twice"
        )

        couples = subs.add_parser(
            "import-couples",
            help="register more couples from a CSV file (player1,player2[,paid,…])",
        )
        couples.add_argument("slug")
        couples.add_argument("file", metavar="FILE.csv")
        couples.add_argument(
            "--allow-duplicates",
            action="store_true",
            help="register couples already registered (or listed twice) again",
        )

        results = subs.add_parser(
            "import-results", help="enter a results CSV (game,table,winner[,points]) game by game"
        )
        results.add_argument("slug")
        results.add_argument("file", metavar="FILE.csv")
        results.add_argument(
            "--confirm-unusual",
            action="store_true",
            help="accept scores the engine finds unusual (impossible ones are always refused)",
        )

        export = subs.add_parser("export", help="the drive's full record as JSON")
        export.add_argument("slug")
        export.add_argument("--output", "-o", metavar="FILE", help="write here, not to stdout")

        restore = subs.add_parser("restore", help="bring a drive back from its JSON export")
        restore.add_argument("file", metavar="FILE.json")
        restore.add_argument(
            "--replace", action="store_true", help="delete a drive with the same slug first"
        )

        fetch = subs.add_parser(
            "fetch", help="bring a drive from the club's site to this laptop (docs/club-site.md)"
        )
        fetch.add_argument("site", metavar="SITE_URL")
        fetch.add_argument("slug")
        fetch.add_argument("--token", required=True, help="an organizer's API token on the site")

        publish = subs.add_parser("publish", help="send the closed night to the club's site")
        publish.add_argument("slug")
        publish.add_argument("--site", required=True, metavar="SITE_URL")
        publish.add_argument("--token", required=True, help="an organizer's API token on the site")
        publish.add_argument(
            "--club", metavar="SLUG", help="the club's slug on the site (default: the same as here)"
        )

        simulate = subs.add_parser("simulate", help="play the rest of the night with bots")
        simulate.add_argument("slug")
        simulate.add_argument("--seed", type=int, help="same seed, same night (default: drawn)")
        simulate.add_argument(
            "--until-game", type=int, metavar="G", help="stop after game G (default: the last)"
        )
        simulate.add_argument(
            "--bot", default="heuristic", choices=list(BOTS), help="bots (default: heuristic)"
        )

        listing = subs.add_parser("list", help="the drives, newest first")
        listing.add_argument("--club", help="only this club's drives")

        show = subs.add_parser("show", help="a drive: the game in play, tables missing, top 10")
        show.add_argument("slug")

        close = subs.add_parser("close", help="close the night: read-only from then on")
        close.add_argument("slug")

        printing = subs.add_parser("print", help="render a document to a PDF file")
        printing.add_argument("slug")
        printing.add_argument("--document", required=True, choices=KINDS, help="what to print")
        printing.add_argument(
            "--game", type=int, help="the game (movement: default the game in play; score sheets)"
        )
        printing.add_argument("--couple", type=int, help="one couple's punch card only")
        printing.add_argument(
            "--filled", action="store_true", help="punch cards with the recorded wins punched"
        )
        printing.add_argument("--paper", default="letter", choices=PAPERS, help="default: letter")
        printing.add_argument(
            "--base-url", default=DEFAULT_BASE_URL, help="the site's address for the QR codes"
        )
        printing.add_argument("--output", "-o", required=True, metavar="FILE.pdf")

        tokens = subs.add_parser(
            "tokens", help="each table's and couple's page address, to send the links"
        )
        tokens.add_argument("slug")
        tokens.add_argument(
            "--base-url", default=DEFAULT_BASE_URL, help="the site's address for the links"
        )
        tokens.add_argument("--json", action="store_true", help="as JSON, for scripts")

        check = subs.add_parser("check", help="check the stored night against docs/rules.md §7")
        check.add_argument("slug")

        # Subcommands other apps add (scoring.management.SUBCOMMANDS: drive season …).
        for name, path in SUBCOMMANDS.items():
            module = import_module(path)
            module.add_arguments(subs.add_parser(name, help=module.HELP))

    def handle(self, *args: Any, **options: Any) -> None:
        handlers: dict[str, Callable[[dict[str, Any]], None]] = {
            "create": self.create,
            "import-couples": self.import_couples,
            "import-results": self.import_results,
            "export": self.export,
            "restore": self.restore,
            "fetch": self.fetch,
            "publish": self.publish,
            "simulate": self.simulate,
            "list": self.list_drives,
            "show": self.show,
            "close": self.close,
            "print": self.print_document,
            "tokens": self.list_tokens,
            "check": self.check_night,
        }
        for name, path in SUBCOMMANDS.items():
            handlers[name] = partial(import_module(path).handle, self)
        try:
            with translation.override(options.get("language") or settings.LANGUAGE_CODE):
                handlers[options["subcommand"]](options)
        except ServiceError as error:
            message = error.message
            if error.code == "duplicate_couples":
                message = message.rstrip(".") + " (--allow-duplicates)."
            raise CommandError(message) from None

    # --- subcommands ---------------------------------------------------------------------------

    def create(self, options: dict[str, Any]) -> None:
        data = read_file(options["couples"], csv_max_bytes())
        with transaction.atomic():  # a bad couples file leaves no drive (nor club) behind
            club = club_get_or_create(name=options["club"], actor=CLI)
            drive = drive_create(
                club=club,
                actor=CLI,
                name=options["name"],
                date=options["date"],
                venue=options["venue"],
                games=options["games"],
                ruleset=options["ruleset"],
                first_seating=options["seating"],
                seed=options["seed"],
            )
            couples_import_csv(
                drive=drive, data=data, actor=CLI, allow_duplicates=options["allow_duplicates"]
            )
        self.stdout.write(drive.slug)

    def import_couples(self, options: dict[str, Any]) -> None:
        drive = get_drive(options["slug"])
        data = read_file(options["file"], csv_max_bytes())
        created = couples_import_csv(
            drive=drive, data=data, actor=CLI, allow_duplicates=options["allow_duplicates"]
        )
        self.stdout.write(
            gettext("%(count)s couples registered: numbers %(first)s to %(last)s. %(note)s")
            % {
                "count": len(created),
                "first": created[0].number,
                "last": created[-1].number,
                "note": couples_csv_read(data).note,
            }
        )

    def import_results(self, options: dict[str, Any]) -> None:
        drive = get_drive(options["slug"])
        data = read_file(options["file"], csv_max_bytes())
        report = results_import_csv(
            drive=drive, data=data, actor=IMPORT, confirm_unusual=options["confirm_unusual"]
        )
        games = report.games
        span = f"game {games[0]}" if len(games) == 1 else f"games {games[0]}-{games[-1]}"
        self.stdout.write(
            gettext("%(rows)s rows (%(span)s): %(recorded)s recorded, %(unchanged)s already there.")
            % {
                "rows": report.rows,
                "span": span,
                "recorded": report.recorded,
                "unchanged": report.unchanged,
            }
        )
        if report.started:
            self.stdout.write(gettext("The night was started (game 1 seated) for the import."))
        if report.advanced:
            started = ", ".join(str(n) for n in report.advanced)
            self.stdout.write(gettext("Started game(s) %(started)s.") % {"started": started})
        self.stdout.write(
            gettext("Game %(current_game)s is in play.") % {"current_game": report.current_game}
        )

    def export(self, options: dict[str, Any]) -> None:
        drive = get_drive(options["slug"])
        text = export_text(drive)
        if options["output"]:
            try:
                Path(options["output"]).write_text(text, encoding="utf-8")
            except OSError as error:
                raise CommandError(
                    gettext("Cannot write %(options)s: %(strerror)s.")
                    % {"options": options["output"], "strerror": error.strerror}
                ) from None
            self.stdout.write(
                gettext("Exported %(slug)s to %(options)s.")
                % {"slug": drive.slug, "options": options["output"]}
            )
            return
        self.stdout.write(text, ending="")

    def fetch(self, options: dict[str, Any]) -> None:
        try:
            done = night_fetch(
                site=options["site"], slug=options["slug"], token=options["token"], actor=CLI
            )
        except SyncError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(done.line)

    def publish(self, options: dict[str, Any]) -> None:
        drive = get_drive(options["slug"])
        try:
            done = night_publish(
                drive=drive, site=options["site"], token=options["token"], club=options["club"]
            )
        except SyncError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(done.line)

    def restore(self, options: dict[str, Any]) -> None:
        data = load_export(read_file(options["file"], MAX_EXPORT_BYTES))
        report = drive_restore(data=data, replace=options["replace"], actor=CLI)
        replaced = " (the drive that had this slug was replaced)" if report.replaced else ""
        self.stdout.write(
            gettext(
                "Restored %(slug)s%(replaced)s: %(couples)s couples, %(games)s games, "
                "%(results)s results with %(versions)s versions, %(audit)s audit entries."
            )
            % {
                "slug": report.drive.slug,
                "replaced": replaced,
                "couples": report.couples,
                "games": report.games,
                "results": report.results,
                "versions": report.versions,
                "audit": report.audit,
            }
        )
        self.stdout.write(
            gettext(
                "New table and couple tokens were made (an export carries none): print the "
                "table cards and punch cards again."
            )
        )
        if report.unknown_users:
            self.stderr.write(
                "Users not found here (their entries keep no user): "
                + ", ".join(report.unknown_users)
            )

    def simulate(self, options: dict[str, Any]) -> None:
        drive = get_drive(options["slug"])

        def line(played: GamePlayed) -> None:
            after = (
                f"game {played.advanced_to} started"
                if played.advanced_to
                else "the last game: close the drive when the night is done"
                if played.game == drive.games
                else "still in play"
            )
            self.stdout.write(
                gettext(
                    "game %(game)s: %(recorded)s results simulated, %(already)s already in, "
                    "%(sit_outs)s sit-out(s); %(after)s"
                )
                % {
                    "game": played.game,
                    "recorded": played.recorded,
                    "already": played.already,
                    "sit_outs": played.sit_outs,
                    "after": after,
                }
            )

        report = drive_simulate(
            drive=drive,
            seed=options["seed"],
            until_game=options["until_game"],
            bot=options["bot"],
            actor=CLI,
            on_game=line,
        )
        if not report.games:
            self.stdout.write(
                gettext("Nothing to play: game %(current_game)s is already in play.")
                % {"current_game": report.current_game}
            )
        self.stdout.write(
            gettext("seed %(seed)s (%(bot)s bots); game %(current_game)s.")
            % {"seed": report.seed, "bot": report.bot, "current_game": report.current_game}
        )

    def list_drives(self, options: dict[str, Any]) -> None:
        drives = Drive.objects.select_related("club").order_by("-date", "name")
        if options["club"]:
            drives = drives.filter(club__name=options["club"])
        rows = [
            (
                d.slug,
                d.date.isoformat(),
                d.state,
                f"{d.current_game}/{d.games}",
                str(d.couples.count()),
                d.club.name,
            )
            for d in drives
        ]
        if not rows:
            self.stdout.write(gettext("No drives."))
            return
        header = ("slug", "date", "state", "game", "couples", "club")
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
        for row in [header, *rows]:
            cells = (c.ljust(w) for c, w in zip(row, widths, strict=True))
            self.stdout.write("  ".join(cells).rstrip())

    def show(self, options: dict[str, Any]) -> None:
        drive = get_drive(options["slug"])
        self.stdout.write(f"{drive.name} ({drive.date.isoformat()}) at {drive.club.name}")
        self.stdout.write(
            gettext("slug: %(slug)s  state: %(state)s  games: %(games)s")
            % {"slug": drive.slug, "state": drive.state, "games": drive.games}
        )
        self.stdout.write(
            gettext("couples: %(value)s  ruleset: %(ruleset)s")
            % {"value": drive.couples.count(), "ruleset": drive.ruleset}
        )
        view = game_view(drive, drive.current_game) if drive.current_game else None
        if view is None:
            self.stdout.write(gettext("No game has started."))
        else:
            self.stdout.write(
                gettext("game in play: %(game)s (%(reported)s of %(tables)s tables reported)")
                % {
                    "game": view["number"],
                    "reported": view["reported"],
                    "tables": view["to_report"],
                }
            )
            for label, key in (
                ("tables missing", "missing"),
                ("in conflict", "conflicts"),
                ("waiting for confirmation", "pending"),
            ):
                if view[key]:
                    self.stdout.write(f"{label}: {', '.join(str(t) for t in view[key])}")
        standings = standings_for_drive(drive)[:10]
        if standings and drive.current_game:
            self.stdout.write(gettext("standings (top 10):"))
            for row in standings:
                place = "-" if row["place"] is None else str(row["place"])
                self.stdout.write(
                    gettext("  %(place)s  %(couple)s  %(wins)s wins in %(played)s  %(players)s")
                    % {
                        "place": f"{place:>3}",
                        "couple": f"{row['number']:>4}",
                        "wins": f"{row['wins']:>2}",
                        "played": f"{row['played']:>2}",
                        "players": " & ".join(row["players"]),
                    }
                )

    def close(self, options: dict[str, Any]) -> None:
        drive = drive_close(drive=get_drive(options["slug"]), actor=CLI)
        self.stdout.write(
            gettext("Closed %(slug)s: read-only from now on, tokens dead.") % {"slug": drive.slug}
        )

    def print_document(self, options: dict[str, Any]) -> None:
        drive = get_drive(options["slug"])
        pages: list[int] = [0]

        def progress(done: int, total: int) -> None:
            pages[0] = total

        pdf = document_render(
            drive,
            options["document"],
            paper=options["paper"],
            game=options["game"],
            couple=options["couple"],
            filled=options["filled"],
            base_url=options["base_url"],
            progress=progress,
            actor=CLI,
        )
        try:
            Path(options["output"]).write_bytes(pdf)
        except OSError as error:
            raise CommandError(
                gettext("Cannot write %(options)s: %(strerror)s.")
                % {"options": options["output"], "strerror": error.strerror}
            ) from None
        count = f"{pages[0]} pages, " if pages[0] else ""
        self.stdout.write(
            gettext("Printed %(document)s to %(output)s (%(count)s%(size)s bytes).")
            % {
                "document": options["document"],
                "output": options["output"],
                "count": count,
                "size": f"{len(pdf):,}",
            }
        )

    def list_tokens(self, options: dict[str, Any]) -> None:
        drive = get_drive(options["slug"])
        if drive.is_closed:
            raise CommandError(
                gettext("%(slug)s is closed: its table and couple tokens no longer work.")
                % {"slug": drive.slug}
            )
        base = options["base_url"].rstrip("/")
        tables = [
            {
                "number": t.number,
                "token": t.token,
                "url": f"{base}/t/{t.token}/",
                "closed_game": t.closed_game,
            }
            for t in drive.tables.order_by("number")
        ]
        couples: list[dict[str, Any]] = [
            {
                "number": c.number,
                "players": c.players,
                "token": c.token,
                "url": f"{base}/c/{c.token}/",
                "withdrawn": c.withdrawn,
            }
            for c in drive.couples.order_by("number")
        ]
        if options["json"]:
            data = {"drive": drive.slug, "tables": tables, "couples": couples}
            self.stdout.write(json.dumps(data, indent=2, ensure_ascii=False))
            return
        self.stdout.write(
            gettext("%(name)s (%(date)s): pages for phones")
            % {"name": drive.name, "date": drive.date.isoformat()}
        )
        if tables:
            self.stdout.write("tables:")
            for table in tables:
                closed = (
                    f"  (closed from game {table['closed_game']})" if table["closed_game"] else ""
                )
                self.stdout.write(f"  {table['number']:>4}  {table['url']}{closed}")
        else:
            self.stdout.write(
                gettext("tables: none yet (the tables are set when the night starts)")
            )
        self.stdout.write("couples:")
        for couple in couples:
            withdrawn = "  (withdrawn)" if couple["withdrawn"] else ""
            self.stdout.write(
                f"  {couple['number']:>4}  {couple['url']}  "
                f"{' & '.join(couple['players'])}{withdrawn}"
            )

    def check_night(self, options: dict[str, Any]) -> None:
        drive = get_drive(options["slug"])
        report = drive_check(drive)
        looked_at = f"{report.games} games, {report.seats} seats, {report.results} results checked"
        if report.ok:
            self.stdout.write(
                gettext("%(slug)s: the night holds together (%(looked_at)s).")
                % {"slug": drive.slug, "looked_at": looked_at}
            )
            return
        for problem in report.problems:
            self.stdout.write(problem)
        raise CommandError(
            gettext(
                "%(slug)s: %(count)s problem(s) with the stored night (%(looked_at)s), "
                "listed on stdout."
            )
            % {"slug": drive.slug, "count": len(report.problems), "looked_at": looked_at}
        )


def whole(raw: str) -> int | str:
    """A whole number typed on the command line, or the text as typed (its rule refuses it)."""
    try:
        return int(raw)
    except ValueError:
        return raw


def get_drive(slug: str) -> Drive:
    drive = Drive.objects.select_related("club").filter(slug=slug).first()
    if drive is None:
        raise CommandError(
            gettext("No drive with the slug %(slug)s (manage.py drive list shows them).")
            % {"slug": f"{slug!r}"}
        )
    return drive


def read_file(path: str, limit: int) -> bytes:
    """A file's bytes; a message, never a traceback, when it cannot be read or is too big."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as error:
        raise CommandError(
            gettext("Cannot read %(path)s: %(value)s.")
            % {"path": path, "value": error.strerror or error}
        ) from None
    if len(data) > limit:
        raise CommandError(
            gettext("%(path)s is larger than %(limit)s bytes.")
            % {"path": path, "limit": f"{limit:,}"}
        )
    return data


def export_text(drive: Drive) -> str:
    """The export, pretty-printed (UTF-8 text, not \\u escapes), ending with a newline."""
    return (
        json.dumps(drive_export(drive), indent=2, ensure_ascii=False, cls=DjangoJSONEncoder) + "\n"
    )
