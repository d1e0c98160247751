"""Every change the night's dashboard lists under "recent changes" reads as words, not as the
audit's internal action name."""

import re
from pathlib import Path

from django.conf import settings

from scoring.pages.organizer import ACTIONS

# Written by the services as a literal: audit(drive, actor, "action", …).
AUDIT_CALL = re.compile(r'audit\(\s*[^,()]+,\s*[^,()]+,\s*"([a-z_]+\.[a-z_.]+)"')
# Club-level changes, never on a drive's dashboard.
CLUB_ONLY = {"club.create", "member.set", "drive.delete"}


def written_actions() -> set[str]:
    found: set[str] = set()
    for app in ("drives", "scoring"):
        for path in (Path(settings.BASE_DIR) / app).rglob("*.py"):
            found.update(AUDIT_CALL.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_audited_action_of_a_drive_has_a_label() -> None:
    actions = written_actions()
    assert {"result.enter", "game.advance", "document.print"} <= actions  # the scan works
    assert sorted(actions - CLUB_ONLY - set(ACTIONS)) == []
