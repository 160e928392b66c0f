"""Each game's session is kept per revision: a change made elsewhere (another process on the
same data folder) is seen, and the cache stays bounded."""

from __future__ import annotations

import json
from pathlib import Path

from db_support import other_store
from onered.web.games import Games
from web_support import Api


def test_a_change_by_another_process_is_seen(api: Api, tmp_path: Path) -> None:
    game, token = api.new_mark()
    api.mark(game, token, parts=["pot_red"])
    assert api.game(game)["state"]["score"] == [3, 0]  # the session is now cached
    other = other_store(api.app)  # another process's connections to the same database
    with other.edit(game, 2) as edit:
        edit.push(json.dumps({"type": "stroke", "first_hit": "red", "potted": ["red"]}))
    other.db.close()
    view = api.game(game)
    assert view["state"]["score"] == [6, 0]
    assert view["state"]["version"] == 3
    r = api.mark(game, token, parts=["no_score"], after=3)  # and changes go on from there
    assert r.status == 200, r.text
    assert r.body["game"]["state"]["to_play"] == "Petrov"


def test_the_cache_holds_the_most_recently_used_games(api: Api) -> None:
    games: Games = api.app.state.games
    games.cache_size = 2
    made = [api.new_mark()[0] for _ in range(3)]
    for game in made:
        api.game(game)
    assert games.revision(made[0]) is None
    assert games.revision(made[1]) is not None
    assert games.revision(made[2]) is not None
    assert api.game(made[0])["state"]["version"] == 1  # read again when needed
