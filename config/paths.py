"""Where the program's own files are, in a checkout and once installed, and the hall's own
choices kept in its data folder. Plain Python: the ``fortyfives`` command reads them before
Django starts (its help in the hall's language).

- ``BASE_DIR``: the checkout (or, installed, the folder that holds the packages).
- ``SITE_DIR``: the folder of ``templates/``, ``static/`` and ``locale/``: the checkout itself,
  or, installed from the wheel (or the single-file bundle), ``config/site/`` inside the package,
  where the wheel's build (hatch_build.py) and the bundle (packaging/fortyfives.spec) put them.
- ``hall.json`` in the hall's data folder: what the hall chose at its first start (its
  language) and the address its phones used last (for ``fortyfives manage`` while no server
  runs), read and written whole.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parent.parent
_INSTALLED_SITE = Path(__file__).resolve().parent / "site"
SITE_DIR = BASE_DIR if (BASE_DIR / "templates").is_dir() else _INSTALLED_SITE

HALL_FILE = "hall.json"
# The data folder's name: a program's (capitalised) on Windows and macOS, lower case on Linux.
APP_NAME = "Fortyfives"


def default_data_dir() -> Path:
    """The hall's data folder unless told otherwise (``--data-dir``, ``FORTYFIVES_DATA_DIR``):
    the laptop user's own, where the system keeps programs' data (platformdirs):
    ``%LOCALAPPDATA%\\Fortyfives`` on Windows, ``~/Library/Application Support/Fortyfives`` on
    macOS, ``~/.local/share/fortyfives`` on Linux (``$XDG_DATA_HOME``). Never the current
    folder, so that every command finds the same club wherever it is started."""
    chosen = os.environ.get("FORTYFIVES_DATA_DIR", "").strip()
    if chosen:
        return Path(chosen).expanduser().resolve()
    import platformdirs

    name = APP_NAME if os.name == "nt" or sys.platform == "darwin" else APP_NAME.lower()
    return Path(platformdirs.user_data_dir(name, appauthor=False, roaming=False)).resolve()


def hall_choices(data_dir: Path) -> dict[str, Any]:
    """The hall's choices (``{"language": "fr", "url": "http://…"}``), empty if none yet or the
    file cannot be read."""
    try:
        found = json.loads((data_dir / HALL_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def hall_choose(data_dir: Path, **choices: Any) -> None:
    """Keep ``choices`` in the hall's file beside what it holds, written whole (a temporary file
    replaced), readable by the laptop's owner only."""
    kept = hall_choices(data_dir) | choices
    partial = data_dir / f"{HALL_FILE}.partial"
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        json.dump(kept, out, indent=2, sort_keys=True)
        out.write("\n")
    partial.replace(data_dir / HALL_FILE)
