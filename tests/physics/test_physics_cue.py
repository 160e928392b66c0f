"""The cue strike model: tip offset and elevation to launch velocity and spin."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from onered.physics import (
    EventKind,
    Params,
    PhysicsInputError,
    Strike,
    cue_speed,
    simulate,
    squirt_angle,
    strike_to_launch,
)
from physics_helpers import rel

P = Params()


def test_centre_ball_strike_launches_along_the_aim_without_spin() -> None:
    launch = strike_to_launch(Strike(speed=2.0, aim=30.0), P)
    assert launch.v == pytest.approx(
        (2 * math.cos(math.radians(30)), 2 * math.sin(math.radians(30)))
    )
    assert launch.w == pytest.approx((0.0, 0.0, 0.0), abs=1e-12)


def test_top_spin_at_two_fifths_of_the_radius_gives_natural_roll() -> None:
    launch = strike_to_launch(Strike(speed=0.5, aim=90.0, height=0.4), P)
    _vx, vy = launch.v
    wx, _wy, _ = launch.w
    assert rel(-wx * P.R, vy) < 1e-12  # rolling: R w = v
    result = simulate({"white": (0.5, 0.3)}, "white", launch)
    assert all(e.kind is not EventKind.SLIDE_ROLL for e in result.events)


@pytest.mark.parametrize("height", [-0.5, -0.2, 0.2, 0.5])
def test_height_gives_top_or_back_spin_of_five_v_over_2r_times_offset(height: float) -> None:
    launch = strike_to_launch(Strike(speed=3.0, aim=0.0, height=height), P)
    # aim +x: the rolling axis is +y (rolling along +x has w_y = v / R)
    assert rel(launch.w[1], 5 * 3.0 / (2 * P.R) * height) < 1e-12
    assert launch.w[2] == 0.0


def test_right_side_spins_counter_clockwise_and_squirts_left() -> None:
    params = replace(P, cue_end_mass=0.0)
    right = strike_to_launch(Strike(speed=2.0, aim=90.0, side=0.5), params)
    assert rel(right.w[2], 5 * 2.0 / (2 * P.R) * 0.5) < 1e-12
    assert right.v[0] == pytest.approx(0.0, abs=1e-12)  # no squirt without end mass
    squirting = strike_to_launch(Strike(speed=2.0, aim=90.0, side=0.5), P)
    angle = math.degrees(math.atan2(squirting.v[1], squirting.v[0])) - 90.0
    assert angle > 0  # to the left of the cue line
    assert rel(math.radians(angle), squirt_angle(0.5, P)) < 1e-12
    a = 0.5
    expected = math.atan(
        2.5 * a * math.sqrt(1 - a * a) / (1 + P.m / P.cue_end_mass + 2.5 * (1 - a * a))
    )
    assert rel(squirt_angle(0.5, P), expected) < 1e-12
    left = strike_to_launch(Strike(speed=2.0, aim=90.0, side=-0.5), P)
    assert left.w[2] == -squirting.w[2]
    assert left.v[0] == pytest.approx(-squirting.v[0])


def test_right_side_makes_a_square_cushion_rebound_go_right() -> None:
    launch = strike_to_launch(
        Strike(speed=1.5, aim=90.0, side=0.5, height=0.3), replace(P, cue_end_mass=0.0)
    )
    result = simulate({"white": (0.889, 3.0)}, "white", launch)
    hit = next(e for e in result.events if e.kind is EventKind.CUSHION)
    assert hit.cushion == "top"
    after = next(s for s in result.paths["white"] if s.t0 == hit.t)
    assert after.v0[0] > 0.05
    assert after.v0[1] < 0


def test_elevation_tilts_the_spin_axis_and_keeps_the_horizontal_speed() -> None:
    launch = strike_to_launch(Strike(speed=2.0, aim=0.0, side=0.3, elevation=30.0), P)
    assert rel(math.hypot(*launch.v), 2.0 * math.cos(math.radians(30))) < 1e-12
    k = 5 * 2.0 / (2 * P.R)
    # side spin about e_u = (cos 30, 0, sin 30)... as seen along the cue
    assert rel(launch.w[2], k * 0.3 * math.cos(math.radians(30))) < 1e-12
    assert rel(launch.w[0], k * 0.3 * math.sin(math.radians(30))) < 1e-12


def test_masse_at_ninety_degrees_moves_the_ball_by_spin_alone() -> None:
    launch = strike_to_launch(Strike(speed=1.0, aim=0.0, height=0.5, elevation=90.0), P)
    assert math.hypot(*launch.v) < 1e-12
    result = simulate({"white": (0.889, 1.0)}, "white", launch)
    assert result.rest["white"] != (0.889, 1.0)


def test_cue_speed_inverts_the_elastic_tip_formula() -> None:
    assert rel(cue_speed(Strike(speed=1.6, aim=0.0), P), 1.6 * (1 + P.m / P.cue_mass) / 2) < 1e-12
    off = Strike(speed=1.6, aim=0.0, side=0.3, height=-0.4)
    assert cue_speed(off, P) > cue_speed(Strike(speed=1.6, aim=0.0), P)


@pytest.mark.parametrize(
    ("strike", "word"),
    [
        (Strike(speed=0.0, aim=0.0), "speed"),
        (Strike(speed=-1.0, aim=0.0), "speed"),
        (Strike(speed=10.5, aim=0.0), "speed"),
        (Strike(speed=1.0, aim=float("nan")), "aim"),
        (Strike(speed=1.0, aim=0.0, side=0.7, height=0.5), "tip offset"),
        (Strike(speed=1.0, aim=0.0, elevation=-1.0), "elevation"),
        (Strike(speed=1.0, aim=0.0, elevation=91.0), "elevation"),
        (Strike(speed=float("inf"), aim=0.0), "speed"),
    ],
)
def test_bad_strikes_are_refused_with_the_input_named(strike: Strike, word: str) -> None:
    with pytest.raises(PhysicsInputError, match=word):
        strike_to_launch(strike, P)


def test_the_largest_offset_and_speed_are_accepted() -> None:
    launch = strike_to_launch(
        Strike(speed=10.0, aim=0.0, side=0.8 * math.cos(1), height=0.8 * math.sin(1)), P
    )
    assert math.hypot(*launch.v) > 9.9


def test_a_strike_at_the_speed_limit_is_simulated() -> None:
    launch = strike_to_launch(Strike(speed=10.0, aim=-56.16020485871766), P)
    result = simulate({"white": (1.0, 2.0), "red": (1.6875, 0.90625)}, "white", launch)
    assert result.duration > 0
