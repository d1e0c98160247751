"""The projector shows the drive's rules (the preset, then each house-rule switch), discreetly
under the title, in every mode and in the fragment it polls, as the standings page does."""

import html as html_lib
import re

import pytest

from tests.pages.live_helpers import logged_in, night, people, text

pytestmark = pytest.mark.django_db


def _rules_line(page: str) -> str:
    found = re.search(r'data-testid="projector-rules">(.*?)</p>', page, re.S)
    assert found is not None, "no rules line"
    return html_lib.unescape(found.group(1))


def test_the_projector_shows_the_house_rules_in_every_mode() -> None:
    ours = people()
    drive = night(ours.club, 4, ruleset="auction-120", rules={"kitty": 3, "min_bid": 20})
    client = logged_in(ours.scorer)
    base = f"/drives/{drive.slug}/projector/"
    for extra in ("", "?partial=1", "?show=standings", "?show=standings&partial=1"):
        line = _rules_line(text(client.get(base + extra)))
        assert line == (
            "Rules: Auction 45s to 120 · Auction: the lowest bid: 20 · "
            "Auction: cards in the kitty: 3"
        ), extra
    standings = text(client.get(f"/drives/{drive.slug}/standings/"))
    assert "Auction: cards in the kitty: 3" in html_lib.unescape(standings)


def test_a_drive_under_its_preset_names_the_preset_only() -> None:
    ours = people()
    drive = night(ours.club, 4)
    page = text(logged_in(ours.scorer).get(f"/drives/{drive.slug}/projector/"))
    assert _rules_line(page) == "Rules: Cape Breton 45s"
