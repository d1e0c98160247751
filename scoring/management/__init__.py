"""The command line (``manage.py drive …``, ``manage.py demo``).

Apps above scoring add a subcommand of ``drive`` by naming a module in ``SUBCOMMANDS`` (name →
dotted path) from their AppConfig.ready (the seasons app: ``drive season …``). The module has
``HELP``, ``add_arguments(parser)`` and ``handle(command, options)``; it is imported by that
path when the command runs, so nothing in scoring imports it.
"""

SUBCOMMANDS: dict[str, str] = {}
