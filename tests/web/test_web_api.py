"""The web app's API, in-process through httpx's ASGI transport."""

from __future__ import annotations

import json
from typing import Any

import pytest

from onered.game import PhysicsSimulator
from onered.game import record as game_record
from onered.physics import Strike, simulate, strike_to_launch
from onered.physics.cue import strike_limits
from web_support import P1, P2, REPO, Api

EXAMPLE = REPO / "examples" / "century-break.jsonl"


def cannons(api: Api, game: str, token: str, n: int, **extra: Any) -> dict[str, Any]:
    answer: dict[str, Any] = {}
    for _ in range(n):
        r = api.mark(game, token, parts=["cannon"], **extra)
        assert r.status == 200, r.text
        answer = r.body
    return answer


# --- reading ------------------------------------------------------------------------------


def test_health_labels_and_table(api: Api) -> None:
    assert api.get("/api/health").body["ok"] is True
    ru = api.get("/api/i18n/ru").body
    en = api.get("/api/i18n/en").body
    assert ru["calls"]["seventy_cannons"] == "Семьдесят карамболей!"
    assert en["calls"]["seventy_cannons"] == "Seventy cannons!"
    assert en["fouls"]["cannon_limit"] == "more than 75 consecutive cannons"
    bad = api.get("/api/i18n/de")
    assert bad.status == 422
    assert "lang" in bad.error
    table = api.get("/api/table").body
    assert table["width"] == 1.778
    assert table["length"] == 3.569
    assert table["spots"]["billiards"] == [0.889, 3.245]
    assert len(table["pockets"]) == 6


def test_pages_are_served_and_unknown_games_are_404(api: Api) -> None:
    game, _ = api.new_mark()
    for path in ("/", f"/mark/{game}", f"/watch/{game}", f"/games/{game}", f"/play/{game}"):
        r = api.get(path)
        assert r.status == 200, path
        assert "<html" in r.text
    assert api.get("/static/common.js").status == 200
    missing = api.get("/mark/nope")
    assert missing.status == 404
    assert "no such game" in missing.error
    assert api.get("/api/games/nope").status == 404


# --- creating -----------------------------------------------------------------------------


def test_a_new_marked_match(api: Api) -> None:
    r = api.post(
        "/api/games",
        json={"players": [P1, P2], "target": 150, "breaker": 1, "breaker_ball": "yellow"},
    )
    assert r.status == 201
    assert len(r.body["token"]) >= 30
    assert r.body["urls"]["mark"] == f"/mark/{r.body['id']}"
    view = r.body["game"]
    # The breaker is players[0] of the match, with his ball.
    assert view["match"] == {"target": 150, "players": [P2, P1], "balls": ["yellow", "white"]}
    assert view["state"]["to_play"] == P2
    assert view["state"]["from_d"] is True
    listed = api.get("/api/games").body
    assert listed["total"] == 1
    assert listed["games"][0]["players"] == [P2, P1]
    assert "token" not in json.dumps(listed)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"players": [P1]}, "players: List should have at least 2 items"),
        ({"players": [P1, P1]}, "players: the two names must differ"),
        ({"players": [P1, "   "]}, "players[1]: a name must not be empty"),
        ({"players": [P1, "x" * 41]}, "players[1]: a name has at most 40 characters"),
        ({"players": [P1, P2], "target": 0}, "target: must be a whole number from 1 to 100000"),
        ({"players": [P1, P2], "target": "many"}, "target: Input should be a valid integer"),
        ({"players": [P1, P2], "mode": "golf"}, "mode: Input should be 'mark' or 'play'"),
        ({"players": [P1, P2], "colour": "blue"}, "colour: Extra inputs are not permitted"),
    ],
)
def test_a_bad_new_game_is_refused_naming_the_field(
    api: Api, body: dict[str, Any], message: str
) -> None:
    r = api.post("/api/games", json=body)
    assert r.status == 422
    assert message in r.error
    assert api.get("/api/games").body["total"] == 0


def test_a_malformed_body_is_a_clear_error(api: Api) -> None:
    r = api.post("/api/games", content="{not json", headers={"Content-Type": "application/json"})
    assert r.status == 422
    assert "JSON" in r.error


# --- secrets ------------------------------------------------------------------------------


def test_changing_a_game_needs_its_secret(api: Api) -> None:
    game, token = api.new_mark()
    other, other_token = api.new_mark()
    for path, body in (
        (f"/api/games/{game}/mark", {"parts": ["no_score"]}),
        (f"/api/games/{game}/undo", {}),
        (f"/api/games/{game}/lines", {"line": {"type": "stroke"}}),
        (f"/api/games/{game}/choice", {"option": "from_d"}),
        (f"/api/games/{game}/claim", {"fouls": ["push"]}),
    ):
        missing = api.post(path, json=body)
        assert missing.status == 401
        assert "X-Game-Token: missing" in missing.error
        wrong = api.post(path, json=body, token=other_token)
        assert wrong.status == 403
        assert "not the secret" in wrong.error
    assert api.game(game)["state"]["version"] == 1  # nothing changed
    assert api.post(f"/api/games/{game}/check", json={}, token=token).status == 200
    assert api.post(f"/api/games/{other}/check", json={}, token=token).status == 403


# --- marking ------------------------------------------------------------------------------


def test_marking_strokes_scores_them(api: Api) -> None:
    game, token = api.new_mark()
    r = api.mark(game, token, parts=["no_score"])
    assert r.body["verdict"]["next"] == P2
    r = api.mark(game, token, parts=["cannon", "in_off_red"])
    verdict = r.body["verdict"]
    assert verdict["points"] == 5
    assert verdict["scored"] == {"cannon": 2, "in_off_red": 3}
    assert verdict["score"] == {P1: 0, P2: 5}
    state = r.body["game"]["state"]
    assert state["to_play"] == P2
    assert state["from_d"] is True
    assert state["break"] == 5
    # The answer carries only the lines that changed.
    assert r.body["game"]["log_from"] == 2
    assert [e["seq"] for e in r.body["game"]["log"]] == [2]


def test_a_75_cannon_run_the_call_and_the_foul(api: Api) -> None:
    game, token = api.new_mark(target=1000)
    api.mark(game, token, parts=["no_score"])
    last = cannons(api, game, token, 40)
    assert last["verdict"]["break"] == 80
    assert [c["code"] for c in last["verdict"]["calls"]] == ["baulk_line_required"]
    crossed = api.mark(game, token, parts=["cannon"], crossed_baulk=True).body["verdict"]
    assert [c["code"] for c in crossed["calls"]] == ["baulk_line_crossed"]
    seventy = cannons(api, game, token, 29)["verdict"]
    assert seventy["counters"]["cannons"] == 70
    assert seventy["calls"] == [
        {"code": "seventy_cannons", "ru": "Семьдесят карамболей!", "en": "Seventy cannons!"}
    ]
    fair = cannons(api, game, token, 5)["verdict"]
    assert fair["counters"]["cannons"] == 75
    assert fair["foul"] is None
    assert fair["break"] == 150
    foul = api.mark(game, token, parts=["cannon"]).body
    assert foul["verdict"]["foul"] == {"codes": ["cannon_limit"], "penalty": 2}
    assert foul["verdict"]["score"] == {P1: 2, P2: 150}
    assert foul["game"]["state"]["options"] == ["as_they_lie", "from_d"]
    assert foul["game"]["state"]["to_play"] == P1


def test_a_double_tap_does_not_enter_twice(api: Api) -> None:
    game, token = api.new_mark()
    first = api.mark(game, token, parts=["no_score"], after=1)
    assert first.status == 200
    again = api.mark(game, token, parts=["no_score"], after=1)
    assert again.status == 409
    assert "you saw 1 lines, the game now has 2" in again.error
    assert api.game(game)["state"]["version"] == 2


def test_impossible_taps_and_lines_are_refused_and_not_stored(api: Api) -> None:
    game, token = api.new_mark()
    r = api.mark(game, token, parts=["miss", "cannon"])
    assert r.status == 422
    assert "'miss' cannot go with cannon" in r.error
    r = api.mark(game, token, parts=["cannon"])  # the second ball is not on the table yet
    assert r.status == 422
    assert r.body["code"] == "impossible"
    assert r.body["message"] == "No stroke can do that: The yellow is not on the table"
    r = api.mark(game, token, parts=["bogus"])
    assert r.status == 422
    assert r.error.startswith("parts.0:")
    r = api.post(
        f"/api/games/{game}/lines", json={"line": {"type": "stroke", "first_hit": 7}}, token=token
    )
    assert r.status == 422
    assert r.error.startswith("first_hit: expected red, white, yellow")
    r = api.post(f"/api/games/{game}/lines", json={"line": {"type": "match"}}, token=token)
    assert r.status == 422
    assert "second match line" in r.error
    r = api.post(f"/api/games/{game}/choice", json={"option": "from_d"}, token=token)
    assert r.status == 422
    assert "choice" in r.error
    assert api.game(game)["state"]["version"] == 1


def test_protocol_lines_and_the_foul_option(api: Api) -> None:
    game, token = api.new_mark()
    r = api.post(f"/api/games/{game}/lines", json={"line": {"type": "stroke"}}, token=token)
    assert r.body["verdict"]["foul"]["codes"] == ["miss"]
    assert r.body["game"]["state"]["options"] == ["as_they_lie", "from_d"]
    r = api.post(f"/api/games/{game}/choice", json={"option": "from_d"}, token=token)
    verdict = r.body["verdict"]
    assert verdict["striker"] == P2
    assert {"ball": "red", "at": "billiards"} in verdict["placements"]
    assert {"ball": "white", "at": "centre"} in verdict["placements"]
    assert r.body["game"]["state"]["options"] == []
    assert r.body["game"]["state"]["table"]["white"] == [0.889, 1.7845]


def test_undo_takes_back_the_last_line(api: Api) -> None:
    game, token = api.new_mark()
    assert api.post(f"/api/games/{game}/undo", json={}, token=token).status == 409
    api.mark(game, token, parts=["no_score"])
    api.mark(game, token, parts=["pot_red"])
    r = api.post(f"/api/games/{game}/undo", json={"after": 3}, token=token)
    assert r.status == 200
    assert r.body["game"]["state"]["score"] == [0, 0]
    assert r.body["game"]["state"]["version"] == 2
    # The client keeps lines 0..1 and drops the rest: nothing new to send.
    assert r.body["game"]["log_from"] == 2
    assert r.body["game"]["log"] == []
    assert api.get(f"/api/games/{game}/export.jsonl").text.count("\n") == 2


def test_a_foul_claimed_before_the_next_stroke(api: Api) -> None:
    game, token = api.new_mark()
    api.mark(game, token, parts=["no_score"])
    scored = api.mark(game, token, parts=["cannon", "pot_red"]).body
    assert scored["verdict"]["points"] == 5
    r = api.post(f"/api/games/{game}/claim", json={"fouls": ["push"]}, token=token)
    assert r.status == 200
    verdict = r.body["verdict"]
    assert verdict["points"] == 0
    assert verdict["foul"] == {"codes": ["push"], "penalty": 2}
    assert verdict["score"] == {P1: 2, P2: 0}
    assert r.body["game"]["state"]["version"] == 3  # replaced, not added
    again = api.post(f"/api/games/{game}/claim", json={"fouls": ["jump"]}, token=token)
    assert again.status == 409
    assert "already judged a foul" in again.error
    api.post(f"/api/games/{game}/choice", json={"option": "as_they_lie"}, token=token)
    late = api.post(f"/api/games/{game}/claim", json={"fouls": ["jump"]}, token=token)
    assert late.status == 409
    assert "no stroke to claim" in late.error
    bad = api.post(f"/api/games/{game}/claim", json={"fouls": []}, token=token)
    assert bad.status == 422
    assert "fouls" in bad.error


def test_nothing_after_the_end(api: Api) -> None:
    game, token = api.new_mark(target=3)
    api.mark(game, token, parts=["pot_red"])
    r = api.mark(game, token, parts=["pot_red"])
    assert r.status == 409
    assert "the game is over: Ivanov has won" in r.error
    assert api.game(game)["state"]["winner"] == P1


# --- spectators ---------------------------------------------------------------------------


def test_polling_sends_only_what_changed(api: Api) -> None:
    game, token = api.new_mark()
    view = api.game(game)
    rev, n = view["revision"], len(view["log"])
    same = api.get(f"/api/games/{game}?since={n}&revision={rev}").body
    assert same["log"] == []
    assert same["log_from"] == n
    api.mark(game, token, parts=["no_score"])
    one = api.get(f"/api/games/{game}?since={n}&revision={rev}").body
    assert one["log_from"] == 1
    assert [e["seq"] for e in one["log"]] == [1]
    # An undo and a different stroke in between: the client is told to replace line 1.
    rev, n = one["revision"], 2
    api.post(f"/api/games/{game}/undo", json={}, token=token)
    api.mark(game, token, parts=["miss"])
    two = api.get(f"/api/games/{game}?since={n}&revision={rev}").body
    assert two["log_from"] == 0
    assert two["log"][1]["out"]["foul"]["codes"] == ["miss"]


# --- export and import --------------------------------------------------------------------


def test_export_and_import_round_trip(api: Api) -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    r = api.post("/api/import", content=text)
    assert r.status == 201, r.text
    game = r.body["id"]
    assert r.body["game"]["state"]["winner"] is not None
    exported = api.get(f"/api/games/{game}/export.jsonl")
    assert exported.headers["content-type"].startswith("application/x-ndjson")
    assert "attachment" in exported.headers["content-disposition"]
    original = [json.loads(line) for line in text.splitlines() if line.strip()]
    assert [json.loads(line) for line in exported.text.splitlines()] == original
    record = api.get(f"/api/games/{game}/record.jsonl").text
    again = api.post("/api/import", content=record)
    assert again.status == 201
    assert again.body["game"]["state"]["score"] == r.body["game"]["state"]["score"]


def test_a_bad_import_names_the_line(api: Api) -> None:
    lines = [
        '{"type": "match", "target": 100, "players": ["A", "B"]}',
        '{"type": "stroke", "first_hit": "red"}',
        '{"type": "stroke", "cannon": true}',
    ]
    r = api.post("/api/import", content="\n".join(lines))
    assert r.status == 422
    assert r.error.startswith("file: line 3:")
    assert api.post("/api/import", content=b"\xff\xfe").error.startswith("file: not UTF-8")
    assert api.get("/api/games").body["total"] == 0


def test_oversized_bodies_are_refused(api: Api) -> None:
    game, token = api.new_mark()
    big = {"parts": ["cannon"], "pad": "x" * 300_000}
    r = api.post(f"/api/games/{game}/mark", json=big, token=token)
    assert r.status == 413
    assert "too large" in r.error


# --- play ---------------------------------------------------------------------------------


def new_play(api: Api, **extra: Any) -> tuple[str, str]:
    body = {"mode": "play", "players": ["Ann", "Bob"], "target": 30, **extra}
    r = api.post("/api/games", json=body)
    assert r.status == 201, r.text
    return r.body["id"], r.body["token"]


def test_the_strike_limits_served_are_the_engines_and_a_stroke_beyond_them_is_refused(
    api: Api,
) -> None:
    limits = api.get("/api/table").body["strike_limits"]
    assert limits == strike_limits()
    game, token = new_play(api)
    ok = {"speed": 2.2, "aim": 88.5, "side": 0.0, "height": 0.0, "elevation": 0.0}
    beyond = [
        {"speed": limits["max_speed"] * 1.01},
        {"side": limits["max_tip_offset"] * 1.01},
        {"height": -limits["max_tip_offset"] * 1.01},
        {"elevation": limits["max_elevation"] + 1},
        {"elevation": limits["min_elevation"] - 1},
    ]
    for change in beyond:
        strike = {**ok, **change}
        r = api.post(
            f"/api/games/{game}/play", json={"strike": strike, "placed": [0.95, 0.65]}, token=token
        )
        assert r.status == 422, (change, r.text)
    assert api.game(game)["state"]["version"] == 1  # nothing was played


def test_a_played_stroke_is_animated_from_the_simulators_own_paths(api: Api) -> None:
    game, token = new_play(api)
    strike = {"speed": 2.2, "aim": 88.5, "side": 0.0, "height": 0.2, "elevation": 0.0}
    r = api.post(
        f"/api/games/{game}/play", json={"strike": strike, "placed": [0.95, 0.65]}, token=token
    )
    assert r.status == 200, r.text
    shot = r.body["shot"]
    assert shot["before"] == {"white": [0.95, 0.65], "red": [0.889, 3.245]}
    # The same shot straight from the engine: the paths the page animates are its paths.
    sim = PhysicsSimulator()
    result = simulate(
        {"white": (0.95, 0.65), "red": (0.889, 3.245)},
        "white",
        strike_to_launch(Strike(**strike), sim.params),
        sim.params,
        sim.table,
    )
    assert shot["duration"] == pytest.approx(result.duration, abs=1e-6)
    for ball, segments in result.paths.items():
        sent = shot["paths"][ball]
        assert len(sent) == len(segments)
        for piece, seg in zip(sent, segments, strict=True):
            assert piece == pytest.approx([seg.t0, seg.t1, *seg.p0, *seg.v0, *seg.a], abs=1e-6)
    verdict = r.body["verdict"]
    assert verdict["striker"] == "Ann"
    assert verdict["from_d"] is True
    # The referee's table is the rest positions (every one is known in play mode).
    rest = {b: p for b, p in result.rest.items() if p is not None}
    table = r.body["game"]["state"]["table"]
    for ball, p in rest.items():
        if ball in table:
            assert table[ball] == pytest.approx(list(p), abs=1e-9)


def test_a_played_game_exports_as_a_game_record(api: Api) -> None:
    game, token = new_play(api)
    strike = {"speed": 2.2, "aim": 88.5}
    api.post(
        f"/api/games/{game}/play", json={"strike": strike, "placed": [0.95, 0.65]}, token=token
    )
    text = api.get(f"/api/games/{game}/record.jsonl").text
    record = game_record.read_record(text.splitlines())
    assert record.header.match.players == ("Ann", "Bob")
    assert record.header.entrants == {"Ann": "human", "Bob": "human"}
    assert len(record.entries) == 1
    first = record.entries[0]
    assert isinstance(first, game_record.RecordedStroke)
    assert first.action.strike.speed == 2.2
    # Imported back, the record can be played on; the bare protocol export cannot.
    copy = api.post("/api/import", content=text).body
    assert copy["urls"]["play"] == f"/play/{copy['id']}"
    assert copy["game"]["state"]["table"] == api.game(game)["state"]["table"]
    bare = api.post("/api/import", content=api.get(f"/api/games/{game}/export.jsonl").text)
    assert bare.body["game"]["mode"] == "import"
    next_stroke: dict[str, Any] = {"strike": {"speed": 1.5, "aim": 45.0}}
    if copy["game"]["state"]["from_d"]:
        next_stroke["placed"] = [0.889, 0.6]
    r = api.post(f"/api/games/{copy['id']}/play", json=next_stroke, token=copy["token"])
    assert r.status == 200, r.text


def test_play_refuses_wrong_input(api: Api) -> None:
    game, token = new_play(api)
    outside = api.post(
        f"/api/games/{game}/play",
        json={"strike": {"speed": 2, "aim": 90}, "placed": [0.9, 1.5]},
        token=token,
    )
    assert outside.status == 422
    assert "outside the D" in outside.error
    missing = api.post(
        f"/api/games/{game}/play", json={"strike": {"speed": 2, "aim": 90}}, token=token
    )
    assert missing.status == 422
    assert "in hand" in missing.error
    fast = api.post(
        f"/api/games/{game}/play",
        json={"strike": {"speed": 50, "aim": 90}, "placed": [0.95, 0.65]},
        token=token,
    )
    assert fast.status == 422
    assert fast.error.startswith("strike.speed:")
    tip = api.post(
        f"/api/games/{game}/play",
        json={
            "strike": {"speed": 2, "aim": 90, "side": 0.7, "height": 0.7},
            "placed": [0.95, 0.65],
        },
        token=token,
    )
    assert tip.status == 422
    assert "tip offset" in tip.error
    marked = api.mark(game, token, parts=["no_score"])
    assert marked.status == 409
    assert "simulated table" in marked.error
    assert api.game(game)["state"]["version"] == 1
    mark_game, mark_token = api.new_mark()
    r = api.post(
        f"/api/games/{mark_game}/play", json={"strike": {"speed": 2, "aim": 90}}, token=mark_token
    )
    assert r.status == 409
    assert "marked" in r.error


def test_the_computer_plays_its_turn(api: Api) -> None:
    game, token = new_play(api, opponent="ai", strength="beginner", breaker=1)
    view = api.game(game)
    assert view["settings"]["entrants"] == {"Ann": "human", "Bob": "ai:beginner"}
    assert view["state"]["to_play"] == "Bob"
    human = api.post(
        f"/api/games/{game}/play",
        json={"strike": {"speed": 2, "aim": 90}, "placed": [0.95, 0.65]},
        token=token,
    )
    assert human.status == 409
    assert "Bob is the computer" in human.error
    r = api.post(f"/api/games/{game}/ai", json={"after": 1}, token=token)
    assert r.status == 200, r.text
    assert r.body["verdict"]["striker"] == "Bob"
    assert r.body["shot"]["paths"]
    again = api.post(f"/api/games/{game}/ai", json={"after": 1}, token=token)
    assert again.status == 409  # stale: the computer's stroke is in


def test_pages_are_served_with_a_strict_content_policy(api: Api) -> None:
    r = api.get("/")
    policy = r.headers["content-security-policy"]
    assert "default-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert r.headers["x-content-type-options"] == "nosniff"
