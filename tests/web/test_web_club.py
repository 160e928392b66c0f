"""The club's routes in-process: the pad's possibilities in the state, the aim check, seats
for two devices (each strikes on his own turn only), a stroke's animation for the other
device, take-back (against the computer; asked and agreed with seats), the board page; a
tap is refused by the route exactly as by the game core."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from onered.game import marking
from onered.game.session import Session, SessionError
from web_support import P1, P2, Api

STRIKE = {"speed": 2.2, "aim": 88.5, "side": 0.0, "height": 0.2, "elevation": 0.0}
PLACED = [0.95, 0.65]


@pytest.fixture
def club(api: Api) -> Api:
    """The app in-process (``create_app`` includes the club's routes)."""
    return api


def new_play(api: Api, **extra: Any) -> tuple[str, str]:
    body = {"mode": "play", "players": [P1, P2], "target": 30, **extra}
    r = api.post("/api/games", json=body)
    assert r.status == 201, r.text
    return r.body["id"], r.body["token"]


def seat_post(api: Api, game: str, path: str, seat: str, body: dict[str, Any]) -> Any:
    return api.post(f"/api/games/{game}/{path}", json=body, headers={"X-Seat-Token": seat})


def test_the_state_says_a_cannon_is_impossible_at_the_opening_and_why(club: Api) -> None:
    game, _ = club.new_mark()
    possible = club.game(game)["state"]["possible"]
    assert possible["parts"]["cannon"] == {"reason": "not_on_table", "ball": "yellow"}
    assert possible["parts"]["pot_opponent"] == {"reason": "not_on_table", "ball": "yellow"}
    assert possible["parts"]["pot_red"] is None
    assert possible["first_hit"]["opponent"] == {"reason": "not_on_table", "ball": "yellow"}
    assert possible["off_table"]["opponent"] == {"reason": "not_on_table", "ball": "yellow"}


def test_the_marker_is_refused_what_the_pad_says_is_impossible(club: Api) -> None:
    game, token = club.new_mark()
    r = club.mark(game, token, parts=["cannon"])
    assert r.status == 422
    assert r.error == "impossible now: not_on_table (yellow)"
    assert r.body["message"] == "No stroke can do that: The yellow is not on the table"
    assert r.body["code"] == "impossible"
    assert r.body["params"] == {"reason": "not_on_table", "ball": "yellow"}
    assert club.game(game)["state"]["version"] == 1


def test_the_aim_check_warns_of_a_ball_in_baulk_struck_straight_from_hand(club: Api) -> None:
    game, token = club.new_mark()
    # Ivanov's opening stroke ends with his white in baulk (a line with the positions).
    line = {
        "type": "stroke",
        "first_hit": "red",
        "positions": {"white": [0.9, 0.40], "red": [0.889, 3.245]},
    }
    r = club.post(f"/api/games/{game}/lines", json={"line": line}, token=token)
    assert r.status == 200, r.text
    assert r.body["game"]["state"]["possible"]["in_baulk"] == ["white"]
    # Petrov, from hand at the D's centre: straight down at the white is warned of …
    r = club.get(f"/api/games/{game}/aim?x=0.889&y=0.737&aim=-88")
    assert r.body == {"first": "white", "warning": {"reason": "ball_in_baulk", "ball": "white"}}
    # … up the table at the red is not.
    r = club.get(f"/api/games/{game}/aim?x=0.889&y=0.737&aim=90")
    assert r.body == {"first": "red", "warning": None}
    r = club.get(f"/api/games/{game}/aim?x=0.889&y=0.737&aim=nan")
    assert r.status == 422


@pytest.mark.parametrize("placed", ["[NaN, 0.65]", "[0.95, Infinity]", "[0.95, 1e999]"])
def test_a_placement_not_finite_is_refused_by_the_game_on_either_route(
    club: Api, placed: str
) -> None:
    """JSON text with NaN, Infinity or an overflowing number (read as a float by the HTTP
    layer) reaches the game, whose one placement check refuses it by name, seated or not."""
    game, token = new_play(club)
    mine = club.post(f"/api/games/{game}/seats", json={"player": 0}, token=token).body["mine"]
    text = '{"strike": {"speed": 2, "aim": 90}, "placed": ' + placed + "}"
    json_type = {"Content-Type": "application/json"}
    answers = [
        club.post(f"/api/games/{game}/play", content=text, token=token, headers=json_type),
        club.post(
            f"/api/games/{game}/seat/play",
            content=text,
            headers={**json_type, "X-Seat-Token": mine},
        ),
    ]
    for r in answers:
        assert r.status == 422, r.text
        assert r.body["code"] == "bad_stroke"
        assert r.error.startswith("placed: (")
        assert r.error.endswith(") is not a point [x, y] of finite numbers")
    assert club.game(game)["state"]["version"] == 1


def test_seats_let_each_player_strike_on_his_own_turn_only(club: Api) -> None:
    game, token = new_play(club)
    r = club.post(f"/api/games/{game}/seats", json={"player": 0}, token=token)
    assert r.status == 200, r.text
    mine, theirs = r.body["mine"], r.body["theirs"]
    assert r.body["url"] == f"/play/{game}#seat={theirs}"
    assert club.get(f"/api/games/{game}/seat", headers={"X-Seat-Token": theirs}).body == {
        "player": 1,
        "name": P2,
    }
    # Petrov may not strike on Ivanov's turn …
    r = seat_post(club, game, "seat/play", theirs, {"strike": STRIKE, "placed": PLACED})
    assert r.status == 409
    assert r.body["code"] == "not_your_turn"
    assert r.body["params"] == {"name": P1}
    # … Ivanov may.
    r = seat_post(club, game, "seat/play", mine, {"strike": STRIKE, "placed": PLACED, "after": 1})
    assert r.status == 200, r.text
    assert r.body["version"] == 2
    # The other device animates the same shot, simulated again from the stored line.
    again = club.get(f"/api/games/{game}/shots/1")
    assert again.status == 200
    assert again.body == r.body["shot"]
    # A wrong secret is refused with its code.
    r = seat_post(club, game, "seat/play", "nope", {"strike": STRIKE})
    assert r.status == 403
    assert r.body["code"] == "bad_secret"


def test_no_seats_against_the_computer(club: Api) -> None:
    game, token = new_play(club, opponent="ai", strength="beginner")
    r = club.post(f"/api/games/{game}/seats", json={"player": 0}, token=token)
    assert r.status == 409
    assert r.body["code"] == "not_two_players"


def test_take_back_against_the_computer_drops_the_persons_stroke_and_the_computers_turns(
    club: Api,
) -> None:
    game, token = new_play(club, opponent="ai", strength="beginner")
    r = club.post(f"/api/games/{game}/play", json={"strike": STRIKE, "placed": PLACED}, token=token)
    assert r.status == 200, r.text
    while club.game(game)["state"]["to_play"] != P1:
        r = club.post(f"/api/games/{game}/ai", json={}, token=token)
        assert r.status == 200, r.text
    lines = club.game(game)["state"]["version"]
    assert lines > 2  # the person's stroke, then the computer's turns
    r = club.post(f"/api/games/{game}/takeback", json={}, token=token)
    assert r.status == 200, r.text
    assert r.body["version"] == 1
    assert r.body["taken"] == lines - 1  # every line from the person's stroke on
    assert club.game(game)["state"]["to_play"] == P1


def test_take_back_with_seats_is_asked_and_agreed(club: Api) -> None:
    game, token = new_play(club)
    seats = club.post(f"/api/games/{game}/seats", json={"player": 0}, token=token).body
    mine, theirs = seats["mine"], seats["theirs"]
    r = seat_post(club, game, "seat/play", mine, {"strike": STRIKE, "placed": PLACED})
    assert r.status == 200, r.text
    # asking is not doing
    r = seat_post(club, game, "takeback", mine, {})
    assert r.status == 200
    assert r.body["requested"] is True
    assert club.get(f"/api/games/{game}/club").body["takeback"] == {"player": 0, "version": 2}
    assert club.game(game)["state"]["version"] == 2
    # the asker cannot agree with himself
    r = seat_post(club, game, "takeback/answer", mine, {"agree": True})
    assert r.status == 409
    # refused: nothing changes, the request is gone
    seat_post(club, game, "takeback", mine, {})
    r = seat_post(club, game, "takeback/answer", theirs, {"agree": False})
    assert r.status == 200
    assert r.body["taken"] == 0
    assert club.get(f"/api/games/{game}/club").body["takeback"] is None
    # agreed: the stroke is taken back
    seat_post(club, game, "takeback", mine, {})
    r = seat_post(club, game, "takeback/answer", theirs, {"agree": True})
    assert r.status == 200, r.text
    assert r.body["version"] == 1
    assert club.game(game)["state"]["to_play"] == P1


def test_the_board_page_is_served_for_a_game_and_refused_for_none(club: Api) -> None:
    game, _ = club.new_mark()
    r = club.get(f"/board/{game}")
    assert r.status == 200
    assert "board.js" in r.text
    r = club.get("/board/nosuchgame")
    assert r.status == 404
    assert r.body["code"] == "no_game"


# --- a seam: the route refuses a tap exactly as the game core does ---------------------------

TAPS = st.builds(
    marking.Mark,
    parts=st.frozensets(st.sampled_from(list(marking.Part)), max_size=2),
    first_hit=st.none() | st.sampled_from(list(marking.Hit)),
    off_table=st.frozensets(st.sampled_from(list(marking.Role)), max_size=1),
)


def _tap_body(mark: marking.Mark) -> dict[str, Any]:
    return {
        "parts": [p.value for p in mark.parts],
        "first_hit": None if mark.first_hit is None else mark.first_hit.value,
        "off_table": [r.value for r in mark.off_table],
    }


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(history=st.lists(TAPS, max_size=3), mark=TAPS)
def test_a_tap_is_refused_by_the_route_as_by_the_game_core(
    club: Api, history: list[marking.Mark], mark: marking.Mark
) -> None:
    game, token = club.new_mark(target=1000)
    for earlier in history:
        if club.mark(game, token, **_tap_body(earlier)).status == 200:
            options = club.game(game)["state"]["options"]
            if options:
                option = options[0]
                club.post(f"/api/games/{game}/choice", json={"option": option}, token=token)
    core = Session.from_lines(club.app.state.store.lines(game))
    try:
        core.check_mark(mark)
        refused = None
    except SessionError as exc:
        refused = exc
    r = club.mark(game, token, **_tap_body(mark))
    if refused is None:
        assert r.status in (200, 422), r.text  # the referee may still refuse the line
        assert r.body.get("code") not in ("impossible", "bad_mark")
    else:
        assert r.status == 422
        assert (r.body["code"], r.body.get("params", {})) == (refused.code, refused.params)
        assert r.error == str(refused)
