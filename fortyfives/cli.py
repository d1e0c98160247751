"""The ``fortyfives`` command: what a volunteer types (or double-clicks) to run the hall.

    fortyfives hall [--address A] [--port P] [--data-dir D]   # serve the night
    fortyfives manage COMMAND …                               # a program's command, same data
    fortyfives backup [--to PATH]                             # the club in one file
    fortyfives restore FILE                                   # the club back from that file
    fortyfives --version | --help

Every subcommand works on the same data folder (``--data-dir``, else ``FORTYFIVES_DATA_DIR``,
else the laptop user's own: config/paths.py) with the hall's settings, so that what
docs/cli.md shows works during a hall night on the night's own database. The words are in the
hall's language (fortyfives/words.py). A refusal is one line on stderr and exit code 2, with
nothing changed; ``manage`` passes on the Django command's own exit code.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from fortyfives import __version__
from fortyfives.datafolder import Refusal, data_dir_of
from fortyfives.words import _, language_of, use_language


def data_dir_given(argv: list[str]) -> Path | None:
    """``--data-dir``'s value if given before a ``manage`` command's own arguments."""
    for index, word in enumerate(argv):
        if word == "manage" and index == 0:
            continue
        if word == "--data-dir" and index + 1 < len(argv):
            return Path(argv[index + 1])
        if word.startswith("--data-dir="):
            return Path(word.split("=", 1)[1])
    return None


def parser() -> argparse.ArgumentParser:
    main = argparse.ArgumentParser(
        prog="fortyfives",
        description=_(
            "Forty-Fives Card Drives on this laptop: the card night for the phones on "
            "the hall's Wi-Fi, and the club's data kept in one folder."
        ),
        epilog=_("Start the night with: fortyfives hall"),
    )
    main.add_argument(
        "--version",
        action="version",
        version=f"fortyfives {__version__}",
        help=_("show program's version number and exit"),
    )
    commands = main.add_subparsers(dest="command", metavar=_("COMMAND"), title=_("commands"))

    def folder(command: argparse.ArgumentParser) -> None:
        command.add_argument(
            "--data-dir",
            type=Path,
            metavar=_("FOLDER"),
            help=_("the club's data folder (the same for every command; normally left out)"),
        )

    hall = commands.add_parser(
        "hall",
        help=_("start the card night: the phones on the hall's Wi-Fi reach this laptop"),
        description=_(
            "Start the card night. Phones on the hall's Wi-Fi open the address it "
            "shows (or its QR code); Ctrl-C or closing the window stops it."
        ),
    )
    hall.add_argument(
        "--address",
        metavar=_("ADDRESS"),
        help=_("this laptop's address on the hall's network (found by itself if left out)"),
    )
    hall.add_argument("--port", type=int, default=8000, help=_("the port (8000 if left out)"))
    folder(hall)
    hall.add_argument("--threads", type=int, help=argparse.SUPPRESS)
    hall.add_argument(
        "--no-browser",
        action="store_true",
        help=_("do not open the organizer's page in this laptop's browser"),
    )
    hall.add_argument("--prepare-only", action="store_true", help=argparse.SUPPRESS)

    manage = commands.add_parser(
        "manage",
        help=_("run one of the program's commands (drive, apitoken, …) on the club's data"),
        description=_(
            "Run one of the program's commands on the same data as the hall's "
            "server, e.g. fortyfives manage drive show SLUG. "
            "fortyfives manage help lists them."
        ),
    )
    folder(manage)
    manage.add_argument("arguments", nargs=argparse.REMAINDER, metavar=_("COMMAND …"))

    backup = commands.add_parser(
        "backup",
        help=_("copy the club's data into one file (for a USB stick), even during the night"),
        description=_("Copy the club's data into one file, even while the server runs."),
    )
    backup.add_argument(
        "--to",
        type=Path,
        metavar=_("PATH"),
        help=_("the file or folder to write (the current folder if left out)"),
    )
    folder(backup)

    restore = commands.add_parser(
        "restore",
        help=_("put the club's data back from a backup file (the current data kept first)"),
        description=_(
            "Put the club's data back from a backup file. The data it replaces is "
            "kept as a backup first. Stop the server before."
        ),
    )
    restore.add_argument("file", type=Path, metavar=_("FILE"), help=_("the backup file"))
    folder(restore)
    return main


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    if not words and getattr(sys, "frozen", False):
        # The single-file bundle double-clicked: start the night (the organizer's page opens).
        words = ["hall"]
    given = data_dir_given(words)
    try:
        use_language(language_of(data_dir_of(given)))
    except Exception:
        use_language("en")
    options = parser().parse_args(words)
    data_dir = data_dir_of(options.data_dir if options.command else None)
    try:
        if options.command == "hall":
            from fortyfives.hall import DEFAULT_THREADS, Options, run

            return run(
                Options(
                    data_dir=data_dir,
                    address=options.address,
                    port=options.port,
                    threads=options.threads or DEFAULT_THREADS,
                    browser=not options.no_browser
                    and (sys.stdout.isatty() or bool(getattr(sys, "frozen", False))),
                    prepare_only=options.prepare_only,
                )
            )
        if options.command == "manage":
            from fortyfives.manage import run_command

            return run_command(data_dir, options.arguments)
        if options.command == "backup":
            from fortyfives.backups import backup

            made = backup(data_dir, options.to)
            print(_("The club's data is copied to %(file)s") % {"file": made})
            return 0
        if options.command == "restore":
            from fortyfives.backups import restore

            kept = restore(data_dir, options.file)
            if kept is None:
                print(_("The club's data is back from %(file)s.") % {"file": options.file})
            else:
                print(
                    _("The club's data is back from %(file)s. What it replaced is kept in %(kept)s")
                    % {"file": options.file, "kept": kept}
                )
            return 0
    except Refusal as refusal:
        print(f"fortyfives: {refusal}", file=sys.stderr)
        return 2
    parser().print_help()
    return 0
