"""The home page offers every AI level the players define, and no other: it builds its list
from the server's grammar (``GET /api/player-spec``), with no list of its own."""

from __future__ import annotations

import re

from onered.players.strength import Level
from onered.web.models import NewGame
from onered.web.pages import STATIC_DIR, render
from web_support import Api


def test_the_server_gives_every_level_and_the_one_a_new_game_gets(api: Api) -> None:
    grammar = api.get("/api/player-spec").body
    assert grammar["levels"] == [level.value for level in Level]
    assert grammar["default_level"] == NewGame.model_fields["strength"].default.value
    assert grammar["default_level"] in grammar["levels"]


def test_the_home_page_has_no_list_of_levels_of_its_own() -> None:
    select = re.search(r'<select name="strength">(.*?)</select>', render("index"), re.S)
    assert select is not None
    assert select.group(1).strip() == ""  # filled from the grammar
    script = (STATIC_DIR / "home.js").read_text(encoding="utf-8")
    assert "playerSpec" in script
    for level in Level:
        assert f'"{level.value}"' not in script
