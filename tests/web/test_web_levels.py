"""The home page offers every AI level the players define, and no other."""

from __future__ import annotations

import re

from onered.players.strength import Level
from onered.web.pages import TEMPLATES_DIR


def test_the_home_page_offers_every_level() -> None:
    html = (TEMPLATES_DIR / "index.html").read_text(encoding="utf-8")
    select = re.search(r'<select name="strength">(.*?)</select>', html, re.S)
    assert select is not None
    offered = re.findall(r'<option value="([a-z]+)"', select.group(1))
    assert offered == [level.value for level in Level]
