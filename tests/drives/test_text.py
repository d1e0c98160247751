"""drives/text.py: where in a JSON body the text that cannot be stored is (``path``)."""

import pytest

from drives.errors import ServiceError
from drives.text import text_refuse_unstorable


@pytest.mark.parametrize(
    ("data", "where", "path"),
    [
        ({"name": "\x00"}, "", "name"),
        ({"prizes": [{"description": "\ud800"}]}, "", "prizes[0].description"),
        ([{"players": ["Mary", "\x00"]}], "", "[0].players[1]"),
        # An empty key is a place too: its child is ".x", not "x" (found by the fuzz tests).
        ({"": {"x": "\x00"}}, "", ".x"),
        ({"a": "\x00"}, "drive", "drive.a"),
    ],
)
def test_the_path_names_the_place_of_the_bad_text(data: object, where: str, path: str) -> None:
    with pytest.raises(ServiceError) as refused:
        text_refuse_unstorable(data, where)
    assert refused.value.code == "bad_text"
    assert refused.value.details["path"] == path
