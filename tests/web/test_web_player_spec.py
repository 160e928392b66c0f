"""The page reads players' descriptions with the server's grammar (``GET /api/player-spec``,
``onered.players.spec``), not a copy of its own: the levels and parameters it is given are
the ones the server reads, and the page's reading follows that grammar."""

from __future__ import annotations

import re

from onered.players import PLAYER_PARAMS, Level, parse_player
from web_support import REPO, Api

COMMON_JS = REPO / "src" / "onered" / "web" / "static" / "common.js"


def test_the_grammar_is_the_servers(api: Api) -> None:
    grammar = api.get("/api/player-spec").body
    assert grammar["levels"] == [level.value for level in Level]
    assert grammar["params"] == list(PLAYER_PARAMS)
    example = f"{grammar['ai']}{grammar['kind_separator']}{grammar['levels'][-1]}"
    assert parse_player(example).level is Level.MASTER
    assert parse_player(grammar["human"]).is_computer is False


def test_the_page_has_no_table_of_levels_or_prefix_of_its_own() -> None:
    text = COMMON_JS.read_text(encoding="utf-8")
    assert "/api/player-spec" in text
    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.DOTALL)  # the code, not its notes
    assert not re.search(r"[\"'`]ai:", text)  # no "ai:" prefix written into the page
    for level in Level:
        assert f'"{level.value}"' not in text
