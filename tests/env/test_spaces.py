"""The action and observation: the action's reading (scaling, clipping, tip circle,
placement in the D) and its inverse, and the random opponent's strokes."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onered.env import ACTION_NAMES, RandomPlayer, encode_action, make_opponent, read_action
from onered.env.spaces import PHYSICAL_HIGH, PHYSICAL_LOW, place_in_d, project_into_d
from onered.game import Position, placement_problem
from onered.physics import Strike
from onered.physics.cue import MAX_SPEED, MAX_TIP_OFFSET
from onered.players import AIPlayer
from onered.rules import Ball, GameState, Match, Option
from onered.table import BALL_DIAMETER, D_CENTRE, D_RADIUS, EPS, in_d

unit = st.floats(-1, 1, width=32)


def test_speed_and_tip_limits_are_the_physics() -> None:
    speed, side, height = (ACTION_NAMES.index(n) for n in ("speed", "side", "height"))
    assert PHYSICAL_HIGH[speed] == MAX_SPEED
    assert PHYSICAL_HIGH[side] == PHYSICAL_HIGH[height] == MAX_TIP_OFFSET


def test_the_box_corners_are_the_physical_ranges() -> None:
    low = read_action(-np.ones(8))
    high = read_action(np.ones(8))
    assert (low.strike.aim, low.strike.speed, low.strike.elevation) == (-180.0, 0.05, 0.0)
    assert (high.strike.aim, high.strike.speed, high.strike.elevation) == (180.0, 10.0, 90.0)
    assert low.option is Option.AS_THEY_LIE
    assert high.option is Option.FROM_D
    assert low.place == (D_CENTRE[0] - D_RADIUS, D_CENTRE[1] - D_RADIUS)


@given(st.lists(unit, min_size=8, max_size=8))
def test_every_action_reads_as_a_strike_the_physics_accepts(values: list[float]) -> None:
    strike = read_action(np.array(values, dtype=np.float32)).strike
    assert 0 < strike.speed <= MAX_SPEED
    assert math.hypot(strike.side, strike.height) <= MAX_TIP_OFFSET
    assert 0 <= strike.elevation <= 90


@given(
    aim=st.floats(-180, 180),
    speed=st.floats(0.05, 10),
    tip=st.floats(0, 0.79),
    angle=st.floats(-math.pi, math.pi),
    elevation=st.floats(0, 90),
    x=st.floats(float(PHYSICAL_LOW[5]), float(PHYSICAL_HIGH[5])),
    y=st.floats(float(PHYSICAL_LOW[6]), float(PHYSICAL_HIGH[6])),
    option=st.sampled_from(list(Option)),
)
def test_encode_action_is_the_inverse_of_read_action(
    aim: float,
    speed: float,
    tip: float,
    angle: float,
    elevation: float,
    x: float,
    y: float,
    option: Option,
) -> None:
    strike = Strike(speed, aim, tip * math.cos(angle), tip * math.sin(angle), elevation)
    back = read_action(encode_action(strike, (x, y), option))
    assert back.option is option
    got = back.strike
    # float32 keeps about 7 digits of each component's range
    assert got.aim == pytest.approx(aim, abs=360 * 1e-7)
    assert got.speed == pytest.approx(speed, abs=10 * 1e-7)
    assert got.side == pytest.approx(strike.side, abs=1e-7)
    assert got.height == pytest.approx(strike.height, abs=1e-7)
    assert got.elevation == pytest.approx(elevation, abs=90 * 1e-7)
    assert back.place == pytest.approx((x, y), abs=1e-7)


def test_tip_offset_beyond_the_circle_is_scaled_onto_it() -> None:
    strike = read_action(np.array([0, 0, 1, 1, 0, 0, 0, 0], dtype=np.float32)).strike
    assert math.hypot(strike.side, strike.height) == pytest.approx(MAX_TIP_OFFSET)
    assert strike.side == pytest.approx(strike.height)


@given(st.floats(0.3, 1.5), st.floats(0.2, 1.2))
def test_projection_onto_the_d_lands_in_the_d_and_keeps_points_of_the_d(x: float, y: float) -> None:
    p = project_into_d((x, y))
    assert in_d(p)
    if in_d((x, y)) and math.dist((x, y), D_CENTRE) < D_RADIUS * 0.999:
        assert p == (x, y)


@settings(max_examples=50)
@given(
    st.floats(-1, 1),
    st.floats(-1, 1),
    st.floats(0.0, 0.03),
    st.floats(-math.pi, math.pi),
)
def test_a_place_on_a_ball_moves_to_the_nearest_free_place(
    u: float, v: float, off: float, angle: float
) -> None:
    wanted = project_into_d((D_CENTRE[0] + u * D_RADIUS, D_CENTRE[1] - abs(v) * D_RADIUS))
    blocker = (wanted[0] + off * math.cos(angle), wanted[1] + off * math.sin(angle))
    if not in_d(blocker):
        blocker = wanted
    balls = {Ball.YELLOW: blocker, Ball.RED: (0.889, 3.245)}
    p = place_in_d(balls, Ball.WHITE, wanted)
    assert placement_problem(balls, Ball.WHITE, p) is None
    assert math.dist(p, blocker) > BALL_DIAMETER + EPS
    # Next to the ball in the way; where the D's arc cuts the free ring around the blocker
    # (a wanted place at the D's corner), the nearest free place may lie farther round it.
    room = D_RADIUS - math.dist(wanted, D_CENTRE)
    near = BALL_DIAMETER + 0.01 if room > BALL_DIAMETER + 0.02 else 2 * BALL_DIAMETER + 0.01
    assert math.dist(p, wanted) <= near


def opening_position() -> Position:
    state = GameState(match=Match(100, ("a", "b")), table={Ball.RED: (0.889, 3.245)})
    return Position(balls={Ball.RED: (0.889, 3.245), Ball.YELLOW: (0.9, 0.6)}, state=state)


def test_random_player_is_seeded() -> None:
    position = opening_position()
    a = [RandomPlayer(5).decide(position) for _ in range(3)]
    b = RandomPlayer(5)
    assert a[0] == b.decide(position)
    assert RandomPlayer(6).decide(position) != a[0]


def test_random_player_places_legally_and_strikes_within_the_limits() -> None:
    player = RandomPlayer(0)
    position = opening_position()
    for _ in range(200):
        action = player.decide(position)
        assert action.placed is not None
        assert placement_problem(position.balls, Ball.WHITE, action.placed) is None
        s = action.strike
        assert 0 < s.speed <= MAX_SPEED
        assert math.hypot(s.side, s.height) <= MAX_TIP_OFFSET


def test_opponents_are_made_by_name() -> None:
    assert isinstance(make_opponent("random", 1), RandomPlayer)
    assert isinstance(make_opponent("pro", 1), AIPlayer)
    assert make_opponent("ai:amateur", 1).description == "ai:amateur"
