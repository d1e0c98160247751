"""Helpers of the command-line tests: run a command as a script would, stdout and stderr
captured, and the CSV files it reads."""

from io import StringIO

from django.core.management import call_command


def run(*args: str) -> str:
    """Run ``manage.py <args>`` and return its stdout (a CommandError propagates)."""
    return run_both(*args)[0]


def run_both(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def couples_csv(n: int) -> str:
    return "player1,player2\n" + "".join(f"Anne {i},Joe {i}\n" for i in range(1, n + 1))
