"""The club's TV board for a match (issue 18 item 7) through the API: ``/board/match/{id}``
is the board page for a known match only, and what the board reads to follow a match (the
game's match and number, the match's games, games won and handicap) is there."""

from __future__ import annotations

from web_support import P1, P2, Api


def test_the_match_board_page_is_served_for_a_known_match_only(api: Api) -> None:
    made = api.new_match()
    page = api.get(f"/board/match/{made['id']}")
    assert page.status == 200
    assert "/static/board.js" in page.text
    missing = api.get("/board/match/nope")
    assert missing.status == 404
    assert "nope" in missing.text
    assert api.get(f"/board/{made['game']['id']}").status == 200


def test_the_board_finds_the_next_game_and_fixed_sides_in_the_match(api: Api) -> None:
    made = api.new_match(handicap=[0, 3], breaker=0, breaker_ball="yellow")
    first = made["game"]
    view = api.game(first["id"])
    assert view["settings"]["match"] == {"id": made["id"], "number": 0}
    for _ in range(2):
        assert api.mark(first["id"], first["token"], parts=["pot_red"]).status == 200
    nxt = api.post(f"/api/matches/{made['id']}/next", json={"after": 1}, token=made["token"])
    assert nxt.status == 200, nxt.text
    m = api.get(f"/api/matches/{made['id']}").body
    # the board's sides: the match's order, whoever breaks the game
    assert m["players"] == [P1, P2]
    assert api.game(m["games"][1]["id"])["match"]["players"] == [P2, P1]
    assert m["wins"] == {P1: 1, P2: 0}
    assert m["settings"]["handicap"] == [0, 3]
    assert [g["id"] for g in m["games"]] == [first["id"], nxt.body["game"]["id"]]
    assert api.game(m["games"][1]["id"])["settings"]["match"]["number"] == 1


def test_the_room_lists_every_game_in_play_with_its_score(api: Api) -> None:
    made = api.new_match(handicap=[0, 3])
    first = made["game"]
    other = api.post("/api/games", json={"players": ["Smith", "Jones"], "target": 100}).body
    assert api.mark(other["id"], other["token"], parts=["pot_red"]).status == 200
    done = api.post("/api/games", json={"players": ["Brown", "Green"], "target": 3}).body
    assert api.mark(done["id"], done["token"], parts=["pot_red"]).status == 200  # won: over
    r = api.get("/api/room")
    assert r.status == 200
    tables = {g["id"]: g for g in r.body["tables"]}
    assert set(tables) == {first["id"], other["id"]}  # not the game that is over
    assert r.body["tables"][0]["id"] == other["id"]  # the latest change first
    t = tables[other["id"]]
    assert t["players"] == ["Smith", "Jones"]
    assert t["score"] == [3, 0]
    assert t["target"] == 100
    assert t["to_play"] == "Smith"
    assert t["match"] is None
    assert t["urls"] == {"board": f"/board/{other['id']}"}
    assert tables[first["id"]]["match"] == {"id": made["id"], "number": 0}
    assert tables[first["id"]]["score"] == [0, 3]
    page = api.get("/board/room")
    assert page.status == 200
    assert "/static/room.js" in page.text


def test_the_room_refuses_a_bad_window_naming_it(api: Api) -> None:
    for bad in ("0", "-1", "nope"):
        r = api.get(f"/api/room?within={bad}")
        assert r.status == 422
        assert "within" in r.text
