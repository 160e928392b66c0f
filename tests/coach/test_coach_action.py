"""The cue action in a player's words: thickness from the contact (1 - sin cut), side
running or check, screw or top, pace."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onered.coach.action import (
    Pace,
    Side,
    Spin,
    Thickness,
    describe,
    fraction_of_cut,
    pace_of,
    side_of,
    spin_of,
    thickness_of,
)
from onered.coach.words import action_words
from onered.game import PhysicsSimulator
from onered.physics.types import Strike
from onered.rules import Ball
from onered.table import BALL_RADIUS
from onered.texts import Lang

SIM = PhysicsSimulator()
CUE, RED = (0.9, 1.5), (0.9, 2.4)


def cut_stroke(cut: float, side: float = 0.0) -> tuple[Strike, dict[str, tuple[float, float]]]:
    """A stroke from CUE at RED that meets it at ``cut`` degrees (the red straight up the
    table; the aim passes the red's centre at 2R sin(cut), to the left)."""
    d = RED[1] - CUE[1]
    offset = 2 * BALL_RADIUS * math.sin(math.radians(cut))
    aim = 90.0 + math.degrees(math.asin(offset / d))
    return Strike(speed=1.5, aim=aim, side=side), {"white": CUE, "red": RED}


@pytest.mark.parametrize(
    ("cut", "thickness", "en", "ru"),
    [
        (0.0, Thickness.FULL, "full ball on the red", "полным шаром по красному"),
        (14.4775, Thickness.THREE_QUARTER, "three-quarter ball on the red", "в три четверти"),
        (30.0, Thickness.HALF, "half-ball on the red", "в пол-шара по красному"),
        (48.59, Thickness.QUARTER, "quarter ball on the red", "в четверть шара"),
        (75.0, Thickness.FINE, "fine on the red", "тонко по красному"),
    ],
)
def test_thickness_of_a_contact_is_one_minus_sine_of_the_cut(
    cut: float, thickness: Thickness, en: str, ru: str
) -> None:
    strike, balls = cut_stroke(cut)
    result = SIM.simulate(balls, "white", strike)
    action = describe(strike, None, balls, result, "white")
    assert action.object_ball is Ball.RED
    assert action.cut == pytest.approx(cut, abs=0.05)
    assert action.fraction == pytest.approx(1 - math.sin(math.radians(cut)), abs=1e-3)
    assert action.thickness is thickness
    assert action_words(action, Lang.EN).startswith(en)
    assert action_words(action, Lang.RU).startswith(ru)


def test_half_ball_is_a_thirty_degree_cut() -> None:
    assert fraction_of_cut(30.0) == pytest.approx(0.5)
    assert fraction_of_cut(0.0) == 1.0
    assert fraction_of_cut(90.0) == pytest.approx(0.0)


@given(st.floats(min_value=0.0, max_value=90.0))
def test_thickness_is_the_nearest_named_fraction(cut: float) -> None:
    fraction = fraction_of_cut(cut)
    named = {
        Thickness.FULL: 1.0,
        Thickness.THREE_QUARTER: 0.75,
        Thickness.HALF: 0.5,
        Thickness.QUARTER: 0.25,
        Thickness.FINE: 0.125,
    }
    got = thickness_of(fraction)
    nearest = min(named, key=lambda t: abs(named[t] - fraction))
    if fraction < 0.125:
        nearest = Thickness.FINE
    assert abs(named[got] - fraction) <= abs(named[nearest] - fraction) + 1e-12


@given(st.floats(min_value=0.0, max_value=90.0), st.floats(min_value=0.0, max_value=90.0))
def test_a_finer_cut_is_never_thicker(a: float, b: float) -> None:
    order = list(Thickness)
    lo, hi = sorted((a, b))
    assert order.index(thickness_of(fraction_of_cut(lo))) <= order.index(
        thickness_of(fraction_of_cut(hi))
    )


def test_side_off_a_cushion_is_running_when_it_turns_with_the_ball() -> None:
    # up and to the right into the right cushion: the ball comes off turning left
    balls = {"white": (1.2, 1.0), "red": (0.3, 3.2)}
    for side, running in ((-0.4, True), (0.4, False)):
        strike = Strike(speed=2.0, aim=60.0, side=side)
        action = describe(strike, None, balls, SIM.simulate(balls, "white", strike), "white")
        assert action.cushion_first
        assert action.side is (Side.LEFT if side < 0 else Side.RIGHT)
        assert action.running is running
    words = action_words(
        describe(
            Strike(2.0, 60.0, -0.4),
            None,
            balls,
            SIM.simulate(balls, "white", Strike(2.0, 60.0, -0.4)),
            "white",
        ),
        Lang.EN,
    )
    assert "left-hand side (running)" in words
    assert words.startswith("off a cushion first")


def test_no_side_below_a_tenth_of_the_radius() -> None:
    assert side_of(0.05) is Side.NONE
    assert side_of(-0.2) is Side.LEFT
    assert side_of(0.2) is Side.RIGHT


@pytest.mark.parametrize(
    ("height", "spin"),
    [
        (-0.6, Spin.DEEP_SCREW),
        (-0.3, Spin.SCREW),
        (0.0, Spin.CENTRE),
        (0.3, Spin.TOP),
        (0.6, Spin.STRONG_TOP),
    ],
)
def test_spin_of_the_tip_height(height: float, spin: Spin) -> None:
    assert spin_of(height) is spin


@pytest.mark.parametrize(
    ("speed", "pace"),
    [
        (0.4, Pace.VERY_SOFT),
        (0.8, Pace.SOFT),
        (1.5, Pace.MEDIUM),
        (2.5, Pace.FIRM),
        (3.8, Pace.HARD),
        (6.0, Pace.VERY_HARD),
    ],
)
def test_pace_of_the_speed(speed: float, pace: Pace) -> None:
    assert pace_of(speed) is pace


def test_a_stroke_that_meets_no_ball_has_no_thickness() -> None:
    balls = {"white": (0.9, 1.0), "red": (0.3, 3.2)}
    strike = Strike(speed=0.5, aim=0.0)
    action = describe(strike, None, balls, SIM.simulate(balls, "white", strike), "white")
    assert action.object_ball is None
    assert action.thickness is None
    assert action.fraction is None
    assert action_words(action, Lang.EN) == "no side, centre ball (stun), very soft"
