"""Issue 10, items 3 and 7 through the API: search with paging, my games, delete with the
secret; matches (best of N, handicap, who breaks, the clock) and a player's figures."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from web_support import P1, P2, Api


def pot_reds(api: Api, game: str, token: str, n: int) -> dict[str, Any]:
    body: dict[str, Any] = {}
    for _ in range(n):
        r = api.mark(game, token, parts=["pot_red"])
        assert r.status == 200, r.text
        body = r.body
    return body


def no_score(api: Api, game: str, token: str) -> None:
    assert api.mark(game, token, parts=["no_score"]).status == 200


# --- search, paging, my games, delete ------------------------------------------------------


def test_paging_walks_every_game_once_newest_change_first(api: Api) -> None:
    made = [api.new_mark(target=50)[0] for _ in range(7)]
    seen: list[str] = []
    for offset in (0, 3, 6):
        r = api.get(f"/api/find?limit=3&offset={offset}")
        assert r.status == 200, r.text
        assert r.body["total"] == 7
        seen += [g["id"] for g in r.body["games"]]
    assert seen == list(reversed(made))


def test_search_by_player_any_case_and_script(api: Api) -> None:
    api.post("/api/games", json={"mode": "mark", "players": ["Сидоров", "Козлов"]})
    api.new_mark()
    assert api.get("/api/find").body["total"] == 2
    found = api.get("/api/find?player=сИДОР").body
    assert found["total"] == 1
    assert found["games"][0]["players"] == ["Сидоров", "Козлов"]
    assert api.get(f"/api/find?player={P1.lower()}").body["total"] == 1
    assert api.get("/api/find?player=Ivan&exact=true").body["total"] == 0
    assert api.get(f"/api/find?player={P1}&exact=true").body["total"] == 1


def test_search_by_kind_and_finished(api: Api) -> None:
    done, token = api.new_mark(target=3)
    pot_reds(api, done, token, 1)
    api.new_mark(target=50)
    exported = api.get(f"/api/games/{done}/export.jsonl").text
    assert api.post("/api/import", content=exported).status == 201
    assert api.get("/api/find?kind=mark").body["total"] == 2
    assert api.get("/api/find?kind=import").body["total"] == 1
    assert api.get("/api/find?kind=mark&kind=import").body["total"] == 3
    assert api.get("/api/find?finished=true").body["total"] == 2
    unfinished = api.get("/api/find?finished=false").body
    assert unfinished["total"] == 1
    assert unfinished["games"][0]["winner"] is None
    assert api.get("/api/find?kind=golf").status == 422


def test_search_by_date_range(api: Api) -> None:
    before = time.time()
    api.new_mark()
    after = time.time()
    assert api.get(f"/api/find?since={before - 1}&until={after + 1}").body["total"] == 1
    assert api.get(f"/api/find?since={after + 1}").body["total"] == 0
    assert api.get(f"/api/find?until={before - 1}").body["total"] == 0
    assert api.get("/api/find?since=-5").status == 422


def test_my_games_are_the_ids_this_browser_holds(api: Api) -> None:
    mine = [api.new_mark()[0] for _ in range(3)]
    api.new_mark()
    r = api.get(f"/api/find?ids={','.join([*mine, 'gone'])}")
    assert r.status == 200
    assert sorted(g["id"] for g in r.body["games"]) == sorted(mine)
    assert r.body["total"] == 3
    paged = api.get(f"/api/find?ids={','.join(mine)}&limit=2").body
    assert len(paged["games"]) == 2
    assert paged["total"] == 3


def test_delete_with_the_secret_removes_the_row_and_its_lines(api: Api) -> None:
    game, token = api.new_mark()
    pot_reds(api, game, token, 2)
    other, other_token = api.new_mark()
    missing = api.request("DELETE", f"/api/games/{game}")
    assert missing.status == 401
    assert "X-Game-Token: missing" in missing.error
    wrong = api.request("DELETE", f"/api/games/{game}", token=other_token)
    assert wrong.status == 403
    assert f"not the secret of game {game!r}" in wrong.error
    assert api.get(f"/api/games/{game}").status == 200  # still there
    gone = api.request("DELETE", f"/api/games/{game}", token=token)
    assert gone.status == 200
    assert gone.body == {"deleted": game}
    assert api.get(f"/api/games/{game}").status == 404
    assert api.app.state.store.lines(game) == []
    assert api.request("DELETE", f"/api/games/{game}", token=token).status == 404
    assert [g["id"] for g in api.get("/api/find").body["games"]] == [other]


# --- matches -------------------------------------------------------------------------------


def test_a_match_best_of_three_with_a_handicap_and_alternating_break(api: Api) -> None:
    made = api.new_match(handicap=[0, 3], breaker=0, breaker_ball="yellow")
    match_id, match_token = made["id"], made["token"]
    first = made["game"]
    view = api.game(first["id"])
    assert view["match"]["players"] == [P1, P2]  # Ivanov won the lag: breaks game 1
    assert view["match"]["balls"] == ["yellow", "white"]
    assert view["state"]["score"] == [0, 3]  # the handicap in the opening score
    assert view["settings"]["match"] == {"id": match_id, "number": 0}
    # game 1: Ivanov pots the red twice (6 points) and wins
    pot_reds(api, first["id"], first["token"], 2)
    m = api.get(f"/api/matches/{match_id}").body
    assert m["wins"] == {P1: 1, P2: 0}
    assert m["winner"] is None
    assert m["can_start_next"] is True
    # game 2: Petrov breaks, keeps the white, still given 3
    r = api.post(f"/api/matches/{match_id}/next", json={"after": 1}, token=match_token)
    assert r.status == 200, r.text
    second = r.body["game"]
    view = api.game(second["id"])
    assert view["match"]["players"] == [P2, P1]
    assert view["match"]["balls"] == ["white", "yellow"]
    assert view["state"]["score"] == [3, 0]
    assert api.get(f"/api/games/{second['id']}/export.jsonl").status == 200
    # a second start while game 2 is on is refused
    busy = api.post(f"/api/matches/{match_id}/next", json={"after": 2}, token=match_token)
    assert busy.status == 409
    assert busy.body["code"] == "game_on"
    no_score(api, second["id"], second["token"])  # Petrov's visit ends
    pot_reds(api, second["id"], second["token"], 2)  # Ivanov 6: wins the match 2-0
    m = api.get(f"/api/matches/{match_id}").body
    assert m["wins"] == {P1: 2, P2: 0}
    assert m["winner"] == P1
    assert m["over"] is True
    assert m["next_game"] is None
    assert [g["winner"] for g in m["games"]] == [P1, P1]
    assert [g["breaker"] for g in m["games"]] == [P1, P2]
    over = api.post(f"/api/matches/{match_id}/next", json={"after": 2}, token=match_token)
    assert over.status == 409
    assert over.body["code"] == "match_over"


def test_the_match_clock_runs_per_game_and_sums(api: Api) -> None:
    made = api.new_match(best_of=1, target=3)
    game = made["game"]
    m = api.get(f"/api/matches/{made['id']}").body
    assert m["clock"]["running"] is True
    assert m["clock"]["total"] >= 0
    time.sleep(0.05)
    pot_reds(api, game["id"], game["token"], 1)
    m = api.get(f"/api/matches/{made['id']}").body
    assert m["over"] is True
    assert m["clock"]["running"] is False
    g = m["games"][0]
    assert g["seconds"] == pytest.approx(g["last"] - g["started"])
    assert g["seconds"] >= 0.05
    assert m["clock"]["total"] == pytest.approx(g["seconds"])
    later = api.get(f"/api/matches/{made['id']}").body
    assert later["clock"]["total"] == pytest.approx(m["clock"]["total"])  # stopped


def test_starting_the_next_game_needs_the_matchs_secret(api: Api) -> None:
    made = api.new_match(best_of=3, target=3)
    game = made["game"]
    pot_reds(api, game["id"], game["token"], 1)
    path = f"/api/matches/{made['id']}/next"
    assert api.post(path, json={}).status == 401
    assert api.post(path, json={}, token=game["token"]).status == 403
    stale = api.post(path, json={"after": 2}, token=made["token"])
    assert stale.status == 409
    assert stale.body["code"] == "stale"
    assert api.post(path, json={"after": 1}, token=made["token"]).status == 200
    assert api.get("/api/matches/nope").status == 404
    assert api.get("/matches/nope").status == 404
    assert api.get(f"/matches/{made['id']}").status == 200


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"best_of": 4}, "best_of: expected an odd number"),
        ({"handicap": [6, 0]}, "handicap: expected two integers from 0 to 5"),
        ({"handicap": [-1, 0]}, "handicap: expected two integers"),
        ({"players": [P1, P1]}, "players: the two names must differ"),
        ({"players": [P1, " "]}, "players[1]: a name must not be empty"),
    ],
)
def test_a_bad_match_is_refused_naming_the_field(
    api: Api, body: dict[str, Any], message: str
) -> None:
    r = api.post("/api/matches", json={"players": [P1, P2], "target": 6, **body})
    assert r.status == 422
    assert message in r.error


def test_a_game_of_a_match_is_not_deleted_alone(api: Api) -> None:
    made = api.new_match()
    r = api.request("DELETE", f"/api/games/{made['game']['id']}", token=made["game"]["token"])
    assert r.status == 409
    assert r.body["code"] == "in_match"


# --- a player's page -----------------------------------------------------------------------


def test_a_players_figures_game_by_game(api: Api) -> None:
    g1, t1 = api.new_mark(target=9)
    pot_reds(api, g1, t1, 3)  # Ivanov: one visit, break 9, wins
    g2, t2 = api.new_mark(target=50)
    pot_reds(api, g2, t2, 1)
    no_score(api, g2, t2)  # Ivanov's visit: 3
    assert api.mark(g2, t2, parts=[], fouls=["push"]).status == 200  # Petrov fouls: +2 Ivanov
    r = api.get(f"/api/players/{P1.upper()}")
    assert r.status == 200, r.text
    p = r.body
    assert p["name"] == P1
    assert [g["id"] for g in p["games"]] == [g1, g2]  # oldest first
    first, second = p["games"]
    assert first["result"] == "won"
    assert first["top_break"] == 9
    assert first["points_per_visit"] == 9
    assert second["result"] is None
    assert second["score"] == [5, 0]
    assert second["visits"] == 1
    assert second["points"] == 3
    assert second["fouls"] == 0
    assert p["totals"]["games"] == 2
    assert p["totals"]["visits"] == 2
    assert p["totals"]["points_per_visit"] == 6
    assert [b["points"] for b in p["top_breaks"]] == [9, 3]
    petrov = api.get(f"/api/players/{P2}").body
    assert petrov["games"][1]["fouls"] == 1
    assert petrov["totals"]["fouls"] == {"push": 1}
    assert api.get("/api/players/Nobody").status == 404
    assert api.get(f"/players/{P1}").status == 200


def test_a_stored_summary_that_does_not_read_is_the_stores_fault(api: Api) -> None:
    made = api.new_match()
    game = made["game"]["id"]
    with api.app.state.store.edit(game) as edit:  # as a broken or foreign database would
        edit.set_summary({"players": [P1, P2], "target": 6, "score": [0, "x"]})
    for path in (f"/api/matches/{made['id']}", f"/api/players/{P1}"):
        r = api.get(path)
        assert r.status == 500, r.text
        assert r.body["code"] == "store"
        assert r.body["error"].startswith(f"game {game}: summary.score[1]: expected an integer")


def test_a_handicap_game_exports_and_reimports_with_its_handicap(api: Api) -> None:
    made = api.new_match(handicap=[0, 4], target=20)
    game = made["game"]
    pot_reds(api, game["id"], game["token"], 2)
    exported = api.get(f"/api/games/{game['id']}/export.jsonl").text
    assert json.loads(exported.splitlines()[0])["handicap"] == [0, 4]
    again = api.post("/api/import", content=exported)
    assert again.status == 201, again.text
    assert again.body["game"]["state"]["score"] == [6, 4]
    record = api.get(f"/api/games/{game['id']}/record.jsonl").text
    assert json.loads(record.splitlines()[0])["handicap"] == [0, 4]
